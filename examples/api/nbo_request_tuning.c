#include <stdio.h>
#include <nbo.h>

/* Start a tuned persistent request until its trial is over. */
int settle(nbo_request_t *req)
{
    int left = 1, rc = NBO_SUCCESS;
    while (left > 0 && rc == NBO_SUCCESS) {
        rc = nbo_start(req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(req);
        if (rc == NBO_SUCCESS)
            rc = nbo_request_tuning(*req, NULL, &left);
    }
    return rc;
}
