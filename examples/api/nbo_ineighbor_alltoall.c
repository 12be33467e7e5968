#include <nbo.h>

/* On a communicator created on a Cartesian MPI communicator of nd
 * dimensions: n doubles to each of the 2 * nd neighbours (-1 then +1 per
 * dimension) from out, and n from each into in, in the same order. */
int swap_faces(nbo_comm_t cart, const double *out, double *in, int n)
{
    nbo_request_t req;
    int rc = nbo_ineighbor_alltoall(out, n, MPI_DOUBLE, in, n, MPI_DOUBLE, cart, &req);
    return rc == NBO_SUCCESS ? nbo_wait(&req) : rc;
}
