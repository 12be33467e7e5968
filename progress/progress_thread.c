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
 *
 * A waiter drives.  An application thread that blocks in nbo_wait sleeps
 * in epoll on the same descriptors itself (a second epoll set) and runs the
 * completions when it wakes, so the last event reaches it with one wake-up
 * instead of two (the thread's, then the thread waking it); the thread
 * stands aside meanwhile and resumes when the waiter leaves.  One waiter
 * drives at a time; others wait on the condition variable as before.
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
    /* The driving waiter (nbo_progress_drive): its epoll set watches the
     * same descriptors plus its own eventfd. */
    int       drive_epfd, drive_wakefd;
    int       driving;        /* a waiter drives; the thread stands aside */
    int       driver_asleep;  /* ... and sleeps in epoll_wait */
    pthread_cond_t driver_left;
} T = {.epfd = -1, .wakefd = -1, .drive_epfd = -1, .drive_wakefd = -1,
       .driver_left = PTHREAD_COND_INITIALIZER};

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

/* Both sets, the thread's and the driving waiter's, watch the same fds. */
static int epoll_watch(int fd, int on)
{
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};
    int op = on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL;
    if (epoll_ctl(T.epfd, op, fd, on ? &ev : NULL) != 0)
        return -1;
    if (epoll_ctl(T.drive_epfd, op, fd, on ? &ev : NULL) != 0) {
        if (on)
            epoll_ctl(T.epfd, EPOLL_CTL_DEL, fd, NULL);
        return -1;
    }
    return 0;
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

static void kick(int efd)
{
    uint64_t one = 1;
    if (efd >= 0 && write(efd, &one, sizeof(one)) < 0) {
        /* the counter is full: the sleeper is awake already */
    }
}

static void drain(int efd)
{
    uint64_t v;
    if (read(efd, &v, sizeof(v)) < 0) {
        /* nothing to drain */
    }
}

static void wake_driver(void)
{
    if (T.driver_asleep)
        kick(T.drive_wakefd);
}

/* Whoever sleeps on the descriptors: the thread, and a driving waiter. */
static void wake(void)
{
    kick(T.wakefd);
    wake_driver();
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

/* Poll until nothing completed for spin_us, or until the driving
 * waiter's request r (NULL for the thread) ends. */
static void spin(int spin_us, const struct nbo_request *r)
{
    double until = nbo_now() + spin_us * 1e-6;
    while (nbo_now() < until && (!r || r->state == REQ_ACTIVE))
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

/* Sleep in epoll on set epfd (lock released) for at most ms; consume the
 * set's own eventfd if that is what woke us. */
static void sleep_on(int epfd, int wakefd, int ms)
{
    struct epoll_event ev[MAX_FDS + 1];
    nbo_unlock();
    int n = epoll_wait(epfd, ev, MAX_FDS + 1, ms);
    for (int i = 0; i < n; i++)
        if (ev[i].data.fd == wakefd)
            drain(wakefd);
    nbo_lock();
}

/* Nothing advances: spin if NBO_SPIN_US asks, then arm the engines and
 * sleep until an event, with the lock released.  One policy for the
 * thread (r NULL) and for a driving waiter (r its request), each on its
 * own epoll set. */
static void rest(const struct nbo_request *r)
{
    int active, us = max_spin_us();
    if (us > 0)
        spin(us, r);
    if (r && r->state != REQ_ACTIVE)
        return;
    if (arm_all(&active)) {
        /* Events pending: poll again, but let other threads take the lock
         * in between, or a stream of early messages could keep them out
         * for good. */
        nbo_unlock();
        sched_yield();
        nbo_lock();
    } else if (r) {
        T.driver_asleep = 1;
        sleep_on(T.drive_epfd, T.drive_wakefd, sleep_ms(active));
        T.driver_asleep = 0;
    } else if (T.fdless && active) {
        struct timespec ts = {0, POLL_US * 1000};
        nbo_unlock();
        nanosleep(&ts, NULL);
        nbo_lock();
    } else
        sleep_on(T.epfd, T.wakefd, sleep_ms(active));
}

static void *thread_main(void *arg)
{
    (void)arg;
    nbo_lock();
    while (!T.stop) {
        if (T.driving) {
            /* A waiter runs the events; back when it leaves. */
            nbo_lock_wait(&T.driver_left);
            continue;
        }
        while (nbo_progress_poll(NBO_PROGRESS_THREAD) > 0)
            ;
        rest(NULL);
    }
    nbo_unlock();
    return NULL;
}

int nbo_progress_drive(struct nbo_request *r)
{
    /* An engine without a descriptor leaves nothing to sleep on. */
    if (!T.running || T.driving || T.fdless)
        return 0;
    /* The thread steps aside now, not at the next event, where it would
     * contend for the lock with us.  The caller has just polled. */
    T.driving = 1;
    kick(T.wakefd);
    /* A communicator with a polled engine created meanwhile (creating it
     * wakes us) needs the thread back: leave, the caller then blocks. */
    while (r->state == REQ_ACTIVE && !T.fdless) {
        rest(r);
        if (r->state == REQ_ACTIVE) /* else the spin in rest() ended it */
            nbo_progress_poll(NBO_PROGRESS_THREAD);
    }
    T.driving = 0;
    pthread_cond_signal(&T.driver_left);
    return 1;
}

void nbo_progress_thread_finished(void)
{
    wake_driver(); /* another thread's poll may have ended its request */
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

/* NBO_PROGRESS_CPU_LAST: the highest core of the caller's mask (the
 * launcher's binding of this rank), or -1 if it cannot be read. */
static int last_cpu(void)
{
    cpu_set_t mask;
    if (sched_getaffinity(0, sizeof(mask), &mask) != 0)
        return -1;
    for (int cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--)
        if (CPU_ISSET(cpu, &mask))
            return cpu;
    return -1;
}

static void pin(int cpu)
{
    if (cpu == NBO_PROGRESS_CPU_LAST)
        cpu = last_cpu();
    if (cpu < 0)
        return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    int e = pthread_setaffinity_np(T.thread, sizeof(set), &set);
    if (e)
        fprintf(stderr, "libnbo: cannot pin the progress thread to CPU %d: %s\n", cpu, strerror(e));
}

/* An epoll set with its own eventfd in it. */
static int open_set(int *epfd, int *wakefd)
{
    *epfd = epoll_create1(EPOLL_CLOEXEC);
    *wakefd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = *wakefd};
    if (*epfd < 0 || *wakefd < 0 || epoll_ctl(*epfd, EPOLL_CTL_ADD, *wakefd, &ev) != 0)
        return -1;
    return 0;
}

static void close_sets(void)
{
    int *fds[] = {&T.epfd, &T.wakefd, &T.drive_epfd, &T.drive_wakefd};
    for (int i = 0; i < 4; i++) {
        if (*fds[i] >= 0)
            close(*fds[i]);
        *fds[i] = -1;
    }
}

int nbo_progress_thread_start(struct nbo_comm *c)
{
    if (!T.running) {
        if (open_set(&T.epfd, &T.wakefd) != 0 || open_set(&T.drive_epfd, &T.drive_wakefd) != 0)
            goto fail;
        T.stop = 0;
        if (pthread_create(&T.thread, NULL, thread_main, NULL) != 0)
            goto fail;
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
    close_sets();
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
    close_sets();
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

