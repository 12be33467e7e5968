/* compute.c - the application's compute: by time (OSU) or by amount of
 * work, with the method's test calls spread over it.  The clocks and the
 * work itself are bench/common/busy.c, shared with bench/osu. */
#include "bench.h"

/* One test call (its time is measured by busy_for_*). */
static void test_once(void *arg)
{
    int done;
    method_test(arg, &done);
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
