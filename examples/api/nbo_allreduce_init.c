#include <nbo.h>

/* Gradients summed in place at every step: compiled once. */
int train(nbo_comm_t comm, float *grad, int n, int steps)
{
    nbo_request_t req;
    int rc = nbo_allreduce_init(MPI_IN_PLACE, grad, n, MPI_FLOAT, MPI_SUM, comm, &req);
    for (int s = 0; rc == NBO_SUCCESS && s < steps; s++) {
        rc = nbo_start(&req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return rc;
}
