/*
 * pm_fortran_names.c - the Fortran entry points that bypass MPI's C names,
 * each MPI's own (found with nm and objdump on its Fortran libraries;
 * docs/fortran.md), routed to pm_fortran.c and the C entry points.  The
 * names are gfortran's (lower case, one trailing underscore).
 *
 * MPICH 4: mpif.h and `use mpi` call the C names (MPI_Init, MPI_Wait),
 * which the library serves as they are; `use mpi_f08` calls its
 * collectives by their C names too, but MPI_Init*, MPI_Finalize and the
 * completion calls by their PMPI_ names: those are interposed here, under
 * the mpi_f08 module's names (mpi_wait_f08_).
 *
 * Open MPI 4: every binding calls PMPI_ names.  mpif.h and `use mpi` call
 * mpi_<name>_ in libmpi_mpifh, and `use mpi_f08`'s wrappers call that
 * library's ompi_<name>_f, but its test calls (MPI_Test*,
 * MPI_Request_get_status) pmpi_<name>_: all three names are interposed,
 * one function each.
 * Fortran's MPI_IN_PLACE and MPI_BOTTOM are the addresses of Open MPI's
 * common blocks, which every library resolves to one definition.
 */
#include "pm_fortran.h"
#include "pmpi.h"

#if defined(MPICH)

#define F08(name, args) PM_EXPORT void mpi_##name##_f08_ args

F08(init, (MPI_Fint *ierr)) { pm_f_init(ierr); }
F08(init_thread, (MPI_Fint *req, MPI_Fint *prov, MPI_Fint *ierr)) { pm_f_init_thread(req, prov, ierr); }
F08(finalize, (MPI_Fint *ierr)) { pm_f_finalize(ierr); }
F08(wait, (MPI_Fint *r, MPI_Fint *st, MPI_Fint *ierr))
{
    pm_f_wait(r, st, MPI_F08_STATUS_IGNORE, ierr);
}
F08(test, (MPI_Fint *r, MPI_Fint *flag, MPI_Fint *st, MPI_Fint *ierr))
{
    pm_f_test(r, flag, st, MPI_F08_STATUS_IGNORE, ierr);
}
F08(request_get_status, (MPI_Fint *r, MPI_Fint *flag, MPI_Fint *st, MPI_Fint *ierr))
{
    pm_f_request_get_status(r, flag, st, MPI_F08_STATUS_IGNORE, ierr);
}
F08(waitall, (MPI_Fint *n, MPI_Fint *r, MPI_Fint *sts, MPI_Fint *ierr))
{
    pm_f_waitall(n, r, sts, MPI_F08_STATUSES_IGNORE, ierr);
}
F08(testall, (MPI_Fint *n, MPI_Fint *r, MPI_Fint *flag, MPI_Fint *sts, MPI_Fint *ierr))
{
    pm_f_testall(n, r, flag, sts, MPI_F08_STATUSES_IGNORE, ierr);
}
F08(waitany, (MPI_Fint *n, MPI_Fint *r, MPI_Fint *i, MPI_Fint *st, MPI_Fint *ierr))
{
    pm_f_waitany(n, r, i, st, MPI_F08_STATUS_IGNORE, ierr);
}
F08(testany, (MPI_Fint *n, MPI_Fint *r, MPI_Fint *i, MPI_Fint *flag, MPI_Fint *st, MPI_Fint *ierr))
{
    pm_f_testany(n, r, i, flag, st, MPI_F08_STATUS_IGNORE, ierr);
}
F08(waitsome, (MPI_Fint *n, MPI_Fint *r, MPI_Fint *out, MPI_Fint *idx, MPI_Fint *sts, MPI_Fint *ierr))
{
    pm_f_waitsome(n, r, out, idx, sts, MPI_F08_STATUSES_IGNORE, ierr);
}
F08(testsome, (MPI_Fint *n, MPI_Fint *r, MPI_Fint *out, MPI_Fint *idx, MPI_Fint *sts, MPI_Fint *ierr))
{
    pm_f_testsome(n, r, out, idx, sts, MPI_F08_STATUSES_IGNORE, ierr);
}
F08(start, (MPI_Fint *r, MPI_Fint *ierr)) { pm_f_start(r, ierr); }
F08(startall, (MPI_Fint *n, MPI_Fint *r, MPI_Fint *ierr)) { pm_f_startall(n, r, ierr); }
F08(request_free, (MPI_Fint *r, MPI_Fint *ierr)) { pm_f_request_free(r, ierr); }
F08(cancel, (MPI_Fint *r, MPI_Fint *ierr)) { pm_f_cancel(r, ierr); }

