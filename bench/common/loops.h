/*
 * loops.h - the benchmarks' timing loops on one exchange, whatever API
 * runs it: every backend of nbo_bench (MPI's calls, libnbo's, the socket
 * ceiling) runs the same loops.  MPI only for the agreement between ranks;
 * no libnbo.
 *
 *   pure     start + wait, nothing else                      -> Pure Comm.
 *   OSU      start, busy compute for Pure Comm. of wall time (with
 *            `tests` test calls spread over it), wait        -> Overlap
 *   work     start, a fixed amount of work that takes Pure Comm. when
 *            run alone, wait                                 -> work overlap
 *   app      blocks of back-to-back compute-only, exchange-only, blocking
 *            and overlapped iterations, medians over blocks
 */
#ifndef NBO_BENCH_LOOPS_H
#define NBO_BENCH_LOOPS_H

#include <mpi.h>

#include "busy.h"

/* One exchange as the loops drive it, through an API backend.  Each call
 * returns 0 or the API's error code; on an error the loop calls fail. */
typedef struct bench_xchg bench_xchg_t;
struct bench_xchg {
    int (*start)(void *ctx);
    int (*wait)(void *ctx);
    int (*once)(void *ctx);      /* pure phase: start and wait (NULL: those two) */
    int (*blocking)(void *ctx);  /* app loop: the blocking form (NULL: no app loop) */
    int (*sync)(void *ctx);      /* the barrier before each iteration or block */
    busy_poll_fn test;           /* one test call (NULL: none) */
    void *ctx;
    int tests;                   /* test calls spread over each compute */
    MPI_Comm comm;               /* the ranks that agree on block times */
    /* Reports a failed call (what: "start", "wait", ...) and ends the run. */
    void (*fail)(const bench_xchg_t *x, const char *what, int rc);
};

/* The per-rank sums the phases add to; bench_per_operation and
 * bench_rank_mean make them the reported figures. */
enum { BF_OVERALL, BF_COMPUTE, BF_INIT, BF_TEST, BF_WAIT, BF_PURE, BF_WORK_OVERALL, BF_ALONE,
       BF_CPU_PURE, BF_CPU_WORK, BF_ALONE_VS_IDLE, BF_ERRORS, BF_START_PREEMPT, BF_CPU_LIB,
       BF_CPU_PROV, BF_N };

/* Returns this rank's mean pure latency (seconds). */
double bench_pure_phase(const bench_xchg_t *x, int skip, int iters, double f[BF_N]);
void bench_osu_phase(const bench_xchg_t *x, double pure, int skip, int iters, double f[BF_N]);
/* Each overlapped run follows a run of the same work alone; its CPU is
 * split into the library's own (its threads, the caller inside start,
 * test and wait) and every other thread's (threads.h). */
void bench_work_phase(const bench_xchg_t *x, double units, int skip, int iters, double f[BF_N]);

/* Sums over iters to us per operation (preemptions per start); the work
 * alone against the same units at rate_idle steps per second. */
void bench_per_operation(double f[BF_N], int iters, double units, double rate_idle);
/* The mean over the ranks of comm (errors: their sum), on every rank. */
void bench_rank_mean(double f[BF_N], MPI_Comm comm);
/* OSU's Overlap (%, clamped at 0) and the work-based one (%). */
double bench_osu_overlap(const double f[BF_N]);
double bench_work_overlap(const double f[BF_N]);

/* ------------------------------------------------------- application loop */

#define BENCH_APP_MAX_BLOCKS 101

typedef struct bench_app {
    int n, blocks;             /* in: iterations per block, blocks per kind */
    double min_time;           /* in: at least this long per block (s)   */
    double ref_s;              /* in: the compute's length (0: this run's exchange) */
    double comp, exch, block, ovl; /* out: us per iteration, medians     */
    double hidden, nb_vs_blocking, comp_vs_idle;
    int ref;                   /* out: the compute's length came from ref_s */
} bench_app_t;

/* probe: one exchange's seconds (the slowest rank's); rate, rate_idle:
 * work steps per second after and before MPI_Init. */
void bench_app_loop(const bench_xchg_t *x, double probe, double rate, double rate_idle,
                    bench_app_t *a);

/* The largest v over the ranks of x->comm. */
double bench_agree_max(MPI_Comm comm, double v);

#endif
