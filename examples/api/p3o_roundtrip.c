#include <p3dfft_overlap.h>

/* Divide each variable's spectrum by N (the transforms do not). */
static void normalise(void *spectrum, int v, void *arg)
{
    const p3o_local_t *loc = arg;
    double *c = spectrum, s = 1.0 / ((double)loc->nx * loc->ny * loc->nz);
    (void)v;
    for (size_t i = 0; i < 2 * loc->complex_count; i++)
        c[i] *= s;
}

int filter_step(p3o_plan_t plan, double *u, double *spec)
{
    p3o_local_t loc;
    int rc = p3o_local_sizes(plan, &loc);
    if (rc == P3O_SUCCESS)   /* in and out may be the same buffer */
        rc = p3o_roundtrip(plan, u, spec, u, normalise, &loc);
    return rc;
}
