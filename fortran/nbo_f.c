/*
 * nbo_f.c - the C side of the Fortran module `nbo` (nbo.f90): each
 * nbo_f_<name> is nbo_<name> taking mpi_f08's handles (a bind(C) type of
 * one integer, passed by value) and turning Fortran's MPI_IN_PLACE and
 * MPI_BOTTOM into C's; the rest of the API is bound directly.
 */
#include <ISO_Fortran_binding.h>
#include <mpi.h>
#include <stdlib.h>

#include "nbo.h"

/* type(MPI_Comm), type(MPI_Datatype), type(MPI_Op) of mpi_f08. */
typedef struct {
    MPI_Fint val;
} nbo_f_handle_t;

/* type(nbo_comm) of the module: libnbo's handle in a bind(C) type. */
typedef struct {
    nbo_comm_t ptr;
} nbo_f_comm_t;

#define COMM(h) MPI_Comm_f2c((h).val)
#define TYPE(h) MPI_Type_f2c((h).val)
#define OP(h) MPI_Op_f2c((h).val)

#if defined(MPICH)
#define F_IN_PLACE (&MPIR_F08_MPI_IN_PLACE)
#define F_BOTTOM (&MPIR_F08_MPI_BOTTOM)
#elif defined(OPEN_MPI)
/* Common blocks, which every library resolves to one definition. */
extern char mpi_fortran_in_place_, mpi_fortran_bottom_;
#define F_IN_PLACE (&mpi_fortran_in_place_)
#define F_BOTTOM (&mpi_fortran_bottom_)
#endif

/* A buffer's address: Fortran's MPI_IN_PLACE and MPI_BOTTOM as C's;
 * NULL for a non-contiguous array, which a non-blocking call cannot take
 * (its copy would be gone before the call completes). */
static void *buf(const CFI_cdesc_t *d)
{
#ifdef F_IN_PLACE
    if (d->base_addr == (const void *)F_IN_PLACE)
        return MPI_IN_PLACE;
    if (d->base_addr == (const void *)F_BOTTOM)
        return MPI_BOTTOM;
#endif
    return CFI_is_contiguous(d) ? d->base_addr : NULL;
}

/* Returns NBO_ERR_BUFFER from the calling function where b is not
 * contiguous. */
#define BUF(b, out)                                                                         \
    void *out = buf(b);                                                                     \
    if (!out && (b)->base_addr)                                                             \
        return NBO_ERR_BUFFER

/* Defined here, declared by the module's interfaces only. */
#define F_EXPORT __attribute__((visibility("default")))

F_EXPORT int nbo_f_comm_create(nbo_f_handle_t comm, nbo_comm_t *out)
{
    return nbo_comm_create(COMM(comm), NULL, out);
}

/* The alltoall shape (all-to-all, allgather, their neighbour forms and
 * *_init): one count and type per side. */
#define F_A2A(name)                                                                         \
    F_EXPORT int nbo_f_##name(const CFI_cdesc_t *sd_, int sc, nbo_f_handle_t st,            \
                              const CFI_cdesc_t *rd_, int rc, nbo_f_handle_t rt,            \
                              nbo_f_comm_t comm, nbo_request_t *req)                        \
    {                                                                                       \
        BUF(sd_, sb);                                                                       \
        BUF(rd_, rb);                                                                       \
        return nbo_##name(sb, sc, TYPE(st), rb, rc, TYPE(rt), comm.ptr, req);               \
    }
/* The v shape on both sides (alltoallv). */
#define F_A2AV(name)                                                                        \
    F_EXPORT int nbo_f_##name(const CFI_cdesc_t *sd_, const int *sc, const int *sd,         \
                              nbo_f_handle_t st, const CFI_cdesc_t *rd_, const int *rc,     \
                              const int *rd, nbo_f_handle_t rt, nbo_f_comm_t comm,          \
                              nbo_request_t *req)                                           \
    {                                                                                       \
        BUF(sd_, sb);                                                                       \
        BUF(rd_, rb);                                                                       \
        return nbo_##name(sb, sc, sd, TYPE(st), rb, rc, rd, TYPE(rt), comm.ptr, req);       \
    }
