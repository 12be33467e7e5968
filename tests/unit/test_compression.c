/*
 * test_compression.c - the codecs of compressed all-to-alls (codec/codec.h,
 * docs/compression.md): each encoder and decoder directly on random and
 * adversarial blocks (subnormals, infinities, NaN, huge dynamic range,
 * zeros, constants, values at DBL_MAX), against the bound the docs state;
 * message sizes; nbo_codec_available/bound/name and the NBO_CODEC and
 * NBO_CODEC_RATE settings; and compressed task lists: structure
 * (sched_check.h: an ENCODE before each SEND, a DECODE after each RECV's
 * WAIT, the codec's sizes, overlap) and all ranks run together in the
 * simulator with the real codec (sched_sim.h).
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nbo_engines.h" /* NBO_HAVE_ZFP (meson) */
#include "sched_case.h"
#include "sched_check.h"
#include "sched_sim.h"
#include "../../codec/codec.h"

/* ----------------------------------------------------------------- data */

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static double uniform01(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-53;
}

/* The kinds of block every codec is run on. */
enum {
    K_NOISE,      /* uniform in [-1, 1]                          */
    K_SMOOTH,     /* a sine with a little noise (FFT-like data)   */
    K_RANGE,      /* magnitudes spread over 10^-150 .. 10^150     */
    K_ALTERNATE,  /* 1e30 and 1e-30 interleaved, random signs     */
    K_SPARSE,     /* half zeros                                  */
    K_ZEROS,      /* all zeros (and -0)                          */
    K_CONSTANT,   /* one value repeated                          */
    K_SUBNORMAL,  /* double subnormals only                      */
    K_TINY,       /* around 1e-300                                */
    K_HUGE,       /* within 2^-20 of DBL_MAX, both signs          */
    K_SPIKE,      /* zeros and one value at the end               */
    K_COUNT
};
static const char *kind_name[K_COUNT] = {"noise", "smooth", "range", "alternate", "sparse",
                                         "zeros", "constant", "subnormal", "tiny", "huge",
                                         "spike"};

static double value(int kind, size_t i, size_t n)
{
    double u = uniform01(), s = uniform01() < 0.5 ? -1 : 1;
    switch (kind) {
    case K_NOISE:     return 2 * u - 1;
    case K_SMOOTH:    return sin(0.01 * (double)i) + 1e-3 * u;
    case K_RANGE:     return s * u * pow(10.0, (double)(int)(uniform01() * 300) - 150);
    case K_ALTERNATE: return s * u * (i % 2 ? 1e30 : 1e-30);
    case K_SPARSE:    return u < 0.5 ? 0 : s * u;
    case K_ZEROS:     return i % 3 ? 0.0 : -0.0;
    case K_CONSTANT:  return 3.25;
    case K_SUBNORMAL: return s * u * 0x1p-1030;
    case K_TINY:      return s * (1 + u) * 1e-300;
    case K_HUGE:      return s * DBL_MAX * (1 - u * 0x1p-20);
    case K_SPIKE:     return i + 1 == n ? -7.5e10 : 0;
    }
    return 0;
}

/* The kinds that fit a float's range (float blocks). */
static int float_kind(int kind)
{
    return kind != K_RANGE && kind != K_SUBNORMAL && kind != K_TINY && kind != K_HUGE;
}

/* Encode and decode n scalars of x (kind elem, stored as doubles here and
 * converted for F32) with codec/rate; y gets the result as doubles.
 * Returns the encoder's code; *dec the decoder's. */
static int round_trip(int codec, int rate, int elem, const double *x, size_t n, double *y, int *dec)
{
    const size_t w = nbo_celem_bytes(elem), raw = n * w;
    const size_t wire = nbo_codec_wire_bytes(codec, rate, elem, raw);
    if (codec == NBO_CODEC_FP32)
        assert_int_equal(wire, n ? NBO_CODEC_HEADER + 4 * n : 0);
    void *in = malloc(raw + 1), *out = malloc(raw + 1);
    unsigned char *msg = malloc(wire + 16);
    assert_non_null(in);
    assert_non_null(out);
    assert_non_null(msg);
    memset(msg, 0xEE, wire + 16); /* the encoder must stay inside the message */
    for (size_t i = 0; i < n; i++)
        if (elem == NBO_CELEM_F64)
            ((double *)in)[i] = x[i];
        else
            ((float *)in)[i] = (float)x[i];
    int rc = sched_codec_run(0, codec, rate, elem, in, raw, msg);
    for (size_t b = wire; b < wire + 16; b++)
        if (msg[b] != 0xEE)
            fail_msg("encoder wrote byte %zu past its %zu-byte message", b, wire);
    *dec = sched_codec_run(1, codec, rate, elem, msg, raw, out);
    for (size_t i = 0; i < n; i++)
        y[i] = elem == NBO_CELEM_F64 ? ((double *)out)[i] : (double)((float *)out)[i];
    free(in);
    free(out);
    free(msg);
    return rc;
}

