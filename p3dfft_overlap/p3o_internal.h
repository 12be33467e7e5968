/*
 * p3o_internal.h - the plan object and the helpers the stages share.
 * Internal to p3dfft_overlap/.
 *
 * Buffers and layouts, per variable, in complex elements (see the public
 * header for the user-visible X- and Z-pencils):
 *   xc        complex X-pencil after the X-FFT   [zc][yr][nxh]
 *   ybuf      Y-pencil                           [zc][xr][ny]
 *   zbuf      Z-pencil (backward Z-FFT output)   [xr][yc][nz]
 *   row_send, row_recv      row transpose blocks, one per ROW peer
 *   col_send[2], col_recv[2] column transpose blocks, two sets for the
 *                            pipeline (the paper's two windows)
 * where yr, zc are this rank's y (over ROW) and z (over COL) extents in the
 * X-pencil, and xr, yc its x (over ROW) and y (over COL) extents in the
 * Z-pencil.  Packing does every local transposition, so each 1-D FFT runs
 * on contiguous lines.
 */
#ifndef P3O_INTERNAL_H
#define P3O_INTERNAL_H

#include <stdint.h>
#include "../util/nbo_mpi.h" /* MPI by its PMPI_ names */

/* The library is compiled with hidden visibility (meson.build): the public
 * header, included with default visibility, makes its functions the only
 * ones libp3dfft_overlap.so exports.  The sources include it through this
 * header only. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif
#include "p3dfft_overlap.h"
#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#define P3O_PLAN_MAGIC 0x70336f70u /* "p3op" */

/* Forward or backward: selects which side of an exchange sends. */
enum { P3O_FWD = 0, P3O_BWD = 1 };

/* ---------------------------------------------------- decomposition */

/* Block split of n points over m ranks: rank i gets n/m, +1 if i < n%m. */
int p3o_split_size(int n, int m, int i);
int p3o_split_start(int n, int m, int i);

/* Choose ROW x COL for P ranks within the pencil limits (row <= row_max,
 * col <= col_max).  Returns P3O_SUCCESS or P3O_ERR_TOO_MANY_PROCS. */
int p3o_grid_choose(int P, int row_max, int col_max, int *row, int *col);

/* Counts and displacements of one all-to-all, in complex elements, for the
 * forward direction; the backward one swaps send and receive. */
typedef struct p3o_xfer {
    int  m;                 /* communicator size */
    int  me;                /* this process's rank in it */
    int *scnt, *sdsp;       /* forward send side; displacements are prefix sums */
    int *rcnt, *rdsp;       /* forward receive side */
    int *scnt_peers;        /* scnt and rcnt with the own block 0: what MPI moves */
    int *rcnt_peers;        /* for GPU plans, which copy that block on the device */
    size_t stotal, rtotal;  /* elements sent / received forward */
} p3o_xfer_t;

/* ------------------------------------------------------------- FFTs */

/* One batched 1-D FFT of either precision, planned once.  Executing it on
 * arrays whose alignment differs from the planning arrays' uses a second
 * plan made on first need with FFTW_ESTIMATE | FFTW_UNALIGNED (planning
 * with ESTIMATE never touches the arrays). */
typedef enum { P3O_FFT_R2C, P3O_FFT_C2R, P3O_FFT_C2C_FWD, P3O_FFT_C2C_BWD } p3o_fft_kind_t;

typedef struct p3o_fft {
    p3o_fft_kind_t  kind;
    p3o_precision_t prec;
    int             n, howmany;   /* lines of n points, contiguous, one after another */
    int             in_place;
    int             align_in, align_out;
    void           *plan, *plan_unaligned;
    int             gpu;          /* a cuFFT plan (cuda.c) instead of FFTW's */
    int             cuplan, have_cuplan;
} p3o_fft_t;

int  p3o_fft_plan(p3o_fft_t *f, p3o_fft_kind_t kind, p3o_precision_t prec, int n, int howmany,
                  void *in, void *out, unsigned flags);
int  p3o_fft_exec(p3o_fft_t *f, const void *in, void *out);
void p3o_fft_destroy(p3o_fft_t *f);
void *p3o_alloc(p3o_precision_t prec, size_t bytes);   /* fftw_malloc / fftwf_malloc */
void p3o_free(p3o_precision_t prec, void *p);
unsigned p3o_fftw_flags(p3o_planner_t planner);
/* Import wisdom from file if it exists; export it (one rank only). */
int  p3o_wisdom_import(p3o_precision_t prec, const char *file);
int  p3o_wisdom_export(p3o_precision_t prec, const char *file);

/* -------------------------------------------------------------- plan */

struct p3o_plan {
    uint32_t        magic;
    int             nx, ny, nz, nv, nxh;
    p3o_precision_t prec;
    p3o_mode_t      mode;
    size_t          rs, es;        /* bytes per real / complex element */
    MPI_Datatype    ctype;         /* MPI complex type of the precision */

    MPI_Comm        cart, row_comm, col_comm;
    int             row, col, row_rank, col_rank;

    /* this rank's extents (see the top of this file) */
    int             ys_r, yr, zs_c, zc;  /* X-pencil: y over ROW, z over COL */
    int             xs_r, xr, ys_c, yc;  /* Z-pencil: x over ROW, y over COL */
    size_t          n_real, n_cx, n_cy, n_cz; /* elements per variable */

