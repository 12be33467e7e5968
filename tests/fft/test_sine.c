/*
 * test_sine.c - P3DFFT's test_sine, for every mode and precision, plus
 * checks against exact and serial results.
 *
 * For each precision and mode, with nv variables:
 *   1. sine:   u_v = (v+1) sin(x) sin(y) sin(z); forward; every coefficient
 *              against the exact one; normalise by nx*ny*nz; backward;
 *              max |u - u_v| / (v+1) reduced over ranks and printed.
 *   2. random: a random field; forward; each variable gathered on rank 0
 *              and compared with a serial FFTW 3-D r2c (the gathered
 *              Z-pencils must tile the half spectrum exactly once); the
 *              spectrum also against the first mode's (modes must agree to
 *              rounding); then the normalised round trip.
 *   3. roundtrip: p3o_roundtrip of the sine with an op that checks each
 *              variable's spectrum against the exact one when it is
 *              handed over (so it must be complete), that variables come
 *              in order, and normalises; then the output against the
 *              input, once into a separate buffer and once in place
 *              (in == out).
 *   Also: forward and backward leave their input untouched, and the timers
 *   count the calls (a roundtrip as two).
 * Bounds: 1e-12 in double, 1e-5 in single (fft_reference.h).  Sizes >= 3 (the
 * exact sine spectrum needs k = 1 and k = n-1 to differ).
 *
 * --codecs none,fp32,zfp:16,...: the same checks with compressed exchanges
 * (options.codec; modes pipelined_nbo by default), as relative 2-norm
 * errors of each variable against the bounds the plan reports
 * (p3o_compression, derived in docs/p3dfft_overlap.md), plus FFT_TOL:
 *   1. sine:   forward against the exact spectrum and against an exact
 *              plan's (forward bound); normalised round trip against the
 *              input (round-trip bound); the exact plan's spectrum
 *              backward, against that plan's backward (backward bound)
 *   2. random: forward against the exact plan's, round trip
 *   3. roundtrip: p3o_roundtrip's spectra (checked in its op) against the
 *              exact ones, its output against the input, also in place
 * Where the plan compresses an exchange, its error against the exact
 * plan's must also be above 0 (the codec ran); where it compresses none
 * (codec none, fp32 on single precision, one rank), its results must be
 * bit-identical to the exact plan's.  The exact plan is BLOCKING with the
 * same planner: FFTW_ESTIMATE makes the same transforms in both.  A codec
 * this libnbo lacks is skipped (exit 77 when none ran).
 *
 * usage: test_sine [--size NXxNYxNZ] [--nv N] [--grid RxC]
 *                  [--modes m1,m2,..] [--precisions double,single]
 *                  [--planner estimate|measure] [--wisdom FILE]
 *                  [--codecs none,fp32,zfp[:RATE],...] [--compress-row]
 * (FFTW_ESTIMATE by default: the tests check results, not speed.)
 */
#include <fftw3.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fft_reference.h"

typedef struct opts {
    int nx, ny, nz, nv, row, col;
    p3o_planner_t planner;
    char modes[128], precs[64], wisdom[512];
    char codecs[128];   /* "": the plain checks */
    int compress_row;
} opts_t;

