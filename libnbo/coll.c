/*
 * coll.c - the one path every collective's entry point takes.  Each entry
 * point describes its call (nbo_coll_call_t); this file validates the
 * arguments, describes the call in bytes (block maps, checked against each
 * other and, under NBO_CHECK, across ranks), fills the compiler's arguments
 * by the conventions of schedule.h, and creates the request, starting it
 * unless persistent.  Reductions describe themselves in reduce.c.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"

typedef nbo_coll_call_t coll_call_t;

static int is_reduction(const coll_call_t *k)
{
    return k->coll == NBO_COLL_ALLREDUCE || k->coll == NBO_COLL_REDUCE_SCATTER_BLOCK;
}

/* Every block the same size: the compiler may choose Bruck, and the own
 * block stands for all in the size check. */
static int uniform(const coll_call_t *k)
{
    return k->coll == NBO_COLL_ALLTOALL || k->coll == NBO_COLL_ALLGATHER;
}

/* bcast has one buffer, which holds the data to send: in place by nature. */
static int in_place(const coll_call_t *k)
{
    return k->sendbuf == MPI_IN_PLACE || k->coll == NBO_COLL_BCAST;
}

/* What the arguments alone show wrong, before any datatype is looked at. */
static int validate(const coll_call_t *k, const struct nbo_comm *c)
{
    switch (k->coll) {
    case NBO_COLL_ALLTOALLV:
        if (!k->rcounts || !k->rdispls || (!in_place(k) && (!k->scounts || !k->sdispls)))
            return NBO_ERR_ARG;
        break;
    case NBO_COLL_ALLTOALL:
    case NBO_COLL_ALLGATHER:
        if (k->rcount < 0 || (!in_place(k) && k->scount < 0))
            return NBO_ERR_COUNT;
        break;
    case NBO_COLL_ALLGATHERV:
        if (!k->rcounts || !k->rdispls)
            return NBO_ERR_ARG;
        if (!in_place(k) && k->scount < 0)
            return NBO_ERR_COUNT;
        break;
    case NBO_COLL_BCAST:
        if (k->rcount < 0)
            return NBO_ERR_COUNT;
        if (k->root < 0 || k->root >= c->size)
            return NBO_ERR_ROOT;
        break;
    case NBO_COLL_ALLREDUCE:
    case NBO_COLL_REDUCE_SCATTER_BLOCK:
        if (k->rcount < 0)
            return NBO_ERR_COUNT;
        if (k->op == MPI_OP_NULL)
            return NBO_ERR_OP;
        break;
    default:
        return NBO_ERR_INTERNAL;
    }
    if (k->recvbuf == MPI_IN_PLACE)
        return NBO_ERR_BUFFER;
    return NBO_SUCCESS;
}

/* NBO_CHECK for the collectives whose blocks are not peer to peer: every
 * rank sends every peer the same (its contribution, or the whole), and
 * expects from each peer what its own arguments say that peer holds
 * (expect NULL: the same as its own). */
static int check_gathered(struct nbo_comm *c, const coll_call_t *k, size_t mine,
                          const size_t *expect)
{
    size_t *out = malloc(2 * (size_t)c->size * sizeof(*out));
    if (!out)
        return NBO_ERR_NOMEM;
    for (int p = 0; p < c->size; p++)
        out[p] = out[c->size + p] = mine;
    int rc = nbo_check_call(c, k->coll, k->persistent, k->root, out,
                            expect ? expect : out + c->size);
    free(out);
    return rc;
}

/* The two sides in bytes must fit: locally, and under NBO_CHECK across
 * ranks. */
static int validate_maps(const coll_call_t *k, struct nbo_comm *c, const nbo_block_map_t *smap,
                         const nbo_block_map_t *rmap)
{
    const nbo_block_map_t *s = in_place(k) ? rmap : smap; /* the send data */
    /* What we send to ourselves must fit what we receive from ourselves. */
    if (s->bytes[c->rank] != rmap->bytes[c->rank] ||
        (k->coll == NBO_COLL_ALLTOALL && s->bytes[0] != rmap->bytes[0]))
        return NBO_ERR_MISMATCH;
    /* MPI forbids aliased buffers outside MPI_IN_PLACE; receives posted up
     * front would overwrite data not yet sent. */
    if (!in_place(k) && smap->hi > smap->lo && rmap->hi > rmap->lo &&
        (const char *)k->sendbuf + smap->lo < (char *)k->recvbuf + rmap->hi &&
        (char *)k->recvbuf + rmap->lo < (const char *)k->sendbuf + smap->hi)
        return NBO_ERR_OVERLAP;
    if (!c->cfg.check)
        return NBO_SUCCESS;
    switch (k->coll) {
    case NBO_COLL_ALLGATHER:
    case NBO_COLL_ALLGATHERV:
        return check_gathered(c, k, s->bytes[c->rank], rmap->bytes);
    case NBO_COLL_BCAST: /* every rank holds as many bytes as the root */
        return check_gathered(c, k, rmap->bytes[0], NULL);
    default:
        return nbo_check_call(c, k->coll, k->persistent, 0, s->bytes, rmap->bytes);
    }
}

