#include <nbo.h>

int handle_messages(void);

/* A sparse exchange (NBX): keep serving messages until every rank has
 * sent its own, which the barrier says once all ranks entered it. */
int drain(nbo_comm_t comm)
{
    nbo_request_t req;
    int done = 0, rc = nbo_ibarrier(comm, &req);
    while (rc == NBO_SUCCESS && !done) {
        handle_messages();
        rc = nbo_test(&req, &done);
    }
    return rc;
}
