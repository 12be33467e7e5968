/**
 * \defgroup nbo non-blocking MPI collectives that progress in the background
 *
 * nbo.h - libnbo, non-blocking collectives (all-to-all(v), allreduce,
 * reduce-scatter(-block), allgather(v), broadcast, barrier, reduce, scan,
 * exscan, gather(v), scatter(v), the neighbourhood collectives) that progress in
 * the background.  The one public header.
 *
 * Model (as FFTW: plan once, execute many):
 * ~~~~~~~~~~
 *   nbo_comm_create()      bootstrap libnbo on an MPI communicator (collective)
 *   nbo_ialltoall[v]()     compile the call into a task list and start it
 *                          (nbo_iallreduce, nbo_iallgather[v], nbo_ibcast,
 *                          nbo_ireduce_scatter_block alike)
 *   nbo_alltoall[v]_init() compile once into a persistent request (and
 *                          the *_init form of each collective) ...
 *   nbo_start()            ... and only re-arm it on each start
 *   nbo_test/wait[all]()   complete requests, MPI semantics
 * ~~~~~~~~~~
 *
 * Every function returns NBO_SUCCESS (0) or a negative NBO_ERR_* code;
 * nbo_strerror() turns a code into a message.  No function aborts on bad
 * input.
 *
 * Request semantics follow MPI: a completed non-persistent request is freed
 * by nbo_wait or by an nbo_test that reports completion, and the handle is
 * set to NBO_REQUEST_NULL.  A persistent request lives until
 * nbo_request_free; waiting on an inactive persistent request returns at once.
 * Waiting on NBO_REQUEST_NULL succeeds at once and testing it reports it
 * complete, as MPI_Wait and MPI_Test do on MPI_REQUEST_NULL.
 *
 * Collective rules follow MPI too: every rank of the communicator calls the
 * collective functions (create, free, the i* collectives, *_init) in the
 * same order.
 */
#ifndef NBO_H
#define NBO_H

#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* libnbo's own sources are compiled with hidden visibility and with
 * NBO_BUILDING_LIBNBO defined: the functions declared here, and only
 * they, are exported from libnbo.so (libnbo/libnbo.map versions them). */
#if defined(NBO_BUILDING_LIBNBO) && defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* ---------------------------------------------------------------- version */

#include "nbo_version.h" /* NBO_VERSION_MAJOR, _MINOR, _PATCH, _STRING (meson) */

/**
 * \defgroup nbo_version the libnbo version string
 *
 * NBO_VERSION_STRING of the library in use, e.g. "0.1.0".
 *
 * \section nbo_version_return RETURN VALUE
 * A static string such as "0.1.0", never NULL.
 *
 * \section nbo_version_errors ERRORS
 * None: it cannot fail.
 *
 * \section nbo_version_example EXAMPLE
 * \include api/nbo_version.c
 * @{
 */
const char *nbo_version(void);
/** @} */

/* ----------------------------------------------------------------- errors */

/** \addtogroup nbo
 * @{
 */
/** Return codes of every function. */
enum {
    NBO_SUCCESS             =   0, /**< success */
    NBO_ERR_ARG             =  -1, /**< an invalid argument not covered below  */
    NBO_ERR_BUFFER          =  -2, /**< NULL buffer with a nonzero count        */
    NBO_ERR_COUNT           =  -3, /**< negative count or displacement          */
    NBO_ERR_OVERFLOW        =  -4, /**< a byte size or offset overflows         */
    NBO_ERR_DATATYPE        =  -5, /**< MPI_DATATYPE_NULL or not committed      */
    NBO_ERR_COMM            =  -6, /**< NULL, freed or unusable communicator    */
    NBO_ERR_REQUEST_NULL    =  -7, /**< operation on NBO_REQUEST_NULL           */
    NBO_ERR_REQUEST         =  -8, /**< not a valid request handle              */
    NBO_ERR_ACTIVE          =  -9, /**< request still active (start, free)      */
    NBO_ERR_PENDING         = -10, /**< communicator still has live requests   */
    NBO_ERR_NOMEM           = -11, /**< out of memory                           */
    NBO_ERR_MPI             = -12, /**< an MPI call failed                      */
    NBO_ERR_ENGINE          = -13, /**< engine not built or not usable here     */
    NBO_ERR_CONFIG          = -14, /**< bad configuration value (NBO_* or struct) */
    NBO_ERR_THREAD_LEVEL    = -15, /**< MPI thread level too low for this mode  */
    NBO_ERR_TIMEOUT         = -16, /**< no progress within the timeout          */
    NBO_ERR_TRANSPORT       = -17, /**< the network reported an error           */
    NBO_ERR_PEER            = -18, /**< a peer failed or disconnected           */
    NBO_ERR_MISMATCH        = -19, /**< ranks called with mismatched arguments  */
    NBO_ERR_INTERNAL        = -20, /**< a libnbo bug: please report it          */
    NBO_ERR_OVERLAP         = -21, /**< send and receive buffers overlap        */
    NBO_ERR_DEVICE          = -22, /**< unsupported use of GPU device memory    */
    NBO_ERR_CUDA            = -23, /**< no CUDA in this build or machine, or a
                                      CUDA runtime call failed               */
    NBO_ERR_ROOT            = -24, /**< root out of range                       */
    NBO_ERR_OP              = -25, /**< MPI_OP_NULL, or an op not defined on the
                                      datatype                               */
    NBO_ERR_CODEC           = -26 /**< codec not available in this build (zfp
                                      without libzfp) or invalid codec
                                      setting, or data the codec refuses
                                      (NaN or infinity under zfp)            */
};
/** @} */

/**
 * \defgroup nbo_strerror the message for an NBO_ERR_* code
 *
 * A static message for any code, never NULL ("unknown error" if unknown).
 *
 * \section nbo_strerror_return RETURN VALUE
 * A static string, never NULL ("unknown error" for a code that is none).
 *
 * \section nbo_strerror_errors ERRORS
 * None: it cannot fail.
 *
 * \section nbo_strerror_example EXAMPLE
 * \include api/nbo_strerror.c
 * @{
 */
const char *nbo_strerror(int err);
/** @} */

/* --------------------------------------------------------- configuration */

/* Engines are named ("mpi", "ucx", "verbs", ...): nbo_engine_at lists
 * those built into this libnbo; "auto" picks the first usable one. */
#define NBO_ENGINE_NAME_MAX 16 /* bytes of an engine's name, with its NUL */

typedef enum {
    NBO_PROGRESS_AUTO = 0, /* a thread when the engine needs the host for waits */
    NBO_PROGRESS_INLINE,   /* progress only inside nbo_test / nbo_wait          */
    NBO_PROGRESS_THREAD    /* one background progress thread per process        */
} nbo_progress_mode_t;

/* How the progress thread is scheduled (docs/configuration.md has the
 * measurements behind the default). */
typedef enum {
    NBO_PROGRESS_SCHED_AUTO = 0, /* batch while every thread-mode engine has a
                                    descriptor to sleep on, else normal      */
    NBO_PROGRESS_SCHED_BATCH,    /* SCHED_BATCH: its wake-ups never preempt the
                                    application; it runs on an idle core at
                                    once, on a busy one at the next tick     */
    NBO_PROGRESS_SCHED_NORMAL    /* SCHED_OTHER: a wake-up may preempt the
                                    application thread that caused it        */
} nbo_progress_sched_t;

/* Algorithms; each collective uses those it has (docs/configuration.md),
 * and a request for one it has not gets its automatic choice. */
typedef enum {
    NBO_ALG_AUTO = 0,           /* chosen by collective, size and P            */
    NBO_ALG_PAIRWISE,           /* pairwise exchange in windows of W sends     */
    NBO_ALG_BRUCK,              /* Bruck, ceil(log2 P) rounds                  */
    NBO_ALG_RING,               /* P - 1 steps to the next rank                */
    NBO_ALG_RECURSIVE_DOUBLING, /* log2 P exchanges of doubling size           */
    NBO_ALG_RABENSEIFNER,       /* reduce-scatter by halving, then allgather   */
    NBO_ALG_RECURSIVE_HALVING,  /* log2 P exchanges of halving size            */
    NBO_ALG_BINOMIAL,           /* a binomial tree from the root               */
    NBO_ALG_SCATTER_ALLGATHER,  /* scatter from the root, then a ring allgather */
    NBO_ALG_ORDERED,            /* keeps rank order: non-commutative operations */
    NBO_ALG_DISSEMINATION,      /* ceil(log2 P) rounds to rank + 2^k (barrier)  */
    NBO_ALG_LINEAR              /* the root sends or receives every block itself */
} nbo_algorithm_t;

/* Lossy compression of floating-point all-to-all payloads (opt-in, per
 * communicator; docs/compression.md).  Applied only by the all-to-all family
 * (nbo_ialltoall[v], nbo_alltoall[v]_init) when the send and receive types
 * are both exactly one of MPI_DOUBLE, MPI_FLOAT, MPI_C_DOUBLE_COMPLEX,
 * MPI_C_FLOAT_COMPLEX; any other call is exact, with no error. */
typedef enum {
    NBO_CODEC_NONE = 0, /* exact (default)                                  */
    NBO_CODEC_FP32,     /* double -> float on the wire (float payloads: sent
                           as is)                                           */
    NBO_CODEC_ZFP       /* ZFP fixed rate, codec_rate bits per value        */
} nbo_codec_t;

