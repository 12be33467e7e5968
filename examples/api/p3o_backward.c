#include <p3dfft_overlap.h>

/* Back to real space, normalised: backward(forward(u)) is nx*ny*nz*u. */
int physical(p3o_plan_t plan, const double *U, double *u)
{
    p3o_local_t loc;
    int rc = p3o_backward(plan, U, u);
    if (rc == P3O_SUCCESS)
        rc = p3o_local_sizes(plan, &loc);
    if (rc != P3O_SUCCESS)
        return rc;
    double scale = 1.0 / ((double)loc.nx * loc.ny * loc.nz);
    for (size_t i = 0; i < loc.nv * loc.real_count; i++)
        u[i] *= scale;
    return P3O_SUCCESS;
}
