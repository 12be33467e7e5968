#include <nbo.h>

/* Blocked on an MPI request while requests of an inline communicator are
 * outstanding: keep them moving too. */
void wait_mpi(MPI_Request *mreq)
{
    int done = 0;
    while (!done) {
        MPI_Test(mreq, &done, MPI_STATUS_IGNORE);
        nbo_progress();
    }
}
