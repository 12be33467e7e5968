#include <nbo.h>

/* Rank 0's parameters to every rank. */
int share_params(nbo_comm_t comm, double *params, int n)
{
    nbo_request_t req;
    int rc = nbo_ibcast(params, n, MPI_DOUBLE, 0, comm, &req);
    return rc == NBO_SUCCESS ? nbo_wait(&req) : rc;
}