/* max |x| over the block (the values as the codec sees them). */
static double max_norm(const double *x, size_t n, int elem)
{
    double m = 0;
    for (size_t i = 0; i < n; i++) {
        double v = elem == NBO_CELEM_F64 ? x[i] : (double)(float)x[i];
        if (isfinite(v))
            m = fmax(m, fabs(v));
    }
    return m;
}

/* Check |y - x| <= bound * max|x| for every value; returns the worst
 * ratio |y - x| / max|x| seen. */
static double check_bound(const char *what, const double *x, const double *y, size_t n, int elem,
                          double bound)
{
    const double m = max_norm(x, n, elem);
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        double v = elem == NBO_CELEM_F64 ? x[i] : (double)(float)x[i];
        double e = fabs(y[i] - v);
        if (!(e <= bound * m)) /* also catches NaN and inf in y */
            fail_msg("%s: value %zu of %zu: %.17g came back %.17g, error %.3g > %.3g * max %.3g",
                     what, i, n, v, y[i], e, bound, m);
        if (m > 0)
            worst = fmax(worst, e / m);
    }
    return worst;
}

static const size_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 63, 1000, 4097};
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

/* ---------------------------------------------------------------- FP32 */

/* Every kind at every size: |decoded - x| <= 2^-24 max|block|, zeros and
 * the sign of -0 kept, no value of a finite block turned infinite. */
static void fp32_bound(void **state)
{
    (void)state;
    double bound;
    assert_int_equal(nbo_codec_bound(NBO_CODEC_FP32, 0, MPI_DOUBLE, &bound), NBO_SUCCESS);
    assert_true(bound == 0x1p-24);
    assert_int_equal(nbo_codec_bound(NBO_CODEC_FP32, 99, MPI_C_DOUBLE_COMPLEX, &bound), NBO_SUCCESS);
    assert_true(bound == 0x1p-24);
    double worst = 0;
    for (int k = 0; k < K_COUNT; k++)
        for (size_t s = 0; s < NSIZES; s++) {
            const size_t n = sizes[s];
            double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
            assert_non_null(x);
            assert_non_null(y);
            for (size_t i = 0; i < n; i++)
                x[i] = value(k, i, n);
            int dec;
            assert_int_equal(round_trip(NBO_CODEC_FP32, 0, NBO_CELEM_F64, x, n, y, &dec), NBO_SUCCESS);
            assert_int_equal(dec, NBO_SUCCESS);
            char what[64];
            snprintf(what, sizeof(what), "fp32 %s n=%zu", kind_name[k], n);
            worst = fmax(worst, check_bound(what, x, y, n, NBO_CELEM_F64, bound));
            if (k == K_ZEROS)
                for (size_t i = 0; i < n; i++)
                    if (y[i] != 0 || signbit(y[i]) != signbit(x[i]))
                        fail_msg("fp32: zero %zu came back %g", i, y[i]);
            free(x);
            free(y);
        }
    /* The bound is tight: round to nearest reaches close to half a float
     * ulp somewhere in 4097 noise values (a codec that truncated, or sent
     * fewer bits, would show more; one that sent doubles, nothing). */
    print_message("fp32: worst |error| / max = %.3g (bound 2^-24 = %.3g)\n", worst, 0x1p-24);
    assert_true(worst > 0x1p-26);
}

/* NaN and infinities pass through, in place, as themselves; the bound holds
 * for the finite values beside them (the scale ignores non-finite ones). */