/*
 * Configuration of one nbo communicator.  Fill it with nbo_config_init()
 * (defaults), optionally nbo_config_from_env() (NBO_* variables), then set
 * fields.  Passing NULL to nbo_comm_create means "defaults + environment".
 *
 * Each field has one NBO_* variable; `nbo_info -c` lists them with their
 * defaults, ranges and meanings, as do docs/configuration.md and nbo(3)
 * (ENVIRONMENT), all from libnbo's one table of them.
 */
/* What a persistent request's first starts try (docs/tuning.md): nothing,
 * algorithms and windows, only windows, or only algorithms. */
typedef enum {
    NBO_TUNE_OFF = 0,
    NBO_TUNE_ON,
    NBO_TUNE_WINDOW,
    NBO_TUNE_ALGORITHM,
} nbo_tune_t;

typedef struct nbo_config {
    char                engine[NBO_ENGINE_NAME_MAX]; /* "auto" or a name */
    nbo_progress_mode_t progress;
    nbo_algorithm_t     algorithm;
    int                 window;
    size_t              bruck_max;
    int                 timeout_ms;
    int                 progress_cpu;   /* >= 0, -1, or NBO_PROGRESS_CPU_LAST */
    int                 spin_us;
    int                 foreground_us;
    nbo_progress_sched_t progress_sched;
    int                 check;
    size_t              cuda_chunk;
    size_t              allreduce_small;
    size_t              allgather_small;
    size_t              bcast_small;
    nbo_codec_t         codec;
    int                 codec_rate;
    int                 log;            /* 1: engines say why they fall back */
    nbo_tune_t          tune;           /* persistent requests: what their first starts try */
    size_t              gather_small;   /* gather, scatter: binomial up to this block size */
    int                 tune_calls;     /* 1: NBO_TUNE also learns for non-persistent calls */
    size_t              reduce_large;   /* reduce, commutative op: Rabenseifner above this vector size */
} nbo_config_t;

/* progress_cpu: the highest-numbered core of the affinity mask the process
 * has when the thread starts (the launcher's binding), so that every rank
 * bound to its own cores puts its thread on its own spare core. */
#define NBO_PROGRESS_CPU_LAST (-2)

/**
 * \defgroup nbo_config_init default configuration of a communicator
 *
 * Defaults, ignoring the environment.
 *
 * \section nbo_config_init_return RETURN VALUE
 * None (void).
 *
 * \section nbo_config_init_errors ERRORS
 * None: a NULL config is ignored.
 *
 * \section nbo_config_init_example EXAMPLE
 * \include api/nbo_config_init.c
 * @{
 */
void nbo_config_init(nbo_config_t *config);
/** @} */

/**
 * \defgroup nbo_config_from_env configuration from the NBO_* environment variables
 *
 * Overwrite fields from the NBO_* variables of nbo_config_t that are set
 * (an empty one counts as unset).  Every variable is read: each bad value
 * is printed to stderr ("libnbo: NBO_WINDOW=abc is not valid (expected
 * ...)"), the valid ones are applied, and NBO_ERR_CONFIG is returned if any
 * was bad.  NBO_ERR_ARG for a NULL config.
 *
 * \section nbo_config_from_env_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_config_from_env_errors ERRORS
 * \retval NBO_ERR_ARG config is NULL.
 * \retval NBO_ERR_CONFIG a variable that is set holds a value it does not accept; each such
 *     variable is named on stderr, the valid ones are applied.
 *
 * \section nbo_config_from_env_example EXAMPLE
 * \include api/nbo_config_from_env.c
 * @{
 */
int nbo_config_from_env(nbo_config_t *config);
/** @} */

/**
 * \defgroup nbo_config_set set one configuration field from an NBO_* name and value
 *
 * Set the field of one variable of nbo_config_t from a string, as
 * nbo_config_from_env reads it: nbo_config_set(&c, "NBO_WINDOW", "16").
 * Prints nothing.  NBO_ERR_CONFIG for a value the variable does not
 * accept (the field is left as it was), NBO_ERR_ARG for a name not in the
 * table or a NULL argument.  nbo_info(1) uses it to name each bad
 * variable.
 *
 * \section nbo_config_set_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_config_set_errors ERRORS
 * \retval NBO_ERR_ARG an argument is NULL, or name is not a variable of nbo_config_t.
 * \retval NBO_ERR_CONFIG value is not valid for name; the field is left as it was.
 *
 * \section nbo_config_set_example EXAMPLE
 * \include api/nbo_config_set.c
 * @{
 */
int nbo_config_set(nbo_config_t *config, const char *name, const char *value);
/** @} */

/**
 * \defgroup nbo_progress_name names of progress modes, algorithms and codecs
 *
 * Names for printing ("thread", "pairwise", ...).
 *
 * \section nbo_progress_name_return RETURN VALUE
 * A static string, never NULL.
 *
 * \section nbo_progress_name_errors ERRORS
 * None: a value out of range gives "?".
 *
 * \section nbo_progress_name_example EXAMPLE
 * \include api/nbo_progress_name.c
 * @{
 */
const char *nbo_progress_name(nbo_progress_mode_t mode);
const char *nbo_algorithm_name(nbo_algorithm_t alg);
const char *nbo_progress_sched_name(nbo_progress_sched_t sched);
const char *nbo_codec_name(nbo_codec_t codec);
/** @} */

/* ---------------------------------------------------------- communicators */

typedef struct nbo_comm *nbo_comm_t;
#define NBO_COMM_NULL ((nbo_comm_t)0)

/**
 * \defgroup nbo_comm_create bootstrap libnbo on an MPI communicator
 *
 * Collective over comm (an intra-communicator; MPI must be initialised).
 * The engine gets a private duplicate of comm (MPI_Comm_dup), so libnbo
 * traffic never matches the application's messages, and connects every
 * pair of ranks: the UCX engine exchanges worker addresses (MPI_Allgatherv)
 * and opens an endpoint to each peer, the verbs engine one RC queue pair
 * per peer (MPI_Alltoall of their addresses); the MPI engine needs nothing
 * more.  The cost grows with the size of comm: create a communicator once
 * and use it for many calls.  config NULL means nbo_config_init +
 * nbo_config_from_env.  Past the checks of its arguments every rank returns
 * the same code; on failure *out is NBO_COMM_NULL.
 *
 * \section nbo_comm_create_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_comm_create_errors ERRORS
 * \retval NBO_ERR_ARG out is NULL.
 * \retval NBO_ERR_COMM comm is MPI_COMM_NULL or an inter-communicator.
 * \retval NBO_ERR_MPI MPI is not initialised or already finalised, or an MPI call failed.
 * \retval NBO_ERR_CONFIG the configuration holds an invalid value (a bad NBO_* variable is
 *     named on stderr), or the engine asked for rejects one of its settings.
 * \retval NBO_ERR_ENGINE the engine asked for is not built or not usable on every rank (auto
 *     falls back to the MPI engine, which always is).
 * \retval NBO_ERR_THREAD_LEVEL progress thread asked for, but MPI does not provide
 *     MPI_THREAD_MULTIPLE.
 * \retval NBO_ERR_CODEC codec zfp in a build without libzfp (nbo_codec_available); every
 *     rank returns it.
 * \retval NBO_ERR_TIMEOUT the engine could not connect to every peer within NBO_TIMEOUT.
 * \retval NBO_ERR_PEER a peer failed while the engine connected to it.
 * \retval NBO_ERR_TRANSPORT the network reported an error while the engine connected.
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * \section nbo_comm_create_example EXAMPLE
 * \include api/nbo_comm_create.c
 * @{
 */
int nbo_comm_create(MPI_Comm comm, const nbo_config_t *config, nbo_comm_t *out);
/** @} */

/**
 * \defgroup nbo_comm_free free an nbo communicator
 *
 * Collective.  Call it before MPI_Finalize, after completing every request
 * of the communicator (nbo_wait) and freeing its persistent ones
 * (nbo_request_free): it fails with NBO_ERR_PENDING while requests created
 * on comm are still live (active, or persistent and not freed).  On success
 * *comm is set to NBO_COMM_NULL.  After a fault (a request failed on comm)
 * it is local.  The ranks' agreement is bounded by NBO_TIMEOUT: when a peer
 * does not answer (it died after its last operation) the communicator is
 * released all the same, *comm set to NBO_COMM_NULL, and NBO_ERR_TIMEOUT
 * returned.
 *
 * \section nbo_comm_free_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_comm_free_errors ERRORS
 * \retval NBO_ERR_ARG comm is NULL.
 * \retval NBO_ERR_COMM *comm is not a live nbo communicator.
 * \retval NBO_ERR_PENDING requests made on the communicator are still live (active, or
 *     persistent and not freed); nothing is released.
 * \retval NBO_ERR_TIMEOUT a peer did not answer within NBO_TIMEOUT; the communicator is
 *     released all the same and *comm set to NBO_COMM_NULL.
 * \retval NBO_ERR_MPI the agreement with the peers failed; the communicator is released all
 *     the same.
 *
 * \section nbo_comm_free_example EXAMPLE
 * \include api/nbo_comm_free.c
 * @{
 */
int nbo_comm_free(nbo_comm_t *comm);
/** @} */

