/* allgather.c - the allgather(v) and broadcast entry points: each
 * describes its call for the shared path of coll.c. */
#include "core.h"

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
