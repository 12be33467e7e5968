/*
 * persistent.c - compile once, start many (as FFTW plans).
 *
 *   mpiexec -n 2 ./persistent
 *
 * nbo_alltoall_init compiles the task list once; each nbo_start only
 * re-arms it.  The buffers are bound at init; refill them between starts.
 */
#include <nbo.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(call)                                                                  \
    do {                                                                             \
        int rc_ = (call);                                                            \
        if (rc_ != NBO_SUCCESS) {                                                    \
            fprintf(stderr, "%s: %s\n", #call, nbo_strerror(rc_));                   \
            MPI_Abort(MPI_COMM_WORLD, 1);                                            \
        }                                                                            \
    } while (0)

int main(int argc, char **argv)
{
    int provided, P, me;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    nbo_comm_t comm;
    CHECK(nbo_comm_create(MPI_COMM_WORLD, NULL, &comm));

    const int n = 1024, steps = 100;
    int *send = malloc(sizeof(int) * n * P), *recv = malloc(sizeof(int) * n * P);
    nbo_request_t req;
    CHECK(nbo_alltoall_init(send, n, MPI_INT, recv, n, MPI_INT, comm, &req));

    int errors = 0;
    for (int step = 0; step < steps; step++) {
        for (int i = 0; i < n * P; i++)
            send[i] = step * 1000 + me * 10 + i / n; /* new contents each time */
        CHECK(nbo_start(&req));
        /* ... compute here ... */
        CHECK(nbo_wait(&req)); /* inactive again, not freed */
        for (int p = 0; p < P; p++)
            errors += recv[p * n] != step * 1000 + p * 10 + me;
    }
    nbo_algorithm_t alg;
    nbo_request_algorithm(req, &alg);
    CHECK(nbo_request_free(&req));
    printf("rank %d: %d starts of one compiled %s schedule, %d errors\n", me, steps,
           nbo_algorithm_name(alg), errors);
    free(send);
    free(recv);
    CHECK(nbo_comm_free(&comm));
    MPI_Finalize();
    return errors != 0;
}
