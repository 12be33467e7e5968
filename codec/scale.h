/* scale.h - what the kernels share (scale.c): a block's power-of-two
 * scale, exact multiplication by it, the message header, and the checks
 * every encode and decode makes.  Internal to codec/. */
#ifndef NBO_CODEC_SCALE_H
#define NBO_CODEC_SCALE_H

#include <stddef.h>
#include <stdint.h>

/* The block's scale: max|x| over its finite values = m * 2^E, m in
 * [0.5, 1) (E = 0 for a block of zeros); *nonfinite counts NaN and
 * infinities.  Multiplying by 2^-E puts every finite value in (-1, 1):
 * neither float's range nor ZFP's exponent then limits the data. */
int nbo_codec_scale_f64(const double *x, size_t n, size_t *nonfinite);
int nbo_codec_scale_f32(const float *x, size_t n, size_t *nonfinite);

/* x * 2^k, exact where the result is a normal double: 2^k as two factors
 * when it is no double itself (|k| up to 1074 + 1024). */
typedef struct {
    double f1, f2;
    int two;
} nbo_pow2_t;

nbo_pow2_t nbo_codec_pow2(int k);

static inline double nbo_pow2_mul(double x, nbo_pow2_t p)
{
    return p.two ? x * p.f1 * p.f2 : x * p.f1;
}

void nbo_codec_put_header(void *dst, int32_t e, uint32_t flags);
void nbo_codec_get_header(const void *src, int32_t *e, uint32_t *flags);

/* The values of a message of raw_bytes for codec at rate on kind elem in
 * *n: NBO_SUCCESS, or NBO_ERR_INTERNAL where the codec does not apply or
 * the bytes are not whole scalars. */
int nbo_codec_values(int codec, int rate, int elem, size_t raw_bytes, size_t *n);

#endif /* NBO_CODEC_SCALE_H */
