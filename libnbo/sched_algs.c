/* sched_algs.c - the algorithm tables (see sched_algs.h). */
#include "sched_algs.h"

/* Bruck saves messages at the price of local copies: worth it for small
 * blocks only. */
static int small_blocks(const nbo_sched_args_t *a)
{
    return a->sbytes[0] <= a->bruck_max;
}

/* Allgather(v): every block together, as the latency-bound test. */
static int small_total(const nbo_sched_args_t *a)
{
    size_t t = 0;
    for (int i = 0; i < a->size; i++)
        t += a->rbytes[i];
    return t <= a->small_max;
}

/* Bcast and allreduce: the whole vector (rbytes[0]). */
static int small_vector(const nbo_sched_args_t *a) { return a->rbytes[0] <= a->small_max; }

/* Scatter + allgather pays P-1 extra steps: large vectors, P > 2 only. */
static int large_bcast(const nbo_sched_args_t *a)
{
    return a->rbytes[0] > a->small_max && a->size > 2;
}

/* Rabenseifner's fold costs two whole-vector transfers that the ring does
 * without: AUTO takes it for powers of two. */
static int pow2_ranks(const nbo_sched_args_t *a) { return sched_is_pow2(a->size); }

const nbo_sched_alg_t *nbo_sched_algs(nbo_coll_t coll)
{
    switch (coll) {
    case NBO_COLL_ALLTOALLV:
    case NBO_COLL_ALLTOALL:
        return nbo_alltoall_algs;
    case NBO_COLL_ALLGATHER:            return nbo_allgather_algs;
    case NBO_COLL_ALLGATHERV:           return nbo_allgatherv_algs;
    case NBO_COLL_BCAST:                return nbo_bcast_algs;
    case NBO_COLL_ALLREDUCE:            return nbo_allreduce_algs;
    case NBO_COLL_REDUCE_SCATTER_BLOCK: return nbo_reduce_scatter_block_algs;
    default:
        return NULL;
    }
}

const nbo_sched_alg_t nbo_alltoall_algs[] = {
    /* Forwards other ranks' blocks, so their sizes must be known; with two
     * ranks it is one exchange plus copies that pairwise does without.
     * Compressed blocks go pairwise: Bruck would re-encode forwarded data
     * at every round and add the codec's error once per hop. */
    {.id = NBO_ALG_BRUCK, .compile = nbo_compile_bruck, .uniform_only = 1, .min_ranks = 3,
     .no_codec = 1, .auto_wants = small_blocks},
    {.id = NBO_ALG_PAIRWISE, .compile = nbo_compile_pairwise, .min_ranks = 1},
    {.compile = NULL},
};

/* Small totals: log2 P rounds (recursive doubling on powers of two, Bruck
 * otherwise); large: the ring, bandwidth-optimal and the fallback. */
const nbo_sched_alg_t nbo_allgather_algs[] = {
    {.id = NBO_ALG_RECURSIVE_DOUBLING, .compile = nbo_compile_allgather_rd, .min_ranks = 1,
     .pow2_only = 1, .auto_wants = small_total},
    {.id = NBO_ALG_BRUCK, .compile = nbo_compile_allgather_bruck, .min_ranks = 1,
     .auto_wants = small_total},
    {.id = NBO_ALG_RING, .compile = nbo_compile_allgather_ring, .min_ranks = 1},
    {.compile = NULL},
};

/* The same compilers: each moves blocks of any size. */
const nbo_sched_alg_t nbo_allgatherv_algs[] = {
    {.id = NBO_ALG_RECURSIVE_DOUBLING, .compile = nbo_compile_allgather_rd, .min_ranks = 1,
     .pow2_only = 1, .auto_wants = small_total},
    {.id = NBO_ALG_BRUCK, .compile = nbo_compile_allgather_bruck, .min_ranks = 1,
     .auto_wants = small_total},
    {.id = NBO_ALG_RING, .compile = nbo_compile_allgather_ring, .min_ranks = 1},
    {.compile = NULL},
};

const nbo_sched_alg_t nbo_bcast_algs[] = {
    {.id = NBO_ALG_SCATTER_ALLGATHER, .compile = nbo_compile_bcast_scatter_allgather,
     .min_ranks = 1, .auto_wants = large_bcast},
    {.id = NBO_ALG_BINOMIAL, .compile = nbo_compile_bcast_binomial, .min_ranks = 1},
    {.compile = NULL},
};

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
