/*
 * pm_alltoall.c - MPI_Ialltoall(v), MPI_Alltoall(v)_init, and the blocking
 * forms with NBO_PMPI_BLOCKING=1 (pm_coll.c has the rules they share).
 * An all-to-all's size is its block, recvcount x recvtype's size (equal on
 * every rank); an all-to-allv has none (its counts are each rank's own),
 * so it is served whenever alltoall is.
 */
#include "pmpi.h"

PM_EXPORT int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_for(comm, PM_ALLTOALL, recvcount, recvtype, "MPI_Ialltoall");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Ialltoall"))
        return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

PM_EXPORT int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_for_any(comm, PM_ALLTOALL);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                 rdispls, recvtype, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Ialltoallv"))
        return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                               rdispls, recvtype, comm, request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

#ifdef PM_HAVE_INIT
/* Persistent: compiled once by libnbo; the application gets a shell. */
PM_EXPORT int PM_INIT(Alltoall)(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_for(comm, PM_ALLTOALL, recvcount, recvtype, "MPI_Alltoall_init");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                    pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Alltoall_init"))
        return PMPI_INIT(Alltoall)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  comm, info, request);
    return pm_serve(comm, pc, rc, req, 1, request);
}

PM_EXPORT int PM_INIT(Alltoallv)(const void *sendbuf, const int sendcounts[],
                                 const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int rdispls[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_for_any(comm, PM_ALLTOALL);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                     recvcounts, rdispls, recvtype, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Alltoallv_init"))
        return PMPI_INIT(Alltoallv)(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                   rdispls, recvtype, comm, info, request);
    return pm_serve(comm, pc, rc, req, 1, request);
}
#endif

/* Blocking forms: libnbo only when NBO_PMPI_BLOCKING=1 (see docs/pmpi.md). */
PM_EXPORT int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    pm_settings_load();
    pm_comm_t *pc = pm_cfg.blocking
                        ? pm_comm_for(comm, PM_ALLTOALL, recvcount, recvtype, "MPI_Alltoall")
                        : NULL;
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Alltoall"))
        return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    if (rc == NBO_SUCCESS) {
        atomic_fetch_add(&pm_served, 1);
        rc = nbo_wait(&req);
    }
    return rc == NBO_SUCCESS ? MPI_SUCCESS : pm_error(comm, rc);
}

PM_EXPORT int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    pm_settings_load();
    pm_comm_t *pc = pm_cfg.blocking ? pm_comm_for_any(comm, PM_ALLTOALL) : NULL;
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                 rdispls, recvtype, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Alltoallv"))
        return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                              rdispls, recvtype, comm);
    if (rc == NBO_SUCCESS) {
        atomic_fetch_add(&pm_served, 1);
        rc = nbo_wait(&req);
    }
    return rc == NBO_SUCCESS ? MPI_SUCCESS : pm_error(comm, rc);
}
