/**
 * \defgroup p3dfft_overlap pencil-decomposed parallel 3-D FFT with overlapped column transposes
 *
 * p3dfft_overlap.h - a pencil-decomposed parallel 3-D FFT (real-to-complex
 * and back) over FFTW and MPI, for many variables at once, with the column
 * transposes of one variable overlapped with the FFTs of the next (the
 * paper's Section V, Fig. 4).
 *
 * Model (as FFTW: plan once, execute many):
 * ~~~~~~~~~~
 *   p3o_plan_create()   collective: process grid, FFTW plans, buffers and
 *                       (mode PIPELINED_NBO) the libnbo persistent requests
 *   p3o_forward()       collective: nv real X-pencils -> nv complex Z-pencils
 *   p3o_backward()      collective: nv complex Z-pencils -> nv real X-pencils
 *   p3o_roundtrip()     collective: forward, a spectral operation on each
 *                       variable, backward, as one pipeline
 *   p3o_plan_destroy()  collective
 * ~~~~~~~~~~
 *
 * Transforms are unnormalised, as FFTW's: backward(forward(u)) equals
 * nx*ny*nz*u.  The forward transform uses the sign -1 in the exponent.
 *
 * Decomposition (P3DFFT's pencils).  The P ranks of comm form a ROW x COL
 * grid (MPI_Cart_create, ranks of one ROW communicator numbered
 * contiguously, so the row transpose stays inside a node when ranks are
 * placed in blocks).  Along a split dimension of n points over m ranks,
 * rank r owns n/m points, plus one if r < n % m.
 *
 * ~~~~~~~~~~
 *   forward:  1-D r2c FFT in X  ->  row transpose (alltoallv on ROW)
 *             1-D c2c FFT in Y  ->  column transpose (alltoallv on COL)
 *             1-D c2c FFT in Z
 *   backward: the same steps in reverse, c2r in X last.
 * ~~~~~~~~~~
 *
 * Local layouts, per variable (xs/ys/zs and xn/yn/zn are the starts and
 * sizes of p3o_local_sizes; "fastest" is the contiguous index):
 * ~~~~~~~~~~
 *   real X-pencil, input of forward, output of backward:
 *       nx x yn x zn real numbers, x fastest, then y, then z:
 *       u[(z * yn + y) * nx + x],            z < zn, y < yn, x < nx
 *   complex Z-pencil, output of forward, input of backward:
 *       xn x yn x nz complex numbers, z fastest, then y, then x:
 *       U[(x * yn + y) * nz + z],            x < xn, y < yn, z < nz
 *       holding the global coefficient (xs + x, ys + y, z) of the
 *       nx/2+1 x ny x nz half spectrum (kx = 0 .. nx/2).
 * ~~~~~~~~~~
 * The nv variables lie one after another: variable v of a real array
 * starts at element v * real_count, of a complex array at v * complex_count
 * (counts from p3o_local_sizes).  Complex numbers are (re, im) pairs of the
 * plan's precision: double[2] (fftw_complex) or float[2] (fftwf_complex).
 *
 * Modes for the nv variables:
 * ~~~~~~~~~~
 *   P3O_BLOCKING       every transpose is MPI_Alltoallv, variables one by one.
 *   P3O_PIPELINED_MPI  the paper's Fig. 4: the column transpose of variable j
 *                      runs as MPI_Ialltoallv while X-FFT, row transpose and
 *                      Y-FFT of variable j+1 compute (two communication
 *                      buffers); it is completed by MPI_Wait, then the Z-FFT
 *                      of j.  Backward likewise, in reverse.  No MPI_Test in
 *                      between: MPI progresses only when called.
 *   P3O_PIPELINED_NBO  the same pipeline over libnbo: one persistent
 *                      nbo_alltoallv_init request per communication buffer,
 *                      compiled at plan time on the COL communicator, then
 *                      nbo_start / nbo_wait per variable.  Engine and progress
 *                      mode from options->nbo_config, else the NBO_*
 *                      environment variables (NBO_ENGINE, NBO_PROGRESS, ...).
 * ~~~~~~~~~~
 * All modes compute the same numbers (the same FFTW plans, the same data
 * movement); they differ only in when the column transposes happen.
 *
 * Compression (options.codec, PIPELINED_NBO only): libnbo's lossy codecs
 * on the column exchange (and, options.compress_row, the row exchange):
 * fewer bytes on the wire for a bounded error, which p3o_compression
 * reports (docs/p3dfft_overlap.md, "Compression", derives the bounds).
 *
 * GPU data (options.device = 1, a build with CUDA): in and out are CUDA
 * device pointers with the layouts above, and so are the plan's buffers.
 * The 1-D FFTs are batched cuFFT plans (made once per plan object, the
 * same batches as the FFTW ones), the packing and local transposes a CUDA
 * kernel, all on one stream of the plan.  The exchanges: MPI_Alltoallv /
 * MPI_Ialltoallv on pinned host mirrors of the exchange buffers (MPICH is
 * not CUDA-aware), and in PIPELINED_NBO the persistent libnbo requests on
 * the device buffers themselves (libnbo stages them, pipelined; see
 * nbo.h).  Same modes, same pipeline; results equal to the CPU path's
 * within rounding (cuFFT and FFTW order their operations differently).
 * planner and wisdom_file are ignored.  The input must be complete on the
 * device when p3o_forward/backward is called (synchronise its stream); the
 * output is complete when they return.  Several ranks may share one GPU:
 * each uses the current device of its process (cudaSetDevice before
 * p3o_plan_create).  Without CUDA, or on a machine without a GPU,
 * p3o_plan_create fails with P3O_ERR_CUDA and p3o_last_error says why.
 * Tested on one H100 (P = 1 to 4 sharing it); figures in docs/cuda.md.
 *
 * Errors: every function returns P3O_SUCCESS (0) or a negative P3O_ERR_*
 * code; p3o_strerror() names the code and p3o_last_error() gives the
 * details of the last failure in this process (which argument, which MPI,
 * FFTW or libnbo call).  p3o_plan_create agrees on its result across the
 * ranks, so every rank returns the same code and none is left waiting in a
 * collective.  The execute functions check their arguments locally only: a
 * call that is bad on some ranks only is the caller's error, as in MPI.
 */