/* One block of `count` at rank `at` (or at 0 for bcast), the others empty:
 * the counts and displacements of a single-block side. */
static int one_block(int P, int at, int count, int **counts, int **displs)
{
    *counts = calloc((size_t)P, sizeof(int));
    *displs = calloc((size_t)P, sizeof(int));
    if (!*counts || !*displs)
        return NBO_ERR_NOMEM; /* the caller frees both */
    (*counts)[at] = count;
    return NBO_SUCCESS;
}

/* The block maps of both sides (smap stays empty in place), validated.
 * On error nothing is left to free. */
static int map_blocks(const coll_call_t *k, struct nbo_comm *c, nbo_block_map_t *smap,
                      nbo_block_map_t *rmap)
{
    const int P = c->size;
    memset(smap, 0, sizeof(*smap));
    smap->owned = MPI_DATATYPE_NULL;
    int *c1 = NULL, *d1 = NULL; /* a single-block side's counts and displs */
    int rc = NBO_SUCCESS;
    switch (k->coll) {
    case NBO_COLL_BCAST:
        rc = one_block(P, 0, k->rcount, &c1, &d1);
        if (rc == NBO_SUCCESS)
            rc = nbo_block_map_init(rmap, P, k->recvbuf, c1, -1, d1, k->rtype, c->comm);
        break;
    case NBO_COLL_ALLGATHER:
    case NBO_COLL_ALLGATHERV:
        rc = nbo_block_map_init(rmap, P, k->recvbuf, k->rcounts, k->rcount, k->rdispls, k->rtype,
                                c->comm);
        if (rc == NBO_SUCCESS && !in_place(k)) {
            /* Own contribution: block `rank` of the send side, at 0. */
            rc = one_block(P, c->rank, k->scount, &c1, &d1);
            if (rc == NBO_SUCCESS)
                rc = nbo_block_map_init(smap, P, k->sendbuf, c1, -1, d1, k->stype, c->comm);
        }
        break;
    default:
        rc = nbo_block_map_init(rmap, P, k->recvbuf, k->rcounts, k->rcount, k->rdispls, k->rtype,
                                c->comm);
        if (rc == NBO_SUCCESS && !in_place(k))
            rc = nbo_block_map_init(smap, P, k->sendbuf, k->scounts, k->scount, k->sdispls,
                                    k->stype, c->comm);
    }
    free(c1);
    free(d1);
    if (rc == NBO_SUCCESS)
        rc = validate_maps(k, c, smap, rmap);
    if (rc != NBO_SUCCESS) {
        nbo_block_map_free(smap);
        nbo_block_map_free(rmap);
    }
    return rc;
}

/* The small-message threshold of the collective (docs/configuration.md). */
static size_t small_max(const coll_call_t *k, const struct nbo_comm *c)
{
    switch (k->coll) {
    case NBO_COLL_ALLREDUCE:
    case NBO_COLL_REDUCE_SCATTER_BLOCK:
        return c->cfg.allreduce_small;
    case NBO_COLL_ALLGATHER:
    case NBO_COLL_ALLGATHERV:
        return c->cfg.allgather_small;
    case NBO_COLL_BCAST:
        return c->cfg.bcast_small;
    default:
        return 0;
    }
}

/* Compile the call into a request, which takes the block maps and red,
 * and start it unless it is persistent.  bytes: the args arrays
 * (sbytes, sdispl, rbytes, rdispl) of a reduction, else NULL. */
