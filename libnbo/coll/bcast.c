/* bcast.c - the broadcast family: its entry points and descriptor
 * (family.h).  One buffer, in place by nature: block 0 of the receive side
 * holds the root's data on every rank; the table is bcast_algs.c. */
#include <stdlib.h>

#include "family.h"

static int validate(const nbo_coll_call_t *k, const struct nbo_comm *c)
{
    if (k->rcount < 0)
        return NBO_ERR_COUNT;
    if (k->root < 0 || k->root >= c->size)
        return NBO_ERR_ROOT;
    return NBO_SUCCESS;
}

/* rbytes[0] the whole message at rdispl[0] = 0, every other entry 0. */
static int describe(const nbo_coll_call_t *k, struct nbo_comm *c, nbo_coll_parts_t *p)
{
    const int P = c->size;
    int *c1 = NULL, *d1 = NULL;
    int rc = nbo_coll_one_block(P, 0, k->rcount, &c1, &d1);
    if (rc == NBO_SUCCESS)
        rc = nbo_block_map_init(&p->rmap, P, k->recvbuf, c1, -1, d1, k->rtype, c->comm);
    free(c1);
    free(d1);
    if (rc == NBO_SUCCESS)
        rc = nbo_coll_plan_maps(p, P, NULL);
    if (rc != NBO_SUCCESS) {
        nbo_coll_parts_free(p);
        return rc;
    }
    p->plan.args.root = k->root;
    p->plan.args.send_contig = p->plan.args.recv_contig = p->rmap.dt.contig;
    p->recvbuf = k->recvbuf;
    return NBO_SUCCESS;
}

/* Every rank holds as many bytes as the root. */
static void signature(const nbo_coll_call_t *k, const struct nbo_comm *c,
                      const nbo_coll_parts_t *p, size_t *sb, size_t *rb)
{
    (void)k;
    (void)c;
    const nbo_sched_args_t *a = &p->plan.args;
    nbo_coll_sig_fill(sb, a->nsend, a->rbytes[0]);
    nbo_coll_sig_fill(rb, a->nrecv, a->rbytes[0]);
}

static size_t small_max(const nbo_config_t *cfg) { return cfg->bcast_small; }

static const nbo_coll_family_t family = {
    .validate = validate, .describe = describe, .signature = signature, .small_max = small_max};

const nbo_coll_desc_t nbo_bcast_desc = {
    .coll = NBO_COLL_BCAST, .flags = NBO_COLL_F_IN_PLACE, .algs = nbo_bcast_algs,
    .family = &family};

static nbo_coll_call_t bcast(void *buffer, int count, MPI_Datatype datatype, int root,
                             int persistent)
{
    nbo_coll_call_t k = {.coll = NBO_COLL_BCAST, .persistent = persistent, .sendbuf = buffer,
                         .scount = count, .stype = datatype, .recvbuf = buffer, .rcount = count,
                         .rtype = datatype, .root = root, .op = MPI_OP_NULL};
    return k;
}

int nbo_ibcast(void *buffer, int count, MPI_Datatype datatype, int root, nbo_comm_t comm,
               nbo_request_t *req)
{
    nbo_coll_call_t k = bcast(buffer, count, datatype, root, 0);
    return nbo_coll_start(&k, comm, req);
}

int nbo_bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, nbo_comm_t comm,
                   nbo_request_t *req)
{
    nbo_coll_call_t k = bcast(buffer, count, datatype, root, 1);
    return nbo_coll_start(&k, comm, req);
}
