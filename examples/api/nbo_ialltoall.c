#include <nbo.h>

void compute(void);

int exchange(nbo_comm_t comm, const double *sbuf, double *rbuf, int n)
{
    nbo_request_t req;
    int rc = nbo_ialltoall(sbuf, n, MPI_DOUBLE, rbuf, n, MPI_DOUBLE, comm, &req);
    if (rc != NBO_SUCCESS)
        return rc;
    compute();                 /* the transfer progresses meanwhile */
    return nbo_wait(&req);     /* req is NBO_REQUEST_NULL again */
}
