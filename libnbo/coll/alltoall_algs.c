/* alltoall_algs.c - the all-to-all(v) algorithm table (sched_algs.h). */
#include "../sched_algs.h"

/* Bruck saves messages at the price of local copies: worth it for small
 * blocks only. */
static int small_blocks(const nbo_sched_args_t *a)
{
    return a->sbytes[0] <= a->bruck_max;
}

/* Tried by NBO_TUNE up to 64 times NBO_BRUCK_MAX (16 KiB by default):
 * beyond, its log2(P) rounds of P/2 blocks cost more than the P - 1 - log2(P)
 * messages it saves (twice pairwise's time from 64 KiB per peer at 16
 * hosts, docs/benchmarks.md), and a trial start given to it is one less
 * for warming the others up. */
static int small_enough_to_try(const nbo_sched_args_t *a)
{
    return a->sbytes[0] <= 64 * a->bruck_max;
}

const nbo_sched_alg_t nbo_alltoall_algs[] = {
    /* Forwards other ranks' blocks, so their sizes must be known; with two
     * ranks it is one exchange plus copies that pairwise does without.
     * Compressed blocks go pairwise: Bruck would re-encode forwarded data
     * at every round and add the codec's error once per hop.  Its rounds
     * are one message each way: no window. */
    {.id = NBO_ALG_BRUCK, .compile = nbo_compile_bruck, .uniform_only = 1, .min_ranks = 3,
     .no_codec = 1, .no_window = 1, .auto_wants = small_blocks,
     .tune_wants = small_enough_to_try},
    /* Any peer lists: a neighbourhood exchange is pairwise over its lists. */
    {.id = NBO_ALG_PAIRWISE, .compile = nbo_compile_pairwise, .min_ranks = 1, .peer_lists = 1},
    {.compile = NULL},
};