static void fp32_nonfinite(void **state)
{
    (void)state;
    const size_t n = 9;
    double x[9] = {1.5, NAN, -INFINITY, 0.25, INFINITY, -3.0, -NAN, 0x1p-1074, 1e-5};
    double y[9];
    int dec;
    assert_int_equal(round_trip(NBO_CODEC_FP32, 0, NBO_CELEM_F64, x, n, y, &dec), NBO_SUCCESS);
    assert_int_equal(dec, NBO_SUCCESS);
    assert_true(isnan(y[1]) && isnan(y[6]));
    assert_true(isinf(y[2]) && y[2] < 0);
    assert_true(isinf(y[4]) && y[4] > 0);
    for (size_t i = 0; i < n; i++)
        if (isfinite(x[i]) && !(fabs(y[i] - x[i]) <= 0x1p-24 * 3.0))
            fail_msg("fp32 beside NaN/inf: %g came back %g", x[i], y[i]);
    /* All non-finite: nothing to scale by. */
    double z[3] = {NAN, INFINITY, -INFINITY}, w[3];
    assert_int_equal(round_trip(NBO_CODEC_FP32, 0, NBO_CELEM_F64, z, 3, w, &dec), NBO_SUCCESS);
    assert_true(isnan(w[0]) && w[1] == INFINITY && w[2] == -INFINITY);
    /* Beyond float's range and below it: the per-block scale keeps both. */
    double big[2] = {1e300, -3e299}, tiny[2] = {1e-300, 0x1p-1074}, out[2];
    assert_int_equal(round_trip(NBO_CODEC_FP32, 0, NBO_CELEM_F64, big, 2, out, &dec), NBO_SUCCESS);
    check_bound("fp32 1e300", big, out, 2, NBO_CELEM_F64, 0x1p-24);
    assert_int_equal(round_trip(NBO_CODEC_FP32, 0, NBO_CELEM_F64, tiny, 2, out, &dec), NBO_SUCCESS);
    check_bound("fp32 1e-300", tiny, out, 2, NBO_CELEM_F64, 0x1p-24);
    assert_true(out[0] != 0);
    /* DBL_MAX rounds up to 2^1024 as a float times the scale: it must come
     * back finite. */
    double top[1] = {DBL_MAX};
    assert_int_equal(round_trip(NBO_CODEC_FP32, 0, NBO_CELEM_F64, top, 1, out, &dec), NBO_SUCCESS);
    assert_true(out[0] == DBL_MAX);
}

/* Floats are sent as they are: FP32 does not apply, its bound is 0. */
static void fp32_leaves_floats(void **state)
{
    (void)state;
    double bound = -1;
    assert_false(nbo_codec_applies(NBO_CODEC_FP32, 0, NBO_CELEM_F32));
    assert_false(nbo_codec_applies(NBO_CODEC_FP32, 0, NBO_CELEM_NONE));
    assert_true(nbo_codec_applies(NBO_CODEC_FP32, 0, NBO_CELEM_F64));
    assert_int_equal(nbo_codec_bound(NBO_CODEC_FP32, 16, MPI_FLOAT, &bound), NBO_SUCCESS);
    assert_true(bound == 0);
    assert_int_equal(nbo_codec_bound(NBO_CODEC_FP32, 16, MPI_C_FLOAT_COMPLEX, &bound), NBO_SUCCESS);
    assert_true(bound == 0);
    assert_int_equal(nbo_codec_bound(NBO_CODEC_FP32, 16, MPI_INT, &bound), NBO_SUCCESS);
    assert_true(bound == 0);
    assert_int_equal(nbo_codec_bound(NBO_CODEC_NONE, 16, MPI_DOUBLE, &bound), NBO_SUCCESS);
    assert_true(bound == 0);
    assert_int_equal(nbo_codec_bound(NBO_CODEC_FP32, 16, MPI_DOUBLE, NULL), NBO_ERR_ARG);
    assert_int_equal(nbo_codec_bound((nbo_codec_t)7, 16, MPI_DOUBLE, &bound), NBO_ERR_CODEC);
}

/* ----------------------------------------------------------------- ZFP */

/* The measured envelope of docs/compression.md: |error| <= 2^(8 - rate)
 * max|block| from rate 6 up (the worst seen is 2^(6.5 - rate)), and 4
 * max|block| below (rates 1-3 send the block's scale and zeros, 4-5 may
 * overshoot).  Not an a priori bound: nbo_codec_bound says so. */
static double zfp_envelope(int rate)
{
    return rate >= 6 ? ldexp(1.0, 8 - rate) : 4.0;
}