static int parse(int argc, char **argv, opts_t *o)
{
    *o = (opts_t){.nx = 16, .ny = 12, .nz = 10, .nv = 3, .planner = P3O_PLANNER_ESTIMATE};
    snprintf(o->modes, sizeof(o->modes), "blocking,pipelined_mpi,pipelined_nbo");
    snprintf(o->precs, sizeof(o->precs), "double,single");
    int modes_set = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--compress-row")) {
            o->compress_row = 1;
            continue;
        }
        if (!v)
            return -1;
        if (!strcmp(a, "--size") && sscanf(v, "%dx%dx%d", &o->nx, &o->ny, &o->nz) == 3)
            i++;
        else if (!strcmp(a, "--nv") && sscanf(v, "%d", &o->nv) == 1)
            i++;
        else if (!strcmp(a, "--grid") && sscanf(v, "%dx%d", &o->row, &o->col) == 2)
            i++;
        else if (!strcmp(a, "--modes"))
            snprintf(o->modes, sizeof(o->modes), "%s", argv[++i]), modes_set = 1;
        else if (!strcmp(a, "--codecs"))
            snprintf(o->codecs, sizeof(o->codecs), "%s", argv[++i]);
        else if (!strcmp(a, "--precisions"))
            snprintf(o->precs, sizeof(o->precs), "%s", argv[++i]);
        else if (!strcmp(a, "--wisdom"))
            snprintf(o->wisdom, sizeof(o->wisdom), "%s", argv[++i]);
        else if (!strcmp(a, "--planner") && !strcmp(v, "measure"))
            o->planner = P3O_PLANNER_MEASURE, i++;
        else if (!strcmp(a, "--planner") && !strcmp(v, "estimate"))
            o->planner = P3O_PLANNER_ESTIMATE, i++;
        else
            return -1;
    }
    if (o->codecs[0] && !modes_set)
        snprintf(o->modes, sizeof(o->modes), "pipelined_nbo");
    return o->nx >= 3 && o->ny >= 3 && o->nz >= 3 && o->nv >= 1 ? 0 : -1;
}

static double max_over(double x, MPI_Comm comm)
{
    double all;
    MPI_Allreduce(&x, &all, 1, MPI_DOUBLE, MPI_MAX, comm);
    return all;
}

static size_t real_size(const p3o_local_t *l) { return l->precision == P3O_DOUBLE ? 8 : 4; }

static size_t real_bytes(const p3o_local_t *l)
{
    return l->real_count * (size_t)l->nv * real_size(l);
}

static size_t complex_bytes(const p3o_local_t *l)
{
    return l->complex_count * (size_t)l->nv * 2 * real_size(l);
}

typedef struct result {
    double sine_spec, sine_trip, rand_serial, rand_modes, rand_trip;
    double trip_spec, trip_out, trip_inplace; /* 3. roundtrip */
    int trip_order_ok;
    int untouched, timers_ok;
    int row, col;
} result_t;

/* The op of p3o_roundtrip in test 3: check, then normalise. */
typedef struct trip_check {
    const p3o_local_t *l;
    int next_v, order_ok;
    double spec_err;
} trip_check_t;

static void trip_op(void *spectrum, int v, void *arg)
{
    trip_check_t *c = arg;
    c->order_ok &= v == c->next_v++;
    double e = fft_sine_spectrum_error_of(c->l, spectrum, v);
    c->spec_err = fmax(c->spec_err, e);
    fft_complex_scale_one(c->l, spectrum, 1.0 / ((double)c->l->nx * c->l->ny * c->l->nz));
}

/* 3.  Returns the first failing call's code. */
static int roundtrip_case(MPI_Comm comm, p3o_plan_t plan, const p3o_local_t *l, void *in,
                          void *spec, void *back, result_t *r)
{
    trip_check_t c = {.l = l, .order_ok = 1};
    fft_fill(l, in, fft_sine);
    memset(back, 0, l->real_count * (size_t)l->nv * real_size(l));
    int rc = p3o_roundtrip(plan, in, spec, back, trip_op, &c);
    r->trip_out = max_over(fft_roundtrip_error(l, back, fft_sine), comm);
    int ok1 = c.order_ok && c.next_v == l->nv;
    c = (trip_check_t){.l = l, .order_ok = 1};
    if (rc == P3O_SUCCESS)
        rc = p3o_roundtrip(plan, in, spec, in, trip_op, &c); /* in place */
    r->trip_inplace = max_over(fft_roundtrip_error(l, in, fft_sine), comm);
    int ok = ok1 && c.order_ok && c.next_v == l->nv, all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
    r->trip_order_ok = all;
    r->trip_spec = max_over(c.spec_err, comm);
    return rc;
}

