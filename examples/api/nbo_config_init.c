#include <string.h>
#include <nbo.h>

/* The MPI engine and a window of 4, whatever the environment says. */
int make_comm(MPI_Comm parent, nbo_comm_t *comm)
{
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    strcpy(cfg.engine, "mpi");
    cfg.window = 4;
    return nbo_comm_create(parent, &cfg, comm);
}
