/*
 * call_cache.c - compiled small calls, kept per communicator for the next
 * identical non-persistent call.
 *
 * A solver starts the same small collective (a dot product's allreduce)
 * on the same buffers every iteration.  Validating, describing and
 * compiling it each time costs more than the exchange itself, so a
 * finished non-persistent request of such a call is not freed: it stays
 * in its communicator's cache and the next call with the same arguments
 * starts it again, as a persistent request would be.
 *
 * Only calls whose arguments say everything are kept: the buffers'
 * addresses, counts, predefined datatypes and ops (a user's type or op
 * may be freed and its handle reused for another), host memory, no
 * NBO_CHECK (its cross-rank check is a collective of its own), and no
 * engine state in the plan (a registration must not outlive the call
 * that the user knows of).  A hit still takes the next sequence number
 * as its tag, so whether a rank hits or misses never shows on the wire.
 */
#include <string.h>

#include "core.h"

/* The scratch a kept request may hold: small calls only. */
#define CACHE_TMP_MAX (64u * 1024u)

static int named_type(MPI_Datatype t)
{
    int ni, na, nd, combiner;
    if (t == MPI_DATATYPE_NULL || MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner) != MPI_SUCCESS)
        return 0;
    return combiner == MPI_COMBINER_NAMED;
}

static int builtin_op(MPI_Op op)
{
    const MPI_Op ops[] = {MPI_MAX,  MPI_MIN,  MPI_SUM,  MPI_PROD,   MPI_LAND,    MPI_BAND,    MPI_LOR,
                          MPI_BOR,  MPI_LXOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
    if (op == MPI_OP_NULL)
        return 1; /* not a reduction */
    for (size_t i = 0; i < NBO_ARRAY_LEN(ops); i++)
        if (op == ops[i])
            return 1;
    return 0;
}

int nbo_cache_key(const nbo_coll_call_t *k, const struct nbo_comm *c, nbo_cache_key_t *key)
{
    if (k->persistent || c->cfg.check || k->scounts || k->rcounts)
        return 0;
    /* A call of one datatype (bcast, the reductions) gives it on both sides. */
    if (!builtin_op(k->op) || !named_type(k->rtype) ||
        (k->sendbuf != MPI_IN_PLACE && k->stype != k->rtype && !named_type(k->stype)))
        return 0;
    memset(key, 0, sizeof(*key)); /* padding too: keys compare as bytes */
    key->coll = k->coll;
    key->sendbuf = k->sendbuf;
    key->recvbuf = k->recvbuf;
    key->scount = k->scount;
    key->rcount = k->rcount;
    key->stype = k->stype;
    key->rtype = k->rtype;
    key->root = k->root;
    key->op = k->op;
    return 1;
}

struct nbo_request *nbo_cache_take(struct nbo_comm *c, const nbo_cache_key_t *key)
{
    for (int i = 0; i < NBO_CACHE_SLOTS; i++) {
        struct nbo_request *r = c->cache[i];
        if (r && r->state == REQ_INACTIVE && memcmp(&r->key, key, sizeof(*key)) == 0) {
            r->x.tag = c->seq++; /* a new call, numbered as any other */
            return r;
        }
    }
    return NULL;
}

void nbo_cache_keep(struct nbo_request *r, const nbo_cache_key_t *key)
{
    struct nbo_comm *c = r->comm;
    if (r->mem != &nbo_mem_host || r->x.engine_data || r->plan.sched.tmp_bytes > CACHE_TMP_MAX ||
        (r->stage && (r->stage->in || r->stage->out)))
        return;
    int slot = -1;
    for (int i = 0; i < NBO_CACHE_SLOTS && slot < 0; i++)
        if (!c->cache[i])
            slot = i;
    /* Full: the next inactive entry after the last one replaced goes. */
    for (int n = 0; n < NBO_CACHE_SLOTS && slot < 0; n++) {
        int i = (c->cache_next + n) % NBO_CACHE_SLOTS;
        if (c->cache[i]->state == REQ_INACTIVE) {
            nbo_request_destroy(c->cache[i]);
            slot = i;
            c->cache_next = (i + 1) % NBO_CACHE_SLOTS;
        }
    }
    if (slot < 0)
        return; /* every entry is running: this call is not kept */
    r->key = *key;
    r->cached = 1;
    c->cache[slot] = r;
}

void nbo_cache_drop(struct nbo_request *r)
{
    struct nbo_comm *c = r->comm;
    for (int i = 0; i < NBO_CACHE_SLOTS; i++)
        if (c->cache[i] == r)
            c->cache[i] = NULL;
    r->cached = 0;
}

void nbo_cache_clear(struct nbo_comm *c)
{
    for (int i = 0; i < NBO_CACHE_SLOTS; i++) {
        struct nbo_request *r = c->cache[i];
        if (r && r->state == REQ_INACTIVE) {
            c->cache[i] = NULL;
            nbo_request_destroy(r);
        }
    }
}
