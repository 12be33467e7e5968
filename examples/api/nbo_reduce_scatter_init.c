#include <nbo.h>

/* The same sum every step, the input rewritten in place each time. */
int sum_rows_steps(nbo_comm_t comm, double *all, const int *counts, int steps)
{
    nbo_request_t req;
    int rc = nbo_reduce_scatter_init(MPI_IN_PLACE, all, counts, MPI_DOUBLE, MPI_SUM, comm, &req);
    for (int s = 0; rc == NBO_SUCCESS && s < steps; s++) {
        rc = nbo_start(&req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return rc;
}
