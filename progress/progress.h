/*
 * progress.h - the progress service: who advances work, and when.
 *
 * The service knows sources, not requests.  A source (libnbo registers one
 * per communicator) hands it three hooks: poll (drive the engine and the
 * work on it), arm (get ready to sleep on its descriptor) and busy (is
 * work running, and by when must it be polled again).  The service owns
 * the one lock that guards every request, communicator and engine call,
 * the background thread, its epoll sets and its sleep policy.
 *
 *   inline  the application's calls (nbo_test, nbo_wait, nbo_progress)
 *           poll the inline sources;
 *   thread  one background thread per process polls the thread-mode
 *           sources and, when nothing can advance, sleeps in epoll on
 *           their descriptors (progress_thread.c).  A waiter sleeps on
 *           the same descriptors and runs the events itself while the
 *           thread stands aside; other waiters block on a condition
 *           variable; nobody spins.
 */
#ifndef NBO_PROGRESS_H
#define NBO_PROGRESS_H

#include <pthread.h>

#include <nbo.h> /* nbo_progress_mode_t, nbo_progress_sched_t, NBO_ERR_* */

/* What arm answers. */
enum {
    NBO_PROGRESS_ARMED = 0, /* the descriptor fires on the next event: sleep */
    NBO_PROGRESS_QUIET,     /* no events wanted: stop watching it, sleep */
    NBO_PROGRESS_PENDING    /* events are waiting: poll again, do not sleep */
};

/* A source's hooks; the service calls them with the lock held. */
typedef struct nbo_progress_hooks {
    /* One pass: engine completions, then the work they unblock.  Returns
     * the number of completions seen (>= 0). */
    int (*poll)(void *arg, double now);
    /* Before sleeping on the descriptor: NBO_PROGRESS_ARMED, _QUIET or
     * _PENDING.  NULL: always armed. */
    int (*arm)(void *arg);
    /* 1 if work is running.  *deadline: the time (nbo_now) by which it
     * must be polled again, for its timeout; left alone if none. */
    int (*busy)(void *arg, double *deadline);
    /* 1 if running work needs the thread to react to its events now:
     * more messages to post after a completion, or messages that move
     * only while someone polls, in work that has run long enough that its
     * caller is not about to finish it.  0: whoever waits for the work can
     * finish it alone, and the thread leaves the descriptor alone (no
     * wake-up, and the peer no signal, per message); *due: lowered to the
     * time when work running now will need the thread, if it is still
     * running then.  NULL: always 1. */
    int (*background)(void *arg, double now, double *due);
} nbo_progress_hooks_t;

typedef struct nbo_progress_source {
    /* Set by the owner before nbo_progress_add, constant after. */
    const nbo_progress_hooks_t *hooks;
    void                *arg;
    nbo_progress_mode_t  mode;   /* NBO_PROGRESS_INLINE or _THREAD */
    int                  fd;     /* descriptor to sleep on; -1: polled */
    int                  spin_us; /* poll this long before sleeping */
    int                  foreground_us; /* thread mode: work is its caller's this long */
    int                  cpu;    /* thread mode, first source: pin (or -1) */
    nbo_progress_sched_t sched;  /* thread mode, first source: class */
    /* The service's. */
    struct nbo_progress_source *next;
} nbo_progress_source_t;

void nbo_lock(void);
void nbo_unlock(void);
/* pthread_cond_wait on the lock (held). */
void nbo_lock_wait(pthread_cond_t *cv);

/* Add or remove a source (lock held).  The first thread-mode source starts
 * the progress thread, the last one removed stops it. */
int  nbo_progress_add(nbo_progress_source_t *s);
void nbo_progress_remove(nbo_progress_source_t *s);

/* One pass over every source of the given mode (lock held).  Returns the
 * number of completions seen. */
int nbo_progress_poll(nbo_progress_mode_t mode);

/* Block until done(arg) is true, progressing the sources of `mode` (lock
 * held; dropped while sleeping).  Thread mode: first poll until spin_us
 * pass without a completion, then sleep.  Whoever makes done true calls
 * nbo_progress_signal. */
void nbo_progress_wait(nbo_progress_mode_t mode, int spin_us, int (*done)(const void *arg),
                       const void *arg);

/* Something a waiter may wait for happened (lock held). */
void nbo_progress_signal(void);

/* Work started on s (lock held).  due: the time (nbo_now) from which it
 * needs the thread if it is still running (the hooks' background says 1
 * from then), or < 0 if it never does.  The thread sleeps on descriptors,
 * which fire on their own; a polled source needs it woken, and one whose
 * descriptor is out of the set (quiet) needs it back at due. */
void nbo_progress_started(nbo_progress_source_t *s, double due);

#endif
