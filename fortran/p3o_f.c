/*
 * p3o_f.c - the C side of the Fortran module `p3o` (p3o.f90): plan
 * creation from an mpi_f08 communicator, with the options a Fortran
 * program sets most (grid, planner) optional; the plan as a bind(C) type.
 */
#include <mpi.h>
#include <stddef.h>

#include "p3dfft_overlap.h"

#define F_EXPORT __attribute__((visibility("default")))

typedef struct {
    MPI_Fint val; /* type(MPI_Comm) of mpi_f08 */
} p3o_f_comm_t;

typedef struct {
    p3o_plan_t ptr; /* type(p3o_plan) of the module */
} p3o_f_plan_t;

/* row, col, planner: NULL where the Fortran caller left them out. */
F_EXPORT int p3o_f_plan_create(p3o_f_comm_t comm, int nx, int ny, int nz, int nv, int precision,
                               int mode, p3o_f_plan_t *plan, const int *row, const int *col,
                               const int *planner)
{
    p3o_options_t o;
    p3o_options_init(&o);
    if (row)
        o.row = *row;
    if (col)
        o.col = *col;
    if (planner)
        o.planner = (p3o_planner_t)*planner;
    return p3o_plan_create(MPI_Comm_f2c(comm.val), nx, ny, nz, nv, (p3o_precision_t)precision,
                           (p3o_mode_t)mode, &o, &plan->ptr);
}

F_EXPORT int p3o_f_plan_destroy(p3o_f_plan_t *plan) { return p3o_plan_destroy(&plan->ptr); }

F_EXPORT int p3o_f_forward(p3o_f_plan_t plan, const void *in, void *out)
{
    return p3o_forward(plan.ptr, in, out);
}

F_EXPORT int p3o_f_backward(p3o_f_plan_t plan, const void *in, void *out)
{
    return p3o_backward(plan.ptr, in, out);
}

F_EXPORT int p3o_f_roundtrip(p3o_f_plan_t plan, const void *in, void *spec, void *out,
                             p3o_spectral_fn op, void *arg)
{
    return p3o_roundtrip(plan.ptr, in, spec, out, op, arg);
}

F_EXPORT int p3o_f_local_sizes(p3o_f_plan_t plan, p3o_local_t *local)
{
    return p3o_local_sizes(plan.ptr, local);
}