/* Max |a - b| over the local spectra, relative to max |a|. */
static double spectrum_diff(const p3o_local_t *l, const void *a, const void *b)
{
    double d = 0, peak = 0;
    for (int v = 0; v < l->nv; v++)
        for (size_t i = 0; i < l->complex_count; i++) {
            double complex x = fft_complex_at(l, a, v, i), y = fft_complex_at(l, b, v, i);
            d = fmax(d, cabs(x - y));
            peak = fmax(peak, cabs(x));
        }
    return d / (peak > 0 ? peak : 1);
}

/* One mode and precision.  *first: the first mode's random spectrum (kept). */
static int run_case(MPI_Comm comm, const opts_t *o, p3o_precision_t prec, p3o_mode_t mode,
                    void **first, result_t *r)
{
    p3o_options_t opt;
    p3o_options_init(&opt);
    opt.planner = o->planner;
    char wisdom[600]; /* fftw3 and fftw3f wisdom differ: one file per precision */
    snprintf(wisdom, sizeof(wisdom), "%s.%s", o->wisdom, p3o_precision_name(prec));
    opt.wisdom_file = o->wisdom[0] ? wisdom : NULL;
    opt.row = o->row;
    opt.col = o->col;
    p3o_plan_t plan;
    int rc = p3o_plan_create(comm, o->nx, o->ny, o->nz, o->nv, prec, mode, &opt, &plan);
    if (rc != P3O_SUCCESS) {
        fprintf(stderr, "p3o_plan_create(%s, %s): %s: %s\n", p3o_precision_name(prec),
                p3o_mode_name(mode), p3o_strerror(rc), p3o_last_error());
        return rc;
    }
    p3o_local_t l;
    p3o_local_sizes(plan, &l);
    r->row = l.row;
    r->col = l.col;
    const double N = (double)o->nx * o->ny * o->nz;
    void *in = fft_alloc_real(&l), *back = fft_alloc_real(&l), *spec = fft_alloc_complex(&l);
    void *copy = malloc(complex_bytes(&l) > real_bytes(&l) ? complex_bytes(&l) : real_bytes(&l));
    int untouched = 1;

    /* 1. sine */
    fft_fill(&l, in, fft_sine);
    memcpy(copy, in, real_bytes(&l));
    rc = p3o_forward(plan, in, spec);
    untouched &= memcmp(copy, in, real_bytes(&l)) == 0;
    r->sine_spec = max_over(fft_sine_spectrum_error(&l, spec), comm);
    fft_complex_scale(&l, spec, 1.0 / N);
    memcpy(copy, spec, complex_bytes(&l));
    if (rc == P3O_SUCCESS)
        rc = p3o_backward(plan, spec, back);
    untouched &= memcmp(copy, spec, complex_bytes(&l)) == 0;
    r->sine_trip = max_over(fft_roundtrip_error(&l, back, fft_sine), comm);

    /* 2. random */
    fft_fill(&l, in, fft_random);
    if (rc == P3O_SUCCESS)
        rc = p3o_forward(plan, in, spec);
    r->rand_serial = 0;
    for (int v = 0; v < o->nv; v++) {
        double e = fft_serial_error(comm, &l, spec, v, fft_random);
        r->rand_serial = e < 0 || r->rand_serial < 0 ? -1 : fmax(r->rand_serial, e);
    }
    MPI_Bcast(&r->rand_serial, 1, MPI_DOUBLE, 0, comm);
    if (!*first) {
        *first = malloc(complex_bytes(&l));
        memcpy(*first, spec, complex_bytes(&l));
    }
    r->rand_modes = max_over(spectrum_diff(&l, *first, spec), comm);
    fft_complex_scale(&l, spec, 1.0 / N);
    if (rc == P3O_SUCCESS)
        rc = p3o_backward(plan, spec, back);
    r->rand_trip = max_over(fft_roundtrip_error(&l, back, fft_random), comm);

    /* 3. roundtrip */
    int trip_rc = roundtrip_case(comm, plan, &l, in, spec, back, r);
    if (rc == P3O_SUCCESS)
        rc = trip_rc;

    p3o_timers_t t;
    p3o_timers(plan, &t);
    double stages = t.fft_x + t.fft_y + t.fft_z + t.row + t.col_local + t.col_comm;
    r->timers_ok = t.calls == 8 && t.total > 0 && stages <= t.total * 1.001 + 1e-6 &&
                   t.wait <= t.col_comm + 1e-9 && (mode != P3O_BLOCKING || t.wait == 0);
    int all_untouched;
    MPI_Allreduce(&untouched, &all_untouched, 1, MPI_INT, MPI_MIN, comm);
    r->untouched = all_untouched;

    fftw_free(in);
    fftw_free(back);
    fftw_free(spec);
    free(copy);
    int destroy = p3o_plan_destroy(&plan);
    if (rc == P3O_SUCCESS)
        rc = destroy;
    if (rc != P3O_SUCCESS)
        fprintf(stderr, "%s %s: %s: %s\n", p3o_precision_name(prec), p3o_mode_name(mode),
                p3o_strerror(rc), p3o_last_error());
    return rc;
}

