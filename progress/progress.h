/*
 * progress.h - the progress engine: who advances task lists, and when.
 *
 * One lock guards every request, communicator and engine call.  Task lists
 * advance in nbo_progress_poll(): each communicator's engine reports
 * completions, then each active request runs as far as its next unmet WAIT.
 * In inline mode the application's nbo_test/nbo_wait call it; in thread
 * mode one background thread per process does, sleeping on the engines'
 * event descriptors when nothing can advance.
 */
#ifndef NBO_PROGRESS_H
#define NBO_PROGRESS_H

#include "nbo.h"

struct nbo_comm;
struct nbo_request;

void nbo_lock(void);
void nbo_unlock(void);

/* Add or remove a communicator from the set that is progressed (lock held).
 * Adding one in thread mode starts the thread if it is not running; the
 * last one removed stops it. */
int  nbo_progress_add(struct nbo_comm *c);
void nbo_progress_remove(struct nbo_comm *c);

/* The list of all live communicators (lock held). */
struct nbo_comm *nbo_progress_comms(void);

/* One pass over every communicator (lock held).  Returns the number of
 * completions seen. */
int nbo_progress_poll(void);

/* Block until r is no longer active (lock held; may drop it while
 * sleeping).  Times out through the request's own inactivity timeout. */
void nbo_progress_wait(struct nbo_request *r);

/* A request finished: wake whoever waits on it (lock held). */
void nbo_progress_signal(void);

/* Is the progress thread of this process running?  (For nbo_info/tests.) */
int nbo_progress_thread_running(void);

#endif