#elif defined(OPEN_MPI)

extern char mpi_fortran_in_place_, mpi_fortran_bottom_;

/* Fortran's MPI_IN_PLACE and MPI_BOTTOM as C's. */
static void *buf_in(void *b)
{
    if (b == &mpi_fortran_in_place_)
        return MPI_IN_PLACE;
    if (b == &mpi_fortran_bottom_)
        return MPI_BOTTOM;
    return b;
}

#define COMM(c) PMPI_Comm_f2c(*(c))
#define TYPE(t) PMPI_Type_f2c(*(t))
#define OP(o) PMPI_Op_f2c(*(o))

/* ompi_<name>_f, and mpi_<name>_ the same function. */
#define OMPI(name, args)                                                                   \
    PM_EXPORT void mpi_##name##_ args __attribute__((alias("ompi_" #name "_f")));          \
    PM_EXPORT void ompi_##name##_f args

/* And pmpi_<name>_: mpi_f08's test calls call libmpi_mpifh by that name. */
#define OMPI_PMPI(name, args)                                                              \
    PM_EXPORT void pmpi_##name##_ args __attribute__((alias("ompi_" #name "_f")));         \
    OMPI(name, args)

/* A non-blocking call's request into Fortran. */
static void req_out(int rc, MPI_Request r, MPI_Fint *req, MPI_Fint *ierr)
{
    if (rc == MPI_SUCCESS)
        *req = PMPI_Request_c2f(r);
    pm_f_rc(ierr, rc);
}

OMPI(init, (MPI_Fint *ierr)) { pm_f_init(ierr); }
OMPI(init_thread, (MPI_Fint *req, MPI_Fint *prov, MPI_Fint *ierr)) { pm_f_init_thread(req, prov, ierr); }
OMPI(finalize, (MPI_Fint *ierr)) { pm_f_finalize(ierr); }

OMPI(ialltoall, (void *sb, MPI_Fint *sc, MPI_Fint *st, void *rb, MPI_Fint *rc, MPI_Fint *rt,
                 MPI_Fint *comm, MPI_Fint *req, MPI_Fint *ierr))
{
    MPI_Request r;
    int e = MPI_Ialltoall(buf_in(sb), *sc, TYPE(st), buf_in(rb), *rc, TYPE(rt), COMM(comm), &r);
    req_out(e, r, req, ierr);
}
OMPI(ialltoallv, (void *sb, MPI_Fint *sc, MPI_Fint *sd, MPI_Fint *st, void *rb, MPI_Fint *rc,
                  MPI_Fint *rd, MPI_Fint *rt, MPI_Fint *comm, MPI_Fint *req, MPI_Fint *ierr))
{
    MPI_Request r;
    int e = MPI_Ialltoallv(buf_in(sb), sc, sd, TYPE(st), buf_in(rb), rc, rd, TYPE(rt), COMM(comm), &r);
    req_out(e, r, req, ierr);
}
OMPI(alltoall, (void *sb, MPI_Fint *sc, MPI_Fint *st, void *rb, MPI_Fint *rc, MPI_Fint *rt,
                MPI_Fint *comm, MPI_Fint *ierr))
{
    pm_f_rc(ierr, MPI_Alltoall(buf_in(sb), *sc, TYPE(st), buf_in(rb), *rc, TYPE(rt), COMM(comm)));
}
OMPI(alltoallv, (void *sb, MPI_Fint *sc, MPI_Fint *sd, MPI_Fint *st, void *rb, MPI_Fint *rc,
                 MPI_Fint *rd, MPI_Fint *rt, MPI_Fint *comm, MPI_Fint *ierr))
{
    pm_f_rc(ierr, MPI_Alltoallv(buf_in(sb), sc, sd, TYPE(st), buf_in(rb), rc, rd, TYPE(rt),
                                COMM(comm)));
}
OMPI(iallreduce, (void *sb, void *rb, MPI_Fint *n, MPI_Fint *t, MPI_Fint *op, MPI_Fint *comm,
                  MPI_Fint *req, MPI_Fint *ierr))
{
    MPI_Request r;
    int e = MPI_Iallreduce(buf_in(sb), buf_in(rb), *n, TYPE(t), OP(op), COMM(comm), &r);
    req_out(e, r, req, ierr);
}
OMPI(ireduce_scatter_block, (void *sb, void *rb, MPI_Fint *n, MPI_Fint *t, MPI_Fint *op,
                             MPI_Fint *comm, MPI_Fint *req, MPI_Fint *ierr))
{
    MPI_Request r;
    int e = MPI_Ireduce_scatter_block(buf_in(sb), buf_in(rb), *n, TYPE(t), OP(op), COMM(comm), &r);
    req_out(e, r, req, ierr);
}
OMPI(iallgather, (void *sb, MPI_Fint *sc, MPI_Fint *st, void *rb, MPI_Fint *rc, MPI_Fint *rt,
                  MPI_Fint *comm, MPI_Fint *req, MPI_Fint *ierr))
{
    MPI_Request r;
    int e = MPI_Iallgather(buf_in(sb), *sc, TYPE(st), buf_in(rb), *rc, TYPE(rt), COMM(comm), &r);
    req_out(e, r, req, ierr);
}
OMPI(iallgatherv, (void *sb, MPI_Fint *sc, MPI_Fint *st, void *rb, MPI_Fint *rc, MPI_Fint *rd,
                   MPI_Fint *rt, MPI_Fint *comm, MPI_Fint *req, MPI_Fint *ierr))
{
    MPI_Request r;
    int e = MPI_Iallgatherv(buf_in(sb), *sc, TYPE(st), buf_in(rb), rc, rd, TYPE(rt), COMM(comm), &r);
    req_out(e, r, req, ierr);
}
OMPI(ibcast, (void *b, MPI_Fint *n, MPI_Fint *t, MPI_Fint *root, MPI_Fint *comm, MPI_Fint *req,
              MPI_Fint *ierr))
{
    MPI_Request r;
    int e = MPI_Ibcast(buf_in(b), *n, TYPE(t), *root, COMM(comm), &r);
    req_out(e, r, req, ierr);
}

