#include <nbo.h>

int exchange_two(nbo_comm_t a, nbo_comm_t b, const int *s1, int *r1,
                 const int *s2, int *r2, int n)
{
    nbo_request_t reqs[2] = {NBO_REQUEST_NULL, NBO_REQUEST_NULL};
    int rc = nbo_ialltoall(s1, n, MPI_INT, r1, n, MPI_INT, a, &reqs[0]);
    if (rc == NBO_SUCCESS)
        rc = nbo_ialltoall(s2, n, MPI_INT, r2, n, MPI_INT, b, &reqs[1]);
    int rc2 = nbo_waitall(2, reqs);   /* NBO_REQUEST_NULL entries skipped */
    return rc != NBO_SUCCESS ? rc : rc2;
}