static void zfp_built(void **state)
{
    (void)state;
    char detail[128] = "";
    int rc = nbo_codec_available(NBO_CODEC_ZFP, detail, sizeof(detail));
    print_message("zfp: %s (%s)\n", rc == NBO_SUCCESS ? "available" : "not available", detail);
    /* The answer matches the build (meson -Dzfp). */
    assert_int_equal(rc, NBO_HAVE_ZFP ? NBO_SUCCESS : NBO_ERR_CODEC);
    assert_true(strlen(detail) > 0);
    assert_int_equal(nbo_codec_available(NBO_CODEC_NONE, NULL, 0), NBO_SUCCESS);
    assert_int_equal(nbo_codec_available(NBO_CODEC_FP32, NULL, 0), NBO_SUCCESS);
    assert_int_equal(nbo_codec_available((nbo_codec_t)3, detail, sizeof(detail)), NBO_ERR_CODEC);
    assert_int_equal(nbo_codec_available((nbo_codec_t)-1, NULL, 0), NBO_ERR_CODEC);
    double bound = -1;
    /* No a priori bound for lossy fixed-rate ZFP; exact rates have 0; a
     * rate out of range or no libzfp: NBO_ERR_CODEC. */
    assert_int_equal(nbo_codec_bound(NBO_CODEC_ZFP, 16, MPI_DOUBLE, &bound), NBO_ERR_CODEC);
    assert_int_equal(nbo_codec_bound(NBO_CODEC_ZFP, 0, MPI_DOUBLE, &bound), NBO_ERR_CODEC);
    assert_int_equal(nbo_codec_bound(NBO_CODEC_ZFP, 65, MPI_DOUBLE, &bound), NBO_ERR_CODEC);
    if (NBO_HAVE_ZFP) {
        assert_int_equal(nbo_codec_bound(NBO_CODEC_ZFP, 64, MPI_DOUBLE, &bound), NBO_SUCCESS);
        assert_true(bound == 0);
        assert_int_equal(nbo_codec_bound(NBO_CODEC_ZFP, 32, MPI_FLOAT, &bound), NBO_SUCCESS);
        assert_true(bound == 0);
        assert_int_equal(nbo_codec_bound(NBO_CODEC_ZFP, 8, MPI_INT, &bound), NBO_SUCCESS);
        assert_true(bound == 0);
    } else
        assert_int_equal(nbo_codec_bound(NBO_CODEC_ZFP, 64, MPI_DOUBLE, &bound), NBO_ERR_CODEC);
    /* ZFP compresses only below the raw width. */
    assert_true(nbo_codec_applies(NBO_CODEC_ZFP, 63, NBO_CELEM_F64));
    assert_false(nbo_codec_applies(NBO_CODEC_ZFP, 64, NBO_CELEM_F64));
    assert_true(nbo_codec_applies(NBO_CODEC_ZFP, 31, NBO_CELEM_F32));
    assert_false(nbo_codec_applies(NBO_CODEC_ZFP, 32, NBO_CELEM_F32));
    assert_false(nbo_codec_applies(NBO_CODEC_ZFP, 0, NBO_CELEM_F64));
}

/* Message sizes: fixed by the count alone, ceil(n/4) blocks of 4 * rate
 * bits (at least the block header) in 64-bit words, plus the header. */
static void zfp_sizes(void **state)
{
    (void)state;
    assert_int_equal(nbo_codec_wire_bytes(NBO_CODEC_ZFP, 16, NBO_CELEM_F64, 0), 0);
    assert_int_equal(nbo_codec_wire_bytes(NBO_CODEC_ZFP, 16, NBO_CELEM_F64, 8 * 1024),
                     NBO_CODEC_HEADER + 1024 / 4 * 64 / 8);
    assert_int_equal(nbo_codec_wire_bytes(NBO_CODEC_ZFP, 8, NBO_CELEM_F64, 8 * 5),
                     NBO_CODEC_HEADER + 8); /* 2 blocks of 32 bits: one word */
    assert_int_equal(nbo_codec_wire_bytes(NBO_CODEC_ZFP, 1, NBO_CELEM_F64, 8 * 4),
                     NBO_CODEC_HEADER + 8); /* 12 bits, the header's minimum */
    assert_int_equal(nbo_codec_zfp_block_bits(1, NBO_CELEM_F32), 9);
    assert_int_equal(nbo_codec_zfp_block_bits(2, NBO_CELEM_F64), 12);
    assert_int_equal(nbo_codec_zfp_block_bits(16, NBO_CELEM_F64), 64);
    /* 1 MiB of doubles at rate 16: a quarter, and 8 bytes more. */
    assert_int_equal(nbo_codec_wire_bytes(NBO_CODEC_ZFP, 16, NBO_CELEM_F64, 1 << 20),
                     (1 << 18) + NBO_CODEC_HEADER);
    assert_int_equal(nbo_codec_wire_bytes(NBO_CODEC_FP32, 0, NBO_CELEM_F64, 1 << 20),
                     (1 << 19) + NBO_CODEC_HEADER);
    assert_int_equal(nbo_codec_wire_bytes(NBO_CODEC_ZFP, 16, NBO_CELEM_F64, SIZE_MAX - 7), SIZE_MAX);
}

/* Rates 1-10 and every fourth, both scalar kinds, every kind of block, several sizes:
 * within the envelope, and a lower error at a higher rate on noise. */