static int create(const coll_call_t *k, struct nbo_comm *c, nbo_block_map_t *smap,
                  nbo_block_map_t *rmap, nbo_reduce_t *red, const size_t *bytes,
                  const nbo_cache_key_t *key, nbo_request_t *req)
{
    const int P = c->size;
    const nbo_block_map_t *s = in_place(k) ? rmap : smap; /* the send data */
    size_t *own = NULL; /* allgather, bcast: sbytes and sdispl, all 0 but
                           the own contribution (schedule.h) */
    if (k->coll == NBO_COLL_ALLGATHER || k->coll == NBO_COLL_ALLGATHERV ||
        k->coll == NBO_COLL_BCAST) {
        own = calloc(2 * (size_t)P, sizeof(size_t));
        if (!own) {
            nbo_block_map_free(smap);
            nbo_block_map_free(rmap);
            return NBO_ERR_NOMEM;
        }
    }
    if (own && k->coll != NBO_COLL_BCAST) {
        own[c->rank] = s->bytes[c->rank];
        own[P + c->rank] = in_place(k) ? 0 : s->boff[c->rank];
    }
    nbo_sched_args_t a = {
        .size = P,
        .rank = c->rank,
        .sbytes = bytes ? bytes : own ? own : s->bytes,
        .sdispl = bytes ? bytes + P : own ? own + P : s->boff,
        .rbytes = bytes ? bytes + 2 * P : rmap->bytes,
        .rdispl = bytes ? bytes + 3 * P : rmap->boff,
        .send_contig = s->dt.contig,
        .recv_contig = rmap->dt.contig,
        .in_place = in_place(k),
        .uniform = uniform(k),
        .coll = k->coll,
        .root = k->coll == NBO_COLL_BCAST ? k->root : 0,
        .elem = red ? red->elem : 1,
        .commutative = red ? red->commutative : 1,
        .algorithm = c->cfg.algorithm,
        .window = c->cfg.window,
        .bruck_max = c->cfg.bruck_max,
        .small_max = small_max(k, c),
    };
    /* Compression (docs/compression.md): the all-to-all family, one of the
     * four floating-point types on both sides; any other call is exact. */
    if ((k->coll == NBO_COLL_ALLTOALL || k->coll == NBO_COLL_ALLTOALLV) &&
        c->cfg.codec != NBO_CODEC_NONE && (in_place(k) || k->stype == k->rtype)) {
        a.codec = c->cfg.codec;
        a.codec_rate = c->cfg.codec_rate;
        a.codec_elem = nbo_codec_elem(k->rtype);
    }
    void *sendbuf = in_place(k) ? NULL : (void *)k->sendbuf, *recvbuf = k->recvbuf;
    if (red && red->staged) { /* the tasks run on the scratch */
        sendbuf = red->in;
        recvbuf = red->out;
    }
    struct nbo_request *r;
    int rc = nbo_request_create(c, &a, sendbuf, recvbuf, smap, rmap, red, k->persistent, &r);
    free(own); /* the compiler is done with the arrays */
    if (rc != NBO_SUCCESS)
        return rc;
    if (!k->persistent) {
        nbo_lock();
        if (key)
            nbo_cache_keep(r, key);
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
    int rc = validate(k, c);
    if (rc != NBO_SUCCESS)
        return rc;
    nbo_block_map_t smap, rmap;
    if (is_reduction(k)) {
        nbo_reduce_t *red;
        size_t *bytes = malloc(4 * (size_t)c->size * sizeof(size_t));
        if (!bytes)
            return NBO_ERR_NOMEM;
        rc = nbo_reduce_prepare(k, c, &red, &smap, &rmap, bytes);
        if (rc != NBO_SUCCESS) {
            free(bytes);
            return rc;
        }
        if (c->cfg.check) {
            /* Every rank reduces as many bytes per block as every other. */
            const size_t *rb = bytes + 2 * c->size;
            rc = check_gathered(c, k, k->coll == NBO_COLL_ALLREDUCE ? rb[0] : rb[c->rank], NULL);
        }
        if (rc == NBO_SUCCESS)
            rc = create(k, c, &smap, &rmap, red, bytes, keyed ? &key : NULL, req);
        else {
            nbo_block_map_free(&smap);
            nbo_block_map_free(&rmap);
            nbo_reduce_free(red);
        }
        free(bytes);
        return rc;
    }
    rc = map_blocks(k, c, &smap, &rmap);
    if (rc != NBO_SUCCESS)
        return rc;
    return create(k, c, &smap, &rmap, NULL, NULL, keyed ? &key : NULL, req);
}
