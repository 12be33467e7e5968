#include <nbo.h>

/* Where this rank's n items start in a global numbering: the sum of the
 * counts of the lower ranks (rank 0's first is 0: exscan leaves it). */
int first_index(nbo_comm_t comm, int rank, int n, int *first)
{
    nbo_request_t req;
    *first = 0;
    int rc = nbo_iexscan(&n, first, 1, MPI_INT, MPI_SUM, comm, &req);
    rc = rc == NBO_SUCCESS ? nbo_wait(&req) : rc;
    if (rank == 0)
        *first = 0;
    return rc;
}
