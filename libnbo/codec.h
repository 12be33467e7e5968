/*
 * codec.h - lossy compression of all-to-all blocks (docs/compression.md).
 *
 * A codec turns one block (the values one rank sends one peer) of a scalar
 * kind into a message of a size known from the block's byte count alone, so
 * that the task list is compiled with its message sizes.  Every compressed
 * message starts with an 8-byte header (int32 exponent E of the block's
 * power-of-two scale, uint32 flags), then the payload:
 *   FP32 on doubles   the values times 2^-E, rounded to float (4 bytes each)
 *   ZFP               the values times 2^-E, ZFP fixed-rate stream of 1-D
 *                     blocks of 4 values, padded to 8 bytes
 * The sizes (codec_wire.c) are pure arithmetic, for the compiler; the
 * encoders and decoders (codec.c) run on the host as the executor meets
 * ENCODE and DECODE tasks.
 */
#ifndef NBO_CODEC_H
#define NBO_CODEC_H

#include <stddef.h>
#include <stdint.h>

/* The scalar kind of a block: a complex type is two of them per element. */
typedef enum {
    NBO_CELEM_NONE = 0, /* not a floating-point type: never compressed */
    NBO_CELEM_F64,      /* MPI_DOUBLE, MPI_C_DOUBLE_COMPLEX */
    NBO_CELEM_F32       /* MPI_FLOAT, MPI_C_FLOAT_COMPLEX */
} nbo_celem_t;

#define NBO_CODEC_HEADER 8 /* bytes before each compressed payload */
/* Header flags. */
#define NBO_CODEC_REFUSED 0x1u /* ZFP: the block held NaN or infinity; no payload */

/* Bytes of one scalar of kind elem (0 for NONE). */
size_t nbo_celem_bytes(int elem);

/* 1 when codec at rate changes blocks of kind elem: never for NONE; FP32
 * only doubles; ZFP only below the raw width (rate < 64 for doubles, < 32
 * for floats), where its messages are smaller than the data. */
int nbo_codec_applies(int codec, int rate, int elem);

/* Bytes on the wire for a block of raw_bytes (a multiple of the scalar
 * size) when the codec applies; 0 for an empty block; SIZE_MAX on
 * overflow. */
size_t nbo_codec_wire_bytes(int codec, int rate, int elem, size_t raw_bytes);

/* ZFP's bits per block of 4 values at rate (zfp_stream_set_rate, 1-D,
 * unaligned): 4 * rate, at least the block header's 1 + 11 (double) or
 * 1 + 8 (float) bits. */
unsigned nbo_codec_zfp_block_bits(int rate, int elem);

/* Encode raw_bytes of src (kind elem) into nbo_codec_wire_bytes() bytes at
 * dst.  NBO_SUCCESS; NBO_ERR_CODEC when ZFP refuses the data (NaN or
 * infinity: the message is still written, flagged, so the peer completes
 * too); NBO_ERR_NOMEM; NBO_ERR_INTERNAL for a codec not built. */
int nbo_codec_encode(int codec, int rate, int elem, const void *src, size_t raw_bytes, void *dst);

/* Decode a message into raw_bytes at dst.  NBO_ERR_CODEC for a refused
 * block (dst is filled with NaN). */
int nbo_codec_decode(int codec, int rate, int elem, const void *src, size_t raw_bytes, void *dst);

#endif /* NBO_CODEC_H */
