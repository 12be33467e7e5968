/*
 * ofi_progress.c - completions from the CQ, the wait descriptor, arming,
 * cancel.
 *
 * Every op of the communicator is on ec->ops from post until its
 * completion is reported: issued to the provider, waiting in the backlog,
 * or read from the CQ into the done queue.  An op that cancel() reported
 * while the provider still held it stays there as an orphan (x NULL): its
 * late completion only frees it, and the endpoint's close releases the
 * rest.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>

#include "ofi_engine.h"

ofi_op_t *ofi_op_get(nbo_engine_comm_t *ec)
{
    ofi_op_t *op = ec->free_ops;
    if (op)
        ec->free_ops = op->qnext;
    else
        op = malloc(sizeof(*op));
    return op;
}

void ofi_op_put(nbo_engine_comm_t *ec, ofi_op_t *op)
{
    op->qnext = ec->free_ops;
    ec->free_ops = op;
}

void ofi_ops_free(nbo_engine_comm_t *ec)
{
    if (ec->ops.next)
        while (ec->ops.next != &ec->ops) {
            ofi_op_t *op = ec->ops.next;
            ec->ops.next = op->next;
            free(op);
        }
    while (ec->free_ops) {
        ofi_op_t *op = ec->free_ops;
        ec->free_ops = op->qnext;
        free(op);
    }
}

void ofi_op_done(nbo_engine_comm_t *ec, ofi_op_t *op, int status)
{
    op->posted = 0;
    op->status = status;
    op->qnext = NULL;
    if (ec->done_tail)
        ec->done_tail->qnext = op;
    else
        ec->done_head = op;
    ec->done_tail = op;
}

static void unlink_op(ofi_op_t *op)
{
    op->prev->next = op->next;
    op->next->prev = op->prev;
}

int ofi_status(int err)
{
    switch (err) {
    case 0:
        return NBO_SUCCESS;
    case FI_ETRUNC:
    case FI_EMSGSIZE:
        return NBO_ERR_MISMATCH;
    case FI_ENOMEM:
        return NBO_ERR_NOMEM;
    case FI_ECANCELED: /* outside cancel(): ofi_rxm withdraws what it had
                        * queued towards a peer whose connection broke */
    case FI_ETIMEDOUT:
    case FI_ECONNREFUSED:
    case FI_ECONNRESET:
    case FI_ECONNABORTED:
    case FI_ENOTCONN:
    case FI_EHOSTUNREACH:
    case FI_ENETUNREACH:
    case FI_ENETDOWN:
    case FI_EADDRNOTAVAIL:
    case EPIPE: /* fi_errno.h has no FI_EPIPE; providers pass errno on */
    case FI_EHOSTDOWN:
    case FI_ESHUTDOWN:
        return NBO_ERR_PEER;
    default:
        return NBO_ERR_TRANSPORT;
    }
}

/* A receive shorter than its task: the ranks disagree on counts. */
static int entry_status(const ofi_op_t *op, const struct fi_cq_tagged_entry *ce)
{
    if (op->x && (ce->flags & FI_RECV) && ce->len != op->x->tasks[op->task].len)
        return NBO_ERR_MISMATCH;
    return NBO_SUCCESS;
}

int ofi_cq_drain(nbo_engine_comm_t *ec)
{
    int found = 0;
    for (int round = 0; round < OFI_CQ_ROUNDS; round++) {
        struct fi_cq_tagged_entry ce[OFI_CQ_BATCH];
        ssize_t n = fi_cq_read(ec->cq, ce, OFI_CQ_BATCH);
        if (n == -FI_EAGAIN)
            break;
        if (n == -FI_EAVAIL) {
            struct fi_cq_err_entry err = {0};
            if (fi_cq_readerr(ec->cq, &err, 0) != 1)
                return NBO_ERR_TRANSPORT;
            if (!err.op_context) /* names no operation: the endpoint is gone */
                return ofi_status(err.err) != NBO_ERR_TRANSPORT ? ofi_status(err.err)
                                                                : NBO_ERR_TRANSPORT;
            if (ofi_trig_owns(ec, err.op_context)) { /* an offloaded part's */
                ofi_trig_event(ec, err.op_context, err.err ? err.err : FI_EOTHER);
                found++;
                continue;
            }
            int st = ofi_status(err.err ? err.err : FI_EOTHER);
            if (err.err == FI_ECANCELED && ec->canceling)
                st = NBO_ERR_TIMEOUT; /* withdrawn by cancel(), for a failed request */
            ofi_op_done(ec, err.op_context, st);
            found++;
            continue;
        }
        if (n < 0)
            return NBO_ERR_TRANSPORT;
        for (ssize_t i = 0; i < n; i++) {
            ofi_op_t *op = ce[i].op_context;
            /* The message that ends an offloaded part: its part may be
             * freed already (the counters said so first). */
            if (((ce[i].flags & FI_RECV) && (ce[i].tag & OFI_CTL_BIT)) || ofi_trig_owns(ec, op))
                ofi_trig_event(ec, op, 0);
            else
                ofi_op_done(ec, op, entry_status(op, &ce[i]));
        }
        found += (int)n;
        if (n < OFI_CQ_BATCH)
            break;
    }
    return found;
}

