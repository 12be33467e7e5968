/*
 * progress_thread.h - the background thread, inside progress/ only.
 * Every function runs with the lock held.
 */
#ifndef NBO_PROGRESS_THREAD_H
#define NBO_PROGRESS_THREAD_H

#include "progress.h"

/* The registered sources (progress.c). */
nbo_progress_source_t *nbo_progress_sources(void);

/* A thread-mode source comes or goes: the first starts the thread, the
 * last stops it; the set of descriptors follows. */
int  nbo_progress_thread_start(nbo_progress_source_t *s);
void nbo_progress_thread_stop(nbo_progress_source_t *s);

/* The caller, waiting for done(arg), runs the thread-mode events itself
 * until then, sleeping on the descriptors while the thread stands aside
 * (lock dropped while sleeping).  Returns 0 without doing anything when it
 * cannot: another waiter drives, or a source has no descriptor. */
int  nbo_progress_drive(int (*done)(const void *), const void *arg);

/* An application thread starts (+1) or stops (-1) polling the thread-mode
 * sources in a wait: the thread keeps out of the lock meanwhile. */
void nbo_progress_thread_spinning(int delta);

/* Something ended (nbo_progress_signal): wake a driving waiter that sleeps. */
void nbo_progress_thread_finished(void);

#endif
