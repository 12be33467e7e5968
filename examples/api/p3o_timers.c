#include <stdio.h>
#include <p3dfft_overlap.h>

void print_times(p3o_plan_t plan)
{
    p3o_timers_t t;
    if (p3o_timers(plan, &t) != P3O_SUCCESS || t.calls == 0)
        return;
    printf("per call: total %.3f ms, column exchange %.3f ms, waiting %.3f ms\n",
           1e3 * t.total / t.calls, 1e3 * t.col_comm / t.calls, 1e3 * t.wait / t.calls);
    p3o_timers_reset(plan);
}
