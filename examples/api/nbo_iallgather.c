#include <nbo.h>

/* Every rank's n values, rank by rank, into all (size * n). */
int gather_all(nbo_comm_t comm, const int *mine, int *all, int n)
{
    nbo_request_t req;
    int rc = nbo_iallgather(mine, n, MPI_INT, all, n, MPI_INT, comm, &req);
    return rc == NBO_SUCCESS ? nbo_wait(&req) : rc;
}
