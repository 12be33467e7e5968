/*
 * ofi_trig.h - the offload's state, shared by ofi_trigger.c (open, close,
 * the queue of parts, progress) and ofi_trig_post.c (posting a part).
 * Internal to offload/ofi/.
 */
#ifndef NBO_OFI_TRIG_H
#define NBO_OFI_TRIG_H

#include <stdint.h>
#include <sys/uio.h>

#include <rdma/fi_trigger.h>

#include "ofi_engine.h"

/* Deferred sends one part may queue: sockets keeps them in a list without
 * a limit of its own; cxi has a trigger budget (FI_CXI_ENABLE_TRIG_OP_LIMIT). */
#define OFI_TRIG_MAX_SENDS 4096
/* How long a post that meets -FI_EAGAIN retries (the provider's own
 * thread frees room) before the part fails. */
#define OFI_TRIG_EAGAIN_MS 2000
/* Tag bit of the message that ends a part (to the own rank). */
#define OFI_DONE_BIT (OFI_CTL_BIT << 1)
/* Tag bit of the message that makes an all-to-all's own-block copy. */
#define OFI_COPY_BIT (OFI_CTL_BIT << 2)

typedef struct fi_context2 ofi_tctx_t;

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
    ofi_tctx_t        *ctx;           /* [n + nsend + 1]: tasks, ready receives, done */
    int                nwork;         /* sends, done, deferred receives, chain adds,
                                         an own-block copy */
    struct fi_deferred_work *work;    /* [nwork] */
    struct fi_op_tagged *op;          /* [nsend + 1 + deferred receives] */
    struct fi_op_cntr *cop;           /* [nwait]: the chain adds */
    struct iovec      *iov;           /* [n] */
    struct iovec       copy_src;      /* the own-block copy's send */
    struct ofi_run    *next;
} ofi_run_t;

typedef struct ofi_trig {
    struct fid_ep     *ep;
    struct fid_cntr   *rcntr;   /* receives: the triggers' counter */
    struct fid_cntr   *scntr;   /* sends */
    struct fid_cntr  **wc;      /* [nwc]: window counters (forwarding lists) */
    int                nwc;
    fi_addr_t         *addrs;   /* [size]: each rank's offload endpoint */
    uint64_t           rbase, sbase; /* counter values at the head part's start */
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

#endif
