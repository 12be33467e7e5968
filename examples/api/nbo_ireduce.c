#include <nbo.h>

/* The sum of every rank's residuals on rank 0 (total ignored elsewhere). */
int residual_sum(nbo_comm_t comm, const double *local, double *total, int n)
{
    nbo_request_t req;
    int rc = nbo_ireduce(local, total, n, MPI_DOUBLE, MPI_SUM, 0, comm, &req);
    return rc == NBO_SUCCESS ? nbo_wait(&req) : rc;
}
