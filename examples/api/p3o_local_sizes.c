#include <math.h>
#include <p3dfft_overlap.h>

/* Variable v of u on this rank's X-pencil: u = sin(x) along x. */
void fill(p3o_plan_t plan, double *u, int v)
{
    p3o_local_t l;
    if (p3o_local_sizes(plan, &l) != P3O_SUCCESS)
        return;
    double *w = u + (size_t)v * l.real_count;
    for (int z = 0; z < l.xsize[2]; z++)
        for (int y = 0; y < l.xsize[1]; y++)
            for (int x = 0; x < l.nx; x++)
                w[((size_t)z * l.xsize[1] + y) * l.nx + x] =
                    sin(6.283185307179586 * x / l.nx);
}
