/* measure.c - time one mode of p3dfft_overlap on one grid. */
#include "measure.h"

#include <fftw3.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The 3-D sine of test_sine, variable v scaled by v+1. */
static double sine(const p3o_local_t *l, int v, int x, int y, int z)
{
    const double tau = 2.0 * M_PI;
    return (v + 1) * sin(tau * x / l->nx) * sin(tau * y / l->ny) * sin(tau * z / l->nz);
}

static size_t rsize(const p3o_local_t *l) { return l->precision == P3O_DOUBLE ? 8 : 4; }

/* Walk the X-pencil of every variable: f(index, value at global point). */
static double sine_pass(const p3o_local_t *l, void *real, int fill)
{
    double err = 0;
    size_t i = 0;
    for (int v = 0; v < l->nv; v++)
        for (int z = 0; z < l->xsize[2]; z++)
            for (int y = 0; y < l->xsize[1]; y++)
                for (int x = 0; x < l->nx; x++, i++) {
                    double want = sine(l, v, x, l->xstart[1] + y, l->xstart[2] + z);
                    if (l->precision == P3O_DOUBLE) {
                        double *d = real;
                        if (fill)
                            d[i] = want;
                        else
                            err = fmax(err, fabs(d[i] - want) / (v + 1));
                    } else {
                        float *f = real;
                        if (fill)
                            f[i] = (float)want;
                        else
                            err = fmax(err, fabs(f[i] - want) / (v + 1));
                    }
                }
    return err;
}

/* A random field in [-1, 1) (splitmix64 of the global index): white noise,
 * the hardest data for a codec that exploits smoothness (zfp). */
static void random_fill(const p3o_local_t *l, void *real)
{
    size_t i = 0;
    for (int v = 0; v < l->nv; v++)
        for (int z = 0; z < l->xsize[2]; z++)
            for (int y = 0; y < l->xsize[1]; y++)
                for (int x = 0; x < l->nx; x++, i++) {
                    uint64_t g = ((((uint64_t)v * l->nz + l->xstart[2] + z) * l->ny +
                                   l->xstart[1] + y) * l->nx + x) + 0x9e3779b97f4a7c15ull;
                    g = (g ^ (g >> 30)) * 0xbf58476d1ce4e5b9ull;
                    g = (g ^ (g >> 27)) * 0x94d049bb133111ebull;
                    g ^= g >> 31;
                    double u = (double)(g >> 11) * 0x1.0p-52 - 1.0;
                    if (l->precision == P3O_DOUBLE)
                        ((double *)real)[i] = u;
                    else
                        ((float *)real)[i] = (float)u;
                }
}

/* Relative 2-norm error of a against b, per variable over all ranks, the
 * largest over the variables. */
static double rel2(MPI_Comm comm, const p3o_local_t *l, const void *a, const void *b)
{
    double *s = calloc(4 * (size_t)l->nv, sizeof(double)), *all = s + 2 * l->nv;
    for (int v = 0; v < l->nv; v++)
        for (size_t i = 0; i < l->real_count; i++) {
            size_t at = (size_t)v * l->real_count + i;
            double x = l->precision == P3O_DOUBLE ? ((const double *)a)[at] : ((const float *)a)[at];
            double y = l->precision == P3O_DOUBLE ? ((const double *)b)[at] : ((const float *)b)[at];
            s[2 * v] += (x - y) * (x - y);
            s[2 * v + 1] += y * y;
        }
    MPI_Allreduce(s, all, 2 * l->nv, MPI_DOUBLE, MPI_SUM, comm);
    double worst = 0;
    for (int v = 0; v < l->nv; v++)
        worst = fmax(worst, all[2 * v + 1] > 0 ? sqrt(all[2 * v] / all[2 * v + 1]) : 0);
    free(s);
    return worst;
}

void reference_free(reference_t *ref)
{
    if (!ref)
        return;
    free(ref->sine);
    free(ref->random);
    *ref = (reference_t){0};
}

static void scale(const p3o_local_t *l, void *cplx, double s)
{
    size_t n = 2 * l->complex_count * (size_t)l->nv;
    if (l->precision == P3O_DOUBLE)
        for (size_t i = 0; i < n; i++)
            ((double *)cplx)[i] *= s;
    else
        for (size_t i = 0; i < n; i++)
            ((float *)cplx)[i] *= (float)s;
}

/* The roundtrip's spectral op: normalise one variable. */
static void scale_one(void *spectrum, int v, void *arg)
{
    const p3o_local_t *l = arg;
    (void)v;
    p3o_local_t one = *l;
    one.nv = 1;
    scale(&one, spectrum, 1.0 / ((double)l->nx * l->ny * l->nz));
}

/* forward, normalise, backward: one iteration of test_sine (Fig. 3). */
static int iterate(p3o_plan_t plan, const variant_t *v, const p3o_local_t *l, void *in,
                   void *spec, void *back)
{
    if (v->roundtrip)
        return p3o_roundtrip(plan, in, spec, back, scale_one, (void *)l);
    int rc = p3o_forward(plan, in, spec);
    scale(l, spec, 1.0 / ((double)l->nx * l->ny * l->nz));
    return rc != P3O_SUCCESS ? rc : p3o_backward(plan, spec, back);
}

static int agree_rc(MPI_Comm comm, int rc)
{
    int all;
    MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MIN, comm);
    return all;
}

