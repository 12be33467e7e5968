#include <string.h>
#include <p3dfft_overlap.h>

/* A 4 x 2 process grid, quick planning, libnbo with the MPI engine. */
int make_plan(MPI_Comm comm, p3o_plan_t *plan)
{
    static nbo_config_t cfg;
    nbo_config_init(&cfg);
    strcpy(cfg.engine, "mpi");
    p3o_options_t opt;
    p3o_options_init(&opt);
    opt.row = 4;
    opt.col = 2;
    opt.planner = P3O_PLANNER_ESTIMATE;
    opt.nbo_config = &cfg;
    return p3o_plan_create(comm, 128, 128, 128, 3, P3O_DOUBLE, P3O_PIPELINED_NBO,
                           &opt, plan);
}
