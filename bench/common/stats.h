/*
 * stats.h - the statistics the benchmarks report, shared by all of them
 * (no MPI, no libnbo).
 */
#ifndef NBO_BENCH_STATS_H
#define NBO_BENCH_STATS_H

/* The median of v[0..n) (0 for n <= 0); sorts v in place. */
double bench_median(double *v, int n);

#endif
