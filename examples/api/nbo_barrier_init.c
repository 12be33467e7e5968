#include <nbo.h>

void work(int step);

/* Every step ends once every rank has finished it, the wait overlapped. */
int steps(nbo_comm_t comm, int n)
{
    nbo_request_t req;
    int rc = nbo_barrier_init(comm, &req);
    for (int s = 0; rc == NBO_SUCCESS && s < n; s++) {
        work(s);
        rc = nbo_start(&req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
    }
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    return rc;
}
