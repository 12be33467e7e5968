/* solvers.c - classic CG and Ghysels-Vanroose pipelined CG (unpreconditioned)
 * on the Poisson problem of problem.c, a fixed number of iterations each,
 * so that their times compare.  Pipelined CG reduces its dot products once
 * per iteration and computes A w while the reduction travels; the three
 * pipelined solvers differ only in who carries that reduction. */
#include "pcg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *solver_name(solver_t s)
{
    static const char *names[S_N] = {"cg", "pipecg_mpi", "pipecg_nbo", "pipecg_nbo_test"};
    return s < S_N ? names[s] : "?";
}

int pcg_setup(pcg_t *c, int N, nbo_comm_t comm)
{
    int rank, P;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    memset(c, 0, sizeof(*c));
    c->nbo_req = NBO_REQUEST_NULL;
    if (grid_init(&c->g, N, rank, P) != 0)
        return -1;
    enum { NVEC = 9 };
    double *v[NVEC];
    if (!(c->arena = vec_arena(&c->g, NVEC, v)))
        return -1;
    c->b = v[0], c->x_true = v[1], c->x = v[2], c->r = v[3], c->w = v[4], c->q = v[5];
    c->z = v[6], c->s = v[7], c->p = v[8];
    problem_x_true(&c->g, c->x_true);
    if (spmv(&c->g, c->x_true, c->b, NULL, NULL) != MPI_SUCCESS)
        return -1;
    /* Planned once, started every iteration, as a solver would. */
    return nbo_allreduce_init(c->red_send, c->red_recv, PCG_NDOT, MPI_DOUBLE, MPI_SUM, comm,
                              &c->nbo_req);
}

void pcg_free(pcg_t *c)
{
    if (c->nbo_req != NBO_REQUEST_NULL)
        nbo_request_free(&c->nbo_req);
    free(c->arena);
}

/* Converged far below rounding (||r|| < 1e-20 ||r_0||: the recurrence's
 * residual, which keeps falling after the true one stalls): from there on
 * alpha = beta = 0, the same work per iteration on values that stay put.
 * Else a long run's residual underflows to denormals (slow arithmetic,
 * distorted times) and then to 0 / 0. */
#define FROZEN 1e-40

static double allreduce_sum(double local, int *err)
{
    double global = 0;
    *err |= MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD) != MPI_SUCCESS;
    return global;
}

/* Hestenes-Stiefel CG: two blocking reductions per iteration, each waited
 * for before the next step can start. */
static int cg(pcg_t *c, int iters, double *hist, double *seconds)
{
    const grid_t *g = &c->g;
    const size_t n = vec_in_len(g);
    double *restrict x = vec_in(g, c->x), *restrict r = vec_in(g, c->r),
           *restrict p = vec_in(g, c->p), *restrict q = vec_in(g, c->q);
    int err = 0;
    memcpy(p, r, n * sizeof(double));
    double gamma = allreduce_sum(dot_local(g, c->r, c->r), &err), gamma0 = gamma;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now_s();
    for (int it = 0; it < iters; it++) {
        hist[it] = sqrt(gamma);
        int frozen = gamma <= FROZEN * gamma0;
        err |= spmv(g, c->p, c->q, NULL, NULL) != MPI_SUCCESS;
        double pq = allreduce_sum(dot_local(g, c->p, c->q), &err);
        double alpha = frozen ? 0 : gamma / pq;
        double rr = 0;
        for (size_t i = 0; i < n; i++) {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
            rr += r[i] * r[i];
        }
        double gamma_next = allreduce_sum(rr, &err), beta = frozen ? 0 : gamma_next / gamma;
        gamma = gamma_next;
        for (size_t i = 0; i < n; i++)
            p[i] = r[i] + beta * p[i];
    }
    *seconds = now_s() - t0;
    return err;
}

/* The pipelined solvers' reduction of red_send into red_recv. */
static int reduction_start(pcg_t *c, solver_t s, MPI_Request *mreq)
{
    if (s == S_PIPECG_MPI)
        return MPI_Iallreduce(c->red_send, c->red_recv, PCG_NDOT, MPI_DOUBLE, MPI_SUM,
                              MPI_COMM_WORLD, mreq) != MPI_SUCCESS;
    return nbo_start(&c->nbo_req) != NBO_SUCCESS;
}

static int reduction_wait(pcg_t *c, solver_t s, MPI_Request *mreq)
{
    if (s == S_PIPECG_MPI)
        return MPI_Wait(mreq, MPI_STATUS_IGNORE) != MPI_SUCCESS;
    return nbo_wait(&c->nbo_req) != NBO_SUCCESS;
}

/* pipecg_nbo_test: a test call after each plane of A w, as an application
 * without a progress thread would place them. */
static void reduction_poll(void *arg)
{
    pcg_t *c = arg;
    int flag;
    c->poll_err |= nbo_test(&c->nbo_req, &flag) != NBO_SUCCESS;
}

