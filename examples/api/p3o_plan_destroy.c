#include <p3dfft_overlap.h>

void finish(p3o_plan_t *plan)
{
    p3o_plan_destroy(plan);   /* collective; *plan becomes NULL */
    p3o_plan_destroy(plan);   /* a no-op now */
    MPI_Finalize();
}
