/*
 * mpi_engine.h - the MPI point-to-point engine: the portable reference.
 *
 * SEND/RECV tasks become MPI_Isend/MPI_Irecv of bytes on the core's private
 * duplicate of the communicator, tagged with the collective's sequence
 * number so concurrent collectives never match each other's messages.
 * Completions come from MPI_Testsome.  MPI gives no descriptor to sleep on,
 * so this engine progresses only when polled (inline mode).
 * Completion calls use their PMPI_ names: an interposer on MPI's profiling
 * interface (libnbo-mpi.so) must never be re-entered from inside libnbo.
 */
#ifndef NBO_MPI_ENGINE_H
#define NBO_MPI_ENGINE_H

#include "../engine.h"

typedef struct mpi_op {
    nbo_exec_t *x;
    int         task;
} mpi_op_t;

struct nbo_engine_comm {
    const nbo_engine_services_t *sv; /* the core's, from open */
    MPI_Comm     comm;
    int          tag_ub;
    int          n, cap;   /* operations in flight */
    MPI_Request *reqs;     /* [cap] */
    mpi_op_t    *ops;      /* [cap], parallel to reqs */
    int         *idx;      /* [cap], MPI_Testsome output */
    MPI_Status  *st;       /* [cap], MPI_Testsome output */
};

int  mpi_engine_probe(const nbo_engine_services_t *sv, char *detail, size_t len);
int  mpi_engine_open(MPI_Comm comm, const nbo_config_t *cfg, const nbo_engine_services_t *sv,
                     nbo_engine_comm_t **out);
void mpi_engine_close(nbo_engine_comm_t *ec, int broken);
unsigned mpi_engine_caps(nbo_engine_comm_t *ec, char *detail, size_t len);
int  mpi_engine_post(nbo_engine_comm_t *ec, nbo_exec_t *x, int first, int n);
int  mpi_engine_progress(nbo_engine_comm_t *ec);
void mpi_engine_cancel(nbo_engine_comm_t *ec, nbo_exec_t *x);

#endif
