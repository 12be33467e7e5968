/*
 * pm_requests.c - persistent all-to-all handles in MPI's request calls.
 *
 * Non-persistent runs need nothing here: they are generalized requests and
 * MPI completes them itself.  A persistent op's handle is a shell (an
 * inactive MPI persistent request that is never started), so every call
 * that takes requests swaps each shell for its active run's generalized
 * request, or for MPI_REQUEST_NULL when the op is inactive (which is how
 * MPI treats an inactive persistent request), calls PMPI on the copy, and
 * writes back everything but the shells: a completed persistent op keeps
 * its handle and becomes inactive, as MPI says.  With no persistent op
 * alive (pm_pops == 0) every call goes straight to PMPI.
 *
 * MPI_Request_get_status is the one call in which MPICH does not poll
 * generalized requests, so it polls libnbo's runs itself.
 */
#include <stdlib.h>

#include "pmpi.h"

#define PM_EXPORT __attribute__((visibility("default")))
#define SMALL 32

static pm_pop_t *pop_of(MPI_Request h)
{
    void *obj = NULL;
    if (atomic_load(&pm_pops) == 0 || pm_table_get(h, &obj) != PM_POP)
        return NULL;
    return obj;
}

/* What MPI should see for h. */
static MPI_Request stand_in(MPI_Request h)
{
    pm_pop_t *pop = pop_of(h);
    if (!pop)
        return h;
    return pop->run ? pop->run->greq : MPI_REQUEST_NULL;
}

typedef struct {
    MPI_Request *copy;
    MPI_Request  small[SMALL];
} xlat_t;

/* 0: no shell in reqs (use them as they are); 1: x->copy is what MPI gets;
 * -1: out of memory. */
static int xlat_in(int n, const MPI_Request reqs[], xlat_t *x)
{
    if (n <= 0 || !reqs || atomic_load(&pm_pops) == 0)
        return 0;
    int any = 0;
    for (int i = 0; i < n && !any; i++)
        any = pop_of(reqs[i]) != NULL;
    if (!any)
        return 0;
    x->copy = n <= SMALL ? x->small : malloc((size_t)n * sizeof(MPI_Request));
    if (!x->copy)
        return -1;
    for (int i = 0; i < n; i++)
        x->copy[i] = stand_in(reqs[i]);
    return 1;
}

static void xlat_out(int n, MPI_Request reqs[], xlat_t *x)
{
    for (int i = 0; i < n; i++)
        if (!pop_of(reqs[i]))
            reqs[i] = x->copy[i];
    if (x->copy != x->small)
        free(x->copy);
}

PM_EXPORT int MPI_Start(MPI_Request *request)
{
    pm_pop_t *pop = request ? pop_of(*request) : NULL;
    return pop ? pm_pop_start(pop) : PMPI_Start(request);
}

PM_EXPORT int MPI_Startall(int count, MPI_Request reqs[])
{
    xlat_t x;
    int k = xlat_in(count, reqs, &x);
    if (k == 0)
        return PMPI_Startall(count, reqs);
    if (k < 0)
        return MPI_ERR_NO_MEM;
    /* Ours in array order, then MPI's own in one PMPI_Startall. */
    int rc = MPI_SUCCESS, m = 0;
    for (int i = 0; i < count; i++) {
        pm_pop_t *pop = pop_of(reqs[i]);
        if (pop) {
            int e = pm_pop_start(pop);
            if (rc == MPI_SUCCESS)
                rc = e;
        } else
            x.copy[m++] = reqs[i];
    }
    if (m > 0) {
        int e = PMPI_Startall(m, x.copy);
        if (rc == MPI_SUCCESS)
            rc = e;
    }
    if (x.copy != x.small)
        free(x.copy);
    return rc;
}

/* MPICH's MPI_Wait polls a generalized request in a tight loop; for ours
 * wait in libnbo instead (which sleeps while its progress thread works),
 * then let MPI complete and free the request as usual. */
PM_EXPORT int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    void *obj = NULL;
    pm_kind_t kind = request && atomic_load(&pm_live_ops) ? pm_table_get(*request, &obj)
                                                          : PM_NONE;
    if (kind == PM_RUN)
        pm_run_finish(obj);
    if (kind != PM_POP)
        return PMPI_Wait(request, status);
    pm_pop_t *pop = obj;
    MPI_Request g = pop->run ? pop->run->greq : MPI_REQUEST_NULL;
    if (pop->run)
        pm_run_finish(pop->run);
    return PMPI_Wait(&g, status);
}