#ifndef P3DFFT_OVERLAP_H
#define P3DFFT_OVERLAP_H

#include <mpi.h>
#include <stddef.h>

#include "nbo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------------- errors */

/** \addtogroup p3dfft_overlap
 * @{
 */
/** Return codes of every function. */
enum {
    P3O_SUCCESS            =   0, /**< success */
    P3O_ERR_ARG            =  -1, /**< NULL pointer or unknown enum value        */
    P3O_ERR_SIZE           =  -2, /**< nx, ny or nz not positive                  */
    P3O_ERR_NV             =  -3, /**< nv < 1                                     */
    P3O_ERR_GRID           =  -4, /**< options row x col does not make P          */
    P3O_ERR_TOO_MANY_PROCS =  -5, /**< pencils too thin: some rank would own
                                     no points of a split dimension            */
    P3O_ERR_MISMATCH       =  -6, /**< ranks passed different arguments          */
    P3O_ERR_TOO_LARGE      =  -7, /**< a count or offset does not fit in an int   */
    P3O_ERR_NOMEM          =  -8, /**< out of memory                              */
    P3O_ERR_FFTW           =  -9, /**< FFTW could not make a plan                 */
    P3O_ERR_MPI            = -10, /**< an MPI call failed                         */
    P3O_ERR_NBO            = -11, /**< a libnbo call failed (see p3o_last_error)  */
    P3O_ERR_PLAN           = -12, /**< not a valid plan                           */
    P3O_ERR_COMM           = -13, /**< MPI_COMM_NULL or an inter-communicator      */
    P3O_ERR_CUDA           = -14, /**< options.device without CUDA or a GPU, or a
                                     CUDA / cuFFT call failed                  */
    P3O_ERR_CODEC          = -15 /**< options.codec where it cannot run: a mode
                                     whose exchanges MPI does, a GPU plan, a
                                     codec this libnbo lacks, a zfp rate out
                                     of 1..64, or an options.nbo_config whose
                                     codec differs                             */
};
/** @} */

