/* progress.c - the progress lock, the communicator list, polling, waiting. */
#include "progress.h"

#include <pthread.h>
#include <sched.h>

#include "../libnbo/core.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;
static struct nbo_comm *comms;

void nbo_lock(void) { pthread_mutex_lock(&lock); }
void nbo_unlock(void) { pthread_mutex_unlock(&lock); }
void nbo_lock_wait(pthread_cond_t *cv) { pthread_cond_wait(cv, &lock); }

struct nbo_comm *nbo_progress_comms(void) { return comms; }

int nbo_progress_add(struct nbo_comm *c)
{
    if (c->cfg.progress == NBO_PROGRESS_THREAD) {
        int rc = nbo_progress_thread_start(c);
        if (rc != NBO_SUCCESS)
            return rc;
    }
    c->next = comms;
    comms = c;
    return NBO_SUCCESS;
}

void nbo_progress_remove(struct nbo_comm *c)
{
    for (struct nbo_comm **p = &comms; *p; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            if (c->cfg.progress == NBO_PROGRESS_THREAD)
                nbo_progress_thread_stop(c);
            break;
        }
    c->next = NULL;
}

/* Engine completions first, then let every active request run. */
static int poll_comm(struct nbo_comm *c, double now)
{
    int n = c->ops->progress(c->ec);
    struct nbo_request *r = c->active, *next;
    for (; r; r = next) {
        next = r->next_active;
        if (n < 0)
            nbo_request_fail(r, n);
        else if (r->status != NBO_SUCCESS)
            nbo_request_fail(r, r->status); /* a task reported an error */
        else {
            nbo_request_advance(r);
            if (r->state == REQ_ACTIVE && c->cfg.timeout_ms > 0 &&
                (now - r->last_activity) * 1e3 > c->cfg.timeout_ms)
                nbo_request_fail(r, NBO_ERR_TIMEOUT);
        }
    }
    return n < 0 ? 0 : n;
}

int nbo_progress_poll(nbo_progress_mode_t mode)
{
    double now = nbo_now();
    int n = 0;
    /* Idle engines too: messages of a collective this rank has not started
     * yet may be arriving, and an engine with undrained events cannot be
     * armed for sleeping. */
    for (struct nbo_comm *c = comms; c; c = c->next)
        if (c->cfg.progress == mode)
            n += poll_comm(c, now);
    return n;
}

void nbo_progress_wait(struct nbo_request *r)
{
    if (r->comm->cfg.progress == NBO_PROGRESS_THREAD) {
        /* Help before blocking: when the application computed on every
         * core, the progress thread's wake-up may still wait for a core
         * while its completions sit in the engine.  Polling here ends the
         * request without the two context switches of a hand-over.  Once
         * nothing advances, sleep on the engines' descriptors and run their
         * events here (nbo_progress_drive), or, while another waiter does
         * or an engine has none, block until a request ends. */
        while (r->state == REQ_ACTIVE)
            if (nbo_progress_poll(NBO_PROGRESS_THREAD) == 0 && r->state == REQ_ACTIVE &&
                !nbo_progress_drive(r))
                pthread_cond_wait(&done_cond, &lock);
        return;
    }
    int idle = 0;
    while (r->state == REQ_ACTIVE) {
        if (nbo_progress_poll(NBO_PROGRESS_INLINE) > 0) {
            idle = 0;
            continue;
        }
        /* Let other application threads in, and on an oversubscribed
         * node let the peer ranks run. */
        nbo_unlock();
        if (++idle > 64)
            sched_yield();
        nbo_lock();
    }
}

void nbo_progress_signal(void)
{
    pthread_cond_broadcast(&done_cond);
    nbo_progress_thread_finished();
}
