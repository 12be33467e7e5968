/*
 * pm_coll.c - the all-to-all entry points libnbo serves.
 *
 * A communicator libnbo does not serve (see pm_comm.c) goes to PMPI.  A
 * call libnbo rejects for its arguments also goes to PMPI, which reports
 * the error in MPI's own terms, or serves it where MPI accepts what libnbo
 * does not (MPI_BOTTOM with absolute datatypes, say); argument checks are
 * deterministic, so every rank of a consistent call takes the same path.
 * Any other libnbo failure is an MPI error on the communicator.
 */
#include "pmpi.h"

#define PM_EXPORT __attribute__((visibility("default")))

/* The persistent all-to-alls are MPI 4.0's MPI_Alltoall(v)_init; an MPI 3.1
 * library may offer them as an extension that programs call instead: Open
 * MPI 4.1's MPIX_Alltoall(v)_init (mpi-ext.h, "pcollreq").  The library
 * serves whichever names this MPI has (meson.build checks). */
#if NBO_PMPI_COLL_INIT
#define PM_ALLTOALL_INIT   MPI_Alltoall_init
#define PM_ALLTOALLV_INIT  MPI_Alltoallv_init
#define PMPI_ALLTOALL_INIT  PMPI_Alltoall_init
#define PMPI_ALLTOALLV_INIT PMPI_Alltoallv_init
#elif NBO_PMPI_MPIX_COLL_INIT
#include <mpi-ext.h>
#define PM_ALLTOALL_INIT   MPIX_Alltoall_init
#define PM_ALLTOALLV_INIT  MPIX_Alltoallv_init
#define PMPI_ALLTOALL_INIT  PMPIX_Alltoall_init
#define PMPI_ALLTOALLV_INIT PMPIX_Alltoallv_init
#endif

/* libnbo said no for a reason MPI should judge itself. */
static int argument_error(int rc)
{
    switch (rc) {
    case NBO_ERR_ARG:
    case NBO_ERR_BUFFER:
    case NBO_ERR_COUNT:
    case NBO_ERR_OVERFLOW:
    case NBO_ERR_DATATYPE:
        pm_log("libnbo declined a call (%s): MPI serves it", nbo_strerror(rc));
        return 1;
    }
    return 0;
}

/* Hand a started libnbo request to the application as an MPI request. */
static int served(MPI_Comm comm, pm_comm_t *pc, int rc, nbo_request_t req,
                  MPI_Request *request)
{
    if (rc != NBO_SUCCESS)
        return pm_error(comm, rc);
    atomic_fetch_add(&pm_served, 1);
    rc = pm_run_begin(req, pc, NULL, request);
    return rc == MPI_SUCCESS ? rc : pm_error(comm, NBO_ERR_MPI);
}

PM_EXPORT int MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_get(comm);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                pc->nc, &req)
                : NBO_ERR_COMM;
    if (!pc || argument_error(rc))
        return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                              request);
    return served(comm, pc, rc, req, request);
}

PM_EXPORT int MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                             MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                             MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_get(comm);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                 rdispls, recvtype, pc->nc, &req)
                : NBO_ERR_COMM;
    if (!pc || argument_error(rc))
        return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                               rdispls, recvtype, comm, request);
    return served(comm, pc, rc, req, request);
}

#ifdef PM_ALLTOALL_INIT
/* Persistent: compiled once by libnbo; the application gets a shell. */
static int persistent(MPI_Comm comm, pm_comm_t *pc, int rc, nbo_request_t req,
                      MPI_Request *request)
{
    if (rc != NBO_SUCCESS)
        return pm_error(comm, rc);
    atomic_fetch_add(&pm_served, 1);
    rc = pm_pop_create(req, pc, request);
    return rc == MPI_SUCCESS ? rc : pm_error(comm, NBO_ERR_MPI);
}

PM_EXPORT int PM_ALLTOALL_INIT(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_get(comm);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                    pc->nc, &req)
                : NBO_ERR_COMM;
    if (!pc || argument_error(rc))
        return PMPI_ALLTOALL_INIT(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  comm, info, request);
    return persistent(comm, pc, rc, req, request);
}

PM_EXPORT int PM_ALLTOALLV_INIT(const void *sendbuf, const int sendcounts[],
                                 const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                 const int recvcounts[], const int rdispls[],
                                 MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_get(comm);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                     recvcounts, rdispls, recvtype, pc->nc, &req)
                : NBO_ERR_COMM;
    if (!pc || argument_error(rc))
        return PMPI_ALLTOALLV_INIT(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                   rdispls, recvtype, comm, info, request);
    return persistent(comm, pc, rc, req, request);
}
#endif

/* Blocking forms: libnbo only when NBO_PMPI_BLOCKING=1 (see docs/pmpi.md). */
PM_EXPORT int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    pm_settings_load();
    pm_comm_t *pc = pm_cfg.blocking ? pm_comm_get(comm) : NULL;
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                pc->nc, &req)
                : NBO_ERR_COMM;
    if (!pc || argument_error(rc))
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
    pm_comm_t *pc = pm_cfg.blocking ? pm_comm_get(comm) : NULL;
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                 rdispls, recvtype, pc->nc, &req)
                : NBO_ERR_COMM;
    if (!pc || argument_error(rc))
        return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                              rdispls, recvtype, comm);
    if (rc == NBO_SUCCESS) {
        atomic_fetch_add(&pm_served, 1);
        rc = nbo_wait(&req);
    }
    return rc == NBO_SUCCESS ? MPI_SUCCESS : pm_error(comm, rc);
}
