/* progress.c - the lock, the sources, one polling pass, waiting. */
#include "progress.h"

#include <pthread.h>
#include <sched.h>

#include "../util/util.h" /* nbo_now */
#include "progress_thread.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done_cond = PTHREAD_COND_INITIALIZER;
static nbo_progress_source_t *sources;

void nbo_lock(void) { pthread_mutex_lock(&lock); }
void nbo_unlock(void) { pthread_mutex_unlock(&lock); }
void nbo_lock_wait(pthread_cond_t *cv) { pthread_cond_wait(cv, &lock); }

nbo_progress_source_t *nbo_progress_sources(void) { return sources; }

int nbo_progress_add(nbo_progress_source_t *s)
{
    if (s->mode == NBO_PROGRESS_THREAD) {
        int rc = nbo_progress_thread_start(s);
        if (rc != NBO_SUCCESS)
            return rc;
    }
    s->next = sources;
    sources = s;
    return NBO_SUCCESS;
}

void nbo_progress_remove(nbo_progress_source_t *s)
{
    for (nbo_progress_source_t **p = &sources; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            if (s->mode == NBO_PROGRESS_THREAD)
                nbo_progress_thread_stop(s);
            break;
        }
    s->next = NULL;
}

int nbo_progress_poll(nbo_progress_mode_t mode)
{
    double now = nbo_now();
    int n = 0;
    /* Idle sources too: messages of a collective this rank has not started
     * yet may be arriving, and an engine with undrained events cannot be
     * armed for sleeping. */
    for (nbo_progress_source_t *s = sources; s; s = s->next)
        if (s->mode == mode)
            n += s->hooks->poll(s->arg, now);
    return n;
}

/* Poll until done, or until spin_us pass without a completion; the lock
 * is let go between polls for the application's other threads, and after
 * a while the core too, for ranks that share it.  Returns done. */
static int wait_spin(int spin_us, int (*done)(const void *), const void *arg)
{
    double until = nbo_now() + spin_us * 1e-6;
    int idle = 0;
    nbo_progress_thread_spinning(1);
    while (!done(arg)) {
        if (nbo_progress_poll(NBO_PROGRESS_THREAD) > 0) {
            until = nbo_now() + spin_us * 1e-6;
            idle = 0;
            continue;
        }
        if (done(arg) || nbo_now() >= until)
            break;
        nbo_unlock();
        if (++idle > 64)
            sched_yield();
        nbo_lock();
    }
    nbo_progress_thread_spinning(-1);
    return done(arg);
}

void nbo_progress_wait(nbo_progress_mode_t mode, int spin_us, int (*done)(const void *),
                       const void *arg)
{
    if (mode == NBO_PROGRESS_THREAD) {
        /* A short operation ends within microseconds of its start: a
         * waiter that polls for it meanwhile, as MPI's own waits do, saves
         * the sleep and wake-up of a hand-over, which cost more than the
         * operation.  A longer one is left to the descriptors below. */
        if (spin_us > 0 && wait_spin(spin_us, done, arg))
            return;
        /* Help before blocking: when the application computed on every
         * core, the progress thread's wake-up may still wait for a core
         * while its completions sit in the engine.  Polling here ends the
         * wait without the two context switches of a hand-over.  Once
         * nothing advances, sleep on the descriptors and run their events
         * here (nbo_progress_drive), or, while another waiter does or a
         * source has no descriptor, block until something ends. */
        while (!done(arg))
            if (nbo_progress_poll(NBO_PROGRESS_THREAD) == 0 && !done(arg) &&
                !nbo_progress_drive(done, arg))
                pthread_cond_wait(&done_cond, &lock);
        return;
    }
    int idle = 0;
    while (!done(arg)) {
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
