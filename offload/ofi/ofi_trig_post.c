/*
 * ofi_trig_post.c - posting an offloaded part: its receives, the ready
 * messages, the deferred sends and, for a list that forwards data, the
 * chain of window counters (ofi_trigger.c's header says how they count).
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "ofi_trig.h"

/* Post one operation on the offload endpoint, retrying while the provider
 * has no room (its own thread makes it): 0 or a negative fi_errno. */
static ssize_t retry(nbo_engine_comm_t *ec, ssize_t (*fn)(nbo_engine_comm_t *, void *), void *a)
{
    const double until = nbo_now() + OFI_TRIG_EAGAIN_MS * 1e-3;
    ssize_t e;
    while ((e = fn(ec, a)) == -FI_EAGAIN && nbo_now() < until)
        sched_yield();
    return e;
}

typedef struct {
    ofi_trig_t *t;
    const struct fi_msg_tagged *msg;
    uint64_t flags;
    int send;
} msg_arg_t;

static ssize_t do_msg(nbo_engine_comm_t *ec, void *a)
{
    (void)ec;
    const msg_arg_t *m = a;
    return m->send ? fi_tsendmsg(m->t->ep, m->msg, m->flags) : fi_trecvmsg(m->t->ep, m->msg, m->flags);
}

static ssize_t do_work(nbo_engine_comm_t *ec, void *a)
{
    return fi_control(&ec->domain->fid, FI_QUEUE_WORK, a);
}

static ssize_t post_msg(nbo_engine_comm_t *ec, int send, void *buf, size_t len, fi_addr_t to,
                        uint64_t tag, void *ctx, uint64_t flags)
{
    struct iovec iov = {.iov_base = buf, .iov_len = len};
    struct fi_msg_tagged msg = {.msg_iov = &iov, .iov_count = 1, .addr = to, .tag = tag,
                                .context = ctx};
    msg_arg_t a = {ec->trig, &msg, flags, send};
    return retry(ec, do_msg, &a);
}

/* Queue deferred tagged operation j of r: a send of iov to rank peer, or
 * a receive from any rank, fired when trig reaches threshold; its
 * completion counts on done. */
static ssize_t queue_tagged(nbo_engine_comm_t *ec, ofi_run_t *r, int j, int send,
                            struct iovec *iov, int peer, uint64_t tag, struct fid_cntr *trig,
                            uint64_t threshold, struct fid_cntr *done)
{
    ofi_trig_t *t = ec->trig;
    /* sockets wants the context to be the work's own. */
    r->op[j] = (struct fi_op_tagged){
        .ep = t->ep,
        .msg = {.msg_iov = iov, .iov_count = 1, .addr = send ? t->addrs[peer] : FI_ADDR_UNSPEC,
                .tag = tag, .context = &r->work[j].context}};
    /* Its completion counts on completion_cntr (sockets: instead of the
     * endpoint's counter). */
    r->work[j] = (struct fi_deferred_work){.threshold = threshold, .triggering_cntr = trig,
                                           .completion_cntr = done,
                                           .op_type = send ? FI_OP_TSEND : FI_OP_TRECV};
    r->work[j].op.tagged = &r->op[j];
    return retry(ec, do_work, &r->work[j]);
}

static ssize_t queue_send(nbo_engine_comm_t *ec, ofi_run_t *r, int j, struct iovec *iov,
                          int peer, uint64_t tag, struct fid_cntr *trig, uint64_t threshold)
{
    return queue_tagged(ec, r, j, 1, iov, peer, tag, trig, threshold, ec->trig->scntr);
}

/* Queue work j of r: add 1 to to once trig reaches threshold. */
static ssize_t queue_add(nbo_engine_comm_t *ec, ofi_run_t *r, int j, int c,
                         struct fid_cntr *trig, uint64_t threshold, struct fid_cntr *to)
{
    r->cop[c] = (struct fi_op_cntr){.cntr = to, .value = 1};
    r->work[j] = (struct fi_deferred_work){.threshold = threshold, .triggering_cntr = trig,
                                           .op_type = FI_OP_CNTR_ADD};
    r->work[j].op.cntr = &r->cop[c];
    return retry(ec, do_work, &r->work[j]);
}