/* The v shape on the receiving side (allgatherv). */
#define F_AGV(name)                                                                         \
    F_EXPORT int nbo_f_##name(const CFI_cdesc_t *sd_, int sc, nbo_f_handle_t st,            \
                              const CFI_cdesc_t *rd_, const int *rc, const int *rd,         \
                              nbo_f_handle_t rt, nbo_f_comm_t comm, nbo_request_t *req)     \
    {                                                                                       \
        BUF(sd_, sb);                                                                       \
        BUF(rd_, rb);                                                                       \
        return nbo_##name(sb, sc, TYPE(st), rb, rc, rd, TYPE(rt), comm.ptr, req);           \
    }
/* The reduction shape (allreduce, reduce_scatter_block, scan, exscan). */
#define F_RED(name)                                                                         \
    F_EXPORT int nbo_f_##name(const CFI_cdesc_t *sd_, const CFI_cdesc_t *rd_, int n,        \
                              nbo_f_handle_t t, nbo_f_handle_t op, nbo_f_comm_t comm,       \
                              nbo_request_t *req)                                           \
    {                                                                                       \
        BUF(sd_, sb);                                                                       \
        BUF(rd_, rb);                                                                       \
        return nbo_##name(sb, rb, n, TYPE(t), OP(op), comm.ptr, req);                       \
    }
#define F_BCAST(name)                                                                       \
    F_EXPORT int nbo_f_##name(const CFI_cdesc_t *bd_, int n, nbo_f_handle_t t, int root,    \
                              nbo_f_comm_t comm, nbo_request_t *req)                        \
    {                                                                                       \
        BUF(bd_, b);                                                                        \
        return nbo_##name(b, n, TYPE(t), root, comm.ptr, req);                              \
    }

F_A2A(ialltoall)
F_A2A(alltoall_init)
F_A2A(iallgather)
F_A2A(allgather_init)
F_A2A(ineighbor_alltoall)
F_A2A(neighbor_alltoall_init)
F_A2A(ineighbor_allgather)
F_A2A(neighbor_allgather_init)
F_A2AV(ialltoallv)
F_A2AV(alltoallv_init)
F_A2AV(ineighbor_alltoallv)
F_A2AV(neighbor_alltoallv_init)
F_AGV(iallgatherv)
F_AGV(allgatherv_init)
F_AGV(ineighbor_allgatherv)
F_AGV(neighbor_allgatherv_init)
F_RED(iallreduce)
F_RED(allreduce_init)
F_RED(ireduce_scatter_block)
F_RED(reduce_scatter_block_init)
F_BCAST(ibcast)
F_BCAST(bcast_init)

/* The barrier: no buffers. */
#define F_BARRIER(name)                                                                     \
    F_EXPORT int nbo_f_##name(nbo_f_comm_t comm, nbo_request_t *req)                        \
    {                                                                                       \
        return nbo_##name(comm.ptr, req);                                                   \
    }
/* The reduction shape with a root (reduce). */
#define F_REDROOT(name)                                                                     \
    F_EXPORT int nbo_f_##name(const CFI_cdesc_t *sd_, const CFI_cdesc_t *rd_, int n,        \
                              nbo_f_handle_t t, nbo_f_handle_t op, int root,                \
                              nbo_f_comm_t comm, nbo_request_t *req)                        \
    {                                                                                       \
        BUF(sd_, sb);                                                                       \
        BUF(rd_, rb);                                                                       \
        return nbo_##name(sb, rb, n, TYPE(t), OP(op), root, comm.ptr, req);                 \
    }
/* Reduce-scatter with blocks of any size: recvcounts in place of count. */
#define F_REDV(name)                                                                        \
    F_EXPORT int nbo_f_##name(const CFI_cdesc_t *sd_, const CFI_cdesc_t *rd_,               \
                              const int *counts, nbo_f_handle_t t, nbo_f_handle_t op,       \
                              nbo_f_comm_t comm, nbo_request_t *req)                        \
    {                                                                                       \
        BUF(sd_, sb);                                                                       \
        BUF(rd_, rb);                                                                       \
        return nbo_##name(sb, rb, counts, TYPE(t), OP(op), comm.ptr, req);                  \
    }
