/*
 * pm_coll.c - what every collective entry point shares.
 *
 * An entry point asks pm_comm_for whether libnbo serves its collective on
 * this communicator, calls libnbo, and either hands the call to MPI
 * (pm_declined) or the request to the application (pm_serve).  A
 * communicator libnbo does not serve (pm_comm.c) goes to PMPI.  A call
 * libnbo rejects for its arguments also goes to PMPI, which reports the
 * error in MPI's own terms, or serves it where MPI accepts what libnbo does
 * not (MPI_BOTTOM with absolute datatypes, device buffers); argument checks
 * are deterministic, so every rank of a consistent call takes the same
 * path.  Any other libnbo failure is an MPI error on the communicator.
 */
#include "pmpi.h"

pm_comm_t *pm_comm_for(MPI_Comm comm, pm_coll_t coll)
{
    pm_settings_load();
    return pm_cfg.colls & coll ? pm_comm_get(comm) : NULL;
}

int pm_declined(const pm_comm_t *pc, int rc, const char *call)
{
    if (!pc)
        return 1;
    switch (rc) {
    case NBO_ERR_ARG:
    case NBO_ERR_BUFFER:
    case NBO_ERR_COUNT:
    case NBO_ERR_OVERFLOW:
    case NBO_ERR_DATATYPE:
    case NBO_ERR_ROOT:
    case NBO_ERR_OP:
    case NBO_ERR_DEVICE:
        pm_log("libnbo declined %s (%s): MPI serves it", call, nbo_strerror(rc));
        return 1;
    }
    return 0;
}

int pm_serve(MPI_Comm comm, pm_comm_t *pc, int rc, nbo_request_t req, int persistent,
             MPI_Request *request)
{
    if (rc != NBO_SUCCESS)
        return pm_error(comm, rc);
    atomic_fetch_add(&pm_served, 1);
    rc = persistent ? pm_pop_create(req, pc, request) : pm_run_begin(req, pc, NULL, request);
    return rc == MPI_SUCCESS ? rc : pm_error(comm, NBO_ERR_MPI);
}