/* Report the done queue: how many tasks. */
static int report_done(nbo_engine_comm_t *ec)
{
    int n = 0;
    while (ec->done_head) {
        ofi_op_t *op = ec->done_head;
        ec->done_head = op->qnext;
        if (!ec->done_head)
            ec->done_tail = NULL;
        unlink_op(op);
        if (op->x) {
            ec->sv->complete(op->x, op->task, op->status);
            n++;
        }
        ofi_op_put(ec, op);
    }
    return n;
}

int ofi_engine_progress(nbo_engine_comm_t *ec)
{
    ofi_stat_add(OFI_STAT_PROGRESS, 1);
    ofi_backlog_issue(ec);
    int rc = ofi_cq_drain(ec);
    if (rc < 0 && !ec->failed)
        ec->failed = rc;
    if (rc > 0)
        ofi_backlog_issue(ec); /* completions made room */
    int n = report_done(ec);
    int k = ofi_trig_progress(ec);
    if (k < 0 && !ec->failed)
        ec->failed = k;
    else if (k > 0)
        n += k;
    if (n > 0)
        ec->busy_streak = 0;
    return ec->failed ? ec->failed : n;
}

int ofi_engine_event_fd(nbo_engine_comm_t *ec) { return ec->wait_fd; }

/* NBO_SUCCESS: safe to sleep on the descriptor (or, without one, to be
 * polled at the thread's pace).  1: events are pending, progress first. */
int ofi_engine_arm(nbo_engine_comm_t *ec)
{
    if (ec->done_head || ofi_trig_sending(ec))
        return 1;
    if (ec->wait_fd < 0)
        return NBO_SUCCESS;
    struct fid *f = &ec->cq->fid;
    int e = fi_trywait(ec->fabric, &f, 1);
    if (e == -FI_EAGAIN && ++ec->busy_streak < OFI_BUSY_MAX)
        return 1;
    /* Ready, or a provider that keeps answering busy while its CQ stays
     * empty: sleep (the thread's sleep is bounded). */
    ec->busy_streak = 0;
    return NBO_SUCCESS;
}

static int has_posted_of(nbo_engine_comm_t *ec, nbo_exec_t *x)
{
    for (ofi_op_t *op = ec->ops.next; op != &ec->ops; op = op->next)
        if (op->x == x && op->posted)
            return 1;
    return 0;
}

/* Report the ops of x that the done queue holds; a success counts as a
 * withdrawal, as its request is failing. */
static void report_done_of(nbo_engine_comm_t *ec, nbo_exec_t *x)
{
    ofi_op_t **pp = &ec->done_head, *last = NULL;
    while (*pp) {
        ofi_op_t *op = *pp;
        if (op->x != x) {
            last = op;
            pp = &op->qnext;
            continue;
        }
        *pp = op->qnext;
        unlink_op(op);
        ec->sv->complete(x, op->task, op->status != NBO_SUCCESS ? op->status : NBO_ERR_TIMEOUT);
        ofi_op_put(ec, op);
    }
    ec->done_tail = last;
}

void ofi_engine_cancel(nbo_engine_comm_t *ec, nbo_exec_t *x)
{
    ofi_trig_cancel(ec, x); /* its offloaded part, if it has one */
    /* 1. The backlog: never issued, withdrawn at once. */
    ofi_op_t **pp = &ec->back_head, *last = NULL;
    while (*pp) {
        ofi_op_t *op = *pp;
        if (op->x != x) {
            last = op;
            pp = &op->qnext;
            continue;
        }
        *pp = op->qnext;
        unlink_op(op);
        ec->sv->complete(x, op->task, NBO_ERR_TIMEOUT);
        ofi_op_put(ec, op);
    }
    ec->back_tail = last;

    /* 2. Issued ones: fi_cancel, then read the CQ a short while for their
     * completions (canceled or finished). */
    ec->canceling = 1;
    for (ofi_op_t *op = ec->ops.next; op != &ec->ops; op = op->next)
        if (op->x == x && op->posted)
            fi_cancel(&ec->ep->fid, op);
    double until = nbo_now() + OFI_CANCEL_MS * 1e-3;
    while (has_posted_of(ec, x) && nbo_now() < until) {
        int rc = ofi_cq_drain(ec);
        if (rc < 0 && !ec->failed)
            ec->failed = rc;
        if (rc <= 0)
            sched_yield();
    }
    ec->canceling = 0;
    report_done_of(ec, x);

    /* 3. Orphans: reported now; the provider may still read (send) or
     * write (receive) their buffers until the endpoint closes
     * (docs/engine-ofi.md). */
    for (ofi_op_t *op = ec->ops.next; op != &ec->ops; op = op->next)
        if (op->x == x) {
            ec->sv->complete(x, op->task, NBO_ERR_TIMEOUT);
            op->x = NULL;
        }
    if (ec->done_head && ec->wait_fd >= 0)
        fi_cq_signal(ec->cq); /* other requests' completions read here */
}
