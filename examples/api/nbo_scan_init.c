#include <nbo.h>

/* Each step's running total over the ranks up to this one. */
int running_totals(nbo_comm_t comm, double *mine, double *upto, int n, int steps)
{
    nbo_request_t req;
    int rc = nbo_scan_init(mine, upto, n, MPI_DOUBLE, MPI_SUM, comm, &req);
    for (int s = 0; rc == NBO_SUCCESS && s < steps; s++) {
        rc = nbo_start(&req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return rc;
}
