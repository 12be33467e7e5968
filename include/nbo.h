/*
 * nbo.h - libnbo, non-blocking collectives (all-to-all(v), allreduce,
 * reduce-scatter(-block), allgather(v), broadcast, barrier, reduce, scan,
 * exscan, gather(v), scatter(v), the neighbourhood collectives) that progress in
 * the background.  The one public header.
 *
 * Model (as FFTW: plan once, execute many):
 *   nbo_comm_create()      bootstrap libnbo on an MPI communicator (collective)
 *   nbo_ialltoall[v]()     compile the call into a task list and start it
 *                          (nbo_iallreduce, nbo_iallgather[v], nbo_ibcast,
 *                          nbo_ireduce_scatter_block alike)
 *   nbo_alltoall[v]_init() compile once into a persistent request (and
 *                          the *_init form of each collective) ...
 *   nbo_start()            ... and only re-arm it on each start
 *   nbo_test/wait[all]()   complete requests, MPI semantics
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

/* NBO_VERSION_STRING of the library in use, e.g. "0.1.0". */
const char *nbo_version(void);

/* ----------------------------------------------------------------- errors */

enum {
    NBO_SUCCESS             =   0,
    NBO_ERR_ARG             =  -1, /* an invalid argument not covered below  */
    NBO_ERR_BUFFER          =  -2, /* NULL buffer with a nonzero count        */
    NBO_ERR_COUNT           =  -3, /* negative count or displacement          */
    NBO_ERR_OVERFLOW        =  -4, /* a byte size or offset overflows         */
    NBO_ERR_DATATYPE        =  -5, /* MPI_DATATYPE_NULL or not committed      */
    NBO_ERR_COMM            =  -6, /* NULL, freed or unusable communicator    */
    NBO_ERR_REQUEST_NULL    =  -7, /* operation on NBO_REQUEST_NULL           */
    NBO_ERR_REQUEST         =  -8, /* not a valid request handle              */
    NBO_ERR_ACTIVE          =  -9, /* request still active (start, free)      */
    NBO_ERR_PENDING         = -10, /* communicator still has live requests   */
    NBO_ERR_NOMEM           = -11, /* out of memory                           */
    NBO_ERR_MPI             = -12, /* an MPI call failed                      */
    NBO_ERR_ENGINE          = -13, /* engine not built or not usable here     */
    NBO_ERR_CONFIG          = -14, /* bad configuration value (NBO_* or struct) */
    NBO_ERR_THREAD_LEVEL    = -15, /* MPI thread level too low for this mode  */
    NBO_ERR_TIMEOUT         = -16, /* no progress within the timeout          */
    NBO_ERR_TRANSPORT       = -17, /* the network reported an error           */
    NBO_ERR_PEER            = -18, /* a peer failed or disconnected           */
    NBO_ERR_MISMATCH        = -19, /* ranks called with mismatched arguments  */
    NBO_ERR_INTERNAL        = -20, /* a libnbo bug: please report it          */
    NBO_ERR_OVERLAP         = -21, /* send and receive buffers overlap        */
    NBO_ERR_DEVICE          = -22, /* unsupported use of GPU device memory    */
    NBO_ERR_CUDA            = -23, /* no CUDA in this build or machine, or a
                                      CUDA runtime call failed               */
    NBO_ERR_ROOT            = -24, /* root out of range                       */
    NBO_ERR_OP              = -25, /* MPI_OP_NULL, or an op not defined on the
                                      datatype                               */
    NBO_ERR_CODEC           = -26  /* codec not available in this build (zfp
                                      without libzfp) or invalid codec
                                      setting, or data the codec refuses
                                      (NaN or infinity under zfp)            */
};

/* A static message for any code, never NULL ("unknown error" if unknown). */
const char *nbo_strerror(int err);

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
    size_t              reduce_large;   /* reduce, commutative op: Rabenseifner above this vector size */
} nbo_config_t;

/* progress_cpu: the highest-numbered core of the affinity mask the process
 * has when the thread starts (the launcher's binding), so that every rank
 * bound to its own cores puts its thread on its own spare core. */
#define NBO_PROGRESS_CPU_LAST (-2)

