/*
 * codec.c - the codecs of compressed all-to-alls (codec.h,
 * docs/compression.md) and their public queries.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nbo.h>
#include "codec.h"
#include "nbo_engines.h" /* NBO_HAVE_ZFP (meson) */

#if NBO_HAVE_ZFP
#include <zfp.h>
#endif

/* ------------------------------------------------------------ public API */

int nbo_codec_available(nbo_codec_t codec, char *detail, size_t len)
{
    const char *why = NULL;
    int rc = NBO_SUCCESS;
#if NBO_HAVE_ZFP
    char buf[128];
#endif
    switch (codec) {
    case NBO_CODEC_NONE: why = "exact, no compression"; break;
    case NBO_CODEC_FP32: why = "doubles rounded to float, per-block power-of-two scale"; break;
    case NBO_CODEC_ZFP:
#if NBO_HAVE_ZFP
        snprintf(buf, sizeof(buf), "ZFP %s, fixed rate, 1-D blocks of 4 values", ZFP_VERSION_STRING);
        why = buf;
#else
        why = "libnbo is built without libzfp (meson -Dzfp, Debian libzfp-dev)";
        rc = NBO_ERR_CODEC;
#endif
        break;
    default:
        why = "not a codec";
        rc = NBO_ERR_CODEC;
    }
    if (detail && len)
        snprintf(detail, len, "%s", why);
    return rc;
}

/* The scalar kind of a datatype the codecs apply to, else NONE. */
int nbo_codec_elem(MPI_Datatype type)
{
    if (type == MPI_DOUBLE || type == MPI_C_DOUBLE_COMPLEX)
        return NBO_CELEM_F64;
    if (type == MPI_FLOAT || type == MPI_C_FLOAT_COMPLEX)
        return NBO_CELEM_F32;
    return NBO_CELEM_NONE;
}

int nbo_codec_bound(nbo_codec_t codec, int rate, MPI_Datatype type, double *bound)
{
    if (!bound)
        return NBO_ERR_ARG;
    *bound = 0;
    if (nbo_codec_available(codec, NULL, 0) != NBO_SUCCESS)
        return NBO_ERR_CODEC;
    if (codec == NBO_CODEC_ZFP && (rate < 1 || rate > 64))
        return NBO_ERR_CODEC;
    const int elem = nbo_codec_elem(type);
    if (!nbo_codec_applies(codec, rate, elem))
        return NBO_SUCCESS; /* exact */
    if (codec == NBO_CODEC_FP32) {
        *bound = ldexp(1.0, -24); /* float's unit roundoff, docs/compression.md */
        return NBO_SUCCESS;
    }
    /* ZFP fixed rate: no a priori bound stated (docs/compression.md). */
    return NBO_ERR_CODEC;
}

/* ---------------------------------------------------------------- codecs */

/* The block's scale: max|x| over its finite values = m * 2^E, m in
 * [0.5, 1) (E = 0 for a block of zeros); *nonfinite counts NaN and
 * infinities.  Multiplying by 2^-E puts every finite value in (-1, 1):
 * neither float's range nor ZFP's exponent then limits the data. */
static int scale_exp_f64(const double *x, size_t n, size_t *nonfinite)
{
    double max = 0;
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        double a = fabs(x[i]);
        if (a <= DBL_MAX) /* false for NaN and inf */
            max = a > max ? a : max;
        else
            bad++;
    }
    *nonfinite = bad;
    int e = 0;
    if (max > 0)
        frexp(max, &e);
    return e;
}

#if NBO_HAVE_ZFP /* floats are compressed by ZFP only */
static int scale_exp_f32(const float *x, size_t n, size_t *nonfinite)
{
    float max = 0;
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        float a = fabsf(x[i]);
        if (a <= FLT_MAX)
            max = a > max ? a : max;
        else
            bad++;
    }
    *nonfinite = bad;
    int e = 0;
    if (max > 0)
        frexpf(max, &e);
    return e;
}
#endif

/* x * 2^k, exact where the result is a normal double: 2^k as two factors
 * when it is no double itself (|k| up to 1074 + 1024). */
typedef struct {
    double f1, f2;
    int two;
} pow2_t;

static pow2_t pow2(int k)
{
    pow2_t p = {.f1 = 1, .f2 = 1, .two = k > 1000 || k < -1000};
    if (p.two) {
        p.f1 = ldexp(1.0, k / 2);
        p.f2 = ldexp(1.0, k - k / 2);
    } else
        p.f1 = ldexp(1.0, k);
    return p;
}

