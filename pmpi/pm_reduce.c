/*
 * pm_reduce.c - MPI_Iallreduce, MPI_Ireduce_scatter_block,
 * MPI_Ireduce_scatter, MPI_Ireduce, MPI_Iscan, MPI_Iexscan and their
 * persistent forms (pm_coll.c has the rules every entry point shares).
 * libnbo applies the op with MPI_Reduce_local, so user ops work; an op
 * libnbo refuses (NBO_ERR_OP) goes to MPI, which judges it.
 *
 * A derived datatype goes to MPI: libnbo reduces with its own duplicate of
 * the type (the program may free its handle while the reduction runs), and
 * a user op's function would then see a handle the program never made; a
 * function that tells its types apart by handle would compute wrong.
 */
#include "pmpi.h"

/* MPI serves reductions on derived datatypes (above).  The size rule's
 * count: allreduce's, reduce's and the scans' vector, reduce-scatter-
 * block's block; reduce-scatter's largest block (counts, which every rank
 * gives whole). */
static pm_comm_t *reduction_comm_of(MPI_Comm comm, pm_coll_t coll, int count, const int *counts,
                                    MPI_Datatype type, const char *call)
{
    pm_comm_t *pc = counts ? pm_comm_for_v(comm, coll, counts, type, call)
                           : pm_comm_for(comm, coll, count, type, call);
    int ni, na, nt, combiner = MPI_COMBINER_NAMED;
    if (pc && type != MPI_DATATYPE_NULL &&
        PMPI_Type_get_envelope(type, &ni, &na, &nt, &combiner) == MPI_SUCCESS &&
        combiner != MPI_COMBINER_NAMED) {
        pm_log("%s on a derived datatype: MPI serves it (its op must see the program's "
               "own handle)", call);
        return NULL;
    }
    return pc;
}

static pm_comm_t *reduction_comm(MPI_Comm comm, pm_coll_t coll, int count, MPI_Datatype type,
                                 const char *call)
{
    return reduction_comm_of(comm, coll, count, NULL, type, call);
}

PM_EXPORT int MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                  MPI_Request *request)
{
    pm_comm_t *pc = reduction_comm_of(comm, PM_REDUCE_SCATTER, 0, recvcounts, datatype,
                                      "MPI_Ireduce_scatter");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Ireduce_scatter"))
        return PMPI_Ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

PM_EXPORT int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                             MPI_Request *request)
{
    pm_comm_t *pc = reduction_comm(comm, PM_ALLREDUCE, count, datatype, "MPI_Iallreduce");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_iallreduce(sendbuf, recvbuf, count, datatype, op, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Iallreduce"))
        return PMPI_Iallreduce(sendbuf, recvbuf, count, datatype, op, comm, request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

PM_EXPORT int MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                        MPI_Request *request)
{
    pm_comm_t *pc = reduction_comm(comm, PM_REDUCE_SCATTER_BLOCK, recvcount, datatype,
                                   "MPI_Ireduce_scatter_block");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, pc->nc,
                                            &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Ireduce_scatter_block"))
        return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm,
                                          request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

/* A root out of range goes to MPI (NBO_ERR_ROOT), which reports it. */
PM_EXPORT int MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, int root, MPI_Comm comm, MPI_Request *request)
{
    pm_comm_t *pc = reduction_comm(comm, PM_REDUCE, count, datatype, "MPI_Ireduce");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_ireduce(sendbuf, recvbuf, count, datatype, op, root, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Ireduce"))
        return PMPI_Ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

PM_EXPORT int MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    pm_comm_t *pc = reduction_comm(comm, PM_SCAN, count, datatype, "MPI_Iscan");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_iscan(sendbuf, recvbuf, count, datatype, op, pc->nc, &req) : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Iscan"))
        return PMPI_Iscan(sendbuf, recvbuf, count, datatype, op, comm, request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

PM_EXPORT int MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    pm_comm_t *pc = reduction_comm(comm, PM_SCAN, count, datatype, "MPI_Iexscan");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_iexscan(sendbuf, recvbuf, count, datatype, op, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Iexscan"))
        return PMPI_Iexscan(sendbuf, recvbuf, count, datatype, op, comm, request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

#ifdef PM_HAVE_INIT
PM_EXPORT int PM_INIT(Scan)(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pm_comm_t *pc = reduction_comm(comm, PM_SCAN, count, datatype, "MPI_Scan_init");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_scan_init(sendbuf, recvbuf, count, datatype, op, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Scan_init"))
        return PMPI_INIT(Scan)(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    return pm_serve(comm, pc, rc, req, 1, request);
}

PM_EXPORT int PM_INIT(Exscan)(const void *sendbuf, void *recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                              MPI_Request *request)
{
    pm_comm_t *pc = reduction_comm(comm, PM_SCAN, count, datatype, "MPI_Exscan_init");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_exscan_init(sendbuf, recvbuf, count, datatype, op, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Exscan_init"))
        return PMPI_INIT(Exscan)(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    return pm_serve(comm, pc, rc, req, 1, request);
}

PM_EXPORT int PM_INIT(Reduce_scatter)(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                      MPI_Info info, MPI_Request *request)
{
    pm_comm_t *pc = reduction_comm_of(comm, PM_REDUCE_SCATTER, 0, recvcounts, datatype,
                                      "MPI_Reduce_scatter_init");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_reduce_scatter_init(sendbuf, recvbuf, recvcounts, datatype, op, pc->nc,
                                          &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Reduce_scatter_init"))
        return PMPI_INIT(Reduce_scatter)(sendbuf, recvbuf, recvcounts, datatype, op, comm, info,
                                         request);
    return pm_serve(comm, pc, rc, req, 1, request);
}

PM_EXPORT int PM_INIT(Reduce)(const void *sendbuf, void *recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                              MPI_Info info, MPI_Request *request)
{
    pm_comm_t *pc = reduction_comm(comm, PM_REDUCE, count, datatype, "MPI_Reduce_init");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_reduce_init(sendbuf, recvbuf, count, datatype, op, root, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Reduce_init"))
        return PMPI_INIT(Reduce)(sendbuf, recvbuf, count, datatype, op, root, comm, info,
                                 request);
    return pm_serve(comm, pc, rc, req, 1, request);
}

PM_EXPORT int PM_INIT(Allreduce)(const void *sendbuf, void *recvbuf, int count,
                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                                 MPI_Request *request)
{
    pm_comm_t *pc = reduction_comm(comm, PM_ALLREDUCE, count, datatype, "MPI_Allreduce_init");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_allreduce_init(sendbuf, recvbuf, count, datatype, op, pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Allreduce_init"))
        return PMPI_INIT(Allreduce)(sendbuf, recvbuf, count, datatype, op, comm, info, request);
    return pm_serve(comm, pc, rc, req, 1, request);
}

PM_EXPORT int PM_INIT(Reduce_scatter_block)(const void *sendbuf, void *recvbuf, int recvcount,
                                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                            MPI_Info info, MPI_Request *request)
{
    pm_comm_t *pc = reduction_comm(comm, PM_REDUCE_SCATTER_BLOCK, recvcount, datatype,
                                   "MPI_Reduce_scatter_block_init");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_reduce_scatter_block_init(sendbuf, recvbuf, recvcount, datatype, op,
                                                pc->nc, &req)
                : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Reduce_scatter_block_init"))
        return PMPI_INIT(Reduce_scatter_block)(sendbuf, recvbuf, recvcount, datatype, op, comm,
                                               info, request);
    return pm_serve(comm, pc, rc, req, 1, request);
}
#endif
