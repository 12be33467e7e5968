/*
 * ucx_post.c - SEND and RECV tasks as ucp_tag_send_nbx / ucp_tag_recv_nbx.
 *
 * Completion callbacks report through ucx_op_finish().  An operation that
 * UCX completes inside the call (an eager send copied out, a receive whose
 * message had arrived) goes on the done queue instead, reported by the next
 * progress(): engines report completions from progress() and cancel() only.
 */
#include "ucx_engine.h"

/* Marks recv_info that UCX left unfilled.  As a tag it would need rank
 * 2^20-1, collective 2^32-1 and communicator 4095 at once. */
#define UNFILLED UINT64_MAX

uint64_t ucx_tag(unsigned cid, uint32_t tag, int src)
{
    return (uint64_t)cid << (UCX_TAG_BITS + UCX_RANK_BITS) | (uint64_t)tag << UCX_RANK_BITS |
           ((uint64_t)(unsigned)src & (UCX_MAX_RANKS - 1));
}

int ucx_status(ucs_status_t st)
{
    switch (st) {
    case UCS_OK:
        return NBO_SUCCESS;
    case UCS_ERR_MESSAGE_TRUNCATED:
        return NBO_ERR_MISMATCH;
    case UCS_ERR_NO_MEMORY:
        return NBO_ERR_NOMEM;
    case UCS_ERR_CANCELED:
        return NBO_ERR_TIMEOUT; /* only cancel() withdraws, for a failed request */
    case UCS_ERR_ENDPOINT_TIMEOUT:
    case UCS_ERR_CONNECTION_RESET:
    case UCS_ERR_UNREACHABLE:
    case UCS_ERR_REJECTED:
    case UCS_ERR_NOT_CONNECTED:
        return NBO_ERR_PEER;
    default:
        return NBO_ERR_TRANSPORT;
    }
}

static void send_done(void *req, ucs_status_t st, void *user)
{
    ucx_op_t *op = user;
    op->req = NULL;
    ucp_request_free(req);
    ucx_op_finish(op, ucx_status(st));
}

static void recv_done(void *req, ucs_status_t st, const ucp_tag_recv_info_t *info, void *user)
{
    ucx_op_t *op = user;
    int rc = ucx_status(st);
    /* A shorter message than the task expects: the ranks disagree on counts. */
    if (rc == NBO_SUCCESS && op->x && info->length != op->x->tasks[op->task].len)
        rc = NBO_ERR_MISMATCH;
    op->req = NULL;
    ucp_request_free(req);
    ucx_op_finish(op, rc);
}

static void link_posted(nbo_engine_comm_t *ec, ucx_op_t *op)
{
    LIST_INSERT_HEAD(&ec->posted, op, link);
}

static void queue_done(ucx_op_t *op, int status)
{
    op->status = status;
    op->qnext = NULL;
    if (ucx_g.done_tail)
        ucx_g.done_tail->qnext = op;
    else
        ucx_g.done_head = op;
    ucx_g.done_tail = op;
}

int ucx_engine_post(nbo_engine_comm_t *ec, nbo_exec_t *x, int first, int n)
{
    /* All or nothing: refuse before posting anything. */
    for (int i = first; i < first + n; i++) {
        const ucx_peer_t *p = &ec->peers[x->tasks[i].peer];
        if (p->failed || !p->ep)
            return p->failed ? p->failed : NBO_ERR_PEER;
    }
    ucx_op_t *ops = NULL;
    for (int i = 0; i < n; i++) {
        ucx_op_t *op = ucx_op_get();
        if (!op) {
            while (ops) {
                ucx_op_t *o = ops;
                ops = o->qnext;
                ucx_op_put(o);
            }
            return NBO_ERR_NOMEM;
        }
        op->qnext = ops;
        ops = op;
    }

    ucx_plan_note_post(x, first);
    const ucx_plan_t *plan = x->engine_data;
    int queued = 0, in_flight = 0;
    for (int i = first; i < first + n; i++) {
        const nbo_task_t *t = &x->tasks[i];
        ucx_op_t *op = ops;
        ops = op->qnext;
        *op = (ucx_op_t){.x = x, .task = i, .peer = t->peer, .ec = ec};
        link_posted(ec, op);

        char *ptr = (char *)x->buf[t->buf] + t->off;
        /* UCX 1.13 fills recv_info on some immediate completions only (not
         * for a multi-fragment eager message that had fully arrived). */
        ucp_tag_recv_info_t info = {.sender_tag = UNFILLED};
        ucp_request_param_t prm = {
            .op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA,
            .user_data = op,
        };
        const ucx_reg_t *reg = plan ? plan->reg[t->buf] : NULL;
        if (reg && t->len >= UCX_REG_MIN) {
            prm.op_attr_mask |= UCP_OP_ATTR_FIELD_MEMH;
            prm.memh = reg->memh;
        }
        void *req;
        if (t->kind == NBO_TASK_SEND) {
            prm.cb.send = send_done;
            req = ucp_tag_send_nbx(ec->peers[t->peer].ep, ptr, t->len,
                                   ucx_tag(ec->cid, x->tag, ec->rank), &prm);
        } else {
            prm.cb.recv = recv_done;
            prm.op_attr_mask |= UCP_OP_ATTR_FIELD_RECV_INFO;
            prm.recv_info.tag_info = &info;
            req = ucp_tag_recv_nbx(ucx_g.worker, ptr, t->len, ucx_tag(ec->cid, x->tag, t->peer),
                                   UINT64_MAX, &prm);
        }
        if (UCS_PTR_IS_PTR(req)) {
            op->req = req;
            in_flight = 1;
            continue;
        }
        /* Done already, or failed: a failure completes this task with an
         * error (the request then fails and cancels the rest). */
        int rc = ucx_status(UCS_PTR_STATUS(req));
        if (rc == NBO_SUCCESS && t->kind == NBO_TASK_RECV && info.sender_tag != UNFILLED &&
            info.length != t->len)
            rc = NBO_ERR_MISMATCH;
        queue_done(op, rc);
        queued = 1;
    }
    /* Wake a sleeping progress thread for whatever was posted: for the
     * inline completions, and for the operations still in flight, whose
     * next step UCX may take only inside ucp_worker_progress without any
     * event on the armed descriptor (a TCP send that did not fit the socket,
     * a rendezvous) - the thread would sleep until its idle timeout, 1 s.
     * Only a thread other than the caller that armed the worker and sleeps
     * is signalled: none while the application drives (nbo_wait), one per
     * post call otherwise (tests/ucx/test_ucx_wake.c). */
    if (queued || in_flight)
        ucx_wake_sleeper();
    return NBO_SUCCESS;
}
