/*
 * pm_neighbor.c - MPI_Ineighbor_alltoall(v), MPI_Ineighbor_allgather(v)
 * and their persistent forms (pm_coll.c has the rules every entry point
 * shares).  No size rule: a rank's counts need only match its
 * neighbours', not every rank's, so a threshold could split one call
 * between MPI and libnbo.  A communicator without a topology goes to MPI,
 * which reports the error in its own terms.
 */
#include "pmpi.h"

/* The state serving a neighbourhood call on comm, or NULL (MPI serves). */
static pm_comm_t *neighbor_comm(MPI_Comm comm)
{
    int topo = MPI_UNDEFINED;
    if (comm == MPI_COMM_NULL || PMPI_Topo_test(comm, &topo) != MPI_SUCCESS ||
        topo == MPI_UNDEFINED)
        return NULL;
    return pm_comm_for_any(comm, PM_NEIGHBOR);
}

PM_EXPORT int MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                     void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                     MPI_Comm comm, MPI_Request *request)
{
    pm_comm_t *pc = neighbor_comm(comm);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_ineighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                         recvtype, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Ineighbor_alltoall"))
        return PMPI_Ineighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                       comm, request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

PM_EXPORT int MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[],
                                      const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                      const int recvcounts[], const int rdispls[],
                                      MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    pm_comm_t *pc = neighbor_comm(comm);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                          recvcounts, rdispls, recvtype, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Ineighbor_alltoallv"))
        return PMPI_Ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                        recvcounts, rdispls, recvtype, comm, request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

PM_EXPORT int MPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                      void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                      MPI_Comm comm, MPI_Request *request)
{
    pm_comm_t *pc = neighbor_comm(comm);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_ineighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                          recvtype, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Ineighbor_allgather"))
        return PMPI_Ineighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                        recvtype, comm, request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

PM_EXPORT int MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                       void *recvbuf, const int recvcounts[], const int displs[],
                                       MPI_Datatype recvtype, MPI_Comm comm,
                                       MPI_Request *request)
{
    pm_comm_t *pc = neighbor_comm(comm);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                           displs, recvtype, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Ineighbor_allgatherv"))
        return PMPI_Ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                         displs, recvtype, comm, request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

#ifdef PM_HAVE_INIT
PM_EXPORT int PM_INIT(Neighbor_alltoall)(const void *sendbuf, int sendcount,
                                         MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                         MPI_Request *request)
{
    pm_comm_t *pc = neighbor_comm(comm);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_neighbor_alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                             recvtype, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Neighbor_alltoall_init"))
        return PMPI_INIT(Neighbor_alltoall)(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                            recvtype, comm, info, request);
    return pm_serve(comm, pc, rc, req, 1, request);
}

PM_EXPORT int PM_INIT(Neighbor_alltoallv)(const void *sendbuf, const int sendcounts[],
                                          const int sdispls[], MPI_Datatype sendtype,
                                          void *recvbuf, const int recvcounts[],
                                          const int rdispls[], MPI_Datatype recvtype,
                                          MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pm_comm_t *pc = neighbor_comm(comm);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_neighbor_alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                              recvcounts, rdispls, recvtype, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Neighbor_alltoallv_init"))
        return PMPI_INIT(Neighbor_alltoallv)(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                             recvcounts, rdispls, recvtype, comm, info,
                                             request);
    return pm_serve(comm, pc, rc, req, 1, request);
}

PM_EXPORT int PM_INIT(Neighbor_allgather)(const void *sendbuf, int sendcount,
                                          MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                          MPI_Request *request)
{
    pm_comm_t *pc = neighbor_comm(comm);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_neighbor_allgather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                              recvtype, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Neighbor_allgather_init"))
        return PMPI_INIT(Neighbor_allgather)(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                             recvtype, comm, info, request);
    return pm_serve(comm, pc, rc, req, 1, request);
}

PM_EXPORT int PM_INIT(Neighbor_allgatherv)(const void *sendbuf, int sendcount,
                                           MPI_Datatype sendtype, void *recvbuf,
                                           const int recvcounts[], const int displs[],
                                           MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                           MPI_Request *request)
{
    pm_comm_t *pc = neighbor_comm(comm);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_neighbor_allgatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                               displs, recvtype, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Neighbor_allgatherv_init"))
        return PMPI_INIT(Neighbor_allgatherv)(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                              displs, recvtype, comm, info, request);
    return pm_serve(comm, pc, rc, req, 1, request);
}
#endif
