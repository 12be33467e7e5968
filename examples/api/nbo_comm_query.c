#include <stdio.h>
#include <nbo.h>

void describe(nbo_comm_t comm)
{
    nbo_comm_info_t info;
    if (nbo_comm_query(comm, &info) == NBO_SUCCESS && info.rank == 0)
        printf("%d ranks: engine %s, progress %s, W = %d%s (%s)\n", info.size,
               info.engine, nbo_progress_name(info.progress),
               info.window, info.engine_caps & NBO_CAP_OFFLOAD ? ", RDMA" : "",
               info.engine_detail);
}
