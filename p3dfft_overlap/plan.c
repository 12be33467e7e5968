/*
 * plan.c - creating and destroying plans: check and agree on the
 * arguments, build the process grid, the extents, the exchange
 * descriptions, the buffers, the FFTW plans and (PIPELINED_NBO) the libnbo
 * persistent requests.
 *
 * Every step that can fail on some ranks only is followed by agree(), a
 * MIN-reduction of the result codes over the grid, so all ranks return the
 * same code and clean up together (the clean-up has collectives too).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "p3o_internal.h"
#include "../util/util.h" /* nbo_allmin */

void p3o_options_init(p3o_options_t *o)
{
    if (!o)
        return;
    memset(o, 0, sizeof(*o));
    o->planner = P3O_PLANNER_MEASURE;
}

struct p3o_plan *p3o_plan_check(p3o_plan_t plan)
{
    return plan && plan->magic == P3O_PLAN_MAGIC ? plan : NULL;
}

/* The most negative code over comm.  A rank that succeeded but sees
 * another rank's failure gets that code, and a detail saying so. */
static int agree(MPI_Comm comm, int rc)
{
    int all;
    if (nbo_allmin(comm, rc, &all) != MPI_SUCCESS)
        return p3o_fail(P3O_ERR_MPI, "MPI_Allreduce failed while agreeing on a result");
    if (all != P3O_SUCCESS && rc == P3O_SUCCESS)
        p3o_fail(all, "another rank failed: %s", p3o_strerror(all));
    return all;
}

/* ------------------------------------------------------------ arguments */

typedef struct args {
    int nx, ny, nz, nv, prec, mode, row, col, planner, device, codec, codec_rate, compress_row;
} args_t;

static int check_local(const args_t *a, int P, p3o_plan_t *plan)
{
    if (!plan)
        return p3o_fail(P3O_ERR_ARG, "plan (the output pointer) is NULL");
    if ((unsigned)a->prec > P3O_SINGLE)
        return p3o_fail(P3O_ERR_ARG, "unknown precision %d", a->prec);
    if ((unsigned)a->mode > P3O_PIPELINED_NBO)
        return p3o_fail(P3O_ERR_ARG, "unknown mode %d", a->mode);
    if ((unsigned)a->planner > P3O_PLANNER_PATIENT)
        return p3o_fail(P3O_ERR_ARG, "unknown planner %d", a->planner);
    if ((unsigned)a->device > 1)
        return p3o_fail(P3O_ERR_ARG, "options device = %d: 0 (host) or 1 (CUDA device)", a->device);
    if ((unsigned)a->codec > NBO_CODEC_ZFP)
        return p3o_fail(P3O_ERR_ARG, "unknown options codec %d", a->codec);
    if ((unsigned)a->compress_row > 1)
        return p3o_fail(P3O_ERR_ARG, "options compress_row = %d: 0 or 1", a->compress_row);
    if (a->nx <= 0 || a->ny <= 0 || a->nz <= 0)
        return p3o_fail(P3O_ERR_SIZE, "grid %d x %d x %d: every size must be positive", a->nx,
                        a->ny, a->nz);
    if (a->nv < 1)
        return p3o_fail(P3O_ERR_NV, "nv = %d: at least one variable is needed", a->nv);
    if (a->row < 0 || a->col < 0 || (a->row == 0) != (a->col == 0))
        return p3o_fail(P3O_ERR_GRID, "options row = %d, col = %d: set both (positive) or neither",
                        a->row, a->col);
    if (a->row && (long)a->row * a->col != P)
        return p3o_fail(P3O_ERR_GRID, "options row x col = %d x %d, but the communicator has %d ranks",
                        a->row, a->col, P);
    return P3O_SUCCESS;
}

/* Local checks, then one reduction that both agrees on the result and
 * detects ranks that passed different arguments. */
