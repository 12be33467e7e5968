/*
 * pm_rooted.c - MPI_Ibarrier, MPI_Igather(v), MPI_Iscatter(v) and their
 * persistent forms (pm_coll.c has the rules every entry point shares;
 * MPI_Ireduce is with the reductions, pm_reduce.c).  Gather (with
 * gatherv) is in NBO_PMPI_COLLS's default, the barrier and scatter are
 * served when named (pm_settings.c).  A root out of range goes to MPI
 * (NBO_ERR_ROOT), which reports it.
 *
 * Size rules: the barrier has none.  Gather and scatter: one rank's block,
 * the same on every rank, read from the arguments significant there (the
 * root's many-block side, the others' own block).  The v-forms have none:
 * only the root knows every block.
 */
#include "pmpi.h"

/* count x type of the root's side at the root, of the own block elsewhere. */
static pm_comm_t *block_comm(MPI_Comm comm, pm_coll_t coll, int root, int root_count,
                             MPI_Datatype root_type, int own_count, MPI_Datatype own_type,
                             const char *call)
{
    int rank = -1;
    if (comm != MPI_COMM_NULL && PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS)
        rank = -1;
    return rank == root ? pm_comm_for(comm, coll, root_count, root_type, call)
                        : pm_comm_for(comm, coll, own_count, own_type, call);
}

PM_EXPORT int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_for_any(comm, PM_BARRIER);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_ibarrier(pc->nc, &req) : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Ibarrier"))
        return PMPI_Ibarrier(comm, request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

PM_EXPORT int MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                          MPI_Comm comm, MPI_Request *request)
{
    pm_comm_t *pc = block_comm(comm, PM_GATHER, root, recvcount, recvtype, sendcount, sendtype,
                               "MPI_Igather");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                              pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Igather"))
        return PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                            comm, request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

PM_EXPORT int MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, const int recvcounts[], const int displs[],
                           MPI_Datatype recvtype, int root, MPI_Comm comm,
                           MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_for_any(comm, PM_GATHER);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                               recvtype, root, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Igatherv"))
        return PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                             recvtype, root, comm, request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

PM_EXPORT int MPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                           MPI_Comm comm, MPI_Request *request)
{
    pm_comm_t *pc = block_comm(comm, PM_SCATTER, root, sendcount, sendtype, recvcount, recvtype,
                               "MPI_Iscatter");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                               pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Iscatter"))
        return PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                             comm, request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

PM_EXPORT int MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                            MPI_Datatype sendtype, void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, int root, MPI_Comm comm,
                            MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_for_any(comm, PM_SCATTER);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                recvtype, root, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Iscatterv"))
        return PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                              recvtype, root, comm, request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

#ifdef PM_HAVE_INIT
PM_EXPORT int PM_INIT(Barrier)(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_for_any(comm, PM_BARRIER);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_barrier_init(pc->nc, &req) : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Barrier_init"))
        return PMPI_INIT(Barrier)(comm, info, request);
    return pm_serve(comm, pc, rc, req, 1, request);
}

PM_EXPORT int PM_INIT(Gather)(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                              MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pm_comm_t *pc = block_comm(comm, PM_GATHER, root, recvcount, recvtype, sendcount, sendtype,
                               "MPI_Gather_init");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_gather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  root, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Gather_init"))
        return PMPI_INIT(Gather)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                 root, comm, info, request);
    return pm_serve(comm, pc, rc, req, 1, request);
}

PM_EXPORT int PM_INIT(Gatherv)(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, const int recvcounts[], const int displs[],
                               MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                               MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_for_any(comm, PM_GATHER);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_gatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                   recvtype, root, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Gatherv_init"))
        return PMPI_INIT(Gatherv)(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                  recvtype, root, comm, info, request);
    return pm_serve(comm, pc, rc, req, 1, request);
}

PM_EXPORT int PM_INIT(Scatter)(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                               MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pm_comm_t *pc = block_comm(comm, PM_SCATTER, root, sendcount, sendtype, recvcount, recvtype,
                               "MPI_Scatter_init");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_scatter_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                   root, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Scatter_init"))
        return PMPI_INIT(Scatter)(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                  root, comm, info, request);
    return pm_serve(comm, pc, rc, req, 1, request);
}

PM_EXPORT int PM_INIT(Scatterv)(const void *sendbuf, const int sendcounts[], const int displs[],
                                MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                                MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_for_any(comm, PM_SCATTER);
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_scatterv_init(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                    recvtype, root, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Scatterv_init"))
        return PMPI_INIT(Scatterv)(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                   recvtype, root, comm, info, request);
    return pm_serve(comm, pc, rc, req, 1, request);
}
#endif
