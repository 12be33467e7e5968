/*
 * threads.h - CPU time of the process's threads one by one, for the CPU
 * columns of the benchmarks' work phase (loops.c).  No MPI, no libnbo.
 */
#ifndef NBO_BENCH_THREADS_H
#define NBO_BENCH_THREADS_H

#define BENCH_MAX_THREADS 256
/* The ceiling's exchange thread: counted as the row's own, as libnbo's
 * progress thread ("nbo-progress") is for the nbo rows. */
#define THREADS_EXCHANGE_NAME "ovl-exchange"

/* Every thread of the process but the caller, with its CPU time and
 * whether it is the collective library's own. */
typedef struct threads {
    int n;
    int tid[BENCH_MAX_THREADS];
    double cpu[BENCH_MAX_THREADS];
    int own[BENCH_MAX_THREADS];
} threads_t;

/* The calling thread's CPU clock (seconds). */
double thread_cpu_s(void);
void threads_snapshot(threads_t *t);
/* Adds the CPU seconds from a to b of the library's own threads to *own,
 * of every other thread to *other. */
void threads_delta(const threads_t *a, const threads_t *b, double *own, double *other);

#endif
