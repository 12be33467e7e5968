/*
 * progress.h - the progress engine: who advances task lists, and when.
 *
 * One lock guards every request, communicator and engine call.  Task lists
 * advance in nbo_progress_poll(): each communicator's engine reports
 * completions, then each active request runs as far as its next unmet WAIT.
 *
 *   inline  the application's nbo_test/nbo_wait poll the inline
 *           communicators;
 *   thread  one background thread per process polls the thread-mode
 *           communicators and, when nothing can advance, sleeps in epoll on
 *           their engines' event descriptors (progress_thread.c).  A
 *           waiter sleeps on the same descriptors and runs the events
 *           itself while the thread stands aside; other waiters block on
 *           a condition variable; nobody spins.
 */
#ifndef NBO_PROGRESS_H
#define NBO_PROGRESS_H

#include <pthread.h>

#include "nbo_export.h" /* nbo.h, its functions exported */

struct nbo_comm;
struct nbo_request;

void nbo_lock(void);
void nbo_unlock(void);
/* pthread_cond_wait on the lock (held). */
void nbo_lock_wait(pthread_cond_t *cv);

/* Add or remove a communicator from the set that is progressed (lock held).
 * The first thread-mode communicator starts the progress thread, the last
 * one removed stops it. */
int  nbo_progress_add(struct nbo_comm *c);
void nbo_progress_remove(struct nbo_comm *c);

/* The list of all live communicators (lock held). */
struct nbo_comm *nbo_progress_comms(void);

/* One pass over every communicator of the given mode (lock held).  Returns
 * the number of completions seen. */
int nbo_progress_poll(nbo_progress_mode_t mode);

/* Block until r is no longer active (lock held; dropped while sleeping). */
void nbo_progress_wait(struct nbo_request *r);

/* A request finished: wake whoever waits on one (lock held). */
void nbo_progress_signal(void);

/* A request started on c (lock held).  The thread sleeps on engine
 * descriptors, which fire on their own for engines that have one; an engine
 * without one needs the thread woken to start polling it. */
void nbo_progress_started(struct nbo_comm *c);

/* progress_thread.c, lock held: start/stop the thread, and tell it that the
 * set of descriptors changed. */
int  nbo_progress_thread_start(struct nbo_comm *c);
void nbo_progress_thread_stop(struct nbo_comm *c);

/* The caller, waiting for thread-mode request r, runs its events itself
 * until r ends, sleeping on the engines' descriptors while the thread
 * stands aside (lock held; dropped while sleeping).  Returns 0 without
 * doing anything when it cannot: another waiter drives, or an engine has no
 * descriptor. */
int  nbo_progress_drive(struct nbo_request *r);

/* A request finished (lock held): wake a driving waiter that sleeps. */
void nbo_progress_thread_finished(void);

#endif
