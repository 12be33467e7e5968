/* loops.c - the timing loops of the benchmarks (loops.h). */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include "loops.h"
#include "stats.h"
#include "threads.h"

#include <math.h>
#include <stddef.h>
#include <sys/resource.h>

#define MAX_ITERS 1000000 /* the most iterations of an application-loop block */

/* A test call through the backend, its caller's CPU counted: the work
 * phase charges it to the library. */
typedef struct {
    const bench_xchg_t *x;
    double cpu;
} tester_t;

static void test_once(void *arg)
{
    tester_t *t = arg;
    double c0 = thread_cpu_s();
    t->x->test(t->x->ctx);
    t->cpu += thread_cpu_s() - c0;
}

static double compute_for_time(const bench_xchg_t *x, double seconds, tester_t *t)
{
    return busy_for_time(seconds, x->tests, x->test ? test_once : NULL, t);
}

static double compute_work(const bench_xchg_t *x, double units, tester_t *t)
{
    return busy_for_work(units, x->tests, t && x->test ? test_once : NULL, t);
}

static void call(const bench_xchg_t *x, int (*fn)(void *), const char *what)
{
    int rc = fn(x->ctx);
    if (rc != 0)
        x->fail(x, what, rc);
}

static void exchange_once(const bench_xchg_t *x)
{
    if (x->once) {
        call(x, x->once, "exchange");
        return;
    }
    call(x, x->start, "start");
    call(x, x->wait, "wait");
}

/* Times the calling thread was preempted so far: a start call that wakes a
 * thread which then takes the caller's core pays for it in Init. */
static long preempted(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_THREAD, &ru) == 0 ? ru.ru_nivcsw : 0;
}

double bench_pure_phase(const bench_xchg_t *x, int skip, int iters, double f[BF_N])
{
    for (int i = 0; i < skip + iters; i++) {
        call(x, x->sync, "barrier");
        /* The CPU clock is a system call: read outside the timed part. */
        double c0 = cpu_s(), t0 = now_s();
        exchange_once(x);
        double t1 = now_s(), c1 = cpu_s();
        if (i >= skip)
            f[BF_PURE] += t1 - t0, f[BF_CPU_PURE] += c1 - c0;
    }
    return f[BF_PURE] / iters;
}

/* OSU: compute for as long as this rank's pure latency, by the clock. */
void bench_osu_phase(const bench_xchg_t *x, double pure, int skip, int iters, double f[BF_N])
{
    tester_t t = {.x = x};
    for (int i = 0; i < skip + iters; i++) {
        call(x, x->sync, "barrier");
        long p0 = preempted();
        double t0 = now_s();
        call(x, x->start, "start");
        double t1 = now_s();
        long p1 = preempted();
        double test = compute_for_time(x, pure, &t);
        double t2 = now_s();
        call(x, x->wait, "wait");
        double t3 = now_s();
        if (i >= skip) {
            f[BF_OVERALL] += t3 - t0, f[BF_INIT] += t1 - t0;
            f[BF_START_PREEMPT] += (double)(p1 - p0);
            f[BF_COMPUTE] += t2 - t1 - test, f[BF_TEST] += test, f[BF_WAIT] += t3 - t2;
        }
    }
}

/* The thread snapshots are taken outside the timed part. */
void bench_work_phase(const bench_xchg_t *x, double units, int skip, int iters, double f[BF_N])
{
    static threads_t th0, th1;
    tester_t t = {.x = x};
    for (int i = 0; i < skip + iters; i++) {
        call(x, x->sync, "barrier");
        double t0 = now_s();
        compute_work(x, units, NULL);
        double alone = now_s() - t0;
        call(x, x->sync, "barrier");
        threads_snapshot(&th0);
        double tests0 = t.cpu;
        t0 = now_s();
        double c0 = cpu_s(), k0 = thread_cpu_s();
        call(x, x->start, "start");
        double k1 = thread_cpu_s();
        compute_work(x, units, &t);
        double k2 = thread_cpu_s();
        call(x, x->wait, "wait");
        double k3 = thread_cpu_s(), t1 = now_s(), c1 = cpu_s();
        threads_snapshot(&th1);
        if (i >= skip) {
            f[BF_WORK_OVERALL] += t1 - t0, f[BF_CPU_WORK] += c1 - c0;
            f[BF_ALONE] += alone;
            f[BF_CPU_LIB] += k1 - k0 + k3 - k2 + t.cpu - tests0;
            threads_delta(&th0, &th1, &f[BF_CPU_LIB], &f[BF_CPU_PROV]);
        }
    }
}

void bench_per_operation(double f[BF_N], int iters, double units, double rate_idle)
{
    for (int i = 0; i < BF_N; i++)
        if (i == BF_START_PREEMPT)
            f[i] /= iters;
        else if (i != BF_ERRORS && i != BF_ALONE_VS_IDLE)
            f[i] = f[i] * 1e6 / iters;
    f[BF_ALONE_VS_IDLE] =
        units > 0 && rate_idle > 0 ? f[BF_ALONE] * 1e-6 / (units / rate_idle) : 0;
}

