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
 *
 * p3o_roundtrip runs both legs as one stream of 2 nv steps (forward 1..nv,
 * then backward 1..nv, the spectral op right after each forward z): the
 * first backward exchange starts while the last forward one still flies,
 * so only the first xy and the last yx are left without an exchange to
 * hide behind, where separate calls leave four such stages and the work
 * between the calls.
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

/*
 * A call is a stream of steps, one column exchange each: step i is variable
 * i % nv of leg i / nv.  p3o_forward and p3o_backward have one leg (nv
 * steps), p3o_roundtrip two (2 nv), so its backward exchanges queue right
 * behind the forward ones and the link does not idle between the legs.
 */
typedef struct stream {
    const stages_t *leg[2];
    const char *in[2];
    char *out[2];
    int steps;
    p3o_spectral_fn op; /* roundtrip: on each spectrum between the legs */
    void *arg;
} stream_t;

static const stages_t *step_leg(const struct p3o_plan *p, const stream_t *st, int i)
{
    return st->leg[i / p->nv];
}

static int step_first(struct p3o_plan *p, const stream_t *st, int i, int k)
{
    const stages_t *s = step_leg(p, st, i);
    return s->first(p, st->in[i / p->nv] + (size_t)(i % p->nv) * s->in_bytes, k);
}

/* The step's second half; after a forward step of a round trip, the op on
 * the finished spectrum (GPU plans: once the stream has written it). */
static int step_second(struct p3o_plan *p, const stream_t *st, int i, int k)
{
    const stages_t *s = step_leg(p, st, i);
    const int v = i % p->nv;
    char *out = st->out[i / p->nv] + (size_t)v * s->out_bytes;
    int rc = s->second(p, k, out);
    if (rc == P3O_SUCCESS && st->op && i < p->nv) {
        if (p->gpu)
            gpu_settle(p);
        if (p->gpu_rc)
            return p->gpu_rc;
        st->op(out, v, st->arg);
    }
    return rc;
}

static int blocking(struct p3o_plan *p, const stream_t *st)
{
    for (int i = 0; i < st->steps; i++) {
        int rc = step_first(p, st, i, 0);
        if (rc == P3O_SUCCESS)
            TIMED(p->t.col_comm, rc = p3o_col_exchange(p, step_leg(p, st, i)->dir, 0));
        if (rc == P3O_SUCCESS)
            rc = step_second(p, st, i, 0);
        if (rc)
            return rc;
    }
    return P3O_SUCCESS;
}

/* busy[k]: the direction of the exchange in flight on set k, or -1. */
static int col_start_timed(struct p3o_plan *p, int dir, int k, int *busy)
{
    int rc;
    TIMED(p->t.col_comm, rc = p3o_col_start(p, dir, k));
    busy[k] = rc == P3O_SUCCESS ? dir : -1;
    return rc;
}

static int col_wait_timed(struct p3o_plan *p, int k, int *busy)
{
    int rc;
    double t0 = MPI_Wtime();
    rc = p3o_col_wait(p, busy[k], k);
    double dt = MPI_Wtime() - t0;
    p->t.wait += dt;
    p->t.col_comm += dt;
    busy[k] = -1;
    return rc;
}

/* Step i uses buffer set i % 2; its exchange flies while step i+1 computes
 * its first half and is waited for only after step i+1's has started. */
static int pipelined(struct p3o_plan *p, const stream_t *st)
{
    int busy[2] = {-1, -1};
    int rc = step_first(p, st, 0, 0);
    if (rc == P3O_SUCCESS)
        rc = col_start_timed(p, step_leg(p, st, 0)->dir, 0, busy);
    for (int i = 1; i < st->steps && rc == P3O_SUCCESS; i++) {
        int cur = i & 1, prev = cur ^ 1;
        rc = step_first(p, st, i, cur);
        if (rc == P3O_SUCCESS)
            rc = col_start_timed(p, step_leg(p, st, i)->dir, cur, busy);
        if (rc == P3O_SUCCESS)
            rc = col_wait_timed(p, prev, busy);
        if (rc == P3O_SUCCESS)
            rc = step_second(p, st, i - 1, prev);
    }
    if (rc == P3O_SUCCESS) {
        int last = (st->steps - 1) & 1;
        rc = col_wait_timed(p, last, busy);
        if (rc == P3O_SUCCESS)
            rc = step_second(p, st, st->steps - 1, last);
    }
    /* After a failure, complete what is still in flight: the buffers must
     * not be reused under a running exchange. */
    for (int k = 0; k < 2; k++)
        if (busy[k] >= 0)
            col_wait_timed(p, k, busy);
    return rc;
}

