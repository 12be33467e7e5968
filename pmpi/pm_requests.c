/*
 * pm_requests.c - MPI's request calls while libnbo serves collectives.
 *
 * Three jobs: progress (cc_run below: no completion call may block inside
 * MPI or inside libnbo alone while a served run is active); errors (a
 * failed run reports libnbo's code, pm_errors.c); persistent handles.
 *
 * Non-persistent runs are generalized requests and MPI completes them
 * itself.  A persistent op's handle is a shell (an
 * inactive MPI persistent request that is never started), so every call
 * that takes requests swaps each shell for its active run's generalized
 * request, or for MPI_REQUEST_NULL when the op is inactive (which is how
 * MPI treats an inactive persistent request), calls PMPI on the copy, and
 * writes back everything but the shells: a completed persistent op keeps
 * its handle and becomes inactive, as MPI says.  With no persistent op
 * alive (pm_pops == 0) no array is copied.
 *
 * MPI_Request_get_status is the one call in which MPICH does not poll
 * generalized requests, so it polls libnbo's runs itself.
 */
#include <sched.h>
#include <stdlib.h>

#include "pmpi.h"

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

/* ------------------------------------------------- completion calls */

/* The four shapes of MPI's completion calls; each has a test and a wait. */
typedef enum { CC_ONE, CC_ALL, CC_ANY, CC_SOME } cc_form_t;

/* One completion call as the application made it. */
typedef struct {
    cc_form_t   form;
    int         blocking;
    int         n;
    MPI_Request *reqs;
    int        *flag, *index, *outcount, *indices;
    MPI_Status *st; /* one status (ONE, ANY) or an array (ALL, SOME) */
} cc_t;

/* The test form of c on arr; *finished: a wait would return now. */
static int cc_test(cc_t *c, MPI_Request *arr, int *finished)
{
    int rc = MPI_SUCCESS, flag = 0;
    switch (c->form) {
    case CC_ONE:
        rc = PMPI_Test(arr, &flag, c->st);
        break;
    case CC_ALL:
        rc = PMPI_Testall(c->n, arr, &flag, c->st);
        break;
    case CC_ANY:
        rc = PMPI_Testany(c->n, arr, c->index, &flag, c->st);
        break;
    case CC_SOME:
        rc = PMPI_Testsome(c->n, arr, c->outcount, c->indices, c->st);
        flag = *c->outcount != 0; /* MPI_UNDEFINED: nothing active, done */
        break;
    }
    if (c->flag)
        *c->flag = flag;
    *finished = flag;
    return rc;
}

static int cc_wait(cc_t *c, MPI_Request *arr)
{
    switch (c->form) {
    case CC_ONE:
        return PMPI_Wait(arr, c->st);
    case CC_ALL:
        return PMPI_Waitall(c->n, arr, c->st);
    case CC_ANY:
        return PMPI_Waitany(c->n, arr, c->index, c->st);
    case CC_SOME:
        return PMPI_Waitsome(c->n, arr, c->outcount, c->indices, c->st);
    }
    return MPI_ERR_INTERN;
}

/* A served collective failed: put libnbo's code where the call reports
 * it (before[i]: the handle MPI had at index i). */
static int cc_report(cc_t *c, const MPI_Request *before, int rc)
{
    int e;
    switch (c->form) {
    case CC_ONE:
        if ((e = pm_failed_take(before[0])) != NBO_SUCCESS)
            rc = pm_errcode(e);
        break;
    case CC_ANY:
        if (*c->index >= 0 && *c->index < c->n &&
            (e = pm_failed_take(before[*c->index])) != NBO_SUCCESS)
            rc = pm_errcode(e);
        break;
    case CC_ALL:
        for (int i = 0; i < c->n; i++)
            if ((e = pm_failed_take(before[i])) != NBO_SUCCESS && c->st != MPI_STATUSES_IGNORE)
                c->st[i].MPI_ERROR = pm_errcode(e);
        break;
    case CC_SOME:
        for (int k = 0; *c->outcount != MPI_UNDEFINED && k < *c->outcount; k++)
            if ((e = pm_failed_take(before[c->indices[k]])) != NBO_SUCCESS &&
                c->st != MPI_STATUSES_IGNORE)
                c->st[k].MPI_ERROR = pm_errcode(e);
        break;
    }
    return rc;
}

/*
 * Every completion call.  While a served run is active, a wait runs as its
 * test form in a loop: each turn drives MPI's progress engine (the test)
 * and libnbo's inline communicators (pm_progress), completes the runs the
 * call names where MPI does not poll them (pm_runs_poll), and yields the
 * CPU when nothing finished.  Blocking inside MPI would stall libnbo's inline runs;
 * blocking inside libnbo would stall MPI's own operations: either way a
 * peer that needs them before it joins the awaited collective never does.
 */
