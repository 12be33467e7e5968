/*
 * alltoall.c - the four all-to-all entry points.  Each describes its call
 * (coll_call_t); one path then validates the arguments, describes the call
 * in bytes (block maps, checked against each other and, under NBO_CHECK,
 * across ranks), and creates the request, starting it unless persistent.
 */
#include <string.h>

#include "core.h"

/* One call of a collective, as its entry point received it. */
typedef struct coll_call {
    nbo_coll_t   coll;
    int          persistent;        /* *_init: started by nbo_start */
    const void  *sendbuf;           /* MPI_IN_PLACE: send data is in recvbuf */
    const int   *scounts, *sdispls; /* per peer (v forms), else NULL */
    int          scount;            /* one for every peer, else -1 */
    MPI_Datatype stype;
    void        *recvbuf;
    const int   *rcounts, *rdispls;
    int          rcount;
    MPI_Datatype rtype;
} coll_call_t;

/* Every block the same size: the compiler may choose Bruck, and the own
 * block stands for all in the size check. */
static int uniform(const coll_call_t *k) { return k->coll == NBO_COLL_ALLTOALL; }

static int in_place(const coll_call_t *k) { return k->sendbuf == MPI_IN_PLACE; }

/* What the arguments alone show wrong, before any datatype is looked at. */
static int validate(const coll_call_t *k)
{
    switch (k->coll) {
    case NBO_COLL_ALLTOALLV:
        if (!k->rcounts || !k->rdispls || (!in_place(k) && (!k->scounts || !k->sdispls)))
            return NBO_ERR_ARG;
        break;
    case NBO_COLL_ALLTOALL:
        if (k->rcount < 0 || (!in_place(k) && k->scount < 0))
            return NBO_ERR_COUNT;
        break;
    default: /* another collective's call never comes here */
        return NBO_ERR_INTERNAL;
    }
    if (in_place(k) && k->recvbuf == MPI_IN_PLACE)
        return NBO_ERR_BUFFER;
    return NBO_SUCCESS;
}

/* The two sides in bytes must fit: locally, and under NBO_CHECK across
 * ranks. */
static int validate_maps(const coll_call_t *k, struct nbo_comm *c, const nbo_block_map_t *smap,
                         const nbo_block_map_t *rmap)
{
    const nbo_block_map_t *s = in_place(k) ? rmap : smap; /* the send data */
    /* What we send to ourselves must fit what we receive from ourselves. */
    if (s->bytes[c->rank] != rmap->bytes[c->rank] ||
        (uniform(k) && s->bytes[0] != rmap->bytes[0]))
        return NBO_ERR_MISMATCH;
    /* MPI forbids aliased buffers outside MPI_IN_PLACE; receives posted up
     * front would overwrite data not yet sent. */
    if (!in_place(k) && smap->hi > smap->lo && rmap->hi > rmap->lo &&
        (const char *)k->sendbuf + smap->lo < (char *)k->recvbuf + rmap->hi &&
        (char *)k->recvbuf + rmap->lo < (const char *)k->sendbuf + smap->hi)
        return NBO_ERR_OVERLAP;
    if (c->cfg.check)
        return nbo_check_call(c, k->coll, k->persistent, s->bytes, rmap->bytes);
    return NBO_SUCCESS;
}

/* The block maps of both sides (smap stays empty in place), validated.
 * On error nothing is left to free. */
static int map_blocks(const coll_call_t *k, struct nbo_comm *c, nbo_block_map_t *smap,
                      nbo_block_map_t *rmap)
{
    memset(smap, 0, sizeof(*smap));
    smap->owned = MPI_DATATYPE_NULL;
    int rc = nbo_block_map_init(rmap, c->size, k->recvbuf, k->rcounts, k->rcount, k->rdispls,
                                k->rtype, c->comm);
    if (rc == NBO_SUCCESS && !in_place(k))
        rc = nbo_block_map_init(smap, c->size, k->sendbuf, k->scounts, k->scount, k->sdispls,
                                k->stype, c->comm);
    if (rc == NBO_SUCCESS)
        rc = validate_maps(k, c, smap, rmap);
    if (rc != NBO_SUCCESS) {
        nbo_block_map_free(smap);
        nbo_block_map_free(rmap);
    }
    return rc;
}

