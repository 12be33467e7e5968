/*
 * progress_thread.c - one background thread per process that drives the
 * thread-mode sources (one per thread-mode communicator).
 *
 * Loop: poll until nothing completes; arm every source's descriptor (a
 * source that answers "events pending" gets polled again instead of
 * sleeping); then sleep in epoll_wait with the lock released.  One wake-up
 * per event, no spinning unless a source asks for a short spin first
 * (NBO_SPIN_US).  Sources without a descriptor (the MPI engine) are polled
 * every POLL_US instead.
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
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "../util/util.h" /* nbo_now */
#include "progress_thread.h"

#define MAX_FDS 64
#define POLL_US 50        /* engines without a descriptor */
#define IDLE_MS 1000      /* longest sleep: timeouts are checked this often */

static struct {
    pthread_t thread;
    int       running;
    int       stop;
    int       users;          /* thread-mode communicators */
    int       epfd, wakefd;
    int       timerfd;        /* in the thread's set: work that turns due */
    _Atomic double timer_at;  /* when it fires (nbo_now), or 1e300: disarmed;
                                 the thread rearms it without the lock */
    int       retry_us;       /* the first source's foreground_us */
    int       backoff_us;     /* the next look while a waiter polls */
    atomic_int spinners;      /* application threads polling in a wait */
    int       fds[MAX_FDS], fd_refs[MAX_FDS], nfds;
    int       fd_quiet[MAX_FDS];  /* out of the epoll set: its engine wants no events */
    int       fdless;         /* thread-mode sources without a descriptor */
    nbo_progress_sched_t sched; /* the first source's setting */
    /* The driving waiter (nbo_progress_drive): its epoll set watches the
     * same descriptors plus its own eventfd. */
    int       drive_epfd, drive_wakefd;
    int       driving;        /* a waiter drives; the thread stands aside */
    int       driver_asleep;  /* ... and sleeps in epoll_wait */
    pthread_cond_t driver_left;
} T = {.epfd = -1, .wakefd = -1, .timerfd = -1, .timer_at = 1e300, .drive_epfd = -1,
       .drive_wakefd = -1, .driver_left = PTHREAD_COND_INITIALIZER};

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

/* Several sources may share one descriptor (one UCX worker). */
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

/* Stop or resume watching a descriptor whose source answered arm with
 * NBO_PROGRESS_QUIET: unread events on it would wake epoll_wait at once,
 * for ever. */
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

/* Fire the thread's timer at `at` (nbo_now's clock, CLOCK_MONOTONIC). */
static void timer_arm(double at)
{
    struct itimerspec ts = {.it_value = {.tv_sec = (time_t)at,
                                         .tv_nsec = (long)((at - (double)(time_t)at) * 1e9)}};
    if (ts.it_value.tv_sec == 0 && ts.it_value.tv_nsec == 0)
        ts.it_value.tv_nsec = 1; /* zero would disarm it */
    if (timerfd_settime(T.timerfd, TFD_TIMER_ABSTIME, &ts, NULL) == 0)
        atomic_store(&T.timer_at, at);
}

/* Wake the thread at `at` unless it wakes before: one system call, and no
 * wake-up now. */
static void timer_set(double at)
{
    if (T.timerfd >= 0 && at < atomic_load(&T.timer_at))
        timer_arm(at);
}

/* Work started that may need the thread at `at`: unless its timer is set
 * already (it then looks at every source when it fires), set it.  A start
 * costs no system call while the timer is pending. */
static void timer_ensure(double at)
{
    if (T.timerfd >= 0 && atomic_load(&T.timer_at) >= 1e300)
        timer_arm(at);
}

void nbo_progress_thread_spinning(int delta)
{
    atomic_fetch_add(&T.spinners, delta);
}

/* The thread's timer fired while an application thread polls in a wait:
 * that thread advances every source, and taking the lock it holds would
 * put it to sleep on the lock.  Look again later, lock-free, backing off
 * to once a millisecond while the application keeps waiting. */
