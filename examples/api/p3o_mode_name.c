#include <stdio.h>
#include <p3dfft_overlap.h>

void print_plan(p3o_plan_t plan)
{
    p3o_local_t l;
    if (p3o_local_sizes(plan, &l) == P3O_SUCCESS)
        printf("%d x %d x %d, %d variables, %s, %s\n", l.nx, l.ny, l.nz, l.nv,
               p3o_mode_name(l.mode), p3o_precision_name(l.precision));
}
