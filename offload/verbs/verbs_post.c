/*
 * verbs_post.c - hand SEND/RECV tasks to the NIC as chains of work requests.
 *
 * post() only queues a window's tasks on their (plan, peer) run; pump()
 * moves them to the NIC, one ibv_post_send / ibv_post_recv chain (wr.next)
 * per QP, in the order the collectives were started: a run may reach a
 * peer's QP only when every earlier run towards that peer is fully on it.
 * That keeps receives matching in order on both sides even when a peer runs
 * ahead into a later collective, and it bounds what is on the NIC by the QP
 * depth (the rest waits here, in the plan's own queues, never in copies).
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "verbs_engine.h"

/* ------------------------------------------------------------------ ops */

#define OP_CHUNK 256
typedef struct op_chunk {
    struct op_chunk *next;
    verbs_op_t       ops[OP_CHUNK];
} op_chunk_t;

verbs_op_t *verbs_op_new(nbo_engine_comm_t *ec)
{
    if (!ec->op_free) {
        op_chunk_t *c = calloc(1, sizeof(*c));
        if (!c)
            return NULL;
        c->next = ec->op_chunks;
        ec->op_chunks = c;
        for (int i = 0; i < OP_CHUNK; i++)
            verbs_op_free(ec, &c->ops[i]);
    }
    verbs_op_t *op = ec->op_free;
    ec->op_free = op->next;
    memset(op, 0, sizeof(*op));
    op->bounce = -1;
    return op;
}

void verbs_op_free(nbo_engine_comm_t *ec, verbs_op_t *op)
{
    op->next = ec->op_free;
    ec->op_free = op;
}

void verbs_ops_fini(nbo_engine_comm_t *ec)
{
    while (ec->op_chunks) {
        op_chunk_t *c = ec->op_chunks;
        ec->op_chunks = c->next;
        free(c);
    }
    ec->op_free = NULL;
    LIST_INIT(&ec->inflight);
}

void verbs_opq_push(verbs_opq_t *q, verbs_op_t *op)
{
    op->next = NULL;
    if (q->tail)
        q->tail->next = op;
    else
        q->head = op;
    q->tail = op;
}

verbs_op_t *verbs_opq_pop(verbs_opq_t *q)
{
    verbs_op_t *op = q->head;
    if (op) {
        q->head = op->next;
        if (!q->head)
            q->tail = NULL;
        op->next = NULL;
    }
    return op;
}

/* ------------------------------------------------------------ run queues */

static void run_enqueue(verbs_run_t **q, verbs_run_t *run)
{
    while (*q)
        q = &(*q)->next;
    *q = run;
    run->next = NULL;
    run->queued = 1;
}

void verbs_run_unqueue(verbs_run_t **q, verbs_run_t *run)
{
    for (; *q; q = &(*q)->next)
        if (*q == run) {
            *q = run->next;
            break;
        }
    run->next = NULL;
    run->queued = 0;
}

/* A new run of the plan starts: take its place behind the runs already
 * started towards each peer. */
static int run_start(nbo_engine_comm_t *ec, verbs_plan_t *plan)
{
    for (int p = 0; p < ec->size; p++)
        if (plan->send_run[p].queued || plan->recv_run[p].queued)
            return NBO_ERR_INTERNAL; /* the previous run never finished */
    for (int p = 0; p < ec->size; p++) {
        verbs_run_t *s = &plan->send_run[p], *r = &plan->recv_run[p];
        if (s->total > 0) {
            s->remaining = s->total;
            run_enqueue(&ec->peers[p].send_q, s);
        }
        if (r->total > 0) {
            r->remaining = r->total;
            run_enqueue(&ec->peers[p].recv_q, r);
        }
    }
    return NBO_SUCCESS;
}

/* ---------------------------------------------------------------- post */

int verbs_engine_post(nbo_engine_comm_t *ec, nbo_exec_t *x, int first, int n)
{
    verbs_plan_t *plan = x->engine_data;
    if (!plan)
        return NBO_ERR_INTERNAL;
    for (int i = first; i < first + n; i++)
        if (x->tasks[i].len > ec->dev.max_msg)
            return NBO_ERR_OVERFLOW; /* one message larger than the port allows */
    /* Take every op first, so that failing leaves nothing posted. */
    verbs_opq_t ops = {0};
    for (int i = 0; i < n; i++) {
        verbs_op_t *op = verbs_op_new(ec);
        if (!op) {
            while ((op = verbs_opq_pop(&ops)))
                verbs_op_free(ec, op);
            return NBO_ERR_NOMEM;
        }
        verbs_opq_push(&ops, op);
    }
    if (first == plan->first_comm) {
        int rc = run_start(ec, plan);
        if (rc != NBO_SUCCESS) {
            verbs_op_t *op;
            while ((op = verbs_opq_pop(&ops)))
                verbs_op_free(ec, op);
            return rc;
        }
    }
    for (int i = first; i < first + n; i++) {
        const nbo_task_t *t = &x->tasks[i];
        verbs_op_t *op = verbs_opq_pop(&ops);
        op->x = x;
        op->task = i;
        op->peer = t->peer;
        op->is_send = t->kind == NBO_TASK_SEND;
        verbs_run_t *run = op->is_send ? &plan->send_run[t->peer] : &plan->recv_run[t->peer];
        verbs_opq_push(&run->waiting, op);
    }
    /* Receives first, so a window of both kinds never sends before the
     * matching receives of the same window are on the NIC. */
    for (int i = first; i < first + n; i++)
        verbs_pump(ec, x->tasks[i].peer);
    return NBO_SUCCESS;
}