static inline double mul(double x, pow2_t p) { return p.two ? x * p.f1 * p.f2 : x * p.f1; }

static void put_header(void *dst, int32_t e, uint32_t flags)
{
    memcpy(dst, &e, 4);
    memcpy((char *)dst + 4, &flags, 4);
}

static void get_header(const void *src, int32_t *e, uint32_t *flags)
{
    memcpy(e, src, 4);
    memcpy(flags, (const char *)src + 4, 4);
}

/* FP32: the values times 2^-E rounded to float (round to nearest).  NaN
 * and infinities pass through as float NaN and infinities. */
static void fp32_encode(const double *x, size_t n, void *dst)
{
    size_t bad;
    const int e = scale_exp_f64(x, n, &bad);
    put_header(dst, e, 0);
    float *y = (float *)((char *)dst + NBO_CODEC_HEADER);
    const pow2_t s = pow2(-e);
    if (!s.two)
        for (size_t i = 0; i < n; i++)
            y[i] = (float)(x[i] * s.f1);
    else
        for (size_t i = 0; i < n; i++)
            y[i] = (float)mul(x[i], s);
}

static void fp32_decode(const void *src, size_t n, double *x)
{
    int32_t e;
    uint32_t flags;
    get_header(src, &e, &flags);
    const float *y = (const float *)((const char *)src + NBO_CODEC_HEADER);
    const pow2_t s = pow2(e);
    if (!s.two)
        for (size_t i = 0; i < n; i++)
            x[i] = (double)y[i] * s.f1;
    else /* E near DBL_MAX's: a value rounded up to 1.0f must not become inf */
        for (size_t i = 0; i < n; i++) {
            double v = mul((double)y[i], s);
            x[i] = isinf(v) && isfinite(y[i]) ? copysign(DBL_MAX, v) : v;
        }
}

#if NBO_HAVE_ZFP
/* A ZFP stream on the payload of a message of `wire` bytes. */
static zfp_stream *zfp_open(int rate, int elem, void *payload, size_t bytes)
{
    bitstream *bs = stream_open(payload, bytes);
    zfp_stream *z = bs ? zfp_stream_open(bs) : NULL;
    if (!z) {
        if (bs)
            stream_close(bs);
        return NULL;
    }
    zfp_stream_set_rate(z, rate, elem == NBO_CELEM_F64 ? zfp_type_double : zfp_type_float, 1,
                        zfp_false);
    zfp_stream_rewind(z);
    return z;
}

static void zfp_done(zfp_stream *z)
{
    bitstream *bs = zfp_stream_bit_stream(z);
    zfp_stream_close(z);
    stream_close(bs);
}

/* Values this far below the block's max-norm (after scaling: below 2^-1000
 * for doubles, 2^-120 for floats) go to ZFP as 0: it has no precision for
 * them anyway, and a block of subnormals overflows its exponent. */
#define ZFP_TINY_F64 0x1p-1000
#define ZFP_TINY_F32 0x1p-120f

static int zfp_encode_data(int rate, int elem, const void *src, size_t n, void *dst, size_t wire)
{
    size_t bad;
    const int e = elem == NBO_CELEM_F64 ? scale_exp_f64(src, n, &bad) : scale_exp_f32(src, n, &bad);
    char *payload = (char *)dst + NBO_CODEC_HEADER;
    if (bad) { /* ZFP's lossy modes have no NaN or infinity */
        put_header(dst, 0, NBO_CODEC_REFUSED);
        memset(payload, 0, wire - NBO_CODEC_HEADER);
        return NBO_ERR_CODEC;
    }
    put_header(dst, e, 0);
    zfp_stream *z = zfp_open(rate, elem, payload, wire - NBO_CODEC_HEADER);
    if (!z)
        return NBO_ERR_NOMEM;
    const pow2_t s = pow2(-e);
    if (elem == NBO_CELEM_F64) {
        const double *x = src;
        double blk[4];
        for (size_t i = 0; i < n; i += 4) {
            size_t m = n - i < 4 ? n - i : 4;
            for (size_t j = 0; j < m; j++) {
                double v = mul(x[i + j], s);
                blk[j] = fabs(v) < ZFP_TINY_F64 ? 0 : v;
            }
            if (m == 4)
                zfp_encode_block_double_1(z, blk);
            else
                zfp_encode_partial_block_strided_double_1(z, blk, m, 1);
        }
    } else {
        const float *x = src;
        float blk[4];
        for (size_t i = 0; i < n; i += 4) {
            size_t m = n - i < 4 ? n - i : 4;
            for (size_t j = 0; j < m; j++) {
                float v = (float)mul((double)x[i + j], s);
                blk[j] = fabsf(v) < ZFP_TINY_F32 ? 0 : v;
            }
            if (m == 4)
                zfp_encode_block_float_1(z, blk);
            else
                zfp_encode_partial_block_strided_float_1(z, blk, m, 1);
        }
    }
    zfp_stream_flush(z);
    size_t used = zfp_stream_compressed_size(z);
    zfp_done(z);
    return used <= wire - NBO_CODEC_HEADER ? NBO_SUCCESS : NBO_ERR_INTERNAL;
}

