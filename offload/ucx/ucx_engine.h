/*
 * ucx_engine.h - the UCX (UCP tag-matching) engine.  Internal.
 *
 * One UCP context and one worker per process, shared by every nbo
 * communicator that uses this engine (refcounted), so the progress thread
 * sleeps on one descriptor.  Each communicator has its own endpoints to its
 * peers' workers and a communicator id agreed across its ranks; the id, the
 * collective's sequence number (x->tag) and the sender's rank form the
 * 64-bit UCP tag, matched with a full mask:
 *
 *     63        52 51                      20 19           0
 *    [ comm id 12 ][   collective tag 32     ][ src rank 20 ]
 *
 * State shared with the core (ucx_g, every communicator) is guarded by the
 * core's progress lock: the ops are called with it held, and open/close/
 * probe, which the core calls without it, take it around worker calls
 * (the services' lock(), offload/engine.h).  So
 * the worker runs in UCS_THREAD_MODE_SERIALIZED.
 */
#ifndef NBO_UCX_ENGINE_H
#define NBO_UCX_ENGINE_H

#include <pthread.h>
#include <stdint.h>
#include <ucp/api/ucp.h>

#include "../engine.h"

#define UCX_CID_BITS  12
#define UCX_TAG_BITS  32
#define UCX_RANK_BITS 20
#define UCX_MAX_COMMS (1u << UCX_CID_BITS)
#define UCX_MAX_RANKS (1u << UCX_RANK_BITS)

/* Buffers whose largest SEND/RECV moves at least this many bytes are
 * registered at plan_attach; smaller messages go eagerly through UCX's
 * bounce buffers, where a registration buys nothing. */
#define UCX_REG_MIN (16u * 1024u)

/* libnbo's rendezvous thresholds for a context whose transports are TCP
 * without RDMA, unless the user sets one (NBO_UCX_RNDV_THRESH or
 * UCX_RNDV_THRESH).  UCX 1.13 goes rendezvous from 8 KiB on tcp; each
 * rendezvous costs a round trip that both peers' progress threads must wake
 * for, taking CPU from the computation, while eager messages are already in
 * the kernel when the start returns.  When every peer of the communicator
 * that creates the context is on another host, every byte crosses TCP and
 * the kernel copies it either way: eager at all sizes (the pipelined FFT at
 * 128^3 went from 53 % to 102 % of its ideal gain).  With a peer on the
 * same host, shared memory's rendezvous is one CMA copy against two for
 * eager (1.4x faster at 1-4 MiB): eager below 128 KiB only.
 * docs/engine-ucx.md. */
#define UCX_TCP_RNDV_THRESH "128K"
#define UCX_TCP_RNDV_REMOTE "inf"

/* For a context whose transports are TCP without RDMA, libnbo sends
 * through UCX's copy path (ZCOPY_THRESH=inf), in tcp segments of this size
 * (UCX's default is 8 KiB; at most its 64 KiB receive segment), unless the
 * user sets NBO_UCX_ZCOPY_THRESH / UCX_ZCOPY_THRESH (the segment size also
 * gives way to UCX_TCP_TX_SEG_SIZE or UCX_TCP_RX_SEG_SIZE: TX may not
 * exceed RX).
 * Why: UCX 1.13.1 completes a zero-copy tcp send twice when the socket
 * fails while the send's rest is pushed from progress (uct_tcp_ep_sendv:
 * the error handler's purge completes it, then sendv completes it again),
 * and the assertion that catches it aborts the survivor of a dead peer.
 * Over TCP the kernel copies every byte either way.  docs/engine-ucx.md. */
#define UCX_TCP_COPY_SEG "64K"

/* How long cancel() lets withdrawn operations finish before it closes the
 * endpoint under them, and how long close() waits for endpoints to flush. */
#define UCX_CANCEL_MS 50
#define UCX_CLOSE_MS  10000

/* The collective-tag value of open's wire-up messages.  No operation is in
 * flight on a communicator while it opens, so they cannot be mistaken for
 * one; this value (collective 2^32-1) is simply the last a sequence reaches. */
#define UCX_WIREUP_TAG UINT32_MAX

/* ucp_worker_progress calls per progress() at most. */
#define UCX_PROGRESS_MAX 256

/* Fruitless ucp_worker_arm busy answers in a row before arm() lets the
 * caller sleep anyway. */
#define UCX_BUSY_MAX 16

/* One posted SEND or RECV task. */
typedef struct ucx_op {
    nbo_exec_t              *x;      /* NULL once cancel() gave up on it */
    int                      task;
    int                      peer;
    int                      status; /* NBO code of an immediate completion */
    void                    *req;    /* UCX request; NULL if done in post */
    struct nbo_engine_comm  *ec;
    LIST_ENTRY(ucx_op)       link;   /* in ec->posted while in flight */
    struct ucx_op           *qnext;       /* done queue or free list */
} ucx_op_t;

/* One registration-cache entry: a mapped address range. */
typedef struct ucx_reg {
    char           *base;
    size_t          len;
    ucp_mem_h       memh;
    int             refs;  /* plans using it; unmapped at zero */
    struct ucx_reg *next;
} ucx_reg_t;

/* x->engine_data: which buffers are worth registering and, once the plan
 * runs a second time, the registration covering each. */
