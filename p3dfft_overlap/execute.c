/*
 * execute.c - forward and backward transforms of nv variables: one
 * variable after another (BLOCKING), or the paper's pipeline (Fig. 4):
 *
 *   forward                              backward
 *   xy(1); start(1)                      z(1); start(1)
 *   for j = 2..nv:                       for j = 2..nv:
 *     xy(j); start(j)                      z(j); start(j)
 *     wait(j-1); z(j-1)                    wait(j-1); yx(j-1)
 *   wait(nv); z(nv)                      wait(nv); yx(nv)
 *
 * xy = X-FFT, row transpose, Y-FFT and column pack (trans_xy and the local
 * half of init_exchange_col); z = column unpack and Z-FFT
 * (complete_exchange_col after its wait).  Buffer set j % 2 carries
 * variable j, so the exchange of j runs while j+1 computes.
 */
#include "p3o_internal.h"

/* GPU plans run each stage asynchronously on the plan's stream: the timer
 * waits for it, so a stage's time is its GPU time. */
#define TIMED(acc, stmt)                    \
    do {                                    \
        double t0_ = MPI_Wtime();           \
        stmt;                               \
        if (p->gpu)                         \
            gpu_settle(p);                  \
        (acc) += MPI_Wtime() - t0_;         \
    } while (0)

/* Wait for the stream; keep the first GPU failure for the caller. */
static void gpu_settle(struct p3o_plan *p)
{
    int rc = p3o_cuda_sync(p);
    if (rc != P3O_SUCCESS && p->gpu_rc == P3O_SUCCESS)
        p->gpu_rc = rc;
}

/* Forward stages up to the column pack of variable `in` into set k. */
static int fwd_xy(struct p3o_plan *p, const void *in, int k)
{
    int rc;
    TIMED(p->t.fft_x, rc = p3o_fft_exec(&p->fx_fwd, in, p->xc));
    if (rc)
        return rc;
    TIMED(p->t.row, p3o_row_pack(p, P3O_FWD); rc = p3o_row_exchange(p, P3O_FWD);
          if (rc == P3O_SUCCESS) p3o_row_unpack(p, P3O_FWD));
    if (rc)
        return rc;
    TIMED(p->t.fft_y, rc = p3o_fft_exec(&p->fy_fwd, p->ybuf, p->ybuf));
    if (rc)
        return rc;
    TIMED(p->t.col_local, p3o_col_pack(p, P3O_FWD, k, p->ybuf));
    return p->gpu_rc;
}

/* Forward stages after the column exchange of set k: into Z-pencil out. */
static int fwd_z(struct p3o_plan *p, int k, void *out)
{
    int rc;
    TIMED(p->t.col_local, p3o_col_unpack(p, P3O_FWD, k, out));
    TIMED(p->t.fft_z, rc = p3o_fft_exec(&p->fz_fwd, out, out));
    return rc ? rc : p->gpu_rc;
}

/* Backward stages up to the column pack of Z-pencil `in` into set k. */
static int bwd_z(struct p3o_plan *p, const void *in, int k)
{
    int rc;
    TIMED(p->t.fft_z, rc = p3o_fft_exec(&p->fz_bwd, in, p->zbuf));
    if (rc)
        return rc;
    TIMED(p->t.col_local, p3o_col_pack(p, P3O_BWD, k, p->zbuf));
    return p->gpu_rc;
}

/* Backward stages after the column exchange of set k: into X-pencil out. */
static int bwd_yx(struct p3o_plan *p, int k, void *out)
{
    int rc;
    TIMED(p->t.col_local, p3o_col_unpack(p, P3O_BWD, k, p->ybuf));
    TIMED(p->t.fft_y, rc = p3o_fft_exec(&p->fy_bwd, p->ybuf, p->ybuf));
    if (rc)
        return rc;
    TIMED(p->t.row, p3o_row_pack(p, P3O_BWD); rc = p3o_row_exchange(p, P3O_BWD);
          if (rc == P3O_SUCCESS) p3o_row_unpack(p, P3O_BWD));
    if (rc)
        return rc;
    TIMED(p->t.fft_x, rc = p3o_fft_exec(&p->fx_bwd, p->xc, out));
    return rc ? rc : p->gpu_rc;
}

/* The two halves of one direction, on variable v. */
typedef struct stages {
    int dir;
    int (*first)(struct p3o_plan *p, const void *in, int k);
    int (*second)(struct p3o_plan *p, int k, void *out);
    size_t in_bytes, out_bytes; /* per variable */
} stages_t;

