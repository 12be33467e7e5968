/* zfp.c - the zfp codec (codec.h, docs/compression.md): ZFP fixed rate,
 * 1-D blocks of 4 values, on the block scaled by its power of two.  Built
 * only with libzfp (-Dzfp); the only file that includes zfp.h. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <zfp.h>

#include <nbo.h>
#include "codec.h"
#include "scale.h"

static void zfp_describe(char *detail, size_t len)
{
    snprintf(detail, len, "ZFP %s, fixed rate, 1-D blocks of 4 values", ZFP_VERSION_STRING);
}

static int zfp_bound(int rate, int elem, double *bound)
{
    *bound = 0;
    if (rate < 1 || rate > 64)
        return NBO_ERR_CODEC;
    /* Fixed rate: no a priori bound stated (docs/compression.md). */
    return nbo_codec_applies(NBO_CODEC_ZFP, rate, elem) ? NBO_ERR_CODEC : NBO_SUCCESS;
}

/* A ZFP stream on a message's payload of `bytes`. */
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

static int zfp_encode(int rate, int elem, const void *src, size_t raw_bytes, void *dst)
{
    size_t n, bad;
    int rc = nbo_codec_values(NBO_CODEC_ZFP, rate, elem, raw_bytes, &n);
    if (rc != NBO_SUCCESS || !n)
        return rc;
    const size_t wire = nbo_codec_wire_bytes(NBO_CODEC_ZFP, rate, elem, raw_bytes);
    const int e = elem == NBO_CELEM_F64 ? nbo_codec_scale_f64(src, n, &bad)
                                        : nbo_codec_scale_f32(src, n, &bad);
    char *payload = (char *)dst + NBO_CODEC_HEADER;
    if (bad) { /* ZFP's lossy modes have no NaN or infinity */
        nbo_codec_put_header(dst, 0, NBO_CODEC_REFUSED);
        memset(payload, 0, wire - NBO_CODEC_HEADER);
        return NBO_ERR_CODEC;
    }
    nbo_codec_put_header(dst, e, 0);
    zfp_stream *z = zfp_open(rate, elem, payload, wire - NBO_CODEC_HEADER);
    if (!z)
        return NBO_ERR_NOMEM;
    const nbo_pow2_t s = nbo_codec_pow2(-e);
    if (elem == NBO_CELEM_F64) {
        const double *x = src;
        double blk[4];
        for (size_t i = 0; i < n; i += 4) {
            size_t m = n - i < 4 ? n - i : 4;
            for (size_t j = 0; j < m; j++) {
                double v = nbo_pow2_mul(x[i + j], s);
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
                float v = (float)nbo_pow2_mul((double)x[i + j], s);
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

static int zfp_decode(int rate, int elem, const void *src, size_t raw_bytes, void *dst)
{
    size_t n;
    int rc = nbo_codec_values(NBO_CODEC_ZFP, rate, elem, raw_bytes, &n);
    if (rc != NBO_SUCCESS || !n)
        return rc;
    const size_t wire = nbo_codec_wire_bytes(NBO_CODEC_ZFP, rate, elem, raw_bytes);
    int32_t e;
    uint32_t flags;
    nbo_codec_get_header(src, &e, &flags);
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
    const nbo_pow2_t s = nbo_codec_pow2(e);
    if (elem == NBO_CELEM_F64) {
        double *x = dst, blk[4];
        for (size_t i = 0; i < n; i += 4) {
            size_t m = n - i < 4 ? n - i : 4;
            if (m == 4)
                zfp_decode_block_double_1(z, blk);
            else
                zfp_decode_partial_block_strided_double_1(z, blk, m, 1);
            for (size_t j = 0; j < m; j++) {
                double v = nbo_pow2_mul(blk[j], s);
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
                double v = nbo_pow2_mul((double)blk[j], s);
                x[i + j] = fabs(v) > FLT_MAX ? copysignf(FLT_MAX, (float)v) : (float)v;
            }
        }
    }
    zfp_done(z);
    return NBO_SUCCESS;
}

const nbo_codec_ops_t nbo_codec_zfp = {
    .name = "zfp",
    .describe = zfp_describe,
    .bound = zfp_bound,
    .encode = zfp_encode,
    .decode = zfp_decode,
};