/* A part whose sends read only the send buffer: one counter for every
 * receive (ofi_trigger.c's header). */
/* A COPY task the host makes at the part's start. */
static void host_copy(const nbo_exec_t *x, const nbo_task_t *k, const struct iovec *to)
{
    memcpy(to->iov_base, (char *)x->buf[k->src_buf] + k->src_off, k->len);
    ofi_trig_count_copy();
}

/* Both part kinds: the receive of the part's done message, then a ready
 * message to the peer of every receive (they are posted). */
static ssize_t post_done_and_ready(nbo_engine_comm_t *ec, ofi_run_t *r, uint64_t ctl,
                                   ofi_tctx_t *done)
{
    const nbo_task_t *T = r->x->tasks;
    ssize_t e = post_msg(ec, 0, NULL, 0, FI_ADDR_UNSPEC, ctl | OFI_DONE_BIT, done, FI_COMPLETION);
    for (int i = r->first; e == 0 && i < r->first + r->n; i++)
        if (T[i].kind == NBO_TASK_RECV)
            e = post_msg(ec, 1, NULL, 0, ec->trig->addrs[T[i].peer], ctl, NULL, 0);
    return e;
}

/* The part's one COPY of any length (an all-to-all's own block), which the
 * provider makes as a message to the own rank; -1 if none or several (the
 * host copies those: equal tags would leave their order to the provider). */
static int provider_copy(const ofi_run_t *r)
{
    const nbo_task_t *T = r->x->tasks;
    int found = -1;
    for (int i = r->first; i < r->first + r->n; i++)
        if (T[i].kind == NBO_TASK_COPY && T[i].len > 0) {
            if (found >= 0)
                return -1;
            found = i;
        }
    return found;
}

static ssize_t run_start(nbo_engine_comm_t *ec, ofi_run_t *r)
{
    ofi_trig_t *t = ec->trig;
    nbo_exec_t *x = r->x;
    const nbo_task_t *T = x->tasks;
    const int copy = provider_copy(r);
    /* The copy is one more receive and send of the part. */
    const uint64_t S = (uint64_t)r->nsend, R = (uint64_t)r->nrecv, C = copy >= 0;
    r->rtarget = t->rbase + S + R + C;
    r->starget = t->sbase + R + S + C + 1; /* and the done message */
    r->started = 1;
    ofi_tctx_t *ready = r->ctx + r->n, *done = ready + r->nsend;
    const uint64_t ctl = OFI_CTL_BIT | ofi_tag(x->tag, ec->rank);
    ssize_t e = 0;
    int j = 0;
    for (int i = r->first; e == 0 && i < r->first + r->n; i++) {
        const nbo_task_t *k = &T[i];
        r->iov[i - r->first] = (struct iovec){(char *)x->buf[k->buf] + k->off, k->len};
        if (k->kind == NBO_TASK_RECV)
            e = post_msg(ec, 0, r->iov[i - r->first].iov_base, k->len, FI_ADDR_UNSPEC,
                         ofi_tag(x->tag, k->peer), &r->ctx[i - r->first], 0);
        else if (k->kind == NBO_TASK_SEND)
            e = post_msg(ec, 0, NULL, 0, FI_ADDR_UNSPEC, OFI_CTL_BIT | ofi_tag(x->tag, k->peer),
                         &ready[j++], 0);
        else if (k->kind == NBO_TASK_COPY && i == copy)
            e = post_msg(ec, 0, r->iov[i - r->first].iov_base, k->len, FI_ADDR_UNSPEC,
                         ctl | OFI_COPY_BIT, &r->ctx[i - r->first], 0);
        else if (k->kind == NBO_TASK_COPY)
            host_copy(x, k, &r->iov[i - r->first]);
    }
    if (e == 0)
        e = post_done_and_ready(ec, r, ctl, done);
    /* Window k: once the ready messages and the receives of the WAITs
     * before it are in (a WAIT's receives: counted on its slot of iov). */
    for (int i = r->first; i < r->first + r->n; i++)
        if (T[i].kind == NBO_TASK_WAIT)
            r->iov[i - r->first].iov_len = 0;
    for (int i = r->first; i < r->first + r->n; i++)
        if (T[i].kind == NBO_TASK_RECV && T[i].wait >= r->first && T[i].wait < r->first + r->n)
            r->iov[T[i].wait - r->first].iov_len++;
    uint64_t threshold = t->rbase + S;
    j = 0;
    for (int i = r->first; e == 0 && i < r->first + r->n; i++) {
        const nbo_task_t *k = &T[i];
        if (k->kind == NBO_TASK_WAIT)
            threshold += r->iov[i - r->first].iov_len;
        else if (k->kind == NBO_TASK_SEND)
            e = queue_send(ec, r, j++, &r->iov[i - r->first], k->peer, ofi_tag(x->tag, ec->rank),
                           t->rcntr, threshold);
    }
    /* The own block once every ready message is in: its receive may then
     * fire the later windows early (the pace changes, not the data), never
     * the first before a peer is ready. */
    if (e == 0 && copy >= 0) {
        r->copy_src = (struct iovec){(char *)x->buf[T[copy].src_buf] + T[copy].src_off,
                                     T[copy].len};
        e = queue_send(ec, r, r->nwork - 1, &r->copy_src, ec->rank, ctl | OFI_COPY_BIT,
                       t->rcntr, t->rbase + S);
    }
    static struct iovec none = {NULL, 0};
    if (e == 0)
        e = queue_send(ec, r, j, &none, ec->rank, ctl | OFI_DONE_BIT, t->rcntr, r->rtarget);
    return e;
}

