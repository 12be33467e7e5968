/*
 * pm_bcast.c - MPI_Ibcast and MPI_Bcast_init (pm_coll.c has the rules
 * every entry point shares).  A root out of range goes to MPI, which
 * reports it in its own terms.  The size rule's count: the message,
 * count x datatype's size (the same on every rank, root or not).
 */
#include "pmpi.h"

PM_EXPORT int MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root,
                         MPI_Comm comm, MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_for(comm, PM_BCAST, count, datatype, "MPI_Ibcast");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_ibcast(buffer, count, datatype, root, pc->nc, &req) : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Ibcast"))
        return PMPI_Ibcast(buffer, count, datatype, root, comm, request);
    return pm_serve(comm, pc, rc, req, 0, request);
}

#ifdef PM_HAVE_INIT
PM_EXPORT int PM_INIT(Bcast)(void *buffer, int count, MPI_Datatype datatype, int root,
                             MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    pm_comm_t *pc = pm_comm_for(comm, PM_BCAST, count, datatype, "MPI_Bcast_init");
    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = pc ? nbo_bcast_init(buffer, count, datatype, root, pc->nc, &req) : NBO_ERR_COMM;
    if (pm_declined(pc, rc, "MPI_Bcast_init"))
        return PMPI_INIT(Bcast)(buffer, count, datatype, root, comm, info, request);
    return pm_serve(comm, pc, rc, req, 1, request);
}
#endif