/* What a communicator resolved its configuration to. */
typedef struct nbo_comm_info {
    char                engine[NBO_ENGINE_NAME_MAX]; /* in use, never "auto" */
    nbo_progress_mode_t progress;    /* never AUTO: the mode in use          */
    int                 size, rank;
    int                 window;
    size_t              bruck_max;
    unsigned            engine_caps; /* NBO_CAP_* bits below                */
    char                engine_detail[128]; /* e.g. device or transports    */
    nbo_codec_t         codec;       /* the codec of the all-to-all family  */
    int                 codec_rate;  /* zfp's bits per value (as configured) */
} nbo_comm_info_t;

/* Engine capability bits, as reported in nbo_comm_info_t.engine_caps. */
#define NBO_CAP_HW_WAITS  0x1u /* the network runs task lists (ofi: deferred work) */
#define NBO_CAP_OFFLOAD   0x2u /* data moves without the host (RDMA)           */
#define NBO_CAP_EVENT_FD  0x4u /* a completion fd to sleep on                  */
#define NBO_CAP_DEVICE_MEM 0x8u /* moves CUDA device memory itself (UCX built
                                   with CUDA); else device buffers are staged */

/**
 * \defgroup nbo_comm_query the engine and configuration a communicator resolved to
 *
 * \section nbo_comm_query_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_comm_query_errors ERRORS
 * \retval NBO_ERR_ARG info is NULL.
 * \retval NBO_ERR_COMM comm is not a live nbo communicator.
 *
 * \section nbo_comm_query_example EXAMPLE
 * \include api/nbo_comm_query.c
 * @{
 */
int nbo_comm_query(nbo_comm_t comm, nbo_comm_info_t *info);
/** @} */

/**
 * \defgroup nbo_engine_at the engines built into libnbo; whether one is usable on this machine
 *
 * The engines built into this libnbo.  nbo_engine_at: the i-th (i from 0),
 * in the order NBO_ENGINE=auto tries them, or NULL past the last, so that
 * for (i = 0; nbo_engine_at(i); i++) lists them.  nbo_engine_available: is
 * the engine called name (case ignored) built in and usable on this
 * machine?  Local, no MPI communication (MPI must be initialized);
 * NBO_SUCCESS, or NBO_ERR_ENGINE (not built in, or not usable here), or
 * NBO_ERR_CONFIG (the engine rejects a value of its NBO_* variables or of
 * its library's); detail (may be NULL) gets a line such as the device, the
 * transports, or why not.
 *
 * \section nbo_engine_at_return RETURN VALUE
 * nbo_engine_at: a static string, or NULL when i is past the last engine (or negative).  nbo_engine_available: NBO_SUCCESS or an error below.
 *
 * \section nbo_engine_at_errors ERRORS
 * \retval NBO_ERR_ARG nbo_engine_available: name is NULL.
 * \retval NBO_ERR_ENGINE nbo_engine_available: no engine of that name is built into this
 *     libnbo, or it is not usable here (detail says why).
 * \retval NBO_ERR_CONFIG nbo_engine_available: the engine rejects a value of its NBO_*
 *     variables or of its library's (UCX_*), named on stderr.
 *
 * \section nbo_engine_at_example EXAMPLE
 * \include api/nbo_engine_at.c
 * @{
 */
const char *nbo_engine_at(int i);
int nbo_engine_available(const char *name, char *detail, size_t len);
/** @} */

/* ------------------------------------------------------------ compression */

/**
 * \addtogroup nbo
 * \section nbo_compression COMPRESSION
 * A communicator whose config has codec != NBO_CODEC_NONE compresses each
 * floating-point block of its all-to-alls (nbo_ialltoall[v] and the
 * persistent forms) on the host: the block for a peer is encoded just
 * before its send, a received block decoded just after its receive
 * completes, so that encoding the next blocks and decoding the finished
 * ones overlap the transfers in flight.  The choice is per communicator,
 * not per call, because a persistent request fixes its message sizes when
 * it is compiled and the call signatures stay MPI's: create a second nbo
 * communicator on the same MPI communicator for exact exchanges beside
 * lossy ones.  Every rank must pass the same datatype handle (one of the
 * four) when a codec is on.  The own block (a rank to itself) is copied
 * exactly.  Device (GPU) buffers with a codec: NBO_ERR_DEVICE.
 * docs/compression.md has the formats, bounds and measurements.
 */

/**
 * \defgroup nbo_codec_available whether a codec of compressed all-to-alls is built into libnbo
 *
 * Is this codec built into libnbo?  Local, no MPI.  NBO_SUCCESS or
 * NBO_ERR_CODEC (zfp in a build without libzfp, or a value that is no
 * codec); detail (may be NULL) gets a line such as the library version,
 * or why not.
 *
 * \section nbo_codec_available_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_codec_available_errors ERRORS
 * \retval NBO_ERR_CODEC zfp in a libnbo built without libzfp, or a value that is no codec
 *     (detail says why).
 *
 * \section nbo_codec_available_example EXAMPLE
 * \include api/nbo_codec_available.c
 * @{
 */
int nbo_codec_available(nbo_codec_t codec, char *detail, size_t len);
/** @} */

/**
 * \defgroup nbo_codec_bound the a priori error bound of a codec on a datatype
 *
 * The a priori error bound of a codec at a rate on one datatype: every
 * value x of a block decodes with |decoded - x| <= *bound * max|block| (a
 * block: the values one rank sends one peer in one call; a complex number
 * counts as two values), when the block holds finite values only.  *bound = 0 for
 * NBO_CODEC_NONE and for a datatype or rate the codec leaves exact.
 * NBO_ERR_CODEC for a codec that is not available, a rate outside 1..64
 * (zfp), or where no a priori bound can be stated: zfp at every rate where
 * it compresses (fixed rate fixes the size, not the error;
 * docs/compression.md gives the measured errors); NBO_ERR_ARG for a NULL
 * bound.  Local, no MPI communication.
 *
 * \section nbo_codec_bound_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_codec_bound_errors ERRORS
 * \retval NBO_ERR_ARG bound is NULL.
 * \retval NBO_ERR_CODEC the codec is not available, the rate is outside 1..64 for zfp, or no
 *     a priori bound can be stated (zfp where docs/compression.md gives only measured
 *     errors); *bound is 0.
 *
 * \section nbo_codec_bound_example EXAMPLE
 * \include api/nbo_codec_bound.c
 * @{
 */
int nbo_codec_bound(nbo_codec_t codec, int rate, MPI_Datatype type, double *bound);
/** @} */

/* ------------------------------------------------------------ GPU memory */

/**
 * \addtogroup nbo
 * \section nbo_gpu GPU MEMORY
 * Device buffers (optional, a build with CUDA: meson -Dcuda=auto|enabled).
 * Every all-to-all entry point accepts CUDA device pointers for sendbuf and
 * recvbuf, recognised with cudaPointerGetAttributes.  Libnbo probes lazily:
 * a process that has not loaded the CUDA driver has no device memory, and
 * its calls pay nothing.  Without a CUDA build a device pointer is not
 * recognised and is used as host memory (which crashes): check
 * nbo_cuda_available first.
 *
 * When the engine moves device memory itself (engine_caps has
 * NBO_CAP_DEVICE_MEM) the task list runs on the device buffers directly.
 * Otherwise the request stages through pinned host buffers it owns: the
 * copy from the GPU of chunk k+1 (NBO_CUDA_CHUNK bytes of send blocks)
 * overlaps the network transfer of chunk k and the copy to the GPU of what
 * already arrived.  The messages on the wire are the same as for host
 * buffers, so ranks may mix host and device buffers in one call.
 *
 * The device data must be complete when the call (or nbo_start) is made:
 * synchronise the stream that wrote it first, as with CUDA-aware MPI.  At
 * completion the receive buffer holds the result for any stream.
 * MPI_IN_PLACE and non-contiguous datatypes on device memory are staged as
 * a whole (no pipeline).  Managed (cudaMallocManaged) memory counts as host
 * memory.  Send and receive buffers on two different GPUs: NBO_ERR_DEVICE.
 * docs/cuda.md has the details and what was tested.
 */

/**
 * \defgroup nbo_cuda_available whether CUDA device buffers are usable in this process
 *
 * Built with CUDA and a CUDA GPU usable in this process?  NBO_SUCCESS or
 * NBO_ERR_CUDA; detail (may be NULL) gets the devices, or why not (the
 * CUDA error string).  Initialises the CUDA runtime when built with it.
 *
 * \section nbo_cuda_available_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_cuda_available_errors ERRORS
 * \retval NBO_ERR_CUDA libnbo is built without CUDA, or no CUDA GPU is usable (detail says
 *     why).
 *
 * \section nbo_cuda_available_example EXAMPLE
 * \include api/nbo_cuda_available.c
 * @{
 */
int nbo_cuda_available(char *detail, size_t len);
/** @} */

/* -------------------------------------------------------------- requests */

typedef struct nbo_request *nbo_request_t;
#define NBO_REQUEST_NULL ((nbo_request_t)0)