/* ------------------------------------------------------ compressed exchanges */

typedef struct codec_spec {
    nbo_codec_t codec;
    int rate;       /* zfp; 0 otherwise */
    char name[24];  /* as given: "fp32", "zfp:16" */
} codec_spec_t;

/* "none", "fp32", "zfp" or "zfp:RATE". */
static int parse_codec(const char *s, codec_spec_t *c)
{
    *c = (codec_spec_t){0};
    snprintf(c->name, sizeof(c->name), "%s", s);
    if (!strcmp(s, "none"))
        c->codec = NBO_CODEC_NONE;
    else if (!strcmp(s, "fp32"))
        c->codec = NBO_CODEC_FP32;
    else if (!strcmp(s, "zfp"))
        c->codec = NBO_CODEC_ZFP, c->rate = 16;
    else if (sscanf(s, "zfp:%d", &c->rate) == 1 && c->rate >= 1 && c->rate <= 64)
        c->codec = NBO_CODEC_ZFP;
    else
        return -1;
    return 0;
}

typedef struct codec_result {
    p3o_compression_t c;
    double sine_exact, sine_ref, sine_trip, sine_bwd; /* 1. */
    double rand_ref, rand_trip;                       /* 2. */
    double trip_spec, trip_out, trip_inplace;         /* 3. */
    int trip_order_ok, identical, inplace_same, describe_ok;
    char describe[512];
} codec_result_t;

/* The op of p3o_roundtrip: per-variable sums against the exact spectrum,
 * reduced after the call (the op must not communicate), then normalise. */
typedef struct codec_trip {
    const p3o_local_t *l;
    int next_v, order_ok;
    double *d2, *r2;
} codec_trip_t;

static void codec_trip_op(void *spectrum, int v, void *arg)
{
    codec_trip_t *c = arg;
    c->order_ok &= v == c->next_v++;
    fft_sine_spectrum_sums_of(c->l, spectrum, v, &c->d2[v], &c->r2[v]);
    fft_complex_scale_one(c->l, spectrum, 1.0 / ((double)c->l->nx * c->l->ny * c->l->nz));
}

static int same_bytes(MPI_Comm comm, const void *a, const void *b, size_t n)
{
    int mine = memcmp(a, b, n) == 0, all;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm);
    return all;
}

/* One precision, mode and codec: the plan under test against an exact
 * BLOCKING plan of the same grid.  Returns the first failing call's code. */
