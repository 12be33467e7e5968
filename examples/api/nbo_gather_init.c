#include <nbo.h>

/* Rank 0 reads the input of every step and hands each rank its n values. */
int distribute(nbo_comm_t comm, const double *input, double *mine, int n, int steps)
{
    nbo_request_t req;
    int rc = nbo_scatter_init(input, n, MPI_DOUBLE, mine, n, MPI_DOUBLE, 0, comm, &req);
    for (int s = 0; rc == NBO_SUCCESS && s < steps; s++) {
        rc = nbo_start(&req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return rc;
}
