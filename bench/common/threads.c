/*
 * threads.c - CPU time of the process's threads, one by one, split into
 * the collective library's own (its progress thread, named "nbo-progress",
 * or the ceiling's exchange thread) and everyone else's (a provider's
 * progress thread, UCX's or MPICH's async threads).  The calling thread
 * is neither: its compute is the application's, and its time inside the
 * library's calls is counted by the work phase (loops.c).
 *
 * Each thread's clock is the kernel's per-thread CPU clock, read by thread
 * id from /proc/self/task: threads the benchmark did not create have no
 * pthread_t to ask pthread_getcpuclockid for.
 */
#define _GNU_SOURCE /* gettid */
#include "threads.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The clock id Linux gives a thread's CPU time (what glibc's
 * pthread_getcpuclockid builds): CPUCLOCK_SCHED | CPUCLOCK_PERTHREAD. */
static clockid_t tid_clock(pid_t tid)
{
    return (clockid_t)((~(unsigned)tid << 3) | 6u);
}

/* Fallback where the clock is refused: schedstat's first field, the
 * nanoseconds run (updated at the thread's last tick or switch). */
static double schedstat_s(pid_t tid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%d/schedstat", (int)tid);
    FILE *f = fopen(path, "r");
    unsigned long long ns = 0;
    if (f) {
        if (fscanf(f, "%llu", &ns) != 1)
            ns = 0;
        fclose(f);
    }
    return (double)ns * 1e-9;
}

static int is_own(pid_t tid)
{
    char path[64], comm[32] = "";
    snprintf(path, sizeof path, "/proc/self/task/%d/comm", (int)tid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    if (!fgets(comm, sizeof comm, f))
        comm[0] = '\0';
    fclose(f);
    comm[strcspn(comm, "\n")] = '\0';
    return strcmp(comm, "nbo-progress") == 0 || strcmp(comm, THREADS_EXCHANGE_NAME) == 0;
}

void threads_snapshot(threads_t *t)
{
    pid_t self = gettid();
    t->n = 0;
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) && t->n < BENCH_MAX_THREADS) {
        pid_t tid = (pid_t)atoi(e->d_name);
        if (tid <= 0 || tid == self)
            continue;
        struct timespec ts;
        double cpu = clock_gettime(tid_clock(tid), &ts) == 0 ? (double)ts.tv_sec + ts.tv_nsec * 1e-9
                                                              : schedstat_s(tid);
        t->tid[t->n] = tid;
        t->cpu[t->n] = cpu;
        t->own[t->n] = is_own(tid);
        t->n++;
    }
    closedir(d);
}

void threads_delta(const threads_t *a, const threads_t *b, double *own, double *other)
{
    /* A thread born in between counts from zero; one that ended in
     * between is lost (its time cannot be read any more). */
    for (int i = 0; i < b->n; i++) {
        double before = 0;
        for (int j = 0; j < a->n; j++)
            if (a->tid[j] == b->tid[i]) {
                before = a->cpu[j];
                break;
            }
        double d = b->cpu[i] - before;
        if (d < 0)
            d = 0;
        if (b->own[i])
            *own += d;
        else
            *other += d;
    }
}
