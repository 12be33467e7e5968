#include <nbo.h>

/* One step with a request made by nbo_alltoall_init. */
int step(nbo_request_t *req)
{
    int rc = nbo_start(req);
    if (rc == NBO_SUCCESS)
        rc = nbo_wait(req);
    return rc;
}