static void zfp_envelope_holds(void **state)
{
    (void)state;
    if (!NBO_HAVE_ZFP)
        skip();
    for (int elem = NBO_CELEM_F64; elem <= NBO_CELEM_F32; elem++) {
        const int top = elem == NBO_CELEM_F64 ? 63 : 31;
        double prev = INFINITY;
        for (int rate = 1; rate <= top; rate++) {
            /* Every low rate, then every fourth (and the top one): the
             * sanitizer stages run this too. */
            if (rate > 10 && rate % 4 != 0 && rate != top)
                continue;
            double worst = 0, noise = 0;
            for (int k = 0; k < K_COUNT; k++) {
                if (elem == NBO_CELEM_F32 && !float_kind(k))
                    continue;
                for (size_t s = 0; s < NSIZES; s += (rate % 4 == 0 ? 1 : 3)) {
                    const size_t n = sizes[s];
                    double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
                    assert_non_null(x);
                    assert_non_null(y);
                    for (size_t i = 0; i < n; i++)
                        x[i] = value(k, i, n);
                    int dec;
                    int rc = round_trip(NBO_CODEC_ZFP, rate, elem, x, n, y, &dec);
                    if (rc != NBO_SUCCESS || dec != NBO_SUCCESS)
                        fail_msg("zfp rate %d %s n=%zu: encode %d decode %d", rate, kind_name[k], n,
                                 rc, dec);
                    char what[80];
                    snprintf(what, sizeof(what), "zfp rate %d %s %s n=%zu", rate,
                             elem == NBO_CELEM_F64 ? "double" : "float", kind_name[k], n);
                    double e = check_bound(what, x, y, n, elem, zfp_envelope(rate));
                    worst = fmax(worst, e);
                    if (k == K_NOISE && n == 4097)
                        noise = e;
                    if (k == K_ZEROS)
                        for (size_t i = 0; i < n; i++)
                            if (y[i] != 0)
                                fail_msg("%s: zero %zu came back %g", what, i, y[i]);
                    free(x);
                    free(y);
                }
            }
            if (rate % 8 == 0)
                print_message("zfp %s rate %2d: worst |error| / max %.3g, envelope %.3g\n",
                              elem == NBO_CELEM_F64 ? "double" : "float", rate, worst,
                              zfp_envelope(rate));
            /* More bits, less error (on noise, measured every 4 rates). */
            if (rate % 4 == 0 && rate >= 8) {
                if (!(noise < prev))
                    fail_msg("zfp rate %d: noise error %.3g not below rate %d's %.3g", rate, noise,
                             rate - 4, prev);
                prev = noise;
            }
        }
    }
}

/* ZFP refuses NaN and infinities: the encoder says NBO_ERR_CODEC and still
 * writes a message, which the decoder turns into NaN with NBO_ERR_CODEC. */
static void zfp_refuses_nonfinite(void **state)
{
    (void)state;
    if (!NBO_HAVE_ZFP)
        skip();
    const double bad[3] = {NAN, INFINITY, -INFINITY};
    for (int elem = NBO_CELEM_F64; elem <= NBO_CELEM_F32; elem++)
        for (int b = 0; b < 3; b++) {
            double x[10], y[10];
            for (int i = 0; i < 10; i++)
                x[i] = i;
            x[b * 4] = bad[b];
            int dec;
            assert_int_equal(round_trip(NBO_CODEC_ZFP, 16, elem, x, 10, y, &dec), NBO_ERR_CODEC);
            assert_int_equal(dec, NBO_ERR_CODEC);
            for (int i = 0; i < 10; i++)
                if (!isnan(y[i]))
                    fail_msg("refused block: value %d came back %g, not NaN", i, y[i]);
        }
}

/* ---------------------------------------------------------- settings */