static int codec_case(MPI_Comm comm, const opts_t *o, p3o_precision_t prec, p3o_mode_t mode,
                      const codec_spec_t *cs, codec_result_t *r)
{
    p3o_options_t opt;
    p3o_options_init(&opt);
    opt.planner = o->planner;
    opt.row = o->row;
    opt.col = o->col;
    p3o_plan_t ref, plan;
    int rc = p3o_plan_create(comm, o->nx, o->ny, o->nz, o->nv, prec, P3O_BLOCKING, &opt, &ref);
    if (rc != P3O_SUCCESS) {
        fprintf(stderr, "p3o_plan_create(exact reference): %s: %s\n", p3o_strerror(rc),
                p3o_last_error());
        return rc;
    }
    opt.codec = cs->codec;
    opt.codec_rate = cs->rate;
    opt.compress_row = o->compress_row;
    rc = p3o_plan_create(comm, o->nx, o->ny, o->nz, o->nv, prec, mode, &opt, &plan);
    if (rc != P3O_SUCCESS) {
        fprintf(stderr, "p3o_plan_create(%s, %s, codec %s): %s: %s\n", p3o_precision_name(prec),
                p3o_mode_name(mode), cs->name, p3o_strerror(rc), p3o_last_error());
        p3o_plan_destroy(&ref);
        return rc;
    }
    p3o_compression(plan, &r->c);
    p3o_plan_describe(plan, r->describe, sizeof(r->describe));
    r->describe_ok = strstr(r->describe, p3o_mode_name(mode)) != NULL &&
                     (cs->codec == NBO_CODEC_NONE || r->c.exchanges == 0 ||
                      strstr(r->describe, cs->codec == NBO_CODEC_ZFP ? "zfp rate" : "fp32"));

    p3o_local_t l;
    p3o_local_sizes(plan, &l);
    const double N = (double)o->nx * o->ny * o->nz;
    const size_t rb = real_bytes(&l), cb = complex_bytes(&l);
    void *in = fft_alloc_real(&l), *back = fft_alloc_real(&l), *rback = fft_alloc_real(&l);
    void *spec = fft_alloc_complex(&l), *rspec = fft_alloc_complex(&l);
    int identical = 1;

    /* 1. sine */
    fft_fill(&l, in, fft_sine);
    if (rc == P3O_SUCCESS)
        rc = p3o_forward(plan, in, spec);
    if (rc == P3O_SUCCESS)
        rc = p3o_forward(ref, in, rspec);
    r->sine_exact = fft_rel2_sine_spectrum(comm, &l, spec);
    r->sine_ref = fft_rel2_complex(comm, &l, spec, rspec);
    identical &= same_bytes(comm, spec, rspec, cb);
    fft_complex_scale(&l, spec, 1.0 / N);
    fft_complex_scale(&l, rspec, 1.0 / N);
    if (rc == P3O_SUCCESS)
        rc = p3o_backward(plan, spec, back);
    r->sine_trip = fft_rel2_real(comm, &l, back, in);
    if (rc == P3O_SUCCESS) /* the backward leg alone, on an exact spectrum */
        rc = p3o_backward(plan, rspec, back);
    if (rc == P3O_SUCCESS)
        rc = p3o_backward(ref, rspec, rback);
    r->sine_bwd = fft_rel2_real(comm, &l, back, rback);
    identical &= same_bytes(comm, back, rback, rb);

    /* 2. random */
    fft_fill(&l, in, fft_random);
    if (rc == P3O_SUCCESS)
        rc = p3o_forward(plan, in, spec);
    if (rc == P3O_SUCCESS)
        rc = p3o_forward(ref, in, rspec);
    r->rand_ref = fft_rel2_complex(comm, &l, spec, rspec);
    identical &= same_bytes(comm, spec, rspec, cb);
    fft_complex_scale(&l, spec, 1.0 / N);
    if (rc == P3O_SUCCESS)
        rc = p3o_backward(plan, spec, back);
    r->rand_trip = fft_rel2_real(comm, &l, back, in);

    /* 3. roundtrip of the sine, into back, then in place */
    double *d2 = calloc(2 * (size_t)o->nv, sizeof(double)), *r2 = d2 + o->nv;
    codec_trip_t c = {.l = &l, .order_ok = 1, .d2 = d2, .r2 = r2};
    fft_fill(&l, in, fft_sine);
    if (rc == P3O_SUCCESS)
        rc = p3o_roundtrip(plan, in, spec, back, codec_trip_op, &c);
    int order_ok = c.order_ok && c.next_v == o->nv;
    r->trip_spec = fft_rel2_sums(comm, o->nv, d2, r2);
    r->trip_out = fft_rel2_real(comm, &l, back, in);
    memcpy(rback, in, rb);
    c = (codec_trip_t){.l = &l, .order_ok = 1, .d2 = d2, .r2 = r2};
    if (rc == P3O_SUCCESS)
        rc = p3o_roundtrip(plan, in, spec, in, codec_trip_op, &c);
    order_ok &= c.order_ok && c.next_v == o->nv;
    r->trip_spec = fmax(r->trip_spec, fft_rel2_sums(comm, o->nv, d2, r2));
    r->trip_inplace = fft_rel2_real(comm, &l, in, rback);
    r->inplace_same = same_bytes(comm, in, back, rb); /* the codecs are deterministic */
    MPI_Allreduce(&order_ok, &r->trip_order_ok, 1, MPI_INT, MPI_MIN, comm);
    r->identical = identical;

    free(d2);
    fftw_free(in);
    fftw_free(back);
    fftw_free(rback);
    fftw_free(spec);
    fftw_free(rspec);
    int d1 = p3o_plan_destroy(&plan), d0 = p3o_plan_destroy(&ref);
    if (rc == P3O_SUCCESS)
        rc = d1 != P3O_SUCCESS ? d1 : d0;
    if (rc != P3O_SUCCESS)
        fprintf(stderr, "%s %s codec %s: %s: %s\n", p3o_precision_name(prec), p3o_mode_name(mode),
                cs->name, p3o_strerror(rc), p3o_last_error());
    return rc;
}