/**
 * \defgroup p3o_strerror the message for a P3O_ERR_* code
 *
 * A static message for any code, never NULL.
 *
 * \section p3o_strerror_return RETURN VALUE
 * A static string, never NULL.
 *
 * \section p3o_strerror_errors ERRORS
 * None: it cannot fail.
 *
 * \section p3o_strerror_example EXAMPLE
 * \include api/p3o_strerror.c
 * @{
 */
const char *p3o_strerror(int err);
/** @} */

/**
 * \defgroup p3o_last_error details of the last p3dfft_overlap failure
 *
 * Details of the last failure in this process ("" if none yet).  Not
 * thread safe: call from the thread that got the error.
 *
 * \section p3o_last_error_return RETURN VALUE
 * A string owned by the library, "" when nothing failed yet; the next failure overwrites it.
 *
 * \section p3o_last_error_errors ERRORS
 * None: it cannot fail.
 *
 * \section p3o_last_error_example EXAMPLE
 * \include api/p3o_last_error.c
 * @{
 */
const char *p3o_last_error(void);
/** @} */

/* ------------------------------------------------------------------ plans */

typedef enum {
    P3O_DOUBLE = 0, /* double / fftw_complex, FFTW's fftw3 */
    P3O_SINGLE      /* float / fftwf_complex, FFTW's fftw3f */
} p3o_precision_t;

typedef enum {
    P3O_BLOCKING = 0,
    P3O_PIPELINED_MPI,
    P3O_PIPELINED_NBO
} p3o_mode_t;

typedef enum {
    P3O_PLANNER_MEASURE = 0, /* FFTW_MEASURE (default)            */
    P3O_PLANNER_ESTIMATE,    /* FFTW_ESTIMATE: instant, for tests */
    P3O_PLANNER_PATIENT      /* FFTW_PATIENT                      */
} p3o_planner_t;

/*
 * Options; p3o_options_init() sets the defaults, NULL means defaults.
 *   row, col     process grid ROW x COL (0, 0: chosen automatically with
 *                MPI_Dims_create, the larger factor on COL, within the
 *                pencil limits).  Both or neither must be set; row * col
 *                must equal the size of comm.
 *   planner      FFTW planning effort.
 *   wisdom_file  if not NULL, FFTW wisdom is imported from it (when it
 *                exists) before planning, and rank 0 of comm exports the
 *                wisdom to it afterwards.  fftw3 and fftw3f wisdom differ:
 *                use one file per precision (P3O_ERR_FFTW otherwise).
 *   nbo_config   PIPELINED_NBO only: libnbo configuration for the column
 *                communicator (NULL: libnbo defaults + NBO_* environment).
 *   device       0: host arrays, FFTW (default).  1: CUDA device arrays,
 *                cuFFT (see "GPU data" above); every rank must agree.
 *   codec        lossy compression of the exchanges (default NBO_CODEC_NONE:
 *                exact, bit-identical to the other modes).  NBO_CODEC_FP32
 *                sends doubles as floats (single-precision plans: sent as
 *                they are, exact); NBO_CODEC_ZFP, zfp fixed rate.  Only
 *                where libnbo does the exchange: mode PIPELINED_NBO on the
 *                host; any other mode, a GPU plan or a codec this libnbo
 *                lacks is P3O_ERR_CODEC.  The plan's libnbo communicators
 *                take the codec from here: NBO_CODEC and NBO_CODEC_RATE do
 *                not apply to a plan, and an options.nbo_config whose codec
 *                differs from this one is P3O_ERR_CODEC.  p3o_compression
 *                reports the bound on the transforms' error.
 *   codec_rate   zfp: bits per value, 1..64 (0: 16, libnbo's default);
 *                ignored by the other codecs.
 *   compress_row 1: the row exchange too (it then runs as a libnbo
 *                persistent request on the ROW communicator, still blocking
 *                in the pipeline); 0 (default): the column exchange only.
 *                Nothing to compress where ROW = 1.
 */
