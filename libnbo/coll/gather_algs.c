/* gather_algs.c - the gather and scatter algorithm tables (sched_algs.h):
 * the binomial tree for uniform blocks up to small_max bytes (log2 P
 * messages at the root, each byte forwarded up to log2 P times), linear
 * otherwise (P - 1 messages at the root, each byte moved once). */
#include "../sched_algs.h"

/* Gather: every rank's block is its own sbytes; scatter: its rbytes. */
static int small_gather(const nbo_sched_args_t *a) { return a->sbytes[a->rank] <= a->small_max; }
static int small_scatter(const nbo_sched_args_t *a) { return a->rbytes[a->rank] <= a->small_max; }

const nbo_sched_alg_t nbo_gather_algs[] = {
    {.id = NBO_ALG_BINOMIAL, .compile = nbo_compile_gather_binomial, .min_ranks = 1,
     .uniform_only = 1, .auto_wants = small_gather},
    {.id = NBO_ALG_LINEAR, .compile = nbo_compile_gather_linear, .min_ranks = 1},
    {.compile = NULL},
};

const nbo_sched_alg_t nbo_scatter_algs[] = {
    {.id = NBO_ALG_BINOMIAL, .compile = nbo_compile_scatter_binomial, .min_ranks = 1,
     .uniform_only = 1, .auto_wants = small_scatter},
    {.id = NBO_ALG_LINEAR, .compile = nbo_compile_scatter_linear, .min_ranks = 1},
    {.compile = NULL},
};
