/*
 * ofi_trig.h - the offload's state, shared by ofi_trigger.c (open, close,
 * the queue of parts, progress), ofi_trig_post.c (posting a part) and
 * ofi_trig_atomic.c (a reduction's part, by triggered atomics).
 * Internal to offload/ofi/.
 */
#ifndef NBO_OFI_TRIG_H
#define NBO_OFI_TRIG_H

#include <stdint.h>
#include <sys/uio.h>

#include <rdma/fi_atomic.h>
#include <rdma/fi_trigger.h>

#include "ofi_engine.h"

/* Deferred sends one part may queue: sockets keeps them in a list without
 * a limit of its own; cxi has a trigger budget (FI_CXI_ENABLE_TRIG_OP_LIMIT). */
#define OFI_TRIG_MAX_SENDS 4096
/* How long a post that meets -FI_EAGAIN retries (the provider's own
 * thread frees room) before the part fails. */
#define OFI_TRIG_EAGAIN_MS 2000
/* How long a running part's counters may stand still before progress()
 * nudges them. */
#define OFI_TRIG_NUDGE_MS 100
/* Tag bit of the message that ends a part (to the own rank). */
#define OFI_DONE_BIT (OFI_CTL_BIT << 1)
/* Tag bit of the message that makes an all-to-all's own-block copy. */
#define OFI_COPY_BIT (OFI_CTL_BIT << 2)
/* Tag bit of a reduction's message "your atomics into me are in". */
#define OFI_APPLIED_BIT (OFI_CTL_BIT << 3)

typedef struct fi_context2 ofi_tctx_t;

/* A reduction's atomics: type, op, element size, elements per block
 * (reduce-scatter) or in all (allreduce), per atomic (at most the
 * provider's count). */
typedef struct ofi_atomic_plan {
    int    dt, op;
    int    all;   /* an allreduce: P blocks of the vector, then each sent */
    size_t elem, count, per;
} ofi_atomic_plan_t;

typedef struct ofi_run {
    nbo_exec_t        *x;
    int                first, n;      /* the part: tasks [first, first + n) */
    int                nsend, nrecv;
    int                nwait;         /* forwarding: WAITs, one window counter each;
                                         0: the receive counter counts every task */
    uint64_t           rtarget, starget; /* counter values once every task is done */
    uint64_t           wlast;         /* forwarding: the last window counter's end */
    int                started;
    int                withdrawn;     /* the provider may hold it until close */
    ofi_tctx_t        *ctx;           /* [nctx]: tasks, ready receives, done */
    int                nctx;
    int                nwork;         /* sends, done, deferred receives, chain adds,
                                         an own-block copy */
    struct fi_deferred_work *work;    /* [nwork] */
    struct fi_op_tagged *op;          /* [nsend + 1 + deferred receives] */
    struct fi_op_cntr *cop;           /* [nwait]: the chain adds */
    struct iovec      *iov;           /* [n] */
    struct iovec       copy_src;      /* the own-block copy's send */
    /* A reduction by triggered atomics (ofi_trig_atomic.c): */
    int                atomic;
    ofi_atomic_plan_t  ap;
    int                natomic;       /* atomics this rank sends */
    uint64_t           atarget;       /* the remote-write counter's end */
    struct fid_mr     *mr;            /* the receive buffer, open to the peers */
    struct fi_op_atomic *aop;         /* [natomic] */
    struct fi_ioc     *aioc;          /* [natomic] */
    struct fi_rma_ioc *arma;          /* [natomic] */
    struct ofi_run    *next;
} ofi_run_t;

typedef struct ofi_trig {
    struct fid_ep     *ep;
    struct fid_cntr   *rcntr;   /* receives: the triggers' counter */
    struct fid_cntr   *scntr;   /* sends */
    struct fid_cntr  **wc;      /* [nwc]: window counters (forwarding lists) */
    int                nwc;
    fi_addr_t         *addrs;   /* [size]: each rank's offload endpoint */
    struct fid_cntr   *acntr;   /* atomics into this rank's registered buffers */
    int                atomics; /* every rank has acntr: reductions may offload */
    uint64_t           rbase, sbase; /* counter values at the head part's start */
    uint64_t           abase;   /* acntr's, likewise */
    uint64_t           seen;    /* the counters' sum at the last poll, and when it */
    double             seen_at; /* changed: a part that stalls is nudged */
    uint64_t           errs;    /* fi_cntr_readerr seen, both counters */
    ofi_run_t         *head, *tail; /* head runs, the rest wait */
    ofi_run_t         *dead;    /* reported: freed once the counter passes
                                   their end (the provider may read their
                                   deferred work until then), or at close
                                   if withdrawn */
    int                broken;  /* a part failed: counts are lost, offload no
                                   more; -1: a failure progress() reports */
    int                fail_status; /* with -1: the NBO_ERR_* to report */
    struct fi_deferred_work probe;
    struct fi_op_cntr  probe_op;
} ofi_trig_t;

/* Post part r (steps 1-4 of ofi_trigger.c's header): 0 or a negative
 * fi_errno (the caller then withdraws what was posted). */
ssize_t ofi_trig_run_start(nbo_engine_comm_t *ec, ofi_run_t *r);
/* A COPY task of an offloaded part done at its start (ofi_stats.h). */
void    ofi_trig_count_copy(void);

/* ofi_trig_post.c: post a tagged message on the offload endpoint, queue
 * deferred work (both retried while the provider has no room), queue a
 * deferred tagged send (send) or receive as work j of r. */
ssize_t ofi_trig_post_msg(nbo_engine_comm_t *ec, int send, void *buf, size_t len, fi_addr_t to,
                          uint64_t tag, void *ctx, uint64_t flags);
ssize_t ofi_trig_queue(nbo_engine_comm_t *ec, struct fi_deferred_work *w);
ssize_t ofi_trig_queue_tagged(nbo_engine_comm_t *ec, ofi_run_t *r, int j, int send,
                              struct iovec *iov, int peer, uint64_t tag, struct fid_cntr *trig,
                              uint64_t threshold, struct fid_cntr *done);

/* ofi_trig_atomic.c: reductions by triggered atomics. */
/* Before the offload endpoint is enabled: its remote-write counter, where
 * the provider has atomics into requested keys at offsets (1), else 0. */
int     ofi_trig_atomic_open(nbo_engine_comm_t *ec, ofi_trig_t *t);
/* A run for x's list from first if its reduction can run as atomics: 1
 * (*out set, or NULL for no memory), 0 (the host path), -1 (the host
 * path, over a limit: why says which). */
int     ofi_trig_atomic_run(nbo_engine_comm_t *ec, nbo_exec_t *x, int first, ofi_run_t **out,
                            const char **why);
ssize_t ofi_trig_atomic_start(nbo_engine_comm_t *ec, ofi_run_t *r);
/* The part ended or failed: its registration closed (peers write no more). */
void    ofi_trig_atomic_end(ofi_run_t *r);

#endif
