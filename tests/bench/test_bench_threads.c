/*
 * test_bench_threads.c - nbo_bench's CPU time per thread
 * (bench/common/threads.c): a thread named like libnbo's progress thread
 * counts as the library's own, an unnamed one as someone else's, and the
 * caller's own CPU counts as neither.  No MPI at run time.
 */
#define _GNU_SOURCE /* pthread_setname_np */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "threads.h"

static void burn(double seconds)
{
    double t0 = thread_cpu_s();
    while (thread_cpu_s() - t0 < seconds)
        ;
}

typedef struct {
    double seconds;
    pthread_barrier_t *go, *done;
} job_t;

/* Waits for `go`, burns its CPU, waits for `done` (so that the second
 * snapshot still sees it), then ends. */
static void *worker(void *arg)
{
    job_t *j = arg;
    pthread_barrier_wait(j->go);
    burn(j->seconds);
    pthread_barrier_wait(j->done);
    pthread_barrier_wait(j->go);
    return NULL;
}

static void test_split_by_name(void **state)
{
    (void)state;
    pthread_barrier_t go, done;
    pthread_barrier_init(&go, NULL, 3);
    pthread_barrier_init(&done, NULL, 3);
    job_t own = {0.08, &go, &done}, other = {0.04, &go, &done};
    pthread_t t_own, t_other;
    assert_int_equal(pthread_create(&t_own, NULL, worker, &own), 0);
    assert_int_equal(pthread_create(&t_other, NULL, worker, &other), 0);
    pthread_setname_np(t_own, "nbo-progress");

    static threads_t a, b;
    threads_snapshot(&a);
    assert_true(a.n >= 2);
    pthread_barrier_wait(&go);
    burn(0.1); /* the caller's: neither column */
    pthread_barrier_wait(&done);
    threads_snapshot(&b);
    pthread_barrier_wait(&go);
    pthread_join(t_own, NULL);
    pthread_join(t_other, NULL);

    double lib = 0, prov = 0;
    threads_delta(&a, &b, &lib, &prov);
    /* Each burned its amount by its own clock; a tick of slack. */
    assert_true(lib >= 0.08 && lib < 0.08 + 0.02);
    assert_true(prov >= 0.04 && prov < 0.04 + 0.02);
}

/* The ceiling's exchange thread is the row's own too; a thread born
 * between the snapshots counts from zero. */
static void test_exchange_thread_born_between(void **state)
{
    (void)state;
    pthread_barrier_t go, done;
    pthread_barrier_init(&go, NULL, 2);
    pthread_barrier_init(&done, NULL, 2);
    job_t job = {0.05, &go, &done};
    static threads_t a, b;
    threads_snapshot(&a);
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, worker, &job), 0);
    pthread_setname_np(t, THREADS_EXCHANGE_NAME);
    pthread_barrier_wait(&go);
    pthread_barrier_wait(&done);
    threads_snapshot(&b);
    pthread_barrier_wait(&go);
    pthread_join(t, NULL);
    double lib = 0, prov = 0;
    threads_delta(&a, &b, &lib, &prov);
    assert_true(lib >= 0.05 && lib < 0.05 + 0.02);
    assert_true(prov < 0.01);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_by_name),
        cmocka_unit_test(test_exchange_thread_born_between),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
