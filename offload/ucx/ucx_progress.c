/*
 * ucx_progress.c - completions, the event descriptor, arming, cancel.
 *
 * Wake-ups.  The worker is shared, so one progress() call may complete
 * tasks of any communicator.  Every completion is counted on its own
 * communicator (ec->unreported): its progress() returns the count, and its
 * arm() refuses to sleep while the count is not zero, so a completion that
 * landed during another communicator's poll is never slept on.  When
 * completions become visible outside the sleeping thread's own pass (the
 * application posted and UCX finished inline, or an inline communicator's
 * poll completed a thread communicator's task), ucx_wake_sleeper() signals
 * the worker once: one wake-up per event, and none when nobody sleeps.
 */
#include <stdlib.h>
#include <time.h>

#include "ucx_engine.h"

ucx_op_t *ucx_op_get(void)
{
    ucx_op_t *op = ucx_g.free_ops;
    if (op)
        ucx_g.free_ops = op->qnext;
    else
        op = malloc(sizeof(*op));
    if (op)
        ucx_g.ops_in_use++;
    return op;
}

void ucx_op_put(ucx_op_t *op)
{
    op->qnext = ucx_g.free_ops;
    ucx_g.free_ops = op;
    ucx_g.ops_in_use--;
}

/* A worker that saw a fault and has nothing in flight is left alone: a peer
 * that was only stopped past NBO_TIMEOUT and then resumed reconnects to
 * it, the worker answers with a new endpoint id, and UCX 1.13 then aborts
 * the resumed peer (ucp_ep.inl, remote_id == remote_ep_id; seen in
 * 'test_ucx_fault ucx/thread P=2' under ASan, where the progress thread progressed
 * the worker between the fault and nbo_comm_free).  A new operation ends
 * the quarantine. */
static int quarantined(void) { return ucx_g.faulted && ucx_g.ops_in_use == 0; }

void ucx_op_finish(ucx_op_t *op, int status)
{
    NBO_LIST_UNLINK(op, link);
    if (op->x) {
        ucx_g.sv->complete(op->x, op->task, status);
        if (op->ec) {
            op->ec->unreported++;
            if (op->ec != ucx_g.current)
                ucx_g.cross = 1;
        }
    }
    ucx_op_put(op);
}

void ucx_wake_sleeper(void)
{
    if (ucx_g.armed && !pthread_equal(pthread_self(), ucx_g.sleeper)) {
        ucp_worker_signal(ucx_g.worker);
        ucx_g.armed = 0;
    }
}

/* Report what post() completed inline. */
void ucx_flush_done(void)
{
    while (ucx_g.done_head) {
        ucx_op_t *op = ucx_g.done_head;
        ucx_g.done_head = op->qnext;
        if (!ucx_g.done_head)
            ucx_g.done_tail = NULL;
        ucx_op_finish(op, op->status);
    }
}

void ucx_drain(nbo_engine_comm_t *ec)
{
    if (!ucx_g.worker)
        return;
    if (ucx_g.armed && pthread_equal(pthread_self(), ucx_g.sleeper))
        ucx_g.armed = 0; /* the sleeper is awake */
    ucx_g.current = ec;
    ucx_g.cross = 0;
    ucx_flush_done();
    /* Until no more events, bounded so a busy link cannot hold the lock
     * for long; arm() then reports the rest as pending. */
    for (int i = 0; !quarantined() && i < UCX_PROGRESS_MAX &&
                    ucp_worker_progress(ucx_g.worker) != 0; i++)
        ;
    ucx_g.current = NULL;
    if (ucx_g.cross)
        ucx_wake_sleeper();
}

int ucx_engine_progress(nbo_engine_comm_t *ec)
{
    ucx_drain(ec);
    int n = ec->unreported;
    if (n > 0)
        ucx_g.busy_streak = 0;
    ec->unreported = 0;
    return n;
}

int ucx_engine_event_fd(nbo_engine_comm_t *ec)
{
    (void)ec;
    return ucx_g.efd; /* the one worker's: the thread sleeps on one fd */
}

/* NBO_SUCCESS: safe to sleep on the fd.  1: events are pending, the caller
 * must progress first (we never spin here). */
