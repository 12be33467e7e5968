/*
 * schedule.h - the task list (paper Fig. 1) and the compiler that builds it.
 *
 * A task list is plain data, the same for every engine: for the all-to-all,
 * receives first, then windows of W sends, each window closed by a WAIT on
 * exactly the sends and receives it covers; the other collectives post their
 * receives round by round, never more than W sends in flight.  Between two
 * ranks the k-th SEND from A to B matches the k-th RECV at B from A.  Buffers are named (user send, user recv, scratch) and
 * addressed in bytes, so a list can be printed, compared and checked without
 * MPI.  The compiler is pure: no I/O, no MPI, no global state.
 */
#ifndef NBO_SCHEDULE_H
#define NBO_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <nbo.h>

/* The collectives a task list implements.  NBO_CHECK sends coll * 2 +
 * persistent to the other ranks and prints it when they differ. */
typedef enum nbo_coll {
    NBO_COLL_ALLTOALLV = 0,
    NBO_COLL_ALLTOALL  = 1,
    NBO_COLL_ALLGATHER,
    NBO_COLL_ALLGATHERV,
    NBO_COLL_BCAST,
    NBO_COLL_ALLREDUCE,
    NBO_COLL_REDUCE_SCATTER_BLOCK,
    NBO_COLL_NEIGHBOR_ALLTOALL,
    NBO_COLL_NEIGHBOR_ALLTOALLV,
    NBO_COLL_NEIGHBOR_ALLGATHER,
    NBO_COLL_NEIGHBOR_ALLGATHERV,
    NBO_COLL_BARRIER,
    NBO_COLL_REDUCE,
    NBO_COLL_GATHER,
    NBO_COLL_GATHERV,
    NBO_COLL_SCATTER,
    NBO_COLL_SCATTERV,
    NBO_COLL_SCAN,
    NBO_COLL_EXSCAN,
    NBO_COLL_REDUCE_SCATTER,
    NBO_COLL_ALLTOALLW, /* alltoallv in bytes; a type per block packs apart */
    NBO_COLL_COUNT
} nbo_coll_t;

/* Which buffer a byte range lives in. */
typedef enum {
    NBO_BUF_SEND = 0, /* the user's send buffer                    */
    NBO_BUF_RECV = 1, /* the user's receive buffer                 */
    NBO_BUF_TMP  = 2, /* scratch owned by the request (sched->tmp_bytes) */
    NBO_BUF_COUNT
} nbo_buf_t;

typedef enum {
    NBO_TASK_RECV,   /* receive len bytes from peer into (buf, off)           */
    NBO_TASK_SEND,   /* send len bytes at (buf, off) to peer                  */
    NBO_TASK_WAIT,   /* block until the `count` tasks naming this wait are done */
    NBO_TASK_COPY,   /* local memcpy (src_buf, src_off) -> (buf, off), len     */
    NBO_TASK_PACK,   /* pack user send block `peer` (non-contiguous type) to (buf, off) */
    NBO_TASK_UNPACK, /* unpack (src_buf, src_off) into user recv block `peer`  */
    NBO_TASK_REDUCE, /* (buf, off) = (src_buf, src_off) op (buf, off), len bytes of
                        whole elements (MPI_Reduce_local(src, dst)): src is the
                        left operand, the lower ranks' data for ordered ops */
    NBO_TASK_ENCODE, /* compress len bytes at (src_buf, src_off), the block for
                        `peer`, into the message at (buf, off): the sched's
                        codec, nbo_codec_wire_bytes(len) bytes (codec/codec.h) */
    NBO_TASK_DECODE  /* decompress the message at (src_buf, src_off), received
                        from `peer`, into len bytes at (buf, off) */
} nbo_task_kind_t;

typedef struct nbo_task {
    uint8_t  kind;     /* nbo_task_kind_t */
    uint8_t  buf;      /* destination (RECV/COPY/PACK/ENCODE/DECODE) or source
                          (SEND) buffer */
    uint8_t  src_buf;  /* COPY/UNPACK/REDUCE/ENCODE/DECODE source buffer */
    int32_t  peer;     /* SEND/RECV/ENCODE/DECODE: rank; PACK/UNPACK: block
                          index; else -1 */
    int32_t  wait;     /* SEND/RECV: index of the WAIT task that covers it;
                          WAIT: number of tasks it waits for */
    size_t   off;
    size_t   src_off;
    size_t   len;
} nbo_task_t;