static int timer_only_while_spinning(const struct epoll_event *ev, int n)
{
    if (n <= 0 || atomic_load(&T.spinners) == 0)
        return 0;
    for (int i = 0; i < n; i++)
        if (ev[i].data.fd != T.timerfd)
            return 0;
    drain(T.timerfd);
    T.backoff_us = T.backoff_us < T.retry_us ? T.retry_us : 2 * T.backoff_us;
    if (T.backoff_us > 1000)
        T.backoff_us = 1000;
    timer_arm(nbo_now() + T.backoff_us * 1e-6);
    return 1;
}

/* Does the thread (w NULL) want s's events?  Only for work that needs
 * it: a small collective's completions are taken by its waiter, young
 * work is left to its caller until *due, and an idle source's early
 * messages wait for the next call.  A driving waiter wants every source's:
 * its own request is among them. */
static int wanted(nbo_progress_source_t *s, const void *w, double now, double *due)
{
    return w || !s->hooks->background || s->hooks->background(s->arg, now, due);
}

/* Arm the thread-mode sources whose events are wanted, and watch their
 * descriptors (several sources may share one: it is watched if any of
 * them wants it).  Returns 1 if a source has events pending (poll again,
 * do not sleep); *deadline: the earliest time a busy source must be
 * polled again (infinite when none is busy). */
static int arm_all(const void *w, double *deadline, int *any_busy)
{
    int want[MAX_FDS] = {0};
    double now = nbo_now(), due = 1e300;
    *any_busy = 0;
    *deadline = 1e300;
    for (nbo_progress_source_t *s = nbo_progress_sources(); s; s = s->next) {
        if (s->mode != NBO_PROGRESS_THREAD)
            continue;
        if (s->hooks->busy(s->arg, deadline))
            *any_busy = 1;
        if (!s->hooks->arm)
            continue;
        int rc = wanted(s, w, now, &due) ? s->hooks->arm(s->arg) : NBO_PROGRESS_QUIET;
        if (rc == NBO_PROGRESS_PENDING)
            return 1;
        int i = fd_slot(s->fd);
        if (i >= 0 && rc != NBO_PROGRESS_QUIET)
            want[i] = 1;
    }
    for (int i = 0; i < T.nfds; i++)
        fd_watch(T.fds[i], want[i]);
    if (!w)
        timer_set(due);
    return 0;
}

/* How long we may sleep: until the earliest deadline, at most IDLE_MS. */
static int sleep_ms(double deadline)
{
    double ms = (deadline - nbo_now()) * 1e3;
    if (ms > IDLE_MS)
        return IDLE_MS;
    return ms < 1 ? 1 : (int)ms + 1;
}

/* The driving waiter's condition (the thread has none: NULL). */
typedef struct {
    int (*done)(const void *);
    const void *arg;
} waiter_t;

static int waiter_done(const waiter_t *w) { return w && w->done(w->arg); }

/* Poll until nothing completed for spin_us, or until the driving
 * waiter's condition holds. */
static void spin(int spin_us, const waiter_t *w)
{
    double until = nbo_now() + spin_us * 1e-6;
    while (nbo_now() < until && !waiter_done(w))
        if (nbo_progress_poll(NBO_PROGRESS_THREAD) > 0)
            until = nbo_now() + spin_us * 1e-6;
}

static int max_spin_us(void)
{
    int us = 0;
    for (nbo_progress_source_t *s = nbo_progress_sources(); s; s = s->next) {
        double ignored;
        if (s->mode == NBO_PROGRESS_THREAD && s->spin_us > us && s->hooks->busy(s->arg, &ignored))
            us = s->spin_us;
    }
    return us;
}

/* Sleep in epoll on set epfd (lock released) for at most ms; consume the
 * set's own eventfd if that is what woke us. */
static void sleep_on(int epfd, int wakefd, int ms)
{
    struct epoll_event ev[MAX_FDS + 2];
    nbo_unlock();
    int n;
    do
        n = epoll_wait(epfd, ev, MAX_FDS + 2, ms);
    while (epfd == T.epfd && timer_only_while_spinning(ev, n));
    nbo_lock();
    for (int i = 0; i < n; i++)
        if (ev[i].data.fd == wakefd)
            drain(wakefd);
        else if (ev[i].data.fd == T.timerfd) {
            drain(T.timerfd);
            atomic_store(&T.timer_at, 1e300);
            T.backoff_us = 0;
        }
}