/* --------------------------------------------------------------- pump */

/* Point the op at its data: a bounce slot for a small message, the user's
 * registered buffer otherwise. */
static int prepare(nbo_engine_comm_t *ec, verbs_op_t *op, struct ibv_sge *sge, int *num_sge)
{
    const nbo_task_t *t = &op->x->tasks[op->task];
    char *p = (char *)op->x->buf[t->buf] + t->off;
    *num_sge = 0;
    if (t->len == 0)
        return NBO_SUCCESS;
    if (t->len <= ec->bounce_size && (op->bounce = verbs_bounce_get(ec)) >= 0) {
        char *slot = ec->bounce + (size_t)op->bounce * ec->bounce_size;
        if (op->is_send)
            memcpy(slot, p, t->len);
        sge->addr = (uintptr_t)slot;
        sge->lkey = ec->bounce_mr->lkey;
    } else {
        struct ibv_mr *mr = verbs_plan_mr(ec, op->x, t->buf);
        if (!mr)
            return NBO_ERR_ENGINE;
        sge->addr = (uintptr_t)p;
        sge->lkey = mr->lkey;
    }
    sge->length = (uint32_t)t->len;
    *num_sge = 1;
    return NBO_SUCCESS;
}

static void fail_op(nbo_engine_comm_t *ec, verbs_op_t *op, int status)
{
    verbs_bounce_put(ec, op->bounce);
    op->bounce = -1;
    op->status = status;
    verbs_opq_push(&ec->failed, op);
}

/* A broken peer: every queued op towards it fails, in every run. */
static void drain_broken(nbo_engine_comm_t *ec, verbs_run_t **q, int status)
{
    for (verbs_run_t *run = *q, *next; run; run = next) {
        next = run->next;
        verbs_op_t *op;
        while ((op = verbs_opq_pop(&run->waiting))) {
            fail_op(ec, op, status);
            run->remaining--;
        }
        if (run->remaining <= 0)
            verbs_run_unqueue(q, run);
    }
}

static void pump_dir(nbo_engine_comm_t *ec, int p, int is_send)
{
    verbs_peer_t *pe = &ec->peers[p];
    verbs_run_t **q = is_send ? &pe->send_q : &pe->recv_q;
    int *busy = is_send ? &pe->send_busy : &pe->recv_busy;
    if (pe->broken) {
        drain_broken(ec, q, pe->broken);
        return;
    }
    struct ibv_send_wr swr[VERBS_QP_DEPTH];
    struct ibv_recv_wr rwr[VERBS_QP_DEPTH];
    struct ibv_sge sge[VERBS_QP_DEPTH];
    verbs_op_t *chain[VERBS_QP_DEPTH];
    int k = 0;
    verbs_run_t *run;
    while ((run = *q)) {
        while (run->waiting.head && *busy + k < VERBS_QP_DEPTH) {
            verbs_op_t *op = verbs_opq_pop(&run->waiting);
            run->remaining--;
            int num_sge = 0;
            int rc = prepare(ec, op, &sge[k], &num_sge);
            if (rc != NBO_SUCCESS) {
                fail_op(ec, op, rc);
                continue;
            }
            if (is_send) {
                memset(&swr[k], 0, sizeof(swr[k]));
                swr[k].wr_id = (uintptr_t)op;
                swr[k].sg_list = &sge[k];
                swr[k].num_sge = num_sge;
                swr[k].opcode = IBV_WR_SEND_WITH_IMM;
                swr[k].send_flags = IBV_SEND_SIGNALED;
                swr[k].imm_data = htonl(op->x->tag);
            } else {
                memset(&rwr[k], 0, sizeof(rwr[k]));
                rwr[k].wr_id = (uintptr_t)op;
                rwr[k].sg_list = &sge[k];
                rwr[k].num_sge = num_sge;
            }
            chain[k++] = op;
        }
        if (run->remaining > 0)
            break; /* later runs wait until this one is all on the NIC */
        verbs_run_unqueue(q, run);
    }
    if (k == 0)
        return;
    for (int i = 0; i + 1 < k; i++) {
        swr[i].next = &swr[i + 1];
        rwr[i].next = &rwr[i + 1];
    }
    int posted = k, rc;
    if (is_send) {
        struct ibv_send_wr *bad = NULL;
        rc = ibv_post_send(pe->qp, &swr[0], &bad);
        if (rc)
            posted = bad ? (int)(bad - swr) : 0;
    } else {
        struct ibv_recv_wr *bad = NULL;
        rc = ibv_post_recv(pe->qp, &rwr[0], &bad);
        if (rc)
            posted = bad ? (int)(bad - rwr) : 0;
    }
    for (int i = 0; i < posted; i++)
        LIST_INSERT_HEAD(&ec->inflight, chain[i], inflight_link);
    *busy += posted;
    for (int i = posted; i < k; i++)
        fail_op(ec, chain[i], NBO_ERR_TRANSPORT);
    if (rc)
        verbs_peer_break(ec, p, NBO_ERR_TRANSPORT);
}

void verbs_pump(nbo_engine_comm_t *ec, int peer)
{
    pump_dir(ec, peer, 0);
    pump_dir(ec, peer, 1);
}

void verbs_pump_all(nbo_engine_comm_t *ec)
{
    for (int p = 0; p < ec->size; p++)
        if (p != ec->rank)
            verbs_pump(ec, p);
}
