/*
 * pm_greq.c - libnbo requests as MPI requests.
 *
 * A run is one execution of a libnbo request, handed to MPI as a
 * generalized request.  Two kinds, chosen at configure time by what the
 * MPI library offers (meson.build: NBO_PMPI_GREQ_CLASS):
 *
 * MPICH's extended generalized request (MPIX_Grequest_class_allocate), with
 *   poll_fn  nbo_test, and MPI_Grequest_complete once it reports done:
 *            MPICH calls it from every test and wait call on the request
 *   wait_fn  the same in a loop; only a direct PMPI_Waitall reaches it,
 *            since the application's MPI_Waitall runs as a test loop
 *            while runs are active (pm_requests.c)
 * MPICH calls poll_fn and wait_fn without its own lock held, so they may
 * call MPI (libnbo's MPI engine does).
 *
 * The standard one (MPI_Grequest_start), elsewhere (Open MPI): MPI never
 * calls into the run before it is complete, so the completion calls of
 * pm_requests.c poll it themselves (pm_runs_poll, each turn of their test
 * loop, on the runs named in the call) and the same pm_run_poll completes
 * it.  Either way the rule is one: a run's MPI_Grequest_complete is called
 * by the application's thread, inside an MPI call on that request (or in
 * its free callback), by whoever first sees nbo_test report it done; never
 * by libnbo's progress thread, which only moves the data.
 *
 * Both kinds share
 *   query_fn the status (empty, as for any collective) and libnbo's error
 *   free_fn  frees the run (a failed one leaves its error for the
 *            completion call, pm_errors.c); for a persistent op it makes
 *            the op inactive.
 * Neither touches its status argument outside query_fn: MPICH passes
 * &array_of_statuses[i] even for MPI_STATUSES_IGNORE.
 *
 * A persistent op (MPI_Alltoall_init) keeps one libnbo persistent request
 * and a shell handle for the application; pm_requests.c puts the current
 * run's generalized request in the shell's place in every request call.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "pmpi.h"

#if NBO_PMPI_GREQ_CLASS
static MPIX_Grequest_class greq_class;
static int have_class;
#endif
static pm_pop_t *pops;

atomic_int pm_active_runs, pm_inline_runs;

void pm_progress(void)
{
    if (atomic_load(&pm_inline_runs) > 0)
        nbo_progress();
}

static void run_complete(pm_run_t *run, int rc)
{
    run->err = rc;
    if (atomic_exchange(&run->done, 1))
        return;
    atomic_fetch_sub(&pm_active_runs, 1);
    if (run->inline_progress)
        atomic_fetch_sub(&pm_inline_runs, 1);
    if (rc != NBO_SUCCESS) {
        /* Said here too: under MPI_ERRORS_ARE_FATAL MPICH aborts with its
         * own words, which do not say why. */
        int rank = -1;
        PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
        fprintf(stderr, "libnbo-mpi: rank %d: a collective served by libnbo failed: %s\n",
                rank, nbo_strerror(rc));
    }
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
}

void pm_run_finish(pm_run_t *run)
{
    if (!atomic_load(&run->done))
        run_complete(run, nbo_wait(&run->req));
}

#if NBO_PMPI_GREQ_CLASS
static int poll_fn(void *extra, MPI_Status *status)
{
    (void)status;
    pm_run_poll(extra);
    return MPI_SUCCESS;
}

/* Polls rather than blocks in nbo_wait: MPI's own operations must keep
 * moving meanwhile (PMPI_Iprobe runs MPI's progress engine), or a peer
 * that needs them before it can join this collective never does. */
static int wait_fn(int count, void **states, double timeout, MPI_Status *status)
{
    (void)timeout;
    (void)status;
    for (;;) {
        int left = 0, flag = 0;
        for (int i = 0; i < count; i++) {
            pm_run_poll(states[i]);
            left += !atomic_load(&((pm_run_t *)states[i])->done);
        }
        if (!left)
            return MPI_SUCCESS;
        PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_SELF, &flag, MPI_STATUS_IGNORE);
        sched_yield();
    }
}

#endif