/* Nothing advances: spin if a source asks, then arm the sources and sleep
 * until an event, with the lock released.  One policy for the thread (w
 * NULL) and for a driving waiter, each on its own epoll set. */
static void rest(const waiter_t *w)
{
    int busy, us = max_spin_us();
    double deadline;
    if (us > 0)
        spin(us, w);
    if (waiter_done(w))
        return;
    if (arm_all(w, &deadline, &busy)) {
        /* Events pending: poll again, but let other threads take the lock
         * in between, or a stream of early messages could keep them out
         * for good. */
        nbo_unlock();
        sched_yield();
        nbo_lock();
    } else if (w) {
        T.driver_asleep = 1;
        sleep_on(T.drive_epfd, T.drive_wakefd, sleep_ms(deadline));
        T.driver_asleep = 0;
    } else if (T.fdless && busy) {
        struct timespec ts = {0, POLL_US * 1000};
        nbo_unlock();
        nanosleep(&ts, NULL);
        nbo_lock();
    } else
        sleep_on(T.epfd, T.wakefd, sleep_ms(deadline));
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

int nbo_progress_drive(int (*done)(const void *), const void *arg)
{
    const waiter_t w = {done, arg};
    /* A source without a descriptor leaves nothing to sleep on. */
    if (!T.running || T.driving || T.fdless)
        return 0;
    /* The thread steps aside now, not at the next event, where it would
     * contend for the lock with us.  The caller has just polled. */
    T.driving = 1;
    kick(T.wakefd);
    /* A polled source added meanwhile (adding it wakes us) needs the
     * thread back: leave, the caller then blocks. */
    while (!done(arg) && !T.fdless) {
        rest(&w);
        if (!done(arg)) /* else the spin in rest() ended it */
            nbo_progress_poll(NBO_PROGRESS_THREAD);
    }
    T.driving = 0;
    pthread_cond_signal(&T.driver_left);
    return 1;
}

void nbo_progress_thread_finished(void)
{
    wake_driver(); /* another thread's poll may have ended its wait */
}

/* Give the thread the class its setting asks for; auto depends on whether
 * a polled source is in use, so this runs whenever that set changes (a
 * source added or removed: never on a hot path). */
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

/* The thread's timer, in its set (not the driving waiter's). */
static int open_timer(void)
{
    T.timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    atomic_store(&T.timer_at, 1e300);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = T.timerfd};
    return T.timerfd < 0 || epoll_ctl(T.epfd, EPOLL_CTL_ADD, T.timerfd, &ev) != 0 ? -1 : 0;
}

static void close_sets(void)
{
    int *fds[] = {&T.epfd, &T.wakefd, &T.timerfd, &T.drive_epfd, &T.drive_wakefd};
    for (int i = 0; i < 5; i++) {
        if (*fds[i] >= 0)
            close(*fds[i]);
        *fds[i] = -1;
    }
}

int nbo_progress_thread_start(nbo_progress_source_t *s)
{
    if (!T.running) {
        if (open_set(&T.epfd, &T.wakefd) != 0 || open_timer() != 0 ||
            open_set(&T.drive_epfd, &T.drive_wakefd) != 0)
            goto fail;
        T.stop = 0;
        T.retry_us = s->foreground_us > 0 ? s->foreground_us : 1;
        if (pthread_create(&T.thread, NULL, thread_main, NULL) != 0)
            goto fail;
        pthread_setname_np(T.thread, "nbo-progress"); /* for top -H, perf, the tests */
        T.running = 1;
        pin(s->cpu);
        T.sched = s->sched;
    }
    int fd = s->fd;
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

void nbo_progress_thread_stop(nbo_progress_source_t *s)
{
    if (s) {
        int fd = s->fd;
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

/* Work started: the thread must poll or re-arm for it unless its
 * descriptor is being watched. */
void nbo_progress_started(nbo_progress_source_t *s, double due)
{
    if (s->mode != NBO_PROGRESS_THREAD)
        return;
    int i = s->fd < 0 ? -1 : fd_slot(s->fd);
    if (s->fd < 0)
        wake();
    else if (due >= 0 && i >= 0 && T.fd_quiet[i]) {
        if (due <= nbo_now())
            wake();
        else
            timer_ensure(due); /* its caller may well finish it first */
    }
}