static int check_args(MPI_Comm comm, const args_t *a, int P, p3o_plan_t *plan)
{
    enum { N = sizeof(args_t) / sizeof(int) };
    const int *v = (const int *)a;
    int rc = check_local(a, P, plan);
    int buf[2 * N + 1], all[2 * N + 1];
    for (int i = 0; i < N; i++) {
        buf[i] = v[i];
        buf[N + i] = v[i] == INT_MIN ? INT_MAX : -v[i];
    }
    buf[2 * N] = -rc;
    if (MPI_Allreduce(buf, all, 2 * N + 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS)
        return p3o_fail(P3O_ERR_MPI, "MPI_Allreduce failed while checking arguments");
    if (all[2 * N] != 0) {
        if (rc == P3O_SUCCESS)
            p3o_fail(-all[2 * N], "another rank failed: %s", p3o_strerror(-all[2 * N]));
        return -all[2 * N];
    }
    static const char *const names[N] = {"nx", "ny", "nz", "nv", "precision",
                                         "mode", "options row", "options col", "options planner",
                                         "options device", "options codec", "options codec_rate",
                                         "options compress_row"};
    for (int i = 0; i < N; i++)
        if (all[i] != -all[N + i])
            return p3o_fail(P3O_ERR_MISMATCH, "ranks passed different %s (from %d to %d)",
                            names[i], -all[N + i], all[i]);
    return P3O_SUCCESS;
}

/* Compression runs where libnbo does the exchanges, on host data, with a
 * codec this libnbo has.  After check_args: every rank has the same
 * arguments (the availability and nbo_config are agreed by the caller). */
static int check_codec(const p3o_options_t *o, p3o_mode_t mode)
{
    const char *name = nbo_codec_name(o->codec);
    /* The plan's communicators take the codec from the options: an explicit
     * libnbo configuration that says otherwise is a conflict, not a choice. */
    const nbo_config_t *u = mode == P3O_PIPELINED_NBO ? o->nbo_config : NULL;
    if (u && u->codec != NBO_CODEC_NONE &&
        (u->codec != o->codec ||
         (o->codec == NBO_CODEC_ZFP && u->codec_rate != (o->codec_rate ? o->codec_rate : 16))))
        return p3o_fail(P3O_ERR_CODEC, "options nbo_config has codec %s, options codec %s: set the "
                        "codec in p3o_options_t (codec, codec_rate) only",
                        nbo_codec_name(u->codec), name);
    if (o->codec == NBO_CODEC_NONE)
        return P3O_SUCCESS;
    if (mode != P3O_PIPELINED_NBO)
        return p3o_fail(P3O_ERR_CODEC,
                        "options codec %s: compression runs only where libnbo does the exchanges, "
                        "mode pipelined_nbo (this plan: %s, whose exchanges MPI does)",
                        name, p3o_mode_name(mode));
    if (o->device)
        return p3o_fail(P3O_ERR_CODEC, "options codec %s: libnbo compresses host buffers only, "
                        "not a GPU plan's (options device = 1)", name);
    if (o->codec == NBO_CODEC_ZFP && (o->codec_rate < 0 || o->codec_rate > 64))
        return p3o_fail(P3O_ERR_CODEC, "options codec_rate = %d: zfp takes 1..64 bits per value "
                        "(0: 16)", o->codec_rate);
    char detail[256] = "";
    if (nbo_codec_available(o->codec, detail, sizeof(detail)) != NBO_SUCCESS)
        return p3o_fail(P3O_ERR_CODEC, "options codec %s is not in this libnbo: %s", name, detail);
    return P3O_SUCCESS;
}

/* a * b * c <= INT_MAX, for non-negative ints. */
static int fits_int(long a, long b, long c)
{
    return a <= INT_MAX && b <= INT_MAX && c <= INT_MAX &&
           (b == 0 || a <= INT_MAX / b) && (c == 0 || a * b <= INT_MAX / c);
}

/* ---------------------------------------------------------- construction */

static void xfer_free(p3o_xfer_t *x)
{
    free(x->scnt);
    x->scnt = x->sdsp = x->rcnt = x->rdsp = x->scnt_peers = x->rcnt_peers = NULL;
}

/* Forward counts: send block q has s_of(q) elements, receive block r_of(q);
 * me is this process's block. */
static int xfer_init(p3o_xfer_t *x, int m, int me, const long *s_of, const long *r_of)
{
    x->m = m;
    x->me = me;
    x->scnt = malloc(6 * (size_t)m * sizeof(int));
    if (!x->scnt)
        return p3o_fail(P3O_ERR_NOMEM, "no memory for %d exchange counts", m);
    x->sdsp = x->scnt + m;
    x->rcnt = x->sdsp + m;
    x->rdsp = x->rcnt + m;
    x->scnt_peers = x->rdsp + m;
    x->rcnt_peers = x->scnt_peers + m;
    long so = 0, ro = 0;
    for (int q = 0; q < m; q++) {
        x->scnt[q] = (int)s_of[q];
        x->rcnt[q] = (int)r_of[q];
        x->scnt_peers[q] = q == me ? 0 : x->scnt[q];
        x->rcnt_peers[q] = q == me ? 0 : x->rcnt[q];
        x->sdsp[q] = (int)so;
        x->rdsp[q] = (int)ro;
        so += s_of[q];
        ro += r_of[q];
    }
    x->stotal = (size_t)so;
    x->rtotal = (size_t)ro;
    return P3O_SUCCESS;
}

static int build_grid(struct p3o_plan *p, MPI_Comm comm, int row, int col)
{
    int dims[2] = {col, row}, periods[2] = {0, 0}; /* dim 1 (ROW) varies fastest */
    int rank, coords[2], keep_row[2] = {0, 1}, keep_col[2] = {1, 0};
    if (MPI_Cart_create(comm, 2, dims, periods, 0, &p->cart) != MPI_SUCCESS)
        return p3o_fail(P3O_ERR_MPI, "MPI_Cart_create failed");
    MPI_Comm_set_errhandler(p->cart, MPI_ERRORS_RETURN);
    if (MPI_Comm_rank(p->cart, &rank) != MPI_SUCCESS ||
        MPI_Cart_coords(p->cart, rank, 2, coords) != MPI_SUCCESS ||
        MPI_Cart_sub(p->cart, keep_row, &p->row_comm) != MPI_SUCCESS ||
        MPI_Cart_sub(p->cart, keep_col, &p->col_comm) != MPI_SUCCESS)
        return p3o_fail(P3O_ERR_MPI, "building the ROW and COL communicators failed");
    MPI_Comm_set_errhandler(p->row_comm, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(p->col_comm, MPI_ERRORS_RETURN);
    p->row = row;
    p->col = col;
    p->row_rank = coords[1];
    p->col_rank = coords[0];
    return P3O_SUCCESS;
}

static int build_extents(struct p3o_plan *p)
{
    p->ys_r = p3o_split_start(p->ny, p->row, p->row_rank);
    p->yr = p3o_split_size(p->ny, p->row, p->row_rank);
    p->zs_c = p3o_split_start(p->nz, p->col, p->col_rank);
    p->zc = p3o_split_size(p->nz, p->col, p->col_rank);
    p->xs_r = p3o_split_start(p->nxh, p->row, p->row_rank);
    p->xr = p3o_split_size(p->nxh, p->row, p->row_rank);
    p->ys_c = p3o_split_start(p->ny, p->col, p->col_rank);
    p->yc = p3o_split_size(p->ny, p->col, p->col_rank);
    if (!fits_int(p->nx, p->yr, p->zc) || !fits_int(p->nxh, p->yr, p->zc) ||
        !fits_int(p->xr, p->ny, p->zc) || !fits_int(p->xr, p->yc, p->nz))
        return p3o_fail(P3O_ERR_TOO_LARGE,
                        "local pencils of %d x %d x %d on %d x %d ranks exceed INT_MAX elements",
                        p->nx, p->ny, p->nz, p->row, p->col);
    p->n_real = (size_t)p->nx * (size_t)p->yr * (size_t)p->zc;
    p->n_cx = (size_t)p->nxh * (size_t)p->yr * (size_t)p->zc;
    p->n_cy = (size_t)p->xr * (size_t)p->ny * (size_t)p->zc;
    p->n_cz = (size_t)p->xr * (size_t)p->yc * (size_t)p->nz;

    long *s = malloc(2 * (size_t)(p->row + p->col) * sizeof(long));
    if (!s)
        return p3o_fail(P3O_ERR_NOMEM, "no memory for exchange counts");
    long *r = s + p->row + p->col;
    for (int q = 0; q < p->row; q++) {
        s[q] = (long)p->zc * p3o_split_size(p->nxh, p->row, q) * p->yr;
        r[q] = (long)p->zc * p->xr * p3o_split_size(p->ny, p->row, q);
    }
    int rc = xfer_init(&p->rowx, p->row, p->row_rank, s, r);
    for (int q = 0; rc == P3O_SUCCESS && q < p->col; q++) {
        s[q] = (long)p->xr * p3o_split_size(p->ny, p->col, q) * p->zc;
        r[q] = (long)p->xr * p->yc * p3o_split_size(p->nz, p->col, q);
    }
    if (rc == P3O_SUCCESS)
        rc = xfer_init(&p->colx, p->col, p->col_rank, s, r);
    free(s);
    return rc;
}

static size_t max_sz(size_t a, size_t b) { return a > b ? a : b; }

/* Device buffers, and pinned host mirrors of the exchange buffers for the
 * MPI calls (MPICH cannot read device memory). */
static int build_gpu_buffers(struct p3o_plan *p)
{
    const size_t es = p->es, ex_row = max_sz(p->n_cx, p->n_cy) * es;
    const size_t ex_col = max_sz(p->n_cy, p->n_cz) * es;
    int rc = p3o_cuda_setup(p);
    if (rc != P3O_SUCCESS)
        return rc;
    p->xc = p3o_cuda_alloc(p->n_cx * es, 0);
    p->ybuf = p3o_cuda_alloc(p->n_cy * es, 0);
    p->zbuf = p3o_cuda_alloc(p->n_cz * es, 0);
    p->row_send = p3o_cuda_alloc(ex_row, 0);
    p->row_recv = p3o_cuda_alloc(ex_row, 0);
    p->row_send_h = p3o_cuda_alloc(ex_row, 1);
    p->row_recv_h = p3o_cuda_alloc(ex_row, 1);
    int ok = p->xc && p->ybuf && p->zbuf && p->row_send && p->row_recv && p->row_send_h &&
             p->row_recv_h;
    for (int k = 0; k < 2; k++) {
        p->col_send[k] = p3o_cuda_alloc(ex_col, 0);
        p->col_recv[k] = p3o_cuda_alloc(ex_col, 0);
        ok = ok && p->col_send[k] && p->col_recv[k];
        if (p->mode != P3O_PIPELINED_NBO) { /* libnbo stages its own */
            p->col_send_h[k] = p3o_cuda_alloc(ex_col, 1);
            p->col_recv_h[k] = p3o_cuda_alloc(ex_col, 1);
            ok = ok && p->col_send_h[k] && p->col_recv_h[k];
        }
    }
    return ok ? P3O_SUCCESS
              : p3o_fail(P3O_ERR_NOMEM, "no GPU or pinned host memory for the transform buffers");
}

static int build_buffers(struct p3o_plan *p)
{
    if (p->gpu)
        return build_gpu_buffers(p);
    const size_t es = p->es;
    p->xc = p3o_alloc(p->prec, p->n_cx * es);
    p->ybuf = p3o_alloc(p->prec, p->n_cy * es);
    p->zbuf = p3o_alloc(p->prec, p->n_cz * es);
    p->row_send = p3o_alloc(p->prec, max_sz(p->n_cx, p->n_cy) * es);
    p->row_recv = p3o_alloc(p->prec, max_sz(p->n_cx, p->n_cy) * es);
    int ok = p->xc && p->ybuf && p->zbuf && p->row_send && p->row_recv;
    for (int k = 0; k < 2; k++) {
        p->col_send[k] = p3o_alloc(p->prec, max_sz(p->n_cy, p->n_cz) * es);
        p->col_recv[k] = p3o_alloc(p->prec, max_sz(p->n_cy, p->n_cz) * es);
        ok = ok && p->col_send[k] && p->col_recv[k];
    }
    return ok ? P3O_SUCCESS : p3o_fail(P3O_ERR_NOMEM, "no memory for the transform buffers");
}

/* cuFFT: the same six batched transforms, planned once per plan. */
static int build_gpu_ffts(struct p3o_plan *p)
{
    const int hx = p->yr * p->zc, hy = p->xr * p->zc, hz = p->xr * p->yc;
    int rc = p3o_cufft_plan(p, &p->fx_fwd, P3O_FFT_R2C, p->nx, hx, 0);
    if (!rc) rc = p3o_cufft_plan(p, &p->fx_bwd, P3O_FFT_C2R, p->nx, hx, 0);
    if (!rc) rc = p3o_cufft_plan(p, &p->fy_fwd, P3O_FFT_C2C_FWD, p->ny, hy, 1);
    if (!rc) rc = p3o_cufft_plan(p, &p->fy_bwd, P3O_FFT_C2C_BWD, p->ny, hy, 1);
    if (!rc) rc = p3o_cufft_plan(p, &p->fz_fwd, P3O_FFT_C2C_FWD, p->nz, hz, 1);
    if (!rc) rc = p3o_cufft_plan(p, &p->fz_bwd, P3O_FFT_C2C_BWD, p->nz, hz, 0);
    return rc;
}

static int build_ffts(struct p3o_plan *p, unsigned flags)
{
    if (p->gpu)
        return build_gpu_ffts(p);
    /* Planning arrays for the transforms that touch user memory: FFTW's
     * planner may overwrite them. */
    void *real = p3o_alloc(p->prec, p->n_real * p->rs);
    void *cplx = p3o_alloc(p->prec, p->n_cz * p->es);
    int rc = real && cplx ? P3O_SUCCESS : p3o_fail(P3O_ERR_NOMEM, "no memory for planning");
    const int hx = p->yr * p->zc, hy = p->xr * p->zc, hz = p->xr * p->yc;
    if (!rc) rc = p3o_fft_plan(&p->fx_fwd, P3O_FFT_R2C, p->prec, p->nx, hx, real, p->xc, flags);
    if (!rc) rc = p3o_fft_plan(&p->fx_bwd, P3O_FFT_C2R, p->prec, p->nx, hx, p->xc, real, flags);
    if (!rc) rc = p3o_fft_plan(&p->fy_fwd, P3O_FFT_C2C_FWD, p->prec, p->ny, hy, p->ybuf, p->ybuf, flags);
    if (!rc) rc = p3o_fft_plan(&p->fy_bwd, P3O_FFT_C2C_BWD, p->prec, p->ny, hy, p->ybuf, p->ybuf, flags);
    if (!rc) rc = p3o_fft_plan(&p->fz_fwd, P3O_FFT_C2C_FWD, p->prec, p->nz, hz, p->zbuf, p->zbuf, flags);
    if (!rc) rc = p3o_fft_plan(&p->fz_bwd, P3O_FFT_C2C_BWD, p->prec, p->nz, hz, cplx, p->zbuf, flags);
    p3o_free(p->prec, real);
    p3o_free(p->prec, cplx);
    return rc;
}

/* Frees whatever was built; collective when the grid exists. */
static void plan_free(struct p3o_plan *p)
{
    if (p->ncomm != NBO_COMM_NULL || p->nrow != NBO_COMM_NULL)
        p3o_nbo_teardown(p);
    p3o_fft_t *ffts[] = {&p->fx_fwd, &p->fx_bwd, &p->fy_fwd, &p->fy_bwd, &p->fz_fwd, &p->fz_bwd};
    for (size_t i = 0; i < sizeof(ffts) / sizeof(ffts[0]); i++)
        p3o_fft_destroy(ffts[i]);
    void *bufs[] = {p->xc, p->ybuf, p->zbuf, p->row_send, p->row_recv,
                    p->col_send[0], p->col_send[1], p->col_recv[0], p->col_recv[1]};
    for (size_t i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++) {
        if (p->gpu)
            p3o_cuda_free(bufs[i], 0);
        else
            p3o_free(p->prec, bufs[i]);
    }
    if (p->gpu) {
        void *mirrors[] = {p->row_send_h, p->row_recv_h, p->col_send_h[0], p->col_send_h[1],
                           p->col_recv_h[0], p->col_recv_h[1]};
        for (size_t i = 0; i < sizeof(mirrors) / sizeof(mirrors[0]); i++)
            p3o_cuda_free(mirrors[i], 1);
        p3o_cuda_teardown(p);
    }
    xfer_free(&p->rowx);
    xfer_free(&p->colx);
    MPI_Comm *comms[] = {&p->row_comm, &p->col_comm, &p->cart};
    for (int i = 0; i < 3; i++)
        if (*comms[i] != MPI_COMM_NULL)
            MPI_Comm_free(comms[i]);
    p->magic = 0;
    free(p);
}

int p3o_plan_create(MPI_Comm comm, int nx, int ny, int nz, int nv, p3o_precision_t precision,
                    p3o_mode_t mode, const p3o_options_t *options, p3o_plan_t *plan)
{
    p3o_options_t defaults;
    p3o_options_init(&defaults);
    const p3o_options_t *o = options ? options : &defaults;
    if (plan)
        *plan = NULL;
    int inter = 0, P = 0;
    if (comm == MPI_COMM_NULL)
        return p3o_fail(P3O_ERR_COMM, "comm is MPI_COMM_NULL");
    if (MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter ||
        MPI_Comm_size(comm, &P) != MPI_SUCCESS)
        return p3o_fail(P3O_ERR_COMM, "comm is an inter-communicator or not usable");

    args_t a = {nx, ny, nz, nv, (int)precision, (int)mode, o->row, o->col, (int)o->planner,
                o->device, (int)o->codec, o->codec_rate, o->compress_row};
    int rc = check_args(comm, &a, P, plan);
    if (rc != P3O_SUCCESS)
        return rc;
    rc = agree(comm, check_codec(o, mode));
    if (rc != P3O_SUCCESS)
        return rc;
    if (o->device) { /* every rank needs a GPU (P ranks may share one) */
        rc = agree(comm, p3o_cuda_probe());
        if (rc != P3O_SUCCESS)
            return rc;
    }

    /* Every rank must own at least one point of each dimension it splits:
     * ROW splits y (X-pencils) and the nx/2+1 coefficients (Y-, Z-pencils);
     * COL splits z (X-, Y-pencils) and y (Z-pencils). */
    const int nxh = nx / 2 + 1;
    const int row_max = ny < nxh ? ny : nxh, col_max = ny < nz ? ny : nz;
    int row = o->row, col = o->col;
    if (row) {
        if (row > row_max || col > col_max)
            return p3o_fail(P3O_ERR_TOO_MANY_PROCS,
                            "grid %d x %d on %d x %d x %d: needs row <= min(ny, nx/2+1) = %d "
                            "and col <= min(ny, nz) = %d",
                            row, col, nx, ny, nz, row_max, col_max);
    } else if (p3o_grid_choose(P, row_max, col_max, &row, &col) != P3O_SUCCESS) {
        return p3o_fail(P3O_ERR_TOO_MANY_PROCS,
                        "%d ranks on %d x %d x %d: no row x col = %d has row <= min(ny, nx/2+1) "
                        "= %d and col <= min(ny, nz) = %d",
                        P, nx, ny, nz, P, row_max, col_max);
    }

    struct p3o_plan *p = calloc(1, sizeof(*p));
    rc = agree(comm, p ? P3O_SUCCESS : p3o_fail(P3O_ERR_NOMEM, "no memory for a plan"));
    if (rc != P3O_SUCCESS) {
        free(p);
        return rc;
    }
    p->magic = P3O_PLAN_MAGIC;
    p->nx = nx, p->ny = ny, p->nz = nz, p->nv = nv, p->nxh = nxh;
    p->prec = precision;
    p->mode = mode;
    p->gpu = o->device;
    p->rs = precision == P3O_DOUBLE ? sizeof(double) : sizeof(float);
    p->es = 2 * p->rs;
    p->ctype = precision == P3O_DOUBLE ? MPI_C_DOUBLE_COMPLEX : MPI_C_FLOAT_COMPLEX;
    p->cart = p->row_comm = p->col_comm = MPI_COMM_NULL;
    p->codec = o->codec;
    p->codec_rate = o->codec == NBO_CODEC_ZFP ? (o->codec_rate ? o->codec_rate : 16) : 0;
    p->compress_row = o->codec != NBO_CODEC_NONE && o->compress_row;

    rc = agree(comm, build_grid(p, comm, row, col));
    if (rc == P3O_SUCCESS)
        rc = agree(p->cart, build_extents(p));
    if (rc == P3O_SUCCESS)
        rc = agree(p->cart, build_buffers(p));
    if (rc == P3O_SUCCESS && o->wisdom_file && !p->gpu)
        rc = agree(p->cart, p3o_wisdom_import(precision, o->wisdom_file));
    if (rc == P3O_SUCCESS)
        rc = agree(p->cart, build_ffts(p, p3o_fftw_flags(o->planner)));
    if (rc == P3O_SUCCESS && o->wisdom_file && !p->gpu) {
        int me = 0;
        MPI_Comm_rank(p->cart, &me);
        rc = agree(p->cart, me == 0 ? p3o_wisdom_export(precision, o->wisdom_file) : P3O_SUCCESS);
    }
    if (mode == P3O_PIPELINED_NBO) {
        nbo_config_t cfg;
        if (rc == P3O_SUCCESS)
            rc = agree(p->cart, p3o_nbo_config(p, o->nbo_config, &cfg));
        if (rc == P3O_SUCCESS)
            rc = agree(p->cart, p3o_nbo_setup(p, &cfg));
        if (rc == P3O_SUCCESS && p->compress_row && p->row > 1)
            rc = agree(p->cart, p3o_nbo_setup_row(p, &cfg));
    }
    if (rc == P3O_SUCCESS)
        rc = agree(p->cart, p3o_compression_setup(p));
    if (rc != P3O_SUCCESS) {
        plan_free(p);
        return rc;
    }
    *plan = p;
    return P3O_SUCCESS;
}

int p3o_plan_destroy(p3o_plan_t *plan)
{
    if (!plan || !*plan)
        return P3O_SUCCESS;
    struct p3o_plan *p = p3o_plan_check(*plan);
    if (!p)
        return p3o_fail(P3O_ERR_PLAN, "p3o_plan_destroy: not a valid plan");
    plan_free(p);
    *plan = NULL;
    return P3O_SUCCESS;
}

/* ------------------------------------------------------------- queries */

int p3o_local_sizes(p3o_plan_t plan, p3o_local_t *l)
{
    struct p3o_plan *p = p3o_plan_check(plan);
    if (!p)
        return p3o_fail(P3O_ERR_PLAN, "p3o_local_sizes: not a valid plan");
    if (!l)
        return p3o_fail(P3O_ERR_ARG, "p3o_local_sizes: local is NULL");
    *l = (p3o_local_t){
        .nx = p->nx, .ny = p->ny, .nz = p->nz, .nv = p->nv,
        .xstart = {0, p->ys_r, p->zs_c}, .xsize = {p->nx, p->yr, p->zc},
        .zstart = {p->xs_r, p->ys_c, 0}, .zsize = {p->xr, p->yc, p->nz},
        .real_count = p->n_real, .complex_count = p->n_cz,
        .row = p->row, .col = p->col, .row_rank = p->row_rank, .col_rank = p->col_rank,
        .precision = p->prec, .mode = p->mode, .device = p->gpu,
    };
    return P3O_SUCCESS;
}

int p3o_nbo_comm(p3o_plan_t plan, nbo_comm_t *comm)
{
    struct p3o_plan *p = p3o_plan_check(plan);
    if (!p)
        return p3o_fail(P3O_ERR_PLAN, "p3o_nbo_comm: not a valid plan");
    if (!comm)
        return p3o_fail(P3O_ERR_ARG, "p3o_nbo_comm: comm is NULL");
    *comm = p->ncomm;
    return P3O_SUCCESS;
}

int p3o_timers(p3o_plan_t plan, p3o_timers_t *t)
{
    struct p3o_plan *p = p3o_plan_check(plan);
    if (!p)
        return p3o_fail(P3O_ERR_PLAN, "p3o_timers: not a valid plan");
    if (!t)
        return p3o_fail(P3O_ERR_ARG, "p3o_timers: timers is NULL");
    *t = p->t;
    return P3O_SUCCESS;
}

int p3o_timers_reset(p3o_plan_t plan)
{
    struct p3o_plan *p = p3o_plan_check(plan);
    if (!p)
        return p3o_fail(P3O_ERR_PLAN, "p3o_timers_reset: not a valid plan");
    memset(&p->t, 0, sizeof(p->t));
    return P3O_SUCCESS;
}
