/*
 * pm_coll.c - what every collective entry point shares.
 *
 * An entry point asks pm_comm_for whether libnbo serves its collective on
 * this communicator, calls libnbo, and either hands the call to MPI
 * (pm_declined) or the request to the application (pm_serve).  A
 * collective left out of NBO_PMPI_COLLS, a call below its collective's
 * NBO_PMPI_MIN_SIZE, and a communicator libnbo does not serve (pm_comm.c)
 * go to PMPI.  A call libnbo rejects for its arguments also goes to PMPI,
 * which reports the error in MPI's own terms, or serves it where MPI
 * accepts what libnbo does not (MPI_BOTTOM with absolute datatypes, device
 * buffers); argument checks are deterministic, so every rank of a
 * consistent call takes the same path.  Any other libnbo failure is an MPI
 * error on the communicator.
 *
 * The size rule must never split one collective between MPI and libnbo, so
 * a call's size comes only from arguments MPI requires alike on every rank:
 * a count and a datatype whose product is the same everywhere (the block
 * of an all-to-all or allgather, the vector of an allreduce, the message
 * of a bcast), or allgatherv's recvcounts, which every rank gives whole.
 * Nothing of the kind exists for alltoallv, whose counts are each rank's
 * own: it has no size rule (pm_comm_for_any).  The size is not looked up
 * at all when the threshold is 0, so that setting leaves every call as it
 * was without one.
 */
#include <stdio.h>

#include "pmpi.h"

pm_comm_t *pm_comm_for_any(MPI_Comm comm, pm_coll_t coll)
{
    pm_settings_load();
    return pm_cfg.colls & coll ? pm_comm_get(comm) : NULL;
}

/* Does coll's threshold apply to a call now (served, above 0, active)? */
static int sized(pm_coll_t coll)
{
    pm_settings_load();
    return (pm_cfg.colls & coll) && pm_cfg.min_size[pm_coll_index(coll)] > 0 && pm_active();
}

/* Bytes of count elements of type; -1 where MPI should judge the type. */
static long long type_bytes(long long count, MPI_Datatype type)
{
    int size = 0;
    if (count < 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS)
        return -1;
    return count * size;
}

/* The largest of counts[], one per rank of comm's group (the remote one of
 * an intercommunicator); -1 where MPI should judge the arguments. */
static long long largest_count(MPI_Comm comm, const int counts[])
{
    int inter = 0, n = 0;
    if (comm == MPI_COMM_NULL || !counts || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS ||
        (inter ? PMPI_Comm_remote_size(comm, &n) : PMPI_Comm_size(comm, &n)) != MPI_SUCCESS)
        return -1;
    long long most = 0;
    for (int i = 0; i < n; i++)
        most = counts[i] > most ? counts[i] : most;
    return most;
}

/* A call of coll moving `bytes` per block below coll's threshold goes to
 * MPI; the log says so on comm's rank 0, once per collective (a line per
 * call would flood it: small calls are the frequent ones). */
static int too_small(MPI_Comm comm, pm_coll_t coll, long long bytes, const char *call)
{
    long long min = pm_cfg.min_size[pm_coll_index(coll)];
    if (bytes >= min)
        return 0;
    int rank = -1;
    if (pm_cfg.log && comm != MPI_COMM_NULL && PMPI_Comm_rank(comm, &rank) == MPI_SUCCESS &&
        rank == 0 && pm_comm_first(comm, coll)) {
        char name[MPI_MAX_OBJECT_NAME], have[32] = "", num[32];
        if (bytes >= 0)
            snprintf(have, sizeof(have), " of %lld bytes", bytes);
        pm_log("%s%s on %s: below NBO_PMPI_MIN_SIZE %s=%s, MPI serves it (said once per "
               "collective and communicator)", call, have, pm_comm_name(comm, name),
               pm_coll_name(coll), pm_size_str(min, num, sizeof(num)));
    }
    return 1;
}

pm_comm_t *pm_comm_for(MPI_Comm comm, pm_coll_t coll, long long count, MPI_Datatype type,
                       const char *call)
{
    if (sized(coll) && too_small(comm, coll, type_bytes(count, type), call))
        return NULL;
    return pm_comm_for_any(comm, coll);
}

pm_comm_t *pm_comm_for_v(MPI_Comm comm, pm_coll_t coll, const int counts[], MPI_Datatype type,
                         const char *call)
{
    if (sized(coll) && too_small(comm, coll, type_bytes(largest_count(comm, counts), type), call))
        return NULL;
    return pm_comm_for_any(comm, coll);
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
