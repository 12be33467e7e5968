/*
 * gather.c - the rooted data movers: gather, gatherv, scatter and scatterv,
 * their entry points and descriptors (family.h); the tables are
 * gather_algs.c.  The root's side holds a block per rank (the receive side
 * of a gather, the send side of a scatter), every other rank's one block,
 * its own; what MPI calls not significant off the root is never read
 * there.  A scatter in place (recvbuf MPI_IN_PLACE at the root) reaches
 * the driver as sendbuf MPI_IN_PLACE with the P blocks in the receive
 * buffer, the convention of the other in-place calls.
 */
#include <stdlib.h>
#include <string.h>

#include "family.h"

static int is_scatter(const nbo_coll_call_t *k)
{
    return k->coll == NBO_COLL_SCATTER || k->coll == NBO_COLL_SCATTERV;
}

static int validate(const nbo_coll_call_t *k, const struct nbo_comm *c)
{
    if (k->root < 0 || k->root >= c->size)
        return NBO_ERR_ROOT;
    const int root = c->rank == k->root, ip = k->sendbuf == MPI_IN_PLACE;
    if (ip && !root)
        return NBO_ERR_BUFFER;
    /* The root's P blocks: counts (and displacements) of the v-forms. */
    const int *counts = is_scatter(k) ? k->scounts : k->rcounts;
    const int *displs = is_scatter(k) ? k->sdispls : k->rdispls;
    const int vform = k->coll == NBO_COLL_GATHERV || k->coll == NBO_COLL_SCATTERV;
    if (root && vform && (!counts || !displs))
        return NBO_ERR_ARG;
    const int many = is_scatter(k) ? k->scount : k->rcount; /* the root's count per block */
    const int own = is_scatter(k) ? k->rcount : k->scount;
    if ((root && !vform && many < 0) || (!ip && own < 0))
        return NBO_ERR_COUNT;
    return NBO_SUCCESS;
}

/* Map of one block, at index `at`, of count elements of type (or of none). */
static int one_block(nbo_block_map_t *m, int P, int at, const void *buf, int count,
                     MPI_Datatype type, MPI_Comm comm)
{
    int *c1 = NULL, *d1 = NULL;
    int rc = nbo_coll_one_block(P, at, count, &c1, &d1);
    if (rc == NBO_SUCCESS)
        rc = nbo_block_map_init(m, P, buf, c1, -1, d1, type, comm);
    free(c1);
    free(d1);
    return rc;
}

/* The root's many blocks in `many`, the own block in `own`: gather's
 * receive and send maps, scatter's send and receive maps.  In place the
 * root has only the many (in the receive map, as the driver expects). */
