/*
 * coll.c - the one path every collective's entry point takes.  Each entry
 * point describes its call (nbo_coll_call_t); its family's descriptor
 * (coll/family.h) validates the arguments and describes the call in bytes
 * (block maps, peer lists); this file fills the rest of the compiler's
 * arguments, checks the call across ranks under NBO_CHECK, and creates the
 * request, starting it unless persistent.
 */
#include <stdlib.h>
#include <string.h>

#include "coll/family.h"
#include "tune.h"

typedef nbo_coll_call_t coll_call_t;

/* NBO_CHECK: the signature the family gives (or the compiler's own bytes)
 * and the choice, compared across ranks. */
static int check(struct nbo_comm *c, const coll_call_t *k, const nbo_coll_desc_t *d,
                 const nbo_coll_parts_t *p, const nbo_choice_t *choice)
{
    const nbo_sched_args_t *a = &p->plan.args;
    nbo_check_sig_t sig = {.coll = k->coll, .persistent = k->persistent, .root = a->root,
                           .choice = *choice, .nsend = a->nsend, .nrecv = a->nrecv,
                           .speers = a->speers, .rpeers = a->rpeers, .sb = a->sbytes,
                           .rb = a->rbytes};
    size_t *own = NULL;
    if (d->family->signature) {
        own = calloc((size_t)a->nsend + (size_t)a->nrecv + 1, sizeof(size_t));
        if (!own)
            return NBO_ERR_NOMEM;
        d->family->signature(k, c, p, own, own + a->nsend);
        sig.sb = own;
        sig.rb = own + a->nsend;
    }
    int rc = nbo_check_call(c, &sig);
    free(own);
    return rc;
}

/* Compile the described call into a request, which takes the parts, and
 * start it unless it is persistent. */
static int create(const coll_call_t *k, struct nbo_comm *c, nbo_coll_parts_t *p,
                  const nbo_cache_key_t *key, struct nbo_tune *cls, nbo_request_t *req)
{
    struct nbo_request *r;
    int rc = nbo_request_create(c, p, k->persistent, &r);
    if (rc != NBO_SUCCESS)
        return rc;
    if (!k->persistent) {
        nbo_lock();
        if (key && !nbo_tune_call_learning(cls)) /* a trial's call is not the kept choice */
            nbo_cache_keep(r, key);
        r->tune_class = cls;
        rc = nbo_request_begin(r);
        nbo_unlock();
    }
    *req = r;
    return rc;
}

/* A call kept in the communicator's cache starts again as it is: its
 * arguments were validated and compiled when it was first made. */
static int start_cached(struct nbo_comm *c, const nbo_cache_key_t *key, nbo_request_t *req)
{
    struct nbo_request *r = nbo_cache_take(c, key);
    if (!r)
        return 0;
    int rc = nbo_request_begin(r);
    *req = r;
    return rc == NBO_SUCCESS ? 1 : rc;
}

/* The family's description of the call, and the arguments every call
 * fills alike. */
static int describe(const coll_call_t *k, struct nbo_comm *c, const nbo_coll_desc_t *d,
                    nbo_coll_parts_t *p)
{
    memset(p, 0, sizeof(*p));
    p->smap.owned = p->rmap.owned = MPI_DATATYPE_NULL;
    int rc = d->family->describe(k, c, p);
    if (rc != NBO_SUCCESS)
        return rc;
    nbo_sched_args_t *a = &p->plan.args;
    a->size = c->size;
    a->rank = c->rank;
    a->in_place = nbo_coll_in_place(d, k);
    a->uniform = (d->flags & NBO_COLL_F_UNIFORM) != 0;
    a->coll = k->coll;
    a->algs = d->algs;
    a->bruck_max = c->cfg.bruck_max;
    a->small_max = d->family->small_max ? d->family->small_max(&c->cfg) : 0;
    if (!p->red)
        a->elem = a->commutative = 1;
    /* Compression (docs/compression.md): one of the four floating-point
     * types on both sides; any other call is exact. */
    if ((d->flags & NBO_COLL_F_CODEC) && c->cfg.codec != NBO_CODEC_NONE &&
        (a->in_place || k->stype == k->rtype)) {
        a->codec = c->cfg.codec;
        a->codec_rate = c->cfg.codec_rate;
        a->codec_elem = nbo_codec_elem(k->rtype);
    }
    p->device_ok = (d->flags & NBO_COLL_F_DEVICE) != 0;
    return NBO_SUCCESS;
}

int nbo_coll_start(const coll_call_t *k, nbo_comm_t comm, nbo_request_t *req)
{
    if (!req)
        return NBO_ERR_ARG;
    *req = NBO_REQUEST_NULL;
    nbo_lock();
    struct nbo_comm *c = nbo_comm_lookup(comm);
    nbo_cache_key_t key;
    const int keyed = c && nbo_cache_key(k, c, &key);
    int hit = keyed ? start_cached(c, &key, req) : 0;
    nbo_unlock();
    if (!c)
        return NBO_ERR_COMM;
    if (hit)
        return hit > 0 ? NBO_SUCCESS : hit;
    const nbo_coll_desc_t *d = nbo_coll_desc(k->coll);
    if (!d)
        return NBO_ERR_INTERNAL;
    int rc = d->family->validate(k, c);
    if (rc == NBO_SUCCESS && k->recvbuf == MPI_IN_PLACE)
        rc = NBO_ERR_BUFFER;
    if (rc != NBO_SUCCESS)
        return rc;
    nbo_coll_parts_t p;
    if ((rc = describe(k, c, d, &p)) != NBO_SUCCESS)
        return rc;
    nbo_choice_t choice = nbo_select(&p.plan.args, &c->cfg);
    p.plan.args.algorithm = choice.algorithm;
    p.plan.args.window = choice.window;
    struct nbo_tune *cls = NULL;
    if ((rc = nbo_tune_call(c, k, &p.plan.args, &cls)) != NBO_SUCCESS) {
        nbo_coll_parts_free(&p);
        return rc;
    }
    choice = (nbo_choice_t){.algorithm = p.plan.args.algorithm, .window = p.plan.args.window};
    if (c->cfg.check) {
        if ((rc = check(c, k, d, &p, &choice)) != NBO_SUCCESS) {
            nbo_coll_parts_free(&p);
            return rc;
        }
        p.plan.agreed = 1; /* the ranks compared the choice: no round trip at the first start */
    }
    return create(k, c, &p, keyed ? &key : NULL, cls, req);
}
