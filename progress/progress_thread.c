/*
 * progress_thread.c - one background thread per process that drives the
 * task lists of thread-mode communicators.
 *
 * Loop: poll until nothing completes; arm every engine descriptor (an
 * engine that answers "events pending" gets polled again instead of
 * sleeping); then sleep in epoll_wait with the lock released.  One wake-up
 * per event, no spinning unless NBO_SPIN_US asks for a short spin first.
 * Engines without a descriptor (MPI) are polled every POLL_US instead.
 *
 * The thread is named "nbo-progress".  While it sleeps on descriptors it
 * runs SCHED_BATCH by default (NBO_PROGRESS_SCHED=auto): the events that
 * wake it mostly come from the application's own calls (a start call's send
 * makes the peer's data and the completions arrive), and a wake-up that
 * preempts the application then costs it two context switches while it
 * holds the lock the thread wants.  A SCHED_BATCH thread takes an idle core
 * at once and a busy one at the next tick, which a thread that polls an
 * engine every POLL_US cannot afford: with such an engine it runs
 * SCHED_OTHER.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "../libnbo/core.h"
#include "progress.h"

#define MAX_FDS 64
#define POLL_US 50        /* engines without a descriptor */
#define IDLE_MS 1000      /* longest sleep: timeouts are checked this often */

static struct {
    pthread_t thread;
    int       running;
    int       stop;
    int       users;          /* thread-mode communicators */
    int       epfd, wakefd;
    int       fds[MAX_FDS], fd_refs[MAX_FDS], nfds;
    int       fd_quiet[MAX_FDS];  /* out of the epoll set: its engine wants no events */
    int       fdless;         /* thread-mode comms whose engine has no fd */
    nbo_progress_sched_t sched; /* the first communicator's setting */
    clockid_t cpu_clock;
} T = {.epfd = -1, .wakefd = -1};

static int comm_fd(struct nbo_comm *c)
{
    return c->ops->event_fd ? c->ops->event_fd(c->ec) : -1;
}

/* The slot of a descriptor in T.fds, or -1. */
static int fd_slot(int fd)
{
    for (int i = 0; i < T.nfds; i++)
        if (T.fds[i] == fd)
            return i;
    return -1;
}

static int epoll_watch(int fd, int on)
{
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
    return epoll_ctl(T.epfd, on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, fd, on ? &ev : NULL);
}

/* Several communicators may share one descriptor (one UCX worker). */
static int fd_add(int fd)
{
    int i = fd_slot(fd);
    if (i >= 0) {
        T.fd_refs[i]++;
        return NBO_SUCCESS;
    }
    if (T.nfds == MAX_FDS)
        return NBO_ERR_NOMEM;
    if (epoll_watch(fd, 1) != 0)
        return NBO_ERR_INTERNAL;
    T.fds[T.nfds] = fd;
    T.fd_quiet[T.nfds] = 0;
    T.fd_refs[T.nfds++] = 1;
    return NBO_SUCCESS;
}

static void fd_del(int fd)
{
    int i = fd_slot(fd);
    if (i < 0 || --T.fd_refs[i] > 0)
        return;
    if (!T.fd_quiet[i])
        epoll_watch(fd, 0);
    T.nfds--;
    T.fds[i] = T.fds[T.nfds];
    T.fd_refs[i] = T.fd_refs[T.nfds];
    T.fd_quiet[i] = T.fd_quiet[T.nfds];
}

/* Stop or resume watching a descriptor whose engine answered arm() with
 * NBO_ARM_QUIET: unread events on it would wake epoll_wait at once, for
 * ever. */
static void fd_watch(int fd, int on)
{
    int i = fd_slot(fd);
    if (i >= 0 && T.fd_quiet[i] == on && epoll_watch(fd, on) == 0)
        T.fd_quiet[i] = !on;
}

static void wake(void)
{
    uint64_t one = 1;
    if (T.wakefd >= 0 && write(T.wakefd, &one, sizeof(one)) < 0) {
        /* the counter is full: the thread is awake already */
    }
}

/* Arm every thread-mode engine, idle ones too: a request may start on one
 * while we sleep, and only an armed descriptor fires for its completions.
 * Returns 1 if an engine has events pending (poll again, do not sleep);
 * *any_active says whether any request is running. */
static int arm_all(int *any_active)
{
    *any_active = 0;
    for (struct nbo_comm *c = nbo_progress_comms(); c; c = c->next) {
        if (c->cfg.progress != NBO_PROGRESS_THREAD)
            continue;
        if (c->active)
            *any_active = 1;
        int rc = c->ops->arm ? c->ops->arm(c->ec) : NBO_SUCCESS;
        if (rc != NBO_SUCCESS && rc != NBO_ARM_QUIET)
            return 1;
        if (c->ops->arm)
            fd_watch(comm_fd(c), rc != NBO_ARM_QUIET);
    }
    return 0;
}

/* How long we may sleep: until the earliest request timeout, at most
 * IDLE_MS; POLL_US granularity when a descriptor-less engine is active. */
static int sleep_ms(int any_active)
{
    if (!any_active)
        return IDLE_MS;
    double now = nbo_now(), ms = IDLE_MS;
    for (struct nbo_comm *c = nbo_progress_comms(); c; c = c->next) {
        if (c->cfg.progress != NBO_PROGRESS_THREAD || c->cfg.timeout_ms <= 0)
            continue;
        for (struct nbo_request *r = c->active; r; r = r->next_active) {
            double left = r->last_activity * 1e3 + c->cfg.timeout_ms - now * 1e3;
            if (left < ms)
                ms = left;
        }
    }
    return ms < 1 ? 1 : (int)ms + 1;
}

