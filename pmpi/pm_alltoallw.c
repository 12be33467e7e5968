/*
 * pm_alltoallw.c - MPI_Ialltoallw and MPI_Alltoallw_init (pm_coll.c has
 * the rules they share).  Not in NBO_PMPI_COLLS's default: served when
 * `alltoallw` is named (pm_settings.c).  No size rule: each rank's blocks
 * are its own, as for alltoallv.
 */
#include "pmpi.h"

PM_EXPORT int MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf,
                             const int recvcounts[], const int rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_for_any(comm, PM_ALLTOALLW);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                 rdispls, recvtypes, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Ialltoallw"))
        return PMPI_Ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                               rdispls, recvtypes, comm, request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

#ifdef PM_HAVE_INIT
PM_EXPORT int PM_INIT(Alltoallw)(const void *sendbuf, const int sendcounts[],
                                 const int sdispls[], const MPI_Datatype sendtypes[],
                                 void *recvbuf, const int recvcounts[], const int rdispls[],
                                 const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_for_any(comm, PM_ALLTOALLW);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_alltoallw_init(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                     recvcounts, rdispls, recvtypes, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Alltoallw_init"))
        return PMPI_INIT(Alltoallw)(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts,
                                   rdispls, recvtypes, comm, info, request);
    return pm_serve(comm, pc, rc, req, 1, request);
}
#endif
