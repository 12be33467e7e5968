/*
 * pt.h - scaffolding of the libnbo-mpi tests.  These programs know nothing
 * of libnbo: plain MPI, built like any mpicc program, run with the library
 * preloaded (or linked).  Expected results are computed by hand, never by
 * an MPI all-to-all the library might also serve.
 */
#ifndef PT_H
#define PT_H

#include <mpi.h>

/* MPI 3.1 libraries name MPI 4.0's persistent collectives MPIX_ in an
 * extension (Open MPI 4.1: mpi-ext.h, "pcollreq"); a program written for
 * them calls those there, as these do. */
#if MPI_VERSION < 4 && defined(OPEN_MPI)
#include <mpi-ext.h>
#define MPI_Alltoall_init             MPIX_Alltoall_init
#define MPI_Alltoallv_init            MPIX_Alltoallv_init
#define MPI_Allreduce_init            MPIX_Allreduce_init
#define MPI_Reduce_scatter_block_init MPIX_Reduce_scatter_block_init
#define MPI_Allgather_init            MPIX_Allgather_init
#define MPI_Allgatherv_init           MPIX_Allgatherv_init
#define MPI_Bcast_init                MPIX_Bcast_init
#define MPI_Neighbor_alltoall_init    MPIX_Neighbor_alltoall_init
#define MPI_Neighbor_alltoallv_init   MPIX_Neighbor_alltoallv_init
#define MPI_Neighbor_allgather_init   MPIX_Neighbor_allgather_init
#define MPI_Neighbor_allgatherv_init  MPIX_Neighbor_allgatherv_init
#endif

extern int pt_rank, pt_size;

/* MPI_Init, errors return; argv may hold --expect=nbo or --expect=mpi. */
void pt_init(int *argc, char ***argv, const char *name);

/* Record a failure on this rank (the first few are printed). */
void pt_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define PT_CHECK(cond, ...)      \
    do {                         \
        if (!(cond))             \
            pt_fail(__VA_ARGS__); \
    } while (0)
#define PT_MPI(call)                                                                   \
    do {                                                                               \
        int pt_rc_ = (call);                                                           \
        if (pt_rc_ != MPI_SUCCESS)                                                     \
            pt_fail("%s:%d: %s returned %d", __FILE__, __LINE__, #call, pt_rc_);       \
    } while (0)

/* Element i of what rank src sends to rank dst in round seed. */
static inline int pt_val(int src, int dst, int i, int seed)
{
    return src * 1000003 + dst * 1009 + i * 7 + seed * 31;
}

/* Uniform all-to-all of n ints per peer on comm: fill / check. */
void pt_fill(int *send, int n, MPI_Comm comm, int seed);
void pt_check(const int *recv, int n, MPI_Comm comm, int seed, const char *what);

/* Uneven counts for all-to-allv: what src sends dst. */
static inline int pt_vcount(int src, int dst) { return (src + 2 * dst) % 4 + (src == dst); }
/* Counts and packed displacements of this rank on comm. */
void pt_vlayout(MPI_Comm comm, int sc[], int sd[], int rc[], int rd[], int *stotal, int *rtotal);
void pt_vfill(int *send, MPI_Comm comm, int seed);
void pt_vcheck(const int *recv, MPI_Comm comm, int seed, const char *what);

/* --expect=nbo: libnbo serves (MPICH's own persistent collectives hang on
 * MPI_Wait of an inactive request, so some checks are for libnbo only). */
int pt_expect_nbo(void);

/* Under the library: how many calls it served (-1: not loaded). */
long pt_served(void);
/* Under the library: nbo communicators alive (-1: not loaded). */
long pt_live_comms(void);

/* Check what --expect said against pt_served(), agree across ranks,
 * print "name P=..: PASS|FAIL" on rank 0, finalize; the exit status. */
int pt_finish(void);

#endif
