/*
 * fault_victim.h - run a "peer killed" test under hydra's mpiexec.
 *
 * Two things make survivors disappear before they can report: hydra
 * (-disable-auto-cleanup) tells every process about a death with SIGUSR1,
 * whose default action terminates it, and hydra ends the job as soon as it
 * sees a process exit.  fault_victim_setup() ignores SIGUSR1 and, in the
 * process that will be killed (the last rank), forks before MPI_Init: the
 * child becomes the MPI rank and dies; the parent keeps hydra's connection
 * open until every survivor has written its report file (bounded wait).
 */
#ifndef FAULT_VICTIM_H
#define FAULT_VICTIM_H

/* Call first thing in main(), before MPI_Init.  report_fmt is a printf
 * pattern with %s (dir) and %d (rank), e.g. "%s/rank-%d.txt".  Does
 * nothing without a dir or outside mpiexec. */
void fault_victim_setup(const char *dir, const char *report_fmt);

/* Call again right after MPI_Init (which may install its own handler). */
void fault_victim_after_init(void);

#endif
