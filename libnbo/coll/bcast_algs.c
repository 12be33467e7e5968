/* bcast_algs.c - the broadcast algorithm table (sched_algs.h). */
#include "../sched_algs.h"

/* Scatter + allgather pays P-1 extra steps: large vectors, P > 2 only. */
static int large_bcast(const nbo_sched_args_t *a)
{
    return a->rbytes[0] > a->small_max && a->size > 2;
}

const nbo_sched_alg_t nbo_bcast_algs[] = {
    {.id = NBO_ALG_SCATTER_ALLGATHER, .compile = nbo_compile_bcast_scatter_allgather,
     .min_ranks = 1, .auto_wants = large_bcast},
    {.id = NBO_ALG_BINOMIAL, .compile = nbo_compile_bcast_binomial, .min_ranks = 1},
    {.compile = NULL},
};
