/*
 * ofi_post.c - SEND and RECV tasks as fi_tsend / fi_trecv.
 *
 * A provider that has no room (-FI_EAGAIN) gets its CQ read and the post
 * retried a few times; what it still refuses waits in the backlog, in
 * order, and every later post of the communicator queues behind it, so
 * per-pair order holds.  progress() issues the backlog as completions
 * free room.  Completions found while posting wait in the done queue:
 * engines report from progress() and cancel() only.
 */
#include "ofi_engine.h"

uint64_t ofi_tag(uint32_t tag, int src)
{
    return (uint64_t)tag << OFI_TAG_SHIFT | ((uint64_t)(unsigned)src & (OFI_MAX_RANKS - 1));
}

ssize_t ofi_op_issue(nbo_engine_comm_t *ec, ofi_op_t *op)
{
    const nbo_exec_t *x = op->x;
    const nbo_task_t *t = &x->tasks[op->task];
    if (t->len > ec->info->ep_attr->max_msg_size)
        return -FI_EMSGSIZE;
    char *p = (char *)x->buf[t->buf] + t->off;
    if (t->kind == NBO_TASK_SEND)
        return fi_tsend(ec->ep, p, t->len, NULL, ec->addrs[t->peer], ofi_tag(x->tag, ec->rank),
                        op);
    return fi_trecv(ec->ep, p, t->len, NULL, FI_ADDR_UNSPEC, ofi_tag(x->tag, t->peer), 0, op);
}

static void backlog_push(nbo_engine_comm_t *ec, ofi_op_t *op)
{
    op->qnext = NULL;
    if (ec->back_tail)
        ec->back_tail->qnext = op;
    else
        ec->back_head = op;
    ec->back_tail = op;
}

/* The issue's outcome: posted, or finished at once with an error. */
static void issued(nbo_engine_comm_t *ec, ofi_op_t *op, ssize_t e)
{
    if (e == 0)
        op->posted = 1;
    else
        ofi_op_done(ec, op, e == -FI_EMSGSIZE ? NBO_ERR_OVERFLOW : ofi_status((int)-e));
}

void ofi_backlog_issue(nbo_engine_comm_t *ec)
{
    while (ec->back_head) {
        ofi_op_t *op = ec->back_head;
        ssize_t e = ofi_op_issue(ec, op);
        if (e == -FI_EAGAIN)
            return;
        ec->back_head = op->qnext;
        if (!ec->back_head)
            ec->back_tail = NULL;
        issued(ec, op, e);
    }
}

int ofi_engine_post(nbo_engine_comm_t *ec, nbo_exec_t *x, int first, int n)
{
    if (ec->failed)
        return ec->failed;
    ofi_stat_add(OFI_STAT_HOST, n);
    /* All or nothing: every op taken before any is posted. */
    ofi_op_t *ops = NULL;
    for (int i = 0; i < n; i++) {
        ofi_op_t *op = ofi_op_get(ec);
        if (!op) {
            while (ops) {
                ofi_op_t *o = ops;
                ops = o->qnext;
                ofi_op_put(ec, o);
            }
            return NBO_ERR_NOMEM;
        }
        op->qnext = ops;
        ops = op;
    }
    for (int i = first; i < first + n; i++) {
        ofi_op_t *op = ops;
        ops = op->qnext;
        op->x = x;
        op->task = i;
        op->status = NBO_SUCCESS;
        op->posted = 0;
        /* In ec->ops from now until its completion is reported. */
        op->next = &ec->ops;
        op->prev = ec->ops.prev;
        ec->ops.prev->next = op;
        ec->ops.prev = op;
        if (ec->back_head) {
            backlog_push(ec, op);
            continue;
        }
        ssize_t e = ofi_op_issue(ec, op);
        for (int tries = 0; e == -FI_EAGAIN && tries < OFI_EAGAIN_TRIES; tries++) {
            int rc = ofi_cq_drain(ec);
            if (rc < 0 && !ec->failed)
                ec->failed = rc;
            e = ofi_op_issue(ec, op);
        }
        if (e == -FI_EAGAIN)
            backlog_push(ec, op);
        else
            issued(ec, op, e);
    }
    /* Completions read here, not by the thread that may sleep on the CQ's
     * descriptor: wake it. */
    if (ec->done_head && ec->wait_fd >= 0)
        fi_cq_signal(ec->cq);
    return NBO_SUCCESS;
}
