/* wire.c - the wire format of the codecs (codec.h): which blocks a codec
 * changes and the sizes of its messages.  Pure arithmetic, for the
 * compiler, the kernels and libp3dfft_overlap alike. */
#include <stdint.h>

#include <nbo.h>
#include "codec.h"

size_t nbo_celem_bytes(int elem)
{
    return elem == NBO_CELEM_F64 ? 8 : elem == NBO_CELEM_F32 ? 4 : 0;
}

int nbo_codec_applies(int codec, int rate, int elem)
{
    if (elem != NBO_CELEM_F64 && elem != NBO_CELEM_F32)
        return 0;
    switch (codec) {
    case NBO_CODEC_FP32: return elem == NBO_CELEM_F64;
    case NBO_CODEC_ZFP:  return rate >= 1 && (size_t)rate < 8 * nbo_celem_bytes(elem);
    }
    return 0;
}

unsigned nbo_codec_zfp_block_bits(int rate, int elem)
{
    unsigned bits = 4u * (unsigned)rate, least = elem == NBO_CELEM_F64 ? 1 + 11 : 1 + 8;
    return bits > least ? bits : least;
}

size_t nbo_codec_wire_bytes(int codec, int rate, int elem, size_t raw_bytes)
{
    const size_t w = nbo_celem_bytes(elem);
    if (!raw_bytes || !w)
        return 0;
    const size_t n = raw_bytes / w; /* values */
    if (codec == NBO_CODEC_FP32)
        return n > (SIZE_MAX - NBO_CODEC_HEADER) / 4 ? SIZE_MAX : NBO_CODEC_HEADER + 4 * n;
    /* ZFP: ceil(n / 4) blocks of the same number of bits, the stream
     * flushed to whole 64-bit words (enough for any stream word size). */
    const size_t blocks = n / 4 + (n % 4 != 0), bits = nbo_codec_zfp_block_bits(rate, elem);
    if (blocks > (SIZE_MAX - 64) / bits)
        return SIZE_MAX;
    const size_t words = (blocks * bits + 63) / 64;
    return words > (SIZE_MAX - NBO_CODEC_HEADER) / 8 ? SIZE_MAX : NBO_CODEC_HEADER + 8 * words;
}

size_t nbo_codec_chunk_bytes(int elem, size_t chunk)
{
    const size_t quad = 4 * nbo_celem_bytes(elem);
    size_t c = chunk ? chunk : NBO_CODEC_CHUNK;
    if (!quad)
        return c;
    c -= c % quad;
    return c < quad ? quad : c;
}

size_t nbo_codec_block_wire_bytes(int codec, int rate, int elem, size_t raw_bytes, size_t chunk)
{
    if (!nbo_codec_applies(codec, rate, elem))
        return raw_bytes;
    const size_t c = nbo_codec_chunk_bytes(elem, chunk), full = raw_bytes / c, rest = raw_bytes % c;
    const size_t one = nbo_codec_wire_bytes(codec, rate, elem, c);
    const size_t last = nbo_codec_wire_bytes(codec, rate, elem, rest);
    if (one == SIZE_MAX || last == SIZE_MAX || (full && one > (SIZE_MAX - last) / full))
        return SIZE_MAX;
    return full * one + last;
}