/* Steps 1-2 of a forwarding part: its receives deferred (threshold 0),
 * each counting on its WAIT's counter wc[w], the ready receives, the
 * COPY tasks, the ready messages. */
static ssize_t fwd_post(nbo_engine_comm_t *ec, ofi_run_t *r, const int *ord)
{
    ofi_trig_t *t = ec->trig;
    nbo_exec_t *x = r->x;
    const nbo_task_t *T = x->tasks;
    ofi_tctx_t *ready = r->ctx + r->n, *done = ready + r->nsend;
    const uint64_t ctl = OFI_CTL_BIT | ofi_tag(x->tag, ec->rank);
    ssize_t e = 0;
    int j = 0, q = r->nsend + 1;
    for (int i = r->first; e == 0 && i < r->first + r->n; i++) {
        const nbo_task_t *k = &T[i];
        r->iov[i - r->first] = (struct iovec){(char *)x->buf[k->buf] + k->off, k->len};
        if (k->kind == NBO_TASK_RECV)
            e = queue_tagged(ec, r, q++, 0, &r->iov[i - r->first], 0, ofi_tag(x->tag, k->peer),
                             t->rcntr, 0, t->wc[ord[k->wait - r->first]]);
        else if (k->kind == NBO_TASK_SEND)
            e = post_msg(ec, 0, NULL, 0, FI_ADDR_UNSPEC, OFI_CTL_BIT | ofi_tag(x->tag, k->peer),
                         &ready[j++], 0);
        else if (k->kind == NBO_TASK_COPY)
            host_copy(x, k, &r->iov[i - r->first]);
    }
    if (e == 0)
        e = post_done_and_ready(ec, r, ctl, done);
    return e;
}

/* A forwarding part: window counter w ends at its WAIT's receives + 1,
 * the 1 added once counter w - 1 ended (for w = 0: once every ready
 * message is in), so counter w's end means every receive of WAITs 0..w
 * and every ready message are in.  Window k's sends fire at the end of
 * counter k - 1, the done message at the end of the last. */