/* What the compiler needs of a call, in bytes.  Contiguous user types give
 * byte offsets straight into the user buffers; a non-contiguous side is
 * marked and addressed by packed offsets instead.
 *
 * Peers are explicit: speers[nsend] are the ranks this rank sends to and
 * rpeers[nrecv] those it receives from, in order (a rank may repeat: the
 * k-th block to a peer is the k-th message to it), and sbytes/sdispl,
 * rbytes/rdispl follow those lists.  The collectives below list every rank
 * 0..P-1 in order (lists NULL with nsend = nrecv = 0 say the same), so
 * their arrays are indexed by rank; the algorithms that need that
 * structure run only then, and a call with other lists (a neighbourhood
 * collective) takes an entry of its table marked peer_lists.  A block
 * index (PACK/UNPACK) is a list position.
 *
 * How each collective fills the arrays (all: size, rank, window, algorithm,
 * coll, send_contig/recv_contig, in_place; a non-contiguous side goes through
 * PACK/UNPACK by block index; PACK in place packs the RECEIVE buffer's block):
 *   ALLTOALL(V)  sbytes/sdispl, rbytes/rdispl per peer; uniform for ALLTOALL;
 *                small_max unused (bruck_max).
 *   ALLGATHER(V) rbytes[i], rdispl[i]: rank i's block in RECV (uniform set
 *                for ALLGATHER, whose blocks then lie end to end in rank
 *                order on every rank: rdispl[i + 1] = rdispl[i] + rbytes[i]);
 *                sbytes[rank] = rbytes[rank], sdispl[rank] = 0:
 *                the own block in SEND, every other sbytes 0.  in_place: the
 *                own block is already in RECV at rdispl[rank].  Non-contiguous
 *                recv: block index i; send: block index rank.  small_max: total
 *                bytes (sum of rbytes) up to which recursive doubling / Bruck.
 *   BCAST        root; rbytes[0] = total bytes, rdispl[0] = 0: the data is in
 *                RECV on every rank (root's input there); sbytes/sdispl all 0;
 *                in_place 1 (so PACK of block 0 reads the receive buffer);
 *                non-contiguous: block 0.  small_max: bytes up to which binomial.
 *   ALLREDUCE    rbytes[0] = n = count * elem, rdispl[0] = 0; input in SEND at
 *                0 (sbytes[0] = n, sdispl[0] = 0), or in RECV when in_place;
 *                output in RECV at 0.  elem, commutative (0: the result is
 *                x0 op x1 op ... op x(P-1), see NBO_TASK_REDUCE).  Contiguous
 *                only.  small_max: n up to which recursive doubling.
 *   REDUCE_SCATTER_BLOCK  sbytes[i] = block bytes (uniform), sdispl[i] =
 *                i * block: P input blocks in SEND (in RECV when in_place);
 *                rbytes[rank] = block, rdispl[rank] = 0 (others 0): the result
 *                block in RECV at 0.  elem, commutative as for ALLREDUCE.
 *                Contiguous only.  small_max unused.
 *   NEIGHBOR_*   the topology's neighbours as explicit lists (a rank may
 *                repeat, MPI_PROC_NULL left out): speers/sbytes/sdispl in
 *                the order the blocks go out, rpeers/rbytes/rdispl in the
 *                order receives are posted; block index = list position.
 *                A rank's own entries (a self loop, a periodic dimension
 *                of size 1) are copied locally, the k-th to itself into
 *                the k-th from itself.  Never in place.  small_max unused.
 *   BARRIER      every byte array 0: the task list sends one byte of
 *                scratch per message (zero-byte messages make no tasks).
 *   REDUCE       root; sbytes[0] = rbytes[0] = n = count * elem on every
 *                rank (sdispl[0] = rdispl[0] = 0): the input in SEND at 0,
 *                in RECV at the root when in_place; the result in RECV at
 *                0 on the root only (the others' RECV is never touched).
 *                elem, commutative as for ALLREDUCE.  small_max unused.
 *   GATHER(V)    root; sbytes[rank], sdispl[rank]: the own block in SEND
 *                (block index rank), every other sbytes 0; at the root
 *                rbytes[i], rdispl[i]: rank i's block in RECV (all 0
 *                elsewhere).  in_place (root only): the own block already
 *                in RECV, sbytes[root] = rbytes[root].  GATHER is uniform:
 *                every rank's block is sbytes[rank] bytes.  small_max:
 *                block bytes up to which the binomial tree.
 *   SCATTER(V)   root; at the root sbytes[i], sdispl[i]: rank i's block in
 *                SEND; rbytes[rank], rdispl[rank]: the own block in RECV
 *                (others 0).  in_place (root only): the P blocks are in
 *                RECV at rdispl[i] (rbytes[i]), the own one where it is,
 *                and sbytes all 0.  SCATTER is uniform: every rank's block
 *                is rbytes[rank] bytes.  small_max as for GATHER.
 *   REDUCE_SCATTER  as REDUCE_SCATTER_BLOCK with blocks of any size:
 *                sbytes[i] = block i's bytes, sdispl[i] the sum of those
 *                before it; rbytes[rank] = sbytes[rank].
 *   SCAN, EXSCAN as ALLREDUCE: the result over ranks 0..rank (EXSCAN:
 *                0..rank-1, rank 0's RECV left as it is) in RECV at 0.
 *
 * Compression (ALLTOALL(V) only, both sides contiguous): codec (nbo_codec_t),
 * codec_rate, codec_elem (codec/codec.h's nbo_celem_t of both sides); it applies
 * when nbo_sched_codec_on() says so, and the blocks are then whole scalars.
 * Other collectives leave the three 0. */
