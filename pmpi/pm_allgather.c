/*
 * pm_allgather.c - MPI_Iallgather, MPI_Iallgatherv and their persistent
 * forms (pm_coll.c has the rules every entry point shares).  The size
 * rule's block: recvcount x recvtype's size; allgatherv's, the largest of
 * its recvcounts, which every rank gives alike.
 */
#include "pmpi.h"

PM_EXPORT int MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_for(comm, PM_ALLGATHER, recvcount, recvtype, "MPI_Iallgather");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                 pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Iallgather"))
        return PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                               request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

PM_EXPORT int MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_for_v(comm, PM_ALLGATHERV, recvcounts, recvtype, "MPI_Iallgatherv");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                  recvtype, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Iallgatherv"))
        return PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                recvtype, comm, request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

#ifdef PM_HAVE_INIT
PM_EXPORT int PM_INIT(Allgather)(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                 MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_for(comm, PM_ALLGATHER, recvcount, recvtype, "MPI_Allgather_init");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_allgather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                     recvtype, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Allgather_init"))
        return PMPI_INIT(Allgather)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                    comm, info, request);
    return pm_serve(comm, pc, rc, req, 1, request);
}

PM_EXPORT int PM_INIT(Allgatherv)(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_for_v(comm, PM_ALLGATHERV, recvcounts, recvtype,
                                  "MPI_Allgatherv_init");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_allgatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                      displs, recvtype, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Allgatherv_init"))
        return PMPI_INIT(Allgatherv)(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                     recvtype, comm, info, request);
    return pm_serve(comm, pc, rc, req, 1, request);
}
#endif
