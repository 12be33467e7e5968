#include <nbo.h>

void diagnose(const double *norms, int n);

/* Each step's norms, maximum over the ranks, to rank 0 for printing. */
int norms_per_step(nbo_comm_t comm, int rank, double *norms, double *worst, int n, int steps)
{
    nbo_request_t req;
    int rc = nbo_reduce_init(norms, worst, n, MPI_DOUBLE, MPI_MAX, 0, comm, &req);
    for (int s = 0; rc == NBO_SUCCESS && s < steps; s++) {
        rc = nbo_start(&req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
        if (rc == NBO_SUCCESS && rank == 0)
            diagnose(worst, n);
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return rc;
}
