/* compute.c - the application's compute: by time (OSU) or by amount of work. */
#include "bench.h"

#include <time.h>

/* A monotonic clock, as MPI_Wtime, but usable before MPI_Init (the idle
 * core's speed is measured there). */
double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The work: a dependent floating-point recurrence in registers, so its speed
 * depends on the core it gets and not on memory.  One unit = one step. */
static volatile double sink;

static void work(long steps)
{
    double x = 1.0, y = 0.5;
    for (long i = 0; i < steps; i++) {
        x = x * 0.999999 + y;
        y = y * 0.999998 + 1e-9;
    }
    sink = x + y;
}

double compute_calibrate(void)
{
    /* Best of several runs: the least disturbed one is the core's speed. */
    double best = 0;
    long steps = 1 << 20;
    work(steps); /* warm up the frequency governor */
    for (int rep = 0; rep < 7; rep++) {
        double t0 = now_s();
        work(steps);
        double dt = now_s() - t0;
        if (dt > 0 && steps / dt > best)
            best = steps / dt;
    }
    return best;
}

/* One test call, timed. */
static double timed_test(method_t *m)
{
    if (!m)
        return 0;
    int done;
    double t0 = now_s();
    method_test(m, &done);
    return now_s() - t0;
}

double compute_for_time(double seconds, method_t *m, int tests)
{
    /* As OSU's dummy compute: `tests` slices, a test call after each. */
    int slices = tests > 0 ? tests : 1;
    double test_time = 0, slice = seconds / slices;
    for (int s = 0; s < slices; s++) {
        double t0 = now_s();
        while (now_s() - t0 < slice)
            work(256);
        if (tests > 0)
            test_time += timed_test(m);
    }
    return test_time;
}

double compute_work(double units, method_t *m, int tests)
{
    int slices = tests > 0 ? tests : 1;
    long per_slice = (long)(units / slices);
    double test_time = 0;
    for (int s = 0; s < slices; s++) {
        work(per_slice);
        if (tests > 0)
            test_time += timed_test(m);
    }
    return test_time;
}