typedef struct p3o_options {
    int                 row, col;
    p3o_planner_t       planner;
    const char         *wisdom_file;
    const nbo_config_t *nbo_config;
    int                 device;
    nbo_codec_t         codec;
    int                 codec_rate;
    int                 compress_row;
} p3o_options_t;

/**
 * \defgroup p3o_options_init default options of a 3-D FFT plan
 *
 * \section p3o_options_init_return RETURN VALUE
 * None (void).
 *
 * \section p3o_options_init_errors ERRORS
 * None: a NULL options is ignored.
 *
 * \section p3o_options_init_example EXAMPLE
 * \include api/p3o_options_init.c
 * @{
 */
void p3o_options_init(p3o_options_t *options);
/** @} */

typedef struct p3o_plan *p3o_plan_t;

/**
 * \defgroup p3o_plan_create plan a multi-variable pencil 3-D FFT
 *
 * Collective over comm.  A plan for nv variables of an nx x ny x nz real
 * grid.  Limits: ROW <= min(ny, nx/2+1) and COL <= min(ny, nz), since every
 * rank must own at least one point of each dimension it splits; otherwise
 * P3O_ERR_TOO_MANY_PROCS.  The plan works on its own Cartesian
 * communicators made from comm, so comm may be freed afterwards.  With PIPELINED_NBO the MPI
 * library must provide the thread level libnbo's progress mode needs
 * (MPI_THREAD_MULTIPLE for NBO_PROGRESS=thread).
 *
 * \section p3o_plan_create_return RETURN VALUE
 * P3O_SUCCESS (0), or a negative P3O_ERR_* code (ERRORS).
 *
 * \section p3o_plan_create_errors ERRORS
 * \retval P3O_ERR_ARG plan is NULL, or an enum value or options.device is out of range.
 * \retval P3O_ERR_COMM MPI_COMM_NULL or an inter-communicator.
 * \retval P3O_ERR_SIZE Nx, ny or nz not positive.
 * \retval P3O_ERR_NV Nv < 1.
 * \retval P3O_ERR_GRID options row and col: one set without the other, or row x col is not
 *     the size of comm.
 * \retval P3O_ERR_TOO_MANY_PROCS Pencils too thin: some rank would own no points of a split
 *     dimension.
 * \retval P3O_ERR_MISMATCH Ranks passed different arguments.
 * \retval P3O_ERR_TOO_LARGE A count or offset does not fit in an int.
 * \retval P3O_ERR_NOMEM Out of memory.
 * \retval P3O_ERR_FFTW FFTW could not make a plan, or read or write the wisdom file.
 * \retval P3O_ERR_MPI An MPI call failed.
 * \retval P3O_ERR_NBO PIPELINED_NBO: nbo_comm_create or nbo_alltoallv_init failed
 *     (p3o_last_error says which, with nbo_strerror's message).
 * \retval P3O_ERR_CUDA options.device = 1 without CUDA or a GPU, or a CUDA or cuFFT call
 *     failed.
 * \retval P3O_ERR_CODEC options.codec where it cannot run: a mode other than PIPELINED_NBO,
 *     a GPU plan, a codec this libnbo lacks, a zfp rate outside 1..64, or an
 *     options.nbo_config whose codec differs.
 *
 * \section p3o_plan_create_example EXAMPLE
 * \include api/p3o_plan_create.c
 * @{
 */