/* Ghysels & Vanroose (2014), Alg. 4 (M = I).  The reduction carries
 * gamma = (r,r), delta = (w,r) and (w,w): three values, as PETSc's
 * KSPPIPECG reduces with its norm; (w,w) is not used. */
static int pipecg(pcg_t *c, solver_t s, int iters, double *hist, double *seconds)
{
    const grid_t *g = &c->g;
    const size_t n = vec_in_len(g);
    /* Distinct vectors: restrict lets the update keep each value in a
     * register instead of reloading it after every store. */
    double *restrict x = vec_in(g, c->x), *restrict r = vec_in(g, c->r),
           *restrict w = vec_in(g, c->w), *restrict q = vec_in(g, c->q),
           *restrict z = vec_in(g, c->z), *restrict sv = vec_in(g, c->s),
           *restrict p = vec_in(g, c->p);
    int err = spmv(g, c->r, c->w, NULL, NULL) != MPI_SUCCESS; /* w0 = A r0 */
    c->red_send[0] = dot_local(g, c->r, c->r);
    c->red_send[1] = dot_local(g, c->w, c->r);
    c->red_send[2] = dot_local(g, c->w, c->w);
    plane_poll_fn poll = s == S_PIPECG_NBO_TEST ? reduction_poll : NULL;
    double gamma_prev = 1, alpha_prev = 1, gamma0 = 0;
    c->poll_err = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now_s();
    for (int it = 0; it < iters; it++) {
        MPI_Request mreq;
        err |= reduction_start(c, s, &mreq);
        err |= spmv(g, c->w, c->q, poll, c) != MPI_SUCCESS; /* hides the reduction */
        err |= reduction_wait(c, s, &mreq);
        double gamma = c->red_recv[0], delta = c->red_recv[1];
        hist[it] = sqrt(gamma);
        if (it == 0)
            gamma0 = gamma;
        double alpha = 0, beta = 0;
        if (gamma > FROZEN * gamma0) {
            beta = it > 0 ? gamma / gamma_prev : 0;
            alpha = it > 0 ? gamma / (delta - beta * gamma / alpha_prev) : gamma / delta;
            gamma_prev = gamma;
            alpha_prev = alpha;
        }
        /* All vector updates in one pass, with the next iteration's dots. */
        double rr = 0, wr = 0, ww = 0;
        for (size_t i = 0; i < n; i++) {
            z[i] = q[i] + beta * z[i];
            sv[i] = w[i] + beta * sv[i];
            p[i] = r[i] + beta * p[i];
            x[i] += alpha * p[i];
            r[i] -= alpha * sv[i];
            w[i] -= alpha * z[i];
            rr += r[i] * r[i];
            wr += w[i] * r[i];
            ww += w[i] * w[i];
        }
        c->red_send[0] = rr;
        c->red_send[1] = wr;
        c->red_send[2] = ww;
    }
    *seconds = now_s() - t0;
    return err | c->poll_err;
}

int solve(pcg_t *c, solver_t s, int iters, double *hist, double *seconds)
{
    const grid_t *g = &c->g;
    const size_t bytes = vec_in_len(g) * sizeof(double);
    /* x0 = 0, r0 = b; the direction vectors start at zero (beta_0 = 0
     * multiplies them, and the last solve's values must not leak in). */
    memset(vec_in(g, c->x), 0, bytes);
    memcpy(vec_in(g, c->r), vec_in(g, c->b), bytes);
    double *zero[] = {c->z, c->s, c->p};
    for (int i = 0; i < 3; i++)
        memset(vec_in(g, zero[i]), 0, bytes);
    return s == S_CG ? cg(c, iters, hist, seconds) : pipecg(c, s, iters, hist, seconds);
}

static double dot(const grid_t *g, const double *a, const double *b)
{
    int err = 0;
    return allreduce_sum(dot_local(g, a, b), &err);
}

void solve_errors(pcg_t *c, double *rel_residual, double *rel_error, double *rel_error_a)
{
    const grid_t *g = &c->g;
    const size_t n = vec_in_len(g);
    double *e = vec_in(g, c->q), *res = vec_in(g, c->s), *b = vec_in(g, c->b),
           *x = vec_in(g, c->x), *xt = vec_in(g, c->x_true);
    spmv(g, c->x, c->s, NULL, NULL);
    for (size_t i = 0; i < n; i++)
        res[i] = b[i] - res[i];
    *rel_residual = norm2(g, c->s) / norm2(g, c->b);
    for (size_t i = 0; i < n; i++)
        e[i] = x[i] - xt[i];
    *rel_error = norm2(g, c->q) / norm2(g, c->x_true);
    /* ||e||_A / ||x_true||_A, with A x_true = b: the norm CG minimizes. */
    spmv(g, c->q, c->z, NULL, NULL);
    *rel_error_a = sqrt(dot(g, c->q, c->z) / dot(g, c->x_true, c->b));
}
