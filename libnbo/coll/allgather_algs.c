/* allgather_algs.c - the allgather(v) algorithm table (sched_algs.h). */
#include "../sched_algs.h"

/* Every block together, as the latency-bound test. */
static int small_total(const nbo_sched_args_t *a)
{
    size_t t = 0;
    for (int i = 0; i < a->size; i++)
        t += a->rbytes[i];
    return t <= a->small_max;
}

/* Allgather and allgatherv alike (each compiler moves blocks of any
 * size).  Small totals: log2 P rounds (recursive doubling on powers of two, Bruck
 * otherwise); large: the ring, bandwidth-optimal and the fallback. */
const nbo_sched_alg_t nbo_allgather_algs[] = {
    {.id = NBO_ALG_RECURSIVE_DOUBLING, .compile = nbo_compile_allgather_rd, .min_ranks = 1,
     .pow2_only = 1, .auto_wants = small_total},
    {.id = NBO_ALG_BRUCK, .compile = nbo_compile_allgather_bruck, .min_ranks = 1,
     .auto_wants = small_total},
    {.id = NBO_ALG_RING, .compile = nbo_compile_allgather_ring, .min_ranks = 1},
    {.compile = NULL},
};