static void describe_nbo(p3o_plan_t plan, measurement_t *m)
{
    snprintf(m->engine, sizeof(m->engine), "-");
    snprintf(m->progress, sizeof(m->progress), "-");
    nbo_comm_t c = NBO_COMM_NULL;
    nbo_comm_info_t info;
    if (p3o_nbo_comm(plan, &c) == P3O_SUCCESS && c != NBO_COMM_NULL &&
        nbo_comm_query(c, &info) == NBO_SUCCESS) {
        snprintf(m->engine, sizeof(m->engine), "%s", info.engine);
        snprintf(m->progress, sizeof(m->progress), "%s", nbo_progress_name(info.progress));
    }
}

static void timers_per_iter(MPI_Comm comm, const p3o_timers_t *t, int iters, p3o_timers_t *out)
{
    double mine[8] = {t->fft_x, t->fft_y, t->fft_z, t->row, t->col_local, t->col_comm,
                      t->wait, t->total}, all[8];
    MPI_Allreduce(mine, all, 8, MPI_DOUBLE, MPI_MAX, comm);
    *out = (p3o_timers_t){all[0] / iters, all[1] / iters, all[2] / iters, all[3] / iters,
                          all[4] / iters, all[5] / iters, all[6] / iters, all[7] / iters,
                          t->calls};
}

void measure(MPI_Comm comm, const setup_t *s, const variant_t *v, reference_t *ref,
             measurement_t *m)
{
    memset(m, 0, sizeof(*m));
    m->err_sine = m->err_random = -1;
    p3o_options_t opt;
    p3o_options_init(&opt);
    opt.row = s->row;
    opt.col = s->col;
    opt.planner = s->planner;
    opt.codec = v->codec;
    opt.codec_rate = v->rate;
    opt.compress_row = v->compress_row;
    nbo_config_t cfg;
    if (v->set_engine) {
        nbo_config_init(&cfg);
        nbo_config_from_env(&cfg);
        snprintf(cfg.engine, sizeof(cfg.engine), "%s", v->engine);
        cfg.codec = v->codec; /* the plan's, whatever NBO_CODEC says */
        if (v->codec == NBO_CODEC_ZFP)
            cfg.codec_rate = v->rate ? v->rate : 16;
        opt.nbo_config = &cfg;
    }
    p3o_plan_t plan;
    int rc = p3o_plan_create(comm, s->nx, s->ny, s->nz, s->nv, s->prec, v->mode, &opt, &plan);
    if (rc != P3O_SUCCESS) {
        snprintf(m->error, sizeof(m->error), "%s: %s", p3o_strerror(rc), p3o_last_error());
        return;
    }
    p3o_local_t l;
    p3o_local_sizes(plan, &l);
    m->row = l.row;
    m->col = l.col;
    describe_nbo(plan, m);
    p3o_compression(plan, &m->comp);
    void *in = fftw_malloc(l.real_count * (size_t)l.nv * rsize(&l) + 16);
    void *back = fftw_malloc(l.real_count * (size_t)l.nv * rsize(&l) + 16);
    void *spec = fftw_malloc(l.complex_count * (size_t)l.nv * 2 * rsize(&l) + 16);
    rc = in && back && spec ? P3O_SUCCESS : P3O_ERR_NOMEM;
    rc = agree_rc(comm, rc);
    if (rc == P3O_SUCCESS)
        sine_pass(&l, in, 1);

    for (int i = 0; i < s->warmup && rc == P3O_SUCCESS; i++)
        rc = agree_rc(comm, iterate(plan, v, &l, in, spec, back));
    m->time = HUGE_VAL;
    for (int r = 0; r < s->reps && rc == P3O_SUCCESS; r++) {
        p3o_timers_reset(plan);
        MPI_Barrier(comm);
        double t0 = MPI_Wtime();
        for (int i = 0; i < s->iters && rc == P3O_SUCCESS; i++)
            rc = iterate(plan, v, &l, in, spec, back);
        double dt = (MPI_Wtime() - t0) / s->iters, slowest;
        rc = agree_rc(comm, rc);
        MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
        p3o_timers_t t, per;
        p3o_timers(plan, &t);
        timers_per_iter(comm, &t, s->iters, &per);
        if (slowest < m->time) {
            m->time = slowest;
            m->t = per;
        }
    }
    if (rc == P3O_SUCCESS) {
        double e = sine_pass(&l, back, 0);
        MPI_Allreduce(&e, &m->err, 1, MPI_DOUBLE, MPI_MAX, comm);
        m->ok = 1;
    }
    /* Against the exact outputs of this grid: the sine's, then one more
     * iteration on a random field. */
    const size_t rbytes = l.real_count * (size_t)l.nv * rsize(&l);
    if (rc == P3O_SUCCESS && ref) {
        const int exact = m->comp.exchanges == 0, keep = exact && !ref->have;
        void *rnd = keep || ref->have ? fftw_malloc(rbytes + 16) : NULL;
        if (rnd) {
            random_fill(&l, in);
            rc = agree_rc(comm, iterate(plan, v, &l, in, spec, rnd));
        }
        if (rc == P3O_SUCCESS && keep) {
            ref->sine = malloc(rbytes);
            ref->random = malloc(rbytes);
            memcpy(ref->sine, back, rbytes);
            memcpy(ref->random, rnd, rbytes);
            ref->have = 1;
        }
        if (rc == P3O_SUCCESS && ref->have) {
            m->err_sine = rel2(comm, &l, back, ref->sine);
            m->err_random = rel2(comm, &l, rnd, ref->random);
        }
        fftw_free(rnd);
        m->ok = rc == P3O_SUCCESS;
    }
    if (rc != P3O_SUCCESS) {
        snprintf(m->error, sizeof(m->error), "%s: %s", p3o_strerror(rc), p3o_last_error());
    }
    fftw_free(in);
    fftw_free(back);
    fftw_free(spec);
    p3o_plan_destroy(&plan);
}
