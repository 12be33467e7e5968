/* registry.c - the codecs of this build (codec.h): one ops table each, by
 * nbo_codec_t; and the table of `none`, which changes nothing. */
#include <stdio.h>

#include <nbo.h>
#include "codec.h"
#include "nbo_engines.h" /* NBO_HAVE_ZFP (meson) */

extern const nbo_codec_ops_t nbo_codec_fp32;
#if NBO_HAVE_ZFP
extern const nbo_codec_ops_t nbo_codec_zfp;
#endif

static void none_describe(char *detail, size_t len) { snprintf(detail, len, "exact, no compression"); }

static int none_bound(int rate, int elem, double *bound)
{
    (void)rate, (void)elem;
    *bound = 0;
    return NBO_SUCCESS;
}

/* nbo_codec_applies is never true for none: the core runs no task of it. */
static int none_code(int rate, int elem, const void *src, size_t raw_bytes, void *dst)
{
    (void)rate, (void)elem, (void)src, (void)raw_bytes, (void)dst;
    return NBO_ERR_INTERNAL;
}

static const nbo_codec_ops_t nbo_codec_none = {
    .name = "none",
    .describe = none_describe,
    .bound = none_bound,
    .encode = none_code,
    .decode = none_code,
};

const nbo_codec_ops_t *nbo_codec_find(int codec, const char **why)
{
    const char *w = "not a codec";
    const nbo_codec_ops_t *ops = NULL;
    switch (codec) {
    case NBO_CODEC_NONE: ops = &nbo_codec_none; break;
    case NBO_CODEC_FP32: ops = &nbo_codec_fp32; break;
    case NBO_CODEC_ZFP:
#if NBO_HAVE_ZFP
        ops = &nbo_codec_zfp;
#else
        w = "libnbo is built without libzfp (meson -Dzfp, Debian libzfp-dev)";
#endif
        break;
    }
    if (why)
        *why = ops ? NULL : w;
    return ops;
}
