/*
 * verbs_progress.c - completions: CQ polling, the completion channel the
 * progress thread sleeps on, NIC errors, and cancellation.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verbs_engine.h"

/* What a failed work completion means for the request. */
static int wc_error(nbo_engine_comm_t *ec, const struct ibv_wc *wc, int peer)
{
    switch (wc->status) {
    case IBV_WC_RETRY_EXC_ERR:     /* the peer stopped acknowledging */
    case IBV_WC_RNR_RETRY_EXC_ERR: /* the peer never posted the receive */
        return NBO_ERR_PEER;
    case IBV_WC_WR_FLUSH_ERR:      /* the QP was already in error */
        return ec->peers[peer].broken ? ec->peers[peer].broken : NBO_ERR_TRANSPORT;
    default:                       /* access, length, protection errors */
        return NBO_ERR_TRANSPORT;
    }
}

/* One completion; returns 1 if a task was reported. */
static int handle(nbo_engine_comm_t *ec, const struct ibv_wc *wc)
{
    verbs_op_t *op = (verbs_op_t *)(uintptr_t)wc->wr_id;
    verbs_peer_t *pe = &ec->peers[op->peer];
    NBO_LIST_UNLINK(op, inflight_link);
    if (op->is_send)
        pe->send_busy--;
    else
        pe->recv_busy--;
    int status = NBO_SUCCESS;
    if (wc->status != IBV_WC_SUCCESS) {
        status = wc_error(ec, wc, op->peer);
        if (ec->debug && (wc->status != IBV_WC_WR_FLUSH_ERR || ec->debug > 1))
            fprintf(stderr, "nbo verbs rank %d: %s to/from rank %d: %s\n", ec->rank,
                    op->is_send ? "send" : "receive", op->peer, ibv_wc_status_str(wc->status));
        verbs_peer_break(ec, op->peer, status);
    } else if (!op->is_send && op->x) {
        const nbo_task_t *t = &op->x->tasks[op->task];
        /* RC delivers in order and runs are queued in start order on both
         * sides, so this message must be the one this receive is for. */
        if (!(wc->wc_flags & IBV_WC_WITH_IMM) || ntohl(wc->imm_data) != op->x->tag ||
            wc->byte_len != t->len)
            status = NBO_ERR_MISMATCH;
        else if (op->bounce >= 0)
            memcpy((char *)op->x->buf[t->buf] + t->off,
                   ec->bounce + (size_t)op->bounce * ec->bounce_size, t->len);
    }
    verbs_bounce_put(ec, op->bounce);
    int reported = 0;
    if (op->x) { /* NULL: cancelled, nobody to tell */
        ec->sv->complete(op->x, op->task, status);
        reported = 1;
    }
    verbs_op_free(ec, op);
    return reported;
}

int verbs_engine_progress(nbo_engine_comm_t *ec)
{
    int done = 0;
    verbs_op_t *op;
    while ((op = verbs_opq_pop(&ec->failed))) {
        if (op->x) {
            ec->sv->complete(op->x, op->task, op->status);
            done++;
        }
        verbs_op_free(ec, op);
    }
    int seen = ec->nstash;
    for (int i = 0; i < ec->nstash; i++)
        done += handle(ec, &ec->stash[i]);
    ec->nstash = 0;
    struct ibv_wc wc[VERBS_POLL_BATCH];
    for (;;) {
        int n = ibv_poll_cq(ec->cq, VERBS_POLL_BATCH, wc);
        if (n < 0)
            return NBO_ERR_TRANSPORT;
        for (int i = 0; i < n; i++)
            done += handle(ec, &wc[i]);
        seen += n;
        if (n < VERBS_POLL_BATCH)
            break;
    }
    if (seen)
        verbs_pump_all(ec); /* room freed on the QPs (or bounce slots) */
    /* ops failed while pumping are reported on the next call: make sure it
     * comes soon by counting them as progress now */
    return done + (ec->failed.head != NULL);
}

int verbs_engine_event_fd(nbo_engine_comm_t *ec)
{
    return ec->channel ? ec->channel->fd : -1;
}

/* Consume the channel's events, ask for the next one, then look again:
 * a completion that arrived before the request would raise no event. */
int verbs_engine_arm(nbo_engine_comm_t *ec)
{
    struct ibv_cq *cq;
    void *ctx;
    while (ibv_get_cq_event(ec->channel, &cq, &ctx) == 0) /* fd is non-blocking */
        ibv_ack_cq_events(cq, 1);
    if (ec->failed.head || ec->nstash)
        return 1;
    if (ibv_req_notify_cq(ec->cq, 0))
        return 1; /* let progress() meet the error */
    int n = ibv_poll_cq(ec->cq, VERBS_POLL_BATCH, ec->stash);
    if (n != 0) {
        ec->nstash = n > 0 ? n : 0;
        return 1;
    }
    return NBO_SUCCESS;
}

/* Withdraw x.  Queued ops simply go; ops on the NIC cannot be taken back
 * one by one, so their QPs are put in the error state (the NIC flushes
 * them and will not touch x's memory again) and the ops are orphaned.
 * Every peer x had not finished with is broken too: its end still expects
 * x's messages in order, so a later collective must fail there rather than
 * match the wrong receives.  Cancel only happens after a failure or a
 * timeout; a broken peer stays unusable on this communicator. */
void verbs_engine_cancel(nbo_engine_comm_t *ec, nbo_exec_t *x)
{
    verbs_plan_t *plan = x->engine_data;
    verbs_op_t *op;
    char *unfinished = calloc((size_t)ec->size, 1);
    if (plan)
        for (int p = 0; p < ec->size; p++) {
            verbs_run_t *runs[2] = {&plan->send_run[p], &plan->recv_run[p]};
            for (int d = 0; d < 2; d++) {
                while ((op = verbs_opq_pop(&runs[d]->waiting))) {
                    ec->sv->complete(x, op->task, NBO_ERR_TRANSPORT);
                    verbs_op_free(ec, op);
                }
                if (runs[d]->queued) {
                    verbs_run_unqueue(d ? &ec->peers[p].recv_q : &ec->peers[p].send_q, runs[d]);
                    if (unfinished)
                        unfinished[p] = 1;
                    else
                        verbs_peer_break(ec, p, NBO_ERR_TRANSPORT);
                }
            }
        }
    verbs_opq_t keep = {0};
    while ((op = verbs_opq_pop(&ec->failed))) {
        if (op->x == x) {
            ec->sv->complete(x, op->task, op->status);
            verbs_op_free(ec, op);
        } else
            verbs_opq_push(&keep, op);
    }
    ec->failed = keep;
    LIST_FOREACH(op, &ec->inflight, inflight_link)
        if (op->x == x) {
            ec->sv->complete(x, op->task, NBO_ERR_TRANSPORT);
            op->x = NULL;
            if (unfinished)
                unfinished[op->peer] = 1;
            else
                verbs_peer_break(ec, op->peer, NBO_ERR_TRANSPORT);
        }
    if (unfinished)
        for (int p = 0; p < ec->size; p++)
            if (unfinished[p])
                verbs_peer_break(ec, p, NBO_ERR_TRANSPORT);
    free(unfinished);
}
