/*
 * test_peer_killed.c - a peer dies in the middle of an all-to-all.
 *
 *   test_peer_killed DIR          the last rank SIGKILLs itself
 *   test_peer_killed DIR link     nobody dies: rank 0 writes DIR/started
 *                                 once the operation is in flight, and the
 *                                 test (run_link_down.sh) takes a host's link
 *                                 down; every rank that can still report
 *                                 must report an error
 *
 * The last rank starts the operation and kills itself (SIGKILL) before it
 * completes; the survivors' nbo_wait must return an error within the
 * timeout (NBO_TIMEOUT, set small by the test), nbo_comm_free must still
 * release the communicator, and the process must exit.  Run under
 * `mpiexec -disable-auto-cleanup` so that hydra lets the survivors finish.
 * hydra's mpiexec would take the survivors down with the victim
 * (tests/common/fault_victim.h says how that is avoided) and their stdout
 * with it, so each survivor writes its verdict to DIR/rank-N.txt (argv[1]);
 * the test (run_peer_killed.sh) waits for those files.
 */
#include <nbo.h>

#include "fault_victim.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv)
{
    int provided, P, me;
    const int link_mode = argc > 2 && strcmp(argv[2], "link") == 0;
    if (!link_mode)
        fault_victim_setup(argc > 1 ? argv[1] : NULL, "%s/rank-%d.txt");
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    fault_victim_after_init();
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /* mpiexec is gone once the peer dies: a write to its pipes would kill
     * us with SIGPIPE (UCX logs the dead peer on stdout).  Keep our output
     * in DIR instead. */
    signal(SIGPIPE, SIG_IGN);
    if (argc > 1) {
        char out[4096];
        snprintf(out, sizeof(out), "%s/log-%d.txt", argv[1], me);
        if (!freopen(out, "w", stdout) || !freopen(out, "a", stderr))
            return 1;
    }
    nbo_comm_t comm;
    int rc = nbo_comm_create(MPI_COMM_WORLD, NULL, &comm);
    if (rc == NBO_ERR_ENGINE) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/skip", argc > 1 ? argv[1] : ".");
        FILE *f = fopen(path, "w");
        if (f)
            fclose(f);
        MPI_Finalize();
        return 77;
    }
    if (rc != NBO_SUCCESS) {
        fprintf(stderr, "nbo_comm_create: %s\n", nbo_strerror(rc));
        return 1;
    }
    nbo_comm_info_t info;
    nbo_comm_query(comm, &info);
    /* Not done before the fault: 4 MiB per peer on one host; 32 MiB (about
     * 1.3 s at 200 Mbit/s) when a link is taken down from outside. */
    const int n = link_mode ? 32 << 20 : 4 << 20;
    char *s = calloc((size_t)n, (size_t)P), *r = calloc((size_t)n, (size_t)P);
    MPI_Barrier(MPI_COMM_WORLD);
    nbo_request_t req;
    rc = nbo_ialltoall(s, n, MPI_BYTE, r, n, MPI_BYTE, comm, &req);
    if (link_mode && me == 0 && argc > 1) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/started", argv[1]);
        FILE *f = fopen(path, "w");
        if (f)
            fclose(f);
    } else if (!link_mode && me == P - 1) {
        fflush(stdout);
        raise(SIGKILL); /* dies with the operation in flight */
    }
    double t0 = now();
    if (rc == NBO_SUCCESS)
        rc = nbo_wait(&req);
    double waited = now() - t0;
    int freed = nbo_comm_free(&comm);
    int ok = rc != NBO_SUCCESS && req == NBO_REQUEST_NULL && freed == NBO_SUCCESS;
    char path[4096];
    snprintf(path, sizeof(path), "%s/rank-%d.txt", argc > 1 ? argv[1] : ".", me);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%s: rank %d (engine %s/%s): nbo_wait returned \"%s\" after %.2f s; "
                   "nbo_comm_free: %s\n",
                ok ? "PASS" : "FAIL", me, nbo_engine_name(info.engine),
                nbo_progress_name(info.progress), nbo_strerror(rc), waited, nbo_strerror(freed));
        fclose(f);
    }
    free(s);
    free(r);
    /* MPI_Finalize may wait for the dead peer; the verdict is already out. */
    _exit(ok ? 0 : 1);
}
