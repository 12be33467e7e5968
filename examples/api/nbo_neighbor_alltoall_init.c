#include <nbo.h>

/* A halo exchange compiled once and started every step (counts and
 * displacements per neighbour, as MPI_Neighbor_alltoallv takes them). */
int halo_steps(nbo_comm_t cart, const double *out, const int *sc, const int *sd, double *in,
               const int *rc, const int *rd, int steps)
{
    nbo_request_t req;
    int err = nbo_neighbor_alltoallv_init(out, sc, sd, MPI_DOUBLE, in, rc, rd, MPI_DOUBLE, cart,
                                          &req);
    for (int s = 0; err == NBO_SUCCESS && s < steps; s++) {
        err = nbo_start(&req);
        if (err == NBO_SUCCESS)
            err = nbo_wait(&req);
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return err;
}
