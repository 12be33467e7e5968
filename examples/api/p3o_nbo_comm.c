#include <stdio.h>
#include <p3dfft_overlap.h>

void which_engine(p3o_plan_t plan)
{
    nbo_comm_t comm;
    nbo_comm_info_t info;
    if (p3o_nbo_comm(plan, &comm) == P3O_SUCCESS && comm != NBO_COMM_NULL &&
        nbo_comm_query(comm, &info) == NBO_SUCCESS)
        printf("column transposes: engine %s, progress %s\n",
               info.engine, nbo_progress_name(info.progress));
}
