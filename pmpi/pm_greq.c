/*
 * pm_greq.c - libnbo requests as MPI requests.
 *
 * A run is one execution of a libnbo request, handed to MPI as an extended
 * generalized request (MPIX_Grequest_class_allocate) with
 *   poll_fn  nbo_test, and MPI_Grequest_complete once it reports done:
 *            MPICH calls it from MPI_Test/Wait/Waitany/Waitsome/Testall/...
 *   wait_fn  nbo_wait, then MPI_Grequest_complete: MPICH's MPI_Waitall
 *            completes generalized requests with it before it waits for
 *            the others (without one it would not poll them at all)
 *   query_fn the status (empty, as for any collective) and libnbo's error
 *   free_fn  frees the run; for a persistent op it makes the op inactive.
 * MPICH calls poll_fn and wait_fn without its own lock held, so they may
 * call MPI (libnbo's MPI engine does).  MPI_Grequest_complete is only ever
 * called from them, that is from the application's own MPI calls, never
 * from libnbo's progress thread: the thread moves the data, the next MPI
 * call on the request notices.  Neither touches its status argument:
 * MPICH passes &array_of_statuses[i] even for MPI_STATUSES_IGNORE.
 *
 * A persistent op (MPI_Alltoall_init) keeps one libnbo persistent request
 * and a shell handle for the application; pm_requests.c puts the current
 * run's generalized request in the shell's place in every request call.
 */
#include <sched.h>
#include <stdlib.h>

#include "pmpi.h"

static MPIX_Grequest_class greq_class;
static int have_class;
static pm_pop_t *pops;

static void run_complete(pm_run_t *run, int rc)
{
    run->err = rc;
    if (!atomic_exchange(&run->done, 1))
        PMPI_Grequest_complete(run->greq);
}

void pm_run_poll(pm_run_t *run)
{
    if (atomic_load(&run->done))
        return;
    int flag = 0;
    int rc = nbo_test(&run->req, &flag);
    if (flag || rc != NBO_SUCCESS)
        run_complete(run, rc);
    else
        sched_yield(); /* MPICH polls in a tight loop: leave the progress
                          thread (and, oversubscribed, the peers) a turn */
}

void pm_run_finish(pm_run_t *run)
{
    if (!atomic_load(&run->done))
        run_complete(run, nbo_wait(&run->req));
}

static int poll_fn(void *extra, MPI_Status *status)
{
    (void)status;
    pm_run_poll(extra);
    return MPI_SUCCESS;
}

static int wait_fn(int count, void **states, double timeout, MPI_Status *status)
{
    (void)timeout;
    (void)status;
    for (int i = 0; i < count; i++)
        pm_run_finish(states[i]);
    return MPI_SUCCESS;
}

static int query_fn(void *extra, MPI_Status *status)
{
    pm_run_t *run = extra;
    PMPI_Status_set_elements(status, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    return run->err == NBO_SUCCESS ? MPI_SUCCESS : MPI_ERR_OTHER;
}

/* A collective cannot be cancelled (MPI makes it erroneous): it completes. */
static int cancel_fn(void *extra, int complete)
{
    (void)extra;
    (void)complete;
    return MPI_SUCCESS;
}

static int free_fn(void *extra)
{
    pm_run_t *run = extra;
    if (run->persistent) {
        if (run->pop) /* NULL once MPI_Finalize cut it loose */
            run->pop->run = NULL;
    } else {
        /* MPI_Request_free of a running non-persistent collective (which
         * MPI calls erroneous): finish it here rather than leak it. */
        pm_run_finish(run);
        pm_table_del(run->greq);
        atomic_fetch_sub(&pm_live_ops, 1);
    }
    free(run);
    return MPI_SUCCESS;
}

static int class_get(MPIX_Grequest_class *cls)
{
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&pm_mutex);
    if (!have_class) {
        rc = PMPIX_Grequest_class_create(query_fn, free_fn, cancel_fn, poll_fn, wait_fn,
                                         &greq_class);
        have_class = rc == MPI_SUCCESS;
    }
    *cls = greq_class;
    pthread_mutex_unlock(&pm_mutex);
    return rc;
}

int pm_run_begin(nbo_request_t req, pm_pop_t *pop, MPI_Request *handle)
{
    MPIX_Grequest_class cls;
    pm_run_t *run = calloc(1, sizeof(*run));
    int rc = run ? class_get(&cls) : MPI_ERR_NO_MEM;
    if (rc == MPI_SUCCESS)
        rc = PMPIX_Grequest_class_allocate(cls, run, &run->greq);
    if (rc != MPI_SUCCESS) {
        /* The collective is running on every rank: finish it here. */
        nbo_wait(&req);
        free(run);
        return rc;
    }
    run->req = req;
    run->pop = pop;
    run->persistent = pop != NULL;
    if (pop)
        pop->run = run;
    else {
        pm_table_put(run->greq, PM_RUN, run);
        atomic_fetch_add(&pm_live_ops, 1);
    }
    *handle = run->greq;
    return MPI_SUCCESS;
}

/* ------------------------------------------------------ persistent ops */

int pm_pop_create(nbo_request_t req, pm_comm_t *pc, MPI_Request *handle)
{
    pm_pop_t *pop = calloc(1, sizeof(*pop));
    int rc = pop ? PMPI_Recv_init(NULL, 0, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_SELF, &pop->shell)
                 : MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS) {
        nbo_request_free(&req);
        free(pop);
        return rc;
    }
    pop->req = req;
    pop->comm = pc;
    pthread_mutex_lock(&pm_mutex);
    pc->refs++;
    pop->next = pops;
    pops = pop;
    pthread_mutex_unlock(&pm_mutex);
    pm_table_put(pop->shell, PM_POP, pop);
    atomic_fetch_add(&pm_live_ops, 1);
    *handle = pop->shell;
    return MPI_SUCCESS;
}

int pm_pop_start(pm_pop_t *pop)
{
    if (pop->run)
        return MPI_ERR_REQUEST; /* already active: erroneous */
    int rc = nbo_start(&pop->req);
    if (rc != NBO_SUCCESS)
        return pm_error(MPI_COMM_WORLD, rc);
    MPI_Request g;
    return pm_run_begin(pop->req, pop, &g);
}

void pm_pop_destroy(pm_pop_t *pop)
{
    pm_table_del(pop->shell);
    pthread_mutex_lock(&pm_mutex);
    for (pm_pop_t **p = &pops; *p; p = &(*p)->next)
        if (*p == pop) {
            *p = pop->next;
            break;
        }
    pop->comm->refs--;
    pthread_mutex_unlock(&pm_mutex);
    nbo_request_free(&pop->req);
    PMPI_Request_free(&pop->shell);
    atomic_fetch_sub(&pm_live_ops, 1);
    free(pop);
}

void pm_pop_destroy_all(void)
{
    for (;;) {
        pthread_mutex_lock(&pm_mutex);
        pm_pop_t *pop = pops;
        pthread_mutex_unlock(&pm_mutex);
        if (!pop)
            return;
        if (pop->run) {
            /* Still active at MPI_Finalize (erroneous): finish it, and
             * cut it loose from the op so its free_fn cannot touch it. */
            pm_run_finish(pop->run);
            pop->run->pop = NULL;
            pop->run = NULL;
        }
        pm_pop_destroy(pop);
    }
}
