#include <nbo.h>

void compute_a_little(void);

/* Compute until the request is complete.  *req may be NBO_REQUEST_NULL
 * already: nbo_test then sets done = 1 at once. */
int overlap(nbo_request_t *req)
{
    int done = 0, rc = NBO_SUCCESS;
    while (!done && rc == NBO_SUCCESS) {
        compute_a_little();
        rc = nbo_test(req, &done);
    }
    return rc;     /* *req is NBO_REQUEST_NULL, or inactive if persistent */
}
