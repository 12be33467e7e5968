/* barrier_algs.c - the barrier's algorithm table (sched_algs.h). */
#include "../sched_algs.h"

const nbo_sched_alg_t nbo_barrier_algs[] = {
    {.id = NBO_ALG_DISSEMINATION, .compile = nbo_compile_barrier_dissemination, .min_ranks = 1},
    {.compile = NULL},
};
