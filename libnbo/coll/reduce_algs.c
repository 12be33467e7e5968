/* reduce_algs.c - the reductions' algorithm tables (sched_algs.h). */
#include "../sched_algs.h"

/* Allreduce: the whole vector (rbytes[0]). */
static int small_vector(const nbo_sched_args_t *a) { return a->rbytes[0] <= a->small_max; }

/* Rabenseifner's fold costs two whole-vector transfers that the ring does
 * without: AUTO takes it for powers of two. */
static int pow2_ranks(const nbo_sched_args_t *a) { return sched_is_pow2(a->size); }

/* Small: recursive doubling (keeps rank order, any op).  Large and
 * commutative: Rabenseifner on powers of two, else the ring.  Large and
 * non-commutative: ORDERED, the same order-keeping recursive doubling. */
const nbo_sched_alg_t nbo_allreduce_algs[] = {
    {.id = NBO_ALG_RECURSIVE_DOUBLING, .compile = nbo_compile_allreduce_rd, .min_ranks = 1,
     .auto_wants = small_vector},
    {.id = NBO_ALG_RABENSEIFNER, .compile = nbo_compile_allreduce_rabenseifner, .min_ranks = 1,
     .commutative_only = 1, .auto_wants = pow2_ranks},
    {.id = NBO_ALG_RING, .compile = nbo_compile_allreduce_ring, .min_ranks = 1,
     .commutative_only = 1},
    {.id = NBO_ALG_ORDERED, .compile = nbo_compile_allreduce_rd, .min_ranks = 1},
    {.compile = NULL},
};

/* Recursive halving where it applies (log2 P messages), else pairwise. */
const nbo_sched_alg_t nbo_reduce_scatter_block_algs[] = {
    {.id = NBO_ALG_RECURSIVE_HALVING, .compile = nbo_compile_reduce_scatter_halving,
     .min_ranks = 1, .pow2_only = 1, .commutative_only = 1},
    {.id = NBO_ALG_PAIRWISE, .compile = nbo_compile_reduce_scatter_pairwise, .min_ranks = 1},
    {.compile = NULL},
};

/* Reduce: above small_max (NBO_REDUCE_LARGE) the whole vector's log2 P
 * hops cost more than Rabenseifner's two passes of half-vectors. */
static int large_vector(const nbo_sched_args_t *a) { return a->rbytes[0] > a->small_max; }

/* Reduce to a root: Rabenseifner for long vectors and commutative ops,
 * else the binomial tree, order kept for any op. */
const nbo_sched_alg_t nbo_reduce_algs[] = {
    {.id = NBO_ALG_RABENSEIFNER, .compile = nbo_compile_reduce_rabenseifner, .min_ranks = 1,
     .commutative_only = 1, .auto_wants = large_vector},
    {.id = NBO_ALG_BINOMIAL, .compile = nbo_compile_reduce_binomial, .min_ranks = 1},
    {.compile = NULL},
};

/* Scan and exscan: recursive doubling, rank order kept for any op. */
const nbo_sched_alg_t nbo_scan_algs[] = {
    {.id = NBO_ALG_RECURSIVE_DOUBLING, .compile = nbo_compile_scan_rd, .min_ranks = 1},
    {.compile = NULL},
};

/* Reduce-scatter, blocks of any size: pairwise, combined in rank order. */
const nbo_sched_alg_t nbo_reduce_scatter_algs[] = {
    {.id = NBO_ALG_PAIRWISE, .compile = nbo_compile_reduce_scatter_pairwise, .min_ranks = 1},
    {.compile = NULL},
};