/* Defaults, ignoring the environment. */
void nbo_config_init(nbo_config_t *config);

/* Overwrite fields from the NBO_* variables of nbo_config_t that are set
 * (an empty one counts as unset).  Every variable is read: each bad value
 * is printed to stderr ("libnbo: NBO_WINDOW=abc is not valid (expected
 * ...)"), the valid ones are applied, and NBO_ERR_CONFIG is returned if any
 * was bad.  NBO_ERR_ARG for a NULL config. */
int nbo_config_from_env(nbo_config_t *config);

/* Set the field of one variable of nbo_config_t from a string, as
 * nbo_config_from_env reads it: nbo_config_set(&c, "NBO_WINDOW", "16").
 * Prints nothing.  NBO_ERR_CONFIG for a value the variable does not
 * accept (the field is left as it was), NBO_ERR_ARG for a name not in the
 * table or a NULL argument.  nbo_info(1) uses it to name each bad
 * variable. */
int nbo_config_set(nbo_config_t *config, const char *name, const char *value);

/* Names for printing ("thread", "pairwise", ...). */
const char *nbo_progress_name(nbo_progress_mode_t mode);
const char *nbo_algorithm_name(nbo_algorithm_t alg);
const char *nbo_progress_sched_name(nbo_progress_sched_t sched);
const char *nbo_codec_name(nbo_codec_t codec);

/* ---------------------------------------------------------- communicators */

typedef struct nbo_comm *nbo_comm_t;
#define NBO_COMM_NULL ((nbo_comm_t)0)

/* Collective over comm (an intra-communicator; MPI must be initialised).
 * The engine gets a private duplicate of comm (MPI_Comm_dup), so libnbo
 * traffic never matches the application's messages, and connects every
 * pair of ranks: the UCX engine exchanges worker addresses (MPI_Allgatherv)
 * and opens an endpoint to each peer, the verbs engine one RC queue pair
 * per peer (MPI_Alltoall of their addresses); the MPI engine needs nothing
 * more.  The cost grows with the size of comm: create a communicator once
 * and use it for many calls.  config NULL means nbo_config_init +
 * nbo_config_from_env.  Past the checks of its arguments every rank returns
 * the same code; on failure *out is NBO_COMM_NULL. */
int nbo_comm_create(MPI_Comm comm, const nbo_config_t *config, nbo_comm_t *out);

/* Collective.  Call it before MPI_Finalize, after completing every request
 * of the communicator (nbo_wait) and freeing its persistent ones
 * (nbo_request_free): it fails with NBO_ERR_PENDING while requests created
 * on comm are still live (active, or persistent and not freed).  On success
 * *comm is set to NBO_COMM_NULL.  After a fault (a request failed on comm)
 * it is local.  The ranks' agreement is bounded by NBO_TIMEOUT: when a peer
 * does not answer (it died after its last operation) the communicator is
 * released all the same, *comm set to NBO_COMM_NULL, and NBO_ERR_TIMEOUT
 * returned. */
int nbo_comm_free(nbo_comm_t *comm);

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

int nbo_comm_query(nbo_comm_t comm, nbo_comm_info_t *info);

/* The engines built into this libnbo.  nbo_engine_at: the i-th (i from 0),
 * in the order NBO_ENGINE=auto tries them, or NULL past the last, so that
 * for (i = 0; nbo_engine_at(i); i++) lists them.  nbo_engine_available: is
 * the engine called name (case ignored) built in and usable on this
 * machine?  Local, no MPI communication (MPI must be initialized);
 * NBO_SUCCESS, or NBO_ERR_ENGINE (not built in, or not usable here), or
 * NBO_ERR_CONFIG (the engine rejects a value of its NBO_* variables or of
 * its library's); detail (may be NULL) gets a line such as the device, the
 * transports, or why not. */
const char *nbo_engine_at(int i);
int nbo_engine_available(const char *name, char *detail, size_t len);

/* ------------------------------------------------------------ compression */

/*
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

/* Is this codec built into libnbo?  Local, no MPI.  NBO_SUCCESS or
 * NBO_ERR_CODEC (zfp in a build without libzfp, or a value that is no
 * codec); detail (may be NULL) gets a line such as the library version,
 * or why not. */