/**
 * \defgroup nbo_ialltoall start a non-blocking all-to-all
 *
 * Non-blocking all-to-all, arguments as MPI_Ialltoall(v).  sendbuf may be
 * MPI_IN_PLACE (send counts and type are then ignored).  Any committed
 * datatype: contiguous ones move without copies, others are packed.
 *
 * \section nbo_ialltoall_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_ialltoall_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL, or (all-to-allv) a count or displacement array is NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_BUFFER a NULL buffer with a nonzero count, or both buffers MPI_IN_PLACE.
 * \retval NBO_ERR_COUNT Negative count or displacement.
 * \retval NBO_ERR_DATATYPE MPI_DATATYPE_NULL or not committed.
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_MISMATCH the block this rank sends itself differs in size from the one it
 *     receives; with NBO_CHECK=1, the ranks' counts disagree (the rank is named on stderr).
 * \retval NBO_ERR_OVERLAP the send and receive buffers overlap (use MPI_IN_PLACE).
 * \retval NBO_ERR_DEVICE Unsupported use of GPU device memory.
 * \retval NBO_ERR_CUDA device buffers without a CUDA build or GPU, or a CUDA call failed.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffers (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (MPI_Pack_size on the datatypes, NBO_CHECK's
 *     collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_ialltoall_example EXAMPLE
 * \include api/nbo_ialltoall.c
 * @{
 */