typedef struct nbo_sched_args {
    int           size;           /* P */
    int           rank;
    int           nsend, nrecv;   /* entries of the peer lists (above)      */
    const int    *speers;         /* [nsend] ranks sent to, in order        */
    const int    *rpeers;         /* [nrecv] ranks received from, in order  */
    const size_t *sbytes;         /* [nsend] bytes sent to each peer        */
    const size_t *sdispl;         /* [nsend] byte offset of each send block */
    const size_t *rbytes;         /* [nrecv] bytes received from each peer  */
    const size_t *rdispl;         /* [nrecv] byte offset of each recv block */
    const struct nbo_sched_alg *algs; /* the collective's algorithm table
                                     (its family's, sched_algs.h)          */
    int           send_contig;    /* 0: blocks must be PACKed to scratch    */
    int           recv_contig;    /* 0: blocks arrive in scratch, UNPACKed  */
    int           in_place;       /* send data is in the recv buffer        */
    int           host_first;     /* all-to-all: local tasks before the first
                                     message and after the last WAIT, so an
                                     engine that runs lists (NBO_CAP_HW_WAITS)
                                     takes the messages whole              */
    int           uniform;        /* all blocks the same size (alltoall)    */
    nbo_coll_t    coll;           /* which collective (its algorithm table) */
    int           root;           /* bcast, reduce, gather(v), scatter(v):
                                     the root rank                         */
    size_t        elem;           /* reductions: bytes per element; REDUCE
                                     tasks and segments are multiples      */
    int           commutative;    /* reductions: 0 keeps rank order         */
    nbo_algorithm_t algorithm;    /* AUTO resolves by bruck_max / small_max */
    int           window;         /* W >= 1                                 */
    size_t        bruck_max;
    size_t        small_max;      /* at most this many bytes: the latency-bound
                                     algorithm (see each collective above)  */
    int           codec;          /* nbo_codec_t: compressed blocks (above)  */
    int           codec_rate;     /* ZFP bits per value                     */
    int           codec_elem;     /* nbo_celem_t (codec/codec.h)            */
    size_t        codec_chunk;    /* raw bytes per compressed message (0:
                                     NBO_CODEC_CHUNK, codec/codec.h)       */
} nbo_sched_args_t;

/* 1 when the call's blocks are compressed: an all-to-all(v) of contiguous
 * floating-point blocks whose codec changes them (codec/codec.h). */
int nbo_sched_codec_on(const nbo_sched_args_t *a);
/* The raw bytes per compressed message: codec_chunk (or the codec's
 * default) rounded down to whole blocks of 4 scalars, at least one. */
size_t nbo_sched_codec_chunk(const nbo_sched_args_t *a);

/* Default small_max per collective (MPICH's short-message sizes), for the
 * NBO_ALLREDUCE_SMALL, NBO_ALLGATHER_SMALL, NBO_BCAST_SMALL and
 * NBO_REDUCE_LARGE settings; NBO_GATHER_SMALL's is docs/configuration.md's. */
#define NBO_SCHED_ALLREDUCE_SMALL 2048   /* vector bytes */
#define NBO_SCHED_ALLGATHER_SMALL 81920  /* total bytes of all blocks */
#define NBO_SCHED_BCAST_SMALL     12288  /* message bytes */
#define NBO_SCHED_GATHER_SMALL    4096   /* gather, scatter: bytes per block */
#define NBO_SCHED_REDUCE_LARGE    2048   /* reduce: vector bytes */

typedef struct nbo_sched {
    nbo_task_t     *tasks;
    int             ntasks;
    int             nwaits;
    size_t          tmp_bytes;    /* scratch the request must provide */
    nbo_algorithm_t algorithm;    /* resolved, never AUTO */
    int             codec;        /* ENCODE/DECODE tasks' codec, rate and   */
    int             codec_rate;   /* scalar kind (all 0 in a list without   */
    int             codec_elem;   /* them)                                  */
} nbo_sched_t;

/* Compile.  Returns NBO_SUCCESS, NBO_ERR_NOMEM, NBO_ERR_ARG,
 * NBO_ERR_OVERFLOW or (bcast) NBO_ERR_ROOT; on error *out is left empty. */
int nbo_sched_compile(const nbo_sched_args_t *args, nbo_sched_t *out);
void nbo_sched_destroy(nbo_sched_t *sched);

/* One line per task, for debugging and tests. */
void nbo_sched_print(const nbo_sched_t *sched, FILE *out);
const char *nbo_task_kind_name(int kind);

/* The algorithm AUTO resolves to for these arguments. */
nbo_algorithm_t nbo_sched_choose(const nbo_sched_args_t *args);

/* The algorithms of the table that may compile these arguments and that
 * NBO_TUNE should try (the entry's tune_wants), AUTO's choice first, at
 * most max of them: how many were written. */
int nbo_sched_candidates(const nbo_sched_args_t *args, nbo_algorithm_t *out, int max);

/* 0 when the algorithm's list does not depend on the window (a tuner
 * need not try its windows). */
int nbo_sched_windowed(const nbo_sched_args_t *args, nbo_algorithm_t id);

/* 1 when the peer lists are every rank 0..P-1 in order, both ways. */
int nbo_sched_all_ranks(const nbo_sched_args_t *args);

#endif /* NBO_SCHEDULE_H */