static void settings(void **state)
{
    (void)state;
    nbo_config_t c;
    nbo_config_init(&c);
    assert_int_equal(c.codec, NBO_CODEC_NONE);
    assert_int_equal(c.codec_rate, 16);
    assert_int_equal(nbo_config_set(&c, "NBO_CODEC", "fp32"), NBO_SUCCESS);
    assert_int_equal(c.codec, NBO_CODEC_FP32);
    assert_int_equal(nbo_config_set(&c, "NBO_CODEC", "ZFP"), NBO_SUCCESS);
    assert_int_equal(c.codec, NBO_CODEC_ZFP);
    assert_int_equal(nbo_config_set(&c, "NBO_CODEC", "none"), NBO_SUCCESS);
    assert_int_equal(c.codec, NBO_CODEC_NONE);
    /* The keywords of NBO_CODEC are the codecs' own names (codec/). */
    for (int k = NBO_CODEC_NONE; k <= NBO_CODEC_ZFP; k++) {
        const nbo_codec_ops_t *ops = nbo_codec_find(k, NULL);
        if (ops)
            assert_string_equal(ops->name, nbo_codec_name((nbo_codec_t)k));
        else
            assert_true(k == NBO_CODEC_ZFP && !NBO_HAVE_ZFP);
    }
    assert_int_equal(nbo_config_set(&c, "NBO_CODEC", "bf16"), NBO_ERR_CONFIG);
    assert_int_equal(nbo_config_set(&c, "NBO_CODEC", "auto"), NBO_ERR_CONFIG);
    assert_int_equal(c.codec, NBO_CODEC_NONE);
    assert_int_equal(nbo_config_set(&c, "NBO_CODEC_RATE", "8"), NBO_SUCCESS);
    assert_int_equal(c.codec_rate, 8);
    assert_int_equal(nbo_config_set(&c, "NBO_CODEC_RATE", "64"), NBO_SUCCESS);
    assert_int_equal(nbo_config_set(&c, "NBO_CODEC_RATE", "1"), NBO_SUCCESS);
    for (const char *bad = "0\0" "65\0" "-3\0" "abc\0" "16x\0"; *bad; bad += strlen(bad) + 1)
        if (nbo_config_set(&c, "NBO_CODEC_RATE", bad) != NBO_ERR_CONFIG)
            fail_msg("NBO_CODEC_RATE=%s accepted", bad);
    assert_int_equal(c.codec_rate, 1);
    /* The environment: a bad value is NBO_ERR_CONFIG, the good ones apply. */
    setenv("NBO_CODEC", "zfp", 1);
    setenv("NBO_CODEC_RATE", "100", 1);
    nbo_config_init(&c);
    assert_int_equal(nbo_config_from_env(&c), NBO_ERR_CONFIG);
    assert_int_equal(c.codec, NBO_CODEC_ZFP);
    assert_int_equal(c.codec_rate, 16);
    setenv("NBO_CODEC", "lossy", 1);
    setenv("NBO_CODEC_RATE", "12", 1);
    nbo_config_init(&c);
    assert_int_equal(nbo_config_from_env(&c), NBO_ERR_CONFIG);
    assert_int_equal(c.codec, NBO_CODEC_NONE);
    assert_int_equal(c.codec_rate, 12);
    unsetenv("NBO_CODEC");
    unsetenv("NBO_CODEC_RATE");
    assert_string_equal(nbo_codec_name(NBO_CODEC_NONE), "none");
    assert_string_equal(nbo_codec_name(NBO_CODEC_FP32), "fp32");
    assert_string_equal(nbo_codec_name(NBO_CODEC_ZFP), "zfp");
    assert_string_equal(nbo_codec_name((nbo_codec_t)9), "?");
    assert_string_equal(nbo_strerror(NBO_ERR_CODEC) + 0, nbo_strerror(-26));
    assert_non_null(strstr(nbo_strerror(NBO_ERR_CODEC), "codec"));
}

/* ------------------------------------------------------- task lists */

static const int windows[] = {1, 3};

/* One call: every rank's list checked (sched_check.h, with the codec rules)
 * and the printout naming ENCODE and DECODE, then all ranks simulated with
 * the real codec and compared with it applied directly. */
static void run_case(sched_case_t *c)
{
    char name[300];
    assert_int_equal(sched_case_build(c), 0);
    for (int r = 0; r < c->P; r++) {
        nbo_sched_args_t a = sched_case_args(c, r);
        nbo_sched_t s;
        int rc = nbo_sched_compile(&a, &s);
        if (rc != NBO_SUCCESS)
            fail_msg("%s: compile returned %s", sched_case_name(c, r, name, sizeof(name)),
                     nbo_strerror(rc));
        if (nbo_sched_codec_on(&a) && s.algorithm != NBO_ALG_PAIRWISE)
            fail_msg("%s: %s with a codec", name, nbo_algorithm_name(s.algorithm));
        const char *err = sched_check(&a, &s);
        if (err) {
            fprintf(stderr, "task list of %s:\n", sched_case_name(c, r, name, sizeof(name)));
            nbo_sched_print(&s, stderr);
            nbo_sched_destroy(&s);
            fail_msg("%s: %s", name, err);
        }
        nbo_sched_destroy(&s);
    }
    const char *err = sched_simulate(c);
    if (err)
        fail_msg("simulation: %s", err);
    sched_case_free(c);
}

/* Chunks of the library's size (one per block here) and of 8 scalars
 * (several per block, so that rounds and their overlap show). */
static int sweep(int codec, int rate, int elem)
{
    static const size_t blocks[] = {0, 1, 5, 64};
    int n = 0;
    for (int P = 1; P <= 9; P++)
        for (int w = 0; w < 2; w++)
            for (int in_place = 0; in_place < 2; in_place++)
                for (int kind = 0; kind < 3; kind++)
                    for (int b = 0; b < (kind == COUNTS_UNIFORM ? 4 : 1); b++)
                        for (int ch = 0; ch < 2; ch++) {
                        sched_case_t c = {
                            .P = P, .counts = (counts_kind_t)kind, .block = blocks[b],
                            .send_contig = 1, .recv_contig = 1, .in_place = in_place,
                            .algorithm = b == 1 ? NBO_ALG_BRUCK : NBO_ALG_AUTO,
                            .window = windows[w], .bruck_max = 1 << 20,
                            .codec = codec, .codec_rate = rate, .codec_elem = elem,
                            .codec_chunk = ch ? 8 * nbo_celem_bytes(elem) : 0,
                        };
                        run_case(&c);
                        n++;
                    }
    return n;
}

