/* scale.c - the kernels' shared parts (scale.h). */
#include <float.h>
#include <math.h>
#include <string.h>

#include <nbo.h>
#include "codec.h"
#include "scale.h"

int nbo_codec_scale_f64(const double *x, size_t n, size_t *nonfinite)
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

int nbo_codec_scale_f32(const float *x, size_t n, size_t *nonfinite)
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

nbo_pow2_t nbo_codec_pow2(int k)
{
    nbo_pow2_t p = {.f1 = 1, .f2 = 1, .two = k > 1000 || k < -1000};
    if (p.two) {
        p.f1 = ldexp(1.0, k / 2);
        p.f2 = ldexp(1.0, k - k / 2);
    } else
        p.f1 = ldexp(1.0, k);
    return p;
}

void nbo_codec_put_header(void *dst, int32_t e, uint32_t flags)
{
    memcpy(dst, &e, 4);
    memcpy((char *)dst + 4, &flags, 4);
}

void nbo_codec_get_header(const void *src, int32_t *e, uint32_t *flags)
{
    memcpy(e, src, 4);
    memcpy(flags, (const char *)src + 4, 4);
}

int nbo_codec_values(int codec, int rate, int elem, size_t raw_bytes, size_t *n)
{
    const size_t w = nbo_celem_bytes(elem);
    if (!w || raw_bytes % w || !nbo_codec_applies(codec, rate, elem))
        return NBO_ERR_INTERNAL;
    *n = raw_bytes / w;
    return NBO_SUCCESS;
}