static int describe(const nbo_coll_call_t *k, struct nbo_comm *c, nbo_coll_parts_t *p)
{
    const int P = c->size, r = c->rank, root = r == k->root, ip = k->sendbuf == MPI_IN_PLACE;
    const int scatter = is_scatter(k);
    nbo_block_map_t *many = scatter ? (ip ? &p->rmap : &p->smap) : &p->rmap;
    nbo_block_map_t *own = scatter ? &p->rmap : &p->smap;
    const void *many_buf = scatter ? (ip ? k->recvbuf : k->sendbuf) : k->recvbuf;
    const void *own_buf = scatter ? k->recvbuf : k->sendbuf;
    const int *counts = scatter ? k->scounts : k->rcounts;
    const int *displs = scatter ? k->sdispls : k->rdispls;
    const int count = scatter ? k->scount : k->rcount, own_count = scatter ? k->rcount : k->scount;
    const MPI_Datatype many_type = scatter ? k->stype : k->rtype;
    const MPI_Datatype own_type = scatter ? k->rtype : k->stype;
    const int vform = k->coll == NBO_COLL_GATHERV || k->coll == NBO_COLL_SCATTERV;
    int rc = NBO_SUCCESS;
    if (root)
        rc = nbo_block_map_init(many, P, many_buf, vform ? counts : NULL, vform ? -1 : count,
                                vform ? displs : NULL, many_type, c->comm);
    else /* nothing of the root's side is significant here */
        rc = one_block(many, P, 0, NULL, 0, own_type, c->comm);
    if (rc == NBO_SUCCESS && !ip)
        rc = one_block(own, P, r, own_buf, own_count, own_type, c->comm);
    /* The own block must fit the root's slot for it. */
    if (rc == NBO_SUCCESS && root && !ip && own->bytes[r] != many->bytes[r])
        rc = NBO_ERR_MISMATCH;
    if (rc == NBO_SUCCESS && root && !ip)
        rc = scatter ? nbo_coll_no_overlap(k, many, own) : nbo_coll_no_overlap(k, own, many);
    if (rc == NBO_SUCCESS)
        rc = nbo_plan_lists(&p->plan, P, P);
    if (rc != NBO_SUCCESS) {
        nbo_coll_parts_free(p);
        return rc;
    }
    nbo_plan_all_ranks(&p->plan, P);
    nbo_sched_args_t *a = &p->plan.args;
    size_t *sb = (size_t *)a->sbytes, *sd = (size_t *)a->sdispl;
    size_t *rb = (size_t *)a->rbytes, *rd = (size_t *)a->rdispl;
    const nbo_block_map_t *own_side = ip ? many : own;
    if (scatter) {
        if (root && !ip) {
            memcpy(sb, many->bytes, (size_t)P * sizeof(size_t));
            memcpy(sd, many->boff, (size_t)P * sizeof(size_t));
        }
        if (root && ip) {
            memcpy(rb, many->bytes, (size_t)P * sizeof(size_t));
            memcpy(rd, many->boff, (size_t)P * sizeof(size_t));
        } else {
            rb[r] = own->bytes[r];
            rd[r] = own->boff[r];
        }
    } else {
        if (root) {
            memcpy(rb, many->bytes, (size_t)P * sizeof(size_t));
            memcpy(rd, many->boff, (size_t)P * sizeof(size_t));
        }
        sb[r] = own_side->bytes[r];
        sd[r] = ip ? 0 : own->boff[r];
    }
    a->root = k->root;
    a->send_contig = (ip ? &p->rmap : &p->smap)->dt.contig;
    a->recv_contig = p->rmap.dt.contig;
    p->sendbuf = ip || (scatter && !root) ? NULL : (void *)k->sendbuf;
    p->recvbuf = scatter || root ? k->recvbuf : NULL;
    return NBO_SUCCESS;
}

/* What this rank's arguments say it sends each rank and expects from
 * each: a gather's blocks go to the root, a scatter's come from it. */
static void signature(const nbo_coll_call_t *k, const struct nbo_comm *c,
                      const nbo_coll_parts_t *p, size_t *sb, size_t *rb)
{
    const nbo_sched_args_t *a = &p->plan.args;
    const int P = c->size, r = c->rank, root = k->root;
    memset(sb, 0, (size_t)P * sizeof(*sb));
    memset(rb, 0, (size_t)P * sizeof(*rb));
    if (is_scatter(k)) {
        rb[root] = a->rbytes[r];
        if (r == root)
            for (int i = 0; i < P; i++)
                sb[i] = a->in_place ? a->rbytes[i] : a->sbytes[i];
    } else {
        sb[root] = a->sbytes[r];
        if (r == root)
            memcpy(rb, a->rbytes, (size_t)P * sizeof(*rb));
    }
}

static size_t small_max(const nbo_config_t *cfg) { return cfg->gather_small; }

static const nbo_coll_family_t family = {
    .validate = validate, .describe = describe, .signature = signature, .small_max = small_max};

const nbo_coll_desc_t nbo_gather_desc = {
    .coll = NBO_COLL_GATHER, .flags = NBO_COLL_F_UNIFORM, .algs = nbo_gather_algs,
    .family = &family};
const nbo_coll_desc_t nbo_gatherv_desc = {
    .coll = NBO_COLL_GATHERV, .algs = nbo_gather_algs, .family = &family};
