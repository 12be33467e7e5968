/* neighbor.c - the neighbourhood family: neighbor_alltoall(v) and
 * neighbor_allgather(v) (MPI-3 section 7.6), their entry points and
 * descriptors (family.h).  The peers are the topology's neighbour lists
 * (neighbor_topo.c); the table (neighbor_algs.c) compiles any lists. */
#include <limits.h>
#include <stdlib.h>

#include "neighbor.h"

static int is_v(nbo_coll_t coll)
{
    return coll == NBO_COLL_NEIGHBOR_ALLTOALLV || coll == NBO_COLL_NEIGHBOR_ALLGATHERV;
}

static int validate(const nbo_coll_call_t *k, const struct nbo_comm *c)
{
    (void)c;
    if (k->sendbuf == MPI_IN_PLACE) /* MPI has no in-place neighbourhood exchange */
        return NBO_ERR_BUFFER;
    if (k->coll == NBO_COLL_NEIGHBOR_ALLTOALLV && (!k->scounts || !k->sdispls))
        return NBO_ERR_ARG;
    if (is_v(k->coll) && (!k->rcounts || !k->rdispls))
        return NBO_ERR_ARG;
    if ((k->coll != NBO_COLL_NEIGHBOR_ALLTOALLV && k->scount < 0) ||
        (!is_v(k->coll) && k->rcount < 0))
        return NBO_ERR_COUNT;
    return NBO_SUCCESS;
}

/* Every block of a vector, PROC_NULL neighbours' too: MPI reads them. */
static int vector_valid(const int *counts, const int *displs, int n)
{
    for (int i = 0; i < n; i++)
        if (counts[i] < 0 || displs[i] < 0)
            return 0;
    return 1;
}

/* Counts and displacements (in elements) of each list entry's block.
 * vcounts NULL: `count` per block, block b at b * count (every block at
 * 0 when `same`: allgather's one send block). */
static int entry_blocks(const int *block, int n, const int *vcounts, const int *vdispls,
                        int count, int same, int **counts, int **displs)
{
    *counts = malloc(((size_t)n + 1) * sizeof(int));
    *displs = malloc(((size_t)n + 1) * sizeof(int));
    if (!*counts || !*displs)
        return NBO_ERR_NOMEM;
    (*counts)[0] = (*displs)[0] = 0; /* n = 0: one empty block */
    for (int i = 0; i < n; i++) {
        const int b = block[i];
        if (vcounts) {
            (*counts)[i] = vcounts[b];
            (*displs)[i] = vdispls[b];
            continue;
        }
        const long long at = same ? 0 : (long long)b * count;
        if (at > INT_MAX)
            return NBO_ERR_OVERFLOW;
        (*counts)[i] = count;
        (*displs)[i] = (int)at;
    }
    return NBO_SUCCESS;
}

/* A rank's k-th block to itself is its k-th from itself: the sizes must
 * agree, as between two ranks. */
static int self_blocks_match(const nbo_nbrs_t *n, const nbo_coll_parts_t *p, int rank)
{
    int i = 0, j = 0;
    for (;;) {
        while (i < n->nsend && n->speer[i] != rank)
            i++;
        while (j < n->nrecv && n->rpeer[j] != rank)
            j++;
        if (i == n->nsend || j == n->nrecv)
            return i == n->nsend && j == n->nrecv;
        if (p->smap.bytes[i++] != p->rmap.bytes[j++])
            return 0;
    }
}

static int describe_lists(const nbo_coll_call_t *k, struct nbo_comm *c, const nbo_nbrs_t *n,
                          nbo_coll_parts_t *p)
{
    const int alltoallv = k->coll == NBO_COLL_NEIGHBOR_ALLTOALLV, v = is_v(k->coll);
    if ((alltoallv && !vector_valid(k->scounts, k->sdispls, n->outdeg)) ||
        (v && !vector_valid(k->rcounts, k->rdispls, n->indeg)))
        return NBO_ERR_COUNT;
    const int gather = !(alltoallv || k->coll == NBO_COLL_NEIGHBOR_ALLTOALL);
    int *sc = NULL, *sd = NULL, *rc_ = NULL, *rd = NULL;
    int rc = entry_blocks(n->sblock, n->nsend, alltoallv ? k->scounts : NULL,
                          alltoallv ? k->sdispls : NULL, k->scount, gather, &sc, &sd);
    if (rc == NBO_SUCCESS)
        rc = entry_blocks(n->rblock, n->nrecv, v ? k->rcounts : NULL, v ? k->rdispls : NULL,
                          k->rcount, 0, &rc_, &rd);
    if (rc == NBO_SUCCESS)
        rc = nbo_block_map_init(&p->smap, n->nsend ? n->nsend : 1, k->sendbuf, sc, -1, sd,
                                k->stype, c->comm);
    if (rc == NBO_SUCCESS)
        rc = nbo_block_map_init(&p->rmap, n->nrecv ? n->nrecv : 1, k->recvbuf, rc_, -1, rd,
                                k->rtype, c->comm);
    free(sc);
    free(sd);
    free(rc_);
    free(rd);
    if (rc == NBO_SUCCESS && !self_blocks_match(n, p, c->rank))
        rc = NBO_ERR_MISMATCH;
    if (rc == NBO_SUCCESS)
        rc = nbo_coll_no_overlap(k, &p->smap, &p->rmap);
    if (rc == NBO_SUCCESS)
        rc = nbo_plan_lists(&p->plan, n->nsend, n->nrecv);
    if (rc != NBO_SUCCESS)
        return rc;
    nbo_sched_args_t *a = &p->plan.args;
    size_t *sb = (size_t *)a->sbytes, *sdp = (size_t *)a->sdispl;
    size_t *rb = (size_t *)a->rbytes, *rdp = (size_t *)a->rdispl;
    for (int i = 0; i < n->nsend; i++) {
        p->plan.peers[i] = n->speer[i];
        sb[i] = p->smap.bytes[i];
        sdp[i] = p->smap.boff[i];
    }
    for (int j = 0; j < n->nrecv; j++) {
        p->plan.peers[n->nsend + j] = n->rpeer[j];
        rb[j] = p->rmap.bytes[j];
        rdp[j] = p->rmap.boff[j];
    }
    a->send_contig = p->smap.dt.contig;
    a->recv_contig = p->rmap.dt.contig;
    p->sendbuf = (void *)k->sendbuf;
    p->recvbuf = k->recvbuf;
    return NBO_SUCCESS;
}

