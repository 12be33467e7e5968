#include <nbo.h>

/* Drop a persistent request, started or not. */
int drop(nbo_request_t *req)
{
    int rc = nbo_wait(req);            /* complete it if it runs */
    int rc2 = nbo_request_free(req);   /* *req becomes NBO_REQUEST_NULL */
    return rc != NBO_SUCCESS ? rc : rc2;
}