static int query_fn(void *extra, MPI_Status *status)
{
    pm_run_t *run = extra;
    PMPI_Status_set_elements(status, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    return run->err == NBO_SUCCESS ? MPI_SUCCESS : pm_errcode(run->err);
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
    if (run->err != NBO_SUCCESS)
        pm_failed_put(run->greq, run->err);
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

#if NBO_PMPI_GREQ_CLASS
/* Once, and not under pm_mutex (see keyval_get in pm_comm.c). */
static pthread_once_t class_once = PTHREAD_ONCE_INIT;

static void class_make(void)
{
    have_class = PMPIX_Grequest_class_create(query_fn, free_fn, cancel_fn, poll_fn, wait_fn,
                                             &greq_class) == MPI_SUCCESS;
}

static int greq_start(pm_run_t *run)
{
    pthread_once(&class_once, class_make);
    if (!have_class)
        return MPI_ERR_OTHER;
    return PMPIX_Grequest_class_allocate(greq_class, run, &run->greq);
}
#else
static int greq_start(pm_run_t *run)
{
    return PMPI_Grequest_start(query_fn, free_fn, cancel_fn, run, &run->greq);
}
#endif

void pm_runs_poll(int n, const MPI_Request reqs[])
{
#if !NBO_PMPI_GREQ_CLASS
    /* Only a handle the application holds can name a run: a
     * non-persistent run's own, or a persistent op's shell. */
    for (int i = 0; i < n && atomic_load(&pm_active_runs) > 0; i++) {
        void *obj = NULL;
        switch (pm_table_get(reqs[i], &obj)) {
        case PM_RUN:
            pm_run_poll(obj);
            break;
        case PM_POP: {
            pm_run_t *run = ((pm_pop_t *)obj)->run;
            if (run)
                pm_run_poll(run);
            break;
        }
        default:
            break;
        }
    }
#else
    (void)n;
    (void)reqs;
#endif
}

int pm_run_begin(nbo_request_t req, pm_comm_t *pc, pm_pop_t *pop, MPI_Request *handle)
{
    pm_run_t *run = calloc(1, sizeof(*run));
    int rc = run ? greq_start(run) : MPI_ERR_NO_MEM;
    if (rc != MPI_SUCCESS) {
        /* The collective is running on every rank: finish it here. */
        nbo_wait(&req);
        free(run);
        return rc;
    }
    run->req = req;
    run->pop = pop;
    run->persistent = pop != NULL;
    run->inline_progress = pc->inline_progress;
    atomic_fetch_add(&pm_active_runs, 1);
    if (run->inline_progress)
        atomic_fetch_add(&pm_inline_runs, 1);
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

/* Shells are kept for reuse, not freed, until MPI_Finalize: MPICH 4.0.2
 * hangs in the next MPI_Wait of its own persistent collective (a derived
 * type with a user op) once an inactive persistent request was freed. */
typedef struct shell {
    MPI_Request h;
    struct shell *next;
} shell_t;
static shell_t *spare_shells;

static int shell_take(MPI_Request *h)
{
    pthread_mutex_lock(&pm_mutex);
    shell_t *s = spare_shells;
    if (s)
        spare_shells = s->next;
    pthread_mutex_unlock(&pm_mutex);
    if (!s)
        return PMPI_Recv_init(NULL, 0, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_SELF, h);
    *h = s->h;
    free(s);
    return MPI_SUCCESS;
}

static void shell_give(MPI_Request h)
{
    shell_t *s = malloc(sizeof(*s));
    if (!s) {
        PMPI_Request_free(&h);
        return;
    }
    s->h = h;
    pthread_mutex_lock(&pm_mutex);
    s->next = spare_shells;
    spare_shells = s;
    pthread_mutex_unlock(&pm_mutex);
}

static void shells_free(void)
{
    pthread_mutex_lock(&pm_mutex);
    shell_t *s = spare_shells;
    spare_shells = NULL;
    pthread_mutex_unlock(&pm_mutex);
    while (s) {
        shell_t *next = s->next;
        PMPI_Request_free(&s->h);
        free(s);
        s = next;
    }
}

int pm_pop_create(nbo_request_t req, pm_comm_t *pc, MPI_Request *handle)
{
    pm_pop_t *pop = calloc(1, sizeof(*pop));
    int rc = pop ? shell_take(&pop->shell) : MPI_ERR_NO_MEM;
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
    return pm_run_begin(pop->req, pop->comm, pop, &g);
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
    shell_give(pop->shell);
    atomic_fetch_sub(&pm_live_ops, 1);
    free(pop);
}

void pm_pop_destroy_all(void)
{
    for (;;) {
        pthread_mutex_lock(&pm_mutex);
        pm_pop_t *pop = pops;
        pthread_mutex_unlock(&pm_mutex);
        if (!pop) {
            shells_free();
            return;
        }
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
