/* busy.c - clocks and the busy compute of the benchmarks (busy.h). */
#include "busy.h"

#include <time.h>
#include <unistd.h>

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

static volatile double sink;

void busy_work(long steps)
{
    double x = 1.0, y = 0.5;
    for (long i = 0; i < steps; i++) {
        x = x * 0.999999 + y;
        y = y * 0.999998 + 1e-9;
    }
    sink = x + y;
}

double busy_calibrate(void)
{
    double best = 0;
    long steps = 1 << 20;
    busy_work(steps); /* warm up the frequency governor */
    for (int rep = 0; rep < 11; rep++) {
        /* Spread over ~40 ms, so that a burst of another process (a peer
         * rank starting up) cannot cover every run. */
        if (rep)
            usleep(2000);
        double t0 = now_s();
        busy_work(steps);
        double dt = now_s() - t0;
        if (dt > 0 && steps / dt > best)
            best = steps / dt;
    }
    return best;
}

static double timed_poll(busy_poll_fn poll, void *arg)
{
    double t0 = now_s();
    poll(arg);
    return now_s() - t0;
}

double busy_for_time(double seconds, int polls, busy_poll_fn poll, void *arg)
{
    int slices = polls > 0 ? polls : 1;
    double poll_time = 0, slice = seconds / slices;
    for (int s = 0; s < slices; s++) {
        double t0 = now_s();
        while (now_s() - t0 < slice)
            busy_work(256);
        if (polls > 0 && poll)
            poll_time += timed_poll(poll, arg);
    }
    return poll_time;
}

double busy_for_work(double units, int polls, busy_poll_fn poll, void *arg)
{
    int slices = polls > 0 ? polls : 1;
    long per_slice = (long)(units / slices);
    double poll_time = 0;
    for (int s = 0; s < slices; s++) {
        busy_work(per_slice);
        if (polls > 0 && poll)
            poll_time += timed_poll(poll, arg);
    }
    return poll_time;
}