static void lists_fp32(void **state)
{
    (void)state;
    print_message("%d cases\n", sweep(NBO_CODEC_FP32, 0, NBO_CELEM_F64));
    /* Floats: FP32 does not apply, the exact lists come back. */
    print_message("%d cases\n", sweep(NBO_CODEC_FP32, 0, NBO_CELEM_F32));
}

static void lists_zfp(void **state)
{
    (void)state;
    if (!NBO_HAVE_ZFP)
        skip();
    int n = sweep(NBO_CODEC_ZFP, 8, NBO_CELEM_F64) + sweep(NBO_CODEC_ZFP, 13, NBO_CELEM_F32);
    print_message("%d cases\n", n);
}

/* The shape the docs describe, on one list: P = 5, W = 1, rank 0:
 * RECV x4, ENCODE(step 1), then per window SEND, DECODE(previous),
 * ENCODE(next), WAIT; the last DECODE after the last WAIT; message sizes
 * and scratch the codec's. */
static void list_shape(void **state)
{
    (void)state;
    sched_case_t c = {.P = 5, .counts = COUNTS_UNIFORM, .block = 100, .send_contig = 1,
                      .recv_contig = 1, .algorithm = NBO_ALG_AUTO, .window = 1,
                      .bruck_max = 1 << 20, .codec = NBO_CODEC_FP32, .codec_elem = NBO_CELEM_F64};
    assert_int_equal(sched_case_build(&c), 0);
    nbo_sched_args_t a = sched_case_args(&c, 0);
    nbo_sched_t s;
    assert_int_equal(nbo_sched_compile(&a, &s), NBO_SUCCESS);
    const char *want = "RECV RECV RECV RECV ENCODE SEND COPY ENCODE WAIT SEND DECODE ENCODE WAIT "
                       "SEND DECODE ENCODE WAIT SEND DECODE WAIT DECODE ";
    char got[512] = "";
    for (int i = 0; i < s.ntasks; i++) {
        strcat(got, nbo_task_kind_name(s.tasks[i].kind));
        strcat(got, " ");
        if (s.tasks[i].kind == NBO_TASK_SEND || s.tasks[i].kind == NBO_TASK_RECV)
            assert_int_equal(s.tasks[i].len, NBO_CODEC_HEADER + 4 * 100);
    }
    if (strcmp(got, want) != 0) {
        nbo_sched_print(&s, stderr);
        fail_msg("list\n  %s\nexpected\n  %s", got, want);
    }
    /* 8 messages of 408 bytes, each slot 16-byte aligned. */
    assert_int_equal(s.tmp_bytes, 8 * 416);
    assert_int_equal(s.codec, NBO_CODEC_FP32);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    nbo_sched_print(&s, f);
    fclose(f);
    if (!strstr(text, "ENCODE") || !strstr(text, "fp32") || !strstr(text, "DECODE"))
        fail_msg("printout lacks the codec:\n%s", text);
    free(text);
    nbo_sched_destroy(&s);
    /* Bruck asked for and chosen by AUTO for small blocks: pairwise once a
     * codec applies, Bruck again for an exact call. */
    a.algorithm = NBO_ALG_BRUCK;
    assert_int_equal(nbo_sched_choose(&a), NBO_ALG_PAIRWISE);
    a.codec = NBO_CODEC_NONE;
    assert_int_equal(nbo_sched_choose(&a), NBO_ALG_BRUCK);
    /* Blocks that are not whole scalars: the caller's type was not the
     * codec's. */
    a.codec = NBO_CODEC_FP32;
    size_t odd[5] = {100, 100, 101, 100, 100};
    a.sbytes = odd;
    assert_int_equal(nbo_sched_compile(&a, &s), NBO_ERR_ARG);
    sched_case_free(&c);

    /* P = 2, one peer: 10 doubles in chunks of 4 (32 bytes): three rounds,
     * chunk j+1 encoded and chunk j-1 decoded while chunk j travels. */
    sched_case_t d = {.P = 2, .counts = COUNTS_UNIFORM, .block = 10, .send_contig = 1,
                      .recv_contig = 1, .algorithm = NBO_ALG_AUTO, .window = 8,
                      .bruck_max = 256, .codec = NBO_CODEC_FP32, .codec_elem = NBO_CELEM_F64,
                      .codec_chunk = 32};
    assert_int_equal(sched_case_build(&d), 0);
    a = sched_case_args(&d, 1);
    assert_int_equal(nbo_sched_compile(&a, &s), NBO_SUCCESS);
    want = "RECV RECV RECV ENCODE SEND COPY ENCODE WAIT SEND DECODE ENCODE WAIT SEND DECODE WAIT "
           "DECODE ";
    got[0] = 0;
    static const size_t lens[] = {8 + 16, 8 + 16, 8 + 8}; /* 4, 4, 2 doubles as floats */
    int ks = 0;
    for (int i = 0; i < s.ntasks; i++) {
        strcat(got, nbo_task_kind_name(s.tasks[i].kind));
        strcat(got, " ");
        if (s.tasks[i].kind == NBO_TASK_SEND)
            assert_int_equal(s.tasks[i].len, lens[ks++]);
    }
    if (strcmp(got, want) != 0) {
        nbo_sched_print(&s, stderr);
        fail_msg("chunked list\n  %s\nexpected\n  %s", got, want);
    }
    assert_int_equal(s.tmp_bytes, 2 * 3 * 32); /* 6 slots of 24 bytes, 16-aligned */
    const char *err = sched_check(&a, &s);
    if (err)
        fail_msg("chunked list: %s", err);
    nbo_sched_destroy(&s);
    sched_case_free(&d);
}

