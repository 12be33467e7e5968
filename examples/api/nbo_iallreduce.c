#include <nbo.h>

void compute(void);

/* A global dot product overlapped with local work. */
int dot(nbo_comm_t comm, const double *x, const double *y, int n, double *result)
{
    double local = 0;
    for (int i = 0; i < n; i++)
        local += x[i] * y[i];
    nbo_request_t req;
    int rc = nbo_iallreduce(&local, result, 1, MPI_DOUBLE, MPI_SUM, comm, &req);
    if (rc != NBO_SUCCESS)
        return rc;
    compute();
    return nbo_wait(&req);
}