int p3o_plan_create(MPI_Comm comm, int nx, int ny, int nz, int nv, p3o_precision_t precision,
                    p3o_mode_t mode, const p3o_options_t *options, p3o_plan_t *plan);
/** @} */

/**
 * \defgroup p3o_plan_destroy free a 3-D FFT plan
 *
 * Collective.  Frees everything; *plan becomes NULL.  NULL or *plan == NULL
 * is a no-op.
 *
 * \section p3o_plan_destroy_return RETURN VALUE
 * P3O_SUCCESS (0), or a negative P3O_ERR_* code (ERRORS).
 *
 * \section p3o_plan_destroy_errors ERRORS
 * \retval P3O_ERR_PLAN *plan is not a valid plan.
 *
 * \section p3o_plan_destroy_example EXAMPLE
 * \include api/p3o_plan_destroy.c
 * @{
 */
int p3o_plan_destroy(p3o_plan_t *plan);
/** @} */

/* ------------------------------------------------------------- execution */

/**
 * \defgroup p3o_forward forward real-to-complex 3-D FFT of nv variables
 *
 * Collective.  in: nv real X-pencils, out: nv complex Z-pencils (layouts
 * above).  in is not modified.  in and out must not overlap.
 *
 * \section p3o_forward_return RETURN VALUE
 * P3O_SUCCESS (0), or a negative P3O_ERR_* code (ERRORS).
 *
 * \section p3o_forward_errors ERRORS
 * \retval P3O_ERR_PLAN Not a valid plan.
 * \retval P3O_ERR_ARG a buffer is NULL, or host memory given to a GPU plan.
 * \retval P3O_ERR_MPI an exchange failed in MPI.
 * \retval P3O_ERR_NBO PIPELINED_NBO: nbo_start or nbo_wait failed (p3o_last_error has
 *     nbo_strerror's message).
 * \retval P3O_ERR_FFTW FFTW could not plan a transform for unaligned buffers.
 * \retval P3O_ERR_CUDA GPU plans: a CUDA or cuFFT call failed.
 *
 * \section p3o_forward_example EXAMPLE
 * \include api/p3o_forward.c
 * @{
 */
int p3o_forward(p3o_plan_t plan, const void *in, void *out);
/** @} */

/**
 * \defgroup p3o_backward backward complex-to-real 3-D FFT of nv variables
 *
 * Collective.  in: nv complex Z-pencils, out: nv real X-pencils.  in is not
 * modified.  in and out must not overlap.
 *
 * \section p3o_backward_return RETURN VALUE
 * P3O_SUCCESS (0), or a negative P3O_ERR_* code (ERRORS).
 *
 * \section p3o_backward_errors ERRORS
 * \retval P3O_ERR_PLAN Not a valid plan.
 * \retval P3O_ERR_ARG a buffer is NULL, or host memory given to a GPU plan.
 * \retval P3O_ERR_MPI an exchange failed in MPI.
 * \retval P3O_ERR_NBO PIPELINED_NBO: nbo_start or nbo_wait failed (p3o_last_error has
 *     nbo_strerror's message).
 * \retval P3O_ERR_FFTW FFTW could not plan a transform for unaligned buffers.
 * \retval P3O_ERR_CUDA GPU plans: a CUDA or cuFFT call failed.
 *
 * \section p3o_backward_example EXAMPLE
 * \include api/p3o_backward.c
 * @{
 */
int p3o_backward(p3o_plan_t plan, const void *in, void *out);
/** @} */

/*
 * The spectral operation of p3o_roundtrip: called on the calling rank once
 * per variable v, in order v = 0 .. nv-1, with spectrum = that variable's
 * complete complex Z-pencil (layout above; its coordinates from
 * p3o_local_sizes), before its backward transform starts.  It may change
 * the spectrum in place (a derivative, a filter, a normalisation) and must
 * not call p3o functions on the plan.  GPU plans: spectrum is device memory,
 * the plan's stream has finished writing it, and the op must have finished
 * its own GPU work on it when it returns (this GPU path compiles and has a
 * test, tests/cuda, but has not yet run on a GPU).
 */