/* zfp: libnbo states no a priori bound (p3o_compression's are INFINITY),
 * only a measured envelope per value, 2^(8 - rate) of the block's max from
 * rate 6 up (docs/compression.md).  Carried through the plan's derivation
 * with zfp's own blocks of 4 values (each coded relative to its largest
 * exponent): beta = 2^(8 - rate) sqrt(4) per exchange.  An envelope, not a
 * proof: what the tests hold zfp to. */
static void zfp_envelope(const codec_spec_t *cs, p3o_compression_t *c)
{
    if (cs->codec != NBO_CODEC_ZFP || c->exchanges == 0 || !isinf(c->forward_bound) ||
        cs->rate < 6)
        return;
    const double beta = ldexp(1.0, 8 - cs->rate) * 2, k = c->exchanges;
    c->forward_bound = pow(1 + beta, k) - 1;
    c->backward_bound = sqrt(2.0) * c->forward_bound;
    c->roundtrip_bound = sqrt(2.0) * (pow(1 + beta, 2 * k) - 1);
}

/* The verdict on one codec case: every error within its bound (plus the
 * FFT's own tolerance); above 0 where an exchange is compressed, the
 * results bit-identical where none is. */
static int codec_ok(const codec_result_t *r, double tol)
{
    const p3o_compression_t *c = &r->c;
    const double fwd = c->forward_bound + tol, bwd = c->backward_bound + tol,
                 rt = c->roundtrip_bound + tol;
    int ok = r->sine_exact <= fwd && r->sine_ref <= fwd && r->sine_trip <= rt &&
             r->sine_bwd <= bwd && r->rand_ref <= fwd && r->rand_trip <= rt &&
             r->trip_spec <= fwd && r->trip_out <= rt && r->trip_inplace <= rt &&
             r->trip_order_ok && r->inplace_same && r->describe_ok;
    if (c->exchanges > 0)
        ok &= r->sine_ref > 0 && r->sine_bwd > 0 && r->rand_ref > 0 && !r->identical;
    else
        ok &= r->identical && c->forward_bound == 0 && c->wire_bytes == c->raw_bytes;
    return ok;
}

/* Every precision x mode x codec; returns the number of failures, *ran the
 * number of cases run (a codec this libnbo lacks is skipped). */
