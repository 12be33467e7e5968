/*
 * ucx_memory.c - zero-copy support: a registration cache of ucp_mem_map
 * handles keyed by address range, handed to UCX per operation through
 * ucp_request_param_t.memh (UCX >= 1.13, protocol v1 and v2).
 *
 * A plan that starts a second time (a persistent request) takes a reference
 * on the registration covering each of its large buffers and drops it at
 * plan_detach; plans over the same buffers share one entry.  An
 * entry is unmapped when its last plan goes: we cannot see the application
 * free and reuse an address range, so keeping an unused registration could
 * pin stale pages (UCX's own rcache can, with its memory hooks, and catches
 * the rest: rendezvous registers unregistered user buffers itself).
 */
#include <stdlib.h>

#include "ucx_engine.h"

static ucx_reg_t *reg_find(char *base, size_t len)
{
    for (ucx_reg_t *e = ucx_g.regs; e; e = e->next)
        if (e->base <= base && base + len <= e->base + e->len)
            return e;
    return NULL;
}

static ucx_reg_t *reg_get(char *base, size_t len)
{
    ucx_reg_t *e = reg_find(base, len);
    if (e) {
        e->refs++;
        return e;
    }
    e = calloc(1, sizeof(*e));
    if (!e)
        return NULL;
    ucp_mem_map_params_t mp = {
        .field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH,
        .address = base,
        .length = len,
    };
    if (ucp_mem_map(ucx_g.ctx, &mp, &e->memh) != UCS_OK) {
        free(e);
        return NULL; /* not fatal: UCX registers on the fly */
    }
    e->base = base;
    e->len = len;
    e->refs = 1;
    e->next = ucx_g.regs;
    ucx_g.regs = e;
    return e;
}

static void reg_put(ucx_reg_t *e)
{
    if (--e->refs > 0)
        return;
    for (ucx_reg_t **p = &ucx_g.regs; *p; p = &(*p)->next)
        if (*p == e) {
            *p = e->next;
            break;
        }
    ucp_mem_unmap(ucx_g.ctx, e->memh);
    free(e);
}

/* Does a registration pay off for buffer b: does any task move a lot? */
static int worth_registering(const nbo_exec_t *x, int b)
{
    if (!x->buf[b] || x->buf_len[b] < UCX_REG_MIN)
        return 0;
    for (int i = 0; i < x->ntasks; i++) {
        const nbo_task_t *t = &x->tasks[i];
        if ((t->kind == NBO_TASK_SEND || t->kind == NBO_TASK_RECV) && t->buf == b &&
            t->len >= UCX_REG_MIN)
            return 1;
    }
    return 0;
}

int ucx_engine_plan_attach(nbo_engine_comm_t *ec, nbo_exec_t *x)
{
    (void)ec;
    x->engine_data = NULL;
    if (!ucx_set.regcache)
        return NBO_SUCCESS;
    int want[NBO_BUF_COUNT], any = 0;
    for (int b = 0; b < NBO_BUF_COUNT; b++)
        any |= want[b] = worth_registering(x, b);
    if (!any)
        return NBO_SUCCESS;
    ucx_plan_t *plan = calloc(1, sizeof(*plan));
    if (!plan)
        return NBO_ERR_NOMEM;
    for (int b = 0; b < NBO_BUF_COUNT; b++)
        plan->want[b] = want[b];
    plan->first_task = -1;
    x->engine_data = plan;
    return NBO_SUCCESS;
}

/* A plan that runs once (a non-persistent call) is left to UCX's rcache: a
 * map and unmap of our own would only add their cost.  A plan that starts
 * a second time (a persistent request) gets its registration then, once. */
void ucx_plan_note_post(nbo_exec_t *x, int first)
{
    ucx_plan_t *plan = x->engine_data;
    if (!plan || plan->mapped)
        return;
    if (plan->first_task < 0)
        plan->first_task = first;
    if (first != plan->first_task || ++plan->starts < 2)
        return;
    for (int b = 0; b < NBO_BUF_COUNT; b++)
        if (plan->want[b])
            plan->reg[b] = reg_get(x->buf[b], x->buf_len[b]);
    plan->mapped = 1;
}

void ucx_engine_plan_detach(nbo_engine_comm_t *ec, nbo_exec_t *x)
{
    (void)ec;
    ucx_plan_t *plan = x->engine_data;
    if (!plan)
        return;
    for (int b = 0; b < NBO_BUF_COUNT; b++)
        if (plan->reg[b])
            reg_put(plan->reg[b]);
    free(plan);
    x->engine_data = NULL;
}

/* Before the context goes (lock held): nothing should be left. */
void ucx_reg_release_all(void)
{
    while (ucx_g.regs) {
        ucx_reg_t *e = ucx_g.regs;
        ucx_g.regs = e->next;
        ucp_mem_unmap(ucx_g.ctx, e->memh);
        free(e);
    }
}