int nbo_codec_available(nbo_codec_t codec, char *detail, size_t len);

/* The a priori error bound of a codec at a rate on one datatype:
 * |decoded - x| <= *bound * max|block| for every value x of a block (the
 * values one rank sends one peer in one call; a complex number counts as
 * two values), when the block holds finite values only.  *bound = 0 for
 * NBO_CODEC_NONE and for a datatype or rate the codec leaves exact.
 * NBO_ERR_CODEC for a codec that is not available, a rate outside 1..64
 * (zfp), or where no a priori bound can be stated: zfp at every rate where
 * it compresses (fixed rate fixes the size, not the error;
 * docs/compression.md gives the measured errors); NBO_ERR_ARG for a NULL
 * bound.  Local, no MPI communication. */
int nbo_codec_bound(nbo_codec_t codec, int rate, MPI_Datatype type, double *bound);

/* ------------------------------------------------------------ GPU memory */

/*
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

/* Built with CUDA and a CUDA GPU usable in this process?  NBO_SUCCESS or
 * NBO_ERR_CUDA; detail (may be NULL) gets the devices, or why not (the
 * CUDA error string).  Initialises the CUDA runtime when built with it. */
int nbo_cuda_available(char *detail, size_t len);

/* -------------------------------------------------------------- requests */

typedef struct nbo_request *nbo_request_t;
#define NBO_REQUEST_NULL ((nbo_request_t)0)

/* Non-blocking all-to-all, arguments as MPI_Ialltoall(v).  sendbuf may be
 * MPI_IN_PLACE (send counts and type are then ignored).  Any committed
 * datatype: contiguous ones move without copies, others are packed. */
int nbo_ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  nbo_comm_t comm, nbo_request_t *req);
int nbo_ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype,
                   void *recvbuf, const int recvcounts[], const int rdispls[],
                   MPI_Datatype recvtype,
                   nbo_comm_t comm, nbo_request_t *req);

/* Persistent forms: compiled once, inactive until nbo_start.  The buffers
 * and counts are bound at init; their contents may change between starts. */
int nbo_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                      void *recvbuf, int recvcount, MPI_Datatype recvtype,
                      nbo_comm_t comm, nbo_request_t *req);
int nbo_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype,
                       void *recvbuf, const int recvcounts[], const int rdispls[],
                       MPI_Datatype recvtype,
                       nbo_comm_t comm, nbo_request_t *req);

/* Non-blocking all-to-all with a datatype per block, arguments as
 * MPI_Ialltoallw: block i of each side is counts[i] elements of types[i]
 * at byte displacement displs[i].  sendbuf may be MPI_IN_PLACE (the send
 * arrays are then ignored and may be NULL).  A block of count 0 may name
 * any type.  Pairwise exchange; non-contiguous blocks are packed one by
 * one with their own type.  NBO_ERR_ARG for a NULL array it needs,
 * NBO_ERR_COUNT for a negative count or displacement, NBO_ERR_DATATYPE
 * for a NULL or uncommitted type of a non-empty block, NBO_ERR_MISMATCH
 * when the block to oneself differs in bytes between the sides.  Never
 * compressed; device (GPU) buffers: NBO_ERR_DEVICE. */
int nbo_ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[],
                   const MPI_Datatype recvtypes[],
                   nbo_comm_t comm, nbo_request_t *req);

/* Persistent all-to-all with a datatype per block: compiled once, inactive
 * until nbo_start; arguments and errors as nbo_ialltoallw.  The types are
 * kept (duplicated) by the request: the caller may free theirs. */
int nbo_alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       const MPI_Datatype sendtypes[],
                       void *recvbuf, const int recvcounts[], const int rdispls[],
                       const MPI_Datatype recvtypes[],
                       nbo_comm_t comm, nbo_request_t *req);

/* Non-blocking allreduce and reduce-scatter-block, arguments as
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
 * buffers: NBO_ERR_DEVICE. */
int nbo_iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, nbo_comm_t comm, nbo_request_t *req);
int nbo_ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, nbo_comm_t comm,
                              nbo_request_t *req);

