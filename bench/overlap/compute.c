/* compute.c - the application's compute: by time (OSU) or by amount of
 * work, with the method's test calls spread over it.  The clocks and the
 * work itself are bench/common/busy.c, shared with bench/osu. */
#include "bench.h"

static double test_cpu; /* the caller's CPU inside test calls, seconds */

double compute_test_cpu(void)
{
    return test_cpu;
}

/* One test call (its time is measured by busy_for_*, its CPU here). */
static void test_once(void *arg)
{
    int done;
    double c0 = thread_cpu_s();
    method_test(arg, &done);
    test_cpu += thread_cpu_s() - c0;
}

double compute_calibrate(void)
{
    return busy_calibrate();
}

double compute_for_time(double seconds, method_t *m, int tests)
{
    return busy_for_time(seconds, tests, m ? test_once : NULL, m);
}

double compute_work(double units, method_t *m, int tests)
{
    return busy_for_work(units, tests, m ? test_once : NULL, m);
}
