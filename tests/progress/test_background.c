/*
 * test_background.c - progress happens with no nbo calls.
 *
 * Rank 0 starts an all-to-all and then sleeps (no nbo call) for SLEEP_S.
 * With a window of 1 every rank needs rank 0 to post several windows, so
 * the other ranks can only finish early if rank 0's progress thread runs
 * its task list.  They must finish well before rank 0 wakes.
 */
#include <string.h>

#include "nbo_test.h"

#define SLEEP_S 3.0
#define BYTES   (256 * 1024) /* per peer: large enough for rendezvous */

int main(int argc, char **argv)
{
    int provided, P, me;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);

    nbo_comm_t comm = nbo_test_comm(NBO_PROGRESS_THREAD, 1, NBO_ALG_PAIRWISE);
    nbo_comm_info_t info;
    nbo_comm_query(comm, &info);

    size_t n = (size_t)BYTES * P;
    unsigned char *s = malloc(n), *r = malloc(n);
    for (size_t i = 0; i < n; i++)
        s[i] = (unsigned char)(i * 31 + me);
    memset(r, 0, n);

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = nbo_test_now();
    nbo_request_t req;
    int rc = nbo_ialltoall(s, BYTES, MPI_BYTE, r, BYTES, MPI_BYTE, comm, &req);
    double done_at = 0;
    if (rc == NBO_SUCCESS) {
        if (me == 0) {
            struct timespec ts = {(time_t)SLEEP_S, 0};
            nanosleep(&ts, NULL); /* no nbo calls */
        }
        rc = nbo_wait(&req);
        done_at = nbo_test_now() - t0;
    }
    int bad = rc != NBO_SUCCESS;
    for (int p = 0; p < P && !bad; p++)
        for (size_t i = 0; i < BYTES; i++)
            if (r[(size_t)p * BYTES + i] != (unsigned char)(((size_t)me * BYTES + i) * 31 + p)) {
                bad = 1;
                break;
            }
    double slowest_other = me == 0 ? 0 : done_at;
    double worst;
    MPI_Allreduce(&slowest_other, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    int any_bad;
    MPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    /* The others must be done well before rank 0 wakes up. */
    int late = worst > SLEEP_S / 2;
    if (me == 0)
        printf("%s: engine %s, P=%d: other ranks done after %.3f s while rank 0 slept %.1f s%s\n",
               any_bad || late ? "FAIL" : "PASS", info.engine, P, worst, SLEEP_S,
               any_bad ? " (wrong data or error)" : "");
    free(s);
    free(r);
    nbo_comm_free(&comm);
    MPI_Finalize();
    return any_bad || late;
}