static int blocking(struct p3o_plan *p, const stages_t *s, const char *in, char *out)
{
    for (int v = 0; v < p->nv; v++) {
        int rc = s->first(p, in + (size_t)v * s->in_bytes, 0);
        if (rc == P3O_SUCCESS)
            TIMED(p->t.col_comm, rc = p3o_col_exchange(p, s->dir, 0));
        if (rc == P3O_SUCCESS)
            rc = s->second(p, 0, out + (size_t)v * s->out_bytes);
        if (rc)
            return rc;
    }
    return P3O_SUCCESS;
}

static int col_start_timed(struct p3o_plan *p, int dir, int k, int *active)
{
    int rc;
    TIMED(p->t.col_comm, rc = p3o_col_start(p, dir, k));
    active[k] = rc == P3O_SUCCESS;
    return rc;
}

static int col_wait_timed(struct p3o_plan *p, int dir, int k, int *active)
{
    int rc;
    double t0 = MPI_Wtime();
    rc = p3o_col_wait(p, dir, k);
    double dt = MPI_Wtime() - t0;
    p->t.wait += dt;
    p->t.col_comm += dt;
    active[k] = 0;
    return rc;
}

static int pipelined(struct p3o_plan *p, const stages_t *s, const char *in, char *out)
{
    int active[2] = {0, 0};
    int rc = s->first(p, in, 0);
    if (rc == P3O_SUCCESS)
        rc = col_start_timed(p, s->dir, 0, active);
    for (int j = 1; j < p->nv && rc == P3O_SUCCESS; j++) {
        int cur = j & 1, prev = cur ^ 1;
        rc = s->first(p, in + (size_t)j * s->in_bytes, cur);
        if (rc == P3O_SUCCESS)
            rc = col_start_timed(p, s->dir, cur, active);
        if (rc == P3O_SUCCESS)
            rc = col_wait_timed(p, s->dir, prev, active);
        if (rc == P3O_SUCCESS)
            rc = s->second(p, prev, out + (size_t)(j - 1) * s->out_bytes);
    }
    if (rc == P3O_SUCCESS) {
        int last = (p->nv - 1) & 1;
        rc = col_wait_timed(p, s->dir, last, active);
        if (rc == P3O_SUCCESS)
            rc = s->second(p, last, out + (size_t)(p->nv - 1) * s->out_bytes);
    }
    /* After a failure, complete what is still in flight: the buffers must
     * not be reused under a running exchange. */
    for (int k = 0; k < 2; k++)
        if (active[k])
            col_wait_timed(p, s->dir, k, active);
    return rc;
}

static int run(p3o_plan_t plan, const stages_t *s, const void *in, void *out)
{
    struct p3o_plan *p = p3o_plan_check(plan);
    if (!p)
        return p3o_fail(P3O_ERR_PLAN, "not a valid p3o plan");
    if (!in || !out)
        return p3o_fail(P3O_ERR_ARG, "%s buffer is NULL", !in ? "input" : "output");
    if (p->gpu && (!p3o_cuda_is_device(in) || !p3o_cuda_is_device(out)))
        return p3o_fail(P3O_ERR_ARG, "a device plan needs CUDA device (or managed) memory: the %s "
                        "buffer is host memory", !p3o_cuda_is_device(in) ? "input" : "output");
    p->gpu_rc = P3O_SUCCESS;
    double t0 = MPI_Wtime();
    int rc = p->mode == P3O_BLOCKING ? blocking(p, s, in, out) : pipelined(p, s, in, out);
    if (p->gpu) {
        gpu_settle(p); /* the last stage's results are in out */
        if (rc == P3O_SUCCESS)
            rc = p->gpu_rc;
    }
    p->t.total += MPI_Wtime() - t0;
    p->t.calls++;
    return rc;
}

int p3o_forward(p3o_plan_t plan, const void *in, void *out)
{
    struct p3o_plan *p = p3o_plan_check(plan);
    stages_t s = {.dir = P3O_FWD, .first = fwd_xy, .second = fwd_z,
                  .in_bytes = p ? p->n_real * p->rs : 0, .out_bytes = p ? p->n_cz * p->es : 0};
    return run(plan, &s, in, out);
}

int p3o_backward(p3o_plan_t plan, const void *in, void *out)
{
    struct p3o_plan *p = p3o_plan_check(plan);
    stages_t s = {.dir = P3O_BWD, .first = bwd_z, .second = bwd_yx,
                  .in_bytes = p ? p->n_cz * p->es : 0, .out_bytes = p ? p->n_real * p->rs : 0};
    return run(plan, &s, in, out);
}
