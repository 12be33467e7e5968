#include <stdio.h>
#include <stdlib.h>
#include <p3dfft_overlap.h>

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    p3o_plan_t plan;
    int rc = p3o_plan_create(MPI_COMM_WORLD, 64, 64, 64, 4, P3O_DOUBLE,
                             P3O_PIPELINED_NBO, NULL, &plan);
    if (rc != P3O_SUCCESS) {
        fprintf(stderr, "%s: %s\n", p3o_strerror(rc), p3o_last_error());
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    p3o_local_t loc;
    p3o_local_sizes(plan, &loc);
    double *u = calloc(loc.nv * loc.real_count, sizeof(double));
    double *U = calloc(loc.nv * loc.complex_count, 2 * sizeof(double));
    /* ... fill u, then many p3o_forward / p3o_backward ... */
    p3o_forward(plan, u, U);
    p3o_plan_destroy(&plan);
    free(u);
    free(U);
    MPI_Finalize();
    return 0;
}
