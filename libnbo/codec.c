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
    char buf[128];
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

int nbo_codec_encode(int codec, int rate, int elem, const void *src, size_t raw_bytes, void *dst)
{
    (void)codec, (void)rate, (void)elem, (void)src, (void)raw_bytes, (void)dst;
    return NBO_ERR_INTERNAL;
}

int nbo_codec_decode(int codec, int rate, int elem, const void *src, size_t raw_bytes, void *dst)
{
    (void)codec, (void)rate, (void)elem, (void)src, (void)raw_bytes, (void)dst;
    return NBO_ERR_INTERNAL;
}