typedef void (*p3o_spectral_fn)(void *spectrum, int v, void *arg);

/**
 * \defgroup p3o_roundtrip forward FFT, spectral operation and backward FFT as one pipeline
 *
 * Collective.  A spectral solver's step: p3o_forward(in -> spec), op on
 * each variable's spectrum, p3o_backward(spec -> out), with the same
 * results.  In the pipelined modes both directions form one pipeline: the
 * backward column transposes of the first variables start while those of
 * the last ones still go forward, and op runs while exchanges fly, so the
 * network does not idle between the two directions.  op may be NULL
 * (nothing between the legs).  spec holds the forward transforms after op
 * on return.  spec must overlap neither in nor out; in and out may be the
 * same buffer (in is read before out is written).  Counts as two calls in
 * the timers.
 *
 * \section p3o_roundtrip_return RETURN VALUE
 * P3O_SUCCESS (0), or a negative P3O_ERR_* code (ERRORS).
 *
 * \section p3o_roundtrip_errors ERRORS
 * \retval P3O_ERR_PLAN Not a valid plan.
 * \retval P3O_ERR_ARG a buffer is NULL, or host memory given to a GPU plan.
 * \retval P3O_ERR_MPI an exchange failed in MPI.
 * \retval P3O_ERR_NBO PIPELINED_NBO: nbo_start or nbo_wait failed (p3o_last_error has
 *     nbo_strerror's message).
 * \retval P3O_ERR_FFTW FFTW could not plan a transform for unaligned buffers.
 * \retval P3O_ERR_CUDA GPU plans: a CUDA or cuFFT call failed.
 *
 * \section p3o_roundtrip_example EXAMPLE
 * \include api/p3o_roundtrip.c
 * @{
 */
int p3o_roundtrip(p3o_plan_t plan, const void *in, void *spec, void *out, p3o_spectral_fn op,
                  void *arg);
/** @} */

/* ------------------------------------------------------------- geometry */

/*
 * What this rank owns.  Index 0, 1, 2 are x, y, z.
 *   xstart, xsize:  the real X-pencil (xsize[0] == nx)
 *   zstart, zsize:  the complex Z-pencil (zsize[2] == nz; x counts the
 *                   nx/2+1 complex coefficients)
 *   real_count:     xsize[0]*xsize[1]*xsize[2], real numbers per variable
 *   complex_count:  zsize[0]*zsize[1]*zsize[2], complex numbers per variable
 */
typedef struct p3o_local {
    int    nx, ny, nz, nv;
    int    xstart[3], xsize[3];
    int    zstart[3], zsize[3];
    size_t real_count, complex_count;
    int    row, col;            /* process grid ROW x COL        */
    int    row_rank, col_rank;  /* this rank's coordinates in it */
    p3o_precision_t precision;
    p3o_mode_t      mode;
    int             device;     /* 1: a GPU plan (options.device) */
} p3o_local_t;

/**
 * \defgroup p3o_local_sizes the pencils this rank owns
 *
 * \section p3o_local_sizes_return RETURN VALUE
 * P3O_SUCCESS (0), or a negative P3O_ERR_* code (ERRORS).
 *
 * \section p3o_local_sizes_errors ERRORS
 * \retval P3O_ERR_PLAN Not a valid plan.
 * \retval P3O_ERR_ARG local is NULL.
 *
 * \section p3o_local_sizes_example EXAMPLE
 * \include api/p3o_local_sizes.c
 * @{
 */
int p3o_local_sizes(p3o_plan_t plan, p3o_local_t *local);
/** @} */

