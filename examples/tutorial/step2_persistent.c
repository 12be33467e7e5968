/*
 * step2_persistent.c - tutorial step 2 (docs/tutorial.md): the same
 * exchange in a time-step loop, as a persistent request compiled once
 * and started every step.
 *
 *   mpiexec -n 2 ./step2
 */
#include <nbo.h>
#include <stdio.h>
#include <stdlib.h>

static double compute(long steps)
{
    double x = 0;
    for (long i = 1; i <= steps; i++)
        x += 1.0 / ((double)i * i);
    return x;
}

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

    const int n = 1 << 14, steps = 50; /* doubles per peer, time steps */
    double *send = malloc(sizeof(double) * n * P), *recv = calloc((size_t)n * P, sizeof(double));
    /* The buffers are bound here: each start sends what send holds then. */
    nbo_request_t req;
    CHECK(nbo_alltoall_init(send, n, MPI_DOUBLE, recv, n, MPI_DOUBLE, comm, &req));

    long wrong = 0;
    double x = 0;
    for (int step = 0; step < steps; step++) {
        for (int i = 0; i < n * P; i++)
            send[i] = step * 1e7 + me * 1e5 + i; /* this step's data */
        CHECK(nbo_start(&req)); /* re-arms the compiled task list */
        x += compute(200000);   /* overlapped with the exchange */
        CHECK(nbo_wait(&req));  /* inactive again, not freed: start it next step */
        for (int p = 0; p < P; p++)
            for (int i = 0; i < n; i++)
                wrong += recv[p * n + i] != step * 1e7 + p * 1e5 + (double)me * n + i;
    }
    CHECK(nbo_request_free(&req)); /* before nbo_comm_free */
    printf("rank %d: %d starts of one persistent request, %ld wrong values (compute %.3f)\n",
           me, steps, wrong, x);
    free(send);
    free(recv);
    CHECK(nbo_comm_free(&comm));
    MPI_Finalize();
    return wrong != 0;
}
