/* alltoall.c - the four all-to-all entry points: each describes its call
 * for the shared path of coll.c. */
#include "core.h"

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
