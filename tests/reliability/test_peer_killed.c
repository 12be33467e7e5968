/*
 * test_peer_killed.c - a peer dies in the middle of an all-to-all.
 *
 *   test_peer_killed DIR          the last rank SIGKILLs itself
 *   test_peer_killed DIR link [BYTES]
 *                                 nobody dies: operations run back to
 *                                 back, rank 0 writes DIR/started once the
 *                                 first is in flight, and the
 *                                 test (run_link_down.sh, or the Soft-RoCE
 *                                 guest's suite) takes a link down; every
 *                                 rank that can still report must report an
 *                                 error.  BYTES per peer, default 32 MiB
 *                                 (rxe allows 8 MiB per message at most)
 *
 * An error from nbo_ialltoall itself is a FAIL: the fault must hit an
 * operation in flight, not one that never started.
 *
 * The last rank starts the operation and kills itself (SIGKILL) before it
 * completes; the survivors' nbo_wait must return an error within the
 * timeout (NBO_TIMEOUT, set small by the test), nbo_comm_free must still
 * release the communicator, and the process must exit.  (A survivor whose
 * own operation completed before the peer died gets NBO_ERR_TIMEOUT from
 * nbo_comm_free instead, which releases the communicator all the same.)  Run under
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
        /* run_peer_killed.sh watches this process by its pid. */
        snprintf(out, sizeof(out), "%s/pid-%d", argv[1], me);
        FILE *pf = fopen(out, "w");
        if (pf) {
            fprintf(pf, "%d\n", (int)getpid());
            fclose(pf);
        }
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
    const int n = link_mode ? (argc > 3 ? atoi(argv[3]) : 32 << 20) : 4 << 20;
    char *s = calloc((size_t)n, (size_t)P), *r = calloc((size_t)n, (size_t)P);
    MPI_Barrier(MPI_COMM_WORLD);
    nbo_request_t req;
    rc = nbo_ialltoall(s, n, MPI_BYTE, r, n, MPI_BYTE, comm, &req);
    if (link_mode && me == 0 && argc > 1 && rc == NBO_SUCCESS) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/started", argv[1]);
        FILE *f = fopen(path, "w");
        if (f)
            fclose(f);
    } else if (!link_mode && me == P - 1) {
        fflush(stdout);
        raise(SIGKILL); /* dies with the operation in flight */
    }
    /* Link mode: the cut comes from outside at a moment this program does
     * not know, and one operation may finish before it (rxe moves 8 MiB in
     * well under a second), so operations follow each other until one
     * fails, for at most LINK_MODE_SECONDS; every one of them must be
     * posted.  Running out of time with no error is a FAIL. */
    enum { LINK_MODE_SECONDS = 15 };
    const double t_first = now();
    double t0 = t_first;
    int posted = rc == NBO_SUCCESS, ops = 0;
    while (rc == NBO_SUCCESS) {
        rc = nbo_wait(&req);
        ops++;
        if (rc != NBO_SUCCESS || !link_mode || now() - t_first > LINK_MODE_SECONDS)
            break;
        t0 = now();
        rc = nbo_ialltoall(s, n, MPI_BYTE, r, n, MPI_BYTE, comm, &req);
        posted = rc == NBO_SUCCESS;
    }
    double waited = now() - t0;
    const double t_free = now();
    int freed = nbo_comm_free(&comm);
    const double free_s = now() - t_free;
    /* The fault must show as an error within bounds: from nbo_wait, the
     * communicator then released locally; or, where this rank's operation
     * completed before the peer died (its data was already in this host's
     * socket buffers), from nbo_comm_free's bounded agreement. */
    int ok = posted && req == NBO_REQUEST_NULL && comm == NBO_COMM_NULL &&
             (rc != NBO_SUCCESS ? freed == NBO_SUCCESS : freed == NBO_ERR_TIMEOUT);
    const char *dir = argc > 1 ? argv[1] : ".";
    char path[4096], tmp[4200];
    snprintf(path, sizeof(path), "%s/rank-%d.txt", dir, me);
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (f) {
        fprintf(f, "%s: rank %d (engine %s/%s): %s returned \"%s\" after %.2f s "
                   "(operation %d); nbo_comm_free: \"%s\" after %.2f s\n",
                ok ? "PASS" : "FAIL", me, info.engine,
                nbo_progress_name(info.progress), posted ? "nbo_wait" : "nbo_ialltoall",
                nbo_strerror(rc), waited, ops + !posted, nbo_strerror(freed), free_s);
        fclose(f);
        rename(tmp, path); /* a report appears whole or not at all */
    }
    /* Link mode has no victim process to hold the job open: hydra ends the
     * job as soon as one rank exits, which would kill a rank still waiting
     * for its own error (one side of a cut link often learns of it long
     * before the other).  Stay until every rank has reported, bounded. */
    for (int k = 0; link_mode && k < P; k++) {
        char other[4096];
        snprintf(other, sizeof(other), "%s/rank-%d.txt", dir, k);
        for (double t = now(); access(other, F_OK) != 0 && now() - t < 60;)
            usleep(20000);
    }
    free(s);
    free(r);
    /* MPI_Finalize may wait for the dead peer; the verdict is already out. */
    _exit(ok ? 0 : 1);
}
