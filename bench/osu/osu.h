/*
 * osu.h - nbo_osu_coll, an OSU-shaped benchmark of MPI's collectives as an
 * unmodified MPI program sees them: plain MPI (no libnbo), so that the same
 * binary runs on MPI alone, on MPI with its own progress thread, and with
 * libnbo-mpi.so preloaded.  See bench/osu/README.md and docs/benchmarks.md.
 */
#ifndef NBO_OSU_H
#define NBO_OSU_H

#include <mpi.h>
#include <stddef.h>

/* MPI 4.0's persistent collectives; MPI 3.1 libraries may offer them as
 * MPIX_ in an extension (Open MPI 4.1: mpi-ext.h, "pcollreq"). */
#if MPI_VERSION >= 4
#define OSU_HAVE_PERSISTENT 1
#elif defined(OPEN_MPI)
#include <mpi-ext.h>
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define OSU_HAVE_PERSISTENT 1
#define MPI_Alltoall_init MPIX_Alltoall_init
#define MPI_Allreduce_init MPIX_Allreduce_init
#define MPI_Reduce_scatter_block_init MPIX_Reduce_scatter_block_init
#define MPI_Allgather_init MPIX_Allgather_init
#define MPI_Allgatherv_init MPIX_Allgatherv_init
#define MPI_Bcast_init MPIX_Bcast_init
#define MPI_Barrier_init MPIX_Barrier_init
#define MPI_Reduce_init MPIX_Reduce_init
#define MPI_Gather_init MPIX_Gather_init
#endif
#endif
#ifndef OSU_HAVE_PERSISTENT
#define OSU_HAVE_PERSISTENT 0
#endif

typedef enum {
    OC_ALLTOALL,             /* size: bytes per peer, MPI_CHAR (OSU)         */
    OC_ALLREDUCE,            /* size: the vector's bytes, MPI_FLOAT, MPI_SUM */
    OC_REDUCE_SCATTER_BLOCK, /* size: the whole vector's bytes, P blocks     */
    OC_ALLGATHER,            /* size: each rank's block, MPI_CHAR            */
    OC_ALLGATHERV,           /* size: each rank's block (equal counts)       */
    OC_BCAST,                /* size: the message from root 0, MPI_CHAR      */
    OC_BARRIER,              /* no data: one row, size 0                     */
    OC_REDUCE,               /* size: the vector's bytes, MPI_FLOAT, MPI_SUM, to root 0 */
    OC_GATHER,               /* size: each rank's block to root 0, MPI_CHAR  */
    OC_N
} oc_coll_t;

/* "allreduce"; its MPI name, blocking or not ("MPI_Iallreduce"); OSU's
 * title word ("Allreduce"). */
const char *oc_name(oc_coll_t c);
const char *oc_mpi_name(oc_coll_t c, int nonblocking);
const char *oc_title(oc_coll_t c);
int oc_parse(const char *word, oc_coll_t *c);
/* The smallest size that makes sense at P ranks (one element; one per
 * rank's block for reduce_scatter_block; 0 for the barrier, which moves
 * no data); the largest whole number of those not above size (0: none,
 * and always for the barrier). */
size_t oc_min_size(oc_coll_t c, int nprocs);
size_t oc_fit_size(oc_coll_t c, size_t size, int nprocs);

/* One collective of one size on comm, with its buffers and request. */
typedef struct oc_op {
    oc_coll_t coll;
    MPI_Comm comm;
    int rank, nprocs;
    size_t size;
    char *send, *recv;
    size_t send_bytes, recv_bytes;
    int count;                /* the count argument of the call          */
    int *counts, *displs;     /* allgatherv                              */
    int persistent;           /* req is bound by MPI_<coll>_init         */
    MPI_Request req;
} oc_op_t;

/* Buffers (and, persistent, the request, made once: MPI_<coll>_init);
 * MPI_SUCCESS or an MPI error code. */
int oc_setup(oc_op_t *op, oc_coll_t c, size_t size, MPI_Comm comm, int persistent);
void oc_teardown(oc_op_t *op);
int oc_blocking(oc_op_t *op);         /* MPI_Allreduce, ...                   */
int oc_start(oc_op_t *op);            /* MPI_Iallreduce, ... or MPI_Start      */
int oc_wait(oc_op_t *op);
void oc_test(void *op);               /* one MPI_Test (a busy_poll_fn)         */
/* The inputs of this rank (outputs cleared); after one operation, the
 * number of output elements that are wrong. */
void oc_fill(oc_op_t *op);
long oc_verify(const oc_op_t *op);

#endif