/* The topology, read at each call (a persistent request reads it once):
 * a lookup local to the process. */
static int describe(const nbo_coll_call_t *k, struct nbo_comm *c, nbo_coll_parts_t *p)
{
    nbo_nbrs_t n;
    int rc = nbo_nbrs_get(c->comm, &n);
    if (rc != NBO_SUCCESS)
        return rc;
    rc = describe_lists(k, c, &n, p);
    nbo_nbrs_free(&n);
    if (rc != NBO_SUCCESS)
        nbo_coll_parts_free(p);
    return rc;
}

static const nbo_coll_family_t family = {.validate = validate, .describe = describe};

const nbo_coll_desc_t nbo_neighbor_alltoall_desc = {
    .coll = NBO_COLL_NEIGHBOR_ALLTOALL, .algs = nbo_neighbor_algs, .family = &family};
const nbo_coll_desc_t nbo_neighbor_alltoallv_desc = {
    .coll = NBO_COLL_NEIGHBOR_ALLTOALLV, .algs = nbo_neighbor_algs, .family = &family};
const nbo_coll_desc_t nbo_neighbor_allgather_desc = {
    .coll = NBO_COLL_NEIGHBOR_ALLGATHER, .algs = nbo_neighbor_algs, .family = &family};
const nbo_coll_desc_t nbo_neighbor_allgatherv_desc = {
    .coll = NBO_COLL_NEIGHBOR_ALLGATHERV, .algs = nbo_neighbor_algs, .family = &family};

static int start(nbo_coll_t coll, int persistent, const void *sendbuf, const int *scounts,
                 const int *sdispls, int scount, MPI_Datatype stype, void *recvbuf,
                 const int *rcounts, const int *rdispls, int rcount, MPI_Datatype rtype,
                 nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = {.coll = coll, .persistent = persistent, .sendbuf = sendbuf,
                         .scounts = scounts, .sdispls = sdispls, .scount = scount,
                         .stype = stype, .recvbuf = recvbuf, .rcounts = rcounts,
                         .rdispls = rdispls, .rcount = rcount, .rtype = rtype,
                         .op = MPI_OP_NULL};
    return nbo_coll_start(&k, comm, req);
}

int nbo_ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, nbo_comm_t comm,
                           nbo_request_t *req)
{
    return start(NBO_COLL_NEIGHBOR_ALLTOALL, 0, sendbuf, NULL, NULL, sendcount, sendtype, recvbuf,
                 NULL, NULL, recvcount, recvtype, comm, req);
}

int nbo_ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, nbo_comm_t comm,
                            nbo_request_t *req)
{
    return start(NBO_COLL_NEIGHBOR_ALLTOALLV, 0, sendbuf, sendcounts, sdispls, -1, sendtype,
                 recvbuf, recvcounts, rdispls, -1, recvtype, comm, req);
}

int nbo_ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, nbo_comm_t comm,
                            nbo_request_t *req)
{
    return start(NBO_COLL_NEIGHBOR_ALLGATHER, 0, sendbuf, NULL, NULL, sendcount, sendtype,
                 recvbuf, NULL, NULL, recvcount, recvtype, comm, req);
}

int nbo_ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, nbo_comm_t comm, nbo_request_t *req)
{
    return start(NBO_COLL_NEIGHBOR_ALLGATHERV, 0, sendbuf, NULL, NULL, sendcount, sendtype,
                 recvbuf, recvcounts, displs, -1, recvtype, comm, req);
}

int nbo_neighbor_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype,
                               nbo_comm_t comm, nbo_request_t *req)
{
    return start(NBO_COLL_NEIGHBOR_ALLTOALL, 1, sendbuf, NULL, NULL, sendcount, sendtype, recvbuf,
                 NULL, NULL, recvcount, recvtype, comm, req);
}

int nbo_neighbor_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                const int rdispls[], MPI_Datatype recvtype, nbo_comm_t comm,
                                nbo_request_t *req)
{
    return start(NBO_COLL_NEIGHBOR_ALLTOALLV, 1, sendbuf, sendcounts, sdispls, -1, sendtype,
                 recvbuf, recvcounts, rdispls, -1, recvtype, comm, req);
}

int nbo_neighbor_allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                nbo_comm_t comm, nbo_request_t *req)
{
    return start(NBO_COLL_NEIGHBOR_ALLGATHER, 1, sendbuf, NULL, NULL, sendcount, sendtype,
                 recvbuf, NULL, NULL, recvcount, recvtype, comm, req);
}

int nbo_neighbor_allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, const int recvcounts[], const int displs[],
                                 MPI_Datatype recvtype, nbo_comm_t comm, nbo_request_t *req)
{
    return start(NBO_COLL_NEIGHBOR_ALLGATHERV, 1, sendbuf, NULL, NULL, sendcount, sendtype,
                 recvbuf, recvcounts, displs, -1, recvtype, comm, req);
}