/* Non-blocking reduce-scatter with blocks of any size, as
 * MPI_Ireduce_scatter: the input is the recvcounts[0] + ... +
 * recvcounts[size-1] elements of sendbuf (of recvbuf with MPI_IN_PLACE),
 * rank i gets the reduction of block i, recvcounts[i] elements, at the
 * start of recvbuf; pairwise, rank order kept for any op.  Ops, types,
 * staging and errors as nbo_iallreduce, and NBO_ERR_ARG for a NULL
 * recvcounts. */
int nbo_ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, nbo_comm_t comm, nbo_request_t *req);

/* Persistent reduce-scatter: compiled once, inactive until nbo_start. */
int nbo_reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                            MPI_Datatype datatype, MPI_Op op, nbo_comm_t comm,
                            nbo_request_t *req);

/* Persistent allreduce and reduce-scatter-block: compiled once, inactive
 * until nbo_start; arguments and errors as nbo_iallreduce. */
int nbo_allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, nbo_comm_t comm, nbo_request_t *req);
int nbo_reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                  MPI_Datatype datatype, MPI_Op op, nbo_comm_t comm,
                                  nbo_request_t *req);

/* Non-blocking allgather(v), arguments as MPI_Iallgather(v).  sendbuf may
 * be MPI_IN_PLACE: each rank's block is then already in its place in
 * recvbuf (send count and type ignored).  Any committed datatype.  Device
 * (GPU) buffers: NBO_ERR_DEVICE. */
int nbo_iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   nbo_comm_t comm, nbo_request_t *req);
int nbo_iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    void *recvbuf, const int recvcounts[], const int displs[],
                    MPI_Datatype recvtype, nbo_comm_t comm, nbo_request_t *req);

/* Persistent allgather(v): compiled once, inactive until nbo_start. */
int nbo_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                       void *recvbuf, int recvcount, MPI_Datatype recvtype,
                       nbo_comm_t comm, nbo_request_t *req);
int nbo_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        void *recvbuf, const int recvcounts[], const int displs[],
                        MPI_Datatype recvtype, nbo_comm_t comm, nbo_request_t *req);

/* Non-blocking broadcast from root, arguments as MPI_Ibcast.  Any
 * committed datatype; NBO_ERR_ROOT for a root outside [0, size).  Device
 * (GPU) buffers: NBO_ERR_DEVICE. */
int nbo_ibcast(void *buffer, int count, MPI_Datatype datatype, int root,
               nbo_comm_t comm, nbo_request_t *req);

/* Persistent broadcast: compiled once, inactive until nbo_start. */
int nbo_bcast_init(void *buffer, int count, MPI_Datatype datatype, int root,
                   nbo_comm_t comm, nbo_request_t *req);

/* Non-blocking barrier, as MPI_Ibarrier: completes on a rank once every
 * rank of the communicator has called it (the dissemination algorithm,
 * ceil(log2 P) rounds of one-byte messages). */
int nbo_ibarrier(nbo_comm_t comm, nbo_request_t *req);

/* Persistent barrier (MPI-4's MPI_Barrier_init): inactive until nbo_start. */
int nbo_barrier_init(nbo_comm_t comm, nbo_request_t *req);

/* Non-blocking reduce to root, arguments as MPI_Ireduce: the result in
 * recvbuf on root only (recvbuf is not read or written elsewhere, and may
 * be NULL there).  sendbuf may be MPI_IN_PLACE on root alone (the input
 * is then in recvbuf; elsewhere NBO_ERR_BUFFER).  Ops, types, staging and
 * errors as nbo_iallreduce; NBO_ERR_ROOT for a root outside [0, size).  A
 * non-commutative op is applied in rank order (the tree reduces to rank 0,
 * which sends the result on to root). */
int nbo_ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                MPI_Op op, int root, nbo_comm_t comm, nbo_request_t *req);

/* Persistent reduce: compiled once, inactive until nbo_start. */
int nbo_reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, int root, nbo_comm_t comm, nbo_request_t *req);

