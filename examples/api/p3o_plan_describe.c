#include <stdio.h>
#include <p3dfft_overlap.h>

void log_plan(p3o_plan_t plan)
{
    char line[512];
    if (p3o_plan_describe(plan, line, sizeof(line)) == P3O_SUCCESS)
        printf("plan: %s\n", line);
}