static int codec_cases(MPI_Comm comm, const opts_t *o, int P, int rank, int *ran)
{
    int failures = 0;
    char codecs[128];
    snprintf(codecs, sizeof(codecs), "%s", o->codecs);
    for (char *cs_ = NULL, *cn = strtok_r(codecs, ",", &cs_); cn; cn = strtok_r(NULL, ",", &cs_)) {
        codec_spec_t cs;
        if (parse_codec(cn, &cs) != 0) {
            if (rank == 0)
                printf("codec %s: not none, fp32, zfp or zfp:RATE (1..64) FAIL\n", cn);
            failures++;
            continue;
        }
        char why[160] = "";
        if (nbo_codec_available(cs.codec, why, sizeof(why)) != NBO_SUCCESS) {
            if (rank == 0)
                printf("codec %s: SKIP (%s)\n", cn, why);
            continue;
        }
        char precs[64];
        snprintf(precs, sizeof(precs), "%s", o->precs);
        for (char *ps = NULL, *pn = strtok_r(precs, ",", &ps); pn; pn = strtok_r(NULL, ",", &ps)) {
            p3o_precision_t prec;
            if (p3o_precision_from_name(pn, &prec) != P3O_SUCCESS) {
                failures++;
                continue;
            }
            char modes[128];
            snprintf(modes, sizeof(modes), "%s", o->modes);
            for (char *ms = NULL, *mn = strtok_r(modes, ",", &ms); mn; mn = strtok_r(NULL, ",", &ms)) {
                p3o_mode_t mode;
                if (p3o_mode_from_name(mn, &mode) != P3O_SUCCESS) {
                    failures++;
                    continue;
                }
                codec_result_t r = {0};
                int rc = codec_case(comm, o, prec, mode, &cs, &r);
                const int envelope = isinf(r.c.forward_bound);
                zfp_envelope(&cs, &r.c);
                int ok = rc == P3O_SUCCESS && !isinf(r.c.roundtrip_bound) &&
                         codec_ok(&r, fft_tolerance(prec));
                (*ran)++;
                failures += !ok;
                if (rank == 0) {
                    printf("plan: %s\n", r.describe);
                    printf("P=%d %dx%dx%d nv=%d %-6s %-13s codec %-7s k=%d %s fwd %.2e bwd %.2e "
                           "rt %.2e | sine: exact %.2e vs exact plan %.2e round trip %.2e "
                           "backward %.2e | random: vs exact plan %.2e round trip %.2e | "
                           "roundtrip: spectrum %.2e out %.2e in place %.2e order %s | %s %s\n",
                           P, o->nx, o->ny, o->nz, o->nv, pn, mn, cs.name, r.c.exchanges,
                           envelope ? "envelope" : "bounds", r.c.forward_bound, r.c.backward_bound, r.c.roundtrip_bound,
                           r.sine_exact, r.sine_ref, r.sine_trip, r.sine_bwd, r.rand_ref,
                           r.rand_trip, r.trip_spec, r.trip_out, r.trip_inplace,
                           r.trip_order_ok ? "ok" : "BAD",
                           r.c.exchanges ? "compressed" : (r.identical ? "bit-identical" : "NOT bit-identical"),
                           ok ? "PASS" : "FAIL");
                }
            }
        }
    }
    return failures;
}

/* With NBO_ENGINE set, a test of an engine this build or machine lacks is
 * skipped (77), not failed. */
static int engine_missing(void)
{
    const char *e = getenv("NBO_ENGINE");
    if (!e || !*e)
        return 0;
    nbo_comm_t c;
    int rc = nbo_comm_create(MPI_COMM_WORLD, NULL, &c);
    if (rc == NBO_SUCCESS)
        nbo_comm_free(&c);
    return rc == NBO_ERR_ENGINE;
}

