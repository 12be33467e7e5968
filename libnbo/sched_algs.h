/*
 * sched_algs.h - the algorithm tables: each collective's compilers and the
 * conditions under which each one may run and AUTO picks it (the tables
 * live with their families: libnbo/coll/alltoall_algs.c and the like).
 *
 * One table per collective (an algorithm id such as Bruck may serve several
 * collectives, with a compiler for each), listed in the order AUTO tries
 * them and ended by an entry with no compile function.  The last real entry
 * is the fallback: it must compile every valid call.  Names stay with the
 * ids (nbo_algorithm_name), as NBO_ALGORITHM parses them for all collectives.
 */
#ifndef NBO_SCHED_ALGS_H
#define NBO_SCHED_ALGS_H

#include "sched_build.h"

/* Appends the call's tasks to b; NBO_SUCCESS or an error code. */
typedef int (*nbo_sched_compile_fn)(const nbo_sched_args_t *a, sched_build_t *b);

typedef struct nbo_sched_alg {
    nbo_algorithm_t      id;
    nbo_sched_compile_fn compile;
    int                  uniform_only; /* needs every block the same size */
    int                  min_ranks;    /* fewer ranks: not worth it, even on request */
    int                  pow2_only;    /* needs P a power of two */
    int                  commutative_only; /* reductions: needs a commutative op */
    int                  no_codec;     /* not with compressed blocks (codec/) */
    int                  peer_lists;   /* compiles any peer lists, not only
                                          every rank in order (schedule.h) */
    int                  no_window;    /* its list is the same whatever the window */
    /* AUTO takes a fitting entry when this says so; NULL: always. */
    int                (*auto_wants)(const nbo_sched_args_t *a);
    /* NBO_TUNE tries a fitting entry when this says so; NULL: always. */
    int                (*tune_wants)(const nbo_sched_args_t *a);
} nbo_sched_alg_t;

/* Each family's table, in its folder libnbo/coll/ (alltoall and alltoallv
 * share one); a call names its own in nbo_sched_args_t.algs. */
extern const nbo_sched_alg_t nbo_alltoall_algs[];
extern const nbo_sched_alg_t nbo_allgather_algs[];
extern const nbo_sched_alg_t nbo_bcast_algs[];
extern const nbo_sched_alg_t nbo_allreduce_algs[];
extern const nbo_sched_alg_t nbo_reduce_scatter_block_algs[];
extern const nbo_sched_alg_t nbo_neighbor_algs[];
extern const nbo_sched_alg_t nbo_barrier_algs[];
extern const nbo_sched_alg_t nbo_reduce_algs[];
extern const nbo_sched_alg_t nbo_gather_algs[];
extern const nbo_sched_alg_t nbo_scatter_algs[];
extern const nbo_sched_alg_t nbo_scan_algs[];
extern const nbo_sched_alg_t nbo_reduce_scatter_algs[];

/* A reduce's arguments, for both its compilers: NBO_ERR_ROOT, _ARG (no
 * whole elements) or _OVERFLOW, else NBO_SUCCESS. */
int nbo_reduce_check(const nbo_sched_args_t *a);

/* The compilers. */
int nbo_compile_pairwise(const nbo_sched_args_t *a, sched_build_t *b);
int nbo_compile_bruck(const nbo_sched_args_t *a, sched_build_t *b);
int nbo_compile_allgather_ring(const nbo_sched_args_t *a, sched_build_t *b);
int nbo_compile_allgather_rd(const nbo_sched_args_t *a, sched_build_t *b);
int nbo_compile_allgather_bruck(const nbo_sched_args_t *a, sched_build_t *b);
int nbo_compile_bcast_binomial(const nbo_sched_args_t *a, sched_build_t *b);
int nbo_compile_bcast_scatter_allgather(const nbo_sched_args_t *a, sched_build_t *b);
int nbo_compile_allreduce_rd(const nbo_sched_args_t *a, sched_build_t *b);
int nbo_compile_allreduce_rabenseifner(const nbo_sched_args_t *a, sched_build_t *b);
int nbo_compile_allreduce_ring(const nbo_sched_args_t *a, sched_build_t *b);
int nbo_compile_reduce_scatter_pairwise(const nbo_sched_args_t *a, sched_build_t *b);
int nbo_compile_reduce_scatter_halving(const nbo_sched_args_t *a, sched_build_t *b);
int nbo_compile_barrier_dissemination(const nbo_sched_args_t *a, sched_build_t *b);
int nbo_compile_reduce_binomial(const nbo_sched_args_t *a, sched_build_t *b);
int nbo_compile_reduce_rabenseifner(const nbo_sched_args_t *a, sched_build_t *b);
int nbo_compile_gather_binomial(const nbo_sched_args_t *a, sched_build_t *b);
int nbo_compile_gather_linear(const nbo_sched_args_t *a, sched_build_t *b);
int nbo_compile_scatter_binomial(const nbo_sched_args_t *a, sched_build_t *b);
int nbo_compile_scatter_linear(const nbo_sched_args_t *a, sched_build_t *b);
int nbo_compile_scan_rd(const nbo_sched_args_t *a, sched_build_t *b);

#endif
