/*
 * pcg.h - shared types of the pipelined-CG mini-app (nbo_pcg).
 *
 * A 3-D Poisson problem (7-point stencil, Dirichlet zero boundary) on an
 * N^3 grid in z slabs, solved by classic CG and by Ghysels-Vanroose
 * pipelined CG whose one reduction per iteration is MPI's or libnbo's:
 * how much of a solver's global synchronization a background-progressed
 * allreduce hides behind the matrix-vector product.
 */
#ifndef NBO_PCG_H
#define NBO_PCG_H

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

#include "busy.h" /* now_s (bench/common) */
#include "nbo.h"

/* ------------------------------------------------------------- problem */

/* One rank's slab: planes 1..nz of its vectors are its unknowns, planes 0
 * and nz+1 the halo (zero at the global boundary).  Every plane carries a
 * ring of zeros around its N x N unknowns, so the stencil needs no
 * branches and whole-slab vector operations keep the boundary zero. */
typedef struct {
    int N;        /* global unknowns per dimension                  */
    int rank, P;
    int nz, z0;   /* this rank's planes, the global index of its first */
    int down, up; /* neighbour ranks below and above, MPI_PROC_NULL at the ends */
    size_t row;   /* N + 2 */
    size_t plane; /* (N + 2)^2 doubles */
    size_t len;   /* (nz + 2) planes: a whole vector with its halo */
} grid_t;

int grid_init(grid_t *g, int N, int rank, int P);
/* n zeroed vectors v[0..n-1] in one block (free the block returned). */
double *vec_arena(const grid_t *g, int n, double *v[]);
/* The interior of a vector: planes 1..nz, rings included. */
static inline double *vec_in(const grid_t *g, double *v) { return v + g->plane; }
static inline size_t vec_in_len(const grid_t *g) { return (size_t)g->nz * g->plane; }

/* The exact solution, smooth and deterministic; b = A x_true. */
void problem_x_true(const grid_t *g, double *x);

/* Called after each plane of a matrix-vector product (a test call). */
typedef void (*plane_poll_fn)(void *arg);
/* q = A v, v's halo exchanged with both neighbours: the exchange is
 * started, the planes that do not need it are computed, then it is waited
 * for and the two boundary planes follow.  poll (may be NULL) runs after
 * each plane.  Returns MPI_SUCCESS, or non-zero if an MPI call failed. */
int spmv(const grid_t *g, double *v, double *q, plane_poll_fn poll, void *arg);

/* Local (this rank's) dot product over the interior. */
double dot_local(const grid_t *g, const double *a, const double *b);
/* Global 2-norm (a blocking MPI_Allreduce), outside the timed loops. */
double norm2(const grid_t *g, const double *a);

/* ------------------------------------------------------------- solvers */

typedef enum {
    S_CG,              /* classic CG, two blocking MPI_Allreduce per iteration */
    S_PIPECG_MPI,      /* pipelined CG, MPI_Iallreduce hidden behind A w */
    S_PIPECG_NBO,      /* the same with a persistent libnbo allreduce */
    S_PIPECG_NBO_TEST, /* the same, nbo_test after each plane of A w */
    S_N
} solver_t;

const char *solver_name(solver_t s);

#define PCG_NDOT 3 /* values reduced per pipelined iteration */

/* What the solvers share: the problem, the work vectors and the libnbo
 * request, set up once.  The request is bound to red_send / red_recv. */
typedef struct {
    grid_t g;
    double *arena; /* all the vectors below */
    double *b, *x_true;
    double *x, *r, *w, *q, *z, *s, *p;
    double red_send[PCG_NDOT], red_recv[PCG_NDOT];
    nbo_request_t nbo_req;
    int poll_err; /* an nbo_test inside A w failed */
} pcg_t;

int pcg_setup(pcg_t *c, int N, nbo_comm_t comm);
void pcg_free(pcg_t *c);

/* One solve from x = 0, exactly iters iterations.  hist[i] = ||r_i||
 * (the recurrence's residual at the start of iteration i); *seconds: this
 * rank's time in the iteration loop.  Returns 0, or non-zero when an MPI
 * or libnbo call failed. */
int solve(pcg_t *c, solver_t s, int iters, double *hist, double *seconds);

/* Of the last solve: ||b - A x|| / ||b||, ||x - x_true|| / ||x_true|| and
 * the same in the A-norm (sqrt(e' A e)), which CG's error falls in
 * monotonically.  Uses q, s and z. */
void solve_errors(pcg_t *c, double *rel_residual, double *rel_error, double *rel_error_a);

/* -------------------------------------------------------------- report */

#define PCG_MAX_REPS 101

/* One run's figures, the same on every rank (histories come from global
 * reductions, times are maxima over ranks). */
typedef struct {
    int N, P, iters, reps;
    const char *engine, *progress;          /* libnbo's, from nbo_comm_query */
    double us_iter[S_N];                    /* median over reps, us per iteration */
    double rel_residual[S_N], rel_error[S_N]; /* after the warm-up solve */
    double rel_error_a[S_N];                /* the same in the A-norm */
    double *hist[S_N];                      /* the warm-up solve's ||r_i|| */
    double rep_dev[S_N];                    /* largest relative deviation of a rep's history */
    int failed_calls;                       /* an MPI or libnbo call failed somewhere */
    /* Each alone, medians: MPI_Iallreduce + MPI_Wait and nbo_start +
     * nbo_wait of PCG_NDOT doubles, MPI_Allreduce of one, A w. */
    double allreduce_mpi_us, allreduce_nbo_us, allreduce_blocking_us, spmv_us;
} pcg_report_t;

/* The correctness checks: prints each (out NULL: silent) and returns the
 * number that failed. */
int report_checks(const pcg_report_t *r, FILE *out);
void report_table(const pcg_report_t *r, FILE *out);
int report_csv(const pcg_report_t *r, const char *path);

#endif