/* The buffers of a call, checked before any work starts. */
static int check_buffers(const struct p3o_plan *p, const void *const buf[],
                         const char *const name[], int n)
{
    for (int i = 0; i < n; i++) {
        if (!buf[i])
            return p3o_fail(P3O_ERR_ARG, "%s buffer is NULL", name[i]);
        if (p->gpu && !p3o_cuda_is_device(buf[i]))
            return p3o_fail(P3O_ERR_ARG, "a device plan needs CUDA device (or managed) memory: "
                            "the %s buffer is host memory", name[i]);
    }
    return P3O_SUCCESS;
}

static int run(struct p3o_plan *p, const stream_t *st)
{
    p->gpu_rc = P3O_SUCCESS;
    double t0 = MPI_Wtime();
    int rc = p->mode == P3O_BLOCKING ? blocking(p, st) : pipelined(p, st);
    if (p->gpu) {
        gpu_settle(p); /* the last stage's results are in out */
        if (rc == P3O_SUCCESS)
            rc = p->gpu_rc;
    }
    p->t.total += MPI_Wtime() - t0;
    p->t.calls += st->steps / p->nv;
    return rc;
}

static stages_t forward_stages(const struct p3o_plan *p)
{
    return (stages_t){.dir = P3O_FWD, .first = fwd_xy, .second = fwd_z,
                      .in_bytes = p->n_real * p->rs, .out_bytes = p->n_cz * p->es};
}

static stages_t backward_stages(const struct p3o_plan *p)
{
    return (stages_t){.dir = P3O_BWD, .first = bwd_z, .second = bwd_yx,
                      .in_bytes = p->n_cz * p->es, .out_bytes = p->n_real * p->rs};
}

/* p3o_forward and p3o_backward: one leg of nv steps. */
static int one_leg(p3o_plan_t plan, stages_t (*stages)(const struct p3o_plan *), const void *in,
                   void *out)
{
    static const char *const names[] = {"input", "output"};
    struct p3o_plan *p = p3o_plan_check(plan);
    if (!p)
        return p3o_fail(P3O_ERR_PLAN, "not a valid p3o plan");
    int rc = check_buffers(p, (const void *const[]){in, out}, names, 2);
    if (rc != P3O_SUCCESS)
        return rc;
    stages_t s = stages(p);
    stream_t st = {.leg = {&s}, .in = {in}, .out = {out}, .steps = p->nv};
    return run(p, &st);
}

int p3o_forward(p3o_plan_t plan, const void *in, void *out)
{
    return one_leg(plan, forward_stages, in, out);
}

int p3o_backward(p3o_plan_t plan, const void *in, void *out)
{
    return one_leg(plan, backward_stages, in, out);
}

int p3o_roundtrip(p3o_plan_t plan, const void *in, void *spec, void *out, p3o_spectral_fn op,
                  void *arg)
{
    struct p3o_plan *p = p3o_plan_check(plan);
    if (!p)
        return p3o_fail(P3O_ERR_PLAN, "not a valid p3o plan");
    static const char *const names[] = {"input", "spectrum", "output"};
    int rc = check_buffers(p, (const void *const[]){in, spec, out}, names, 3);
    if (rc != P3O_SUCCESS)
        return rc;
    stages_t f = forward_stages(p), b = backward_stages(p);
    if (p->nv == 1) {
        /* The backward step needs the forward step's spectrum: one stream
         * would start it before the forward one has been waited for. */
        stream_t fw = {.leg = {&f}, .in = {in}, .out = {spec}, .steps = 1, .op = op, .arg = arg};
        stream_t bw = {.leg = {&b}, .in = {spec}, .out = {out}, .steps = 1};
        rc = run(p, &fw);
        return rc != P3O_SUCCESS ? rc : run(p, &bw);
    }
    /* With nv >= 2, backward step nv+v starts after forward step v has
     * been waited for and finished (in the pipeline's iteration v+1). */
    stream_t st = {.leg = {&f, &b}, .in = {in, spec}, .out = {spec, out}, .steps = 2 * p->nv,
                   .op = op, .arg = arg};
    return run(p, &st);
}