PM_EXPORT int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    if (!request || !pop_of(*request))
        return PMPI_Test(request, flag, status);
    MPI_Request g = stand_in(*request);
    return PMPI_Test(&g, flag, status);
}

PM_EXPORT int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
    xlat_t x;
    int k = xlat_in(count, reqs, &x);
    if (k <= 0)
        return k < 0 ? MPI_ERR_NO_MEM : PMPI_Waitall(count, reqs, statuses);
    int rc = PMPI_Waitall(count, x.copy, statuses);
    xlat_out(count, reqs, &x);
    return rc;
}

PM_EXPORT int MPI_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    xlat_t x;
    int k = xlat_in(count, reqs, &x);
    if (k <= 0)
        return k < 0 ? MPI_ERR_NO_MEM : PMPI_Testall(count, reqs, flag, statuses);
    int rc = PMPI_Testall(count, x.copy, flag, statuses);
    xlat_out(count, reqs, &x);
    return rc;
}

PM_EXPORT int MPI_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status)
{
    xlat_t x;
    int k = xlat_in(count, reqs, &x);
    if (k <= 0)
        return k < 0 ? MPI_ERR_NO_MEM : PMPI_Waitany(count, reqs, index, status);
    int rc = PMPI_Waitany(count, x.copy, index, status);
    xlat_out(count, reqs, &x);
    return rc;
}

PM_EXPORT int MPI_Testany(int count, MPI_Request reqs[], int *index, int *flag,
                          MPI_Status *status)
{
    xlat_t x;
    int k = xlat_in(count, reqs, &x);
    if (k <= 0)
        return k < 0 ? MPI_ERR_NO_MEM : PMPI_Testany(count, reqs, index, flag, status);
    int rc = PMPI_Testany(count, x.copy, index, flag, status);
    xlat_out(count, reqs, &x);
    return rc;
}

PM_EXPORT int MPI_Waitsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                           MPI_Status statuses[])
{
    xlat_t x;
    int k = xlat_in(incount, reqs, &x);
    if (k <= 0)
        return k < 0 ? MPI_ERR_NO_MEM
                     : PMPI_Waitsome(incount, reqs, outcount, indices, statuses);
    int rc = PMPI_Waitsome(incount, x.copy, outcount, indices, statuses);
    xlat_out(incount, reqs, &x);
    return rc;
}

PM_EXPORT int MPI_Testsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                           MPI_Status statuses[])
{
    xlat_t x;
    int k = xlat_in(incount, reqs, &x);
    if (k <= 0)
        return k < 0 ? MPI_ERR_NO_MEM
                     : PMPI_Testsome(incount, reqs, outcount, indices, statuses);
    int rc = PMPI_Testsome(incount, x.copy, outcount, indices, statuses);
    xlat_out(incount, reqs, &x);
    return rc;
}

PM_EXPORT int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    void *obj = NULL;
    pm_kind_t kind = atomic_load(&pm_live_ops) ? pm_table_get(request, &obj) : PM_NONE;
    if (kind == PM_POP) {
        pm_pop_t *pop = obj;
        request = pop->run ? pop->run->greq : MPI_REQUEST_NULL;
        if (pop->run)
            pm_run_poll(pop->run);
    } else if (kind == PM_RUN)
        pm_run_poll(obj);
    return PMPI_Request_get_status(request, flag, status);
}

PM_EXPORT int MPI_Cancel(MPI_Request *request)
{
    pm_pop_t *pop = request ? pop_of(*request) : NULL;
    if (!pop || !pop->run)
        return PMPI_Cancel(request);
    MPI_Request g = pop->run->greq;
    return PMPI_Cancel(&g);
}

PM_EXPORT int MPI_Request_free(MPI_Request *request)
{
    pm_pop_t *pop = request ? pop_of(*request) : NULL;
    if (!pop)
        return PMPI_Request_free(request);
    if (pop->run) {
        /* Freeing an active persistent collective is erroneous in MPI;
         * finish the run rather than free memory libnbo still writes. */
        MPI_Request g = pop->run->greq;
        pm_run_finish(pop->run);
        PMPI_Wait(&g, MPI_STATUS_IGNORE);
    }
    pm_pop_destroy(pop);
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}
