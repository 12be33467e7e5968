/* fp32.c - the fp32 codec (codec.h, docs/compression.md): doubles scaled
 * by their block's power of two and rounded to float. */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include <nbo.h>
#include "codec.h"
#include "scale.h"

static void fp32_describe(char *detail, size_t len)
{
    snprintf(detail, len, "doubles rounded to float, per-block power-of-two scale");
}

static int fp32_bound(int rate, int elem, double *bound)
{
    /* float's unit roundoff where it applies (docs/compression.md) */
    *bound = nbo_codec_applies(NBO_CODEC_FP32, rate, elem) ? ldexp(1.0, -24) : 0;
    return NBO_SUCCESS;
}

/* The values times 2^-E rounded to float (round to nearest).  NaN and
 * infinities pass through as float NaN and infinities. */
static int fp32_encode(int rate, int elem, const void *src, size_t raw_bytes, void *dst)
{
    size_t n, bad;
    int rc = nbo_codec_values(NBO_CODEC_FP32, rate, elem, raw_bytes, &n);
    if (rc != NBO_SUCCESS || !n)
        return rc;
    const double *x = src;
    const int e = nbo_codec_scale_f64(x, n, &bad);
    nbo_codec_put_header(dst, e, 0);
    float *y = (float *)((char *)dst + NBO_CODEC_HEADER);
    const nbo_pow2_t s = nbo_codec_pow2(-e);
    if (!s.two)
        for (size_t i = 0; i < n; i++)
            y[i] = (float)(x[i] * s.f1);
    else
        for (size_t i = 0; i < n; i++)
            y[i] = (float)nbo_pow2_mul(x[i], s);
    return NBO_SUCCESS;
}

static int fp32_decode(int rate, int elem, const void *src, size_t raw_bytes, void *dst)
{
    size_t n;
    int rc = nbo_codec_values(NBO_CODEC_FP32, rate, elem, raw_bytes, &n);
    if (rc != NBO_SUCCESS || !n)
        return rc;
    int32_t e;
    uint32_t flags;
    nbo_codec_get_header(src, &e, &flags);
    const float *y = (const float *)((const char *)src + NBO_CODEC_HEADER);
    double *x = dst;
    const nbo_pow2_t s = nbo_codec_pow2(e);
    if (!s.two)
        for (size_t i = 0; i < n; i++)
            x[i] = (double)y[i] * s.f1;
    else /* E near DBL_MAX's: a value rounded up to 1.0f must not become inf */
        for (size_t i = 0; i < n; i++) {
            double v = nbo_pow2_mul((double)y[i], s);
            x[i] = isinf(v) && isfinite(y[i]) ? copysign(DBL_MAX, v) : v;
        }
    return NBO_SUCCESS;
}

const nbo_codec_ops_t nbo_codec_fp32 = {
    .name = "fp32",
    .describe = fp32_describe,
    .bound = fp32_bound,
    .encode = fp32_encode,
    .decode = fp32_decode,
};