static ssize_t run_start_fwd(nbo_engine_comm_t *ec, ofi_run_t *r)
{
    ofi_trig_t *t = ec->trig;
    const nbo_task_t *T = r->x->tasks;
    const int W = r->nwait;
    const uint64_t S = (uint64_t)r->nsend;
    r->rtarget = t->rbase + S;
    r->starget = t->sbase + (uint64_t)r->nrecv + S + 1; /* and the done message */
    r->started = 1;
    int *ord = malloc((size_t)r->n * sizeof(*ord));
    uint64_t *end = malloc((size_t)W * sizeof(*end));
    if (!ord || !end) {
        free(ord);
        free(end);
        return -FI_ENOMEM;
    }
    ssize_t e = 0;
    /* Every earlier part ended: nothing counts on the window counters. */
    for (int w = 0, i = r->first; i < r->first + r->n; i++)
        if (T[i].kind == NBO_TASK_WAIT) {
            ord[i - r->first] = w;
            end[w] = 1;
            if (e == 0)
                e = fi_cntr_set(t->wc[w], 0);
            w++;
        }
    for (int i = r->first; i < r->first + r->n; i++)
        if (T[i].kind == NBO_TASK_RECV)
            end[ord[T[i].wait - r->first]]++;
    if (e == 0)
        e = fwd_post(ec, r, ord);
    struct fid_cntr *trig = t->rcntr;
    uint64_t threshold = t->rbase + S;
    int j = 0;
    for (int i = r->first; e == 0 && i < r->first + r->n; i++) {
        const nbo_task_t *k = &T[i];
        if (k->kind == NBO_TASK_WAIT) {
            trig = t->wc[ord[i - r->first]];
            threshold = end[ord[i - r->first]];
        } else if (k->kind == NBO_TASK_SEND)
            e = queue_send(ec, r, j++, &r->iov[i - r->first], k->peer,
                           ofi_tag(r->x->tag, ec->rank), trig, threshold);
    }
    /* The chain last: a counter fires its triggers in the order they were
     * queued, so window k's sends leave before window k + 1's (messages
     * between a pair match their receives in order). */
    int q = r->nsend + 1 + r->nrecv, c = 0;
    if (e == 0)
        e = queue_add(ec, r, q++, c++, t->rcntr, t->rbase + S, t->wc[0]);
    for (int w = 0; e == 0 && w + 1 < W; w++)
        e = queue_add(ec, r, q++, c++, t->wc[w], end[w], t->wc[w + 1]);
    static struct iovec none = {NULL, 0};
    r->wlast = end[W - 1];
    if (e == 0)
        e = queue_send(ec, r, j, &none, ec->rank,
                       OFI_CTL_BIT | ofi_tag(r->x->tag, ec->rank) | OFI_DONE_BIT, trig,
                       threshold);
    free(ord);
    free(end);
    return e;
}

ssize_t ofi_trig_run_start(nbo_engine_comm_t *ec, ofi_run_t *r)
{
    if (r->atomic)
        return ofi_trig_atomic_start(ec, r);
    return r->nwait ? run_start_fwd(ec, r) : run_start(ec, r);
}

/* For ofi_trig_atomic.c. */
ssize_t ofi_trig_post_msg(nbo_engine_comm_t *ec, int send, void *buf, size_t len, fi_addr_t to,
                          uint64_t tag, void *ctx, uint64_t flags)
{
    return post_msg(ec, send, buf, len, to, tag, ctx, flags);
}

ssize_t ofi_trig_queue(nbo_engine_comm_t *ec, struct fi_deferred_work *w)
{
    return retry(ec, do_work, w);
}

ssize_t ofi_trig_queue_tagged(nbo_engine_comm_t *ec, ofi_run_t *r, int j, int send,
                              struct iovec *iov, int peer, uint64_t tag, struct fid_cntr *trig,
                              uint64_t threshold, struct fid_cntr *done)
{
    return queue_tagged(ec, r, j, send, iov, peer, tag, trig, threshold, done);
}
