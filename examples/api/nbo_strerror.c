#include <stdio.h>
#include <nbo.h>

int finish(nbo_request_t *req)
{
    int rc = nbo_wait(req);
    if (rc != NBO_SUCCESS)
        fprintf(stderr, "nbo_wait: %s (%d)\n", nbo_strerror(rc), rc);
    return rc;
}
