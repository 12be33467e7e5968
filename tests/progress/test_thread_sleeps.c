/*
 * test_thread_sleeps.c - the progress thread sleeps when nothing can move.
 *
 * Rank 0 starts an all-to-all that cannot complete for a while, because
 * rank 1 (the unresponsive peer) enters the collective only after IDLE_S.
 * Rank 0's main thread sleeps meanwhile, so the process CPU time over that
 * interval is what libnbo spends in the background: it must stay under 1 %
 * of a core.
 *
 * With the argument "wait", rank 0's main thread calls nbo_wait at once
 * instead, and the whole process must again stay under 1 % of a core over
 * the wait: a waiter sleeps on the engine's descriptor (it drives) and does
 * not spin.
 */
#include "nbo_test.h"

#include <string.h>

#define IDLE_S 1.0

int main(int argc, char **argv)
{
    int provided, P, me;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (P < 2) {
        fprintf(stderr, "test_thread_sleeps needs P >= 2\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    nbo_comm_t comm = nbo_test_comm(NBO_PROGRESS_THREAD, 0, NBO_ALG_AUTO);
    nbo_comm_info_t info;
    nbo_comm_query(comm, &info);
    enum { N = 65536 };
    char *s = calloc((size_t)N, (size_t)P), *r = calloc((size_t)N, (size_t)P);
    double used = 0;
    nbo_request_t req;
    /* A warm-up call first: connecting to a peer is one-time work, not idle
     * time (ofi_rxm connects on the first message and fills its buffers). */
    int rc = nbo_ialltoall(s, N, MPI_BYTE, r, N, MPI_BYTE, comm, &req);
    if (rc == NBO_SUCCESS)
        rc = nbo_wait(&req);
    if (rc != NBO_SUCCESS) {
        fprintf(stderr, "warm-up all-to-all: %s\n", nbo_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 1) {
        struct timespec ts = {(time_t)(IDLE_S + 0.5), 0};
        nanosleep(&ts, NULL);
    }
    rc = nbo_ialltoall(s, N, MPI_BYTE, r, N, MPI_BYTE, comm, &req);
    int in_wait = argc > 1 && strcmp(argv[1], "wait") == 0;
    if (me == 0 && rc == NBO_SUCCESS && in_wait) {
        double c0 = nbo_test_cpu(), t0 = nbo_test_now();
        rc = nbo_wait(&req); /* rank 1 comes after IDLE_S + 0.5 s */
        used = (nbo_test_cpu() - c0) / (nbo_test_now() - t0);
    } else if (me == 0 && rc == NBO_SUCCESS) {
        struct timespec settle = {0, 100 * 1000 * 1000}, idle = {(time_t)IDLE_S, 0};
        nanosleep(&settle, NULL); /* let the first window go out */
        double c0 = nbo_test_cpu();
        nanosleep(&idle, NULL);
        used = (nbo_test_cpu() - c0) / IDLE_S;
    }
    if (rc == NBO_SUCCESS && req != NBO_REQUEST_NULL)
        rc = nbo_wait(&req);
    int bad = rc != NBO_SUCCESS || used > 0.01, any;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0)
        printf("%s: engine %s: CPU while %s %.3f %% of a core (limit 1 %%), wait: %s\n",
               any ? "FAIL" : "PASS", info.engine,
               in_wait ? "blocked in nbo_wait" : "idle in the background", 100 * used,
               nbo_strerror(rc));
    free(s);
    free(r);
    nbo_comm_free(&comm);
    MPI_Finalize();
    return any;
}
