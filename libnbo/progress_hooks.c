/*
 * progress_hooks.c - a communicator as a source of the progress service
 * (progress/progress.h): the hooks it calls, with the lock held.
 */
#include "core.h"

/* Engine completions first, then let every active request run. */
static int comm_poll(void *arg, double now)
{
    struct nbo_comm *c = arg;
    int n = c->ops->progress(c->ec);
    struct nbo_request *r = LIST_FIRST(&c->active), *next;
    for (; r; r = next) {
        next = LIST_NEXT(r, active_link);
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

static int comm_arm(void *arg)
{
    struct nbo_comm *c = arg;
    int rc = c->ops->arm(c->ec);
    return rc == NBO_SUCCESS ? NBO_PROGRESS_ARMED
           : rc == NBO_ARM_QUIET ? NBO_PROGRESS_QUIET
                                 : NBO_PROGRESS_PENDING;
}

/* Busy while a request runs; due again at the earliest request timeout. */
static int comm_busy(void *arg, double *deadline)
{
    struct nbo_comm *c = arg;
    if (c->cfg.timeout_ms > 0)
        for (struct nbo_request *r = LIST_FIRST(&c->active); r; r = LIST_NEXT(r, active_link)) {
            double due = r->last_activity + c->cfg.timeout_ms * 1e-3;
            if (due < *deadline)
                *deadline = due;
        }
    return !LIST_EMPTY(&c->active);
}

/* Does a running request need the thread's help now?  One that needs
 * background progress at all (request.c decides) once it has run for
 * foreground_us: until then its caller, who often waits at once, is
 * left to finish it, without a wake-up of the thread or a signal from
 * the peers for each message. */
static int comm_background(void *arg, double now, double *due)
{
    struct nbo_comm *c = arg;
    for (struct nbo_request *r = LIST_FIRST(&c->active); r; r = LIST_NEXT(r, active_link)) {
        if (!r->background)
            continue;
        if (r->thread_at <= now)
            return 1;
        if (r->thread_at < *due)
            *due = r->thread_at;
    }
    return 0;
}

static const nbo_progress_hooks_t hooks_armed = {comm_poll, comm_arm, comm_busy, comm_background};
static const nbo_progress_hooks_t hooks_plain = {comm_poll, NULL, comm_busy, comm_background};

void nbo_comm_source_init(struct nbo_comm *c)
{
    nbo_progress_source_t *s = &c->source;
    s->hooks = c->ops->arm ? &hooks_armed : &hooks_plain;
    s->arg = c;
    s->mode = c->cfg.progress;
    s->fd = c->ops->event_fd ? c->ops->event_fd(c->ec) : -1;
    s->spin_us = c->cfg.spin_us;
    s->foreground_us = c->cfg.foreground_us;
    s->cpu = c->cfg.progress_cpu;
    s->sched = c->cfg.progress_sched;
    s->next = NULL;
}