/* A block's bytes on the wire (nbo_codec_block_wire_bytes, which
 * libp3dfft_overlap counts with) are what the compiled list sends for it:
 * the sizes of its messages, one per chunk, summed. */
static void block_sizes_match_lists(void **state)
{
    (void)state;
    static const struct { int codec, rate, elem; } k[] = {
        {NBO_CODEC_FP32, 0, NBO_CELEM_F64}, {NBO_CODEC_ZFP, 16, NBO_CELEM_F64},
        {NBO_CODEC_ZFP, 5, NBO_CELEM_F64},  {NBO_CODEC_ZFP, 9, NBO_CELEM_F32}};
    static const size_t blocks[] = {1, 3, 4, 10, 33, 100};   /* scalars */
    static const size_t chunks[] = {0, 32, 48, 100};         /* raw bytes; 0: the default */
    for (size_t i = 0; i < (sizeof(k) / sizeof(k[0])); i++)
        for (size_t j = 0; j < (sizeof(blocks) / sizeof(blocks[0])); j++)
            for (size_t h = 0; h < (sizeof(chunks) / sizeof(chunks[0])); h++) {
                sched_case_t c = {.P = 2, .counts = COUNTS_UNIFORM, .block = blocks[j],
                                  .send_contig = 1, .recv_contig = 1, .algorithm = NBO_ALG_AUTO,
                                  .window = 4, .bruck_max = 256, .codec = k[i].codec,
                                  .codec_rate = k[i].rate, .codec_elem = k[i].elem,
                                  .codec_chunk = chunks[h]};
                assert_int_equal(sched_case_build(&c), 0);
                nbo_sched_args_t a = sched_case_args(&c, 1);
                nbo_sched_t s;
                assert_int_equal(nbo_sched_compile(&a, &s), NBO_SUCCESS);
                size_t sent = 0;
                for (int t = 0; t < s.ntasks; t++)
                    if (s.tasks[t].kind == NBO_TASK_SEND)
                        sent += s.tasks[t].len;
                const size_t raw = blocks[j] * nbo_celem_bytes(k[i].elem);
                assert_int_equal(sent, nbo_codec_block_wire_bytes(k[i].codec, k[i].rate,
                                                                  k[i].elem, raw, chunks[h]));
                nbo_sched_destroy(&s);
                sched_case_free(&c);
            }
    /* A block the codec leaves exact goes as it is. */
    assert_int_equal(nbo_codec_block_wire_bytes(NBO_CODEC_FP32, 0, NBO_CELEM_F32, 400, 0), 400);
    assert_int_equal(nbo_codec_block_wire_bytes(NBO_CODEC_ZFP, 32, NBO_CELEM_F32, 400, 0), 400);
    assert_int_equal(nbo_codec_block_wire_bytes(NBO_CODEC_NONE, 0, NBO_CELEM_F64, 800, 0), 800);
    /* Two default chunks of doubles and a rest of 8 values, fp32. */
    assert_int_equal(nbo_codec_block_wire_bytes(NBO_CODEC_FP32, 0, NBO_CELEM_F64,
                                                2 * NBO_CODEC_CHUNK + 64, 0),
                     2 * (NBO_CODEC_HEADER + NBO_CODEC_CHUNK / 2) + NBO_CODEC_HEADER + 32);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fp32_bound),
        cmocka_unit_test(fp32_nonfinite),
        cmocka_unit_test(fp32_leaves_floats),
        cmocka_unit_test(zfp_built),
        cmocka_unit_test(zfp_sizes),
        cmocka_unit_test(zfp_envelope_holds),
        cmocka_unit_test(zfp_refuses_nonfinite),
        cmocka_unit_test(settings),
        cmocka_unit_test(list_shape),
        cmocka_unit_test(lists_fp32),
        cmocka_unit_test(lists_zfp),
        cmocka_unit_test(block_sizes_match_lists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
