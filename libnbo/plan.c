/*
 * plan.c - what a call compiled: the compiler's arguments with the peer
 * lists and byte arrays they point to, and the task list.  A request owns
 * its plan; a persistent one may have it rebuilt between two starts.
 */
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
