#include <stdio.h>
#include <p3dfft_overlap.h>

/* "--mode pipelined_nbo --precision single" */
int parse(const char *mode_name, const char *precision_name, p3o_mode_t *mode,
          p3o_precision_t *precision)
{
    int rc = p3o_mode_from_name(mode_name, mode);
    if (rc == P3O_SUCCESS)
        rc = p3o_precision_from_name(precision_name, precision);
    if (rc != P3O_SUCCESS)
        fprintf(stderr, "%s\n", p3o_last_error());
    return rc;
}