int nbo_ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  nbo_comm_t comm, nbo_request_t *req);
int nbo_ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype,
                   void *recvbuf, const int recvcounts[], const int rdispls[],
                   MPI_Datatype recvtype,
                   nbo_comm_t comm, nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_alltoall_init create a persistent all-to-all request
 *
 * Persistent forms: compiled once, inactive until nbo_start.  The buffers
 * and counts are bound at init; their contents may change between starts.
 *
 * \section nbo_alltoall_init_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_alltoall_init_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL, or (all-to-allv) a count or displacement array is NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_BUFFER a NULL buffer with a nonzero count, or both buffers MPI_IN_PLACE.
 * \retval NBO_ERR_COUNT Negative count or displacement.
 * \retval NBO_ERR_DATATYPE MPI_DATATYPE_NULL or not committed.
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_MISMATCH the block this rank sends itself differs in size from the one it
 *     receives; with NBO_CHECK=1, the ranks' counts disagree (the rank is named on stderr).
 * \retval NBO_ERR_OVERLAP the send and receive buffers overlap (use MPI_IN_PLACE).
 * \retval NBO_ERR_DEVICE Unsupported use of GPU device memory.
 * \retval NBO_ERR_CUDA device buffers without a CUDA build or GPU, or a CUDA call failed.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffers (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (MPI_Pack_size on the datatypes, NBO_CHECK's
 *     collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of a transfer is returned by the nbo_wait or nbo_test that completes it.
 *
 * \section nbo_alltoall_init_example EXAMPLE
 * \include api/nbo_alltoall_init.c
 * @{
 */
int nbo_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      nbo_comm_t comm, nbo_request_t *req);
int nbo_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype,
                       void *recvbuf, const int recvcounts[], const int rdispls[],
                       MPI_Datatype recvtype,
                       nbo_comm_t comm, nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_ialltoallw start a non-blocking all-to-all with a datatype per block
 *
 * Non-blocking all-to-all with a datatype per block, arguments as
 * MPI_Ialltoallw: block i of each side is counts[i] elements of types[i]
 * at byte displacement displs[i].  sendbuf may be MPI_IN_PLACE (the send
 * arrays are then ignored and may be NULL).  A block of count 0 may name
 * any type.  Pairwise exchange; non-contiguous blocks are packed one by
 * one with their own type.  Never compressed.
 *
 * \section nbo_ialltoallw_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_ialltoallw_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL, or a count, displacement or type array is NULL (the send
 *     side's are not read with MPI_IN_PLACE).
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_BUFFER a NULL buffer with a nonzero count, or recvbuf MPI_IN_PLACE.
 * \retval NBO_ERR_COUNT a count or a displacement is negative.
 * \retval NBO_ERR_DATATYPE the type of a block with a nonzero count is MPI_DATATYPE_NULL or not
 *     committed (an empty block's type is not read).
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_MISMATCH the block this rank sends itself differs in bytes from the one it
 *     receives; with NBO_CHECK=1, the ranks' counts disagree (the rank is named on stderr).
 * \retval NBO_ERR_OVERLAP the send and receive buffers overlap (use MPI_IN_PLACE).
 * \retval NBO_ERR_DEVICE a buffer is CUDA device memory: not supported for this collective.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffers (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (datatype queries, NBO_CHECK's collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_ialltoallw_example EXAMPLE
 * \include api/nbo_ialltoallw.c
 * @{
 */
int nbo_ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[],
                   const MPI_Datatype recvtypes[],
                   nbo_comm_t comm, nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_alltoallw_init create a persistent all-to-all request with a datatype per block
 *
 * Persistent all-to-all with a datatype per block: compiled once, inactive
 * until nbo_start; arguments as nbo_ialltoallw.  The types are kept
 * (duplicated) by the request: the caller may free theirs.
 *
 * \section nbo_alltoallw_init_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_alltoallw_init_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL, or a count, displacement or type array is NULL (the send
 *     side's are not read with MPI_IN_PLACE).
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_BUFFER a NULL buffer with a nonzero count, or recvbuf MPI_IN_PLACE.
 * \retval NBO_ERR_COUNT a count or a displacement is negative.
 * \retval NBO_ERR_DATATYPE the type of a block with a nonzero count is MPI_DATATYPE_NULL or not
 *     committed (an empty block's type is not read).
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_MISMATCH the block this rank sends itself differs in bytes from the one it
 *     receives; with NBO_CHECK=1, the ranks' counts disagree (the rank is named on stderr).
 * \retval NBO_ERR_OVERLAP the send and receive buffers overlap (use MPI_IN_PLACE).
 * \retval NBO_ERR_DEVICE a buffer is CUDA device memory: not supported for this collective.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffers (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (datatype queries, NBO_CHECK's collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of a transfer is returned by the nbo_wait or nbo_test that completes it.
 *
 * \section nbo_alltoallw_init_example EXAMPLE
 * \include api/nbo_alltoallw_init.c
 * @{
 */
int nbo_alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       const MPI_Datatype sendtypes[],
                       void *recvbuf, const int recvcounts[], const int rdispls[],
                       const MPI_Datatype recvtypes[],
                       nbo_comm_t comm, nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_iallreduce start a non-blocking allreduce or reduce-scatter-block
 *
 * Non-blocking allreduce and reduce-scatter-block, arguments as
 * MPI_Iallreduce and MPI_Ireduce_scatter_block.  sendbuf may be
 * MPI_IN_PLACE: the input is then in recvbuf (for reduce-scatter-block,
 * size * recvcount elements, the result in the first recvcount).  op is
 * any predefined op valid on datatype or a user op (MPI_Op_create),
 * commutative or not: a non-commutative op is applied in rank order, as
 * MPI requires.  The op is applied with MPI_Reduce_local on the host, in
 * the progress thread or inside nbo_test / nbo_wait (a user op must then
 * be callable from the progress thread); no NIC reduces.  Contiguous
 * types are reduced in place; others (MPI_DOUBLE_INT, derived types with
 * a user op) are copied to scratch laid out as the type, reduced there
 * and copied back, and need an extent of at least their true extent
 * (else NBO_ERR_DATATYPE).  NBO_ERR_OP: op is MPI_OP_NULL or not defined
 * on datatype (as MPI_Allreduce on MPI_COMM_SELF judges it).  The op and
 * the datatype must stay valid until the request is freed.  Device (GPU)
 * buffers: NBO_ERR_DEVICE.
 *
 * \section nbo_iallreduce_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_iallreduce_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_BUFFER a NULL buffer with a nonzero count, or recvbuf MPI_IN_PLACE.
 * \retval NBO_ERR_COUNT count (recvcount) is negative.
 * \retval NBO_ERR_DATATYPE datatype is MPI_DATATYPE_NULL or not committed, or (a non-
 *     contiguous type) its true extent exceeds its extent.
 * \retval NBO_ERR_OP op is MPI_OP_NULL, or not defined on datatype (MPI_BAND on MPI_FLOAT,
 *     MPI_MAXLOC on MPI_INT, a predefined op on a derived type).
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_OVERLAP sendbuf and recvbuf overlap (use MPI_IN_PLACE).
 * \retval NBO_ERR_MISMATCH with NBO_CHECK=1, the ranks' counts or collectives disagree (the
 *     rank is named on stderr).
 * \retval NBO_ERR_DEVICE a buffer is CUDA device memory: not supported for this collective
 *     yet.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffers (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (datatype queries, NBO_CHECK's collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_iallreduce_example EXAMPLE
 * \include api/nbo_iallreduce.c
 * @{
 */
int nbo_iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, nbo_comm_t comm, nbo_request_t *req);
int nbo_ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, nbo_comm_t comm,
                              nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_ireduce_scatter start a non-blocking reduce-scatter with blocks of any size
 *
 * Non-blocking reduce-scatter with blocks of any size, as
 * MPI_Ireduce_scatter: the input is the recvcounts[0] + ... +
 * recvcounts[size-1] elements of sendbuf (of recvbuf with MPI_IN_PLACE),
 * rank i gets the reduction of block i, recvcounts[i] elements, at the
 * start of recvbuf; pairwise, rank order kept for any op.  Ops, types,
 * staging and errors as nbo_iallreduce, and NBO_ERR_ARG for a NULL
 * recvcounts.
 *
 * \section nbo_ireduce_scatter_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_ireduce_scatter_errors ERRORS
 * \retval NBO_ERR_ARG req or recvcounts is NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_BUFFER a NULL buffer with a nonzero count, or recvbuf MPI_IN_PLACE.
 * \retval NBO_ERR_COUNT count (recvcount) is negative.
 * \retval NBO_ERR_DATATYPE datatype is MPI_DATATYPE_NULL or not committed, or (a non-
 *     contiguous type) its true extent exceeds its extent.
 * \retval NBO_ERR_OP op is MPI_OP_NULL, or not defined on datatype (MPI_BAND on MPI_FLOAT,
 *     MPI_MAXLOC on MPI_INT, a predefined op on a derived type).
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_OVERLAP sendbuf and recvbuf overlap (use MPI_IN_PLACE).
 * \retval NBO_ERR_MISMATCH with NBO_CHECK=1, the ranks' counts or collectives disagree (the
 *     rank is named on stderr).
 * \retval NBO_ERR_DEVICE a buffer is CUDA device memory: not supported for this collective
 *     yet.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffers (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (datatype queries, NBO_CHECK's collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_ireduce_scatter_example EXAMPLE
 * \include api/nbo_ireduce_scatter.c
 * @{
 */
int nbo_ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, nbo_comm_t comm, nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_reduce_scatter_init create a persistent reduce-scatter request
 *
 * Persistent reduce-scatter: compiled once, inactive until nbo_start.
 *
 * \section nbo_reduce_scatter_init_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_reduce_scatter_init_errors ERRORS
 * \retval NBO_ERR_ARG req or recvcounts is NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_BUFFER a NULL buffer with a nonzero count, or recvbuf MPI_IN_PLACE.
 * \retval NBO_ERR_COUNT count (recvcount) is negative.
 * \retval NBO_ERR_DATATYPE datatype is MPI_DATATYPE_NULL or not committed, or (a non-
 *     contiguous type) its true extent exceeds its extent.
 * \retval NBO_ERR_OP op is MPI_OP_NULL, or not defined on datatype (MPI_BAND on MPI_FLOAT,
 *     MPI_MAXLOC on MPI_INT, a predefined op on a derived type).
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_OVERLAP sendbuf and recvbuf overlap (use MPI_IN_PLACE).
 * \retval NBO_ERR_MISMATCH with NBO_CHECK=1, the ranks' counts or collectives disagree (the
 *     rank is named on stderr).
 * \retval NBO_ERR_DEVICE a buffer is CUDA device memory: not supported for this collective
 *     yet.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffers (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (datatype queries, NBO_CHECK's collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_reduce_scatter_init_example EXAMPLE
 * \include api/nbo_reduce_scatter_init.c
 * @{
 */
int nbo_reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                            MPI_Datatype datatype, MPI_Op op, nbo_comm_t comm,
                            nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_allreduce_init create a persistent allreduce or reduce-scatter-block request
 *
 * Persistent allreduce and reduce-scatter-block: compiled once, inactive
 * until nbo_start; arguments and errors as nbo_iallreduce.
 *
 * \section nbo_allreduce_init_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_allreduce_init_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_BUFFER a NULL buffer with a nonzero count, or recvbuf MPI_IN_PLACE.
 * \retval NBO_ERR_COUNT count (recvcount) is negative.
 * \retval NBO_ERR_DATATYPE datatype is MPI_DATATYPE_NULL or not committed, or (a non-
 *     contiguous type) its true extent exceeds its extent.
 * \retval NBO_ERR_OP op is MPI_OP_NULL, or not defined on datatype (MPI_BAND on MPI_FLOAT,
 *     MPI_MAXLOC on MPI_INT, a predefined op on a derived type).
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_OVERLAP sendbuf and recvbuf overlap (use MPI_IN_PLACE).
 * \retval NBO_ERR_MISMATCH with NBO_CHECK=1, the ranks' counts or collectives disagree (the
 *     rank is named on stderr).
 * \retval NBO_ERR_DEVICE a buffer is CUDA device memory: not supported for this collective
 *     yet.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffers (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (datatype queries, NBO_CHECK's collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_allreduce_init_example EXAMPLE
 * \include api/nbo_allreduce_init.c
 * @{
 */
int nbo_allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, nbo_comm_t comm, nbo_request_t *req);
int nbo_reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                  MPI_Datatype datatype, MPI_Op op, nbo_comm_t comm,
                                  nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_iallgather start a non-blocking allgather(v)
 *
 * Non-blocking allgather(v), arguments as MPI_Iallgather(v).  sendbuf may
 * be MPI_IN_PLACE: each rank's block is then already in its place in
 * recvbuf (send count and type ignored).  Any committed datatype.  Device
 * (GPU) buffers: NBO_ERR_DEVICE.
 *
 * \section nbo_iallgather_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_iallgather_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL, or (allgatherv) recvcounts or displs is NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_BUFFER a NULL buffer with a nonzero count, or recvbuf MPI_IN_PLACE.
 * \retval NBO_ERR_COUNT Negative count or displacement.
 * \retval NBO_ERR_DATATYPE MPI_DATATYPE_NULL or not committed.
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_MISMATCH the own contribution differs in size from its block in recvbuf;
 *     with NBO_CHECK=1, the ranks' counts disagree (the rank is named on stderr).
 * \retval NBO_ERR_OVERLAP the send and receive buffers overlap (use MPI_IN_PLACE).
 * \retval NBO_ERR_DEVICE a buffer is CUDA device memory: not supported for this collective
 *     yet.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffers (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (MPI_Pack_size on the datatypes, NBO_CHECK's
 *     collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_iallgather_example EXAMPLE
 * \include api/nbo_iallgather.c
 * @{
 */
int nbo_iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   nbo_comm_t comm, nbo_request_t *req);
int nbo_iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    void *recvbuf, const int recvcounts[], const int displs[],
                    MPI_Datatype recvtype, nbo_comm_t comm, nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_allgather_init create a persistent allgather(v) request
 *
 * Persistent allgather(v): compiled once, inactive until nbo_start.
 *
 * \section nbo_allgather_init_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_allgather_init_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL, or (allgatherv) recvcounts or displs is NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_BUFFER a NULL buffer with a nonzero count, or recvbuf MPI_IN_PLACE.
 * \retval NBO_ERR_COUNT Negative count or displacement.
 * \retval NBO_ERR_DATATYPE MPI_DATATYPE_NULL or not committed.
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_MISMATCH the own contribution differs in size from its block in recvbuf;
 *     with NBO_CHECK=1, the ranks' counts disagree (the rank is named on stderr).
 * \retval NBO_ERR_OVERLAP the send and receive buffers overlap (use MPI_IN_PLACE).
 * \retval NBO_ERR_DEVICE a buffer is CUDA device memory: not supported for this collective
 *     yet.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffers (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (MPI_Pack_size on the datatypes, NBO_CHECK's
 *     collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_allgather_init_example EXAMPLE
 * \include api/nbo_allgather_init.c
 * @{
 */
int nbo_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       nbo_comm_t comm, nbo_request_t *req);
int nbo_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const int recvcounts[], const int displs[],
                        MPI_Datatype recvtype, nbo_comm_t comm, nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_ibcast start a non-blocking broadcast
 *
 * Non-blocking broadcast from root, arguments as MPI_Ibcast.  Any
 * committed datatype; NBO_ERR_ROOT for a root outside [0, size).  Device
 * (GPU) buffers: NBO_ERR_DEVICE.
 *
 * \section nbo_ibcast_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_ibcast_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_ROOT root is negative or not less than the size of comm.
 * \retval NBO_ERR_BUFFER buffer is NULL with a nonzero count, or MPI_IN_PLACE.
 * \retval NBO_ERR_COUNT count is negative.
 * \retval NBO_ERR_DATATYPE MPI_DATATYPE_NULL or not committed.
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_MISMATCH with NBO_CHECK=1, the ranks' counts or roots disagree (the rank
 *     is named on stderr).
 * \retval NBO_ERR_DEVICE buffer is CUDA device memory: not supported for this collective
 *     yet.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffer (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (MPI_Pack_size on the datatype, NBO_CHECK's
 *     collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_ibcast_example EXAMPLE
 * \include api/nbo_ibcast.c
 * @{
 */
int nbo_ibcast(void *buffer, int count, MPI_Datatype datatype, int root,
               nbo_comm_t comm, nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_bcast_init create a persistent broadcast request
 *
 * Persistent broadcast: compiled once, inactive until nbo_start.
 *
 * \section nbo_bcast_init_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_bcast_init_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_ROOT root is negative or not less than the size of comm.
 * \retval NBO_ERR_BUFFER buffer is NULL with a nonzero count, or MPI_IN_PLACE.
 * \retval NBO_ERR_COUNT count is negative.
 * \retval NBO_ERR_DATATYPE MPI_DATATYPE_NULL or not committed.
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_MISMATCH with NBO_CHECK=1, the ranks' counts or roots disagree (the rank
 *     is named on stderr).
 * \retval NBO_ERR_DEVICE buffer is CUDA device memory: not supported for this collective
 *     yet.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffer (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (MPI_Pack_size on the datatype, NBO_CHECK's
 *     collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_bcast_init_example EXAMPLE
 * \include api/nbo_bcast_init.c
 * @{
 */
int nbo_bcast_init(void *buffer, int count, MPI_Datatype datatype, int root,
                   nbo_comm_t comm, nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_ibarrier start a non-blocking barrier
 *
 * Non-blocking barrier, as MPI_Ibarrier: completes on a rank once every
 * rank of the communicator has called it (the dissemination algorithm,
 * ceil(log2 P) rounds of one-byte messages).
 *
 * \section nbo_ibarrier_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_ibarrier_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_MISMATCH with NBO_CHECK=1, the ranks called different collectives (the
 *     rank is named on stderr).
 * \retval NBO_ERR_ENGINE the engine could not prepare the request's scratch (memory
 *     registration).
 * \retval NBO_ERR_MPI an MPI call failed (NBO_CHECK's collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_ibarrier_example EXAMPLE
 * \include api/nbo_ibarrier.c
 * @{
 */
int nbo_ibarrier(nbo_comm_t comm, nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_barrier_init create a persistent barrier request
 *
 * Persistent barrier (MPI-4's MPI_Barrier_init): inactive until nbo_start.
 *
 * \section nbo_barrier_init_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_barrier_init_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_MISMATCH with NBO_CHECK=1, the ranks called different collectives (the
 *     rank is named on stderr).
 * \retval NBO_ERR_ENGINE the engine could not prepare the request's scratch (memory
 *     registration).
 * \retval NBO_ERR_MPI an MPI call failed (NBO_CHECK's collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_barrier_init_example EXAMPLE
 * \include api/nbo_barrier_init.c
 * @{
 */
int nbo_barrier_init(nbo_comm_t comm, nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_ireduce start a non-blocking reduce to a root
 *
 * Non-blocking reduce to root, arguments as MPI_Ireduce: the result in
 * recvbuf on root only (recvbuf is not read or written elsewhere, and may
 * be NULL there).  sendbuf may be MPI_IN_PLACE on root alone (the input
 * is then in recvbuf; elsewhere NBO_ERR_BUFFER).  Ops, types, staging and
 * errors as nbo_iallreduce; NBO_ERR_ROOT for a root outside [0, size).  A
 * non-commutative op is applied in rank order (the tree reduces to rank 0,
 * which sends the result on to root).
 *
 * \section nbo_ireduce_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_ireduce_errors ERRORS
 * \retval NBO_ERR_ROOT root is negative or not less than the size of comm.
 * \retval NBO_ERR_BUFFER a NULL buffer with a nonzero count (recvbuf counts on root only),
 *     recvbuf MPI_IN_PLACE, or sendbuf MPI_IN_PLACE on a rank other than root.
 * \retval NBO_ERR_ARG req is NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_COUNT count (recvcount) is negative.
 * \retval NBO_ERR_DATATYPE datatype is MPI_DATATYPE_NULL or not committed, or (a non-
 *     contiguous type) its true extent exceeds its extent.
 * \retval NBO_ERR_OP op is MPI_OP_NULL, or not defined on datatype (MPI_BAND on MPI_FLOAT,
 *     MPI_MAXLOC on MPI_INT, a predefined op on a derived type).
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_OVERLAP sendbuf and recvbuf overlap (use MPI_IN_PLACE).
 * \retval NBO_ERR_DEVICE a buffer is CUDA device memory: not supported for this collective
 *     yet.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffers (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (datatype queries, NBO_CHECK's collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 * \retval NBO_ERR_MISMATCH with NBO_CHECK=1, the ranks' counts, roots or collectives
 *     disagree (the rank is named on stderr).
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_ireduce_example EXAMPLE
 * \include api/nbo_ireduce.c
 * @{
 */
int nbo_ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                MPI_Op op, int root, nbo_comm_t comm, nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_reduce_init create a persistent reduce request
 *
 * Persistent reduce: compiled once, inactive until nbo_start.
 *
 * \section nbo_reduce_init_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_reduce_init_errors ERRORS
 * \retval NBO_ERR_ROOT root is negative or not less than the size of comm.
 * \retval NBO_ERR_BUFFER a NULL buffer with a nonzero count (recvbuf counts on root only),
 *     recvbuf MPI_IN_PLACE, or sendbuf MPI_IN_PLACE on a rank other than root.
 * \retval NBO_ERR_ARG req is NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_COUNT count (recvcount) is negative.
 * \retval NBO_ERR_DATATYPE datatype is MPI_DATATYPE_NULL or not committed, or (a non-
 *     contiguous type) its true extent exceeds its extent.
 * \retval NBO_ERR_OP op is MPI_OP_NULL, or not defined on datatype (MPI_BAND on MPI_FLOAT,
 *     MPI_MAXLOC on MPI_INT, a predefined op on a derived type).
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_OVERLAP sendbuf and recvbuf overlap (use MPI_IN_PLACE).
 * \retval NBO_ERR_DEVICE a buffer is CUDA device memory: not supported for this collective
 *     yet.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffers (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (datatype queries, NBO_CHECK's collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 * \retval NBO_ERR_MISMATCH with NBO_CHECK=1, the ranks' counts, roots or collectives
 *     disagree (the rank is named on stderr).
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_reduce_init_example EXAMPLE
 * \include api/nbo_reduce_init.c
 * @{
 */
int nbo_reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, int root, nbo_comm_t comm, nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_iscan start a non-blocking inclusive or exclusive scan
 *
 * Non-blocking inclusive and exclusive scan, arguments as MPI_Iscan and
 * MPI_Iexscan: rank i's recvbuf gets the reduction of the inputs of
 * ranks 0..i (exscan: 0..i-1; rank 0's recvbuf is left as it is, MPI
 * leaves it undefined), in rank order for any op (recursive doubling).
 * sendbuf may be MPI_IN_PLACE on any rank (the input is then in recvbuf).
 * Ops, types, staging and errors as nbo_iallreduce.
 *
 * \section nbo_iscan_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_iscan_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_BUFFER a NULL buffer with a nonzero count, or recvbuf MPI_IN_PLACE.
 * \retval NBO_ERR_COUNT count (recvcount) is negative.
 * \retval NBO_ERR_DATATYPE datatype is MPI_DATATYPE_NULL or not committed, or (a non-
 *     contiguous type) its true extent exceeds its extent.
 * \retval NBO_ERR_OP op is MPI_OP_NULL, or not defined on datatype (MPI_BAND on MPI_FLOAT,
 *     MPI_MAXLOC on MPI_INT, a predefined op on a derived type).
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_OVERLAP sendbuf and recvbuf overlap (use MPI_IN_PLACE).
 * \retval NBO_ERR_MISMATCH with NBO_CHECK=1, the ranks' counts or collectives disagree (the
 *     rank is named on stderr).
 * \retval NBO_ERR_DEVICE a buffer is CUDA device memory: not supported for this collective
 *     yet.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffers (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (datatype queries, NBO_CHECK's collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_iscan_example EXAMPLE
 * \include api/nbo_iscan.c
 * @{
 */
int nbo_iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
              MPI_Op op, nbo_comm_t comm, nbo_request_t *req);
int nbo_iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                MPI_Op op, nbo_comm_t comm, nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_scan_init create a persistent inclusive or exclusive scan request
 *
 * Persistent scan and exscan: compiled once, inactive until nbo_start.
 *
 * \section nbo_scan_init_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_scan_init_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_BUFFER a NULL buffer with a nonzero count, or recvbuf MPI_IN_PLACE.
 * \retval NBO_ERR_COUNT count (recvcount) is negative.
 * \retval NBO_ERR_DATATYPE datatype is MPI_DATATYPE_NULL or not committed, or (a non-
 *     contiguous type) its true extent exceeds its extent.
 * \retval NBO_ERR_OP op is MPI_OP_NULL, or not defined on datatype (MPI_BAND on MPI_FLOAT,
 *     MPI_MAXLOC on MPI_INT, a predefined op on a derived type).
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_OVERLAP sendbuf and recvbuf overlap (use MPI_IN_PLACE).
 * \retval NBO_ERR_MISMATCH with NBO_CHECK=1, the ranks' counts or collectives disagree (the
 *     rank is named on stderr).
 * \retval NBO_ERR_DEVICE a buffer is CUDA device memory: not supported for this collective
 *     yet.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffers (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (datatype queries, NBO_CHECK's collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_scan_init_example EXAMPLE
 * \include api/nbo_scan_init.c
 * @{
 */
int nbo_scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                  MPI_Op op, nbo_comm_t comm, nbo_request_t *req);
int nbo_exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, nbo_comm_t comm, nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_igather start a non-blocking gather(v) or scatter(v)
 *
 * Non-blocking gather(v) and scatter(v), arguments as MPI_Igather(v) and
 * MPI_Iscatter(v).  The arguments MPI calls significant only at root
 * (gather's receive side, scatter's send side) are read only there.
 * MPI_IN_PLACE at root alone: a gather's sendbuf (the root's block is
 * already in its place in recvbuf), a scatter's recvbuf (the root's block
 * stays in sendbuf); elsewhere NBO_ERR_BUFFER.  Any committed datatype.
 * NBO_ERR_ROOT for a root outside [0, size); NBO_ERR_MISMATCH when root's
 * own block differs in size from its slot.  Device (GPU) buffers:
 * NBO_ERR_DEVICE.
 *
 * \section nbo_igather_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_igather_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL, or (gatherv, scatterv) root's counts or displacements are
 *     NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_ROOT root is negative or not less than the size of comm.
 * \retval NBO_ERR_BUFFER a NULL buffer with a nonzero count, gather's recvbuf MPI_IN_PLACE,
 *     or MPI_IN_PLACE on a rank other than root.
 * \retval NBO_ERR_COUNT Negative count or displacement.
 * \retval NBO_ERR_DATATYPE MPI_DATATYPE_NULL or not committed.
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_MISMATCH root's own block differs in size from its slot among the P
 *     blocks; with NBO_CHECK=1, the ranks' counts or roots disagree (the rank is named on
 *     stderr).
 * \retval NBO_ERR_OVERLAP root's send and receive buffers overlap (use MPI_IN_PLACE).
 * \retval NBO_ERR_DEVICE a buffer is CUDA device memory: not supported for this collective
 *     yet.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffers (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (MPI_Pack_size on the datatypes, NBO_CHECK's
 *     collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_igather_example EXAMPLE
 * \include api/nbo_igather.c
 * @{
 */
int nbo_igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                nbo_comm_t comm, nbo_request_t *req);
int nbo_igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, const int recvcounts[], const int displs[],
                 MPI_Datatype recvtype, int root, nbo_comm_t comm, nbo_request_t *req);
int nbo_iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                 nbo_comm_t comm, nbo_request_t *req);
int nbo_iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, int root, nbo_comm_t comm, nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_gather_init create a persistent gather(v) or scatter(v) request
 *
 * Persistent gather(v) and scatter(v): compiled once, inactive until
 * nbo_start.
 *
 * \section nbo_gather_init_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_gather_init_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL, or (gatherv, scatterv) root's counts or displacements are
 *     NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator.
 * \retval NBO_ERR_ROOT root is negative or not less than the size of comm.
 * \retval NBO_ERR_BUFFER a NULL buffer with a nonzero count, gather's recvbuf MPI_IN_PLACE,
 *     or MPI_IN_PLACE on a rank other than root.
 * \retval NBO_ERR_COUNT Negative count or displacement.
 * \retval NBO_ERR_DATATYPE MPI_DATATYPE_NULL or not committed.
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_MISMATCH root's own block differs in size from its slot among the P
 *     blocks; with NBO_CHECK=1, the ranks' counts or roots disagree (the rank is named on
 *     stderr).
 * \retval NBO_ERR_OVERLAP root's send and receive buffers overlap (use MPI_IN_PLACE).
 * \retval NBO_ERR_DEVICE a buffer is CUDA device memory: not supported for this collective
 *     yet.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffers (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (MPI_Pack_size on the datatypes, NBO_CHECK's
 *     collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_gather_init_example EXAMPLE
 * \include api/nbo_gather_init.c
 * @{
 */
int nbo_gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                    nbo_comm_t comm, nbo_request_t *req);
int nbo_gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     void *recvbuf, const int recvcounts[], const int displs[],
                     MPI_Datatype recvtype, int root, nbo_comm_t comm, nbo_request_t *req);
int nbo_scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                     void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                     nbo_comm_t comm, nbo_request_t *req);
int nbo_scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                      MPI_Datatype sendtype, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, nbo_comm_t comm, nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_ineighbor_alltoall start a non-blocking neighbourhood all-to-all(v) or allgather(v)
 *
 * Non-blocking neighbourhood collectives, arguments as
 * MPI_Ineighbor_alltoall(v) and MPI_Ineighbor_allgather(v) (MPI-3 section
 * 7.6, with MPI-4.1's pairing of repeated neighbours): the neighbours are
 * those of the topology of the MPI communicator comm was created on.
 * Cartesian (MPI_Cart_create): for each dimension the -1 then the +1
 * neighbour, both ways, and block s sent lands in block s^1 of the
 * receiver, also where both neighbours are one rank (a periodic dimension
 * of 1 or 2 processes); a neighbour that is MPI_PROC_NULL (a non-periodic
 * edge) moves nothing, its block is left as it is.  Distributed graph (MPI_Dist_graph_create(_adjacent)): block
 * i goes to destination i and comes from source i, in the order
 * MPI_Dist_graph_neighbors gives them; a neighbour listed twice gets its
 * blocks in list order (the k-th edge to a rank matches the k-th from it).
 * Graph (MPI_Graph_create): MPI_Graph_neighbors' list both ways.
 * Allgather(v) sends the one send block to every destination.  Any
 * committed datatype; MPI_IN_PLACE: NBO_ERR_BUFFER; a communicator without
 * a topology: NBO_ERR_COMM (and a line on stderr).  Device (GPU) buffers:
 * NBO_ERR_DEVICE.
 *
 * \section nbo_ineighbor_alltoall_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_ineighbor_alltoall_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL, or a count or displacement array of a v form is NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator, or the MPI
 *     communicator it was created on has no Cartesian or graph topology (said on stderr).
 * \retval NBO_ERR_BUFFER a NULL buffer with a nonzero count, or sendbuf or recvbuf
 *     MPI_IN_PLACE.
 * \retval NBO_ERR_COUNT Negative count or displacement.
 * \retval NBO_ERR_DATATYPE MPI_DATATYPE_NULL or not committed.
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_MISMATCH a block a rank sends itself (a self loop, a periodic dimension of
 *     one process) differs in size from the block it receives from itself; with NBO_CHECK=1,
 *     the ranks' counts disagree (the rank is named on stderr).
 * \retval NBO_ERR_OVERLAP the send and receive buffers overlap.
 * \retval NBO_ERR_DEVICE a buffer is CUDA device memory: not supported for this collective
 *     yet.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffers (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (the topology queries, MPI_Pack_size on the
 *     datatypes, NBO_CHECK's collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_ineighbor_alltoall_example EXAMPLE
 * \include api/nbo_ineighbor_alltoall.c
 * @{
 */
int nbo_ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype,
                           nbo_comm_t comm, nbo_request_t *req);
int nbo_ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int rdispls[],
                            MPI_Datatype recvtype,
                            nbo_comm_t comm, nbo_request_t *req);
int nbo_ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype,
                            nbo_comm_t comm, nbo_request_t *req);
int nbo_ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, nbo_comm_t comm, nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_neighbor_alltoall_init create a persistent neighbourhood all-to-all(v) or allgather(v) request
 *
 * Persistent neighbourhood collectives (MPI-4's MPI_Neighbor_*_init):
 * the topology is read and the task list compiled once, inactive until
 * nbo_start; arguments and errors as nbo_ineighbor_alltoall.
 *
 * \section nbo_neighbor_alltoall_init_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_neighbor_alltoall_init_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL, or a count or displacement array of a v form is NULL.
 * \retval NBO_ERR_COMM comm is NBO_COMM_NULL or not a live nbo communicator, or the MPI
 *     communicator it was created on has no Cartesian or graph topology (said on stderr).
 * \retval NBO_ERR_BUFFER a NULL buffer with a nonzero count, or sendbuf or recvbuf
 *     MPI_IN_PLACE.
 * \retval NBO_ERR_COUNT Negative count or displacement.
 * \retval NBO_ERR_DATATYPE MPI_DATATYPE_NULL or not committed.
 * \retval NBO_ERR_OVERFLOW A byte size or offset overflows.
 * \retval NBO_ERR_MISMATCH a block a rank sends itself (a self loop, a periodic dimension of
 *     one process) differs in size from the block it receives from itself; with NBO_CHECK=1,
 *     the ranks' counts disagree (the rank is named on stderr).
 * \retval NBO_ERR_OVERLAP the send and receive buffers overlap.
 * \retval NBO_ERR_DEVICE a buffer is CUDA device memory: not supported for this collective
 *     yet.
 * \retval NBO_ERR_ENGINE the engine could not prepare the buffers (memory registration).
 * \retval NBO_ERR_MPI an MPI call failed (the topology queries, MPI_Pack_size on the
 *     datatypes, NBO_CHECK's collective).
 * \retval NBO_ERR_NOMEM Out of memory.
 *
 * A failure of the transfer itself (a peer, the network, NBO_TIMEOUT) is returned by
 * nbo_wait or nbo_test.
 *
 * \section nbo_neighbor_alltoall_init_example EXAMPLE
 * \include api/nbo_neighbor_alltoall_init.c
 * @{
 */
int nbo_neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype,
                               nbo_comm_t comm, nbo_request_t *req);
int nbo_neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[],
                                const int sdispls[], MPI_Datatype sendtype,
                                void *recvbuf, const int recvcounts[], const int rdispls[],
                                MPI_Datatype recvtype,
                                nbo_comm_t comm, nbo_request_t *req);
int nbo_neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                nbo_comm_t comm, nbo_request_t *req);
int nbo_neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, const int recvcounts[], const int displs[],
                                 MPI_Datatype recvtype, nbo_comm_t comm, nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_start start a persistent request
 *
 * Start an inactive persistent request (NBO_ERR_ACTIVE if it is running).
 *
 * \section nbo_start_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_start_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL, or *req is not a persistent request.
 * \retval NBO_ERR_REQUEST_NULL *req is NBO_REQUEST_NULL.
 * \retval NBO_ERR_REQUEST Not a valid request handle.
 * \retval NBO_ERR_ACTIVE the request was started and not yet completed by nbo_wait or
 *     nbo_test.
 *
 * \section nbo_start_example EXAMPLE
 * \include api/nbo_start.c
 * @{
 */
int nbo_start(nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_test complete a request
 *
 * *flag = 1 when complete.  Each call on an active request also advances
 * the engines of its progress mode once, in either mode, as MPI_Test
 * does.  A completed non-persistent request is freed and
 * *req set to NBO_REQUEST_NULL; a persistent one becomes inactive.  A failed
 * request is completed the same way and its error returned.  As for
 * MPI_REQUEST_NULL in MPI, *req == NBO_REQUEST_NULL is no error: nbo_wait
 * returns NBO_SUCCESS at once and nbo_test sets *flag = 1 and returns
 * NBO_SUCCESS; so does an inactive persistent request.  req NULL (no
 * handle at all), or flag NULL: NBO_ERR_ARG.
 *
 * \section nbo_test_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_test_errors ERRORS
 * \retval NBO_ERR_ARG req or flag is NULL.
 * \retval NBO_ERR_REQUEST Not a valid request handle.
 * \retval NBO_ERR_TIMEOUT the request saw no completion for NBO_TIMEOUT ms (a peer is gone,
 *     stopped or never joined).
 * \retval NBO_ERR_PEER a peer failed or disconnected.
 * \retval NBO_ERR_TRANSPORT the network reported an error.
 * \retval NBO_ERR_MPI an MPI call failed (the MPI engine, datatype packing).
 * \retval NBO_ERR_MISMATCH a message was larger than its receive block: the ranks' counts
 *     disagree.
 * \retval NBO_ERR_CUDA a CUDA call failed while staging device buffers.
 * \retval NBO_ERR_CODEC the zfp codec refused a block holding NaN or infinity, sent or
 *     received (docs/compression.md); the request ran to its end, and a refused block
 *     arrives as NaN.
 * \retval NBO_ERR_NOMEM Out of memory.
 * \retval NBO_ERR_INTERNAL A libnbo bug: please report it.
 *
 * \section nbo_test_example EXAMPLE
 * \include api/nbo_test.c
 * @{
 */
int nbo_test(nbo_request_t *req, int *flag);
int nbo_wait(nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_progress advance requests progressed inline
 *
 * Advance every request of the communicators progressed inline, as nbo_test
 * does, without completing any; for a caller that waits in another library
 * (MPI) while libnbo requests are outstanding.  Thread-mode communicators
 * need nothing.  Returns the number of completion events handled.
 *
 * \section nbo_progress_return RETURN VALUE
 * The number of completion events handled, 0 or more.
 *
 * \section nbo_progress_errors ERRORS
 * None: it returns a count, never an error; a request that fails is reported by nbo_test or nbo_wait.
 *
 * \section nbo_progress_example EXAMPLE
 * \include api/nbo_progress.c
 * @{
 */
int nbo_progress(void);
/** @} */

/**
 * \defgroup nbo_waitall complete several requests
 *
 * Waits for all; NBO_REQUEST_NULL entries are skipped.  Returns the first
 * error met, after completing every request that can complete.
 *
 * \section nbo_waitall_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_waitall_errors ERRORS
 * \retval NBO_ERR_ARG count is negative, or reqs is NULL with a positive count.
 * \retval NBO_ERR_REQUEST an entry is not a valid handle; no request is waited for.
 * \retval NBO_ERR_TIMEOUT the request saw no completion for NBO_TIMEOUT ms (a peer is gone,
 *     stopped or never joined).
 * \retval NBO_ERR_PEER a peer failed or disconnected.
 * \retval NBO_ERR_TRANSPORT the network reported an error.
 * \retval NBO_ERR_MPI an MPI call failed (the MPI engine, datatype packing).
 * \retval NBO_ERR_MISMATCH a message was larger than its receive block: the ranks' counts
 *     disagree.
 * \retval NBO_ERR_CUDA a CUDA call failed while staging device buffers.
 * \retval NBO_ERR_CODEC the zfp codec refused a block holding NaN or infinity, sent or
 *     received (docs/compression.md); the request ran to its end, and a refused block
 *     arrives as NaN.
 * \retval NBO_ERR_NOMEM Out of memory.
 * \retval NBO_ERR_INTERNAL A libnbo bug: please report it.
 *
 * \section nbo_waitall_example EXAMPLE
 * \include api/nbo_waitall.c
 * @{
 */
int nbo_waitall(int count, nbo_request_t reqs[]);
/** @} */

/**
 * \defgroup nbo_request_free free an inactive request
 *
 * Frees an inactive request (NBO_ERR_ACTIVE if it is still running).
 *
 * \section nbo_request_free_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_request_free_errors ERRORS
 * \retval NBO_ERR_ARG req is NULL.
 * \retval NBO_ERR_REQUEST_NULL *req is NBO_REQUEST_NULL.
 * \retval NBO_ERR_REQUEST Not a valid request handle.
 * \retval NBO_ERR_ACTIVE the request is running: complete it first (nbo_wait).
 *
 * \section nbo_request_free_example EXAMPLE
 * \include api/nbo_request_free.c
 * @{
 */
int nbo_request_free(nbo_request_t *req);
/** @} */

/**
 * \defgroup nbo_request_algorithm the algorithm the compiler chose for a request
 *
 * The algorithm the compiler chose for a request.
 *
 * \section nbo_request_algorithm_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_request_algorithm_errors ERRORS
 * \retval NBO_ERR_ARG alg is NULL.
 * \retval NBO_ERR_REQUEST_NULL req is NBO_REQUEST_NULL.
 * \retval NBO_ERR_REQUEST Not a valid request handle.
 *
 * \section nbo_request_algorithm_example EXAMPLE
 * \include api/nbo_request_algorithm.c
 * @{
 */
int nbo_request_algorithm(nbo_request_t req, nbo_algorithm_t *alg);
/** @} */

/**
 * \defgroup nbo_request_tuning a request's window and what is left of its NBO_TUNE trial
 *
 * A request's window (W) and, for a persistent request under NBO_TUNE,
 * how many more starts its trial takes (0: what it runs now is kept, or it
 * is not tuned; docs/tuning.md).  Either pointer may be NULL.
 *
 * \section nbo_request_tuning_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_request_tuning_errors ERRORS
 * \retval NBO_ERR_REQUEST_NULL req is NBO_REQUEST_NULL.
 * \retval NBO_ERR_REQUEST Not a valid request handle.
 *
 * \section nbo_request_tuning_example EXAMPLE
 * \include api/nbo_request_tuning.c
 * @{
 */
int nbo_request_tuning(nbo_request_t req, int *window, int *trial_left);
/** @} */

/**
 * \defgroup nbo_request_print print the task list of a request
 *
 * Prints the request's compiled task list, one task a line.
 *
 * \section nbo_request_print_return RETURN VALUE
 * NBO_SUCCESS (0), or a negative NBO_ERR_* code (ERRORS).
 *
 * \section nbo_request_print_errors ERRORS
 * \retval NBO_ERR_ARG out is NULL.
 * \retval NBO_ERR_REQUEST_NULL req is NBO_REQUEST_NULL.
 * \retval NBO_ERR_REQUEST Not a valid request handle.
 *
 * \section nbo_request_print_example EXAMPLE
 * \include api/nbo_request_print.c
 * @{
 */
int nbo_request_print(nbo_request_t req, FILE *out);
/** @} */

/* ---------------------------------------------------------------- threads */

/**
 * \addtogroup nbo
 * \section nbo_threads THREADS
 * libnbo makes MPI calls in the thread that calls it (datatype packing, the
 * MPI engine, the agreements of nbo_comm_create and nbo_comm_free), so the
 * MPI thread level binds libnbo calls as it binds MPI calls: with
 * MPI_THREAD_FUNNELED only the main thread calls libnbo, with
 * MPI_THREAD_SERIALIZED one thread at a time.  The progress thread
 * (NBO_PROGRESS=thread, or auto) needs MPI_THREAD_MULTIPLE.
 */

/*
 * With MPI_THREAD_MULTIPLE any function may be called from any thread while
 * others run: one lock per process guards every request, communicator and
 * engine, and a thread blocked in nbo_wait releases it while it sleeps.
 * Three rules remain, as in MPI.  A request handle is used by one thread at
 * a time: two threads must not wait on, test, start or free the same
 * request.  The collective calls on one communicator (nbo_comm_create on an
 * MPI communicator; the i* collectives, the *_init forms and
 * nbo_comm_free on an nbo one) are made in the same order on every rank, so
 * threads that share a communicator order their calls themselves.  No
 * thread uses a communicator, or a request made on it, while or after
 * another thread frees it.  nbo_version, nbo_strerror, nbo_config_init,
 * nbo_config_set and the name functions touch no shared state;
 * nbo_config_from_env reads the environment (getenv).
 */

/* -------------------------------------------------------------- lifecycle */

/**
 * \addtogroup nbo
 * \section nbo_lifecycle LIFECYCLE
 * MPI_Init or MPI_Init_thread first (MPI_THREAD_MULTIPLE for the progress
 * thread), then nbo_comm_create on each communicator that runs all-to-alls:
 * a collective that duplicates the communicator and connects every pair of
 * ranks (one MPI_Comm_dup, a few MPI_Allreduce agreements and the engine's
 * exchange of addresses), so its cost grows with the number of ranks; make
 * it once.  Requests then come and go: nbo_ialltoall[v] + nbo_wait, or
 * nbo_alltoall[v]_init once and nbo_start + nbo_wait many times.
 *
 * Before MPI_Finalize: complete every request (nbo_wait, nbo_waitall), free
 * the persistent ones (nbo_request_free), then free each communicator with
 * nbo_comm_free, a collective.  The MPI communicator given to
 * nbo_comm_create may be freed before, since libnbo works on its duplicate.
 * The progress thread starts with the first thread-mode communicator and
 * stops when the last one is freed.  libnbo has no init or finalize call of
 * its own.
 */

#if defined(NBO_BUILDING_LIBNBO) && defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif /* NBO_H */
