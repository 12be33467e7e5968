/*
 * busy.h - the benchmarks' clocks and busy compute, shared by
 * every benchmark (bench/driver, bench/latency, ...): nothing
 * here knows MPI or libnbo.
 */
#ifndef NBO_BENCH_BUSY_H
#define NBO_BENCH_BUSY_H

double now_s(void);             /* monotonic seconds, also before MPI_Init */
double cpu_s(void);             /* process CPU time, all threads */

/* The work: `steps` steps of a dependent floating-point recurrence in
 * registers, so that its speed depends on the core it gets and not on
 * memory.  A fixed amount of work, independent of time. */
void busy_work(long steps);
/* Steps per second on this core (best of several short runs: the least
 * disturbed one is the core's speed). */
double busy_calibrate(void);

/* A callback run between slices of compute (a test call): returns nothing,
 * its time is measured by the caller. */
typedef void (*busy_poll_fn)(void *arg);
/* Busy compute until `seconds` of wall time have passed (OSU's dummy
 * compute), in `polls` slices with poll(arg) after each (polls 0: one slice
 * and no call; poll NULL: the slices and no call).  Returns the time spent in poll. */
double busy_for_time(double seconds, int polls, busy_poll_fn poll, void *arg);
/* `units` steps of work, sliced the same way.  Returns the time spent in
 * poll. */
double busy_for_work(double units, int polls, busy_poll_fn poll, void *arg);

#endif