OMPI(wait, (MPI_Fint *r, MPI_Fint *st, MPI_Fint *ierr)) { pm_f_wait(r, st, MPI_F_STATUS_IGNORE, ierr); }
OMPI_PMPI(test, (MPI_Fint *r, MPI_Fint *flag, MPI_Fint *st, MPI_Fint *ierr))
{
    pm_f_test(r, flag, st, MPI_F_STATUS_IGNORE, ierr);
}
OMPI_PMPI(request_get_status, (MPI_Fint *r, MPI_Fint *flag, MPI_Fint *st, MPI_Fint *ierr))
{
    pm_f_request_get_status(r, flag, st, MPI_F_STATUS_IGNORE, ierr);
}
OMPI(waitall, (MPI_Fint *n, MPI_Fint *r, MPI_Fint *sts, MPI_Fint *ierr))
{
    pm_f_waitall(n, r, sts, MPI_F_STATUSES_IGNORE, ierr);
}
OMPI_PMPI(testall, (MPI_Fint *n, MPI_Fint *r, MPI_Fint *flag, MPI_Fint *sts, MPI_Fint *ierr))
{
    pm_f_testall(n, r, flag, sts, MPI_F_STATUSES_IGNORE, ierr);
}
OMPI(waitany, (MPI_Fint *n, MPI_Fint *r, MPI_Fint *i, MPI_Fint *st, MPI_Fint *ierr))
{
    pm_f_waitany(n, r, i, st, MPI_F_STATUS_IGNORE, ierr);
}
OMPI_PMPI(testany, (MPI_Fint *n, MPI_Fint *r, MPI_Fint *i, MPI_Fint *flag, MPI_Fint *st, MPI_Fint *ierr))
{
    pm_f_testany(n, r, i, flag, st, MPI_F_STATUS_IGNORE, ierr);
}
OMPI(waitsome, (MPI_Fint *n, MPI_Fint *r, MPI_Fint *out, MPI_Fint *idx, MPI_Fint *sts, MPI_Fint *ierr))
{
    pm_f_waitsome(n, r, out, idx, sts, MPI_F_STATUSES_IGNORE, ierr);
}
OMPI_PMPI(testsome, (MPI_Fint *n, MPI_Fint *r, MPI_Fint *out, MPI_Fint *idx, MPI_Fint *sts, MPI_Fint *ierr))
{
    pm_f_testsome(n, r, out, idx, sts, MPI_F_STATUSES_IGNORE, ierr);
}
OMPI(start, (MPI_Fint *r, MPI_Fint *ierr)) { pm_f_start(r, ierr); }
OMPI(startall, (MPI_Fint *n, MPI_Fint *r, MPI_Fint *ierr)) { pm_f_startall(n, r, ierr); }
OMPI(request_free, (MPI_Fint *r, MPI_Fint *ierr)) { pm_f_request_free(r, ierr); }
OMPI(cancel, (MPI_Fint *r, MPI_Fint *ierr)) { pm_f_cancel(r, ierr); }

#endif