/**
 * \defgroup p3o_nbo_comm the libnbo communicator of a PIPELINED_NBO plan
 *
 * The libnbo communicator of a PIPELINED_NBO plan (on its COL
 * communicator), e.g. for nbo_comm_query to see which engine and progress
 * mode it resolved to; NBO_COMM_NULL in the other modes.  Owned by the plan.
 *
 * \section p3o_nbo_comm_return RETURN VALUE
 * P3O_SUCCESS (0), or a negative P3O_ERR_* code (ERRORS).
 *
 * \section p3o_nbo_comm_errors ERRORS
 * \retval P3O_ERR_PLAN Not a valid plan.
 * \retval P3O_ERR_ARG comm is NULL.
 *
 * \section p3o_nbo_comm_example EXAMPLE
 * \include api/p3o_nbo_comm.c
 * @{
 */
int p3o_nbo_comm(p3o_plan_t plan, nbo_comm_t *comm);
/** @} */

/*
 * The compression of a plan and what it does to the results.  Local, no
 * communication (the figures were agreed at plan time).  Error bounds are
 * relative 2-norm errors of one variable over all ranks, a priori, FFTW's
 * own rounding not included (docs/p3dfft_overlap.md, "Compression",
 * derives them):
 *   value_bound     the codec's a priori bound (nbo_codec_bound): |decoded -
 *                   x| <= value_bound * max |block| for each value of a
 *                   block one rank sends one peer (a complex number counts
 *                   as two values); 0 where the data go exact
 *   exchange_bound  beta: the relative 2-norm error one compressed exchange
 *                   may add to the data it moves: value_bound for fp32
 *                   (it rounds each value), value_bound * sqrt(largest
 *                   block) for a codec stated per block only
 *   forward_bound   p3o_forward's output against the exact transform:
 *                   (1 + beta)^k - 1, k = compressed exchanges per leg
 *   backward_bound  p3o_backward's output, for spectra of real fields (as
 *                   p3o_forward makes them): sqrt(2) ((1 + beta)^k - 1)
 *   roundtrip_bound p3o_roundtrip's (or forward, scaling, backward) output
 *                   against the input, op a scaling: sqrt(2) ((1 + beta)^2k - 1)
 * Each bound is INFINITY where the codec states no a priori bound (zfp:
 * its measured envelope is in the docs) and 0 without compression.
 *   column, row     1: that exchange of this plan is compressed (row is 0
 *                   without compress_row or where ROW = 1, column where
 *                   COL = 1: only exchanges between ranks are compressed)
 *   raw_bytes       bytes this rank sends other ranks per variable and leg
 *                   (the mean of forward and backward), row and column
 *                   exchange, exact
 *   wire_bytes      the same as the codec puts them on the wire
 */
typedef struct p3o_compression {
    nbo_codec_t codec;
    int         rate;            /* zfp's bits per value; 0 for the others */
    int         column, row;
    int         exchanges;       /* k: compressed exchanges per leg (0-2)  */
    double      value_bound, exchange_bound;
    double      forward_bound, backward_bound, roundtrip_bound;
    double      raw_bytes, wire_bytes;
} p3o_compression_t;

/**
 * \defgroup p3o_compression what a plan's compressed exchanges do: codec, bytes on the wire, error bounds
 *
 * \section p3o_compression_return RETURN VALUE
 * P3O_SUCCESS (0), or a negative P3O_ERR_* code (ERRORS).
 *
 * \section p3o_compression_errors ERRORS
 * \retval P3O_ERR_PLAN Not a valid plan.
 * \retval P3O_ERR_ARG compression is NULL.
 *
 * \section p3o_compression_example EXAMPLE
 * \include api/p3o_compression.c
 * @{
 */
int p3o_compression(p3o_plan_t plan, p3o_compression_t *compression);
/** @} */

