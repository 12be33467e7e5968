#include <p3dfft_overlap.h>

/* u: nv real X-pencils; U: nv complex Z-pencils ((re, im) pairs). */
int spectrum(p3o_plan_t plan, const double *u, double *U)
{
    return p3o_forward(plan, u, U);
}