static int cc_run(cc_t *c)
{
    xlat_t x;
    int k = xlat_in(c->n, c->reqs, &x);
    if (k < 0)
        return MPI_ERR_NO_MEM;
    MPI_Request *arr = k ? x.copy : c->reqs;
    MPI_Request snap[SMALL], *before = NULL;
    if (atomic_load(&pm_live_ops) > 0) {
        before = c->n <= SMALL ? snap : malloc((size_t)c->n * sizeof(MPI_Request));
        for (int i = 0; before && i < c->n; i++)
            before[i] = arr[i];
    }
    int rc, finished = 0;
    if (atomic_load(&pm_active_runs) == 0)
        rc = c->blocking ? cc_wait(c, arr) : cc_test(c, arr, &finished);
    else
        for (;;) {
            pm_progress();
            pm_runs_poll(c->n, c->reqs);
            rc = cc_test(c, arr, &finished);
            if (rc != MPI_SUCCESS || finished || !c->blocking)
                break;
            sched_yield();
        }
    if (k)
        xlat_out(c->n, c->reqs, &x);
    if (rc != MPI_SUCCESS && before && pm_failed_pending())
        rc = cc_report(c, before, rc);
    if (before != snap)
        free(before);
    return rc;
}

PM_EXPORT int MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    cc_t c = {.form = CC_ONE, .blocking = 1, .n = 1, .reqs = request, .st = status};
    return request ? cc_run(&c) : PMPI_Wait(request, status);
}

PM_EXPORT int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    cc_t c = {.form = CC_ONE, .n = 1, .reqs = request, .flag = flag, .st = status};
    return request && flag ? cc_run(&c) : PMPI_Test(request, flag, status);
}

PM_EXPORT int MPI_Waitall(int count, MPI_Request reqs[], MPI_Status statuses[])
{
    cc_t c = {.form = CC_ALL, .blocking = 1, .n = count, .reqs = reqs, .st = statuses};
    return count > 0 && reqs ? cc_run(&c) : PMPI_Waitall(count, reqs, statuses);
}

PM_EXPORT int MPI_Testall(int count, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
    cc_t c = {.form = CC_ALL, .n = count, .reqs = reqs, .flag = flag, .st = statuses};
    return count > 0 && reqs && flag ? cc_run(&c) : PMPI_Testall(count, reqs, flag, statuses);
}

PM_EXPORT int MPI_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status)
{
    cc_t c = {.form = CC_ANY, .blocking = 1, .n = count, .reqs = reqs, .index = index,
              .st = status};
    return count > 0 && reqs && index ? cc_run(&c) : PMPI_Waitany(count, reqs, index, status);
}

PM_EXPORT int MPI_Testany(int count, MPI_Request reqs[], int *index, int *flag,
                          MPI_Status *status)
{
    cc_t c = {.form = CC_ANY, .n = count, .reqs = reqs, .index = index, .flag = flag,
              .st = status};
    return count > 0 && reqs && index && flag ? cc_run(&c)
                                              : PMPI_Testany(count, reqs, index, flag, status);
}

PM_EXPORT int MPI_Waitsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                           MPI_Status statuses[])
{
    cc_t c = {.form = CC_SOME, .blocking = 1, .n = incount, .reqs = reqs,
              .outcount = outcount, .indices = indices, .st = statuses};
    return incount > 0 && reqs && outcount && indices
               ? cc_run(&c)
               : PMPI_Waitsome(incount, reqs, outcount, indices, statuses);
}

PM_EXPORT int MPI_Testsome(int incount, MPI_Request reqs[], int *outcount, int indices[],
                           MPI_Status statuses[])
{
    cc_t c = {.form = CC_SOME, .n = incount, .reqs = reqs, .outcount = outcount,
              .indices = indices, .st = statuses};
    return incount > 0 && reqs && outcount && indices
               ? cc_run(&c)
               : PMPI_Testsome(incount, reqs, outcount, indices, statuses);
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
    else
        pm_progress();
    int rc = PMPI_Request_get_status(request, flag, status);
    if (rc != MPI_SUCCESS && kind == PM_RUN && ((pm_run_t *)obj)->err != NBO_SUCCESS)
        rc = pm_errcode(((pm_run_t *)obj)->err);
    return rc;
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
        MPI_Wait(&g, MPI_STATUS_IGNORE);
    }
    pm_pop_destroy(pop);
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}
