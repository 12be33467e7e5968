#include <stdio.h>
#include <p3dfft_overlap.h>

void report(const char *call, int rc)
{
    if (rc != P3O_SUCCESS)
        fprintf(stderr, "%s: %s\n", call, p3o_strerror(rc));
}