int main(int argc, char **argv)
{
    int provided, rank, P;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    opts_t o;
    if (parse(argc, argv, &o) != 0) {
        if (rank == 0)
            fprintf(stderr, "usage: test_sine [--size NXxNYxNZ (each >= 3)] [--nv N] [--grid RxC]"
                            " [--modes m1,m2] [--precisions double,single]"
                            " [--planner estimate|measure] [--wisdom FILE]"
                            " [--codecs none,fp32,zfp[:RATE]] [--compress-row]\n");
        MPI_Finalize();
        return 2;
    }
    if (strstr(o.modes, "pipelined_nbo") && engine_missing()) {
        if (rank == 0)
            printf("SKIP: libnbo engine NBO_ENGINE=%s is not usable here\n", getenv("NBO_ENGINE"));
        MPI_Finalize();
        return 77;
    }
    int checks = 0, failures = 0;
    if (o.codecs[0]) {
        failures = codec_cases(MPI_COMM_WORLD, &o, P, rank, &checks);
        if (rank == 0)
            printf("test_sine P=%d codecs %s%s: %s (%d checks, %d failures over all ranks)\n", P,
                   o.codecs, o.compress_row ? " (row too)" : "",
                   failures ? "FAIL" : checks ? "PASS" : "SKIP", checks, failures);
        MPI_Finalize();
        return failures ? 1 : checks ? 0 : 77;
    }
    char precs[64];
    snprintf(precs, sizeof(precs), "%s", o.precs);
    for (char *ps = NULL, *pn = strtok_r(precs, ",", &ps); pn; pn = strtok_r(NULL, ",", &ps)) {
        p3o_precision_t prec;
        if (p3o_precision_from_name(pn, &prec) != P3O_SUCCESS) {
            failures++;
            continue;
        }
        const double tol = fft_tolerance(prec);
        void *first = NULL;
        char modes[128];
        snprintf(modes, sizeof(modes), "%s", o.modes);
        for (char *ms = NULL, *mn = strtok_r(modes, ",", &ms); mn; mn = strtok_r(NULL, ",", &ms)) {
            p3o_mode_t mode;
            if (p3o_mode_from_name(mn, &mode) != P3O_SUCCESS) {
                failures++;
                continue;
            }
            result_t r = {0};
            int rc = run_case(MPI_COMM_WORLD, &o, prec, mode, &first, &r);
            int ok = rc == P3O_SUCCESS && r.sine_spec <= tol && r.sine_trip <= tol &&
                     r.rand_serial >= 0 && r.rand_serial <= tol && r.rand_modes <= tol &&
                     r.rand_trip <= tol && r.trip_spec <= tol && r.trip_out <= tol &&
                     r.trip_inplace <= tol && r.trip_order_ok && r.untouched && r.timers_ok;
            checks++;
            failures += !ok;
            if (rank == 0)
                printf("P=%d grid %dx%d %dx%dx%d nv=%d %-6s %-13s sine: spectrum %.2e round trip %.2e | "
                       "random: vs serial FFTW %.2e vs first mode %.2e round trip %.2e | "
                       "roundtrip: spectrum %.2e out %.2e in place %.2e order %s | "
                       "input kept %s timers %s (bound %.0e) %s\n",
                       P, r.row, r.col, o.nx, o.ny, o.nz, o.nv, pn, mn, r.sine_spec, r.sine_trip, r.rand_serial,
                       r.rand_modes, r.rand_trip, r.trip_spec, r.trip_out, r.trip_inplace,
                       r.trip_order_ok ? "ok" : "BAD", r.untouched ? "yes" : "NO",
                       r.timers_ok ? "ok" : "BAD", tol, ok ? "PASS" : "FAIL");
        }
        free(first);
    }
    /* Every figure above is reduced over the ranks, so all agree on it; the
     * line has the form the cluster tests watch for (tests/cluster). */
    if (rank == 0)
        printf("test_sine P=%d: %s (%d checks, %d failures over all ranks)\n", P,
               failures ? "FAIL" : "PASS", checks, failures);
    MPI_Finalize();
    return failures ? 1 : 0;
}
