/*
 * datatype.h - MPI datatypes seen as bytes.  Internal.
 *
 * The compiler works in bytes; this file turns (buffer, counts, displs,
 * type) into byte blocks, validates them, and packs or unpacks the blocks of
 * non-contiguous types with MPI_Pack / MPI_Unpack.
 */
#ifndef NBO_DATATYPE_H
#define NBO_DATATYPE_H

#include "../util/nbo_mpi.h" /* MPI by its PMPI_ names */
#include <stddef.h>

typedef struct nbo_dtype {
    MPI_Datatype type;
    size_t       size;     /* bytes of data in one element */
    MPI_Aint     extent;
    MPI_Aint     true_lb;
    MPI_Aint     true_extent;
    int          contig;   /* count elements are size*count bytes at true_lb */
} nbo_dtype_t;

/* NBO_ERR_DATATYPE for MPI_DATATYPE_NULL or an uncommitted type. */
int nbo_dtype_query(MPI_Datatype type, MPI_Comm comm, nbo_dtype_t *out);

/* One side of a call (send or receive): where block p lives and how big it
 * is.  Kept by the request for PACK/UNPACK of non-contiguous types. */
typedef struct nbo_block_map {
    nbo_dtype_t   dt;
    MPI_Datatype  owned;   /* a duplicate of dt.type we hold, or NULL type */
    int          *counts;  /* [P] elements per block */
    MPI_Aint     *displ;   /* [P] byte offset of block start (displ * extent) */
    char         *base;    /* user buffer */
    size_t       *bytes;   /* [P] data bytes per block */
    size_t       *boff;    /* [P] byte offset of the block's data (contiguous) */
    size_t        span;    /* bytes of the buffer the blocks cover (contiguous) */
    MPI_Aint      lo, hi;  /* byte range touched, relative to base (hi > lo if any) */
    nbo_dtype_t  *dts;     /* [P] a type per block (alltoallw), else NULL: dt */
    MPI_Datatype *owned_w; /* [P_w] duplicates of dts' types we hold, or NULL types */
    int           P_w;
} nbo_block_map_t;

/* Validate and describe one side.  counts/displs as the MPI call gives them
 * (displs NULL for alltoall: block p at p * count).  Errors: NBO_ERR_BUFFER,
 * NBO_ERR_COUNT, NBO_ERR_OVERFLOW, NBO_ERR_DATATYPE, NBO_ERR_NOMEM. */
int nbo_block_map_init(nbo_block_map_t *m, int P, const void *buf, const int *counts,
                       int uniform_count, const int *displs, MPI_Datatype type, MPI_Comm comm);
/* The same with a type per block and displacements in bytes (alltoallw).
 * dt.contig is set when every non-empty block is contiguous; an empty
 * block's type is not looked at. */
int nbo_block_map_init_w(nbo_block_map_t *m, int P, const void *buf, const int *counts,
                         const int *displs, const MPI_Datatype *types, MPI_Comm comm);
void nbo_block_map_free(nbo_block_map_t *m);

/* Pack block p into dst (len bytes) / unpack src into block p. */
int nbo_block_pack(const nbo_block_map_t *m, int p, void *dst, size_t len, MPI_Comm comm);
int nbo_block_unpack(const nbo_block_map_t *m, int p, const void *src, size_t len, MPI_Comm comm);

#endif