/* Non-blocking inclusive and exclusive scan, arguments as MPI_Iscan and
 * MPI_Iexscan: rank i's recvbuf gets the reduction of the inputs of
 * ranks 0..i (exscan: 0..i-1; rank 0's recvbuf is left as it is, MPI
 * leaves it undefined), in rank order for any op (recursive doubling).
 * sendbuf may be MPI_IN_PLACE on any rank (the input is then in recvbuf).
 * Ops, types, staging and errors as nbo_iallreduce. */
int nbo_iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
              MPI_Op op, nbo_comm_t comm, nbo_request_t *req);
int nbo_iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                MPI_Op op, nbo_comm_t comm, nbo_request_t *req);

/* Persistent scan and exscan: compiled once, inactive until nbo_start. */
int nbo_scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                  MPI_Op op, nbo_comm_t comm, nbo_request_t *req);
int nbo_exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, nbo_comm_t comm, nbo_request_t *req);

/* Non-blocking gather(v) and scatter(v), arguments as MPI_Igather(v) and
 * MPI_Iscatter(v).  The arguments MPI calls significant only at root
 * (gather's receive side, scatter's send side) are read only there.
 * MPI_IN_PLACE at root alone: a gather's sendbuf (the root's block is
 * already in its place in recvbuf), a scatter's recvbuf (the root's block
 * stays in sendbuf); elsewhere NBO_ERR_BUFFER.  Any committed datatype.
 * NBO_ERR_ROOT for a root outside [0, size); NBO_ERR_MISMATCH when root's
 * own block differs in size from its slot.  Device (GPU) buffers:
 * NBO_ERR_DEVICE. */
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

/* Persistent gather(v) and scatter(v): compiled once, inactive until
 * nbo_start. */
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

/* Non-blocking neighbourhood collectives, arguments as
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
 * NBO_ERR_DEVICE. */
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

/* Persistent neighbourhood collectives (MPI-4's MPI_Neighbor_*_init):
 * the topology is read and the task list compiled once, inactive until
 * nbo_start; arguments and errors as nbo_ineighbor_alltoall. */
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

/* Start an inactive persistent request (NBO_ERR_ACTIVE if it is running). */
int nbo_start(nbo_request_t *req);

/* *flag = 1 when complete.  Each call on an active request also advances
 * the engines of its progress mode once, in either mode, as MPI_Test
 * does.  A completed non-persistent request is freed and
 * *req set to NBO_REQUEST_NULL; a persistent one becomes inactive.  A failed
 * request is completed the same way and its error returned.  As for
 * MPI_REQUEST_NULL in MPI, *req == NBO_REQUEST_NULL is no error: nbo_wait
 * returns NBO_SUCCESS at once and nbo_test sets *flag = 1 and returns
 * NBO_SUCCESS; so does an inactive persistent request.  req NULL (no
 * handle at all), or flag NULL: NBO_ERR_ARG. */
int nbo_test(nbo_request_t *req, int *flag);
int nbo_wait(nbo_request_t *req);

/* Advance every request of the communicators progressed inline, as nbo_test
 * does, without completing any; for a caller that waits in another library
 * (MPI) while libnbo requests are outstanding.  Thread-mode communicators
 * need nothing.  Returns the number of completion events handled. */
int nbo_progress(void);

/* Waits for all; NBO_REQUEST_NULL entries are skipped.  Returns the first
 * error met, after completing every request that can complete. */
int nbo_waitall(int count, nbo_request_t reqs[]);

/* Frees an inactive request (NBO_ERR_ACTIVE if it is still running). */
int nbo_request_free(nbo_request_t *req);

/* The algorithm the compiler chose for a request. */
int nbo_request_algorithm(nbo_request_t req, nbo_algorithm_t *alg);

/* A request's window (W) and, for a persistent request under NBO_TUNE,
 * how many more starts its trial takes (0: what it runs now is kept, or it
 * is not tuned; docs/tuning.md).  Either pointer may be NULL. */
int nbo_request_tuning(nbo_request_t req, int *window, int *trial_left);

/* Prints the request's compiled task list, one task a line. */
int nbo_request_print(nbo_request_t req, FILE *out);

/* ---------------------------------------------------------------- threads */

/*
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

/*
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
