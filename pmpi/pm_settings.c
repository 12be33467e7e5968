/* pm_settings.c - libnbo-mpi's NBO_PMPI_* variables, defined once: read by
 * pm_state.c, listed by nbo_info and in docs/pmpi.md. */
#include "pm_settings.h"

#define F(f) NBO_SETTING_FIELD(pm_env_t, f)
#define TEXT NBO_SETTING_TEXT, NULL, 0, 0, 0, NULL, 0, NULL

/* NBO_PMPI_MIN_SIZE's defaults: below these MPI serves a call.  libnbo's
 * value is background progress of large exchanges; a small call costs it
 * several times MPI's latency, and at 64 KiB MPI's eager protocol still
 * hides as much (allgather more: 128 KiB for allgather(v)).  From the
 * figures in docs/pmpi.md, "Choosing the sizes".  The neighbourhood
 * collectives are served only when named (NBO_PMPI_COLLS=all or neighbor):
 * no loop benchmark has shown them faster than MPI's yet, and they have no
 * size rule (a rank's counts need not be its neighbours').  Reduce and
 * gather are served as the six above (faster or equal at every size of the
 * loop benchmark); barrier (1.08x MPI's latency there), scatter, scan,
 * exscan, reduce-scatter and alltoallw only when named. */
static const nbo_setting_t pm_settings[] = {
    {"NBO_PMPI", TEXT, "on", F(pmpi), "off or 0: every call passes through to MPI"},
    {"NBO_PMPI_LOG", TEXT, "0", F(log), "1 or yes: a line per communicator saying who serves it"},
    {"NBO_PMPI_COLLS", TEXT,
     "alltoall,allreduce,reduce_scatter_block,allgather,allgatherv,bcast,reduce,gather",
     F(colls),
     "collectives served: alltoall, allreduce, reduce_scatter_block, allgather, allgatherv, "
     "bcast, neighbor, barrier, reduce, gather, scatter, scan, reduce_scatter, alltoallw "
     "(comma-separated), all or none"},
    {"NBO_PMPI_MIN_SIZE", TEXT,
     "alltoall=64K,allreduce=64K,reduce_scatter_block=64K,allgather=128K,allgatherv=128K,bcast=64K,"
     "reduce=64K,gather=64K",
     F(min_size), "NAME=BYTES,...: a call of a collective below its size is served by MPI"},
    {"NBO_PMPI_BLOCKING", TEXT, "0", F(blocking),
     "1 or on: blocking MPI_Alltoall(v) served by libnbo too"},
    {NULL},
};

const nbo_setting_table_t pm_settings_table = {"libnbo-mpi", "libnbo-mpi (read by libnbo-mpi.so only)",
                                               pm_settings, NULL};

void pm_env_read(pm_env_t *e)
{
    nbo_settings_defaults(pm_settings, e);
    nbo_settings_from_env(pm_settings, e, "libnbo-mpi");
}
