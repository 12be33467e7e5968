/* clock.c - the one clock of timeouts and deadlines. */
#include "util.h"

#include <time.h>

double nbo_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
