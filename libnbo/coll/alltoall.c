/* alltoall.c - the all-to-all family: alltoall, alltoallv and alltoallw,
 * their entry points and their descriptors (family.h).  Every rank sends
 * every rank a block of its own size (alltoallw: and its own type); the
 * table is alltoall_algs.c. */
#include "family.h"

static int validate(const nbo_coll_call_t *k, const struct nbo_comm *c)
{
    (void)c;
    if (k->coll == NBO_COLL_ALLTOALLW)
        return !k->rcounts || !k->rdispls || !k->rtypes ||
                       (k->sendbuf != MPI_IN_PLACE && (!k->scounts || !k->sdispls || !k->stypes))
                   ? NBO_ERR_ARG
                   : NBO_SUCCESS;
    if (k->coll == NBO_COLL_ALLTOALLV)
        return !k->rcounts || !k->rdispls ||
                       (k->sendbuf != MPI_IN_PLACE && (!k->scounts || !k->sdispls))
                   ? NBO_ERR_ARG
                   : NBO_SUCCESS;
    return k->rcount < 0 || (k->sendbuf != MPI_IN_PLACE && k->scount < 0) ? NBO_ERR_COUNT
                                                                           : NBO_SUCCESS;
}

/* Both sides' block maps: what we send ourselves must fit what we receive
 * from ourselves (and, uniform, every block block 0's size). */
static int describe(const nbo_coll_call_t *k, struct nbo_comm *c, nbo_coll_parts_t *p)
{
    const int P = c->size, ip = k->sendbuf == MPI_IN_PLACE;
    if (k->coll == NBO_COLL_ALLTOALLW) {
        int rc = nbo_block_map_init_w(&p->rmap, P, k->recvbuf, k->rcounts, k->rdispls, k->rtypes,
                                      c->comm);
        if (rc == NBO_SUCCESS && !ip)
            rc = nbo_block_map_init_w(&p->smap, P, k->sendbuf, k->scounts, k->sdispls, k->stypes,
                                      c->comm);
        return nbo_coll_maps_done(k, c, p, rc, 0, 1);
    }
    int rc = nbo_block_map_init(&p->rmap, P, k->recvbuf, k->rcounts, k->rcount, k->rdispls,
                                k->rtype, c->comm);
    if (rc == NBO_SUCCESS && !ip)
        rc = nbo_block_map_init(&p->smap, P, k->sendbuf, k->scounts, k->scount, k->sdispls,
                                k->stype, c->comm);
    return nbo_coll_maps_done(k, c, p, rc, k->coll == NBO_COLL_ALLTOALL, 1);
}

static const nbo_coll_family_t family = {
    .validate = validate, .describe = describe};

const nbo_coll_desc_t nbo_alltoall_desc = {
    .coll = NBO_COLL_ALLTOALL, .flags = NBO_COLL_F_UNIFORM | NBO_COLL_F_CODEC | NBO_COLL_F_DEVICE,
    .algs = nbo_alltoall_algs, .family = &family};

const nbo_coll_desc_t nbo_alltoallv_desc = {
    .coll = NBO_COLL_ALLTOALLV, .flags = NBO_COLL_F_CODEC | NBO_COLL_F_DEVICE,
    .algs = nbo_alltoall_algs, .family = &family};

/* No codec (a block's scalars are its type's) and no device staging. */
const nbo_coll_desc_t nbo_alltoallw_desc = {
    .coll = NBO_COLL_ALLTOALLW, .algs = nbo_alltoall_algs, .family = &family};

static nbo_coll_call_t alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                int persistent)
{
    nbo_coll_call_t k = {.coll = NBO_COLL_ALLTOALL, .persistent = persistent,
                         .sendbuf = sendbuf, .scount = sendcount, .stype = sendtype,
                         .recvbuf = recvbuf, .rcount = recvcount, .rtype = recvtype,
                         .op = MPI_OP_NULL};
    return k;
}

static nbo_coll_call_t alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                 const int rdispls[], MPI_Datatype recvtype, int persistent)
{
    nbo_coll_call_t k = {.coll = NBO_COLL_ALLTOALLV, .persistent = persistent,
                         .sendbuf = sendbuf, .scounts = sendcounts, .sdispls = sdispls,
                         .scount = -1, .stype = sendtype, .recvbuf = recvbuf,
                         .rcounts = recvcounts, .rdispls = rdispls, .rcount = -1,
                         .rtype = recvtype, .op = MPI_OP_NULL};
    return k;
}

int nbo_ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 0);
    return nbo_coll_start(&k, comm, req);
}

int nbo_ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                  rdispls, recvtype, 0);
    return nbo_coll_start(&k, comm, req);
}

int nbo_alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, 1);
    return nbo_coll_start(&k, comm, req);
}

int nbo_alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                       const int rdispls[], MPI_Datatype recvtype, nbo_comm_t comm,
                       nbo_request_t *req)
{
    nbo_coll_call_t k = alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                  rdispls, recvtype, 1);
    return nbo_coll_start(&k, comm, req);
}

static nbo_coll_call_t alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                 const MPI_Datatype sendtypes[], void *recvbuf,
                                 const int recvcounts[], const int rdispls[],
                                 const MPI_Datatype recvtypes[], int persistent)
{
    nbo_coll_call_t k = {.coll = NBO_COLL_ALLTOALLW, .persistent = persistent,
                         .sendbuf = sendbuf, .scounts = sendcounts, .sdispls = sdispls,
                         .scount = -1, .stype = MPI_BYTE, .stypes = sendtypes, .recvbuf = recvbuf,
                         .rcounts = recvcounts, .rdispls = rdispls, .rcount = -1,
                         .rtype = MPI_BYTE, .rtypes = recvtypes, .op = MPI_OP_NULL};
    return k;
}

int nbo_ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], nbo_comm_t comm,
                   nbo_request_t *req)
{
    nbo_coll_call_t k = alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                  rdispls, recvtypes, 0);
    return nbo_coll_start(&k, comm, req);
}

int nbo_alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                       const int rdispls[], const MPI_Datatype recvtypes[], nbo_comm_t comm,
                       nbo_request_t *req)
{
    nbo_coll_call_t k = alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                  rdispls, recvtypes, 1);
    return nbo_coll_start(&k, comm, req);
}