static void spin(int spin_us)
{
    double until = nbo_now() + spin_us * 1e-6;
    while (nbo_now() < until)
        if (nbo_progress_poll(NBO_PROGRESS_THREAD) > 0)
            until = nbo_now() + spin_us * 1e-6;
}

static int max_spin_us(void)
{
    int us = 0;
    for (struct nbo_comm *c = nbo_progress_comms(); c; c = c->next)
        if (c->cfg.progress == NBO_PROGRESS_THREAD && c->active && c->cfg.spin_us > us)
            us = c->cfg.spin_us;
    return us;
}

static void *thread_main(void *arg)
{
    (void)arg;
    struct epoll_event ev[MAX_FDS + 1];
    nbo_lock();
    while (!T.stop) {
        while (nbo_progress_poll(NBO_PROGRESS_THREAD) > 0)
            ;
        int us = max_spin_us();
        if (us > 0)
            spin(us);
        int active;
        if (arm_all(&active)) {
            /* Events pending: poll again, but let application threads take
             * the lock in between, or a stream of early messages could keep
             * them out for good. */
            nbo_unlock();
            sched_yield();
            nbo_lock();
            continue;
        }
        int ms = sleep_ms(active);
        int fdless = T.fdless && active;
        nbo_unlock();
        if (fdless) {
            struct timespec ts = {0, POLL_US * 1000};
            nanosleep(&ts, NULL);
        } else {
            int n = epoll_wait(T.epfd, ev, MAX_FDS + 1, ms);
            for (int i = 0; i < n; i++)
                if (ev[i].data.fd == T.wakefd) {
                    uint64_t v;
                    if (read(T.wakefd, &v, sizeof(v)) < 0) {
                        /* nothing to drain */
                    }
                }
        }
        nbo_lock();
    }
    nbo_unlock();
    return NULL;
}

/* Give the thread the class its setting asks for; auto depends on whether
 * a polled engine is in use, so this runs whenever that set changes (a
 * communicator created or freed: never on a hot path). */
static void schedule(void)
{
    int batch = T.sched == NBO_PROGRESS_SCHED_BATCH ||
                (T.sched == NBO_PROGRESS_SCHED_AUTO && T.fdless == 0);
    struct sched_param sp = {0};
    int e = pthread_setschedparam(T.thread, batch ? SCHED_BATCH : SCHED_OTHER, &sp);
    if (e)
        fprintf(stderr, "libnbo: cannot give the progress thread the %s scheduling class: %s\n",
                batch ? "SCHED_BATCH" : "SCHED_OTHER", strerror(e));
}

static void pin(int cpu)
{
    if (cpu < 0)
        return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    int e = pthread_setaffinity_np(T.thread, sizeof(set), &set);
    if (e)
        fprintf(stderr, "libnbo: cannot pin the progress thread to CPU %d: %s\n", cpu, strerror(e));
}

int nbo_progress_thread_start(struct nbo_comm *c)
{
    if (!T.running) {
        T.epfd = epoll_create1(EPOLL_CLOEXEC);
        T.wakefd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
        if (T.epfd < 0 || T.wakefd < 0)
            goto fail;
        struct epoll_event ev = {.events = EPOLLIN, .data.fd = T.wakefd};
        if (epoll_ctl(T.epfd, EPOLL_CTL_ADD, T.wakefd, &ev) != 0)
            goto fail;
        T.stop = 0;
        if (pthread_create(&T.thread, NULL, thread_main, NULL) != 0)
            goto fail;
        pthread_getcpuclockid(T.thread, &T.cpu_clock);
        pthread_setname_np(T.thread, "nbo-progress"); /* for top -H, perf, the tests */
        T.running = 1;
        pin(c->cfg.progress_cpu);
        T.sched = c->cfg.progress_sched;
    }
    int fd = comm_fd(c);
    int rc = fd >= 0 ? fd_add(fd) : NBO_SUCCESS;
    if (rc != NBO_SUCCESS) {
        if (T.users == 0)
            nbo_progress_thread_stop(NULL);
        return rc;
    }
    if (fd < 0)
        T.fdless++;
    T.users++;
    schedule();
    wake();
    return NBO_SUCCESS;
fail:
    if (T.epfd >= 0)
        close(T.epfd);
    if (T.wakefd >= 0)
        close(T.wakefd);
    T.epfd = T.wakefd = -1;
    return NBO_ERR_INTERNAL;
}

void nbo_progress_thread_stop(struct nbo_comm *c)
{
    if (c) {
        int fd = comm_fd(c);
        if (fd >= 0)
            fd_del(fd);
        else
            T.fdless--;
        T.users--;
    }
    if (T.users > 0 && T.running)
        schedule();
    if (T.users > 0 || !T.running)
        return;
    T.stop = 1;
    wake();
    nbo_unlock(); /* the thread needs the lock to see stop */
    pthread_join(T.thread, NULL);
    nbo_lock();
    T.running = 0;
    close(T.epfd);
    close(T.wakefd);
    T.epfd = T.wakefd = -1;
    T.nfds = 0;
}

/* A request started: the thread must poll or re-arm for it unless its
 * descriptor is being watched. */
void nbo_progress_started(struct nbo_comm *c)
{
    if (c->cfg.progress != NBO_PROGRESS_THREAD)
        return;
    int fd = comm_fd(c), i = fd < 0 ? -1 : fd_slot(fd);
    if (fd < 0 || (i >= 0 && T.fd_quiet[i]))
        wake();
}

int nbo_progress_thread_running(void) { return T.running; }

double nbo_progress_thread_cpu(void)
{
    struct timespec ts;
    if (!T.running || clock_gettime(T.cpu_clock, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
