/* neighbor_algs.c - the neighbourhood collectives' algorithm table
 * (sched_algs.h): pairwise over the neighbour lists, receives posted
 * first, sends W at a time. */
#include "../sched_algs.h"

const nbo_sched_alg_t nbo_neighbor_algs[] = {
    {.id = NBO_ALG_PAIRWISE, .compile = nbo_compile_pairwise, .min_ranks = 1, .peer_lists = 1},
    {.compile = NULL},
};
