/* mpi_ops.c - the MPI engine's ops table. */
#include "mpi_engine.h"

const nbo_engine_ops_t nbo_mpi_engine = {
    .name = "mpi",
    .probe = mpi_engine_probe,
    .open = mpi_engine_open,
    .close = mpi_engine_close,
    .caps = mpi_engine_caps,
    .plan_attach = NULL, /* MPI registers memory itself, if it needs to */
    .plan_detach = NULL,
    .post = mpi_engine_post,
    .progress = mpi_engine_progress,
    .event_fd = NULL,
    .arm = NULL,
    .cancel = mpi_engine_cancel,
};
