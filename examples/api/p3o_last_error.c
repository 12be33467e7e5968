#include <stdio.h>
#include <p3dfft_overlap.h>

void report(const char *call, int rc)
{
    if (rc != P3O_SUCCESS)   /* e.g. "nv = 0: at least one variable is needed" */
        fprintf(stderr, "%s: %s: %s\n", call, p3o_strerror(rc), p3o_last_error());
}