typedef struct ucx_plan {
    int        want[NBO_BUF_COUNT];
    ucx_reg_t *reg[NBO_BUF_COUNT];
    int        first_task; /* first task posted in a run: a new start */
    int        starts;
    int        mapped;
} ucx_plan_t;

typedef struct ucx_peer {
    struct nbo_engine_comm *ec;
    ucp_ep_h                ep;       /* NULL once closed */
    int                     rank;
    int                     peer_err; /* created with UCP_ERR_HANDLING_MODE_PEER */
    int                     failed;   /* NBO_ERR_* once the endpoint broke */
} ucx_peer_t;

/* The engine's NBO_* variables (ucx_settings.c). */
typedef struct ucx_settings {
    char tls[128], rndv_thresh[32], zcopy_thresh[32]; /* UCX parses these */
    int  peer_errors; /* 1: PEER error mode on every endpoint */
    int  regcache;    /* 0: register nothing ahead of a send */
} ucx_settings_t;
extern ucx_settings_t                 ucx_set;
extern const nbo_setting_table_t ucx_settings_table;
/* Read them from the environment: NBO_SUCCESS or NBO_ERR_CONFIG (named on
 * stderr). */
int ucx_settings_load(void);

/* The process-wide context and worker. */
typedef struct ucx_shared {
    /* The core's services: set by open, read by completions (lock held). */
    const nbo_engine_services_t *sv;
    int            refs;         /* open communicators */
    ucp_context_h  ctx;
    ucp_worker_h   worker;
    int            efd;
    ucp_address_t *addr;
    size_t         addr_len;
    char           tls[80];      /* transports of the context: "self,tcp,..." */
    int            have_shm;     /* sysv/posix/xpmem among them */
    int            have_rdma;    /* rc/dc (RDMA-capable) among them */
    int            have_tcp;     /* tcp among them */
    int            peer_errors;  /* NBO_PEER_ERRORS=1: PEER mode everywhere */
    int            faulted;      /* an endpoint broke or was forced closed:
                                  * the worker is parked, not destroyed */
    const char    *rndv;         /* RNDV_THRESH libnbo set, NULL: UCX's own */
    uint64_t       cids[UCX_MAX_COMMS / 64]; /* communicator ids in use */
    ucx_op_t      *done_head, *done_tail;    /* completed inside post() */
    ucx_op_t      *free_ops;
    int            ops_in_use;   /* taken from ucx_op_get, not yet put back */
    ucx_reg_t     *regs;
    /* Wake-up bookkeeping (see ucx_progress.c). */
    struct nbo_engine_comm *current; /* whose progress() is running */
    int            cross;        /* completions for other comms meanwhile */
    int            armed;        /* ucp_worker_arm said OK, not yet woken */
    int            busy_streak;  /* busy answers with no completion since */
    pthread_t      sleeper;      /* the thread that armed it */
} ucx_shared_t;

extern ucx_shared_t ucx_g;

struct nbo_engine_comm {
    const nbo_engine_services_t *sv; /* the core's, from open: its lock */
    MPI_Comm    comm;
    int         size, rank;
    unsigned    cid;
    ucx_peer_t *peers;      /* [size] */
    LIST_HEAD(, ucx_op) posted; /* operations in flight */
    int         unreported; /* completions since the last progress() */
};

/* ucx_worker.c: the shared context and worker (lock held). */
int  ucx_shared_acquire(int all_remote);
uint64_t ucx_host_key(void);
void ucx_shared_release(void);
int  ucx_engine_probe(const nbo_engine_services_t *sv, char *detail, size_t len);
unsigned ucx_engine_caps(nbo_engine_comm_t *ec, char *detail, size_t len);

/* ucx_endpoint.c */
int  ucx_engine_open(MPI_Comm comm, const nbo_config_t *cfg, const nbo_engine_services_t *sv,
                     nbo_engine_comm_t **out);
void ucx_engine_close(nbo_engine_comm_t *ec, int broken);

/* ucx_memory.c */
int  ucx_engine_plan_attach(nbo_engine_comm_t *ec, nbo_exec_t *x);
/* Called by post() for each window: registers on the second start. */
void ucx_plan_note_post(nbo_exec_t *x, int first);
void ucx_engine_plan_detach(nbo_engine_comm_t *ec, nbo_exec_t *x);
void ucx_reg_release_all(void);

/* ucx_post.c */
int  ucx_engine_post(nbo_engine_comm_t *ec, nbo_exec_t *x, int first, int n);
uint64_t ucx_tag(unsigned cid, uint32_t tag, int src);
int  ucx_status(ucs_status_t st);

/* ucx_progress.c */
int  ucx_engine_progress(nbo_engine_comm_t *ec);
int  ucx_engine_event_fd(nbo_engine_comm_t *ec);
int  ucx_engine_arm(nbo_engine_comm_t *ec);
void ucx_engine_cancel(nbo_engine_comm_t *ec, nbo_exec_t *x);
/* Drive the worker until it has no more events (lock held). */
void ucx_drain(nbo_engine_comm_t *ec);
/* Report what post() completed inline, without progressing the worker. */
void ucx_flush_done(void);
/* A completion of op, from a UCX callback or the done queue. */
void ucx_op_finish(ucx_op_t *op, int status);
ucx_op_t *ucx_op_get(void);
void ucx_op_put(ucx_op_t *op);
/* Wake a sleeping progress thread if completions became visible outside
 * its own pass. */
void ucx_wake_sleeper(void);

#endif
