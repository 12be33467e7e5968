/* alltoall_algs.c - the all-to-all(v) algorithm table (sched_algs.h). */
#include "../sched_algs.h"

/* Bruck saves messages at the price of local copies: worth it for small
 * blocks only. */
static int small_blocks(const nbo_sched_args_t *a)
{
    return a->sbytes[0] <= a->bruck_max;
}

const nbo_sched_alg_t nbo_alltoall_algs[] = {
    /* Forwards other ranks' blocks, so their sizes must be known; with two
     * ranks it is one exchange plus copies that pairwise does without.
     * Compressed blocks go pairwise: Bruck would re-encode forwarded data
     * at every round and add the codec's error once per hop.  Its rounds
     * are one message each way: no window. */
    {.id = NBO_ALG_BRUCK, .compile = nbo_compile_bruck, .uniform_only = 1, .min_ranks = 3,
     .no_codec = 1, .no_window = 1, .auto_wants = small_blocks},
    /* Any peer lists: a neighbourhood exchange is pairwise over its lists. */
    {.id = NBO_ALG_PAIRWISE, .compile = nbo_compile_pairwise, .min_ranks = 1, .peer_lists = 1},
    {.compile = NULL},
};
