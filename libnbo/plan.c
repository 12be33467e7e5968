/*
 * plan.c - what a call compiled: the compiler's arguments with the peer
 * lists and byte arrays they point to, and the task list.  A request owns
 * its plan; a persistent one may have it rebuilt between two starts.
 */
#include <limits.h>
#include <stdlib.h>

#include "core.h"

int nbo_plan_lists(nbo_plan_t *p, int nsend, int nrecv)
{
    const size_t n = (size_t)nsend + (size_t)nrecv;
    p->peers = calloc(n + 1, sizeof(int));
    p->bytes = calloc(2 * n + 1, sizeof(size_t));
    if (!p->peers || !p->bytes) {
        nbo_plan_free(p);
        return NBO_ERR_NOMEM;
    }
    nbo_sched_args_t *a = &p->args;
    a->nsend = nsend;
    a->nrecv = nrecv;
    a->speers = p->peers;
    a->rpeers = p->peers + nsend;
    a->sbytes = p->bytes;
    a->sdispl = p->bytes + nsend;
    a->rbytes = p->bytes + 2 * (size_t)nsend;
    a->rdispl = p->bytes + 2 * (size_t)nsend + nrecv;
    return NBO_SUCCESS;
}

void nbo_plan_all_ranks(nbo_plan_t *p, int P)
{
    for (int i = 0; i < P; i++)
        p->peers[i] = p->peers[P + i] = i;
}

void nbo_plan_free(nbo_plan_t *p)
{
    nbo_sched_destroy(&p->sched);
    free(p->peers);
    free(p->bytes);
    p->peers = NULL;
    p->bytes = NULL;
}

/* Compile first, outside the lock: on error the request keeps its plan.
 * The engine's registration covers the task list and buffers, so it is
 * detached from the old list and attached to the new one. */
int nbo_plan_rebuild(struct nbo_request *r, const nbo_choice_t *choice)
{
    if (!r->persistent || !choice || choice->window < 1)
        return NBO_ERR_ARG;
    if (r->state != REQ_INACTIVE)
        return NBO_ERR_ACTIVE;
    if (r->mem != &nbo_mem_host) /* a memory type attached itself to the old list */
        return NBO_ERR_DEVICE;
    struct nbo_comm *c = r->comm;
    nbo_plan_t *p = &r->plan;
    nbo_sched_args_t a = p->args;
    a.algorithm = choice->algorithm;
    a.window = choice->window;
    nbo_sched_t s;
    int rc = nbo_sched_compile(&a, &s);
    if (rc != NBO_SUCCESS)
        return rc;
    nbo_lock();
    if (r->attached && c->ops->plan_detach)
        c->ops->plan_detach(c->ec, &r->x);
    nbo_sched_t old = p->sched; /* the list that goes: the old one, or the new on error */
    p->sched = s;
    rc = nbo_request_arm(r);
    if (rc == NBO_SUCCESS)
        p->args = a;
    else { /* the old run state is still there */
        p->sched = old;
        old = s;
        r->x.tasks = p->sched.tasks;
        r->x.ntasks = p->sched.ntasks;
    }
    if (r->attached && c->ops->plan_attach) {
        int arc = c->ops->plan_attach(c->ec, &r->x);
        if (arc != NBO_SUCCESS) { /* only nbo_request_free is left to it */
            r->attached = 0;
            c->live--;
            rc = rc == NBO_SUCCESS ? arc : rc;
        }
    }
    nbo_unlock();
    nbo_sched_destroy(&old);
    return rc;
}

/* One agreement of six numbers: rank 0's choice, and the least and
 * greatest choice of all, so that every rank knows whether any rebuilds
 * and all then agree on how the rebuilds went.  Non-persistent calls skip
 * this: a round trip is what a whole small collective costs; their choice
 * is a function of what the ranks share (select.c), compared by NBO_CHECK. */
int nbo_plan_agree(struct nbo_request *r)
{
    nbo_plan_t *p = &r->plan;
    if (p->agreed)
        return NBO_SUCCESS;
    const int alg = (int)p->args.algorithm, win = p->args.window, root = r->comm->rank == 0;
    int v[6] = {root ? alg : INT_MAX, root ? win : INT_MAX, alg, -alg, win, -win};
    int rc = nbo_agree_min(r->comm, v, 6);
    if (rc != NBO_SUCCESS)
        return rc;
    if (v[2] != -v[3] || v[4] != -v[5]) { /* some rank's choice is not rank 0's */
        const nbo_choice_t choice = {.algorithm = (nbo_algorithm_t)v[0], .window = v[1]};
        if (alg != v[0] || win != v[1])
            rc = nbo_plan_rebuild(r, &choice);
        int all = rc;
        const int arc = nbo_agree_min(r->comm, &all, 1);
        rc = arc != NBO_SUCCESS ? arc : all;
        if (rc != NBO_SUCCESS)
            return rc;
    }
    p->agreed = 1;
    return NBO_SUCCESS;
}
