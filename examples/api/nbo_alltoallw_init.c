#include <nbo.h>

/* The same exchange every step: its arrays built once by the caller. */
int exchange_steps(nbo_comm_t comm, const void *sbuf, const int *sc, const int *sd,
                   const MPI_Datatype *st, void *rbuf, const int *rc, const int *rd,
                   const MPI_Datatype *rt, int steps)
{
    nbo_request_t req;
    int err = nbo_alltoallw_init(sbuf, sc, sd, st, rbuf, rc, rd, rt, comm, &req);
    for (int s = 0; err == NBO_SUCCESS && s < steps; s++) {
        err = nbo_start(&req);
        if (err == NBO_SUCCESS)
            err = nbo_wait(&req);
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return err;
}
