/*
 * test_ucx_wake.c - the progress thread is woken for work the application
 * posts.  Back-to-back all-to-alls of 64 KiB per peer on the UCX engine
 * with its progress thread, each completed by nbo_test calls in a loop (as
 * libnbo-mpi's MPI_Wait does: the application never drives, the thread
 * alone moves the data).  When a post left an operation in flight and did
 * not wake the sleeping thread, UCX's next step of that operation fired no
 * event, and the thread slept until its idle timeout (1 s): 10 of 20 runs
 * of 10 operations stalled so over TCP, 8 of 80 over shared memory.  Fails
 * if any operation takes more than 300 ms, or a byte arrives wrong.
 * Exits 77 without UCX.
 */
#include <mpi.h>
#include <nbo.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "nbo_test.h"

#define N (64 * 1024)
#define OPS 200
#define LIMIT_S 0.3

int main(int argc, char **argv)
{
    int provided, rank, P;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    if (provided < MPI_THREAD_MULTIPLE) {
        if (rank == 0)
            printf("SKIP: MPI gives no MPI_THREAD_MULTIPLE\n");
        MPI_Finalize();
        return 77;
    }
    nbo_comm_t comm = nbo_test_comm(NBO_PROGRESS_THREAD, 0, NBO_ALG_AUTO);
    unsigned char *s = malloc((size_t)N * P), *r = malloc((size_t)N * P);
    int bad = 0, slow = 0;
    double worst = 0;
    for (int op = 0; op < OPS; op++) {
        for (int d = 0; d < P; d++)
            for (size_t i = 0; i < N; i++)
                s[(size_t)d * N + i] = (unsigned char)(rank * 31 + d * 7 + op + i);
        double t0 = nbo_test_now();
        nbo_request_t req;
        int rc = nbo_ialltoall(s, N, MPI_BYTE, r, N, MPI_BYTE, comm, &req);
        for (int done = 0; rc == NBO_SUCCESS && !done;) {
            rc = nbo_test(&req, &done);
            if (!done)
                sched_yield();
        }
        double dt = nbo_test_now() - t0;
        if (rc != NBO_SUCCESS) {
            fprintf(stderr, "rank %d: operation %d: %s\n", rank, op, nbo_strerror(rc));
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (dt > worst)
            worst = dt;
        if (dt > LIMIT_S && slow++ < 3)
            fprintf(stderr, "rank %d: operation %d took %.0f ms\n", rank, op, dt * 1e3);
        for (int src = 0; src < P; src++)
            for (size_t i = 0; i < N; i++)
                bad += r[(size_t)src * N + i] != (unsigned char)(src * 31 + rank * 7 + op + i);
    }
    int mine[2] = {bad, slow}, all[2];
    MPI_Allreduce(mine, all, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_ucx_wake: %d back-to-back all-to-alls of %d B per peer, worst %.1f ms on "
               "rank 0; %d slower than %.0f ms, %d bytes wrong: %s\n",
               OPS, N, worst * 1e3, all[1], LIMIT_S * 1e3, all[0],
               all[0] || all[1] ? "FAIL" : "PASS");
    nbo_comm_free(&comm);
    free(s);
    free(r);
    MPI_Finalize();
    return all[0] || all[1] ? 1 : 0;
}
