/*
 * verbs_memory.c - memory registration: a reference-counted registration
 * cache for user buffers, pre-registered bounce slots for small messages,
 * and the per-plan state (plan_attach / plan_detach).
 *
 * Why the cache can never hand out a stale registration: an entry lives only
 * while some plan holds it, and a plan's buffers are the user's promise (MPI
 * rules) that the memory stays allocated until the request is freed.  When
 * the last plan lets go (plan_detach), the entry is deregistered, so memory
 * that is freed and later reused at the same address gets a fresh
 * registration of its new pages.  Reuse happens between plans that are live
 * together: a persistent request keeps its registration across every start,
 * and concurrent requests on the same buffers share one.
 */
#include <stdlib.h>
#include <string.h>

#include "verbs_engine.h"

/* ------------------------------------------------------- bounce buffers */

int verbs_bounce_init(nbo_engine_comm_t *ec)
{
    ec->bounce_size = (size_t)verbs_set.bounce;
    if (ec->bounce_size == 0)
        return NBO_SUCCESS; /* disabled: every message goes zero-copy */
    size_t bytes = ec->bounce_size * VERBS_BOUNCE_SLOTS;
    ec->bounce = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
    ec->bounce_free = malloc(VERBS_BOUNCE_SLOTS * sizeof(int));
    if (!ec->bounce || !ec->bounce_free)
        return NBO_ERR_NOMEM;
    ec->bounce_mr = ibv_reg_mr(ec->pd, ec->bounce, bytes, IBV_ACCESS_LOCAL_WRITE);
    if (!ec->bounce_mr)
        return NBO_ERR_ENGINE;
    for (int i = 0; i < VERBS_BOUNCE_SLOTS; i++)
        ec->bounce_free[i] = VERBS_BOUNCE_SLOTS - 1 - i;
    ec->bounce_nfree = VERBS_BOUNCE_SLOTS;
    return NBO_SUCCESS;
}

void verbs_bounce_fini(nbo_engine_comm_t *ec)
{
    if (ec->bounce_mr)
        ibv_dereg_mr(ec->bounce_mr);
    free(ec->bounce);
    free(ec->bounce_free);
    ec->bounce_mr = NULL;
    ec->bounce = NULL;
    ec->bounce_free = NULL;
}

int verbs_bounce_get(nbo_engine_comm_t *ec)
{
    return ec->bounce_nfree > 0 ? ec->bounce_free[--ec->bounce_nfree] : -1;
}

void verbs_bounce_put(nbo_engine_comm_t *ec, int slot)
{
    if (slot >= 0)
        ec->bounce_free[ec->bounce_nfree++] = slot;
}

/* ---------------------------------------------------- registration cache */

static verbs_mr_t *mr_acquire(nbo_engine_comm_t *ec, void *addr, size_t len)
{
    char *a = addr;
    for (verbs_mr_t *m = ec->mrs; m; m = m->next)
        if (a >= m->addr && a + len <= m->addr + m->len) {
            m->refs++;
            return m;
        }
    verbs_mr_t *m = calloc(1, sizeof(*m));
    if (!m)
        return NULL;
    m->mr = ibv_reg_mr(ec->pd, addr, len, IBV_ACCESS_LOCAL_WRITE);
    if (!m->mr) {
        free(m);
        return NULL;
    }
    m->addr = a;
    m->len = len;
    m->refs = 1;
    m->next = ec->mrs;
    ec->mrs = m;
    return m;
}

static void mr_release(nbo_engine_comm_t *ec, verbs_mr_t *m)
{
    if (!m || --m->refs > 0)
        return;
    for (verbs_mr_t **p = &ec->mrs; *p; p = &(*p)->next)
        if (*p == m) {
            *p = m->next;
            break;
        }
    ibv_dereg_mr(m->mr);
    free(m);
}

void verbs_mr_cache_fini(nbo_engine_comm_t *ec)
{
    while (ec->mrs) {
        verbs_mr_t *m = ec->mrs;
        ec->mrs = m->next;
        ibv_dereg_mr(m->mr);
        free(m);
    }
}

/* The registration covering buffer b of x, registering it now if the plan
 * has none yet (a small message that found no free bounce slot). */
struct ibv_mr *verbs_plan_mr(nbo_engine_comm_t *ec, nbo_exec_t *x, int b)
{
    verbs_plan_t *plan = x->engine_data;
    if (!plan->mr[b] && x->buf[b] && x->buf_len[b])
        plan->mr[b] = mr_acquire(ec, x->buf[b], x->buf_len[b]);
    return plan->mr[b] ? plan->mr[b]->mr : NULL;
}

/* -------------------------------------------------------- plan state */

int verbs_plan_attach(nbo_engine_comm_t *ec, nbo_exec_t *x)
{
    verbs_plan_t *plan = calloc(1, sizeof(*plan));
    if (!plan)
        return NBO_ERR_NOMEM;
    plan->send_run = calloc((size_t)ec->size, sizeof(verbs_run_t));
    plan->recv_run = calloc((size_t)ec->size, sizeof(verbs_run_t));
    if (!plan->send_run || !plan->recv_run) {
        free(plan->send_run);
        free(plan->recv_run);
        free(plan);
        return NBO_ERR_NOMEM;
    }
    plan->first_comm = -1;
    size_t largest[NBO_BUF_COUNT] = {0};
    for (int i = 0; i < x->ntasks; i++) {
        const nbo_task_t *t = &x->tasks[i];
        if (t->kind != NBO_TASK_SEND && t->kind != NBO_TASK_RECV)
            continue;
        if (plan->first_comm < 0)
            plan->first_comm = i;
        verbs_run_t *run = t->kind == NBO_TASK_SEND ? plan->send_run : plan->recv_run;
        if (t->peer < 0 || t->peer >= ec->size || t->peer == ec->rank || t->buf >= NBO_BUF_COUNT) {
            x->engine_data = plan;
            verbs_plan_detach(ec, x);
            return NBO_ERR_INTERNAL;
        }
        run[t->peer].x = x;
        run[t->peer].total++;
        if (t->len > largest[t->buf])
            largest[t->buf] = t->len;
    }
    x->engine_data = plan;
    /* Register up front only what will go zero-copy: buffers with a message
     * larger than a bounce slot.  Small-only buffers never get registered
     * unless the bounce slots run out. */
    for (int b = 0; b < NBO_BUF_COUNT; b++)
        if (largest[b] > ec->bounce_size && !verbs_plan_mr(ec, x, b)) {
            verbs_plan_detach(ec, x);
            return NBO_ERR_ENGINE;
        }
    return NBO_SUCCESS;
}

void verbs_plan_detach(nbo_engine_comm_t *ec, nbo_exec_t *x)
{
    verbs_plan_t *plan = x->engine_data;
    if (!plan)
        return;
    for (int p = 0; p < ec->size; p++) {
        /* A finished or cancelled run is no longer queued; be safe anyway. */
        if (plan->send_run[p].queued)
            verbs_run_unqueue(&ec->peers[p].send_q, &plan->send_run[p]);
        if (plan->recv_run[p].queued)
            verbs_run_unqueue(&ec->peers[p].recv_q, &plan->recv_run[p]);
    }
    for (int b = 0; b < NBO_BUF_COUNT; b++)
        mr_release(ec, plan->mr[b]);
    free(plan->send_run);
    free(plan->recv_run);
    free(plan);
    x->engine_data = NULL;
}
