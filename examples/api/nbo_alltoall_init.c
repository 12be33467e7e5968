#include <nbo.h>

void compute(int step);

/* Compiled once, started steps times; sbuf may change between starts. */
int iterate(nbo_comm_t comm, const double *sbuf, double *rbuf, int n, int steps)
{
    nbo_request_t req;
    int rc = nbo_alltoall_init(sbuf, n, MPI_DOUBLE, rbuf, n, MPI_DOUBLE, comm, &req);
    for (int s = 0; rc == NBO_SUCCESS && s < steps; s++) {
        rc = nbo_start(&req);
        if (rc == NBO_SUCCESS) {
            compute(s);
            rc = nbo_wait(&req);    /* req stays valid, inactive */
        }
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return rc;
}
