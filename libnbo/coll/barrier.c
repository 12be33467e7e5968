/* barrier.c - the barrier: its entry points and descriptor (family.h).  No
 * data: every block is empty and the table (barrier_algs.c) sends bytes of
 * its own scratch. */
#include <stdlib.h>

#include "family.h"

static int validate(const nbo_coll_call_t *k, const struct nbo_comm *c)
{
    (void)k;
    (void)c;
    return NBO_SUCCESS;
}

/* Empty maps of MPI_BYTE and lists of every rank with 0 bytes. */
static int describe(const nbo_coll_call_t *k, struct nbo_comm *c, nbo_coll_parts_t *p)
{
    (void)k;
    const int P = c->size;
    int *c1 = NULL, *d1 = NULL;
    int rc = nbo_coll_one_block(P, 0, 0, &c1, &d1);
    if (rc == NBO_SUCCESS)
        rc = nbo_block_map_init(&p->rmap, P, NULL, c1, -1, d1, MPI_BYTE, c->comm);
    free(c1);
    free(d1);
    if (rc == NBO_SUCCESS)
        rc = nbo_coll_plan_maps(p, P, NULL);
    if (rc != NBO_SUCCESS) {
        nbo_coll_parts_free(p);
        return rc;
    }
    p->plan.args.send_contig = p->plan.args.recv_contig = 1;
    return NBO_SUCCESS;
}

static const nbo_coll_family_t family = {.validate = validate, .describe = describe};

const nbo_coll_desc_t nbo_barrier_desc = {
    .coll = NBO_COLL_BARRIER, .flags = NBO_COLL_F_IN_PLACE, .algs = nbo_barrier_algs,
    .family = &family};

static nbo_coll_call_t barrier(int persistent)
{
    nbo_coll_call_t k = {.coll = NBO_COLL_BARRIER, .persistent = persistent,
                         .stype = MPI_BYTE, .rtype = MPI_BYTE, .op = MPI_OP_NULL};
    return k;
}

int nbo_ibarrier(nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = barrier(0);
    return nbo_coll_start(&k, comm, req);
}

int nbo_barrier_init(nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = barrier(1);
    return nbo_coll_start(&k, comm, req);
}