void bench_rank_mean(double f[BF_N], MPI_Comm comm)
{
    int nprocs;
    MPI_Comm_size(comm, &nprocs);
    MPI_Allreduce(MPI_IN_PLACE, f, BF_N, MPI_DOUBLE, MPI_SUM, comm);
    for (int i = 0; i < BF_N; i++)
        if (i != BF_ERRORS)
            f[i] /= nprocs;
}

double bench_osu_overlap(const double f[BF_N])
{
    if (f[BF_PURE] <= 0)
        return 0;
    double o = 100.0 - 100.0 * (f[BF_OVERALL] - f[BF_COMPUTE]) / f[BF_PURE];
    return o > 0 ? o : 0; /* OSU clamps at 0 */
}

double bench_work_overlap(const double f[BF_N])
{
    return f[BF_PURE] > 0 ? 100.0 * (1.0 - (f[BF_WORK_OVERALL] - f[BF_ALONE]) / f[BF_PURE]) : 0;
}

double bench_agree_max(MPI_Comm comm, double v)
{
    MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_MAX, comm);
    return v;
}

/* ------------------------------------------------------- application loop */

enum { K_COMPUTE, K_EXCHANGE, K_BLOCKING, K_OVERLAPPED, K_N };

static void run_block(const bench_xchg_t *x, int kind, int n, long units)
{
    for (int i = 0; i < n; i++) {
        switch (kind) {
        case K_COMPUTE:
            busy_work(units);
            break;
        case K_EXCHANGE:
            call(x, x->start, "start");
            call(x, x->wait, "wait");
            break;
        case K_BLOCKING:
            call(x, x->blocking, "blocking call");
            break;
        default:
            call(x, x->start, "start");
            busy_work(units);
            call(x, x->wait, "wait");
            break;
        }
    }
}

/* At least min_time per block: n iterations, or more of iter seconds. */
static int block_iters(int n, double min_time, double iter)
{
    if (min_time > 0 && iter > 0 && min_time / iter > n)
        return min_time / iter < MAX_ITERS ? (int)ceil(min_time / iter) : MAX_ITERS;
    return n;
}

/* Blocks of each kind in rotating order, so that a shared machine's drift
 * falls on all kinds alike; medians. */
void bench_app_loop(const bench_xchg_t *x, double probe, double rate, double rate_idle,
                    bench_app_t *a)
{
    int n = block_iters(a->n, a->min_time, probe);
    const int R = a->blocks < BENCH_APP_MAX_BLOCKS ? a->blocks : BENCH_APP_MAX_BLOCKS;

    /* The compute lasts as long as this loop's own exchange: a block of
     * them back to back (after one of each form), the slowest rank's time
     * per iteration; or as long as the reference. */
    call(x, x->sync, "barrier");
    run_block(x, K_EXCHANGE, 1, 0);
    call(x, x->sync, "barrier");
    run_block(x, K_BLOCKING, 1, 0);
    call(x, x->sync, "barrier");
    double t_cal = now_s();
    run_block(x, K_EXCHANGE, n, 0);
    double exch = bench_agree_max(x->comm, (now_s() - t_cal) / n);
    /* The same work in every configuration: at the core's best measured
     * speed, not at a calibration that something else disturbed. */
    double core_rate = rate > rate_idle ? rate : rate_idle;
    long units = (long)((a->ref_s > 0 ? a->ref_s : exch) * core_rate);
    if (units < 1)
        units = 1;
    a->ref = a->ref_s > 0;
    /* An overlapped iteration lasts at least as long as the exchange and
     * as the compute (the probe may have been far shorter than the
     * reference's compute). */
    n = block_iters(a->n, a->min_time, exch > a->ref_s ? exch : a->ref_s);
    a->n = n, a->blocks = R;
    call(x, x->sync, "barrier");
    run_block(x, K_COMPUTE, 1, units);
    call(x, x->sync, "barrier");
    run_block(x, K_OVERLAPPED, 1, units);

    double t[K_N][BENCH_APP_MAX_BLOCKS], own_comp[BENCH_APP_MAX_BLOCKS];
    for (int b = 0; b < R; b++)
        for (int j = 0; j < K_N; j++) {
            int k = (j + b) % K_N;
            call(x, x->sync, "barrier");
            double t0 = now_s();
            run_block(x, k, n, units);
            double dt = (now_s() - t0) / n;
            if (k == K_COMPUTE)
                own_comp[b] = dt;
            t[k][b] = bench_agree_max(x->comm, dt);
        }
    a->comp = bench_median(t[K_COMPUTE], R) * 1e6;
    a->exch = bench_median(t[K_EXCHANGE], R) * 1e6;
    a->block = bench_median(t[K_BLOCKING], R) * 1e6;
    a->ovl = bench_median(t[K_OVERLAPPED], R) * 1e6;
    a->hidden = a->exch > 0 ? 100.0 * (a->comp + a->exch - a->ovl) / a->exch : 0;
    a->nb_vs_blocking = a->block > 0 ? a->exch / a->block : 0;
    /* The work alone against the same work on an idle core (before
     * MPI_Init): above 1, something else took this rank's core. */
    a->comp_vs_idle = bench_agree_max(
        x->comm, rate_idle > 0 ? bench_median(own_comp, R) / (units / rate_idle) : 0);
}