    p3o_xfer_t      rowx, colx;

    void           *xc, *ybuf, *zbuf;
    void           *row_send, *row_recv;
    void           *col_send[2], *col_recv[2];

    p3o_fft_t       fx_fwd, fx_bwd, fy_fwd, fy_bwd, fz_fwd, fz_bwd;

    MPI_Request     mreq[2];       /* PIPELINED_MPI */
    nbo_comm_t      ncomm;         /* PIPELINED_NBO, on col_comm */
    nbo_request_t   nreq[2][2];    /* [direction][buffer], persistent */

    /* Compression (options.codec, PIPELINED_NBO only): ncomm carries the
     * codec; with compress_row (and ROW > 1) the row exchange runs on a
     * second libnbo communicator, one persistent request per direction,
     * started and waited for at once. */
    nbo_codec_t     codec;
    int             codec_rate;    /* zfp: the rate in effect (0 -> 16) */
    int             compress_row;
    nbo_comm_t      nrow;          /* on row_comm, or NBO_COMM_NULL */
    nbo_request_t   rreq[2];       /* [direction] */
    p3o_compression_t comp;        /* what p3o_compression reports */

    p3o_timers_t    t;

    /* GPU path (options.device, cuda.c): the buffers above are device
     * memory; the MPI exchanges run on pinned host mirrors of the exchange
     * buffers (PIPELINED_NBO gives libnbo the device buffers). */
    int             gpu;
    int             gpu_rc;        /* first failure of a kernel launch */
    void           *stream;        /* cudaStream_t of every GPU step */
    void           *row_send_h, *row_recv_h;
    void           *col_send_h[2], *col_recv_h[2];
};

/* Valid plan or NULL. */
struct p3o_plan *p3o_plan_check(p3o_plan_t plan);

/* ------------------------------------------------------ transposes */

/* Pack for / unpack after the row and column exchanges (transpose.c). */
void p3o_row_pack(struct p3o_plan *p, int dir);
void p3o_row_unpack(struct p3o_plan *p, int dir);
void p3o_col_pack(struct p3o_plan *p, int dir, int k, const void *src);
void p3o_col_unpack(struct p3o_plan *p, int dir, int k, void *dst);

/* ------------------------------------------------------- exchanges */

/* exchange.c: the row exchange (always blocking) and the column exchange
 * of buffer set k in each mode.  Return P3O_SUCCESS or an error. */
int p3o_row_exchange(struct p3o_plan *p, int dir);
int p3o_col_exchange(struct p3o_plan *p, int dir, int k);   /* blocking */
int p3o_col_start(struct p3o_plan *p, int dir, int k);      /* pipelined */
int p3o_col_wait(struct p3o_plan *p, int dir, int k);

/* Plan time, PIPELINED_NBO.  p3o_nbo_config: the libnbo configuration of
 * the plan's communicators, user's (options.nbo_config) or libnbo's
 * defaults and NBO_* environment (user NULL), with the plan's codec.
 * p3o_nbo_setup: the column communicator ncomm and its persistent requests
 * (collective over COL); p3o_nbo_setup_row: with compress_row and ROW > 1,
 * the row communicator nrow and its requests (collective over ROW).
 * p3o_nbo_teardown frees whatever exists (collective). */
int p3o_nbo_config(const struct p3o_plan *p, const nbo_config_t *user, nbo_config_t *cfg);
int p3o_nbo_setup(struct p3o_plan *p, const nbo_config_t *cfg);
int p3o_nbo_setup_row(struct p3o_plan *p, const nbo_config_t *cfg);
void p3o_nbo_teardown(struct p3o_plan *p);

/* compress.c: the plan's compression figures (p3o_compression), collective
 * over the grid (the largest block over all ranks). */
int p3o_compression_setup(struct p3o_plan *p);

/* ------------------------------------------------------- GPU (cuda.c) */

/* Stubs that fail with P3O_ERR_CUDA without a CUDA build. */
int   p3o_cuda_probe(void);                       /* a GPU is usable */
int   p3o_cuda_is_device(const void *ptr);        /* device or managed memory */
int   p3o_cuda_setup(struct p3o_plan *p);         /* the stream */
void  p3o_cuda_teardown(struct p3o_plan *p);
void *p3o_cuda_alloc(size_t bytes, int pinned_host); /* cudaMalloc / cudaHostAlloc */
void  p3o_cuda_free(void *ptr, int pinned_host);
int   p3o_cuda_sync(struct p3o_plan *p);          /* wait for the stream */
int   p3o_cuda_copy(struct p3o_plan *p, void *dst, const void *src, size_t bytes); /* queued on the stream */
int   p3o_cuda_box(struct p3o_plan *p, void *dst, const void *src, const size_t n[3],
                   const size_t dst_stride[3], const size_t src_stride[3]);
int   p3o_cufft_plan(struct p3o_plan *p, p3o_fft_t *f, p3o_fft_kind_t kind, int n, int howmany,
                     int in_place);
int   p3o_cufft_exec(p3o_fft_t *f, const void *in, void *out);
void  p3o_cufft_destroy(p3o_fft_t *f);

/* ------------------------------------------------------------ errors */

/* Record a detail message for p3o_last_error() and return err. */
int p3o_fail(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
