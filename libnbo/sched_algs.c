/* sched_algs.c - the algorithm tables (see sched_algs.h). */
#include "sched_algs.h"

/* Bruck saves messages at the price of local copies: worth it for small
 * blocks only. */
static int small_blocks(const nbo_sched_args_t *a)
{
    return a->sbytes[0] <= a->bruck_max;
}

const nbo_sched_alg_t *nbo_sched_algs(nbo_coll_t coll)
{
    switch (coll) {
    case NBO_COLL_ALLTOALLV:
    case NBO_COLL_ALLTOALL:
        return nbo_alltoall_algs;
    default:
        return NULL;
    }
}

const nbo_sched_alg_t nbo_alltoall_algs[] = {
    /* Forwards other ranks' blocks, so their sizes must be known; with two
     * ranks it is one exchange plus copies that pairwise does without. */
    {.id = NBO_ALG_BRUCK, .compile = nbo_compile_bruck, .uniform_only = 1, .min_ranks = 3,
     .auto_wants = small_blocks},
    {.id = NBO_ALG_PAIRWISE, .compile = nbo_compile_pairwise, .min_ranks = 1},
    {.compile = NULL},
};