/* The rooted alltoall shape (gather, scatter). */
#define F_ROOTED(name)                                                                      \
    F_EXPORT int nbo_f_##name(const CFI_cdesc_t *sd_, int sc, nbo_f_handle_t st,            \
                              const CFI_cdesc_t *rd_, int rc, nbo_f_handle_t rt, int root,  \
                              nbo_f_comm_t comm, nbo_request_t *req)                        \
    {                                                                                       \
        BUF(sd_, sb);                                                                       \
        BUF(rd_, rb);                                                                       \
        return nbo_##name(sb, sc, TYPE(st), rb, rc, TYPE(rt), root, comm.ptr, req);         \
    }
/* Gatherv: the v shape on the receiving side, with a root. */
#define F_GATHERV(name)                                                                     \
    F_EXPORT int nbo_f_##name(const CFI_cdesc_t *sd_, int sc, nbo_f_handle_t st,            \
                              const CFI_cdesc_t *rd_, const int *rc, const int *rd,         \
                              nbo_f_handle_t rt, int root, nbo_f_comm_t comm,               \
                              nbo_request_t *req)                                           \
    {                                                                                       \
        BUF(sd_, sb);                                                                       \
        BUF(rd_, rb);                                                                       \
        return nbo_##name(sb, sc, TYPE(st), rb, rc, rd, TYPE(rt), root, comm.ptr, req);     \
    }
/* Scatterv: the v shape on the sending side, with a root. */
#define F_SCATTERV(name)                                                                    \
    F_EXPORT int nbo_f_##name(const CFI_cdesc_t *sd_, const int *sc, const int *sd,         \
                              nbo_f_handle_t st, const CFI_cdesc_t *rd_, int rc,            \
                              nbo_f_handle_t rt, int root, nbo_f_comm_t comm,               \
                              nbo_request_t *req)                                           \
    {                                                                                       \
        BUF(sd_, sb);                                                                       \
        BUF(rd_, rb);                                                                       \
        return nbo_##name(sb, sc, sd, TYPE(st), rb, rc, TYPE(rt), root, comm.ptr, req);     \
    }

F_BARRIER(ibarrier)
F_BARRIER(barrier_init)
F_REDROOT(ireduce)
F_REDROOT(reduce_init)
F_RED(iscan)
F_RED(scan_init)
F_RED(iexscan)
F_RED(exscan_init)
F_REDV(ireduce_scatter)
F_REDV(reduce_scatter_init)
F_ROOTED(igather)
F_ROOTED(gather_init)
F_ROOTED(iscatter)
F_ROOTED(scatter_init)
F_GATHERV(igatherv)
F_GATHERV(gatherv_init)
F_SCATTERV(iscatterv)
F_SCATTERV(scatterv_init)

/* Alltoallw: mpi_f08's type arrays as C handles, one per rank of comm
 * (the send side's not read in place).  libnbo keeps what it needs of the
 * types (copies of the non-contiguous ones), so the arrays go at return. */
static MPI_Datatype *types_c(const nbo_f_handle_t *f, int n)
{
    MPI_Datatype *t = f ? malloc((size_t)(n > 0 ? n : 1) * sizeof(*t)) : NULL;
    for (int i = 0; t && i < n; i++)
        t[i] = TYPE(f[i]);
    return t;
}

#define F_A2AW(name)                                                                        \
    F_EXPORT int nbo_f_##name(const CFI_cdesc_t *sd_, const int *sc, const int *sd,         \
                              const nbo_f_handle_t *st, const CFI_cdesc_t *rd_,             \
                              const int *rc, const int *rd, const nbo_f_handle_t *rt,       \
                              nbo_f_comm_t comm, nbo_request_t *req)                        \
    {                                                                                       \
        BUF(sd_, sb);                                                                       \
        BUF(rd_, rb);                                                                       \
        nbo_comm_info_t info;                                                               \
        int err = nbo_comm_query(comm.ptr, &info);                                          \
        if (err != NBO_SUCCESS)                                                             \
            return err;                                                                     \
        MPI_Datatype *ct = types_c(sb == MPI_IN_PLACE ? NULL : st, info.size);              \
        MPI_Datatype *cr = types_c(rt, info.size);                                          \
        err = (!ct && sb != MPI_IN_PLACE && st) || (!cr && rt)                              \
                  ? NBO_ERR_NOMEM                                                           \
                  : nbo_##name(sb, sc, sd, ct, rb, rc, rd, cr, comm.ptr, req);              \
        free(ct);                                                                           \
        free(cr);                                                                           \
        return err;                                                                         \
    }

F_A2AW(ialltoallw)
F_A2AW(alltoallw_init)
