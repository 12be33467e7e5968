#include <nbo.h>

void update(double *field, int n);

/* The root's field to every rank after each of its updates. */
int broadcast_steps(nbo_comm_t comm, int root, int rank, double *field, int n, int steps)
{
    nbo_request_t req;
    int rc = nbo_bcast_init(field, n, MPI_DOUBLE, root, comm, &req);
    for (int s = 0; rc == NBO_SUCCESS && s < steps; s++) {
        if (rank == root)
            update(field, n);
        rc = nbo_start(&req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return rc;
}