const nbo_coll_desc_t nbo_scatter_desc = {
    .coll = NBO_COLL_SCATTER, .flags = NBO_COLL_F_UNIFORM, .algs = nbo_scatter_algs,
    .family = &family};
const nbo_coll_desc_t nbo_scatterv_desc = {
    .coll = NBO_COLL_SCATTERV, .algs = nbo_scatter_algs, .family = &family};

/* ------------------------------------------------------------ entry points */

static nbo_coll_call_t rooted(nbo_coll_t coll, const void *sendbuf, const int *scounts,
                              int scount, const int *sdispls, MPI_Datatype stype, void *recvbuf,
                              const int *rcounts, int rcount, const int *rdispls,
                              MPI_Datatype rtype, int root, int persistent)
{
    nbo_coll_call_t k = {.coll = coll, .persistent = persistent, .sendbuf = sendbuf,
                         .scounts = scounts, .sdispls = sdispls, .scount = scount,
                         .stype = stype, .recvbuf = recvbuf, .rcounts = rcounts,
                         .rdispls = rdispls, .rcount = rcount, .rtype = rtype, .root = root,
                         .op = MPI_OP_NULL};
    /* Scatter in place: the root's blocks stand in the receive buffer. */
    if ((coll == NBO_COLL_SCATTER || coll == NBO_COLL_SCATTERV) && recvbuf == MPI_IN_PLACE) {
        k.sendbuf = MPI_IN_PLACE;
        k.recvbuf = (void *)sendbuf;
        k.rcount = scount;
        k.rtype = stype;
    }
    return k;
}

int nbo_igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, nbo_comm_t comm,
                nbo_request_t *req)
{
    nbo_coll_call_t k = rooted(NBO_COLL_GATHER, sendbuf, NULL, sendcount, NULL, sendtype,
                               recvbuf, NULL, recvcount, NULL, recvtype, root, 0);
    return nbo_coll_start(&k, comm, req);
}

int nbo_gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, nbo_comm_t comm,
                    nbo_request_t *req)
{
    nbo_coll_call_t k = rooted(NBO_COLL_GATHER, sendbuf, NULL, sendcount, NULL, sendtype,
                               recvbuf, NULL, recvcount, NULL, recvtype, root, 1);
    return nbo_coll_start(&k, comm, req);
}

int nbo_igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = rooted(NBO_COLL_GATHERV, sendbuf, NULL, sendcount, NULL, sendtype,
                               recvbuf, recvcounts, -1, displs, recvtype, root, 0);
    return nbo_coll_start(&k, comm, req);
}

int nbo_gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     int root, nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = rooted(NBO_COLL_GATHERV, sendbuf, NULL, sendcount, NULL, sendtype,
                               recvbuf, recvcounts, -1, displs, recvtype, root, 1);
    return nbo_coll_start(&k, comm, req);
}

int nbo_iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, nbo_comm_t comm,
                 nbo_request_t *req)
{
    nbo_coll_call_t k = rooted(NBO_COLL_SCATTER, sendbuf, NULL, sendcount, NULL, sendtype,
                               recvbuf, NULL, recvcount, NULL, recvtype, root, 0);
    return nbo_coll_start(&k, comm, req);
}

int nbo_scatter_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, nbo_comm_t comm,
                     nbo_request_t *req)
{
    nbo_coll_call_t k = rooted(NBO_COLL_SCATTER, sendbuf, NULL, sendcount, NULL, sendtype,
                               recvbuf, NULL, recvcount, NULL, recvtype, root, 1);
    return nbo_coll_start(&k, comm, req);
}

int nbo_iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = rooted(NBO_COLL_SCATTERV, sendbuf, sendcounts, -1, displs, sendtype,
                               recvbuf, NULL, recvcount, NULL, recvtype, root, 0);
    return nbo_coll_start(&k, comm, req);
}

int nbo_scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                      MPI_Datatype sendtype, void *recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = rooted(NBO_COLL_SCATTERV, sendbuf, sendcounts, -1, displs, sendtype,
                               recvbuf, NULL, recvcount, NULL, recvtype, root, 1);
    return nbo_coll_start(&k, comm, req);
}
