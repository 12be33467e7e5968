#include <nbo.h>

/* Sum every rank's contributions to all rows; rank i keeps its own
 * counts[i] rows of n values, at the start of mine. */
int sum_rows(nbo_comm_t comm, const double *all, double *mine, const int *counts)
{
    nbo_request_t req;
    int rc = nbo_ireduce_scatter(all, mine, counts, MPI_DOUBLE, MPI_SUM, comm, &req);
    return rc == NBO_SUCCESS ? nbo_wait(&req) : rc;
}
