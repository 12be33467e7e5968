/*
 * alltoall.c - the four all-to-all entry points: validate the call, describe
 * it in bytes, compile it into a request and (non-persistent) start it.
 */
#include <string.h>

#include "core.h"

typedef struct call {
    const void *sendbuf;
    const int  *scounts, *sdispls; /* NULL for alltoall */
    int         scount;
    MPI_Datatype stype;
    void       *recvbuf;
    const int  *rcounts, *rdispls;
    int         rcount;
    MPI_Datatype rtype;
    int         uniform;           /* alltoall: every block the same */
} call_t;

static int build(const call_t *k, nbo_comm_t comm, nbo_request_t *req, int persistent)
{
    if (!req)
        return NBO_ERR_ARG;
    *req = NBO_REQUEST_NULL;
    nbo_lock();
    struct nbo_comm *c = nbo_comm_lookup(comm);
    nbo_unlock();
    if (!c)
        return NBO_ERR_COMM;
    const int in_place = k->sendbuf == MPI_IN_PLACE;
    if (!k->uniform && (!k->rcounts || !k->rdispls || (!in_place && (!k->scounts || !k->sdispls))))
        return NBO_ERR_ARG;
    if (k->uniform && (k->rcount < 0 || (!in_place && k->scount < 0)))
        return NBO_ERR_COUNT;
    if (in_place && k->recvbuf == MPI_IN_PLACE)
        return NBO_ERR_BUFFER;

    const int P = c->size;
    nbo_block_map_t smap, rmap;
    memset(&smap, 0, sizeof(smap));
    smap.owned = MPI_DATATYPE_NULL;
    int rc = nbo_block_map_init(&rmap, P, k->recvbuf, k->rcounts, k->rcount, k->rdispls, k->rtype,
                                c->comm);
    if (rc != NBO_SUCCESS)
        return rc;
    if (!in_place) {
        rc = nbo_block_map_init(&smap, P, k->sendbuf, k->scounts, k->scount, k->sdispls, k->stype,
                                c->comm);
        if (rc != NBO_SUCCESS) {
            nbo_block_map_free(&rmap);
            return rc;
        }
    }
    const nbo_block_map_t *s = in_place ? &rmap : &smap;
    /* What we send to ourselves must fit what we receive from ourselves. */
    if (s->bytes[c->rank] != rmap.bytes[c->rank] || (k->uniform && s->bytes[0] != rmap.bytes[0])) {
        nbo_block_map_free(&smap);
        nbo_block_map_free(&rmap);
        return NBO_ERR_MISMATCH;
    }

    /* MPI forbids aliased buffers outside MPI_IN_PLACE; receives posted up
     * front would overwrite data not yet sent. */
    if (!in_place && smap.hi > smap.lo && rmap.hi > rmap.lo &&
        (const char *)k->sendbuf + smap.lo < (char *)k->recvbuf + rmap.hi &&
        (char *)k->recvbuf + rmap.lo < (const char *)k->sendbuf + smap.hi) {
        nbo_block_map_free(&smap);
        nbo_block_map_free(&rmap);
        return NBO_ERR_OVERLAP;
    }
    if (c->cfg.check) {
        rc = nbo_check_call(c, k->uniform * 2 + persistent, s->bytes, rmap.bytes);
        if (rc != NBO_SUCCESS) {
            nbo_block_map_free(&smap);
            nbo_block_map_free(&rmap);
            return rc;
        }
    }

    nbo_sched_args_t a = {
        .size = P,
        .rank = c->rank,
        .sbytes = s->bytes,
        .sdispl = s->boff,
        .rbytes = rmap.bytes,
        .rdispl = rmap.boff,
        .send_contig = s->dt.contig,
        .recv_contig = rmap.dt.contig,
        .in_place = in_place,
        .uniform = k->uniform,
        .algorithm = c->cfg.algorithm,
        .window = c->cfg.window,
        .bruck_max = c->cfg.bruck_max,
    };
    struct nbo_request *r;
    rc = nbo_request_create(c, &a, in_place ? NULL : (void *)k->sendbuf, k->recvbuf, &smap,
                            &rmap, persistent, &r); /* r owns the maps */
    if (rc != NBO_SUCCESS)
        return rc;
    if (!persistent) {
        nbo_lock();
        rc = nbo_request_begin(r);
        nbo_unlock();
    }
    *req = r;
    return rc;
}

int nbo_ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, nbo_comm_t comm, nbo_request_t *req)
{
    call_t k = {.sendbuf = sendbuf, .scount = sendcount, .stype = sendtype, .recvbuf = recvbuf,
                .rcount = recvcount, .rtype = recvtype, .uniform = 1};
    return build(&k, comm, req, 0);
}

int nbo_ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, nbo_comm_t comm, nbo_request_t *req)
{
    call_t k = {.sendbuf = sendbuf, .scounts = sendcounts, .sdispls = sdispls, .scount = -1,
                .stype = sendtype, .recvbuf = recvbuf, .rcounts = recvcounts, .rdispls = rdispls,
                .rcount = -1, .rtype = recvtype, .uniform = 0};
    return build(&k, comm, req, 0);
}

int nbo_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, nbo_comm_t comm, nbo_request_t *req)
{
    call_t k = {.sendbuf = sendbuf, .scount = sendcount, .stype = sendtype, .recvbuf = recvbuf,
                .rcount = recvcount, .rtype = recvtype, .uniform = 1};
    return build(&k, comm, req, 1);
}

int nbo_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                       const int rdispls[], MPI_Datatype recvtype, nbo_comm_t comm,
                       nbo_request_t *req)
{
    call_t k = {.sendbuf = sendbuf, .scounts = sendcounts, .sdispls = sdispls, .scount = -1,
                .stype = sendtype, .recvbuf = recvbuf, .rcounts = recvcounts, .rdispls = rdispls,
                .rcount = -1, .rtype = recvtype, .uniform = 0};
    return build(&k, comm, req, 1);
}