int ucx_engine_arm(nbo_engine_comm_t *ec)
{
    if (ec->unreported > 0 || ucx_g.done_head)
        return 1;
    if (quarantined())
        return NBO_ARM_QUIET; /* its events would only be left unread */
    pthread_t self = pthread_self();
    if (ucx_g.armed && pthread_equal(self, ucx_g.sleeper))
        return NBO_SUCCESS; /* armed for another communicator of this pass */
    ucs_status_t st = ucp_worker_arm(ucx_g.worker);
    if (st != UCS_OK) {
        /* UCS_ERR_BUSY: unprocessed events, the caller progresses first.
         * UCX 1.13's shared-memory transports can answer busy forever while
         * ucp_worker_progress finds nothing (see docs/engine-ucx.md): after
         * a streak of fruitless answers, let the caller sleep (it sleeps
         * with a bounded timeout and the lock released) instead of
         * spinning with the lock held. */
        if (++ucx_g.busy_streak < UCX_BUSY_MAX)
            return 1;
        ucx_g.busy_streak = 0;
        return NBO_SUCCESS;
    }
    ucx_g.busy_streak = 0;
    ucx_g.armed = 1;
    ucx_g.sleeper = self;
    return NBO_SUCCESS;
}

static int has_ops_of(nbo_engine_comm_t *ec, nbo_exec_t *x)
{
    for (ucx_op_t *op = LIST_FIRST(&ec->posted); op; op = LIST_NEXT(op, link))
        if (op->x == x)
            return 1;
    return 0;
}

/* Close the endpoint under operations that would not cancel (a rendezvous
 * send waits for its peer): UCX completes them with UCS_ERR_CANCELED.  Only
 * for PEER-mode endpoints, as forcing needs it on both sides. */
static void force_close(ucx_peer_t *p)
{
    ucp_request_param_t prm = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS,
                               .flags = UCP_EP_CLOSE_FLAG_FORCE};
    void *req = ucp_ep_close_nbx(p->ep, &prm);
    p->ep = NULL;
    ucx_g.faulted = 1;
    if (!p->failed)
        p->failed = NBO_ERR_PEER;
    if (!UCS_PTR_IS_PTR(req))
        return;
    double until = nbo_now() + UCX_CANCEL_MS * 1e-3;
    while (ucp_request_check_status(req) == UCS_INPROGRESS && nbo_now() < until)
        ucp_worker_progress(ucx_g.worker);
    ucp_request_free(req);
}

void ucx_engine_cancel(nbo_engine_comm_t *ec, nbo_exec_t *x)
{
    /* 1. What post() finished inline and nobody reported yet. */
    ucx_op_t **pp = &ucx_g.done_head, *last = NULL;
    while (*pp) {
        ucx_op_t *op = *pp;
        if (op->x == x) {
            *pp = op->qnext;
            int st = op->status;
            ucx_op_finish(op, st != NBO_SUCCESS ? st : NBO_ERR_TIMEOUT);
        } else {
            last = op;
            pp = &op->qnext;
        }
    }
    ucx_g.done_tail = last;

    /* 2. Cancel the rest: receives withdraw at once; a send that UCX cannot
     * withdraw gets a short while to finish. */
    int n = 0;
    for (ucx_op_t *op = LIST_FIRST(&ec->posted); op; op = LIST_NEXT(op, link))
        n += op->x == x && op->req;
    void **reqs = n ? malloc((size_t)n * sizeof(*reqs)) : NULL;
    n = 0;
    for (ucx_op_t *op = LIST_FIRST(&ec->posted); reqs && op; op = LIST_NEXT(op, link))
        if (op->x == x && op->req)
            reqs[n++] = op->req;
    for (int i = 0; i < n; i++)
        ucp_request_cancel(ucx_g.worker, reqs[i]); /* its callback frees it */
    free(reqs);
    double until = nbo_now() + UCX_CANCEL_MS * 1e-3;
    while (has_ops_of(ec, x) && nbo_now() < until)
        ucx_drain(ec);

    /* 3. Still there: close the endpoint under them where UCX allows it. */
    for (ucx_op_t *op = LIST_FIRST(&ec->posted); op; op = LIST_NEXT(op, link))
        if (op->x == x) {
            ucx_peer_t *p = &ec->peers[op->peer];
            if (p->ep && p->peer_err) {
                force_close(p);
                op = LIST_FIRST(&ec->posted); /* the list changed under us */
                if (!op)
                    break;
            }
        }

    /* 4. Orphans: report them now; their late callbacks only free them.
     * UCX may still read (send) or write (receive) their buffers until
     * then: see docs/engine-ucx.md. */
    for (ucx_op_t *op = LIST_FIRST(&ec->posted); op; op = LIST_NEXT(op, link))
        if (op->x == x) {
            ucx_g.sv->complete(x, op->task, NBO_ERR_TIMEOUT);
            op->x = NULL;
        }
}
