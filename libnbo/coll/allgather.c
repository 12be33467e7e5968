/* allgather.c - the allgather family: allgather and allgatherv, their
 * entry points and descriptors (family.h).  Every rank sends every rank its
 * own contribution; the tables are allgather_algs.c. */
#include <stdlib.h>
#include <string.h>

#include "family.h"

static int validate(const nbo_coll_call_t *k, const struct nbo_comm *c)
{
    (void)c;
    if (k->coll == NBO_COLL_ALLGATHERV && (!k->rcounts || !k->rdispls))
        return NBO_ERR_ARG;
    if ((k->coll == NBO_COLL_ALLGATHER && k->rcount < 0) ||
        (k->sendbuf != MPI_IN_PLACE && k->scount < 0))
        return NBO_ERR_COUNT;
    return NBO_SUCCESS;
}

/* Receive side: rank i's block.  Send side: the own contribution, block
 * `rank` of a map whose other blocks are empty; the compiler's sbytes and
 * sdispl are all 0 but the own block's (schedule.h). */
static int describe(const nbo_coll_call_t *k, struct nbo_comm *c, nbo_coll_parts_t *p)
{
    const int P = c->size, ip = k->sendbuf == MPI_IN_PLACE;
    int *c1 = NULL, *d1 = NULL;
    int rc = nbo_block_map_init(&p->rmap, P, k->recvbuf, k->rcounts, k->rcount, k->rdispls,
                                k->rtype, c->comm);
    if (rc == NBO_SUCCESS && !ip) {
        rc = nbo_coll_one_block(P, c->rank, k->scount, &c1, &d1);
        if (rc == NBO_SUCCESS)
            rc = nbo_block_map_init(&p->smap, P, k->sendbuf, c1, -1, d1, k->stype, c->comm);
    }
    free(c1);
    free(d1);
    rc = nbo_coll_maps_done(k, c, p, rc, 0, 0);
    if (rc != NBO_SUCCESS)
        return rc;
    const nbo_block_map_t *s = ip ? &p->rmap : &p->smap;
    nbo_sched_args_t *a = &p->plan.args;
    ((size_t *)a->sbytes)[c->rank] = s->bytes[c->rank];
    ((size_t *)a->sdispl)[c->rank] = ip ? 0 : s->boff[c->rank];
    return NBO_SUCCESS;
}

/* Every rank sends every peer its contribution, and expects from each what
 * its own receive counts say that peer holds. */
static void signature(const nbo_coll_call_t *k, const struct nbo_comm *c,
                      const nbo_coll_parts_t *p, size_t *sb, size_t *rb)
{
    (void)k;
    const nbo_sched_args_t *a = &p->plan.args;
    nbo_coll_sig_fill(sb, a->nsend, a->sbytes[c->rank]);
    memcpy(rb, a->rbytes, (size_t)a->nrecv * sizeof(*rb));
}

static size_t small_max(const nbo_config_t *cfg) { return cfg->allgather_small; }

static const nbo_coll_family_t family = {
    .validate = validate, .describe = describe, .signature = signature, .small_max = small_max};

const nbo_coll_desc_t nbo_allgather_desc = {
    .coll = NBO_COLL_ALLGATHER, .flags = NBO_COLL_F_UNIFORM, .algs = nbo_allgather_algs,
    .family = &family};

const nbo_coll_desc_t nbo_allgatherv_desc = {
    .coll = NBO_COLL_ALLGATHERV, .algs = nbo_allgather_algs, .family = &family};

static nbo_coll_call_t allgather(nbo_coll_t coll, const void *sendbuf, int sendcount,
                                 MPI_Datatype sendtype, void *recvbuf, const int *recvcounts,
                                 int recvcount, const int *displs, MPI_Datatype recvtype,
                                 int persistent)
{
    nbo_coll_call_t k = {.coll = coll, .persistent = persistent, .sendbuf = sendbuf,
                         .scount = sendcount, .stype = sendtype, .recvbuf = recvbuf,
                         .rcounts = recvcounts, .rdispls = displs, .rcount = recvcount,
                         .rtype = recvtype, .op = MPI_OP_NULL};
    return k;
}

int nbo_iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = allgather(NBO_COLL_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, NULL,
                                  recvcount, NULL, recvtype, 0);
    return nbo_coll_start(&k, comm, req);
}

int nbo_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = allgather(NBO_COLL_ALLGATHER, sendbuf, sendcount, sendtype, recvbuf, NULL,
                                  recvcount, NULL, recvtype, 1);
    return nbo_coll_start(&k, comm, req);
}

int nbo_iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = allgather(NBO_COLL_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf,
                                  recvcounts, -1, displs, recvtype, 0);
    return nbo_coll_start(&k, comm, req);
}

int nbo_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                        nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = allgather(NBO_COLL_ALLGATHERV, sendbuf, sendcount, sendtype, recvbuf,
                                  recvcounts, -1, displs, recvtype, 1);
    return nbo_coll_start(&k, comm, req);
}
