#include <stdio.h>
#include <nbo.h>

/* The end of a program: requests first, then the communicator, then MPI. */
void finish(nbo_comm_t *comm, nbo_request_t *persistent)
{
    nbo_wait(persistent);             /* returns at once if inactive */
    nbo_request_free(persistent);
    int rc = nbo_comm_free(comm);     /* collective */
    if (rc != NBO_SUCCESS)
        fprintf(stderr, "nbo_comm_free: %s\n", nbo_strerror(rc));
    MPI_Finalize();
}
