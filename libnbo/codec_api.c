/*
 * codec_api.c - the public queries on the codecs (nbo.h, docs/compression.md),
 * answered by their ops tables (codec/codec.h), and the scalar kind of a
 * datatype the codecs apply to.
 */
#include <stdio.h>

#include <nbo.h>
#include "../codec/codec.h"
#include "core.h"

int nbo_codec_available(nbo_codec_t codec, char *detail, size_t len)
{
    const char *why;
    const nbo_codec_ops_t *ops = nbo_codec_find(codec, &why);
    if (!ops) {
        if (detail && len)
            snprintf(detail, len, "%s", why);
        return NBO_ERR_CODEC;
    }
    if (detail && len)
        ops->describe(detail, len);
    return NBO_SUCCESS;
}

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
    const nbo_codec_ops_t *ops = nbo_codec_find(codec, NULL);
    if (!ops)
        return NBO_ERR_CODEC;
    return ops->bound(rate, nbo_codec_elem(type), bound);
}