/**
 * \defgroup p3o_plan_describe one line describing a 3-D FFT plan
 *
 * A one-line description of the plan into buf (always terminated when len
 * > 0): sizes, precision, mode, grid, the libnbo engine and progress mode,
 * the codec and its bounds, e.g. "64x64x64 nv=8 double pipelined_nbo grid
 * 1x2, libnbo ucx/thread, column exchange zfp rate 16 (...)".  Local.
 *
 * \section p3o_plan_describe_return RETURN VALUE
 * P3O_SUCCESS (0), or a negative P3O_ERR_* code (ERRORS).
 *
 * \section p3o_plan_describe_errors ERRORS
 * \retval P3O_ERR_PLAN Not a valid plan.
 * \retval P3O_ERR_ARG buf is NULL.
 *
 * \section p3o_plan_describe_example EXAMPLE
 * \include api/p3o_plan_describe.c
 * @{
 */
int p3o_plan_describe(p3o_plan_t plan, char *buf, size_t len);
/** @} */

/* ---------------------------------------------------------------- timers */

/*
 * Seconds this rank spent in each stage since the plan was created or the
 * timers were last reset, summed over variables and calls.
 *   fft_x, fft_y, fft_z  the 1-D FFTs
 *   row                  row transposes: pack, MPI_Alltoallv, unpack
 *   col_local            column transposes, local part: pack and unpack
 *   col_comm             column transposes, communication: the blocking
 *                        MPI_Alltoallv, or start + wait of the non-blocking
 *                        one (so col_comm - wait is the cost of starting)
 *   wait                 pipelined modes: time blocked in MPI_Wait / nbo_wait
 *   total                wall time inside p3o_forward / p3o_backward /
 *                        p3o_roundtrip
 *   calls                number of p3o_forward + p3o_backward calls, a
 *                        p3o_roundtrip counting as two
 * Whatever total has beyond the named stages is loop overhead (and the
 * roundtrip's spectral operation).
 */
typedef struct p3o_timers {
    double fft_x, fft_y, fft_z;
    double row, col_local, col_comm, wait;
    double total;
    long   calls;
} p3o_timers_t;

/**
 * \defgroup p3o_timers time spent in each stage of the transforms
 *
 * \section p3o_timers_return RETURN VALUE
 * P3O_SUCCESS (0), or a negative P3O_ERR_* code (ERRORS).
 *
 * \section p3o_timers_errors ERRORS
 * \retval P3O_ERR_PLAN Not a valid plan.
 * \retval P3O_ERR_ARG timers is NULL (p3o_timers).
 *
 * \section p3o_timers_example EXAMPLE
 * \include api/p3o_timers.c
 * @{
 */
int p3o_timers(p3o_plan_t plan, p3o_timers_t *timers);
int p3o_timers_reset(p3o_plan_t plan);
/** @} */

/* ---------------------------------------------------------------- names */

/**
 * \defgroup p3o_mode_name names of modes and precisions
 *
 * The names: "blocking", "pipelined_mpi", "pipelined_nbo"; "double", "single".
 *
 * \section p3o_mode_name_return RETURN VALUE
 * A static string, never NULL.
 *
 * \section p3o_mode_name_errors ERRORS
 * None: a value out of range gives "unknown".
 *
 * \section p3o_mode_name_example EXAMPLE
 * \include api/p3o_mode_name.c
 * @{
 */
const char *p3o_mode_name(p3o_mode_t mode);
const char *p3o_precision_name(p3o_precision_t precision);
/** @} */

/**
 * \defgroup p3o_mode_from_name parse mode and precision names
 *
 * Parse the names above; P3O_ERR_ARG if unknown.
 *
 * \section p3o_mode_from_name_return RETURN VALUE
 * P3O_SUCCESS (0), or a negative P3O_ERR_* code (ERRORS).
 *
 * \section p3o_mode_from_name_errors ERRORS
 * \retval P3O_ERR_ARG name is NULL or not one of the names, or the output pointer is NULL.
 *
 * \section p3o_mode_from_name_example EXAMPLE
 * \include api/p3o_mode_from_name.c
 * @{
 */
int p3o_mode_from_name(const char *name, p3o_mode_t *mode);
int p3o_precision_from_name(const char *name, p3o_precision_t *precision);
/** @} */

#ifdef __cplusplus
}
#endif
#endif /* P3DFFT_OVERLAP_H */
