#include <nbo.h>

/* n values of every rank to rank 0 for output, rank by rank in all. */
int collect(nbo_comm_t comm, const double *mine, double *all, int n)
{
    nbo_request_t req;
    int rc = nbo_igather(mine, n, MPI_DOUBLE, all, n, MPI_DOUBLE, 0, comm, &req);
    return rc == NBO_SUCCESS ? nbo_wait(&req) : rc;
}