/* Compile the call into a request, which takes the block maps, and start
 * it unless it is persistent. */
static int create(const coll_call_t *k, struct nbo_comm *c, nbo_block_map_t *smap,
                  nbo_block_map_t *rmap, nbo_request_t *req)
{
    const nbo_block_map_t *s = in_place(k) ? rmap : smap; /* the send data */
    nbo_sched_args_t a = {
        .size = c->size,
        .rank = c->rank,
        .sbytes = s->bytes,
        .sdispl = s->boff,
        .rbytes = rmap->bytes,
        .rdispl = rmap->boff,
        .send_contig = s->dt.contig,
        .recv_contig = rmap->dt.contig,
        .in_place = in_place(k),
        .uniform = uniform(k),
        .algorithm = c->cfg.algorithm,
        .window = c->cfg.window,
        .bruck_max = c->cfg.bruck_max,
    };
    struct nbo_request *r;
    int rc = nbo_request_create(c, &a, in_place(k) ? NULL : (void *)k->sendbuf, k->recvbuf, smap,
                                rmap, k->persistent, &r);
    if (rc != NBO_SUCCESS)
        return rc;
    if (!k->persistent) {
        nbo_lock();
        rc = nbo_request_begin(r);
        nbo_unlock();
    }
    *req = r;
    return rc;
}

static int start_call(const coll_call_t *k, nbo_comm_t comm, nbo_request_t *req)
{
    if (!req)
        return NBO_ERR_ARG;
    *req = NBO_REQUEST_NULL;
    nbo_lock();
    struct nbo_comm *c = nbo_comm_lookup(comm);
    nbo_unlock();
    if (!c)
        return NBO_ERR_COMM;
    int rc = validate(k);
    if (rc != NBO_SUCCESS)
        return rc;
    nbo_block_map_t smap, rmap;
    rc = map_blocks(k, c, &smap, &rmap);
    if (rc != NBO_SUCCESS)
        return rc;
    return create(k, c, &smap, &rmap, req);
}

static coll_call_t alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, int persistent)
{
    coll_call_t k = {.coll = NBO_COLL_ALLTOALL, .persistent = persistent, .sendbuf = sendbuf,
                     .scount = sendcount, .stype = sendtype, .recvbuf = recvbuf,
                     .rcount = recvcount, .rtype = recvtype};
    return k;
}

static coll_call_t alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, int persistent)
{
    coll_call_t k = {.coll = NBO_COLL_ALLTOALLV, .persistent = persistent, .sendbuf = sendbuf,
                     .scounts = sendcounts, .sdispls = sdispls, .scount = -1, .stype = sendtype,
                     .recvbuf = recvbuf, .rcounts = recvcounts, .rdispls = rdispls, .rcount = -1,
                     .rtype = recvtype};
    return k;
}

int nbo_ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, nbo_comm_t comm, nbo_request_t *req)
{
    coll_call_t k = alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0);
    return start_call(&k, comm, req);
}

int nbo_ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, nbo_comm_t comm, nbo_request_t *req)
{
    coll_call_t k = alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                              recvtype, 0);
    return start_call(&k, comm, req);
}

int nbo_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, nbo_comm_t comm, nbo_request_t *req)
{
    coll_call_t k = alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 1);
    return start_call(&k, comm, req);
}

int nbo_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                       const int rdispls[], MPI_Datatype recvtype, nbo_comm_t comm,
                       nbo_request_t *req)
{
    coll_call_t k = alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                              recvtype, 1);
    return start_call(&k, comm, req);
}