static int zfp_decode_data(int rate, int elem, const void *src, size_t n, void *dst, size_t wire)
{
    int32_t e;
    uint32_t flags;
    get_header(src, &e, &flags);
    if (flags & NBO_CODEC_REFUSED) {
        if (elem == NBO_CELEM_F64)
            for (size_t i = 0; i < n; i++)
                ((double *)dst)[i] = NAN;
        else
            for (size_t i = 0; i < n; i++)
                ((float *)dst)[i] = NAN;
        return NBO_ERR_CODEC;
    }
    zfp_stream *z = zfp_open(rate, elem, (char *)src + NBO_CODEC_HEADER, wire - NBO_CODEC_HEADER);
    if (!z)
        return NBO_ERR_NOMEM;
    const pow2_t s = pow2(e);
    if (elem == NBO_CELEM_F64) {
        double *x = dst, blk[4];
        for (size_t i = 0; i < n; i += 4) {
            size_t m = n - i < 4 ? n - i : 4;
            if (m == 4)
                zfp_decode_block_double_1(z, blk);
            else
                zfp_decode_partial_block_strided_double_1(z, blk, m, 1);
            for (size_t j = 0; j < m; j++) {
                double v = mul(blk[j], s);
                x[i + j] = isinf(v) ? copysign(DBL_MAX, v) : v; /* the error may pass DBL_MAX */
            }
        }
    } else {
        float *x = dst, blk[4];
        for (size_t i = 0; i < n; i += 4) {
            size_t m = n - i < 4 ? n - i : 4;
            if (m == 4)
                zfp_decode_block_float_1(z, blk);
            else
                zfp_decode_partial_block_strided_float_1(z, blk, m, 1);
            for (size_t j = 0; j < m; j++) {
                double v = mul((double)blk[j], s);
                x[i + j] = fabs(v) > FLT_MAX ? copysignf(FLT_MAX, (float)v) : (float)v;
            }
        }
    }
    zfp_done(z);
    return NBO_SUCCESS;
}
#endif

/* Encoding and decoding check the same things and pick the codec alike. */
static int codec_run(int decode, int codec, int rate, int elem, const void *src,
                     size_t raw_bytes, void *dst)
{
    const size_t w = nbo_celem_bytes(elem);
    if (!w || raw_bytes % w || !nbo_codec_applies(codec, rate, elem))
        return NBO_ERR_INTERNAL;
    const size_t n = raw_bytes / w;
    if (!n)
        return NBO_SUCCESS;
    if (codec == NBO_CODEC_FP32) {
        if (decode)
            fp32_decode(src, n, dst);
        else
            fp32_encode(src, n, dst);
        return NBO_SUCCESS;
    }
#if NBO_HAVE_ZFP
    const size_t wire = nbo_codec_wire_bytes(codec, rate, elem, raw_bytes);
    return decode ? zfp_decode_data(rate, elem, src, n, dst, wire)
                  : zfp_encode_data(rate, elem, src, n, dst, wire);
#else
    (void)src, (void)dst;
    return NBO_ERR_CODEC;
#endif
}

int nbo_codec_encode(int codec, int rate, int elem, const void *src, size_t raw_bytes, void *dst)
{
    return codec_run(0, codec, rate, elem, src, raw_bytes, dst);
}

int nbo_codec_decode(int codec, int rate, int elem, const void *src, size_t raw_bytes, void *dst)
{
    return codec_run(1, codec, rate, elem, src, raw_bytes, dst);
}
