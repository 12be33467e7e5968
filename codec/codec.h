/*
 * codec.h - lossy compression of all-to-all blocks (docs/compression.md):
 * the contract between the core (libnbo/) and the codecs (codec/), as
 * engine.h is for engines and memory.h for memory types.
 *
 * A codec turns one block (the values one rank sends one peer) of a scalar
 * kind into messages whose sizes follow from the block's byte count alone,
 * so that the task list is compiled with them.  A block travels in chunks
 * (nbo_codec_chunk_bytes), each its own message: an 8-byte header (int32
 * exponent E of the chunk's power-of-two scale, uint32 flags), then the
 * payload:
 *   FP32 on doubles   the values times 2^-E, rounded to float (4 bytes each)
 *   ZFP               the values times 2^-E, ZFP fixed-rate stream of 1-D
 *                     blocks of 4 values, padded to 8 bytes
 *
 * Two parts.  The wire format (wire.c: which blocks a codec changes and
 * the sizes of its messages) is pure arithmetic, the same for every build:
 * the compiler sizes a list with it, and libp3dfft_overlap counts its
 * bytes with it.  The kernels are one ops table per codec (none, fp32,
 * zfp: registry.c, fp32.c, zfp.c), found by nbo_codec_find; the core runs
 * ENCODE and DECODE tasks through them, on the host.
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

/* Raw bytes per message of a compressed block, unless a caller names
 * another: coding then overlaps the transfers even with one peer. */
#define NBO_CODEC_CHUNK ((size_t)128 << 10)

/* ------------------------------------------------ wire format (wire.c) */

/* Bytes of one scalar of kind elem (0 for NONE). */
size_t nbo_celem_bytes(int elem);

/* 1 when codec at rate changes blocks of kind elem: never for NONE; FP32
 * only doubles; ZFP only below the raw width (rate < 64 for doubles, < 32
 * for floats), where its messages are smaller than the data. */
int nbo_codec_applies(int codec, int rate, int elem);

/* Bytes on the wire for one message of raw_bytes (a multiple of the scalar
 * size) when the codec applies; 0 for an empty one; SIZE_MAX on
 * overflow.  The one formula for a message's size. */
size_t nbo_codec_wire_bytes(int codec, int rate, int elem, size_t raw_bytes);

/* The raw bytes per message: chunk (0: NBO_CODEC_CHUNK) rounded down to
 * whole blocks of 4 scalars of kind elem, at least one such block. */
size_t nbo_codec_chunk_bytes(int elem, size_t chunk);

/* Bytes on the wire for a whole block of raw_bytes cut into messages of
 * nbo_codec_chunk_bytes(elem, chunk): the sum of their sizes when the
 * codec applies, raw_bytes when it leaves the block exact; SIZE_MAX on
 * overflow. */
size_t nbo_codec_block_wire_bytes(int codec, int rate, int elem, size_t raw_bytes, size_t chunk);

/* ZFP's bits per block of 4 values at rate (zfp_stream_set_rate, 1-D,
 * unaligned): 4 * rate, at least the block header's 1 + 11 (double) or
 * 1 + 8 (float) bits. */
unsigned nbo_codec_zfp_block_bits(int rate, int elem);

/* ------------------------------------------------ kernels (ops tables) */

typedef struct nbo_codec_ops {
    const char *name;
    /* A line on the codec (its library's version, say), for
     * nbo_codec_available. */
    void (*describe)(char *detail, size_t len);
    /* The a priori bound b of nbo_codec_bound at rate on kind elem:
     * NBO_SUCCESS with *bound (0 where the codec leaves elem exact), or
     * NBO_ERR_CODEC (a rate out of range; no bound stated). */
    int (*bound)(int rate, int elem, double *bound);
    /* Encode one message: raw_bytes of src (kind elem, a codec that
     * applies) into nbo_codec_wire_bytes() bytes at dst.  NBO_SUCCESS;
     * NBO_ERR_CODEC when the codec refuses the data (the message is still
     * written, flagged, so the peer completes too); NBO_ERR_NOMEM;
     * NBO_ERR_INTERNAL for arguments the codec does not apply to. */
    int (*encode)(int rate, int elem, const void *src, size_t raw_bytes, void *dst);
    /* Decode a message into raw_bytes at dst.  NBO_ERR_CODEC for a refused
     * block (dst is filled with NaN). */
    int (*decode)(int rate, int elem, const void *src, size_t raw_bytes, void *dst);
} nbo_codec_ops_t;

/* The ops table of an nbo_codec_t, or NULL: not a codec, or one this
 * build leaves out; *why (may be NULL) then says which, in a line. */
const nbo_codec_ops_t *nbo_codec_find(int codec, const char **why);

#endif /* NBO_CODEC_H */
