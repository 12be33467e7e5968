/*
 * test_schedule.c - the schedule compiler for P = 1..17, every rank, both
 * algorithms, several windows, contiguous or not, in place or not, uniform
 * and irregular counts: structural invariants (sched_check.h) of each rank's
 * list, then all ranks run together in the simulator (sched_sim.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sched_case.h"
#include "sched_coll.h"
#include "sched_check.h"
#include "sched_sim.h"
#include "../../libnbo/sched_algs.h"

static const int windows[] = {1, 2, 3, 8, 64};
#define NWINDOWS (int)(sizeof(windows) / sizeof(windows[0]))

/* One case: check each rank, then simulate them all. */
static void run_case(sched_case_t *c)
{
    char name[200];
    assert_int_equal(sched_case_build(c), 0);
    for (int r = 0; r < c->P; r++) {
        nbo_sched_args_t a = sched_case_args(c, r);
        nbo_sched_t s;
        int rc = nbo_sched_compile(&a, &s);
        if (rc != NBO_SUCCESS)
            fail_msg("%s: compile returned %s", sched_case_name(c, r, name, sizeof(name)),
                     nbo_strerror(rc));
        if (c->alltoallw && s.algorithm != NBO_ALG_PAIRWISE)
            fail_msg("%s: %s compiled, pairwise expected", sched_case_name(c, r, name, sizeof(name)),
                     nbo_algorithm_name(s.algorithm));
        if (c->algorithm == NBO_ALG_BRUCK && c->counts == COUNTS_UNIFORM && c->P > 2 &&
            !c->alltoallw && s.algorithm != NBO_ALG_BRUCK)
            fail_msg("%s: Bruck asked for, %s compiled", sched_case_name(c, r, name, sizeof(name)),
                     nbo_algorithm_name(s.algorithm));
        const char *err = sched_check(&a, &s);
        if (err) {
            fprintf(stderr, "task list of %s:\n", sched_case_name(c, r, name, sizeof(name)));
            nbo_sched_print(&s, stderr);
            nbo_sched_destroy(&s);
            fail_msg("%s: %s", name, err);
        }
        nbo_sched_destroy(&s);
    }
    const char *err = sched_simulate(c);
    if (err)
        fail_msg("simulation: %s", err);
    sched_case_free(c);
}

/* Every layout flag combination for one algorithm / counts kind (w: as
 * alltoallw). */
static int run_all_w(nbo_algorithm_t alg, counts_kind_t counts, const size_t *blocks, int nblocks,
                     int w_call)
{
    int n = 0;
    for (int P = 1; P <= 17; P++)
        for (int w = 0; w < NWINDOWS; w++)
            for (int flags = 0; flags < 8; flags++)
                for (int b = 0; b < nblocks; b++) {
                    sched_case_t c = {
                        .P = P,
                        .counts = counts,
                        .block = blocks[b],
                        .send_contig = !(flags & 1),
                        .recv_contig = !(flags & 2),
                        .in_place = !!(flags & 4),
                        .algorithm = alg,
                        .window = windows[w],
                        .bruck_max = 256,
                        .alltoallw = w_call,
                    };
                    run_case(&c);
                    n++;
                }
    return n;
}

static int run_all(nbo_algorithm_t alg, counts_kind_t counts, const size_t *blocks, int nblocks)
{
    return run_all_w(alg, counts, blocks, nblocks, 0);
}

static const size_t uniform_blocks[] = {0, 1, 3, 40};

/* Alltoallw in bytes: any sizes, packed or not on either side, in place;
 * Bruck asked for, pairwise compiled (its blocks are never uniform). */
static void alltoallw_all(void **state)
{
    (void)state;
    static const size_t none[] = {0}, same[] = {0, 24};
    int n = run_all_w(NBO_ALG_BRUCK, COUNTS_UNIFORM, same, 2, 1);
    n += run_all_w(NBO_ALG_BRUCK, COUNTS_IRREGULAR, none, 1, 1);
    n += run_all_w(NBO_ALG_AUTO, COUNTS_SPARSE, none, 1, 1);
    print_message("%d cases\n", n);
}

static void pairwise_uniform(void **state)
{
    (void)state;
    print_message("%d cases\n", run_all(NBO_ALG_PAIRWISE, COUNTS_UNIFORM, uniform_blocks, 4));
}

static void pairwise_irregular(void **state)
{
    (void)state;
    static const size_t none[] = {0};
    int n = run_all(NBO_ALG_PAIRWISE, COUNTS_IRREGULAR, none, 1);
    n += run_all(NBO_ALG_PAIRWISE, COUNTS_SPARSE, none, 1);
    print_message("%d cases\n", n);
}

static void bruck_uniform(void **state)
{
    (void)state;
    print_message("%d cases\n", run_all(NBO_ALG_BRUCK, COUNTS_UNIFORM, uniform_blocks, 4));
}

/* Bruck asked for with irregular counts must fall back to pairwise. */
static void bruck_irregular_falls_back(void **state)
{
    (void)state;
    static const size_t none[] = {0};
    print_message("%d cases\n", run_all(NBO_ALG_BRUCK, COUNTS_IRREGULAR, none, 1));
}

/* AUTO: Bruck up to bruck_max bytes per peer (P > 2), pairwise above. */
static void auto_threshold(void **state)
{
    (void)state;
    static const size_t blocks[] = {1, 8, 9, 100};
    for (int b = 0; b < 4; b++)
        for (int P = 1; P <= 9; P++) {
            sched_case_t c = {.P = P, .counts = COUNTS_UNIFORM, .block = blocks[b],
                              .send_contig = 1, .recv_contig = 1, .algorithm = NBO_ALG_AUTO,
                              .window = 2, .bruck_max = 8};
            assert_int_equal(sched_case_build(&c), 0);
            nbo_sched_args_t a = sched_case_args(&c, P - 1);
            nbo_sched_t s;
            assert_int_equal(nbo_sched_compile(&a, &s), NBO_SUCCESS);
            nbo_algorithm_t want = P > 2 && blocks[b] <= 8 ? NBO_ALG_BRUCK : NBO_ALG_PAIRWISE;
            if (s.algorithm != want)
                fail_msg("P=%d block=%zu bruck_max=8: %s, expected %s", P, blocks[b],
                         nbo_algorithm_name(s.algorithm), nbo_algorithm_name(want));
            nbo_sched_destroy(&s);
            sched_case_free(&c);
            run_case(&c); /* and the whole call runs right */
        }
}

/* ---- the collectives beyond the all-to-all ---- */

static const int coll_windows[] = {1, 2, 64};

static int pow2(int p) { return (p & (p - 1)) == 0; }

/* What AUTO must pick (the rules, written out independently of the
 * tables): latency-bound algorithms up to small_max bytes. */
static nbo_algorithm_t auto_alg(const coll_case_t *c)
{
    const int P = c->P;
    size_t total = 0;
    for (int i = 0; i < P; i++)
        total += c->rb[0][i];
    switch (c->coll) {
    case NBO_COLL_ALLGATHER:
    case NBO_COLL_ALLGATHERV:
        return total <= c->small_max ? (pow2(P) ? NBO_ALG_RECURSIVE_DOUBLING : NBO_ALG_BRUCK)
                                     : NBO_ALG_RING;
    case NBO_COLL_BCAST:
        return c->bytes > c->small_max && P > 2 ? NBO_ALG_SCATTER_ALLGATHER : NBO_ALG_BINOMIAL;
    case NBO_COLL_ALLREDUCE:
        if (c->bytes <= c->small_max)
            return NBO_ALG_RECURSIVE_DOUBLING;
        if (!c->commutative)
            return NBO_ALG_ORDERED;
        return pow2(P) ? NBO_ALG_RABENSEIFNER : NBO_ALG_RING;
    case NBO_COLL_BARRIER:
        return NBO_ALG_DISSEMINATION;
    case NBO_COLL_REDUCE: /* small_max stands for NBO_REDUCE_LARGE */
        return c->bytes > c->small_max && c->commutative ? NBO_ALG_RABENSEIFNER
                                                         : NBO_ALG_BINOMIAL;
    case NBO_COLL_SCAN:
    case NBO_COLL_EXSCAN:
        return NBO_ALG_RECURSIVE_DOUBLING;
    case NBO_COLL_REDUCE_SCATTER:
        return NBO_ALG_PAIRWISE;
    case NBO_COLL_GATHER:
    case NBO_COLL_SCATTER: /* per block */
        return c->bytes <= c->small_max ? NBO_ALG_BINOMIAL : NBO_ALG_LINEAR;
    case NBO_COLL_GATHERV:
    case NBO_COLL_SCATTERV:
        return NBO_ALG_LINEAR;
    default:
        return pow2(P) && c->commutative ? NBO_ALG_RECURSIVE_HALVING : NBO_ALG_PAIRWISE;
    }
}

/* The algorithm asked for where the collective has it and it fits, else
 * AUTO's. */
static nbo_algorithm_t expected_alg(const coll_case_t *c)
{
    const nbo_algorithm_t q = c->algorithm;
    int ok = 0;
    switch (c->coll) {
    case NBO_COLL_ALLGATHER:
    case NBO_COLL_ALLGATHERV:
        ok = q == NBO_ALG_RING || q == NBO_ALG_BRUCK ||
             (q == NBO_ALG_RECURSIVE_DOUBLING && pow2(c->P));
        break;
    case NBO_COLL_BCAST:
        ok = q == NBO_ALG_BINOMIAL || q == NBO_ALG_SCATTER_ALLGATHER;
        break;
    case NBO_COLL_ALLREDUCE:
        ok = q == NBO_ALG_RECURSIVE_DOUBLING || q == NBO_ALG_ORDERED ||
             ((q == NBO_ALG_RABENSEIFNER || q == NBO_ALG_RING) && c->commutative);
        break;
    case NBO_COLL_BARRIER:
        ok = q == NBO_ALG_DISSEMINATION;
        break;
    case NBO_COLL_REDUCE:
        ok = q == NBO_ALG_BINOMIAL || (q == NBO_ALG_RABENSEIFNER && c->commutative);
        break;
    case NBO_COLL_SCAN:
    case NBO_COLL_EXSCAN:
        ok = q == NBO_ALG_RECURSIVE_DOUBLING;
        break;
    case NBO_COLL_REDUCE_SCATTER:
        ok = q == NBO_ALG_PAIRWISE;
        break;
    case NBO_COLL_GATHER:
    case NBO_COLL_SCATTER:
        ok = q == NBO_ALG_BINOMIAL || q == NBO_ALG_LINEAR;
        break;
    case NBO_COLL_GATHERV:
    case NBO_COLL_SCATTERV:
        ok = q == NBO_ALG_LINEAR;
        break;
    default:
        ok = q == NBO_ALG_PAIRWISE ||
             (q == NBO_ALG_RECURSIVE_HALVING && pow2(c->P) && c->commutative);
    }
    return ok ? q : auto_alg(c);
}

/* One call: each rank's list checked, then all ranks simulated. */
static void run_coll_case(coll_case_t *c)
{
    char name[300];
    assert_int_equal(coll_case_build(c), 0);
    for (int r = 0; r < c->P; r++) {
        nbo_sched_args_t a = coll_case_args(c, r);
        nbo_sched_t s;
        int rc = nbo_sched_compile(&a, &s);
        if (rc != NBO_SUCCESS)
            fail_msg("%s: compile returned %s", coll_case_name(c, r, name, sizeof(name)),
                     nbo_strerror(rc));
        if (s.algorithm != expected_alg(c))
            fail_msg("%s: compiled %s, expected %s", coll_case_name(c, r, name, sizeof(name)),
                     nbo_algorithm_name(s.algorithm), nbo_algorithm_name(expected_alg(c)));
        const char *err = sched_check(&a, &s);
        if (err) {
            fprintf(stderr, "task list of %s:\n", coll_case_name(c, r, name, sizeof(name)));
            nbo_sched_print(&s, stderr);
            nbo_sched_destroy(&s);
            fail_msg("%s: %s", name, err);
        }
        nbo_sched_destroy(&s);
    }
    const char *err = coll_simulate(c);
    if (err)
        fail_msg("simulation: %s", err);
    coll_case_free(c);
}

typedef struct coll_sweep {
    nbo_coll_t             coll;
    const nbo_algorithm_t *algs;   /* ended by -1 */
    const size_t          *sizes;  /* ended by SIZE_MAX */
    int                    layouts; /* 8: contiguity of both sides x in place; 2: in place
                                       or not (bcast: contiguous or not) */
    int                    reduction;
} coll_sweep_t;

static int rooted(nbo_coll_t coll)
{
    return coll == NBO_COLL_BCAST || coll == NBO_COLL_REDUCE || coll == NBO_COLL_GATHER ||
           coll == NBO_COLL_GATHERV || coll == NBO_COLL_SCATTER || coll == NBO_COLL_SCATTERV;
}

/* P = 1..17, every algorithm asked for, windows, sizes, layouts, both
 * kinds of op for reductions, three roots for the rooted collectives. */
static int sweep(const coll_sweep_t *w)
{
    int n = 0;
    for (int P = 1; P <= 17; P++)
        for (const nbo_algorithm_t *alg = w->algs; (int)*alg >= 0; alg++)
            for (int wi = 0; wi < 3; wi++)
                for (const size_t *sz = w->sizes; *sz != SIZE_MAX; sz++)
                    for (int f = 0; f < w->layouts; f++)
                        for (int k = 0; k < (w->reduction ? 2 : 1); k++)
                            for (int ro = 0; ro < (rooted(w->coll) ? 3 : 1); ro++) {
                                int contig = w->layouts == 2;
                                coll_case_t c = {
                                    .coll = w->coll, .P = P, .bytes = *sz,
                                    .root = ro == 0 ? 0 : ro == 1 ? P - 1 : P / 2,
                                    .commutative = w->reduction ? k : 1,
                                    .send_contig = contig || !(f & 1),
                                    .recv_contig = contig || !(f & 2),
                                    .in_place = w->layouts == 2 ? f & 1 : !!(f & 4),
                                    .algorithm = *alg, .window = coll_windows[wi],
                                    .small_max = 64,
                                };
                                if (w->coll == NBO_COLL_BCAST) /* in place always */
                                    c.send_contig = c.recv_contig = !(f & 1);
                                run_coll_case(&c);
                                n++;
                            }
    return n;
}

#define END_ALGS ((nbo_algorithm_t)-1)

/* The tuner's candidates: AUTO's choice first, then every algorithm that
 * fits (Bruck only for uniform blocks), each once. */
static void candidates_fit(void **state)
{
    (void)state;
    static const struct {
        counts_kind_t counts;
        size_t        block;
        int           P, n;
        nbo_algorithm_t first;
    } cases[] = {
        {COUNTS_UNIFORM, 100, 4, 2, NBO_ALG_PAIRWISE}, /* above bruck_max: pairwise first */
        {COUNTS_UNIFORM, 600, 4, 1, NBO_ALG_PAIRWISE}, /* above 64 x bruck_max: Bruck untried */
        {COUNTS_UNIFORM, 4, 4, 2, NBO_ALG_BRUCK},
        {COUNTS_IRREGULAR, 0, 4, 1, NBO_ALG_PAIRWISE},
    };
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
        sched_case_t c = {.P = cases[k].P, .counts = cases[k].counts, .block = cases[k].block,
                          .send_contig = 1, .recv_contig = 1, .algorithm = NBO_ALG_AUTO,
                          .window = 2, .bruck_max = 8};
        assert_int_equal(sched_case_build(&c), 0);
        nbo_sched_args_t a = sched_case_args(&c, 1);
        nbo_algorithm_t got[8];
        const int n = nbo_sched_candidates(&a, got, 8);
        if (n != cases[k].n || got[0] != cases[k].first)
            fail_msg("case %zu: %d candidates, first %s; expected %d, first %s", k, n,
                     nbo_algorithm_name(got[0]), cases[k].n,
                     nbo_algorithm_name(cases[k].first));
        for (int i = 0; i < n; i++)
            for (int j = 0; j < i; j++)
                assert_int_not_equal(got[i], got[j]);
        assert_int_equal(nbo_sched_candidates(&a, got, 1), 1);
        sched_case_free(&c);
    }
}

static int same_lists(const nbo_sched_t *x, const nbo_sched_t *y)
{
    if (x->ntasks != y->ntasks)
        return 0;
    for (int i = 0; i < x->ntasks; i++) {
        const nbo_task_t *p = &x->tasks[i], *q = &y->tasks[i];
        if (p->kind != q->kind || p->buf != q->buf || p->src_buf != q->src_buf ||
            p->peer != q->peer || p->wait != q->wait || p->off != q->off ||
            p->src_off != q->src_off || p->len != q->len)
            return 0;
    }
    return 1;
}

/* An algorithm the tuner tries with one window only must compile the same
 * list whatever the window; a windowed one must not (P = 6, W = 1 and 5). */
static void windowless_lists_match(void **state)
{
    (void)state;
    sched_case_t c = {.P = 6, .counts = COUNTS_UNIFORM, .block = 100, .send_contig = 1,
                      .recv_contig = 1, .algorithm = NBO_ALG_AUTO, .window = 1, .bruck_max = 8};
    assert_int_equal(sched_case_build(&c), 0);
    nbo_sched_args_t a = sched_case_args(&c, 2);
    nbo_algorithm_t algs[8];
    const int n = nbo_sched_candidates(&a, algs, 8);
    int windowless = 0;
    for (int i = 0; i < n; i++) {
        nbo_sched_t s1, s5;
        a.algorithm = algs[i];
        a.window = 1;
        assert_int_equal(nbo_sched_compile(&a, &s1), NBO_SUCCESS);
        a.window = 5;
        assert_int_equal(nbo_sched_compile(&a, &s5), NBO_SUCCESS);
        const int same = same_lists(&s1, &s5);
        if (same == nbo_sched_windowed(&a, algs[i]))
            fail_msg("%s: windowed %d, but W = 1 and W = 5 compile %s lists",
                     nbo_algorithm_name(algs[i]), nbo_sched_windowed(&a, algs[i]),
                     same ? "the same" : "different");
        windowless += !nbo_sched_windowed(&a, algs[i]);
        nbo_sched_destroy(&s1);
        nbo_sched_destroy(&s5);
    }
    assert_int_equal(windowless, 1); /* Bruck */
    sched_case_free(&c);
}

static void allgather_all(void **state)
{
    (void)state;
    static const nbo_algorithm_t algs[] = {NBO_ALG_AUTO, NBO_ALG_RING, NBO_ALG_RECURSIVE_DOUBLING,
                                           NBO_ALG_BRUCK, NBO_ALG_PAIRWISE, END_ALGS};
    static const size_t sizes[] = {0, 1, 5, 24, 70, SIZE_MAX};
    coll_sweep_t w = {NBO_COLL_ALLGATHER, algs, sizes, 8, 0};
    print_message("%d cases\n", sweep(&w));
}

static void allgatherv_all(void **state)
{
    (void)state;
    static const nbo_algorithm_t algs[] = {NBO_ALG_AUTO, NBO_ALG_RING, NBO_ALG_RECURSIVE_DOUBLING,
                                           NBO_ALG_BRUCK, END_ALGS};
    static const size_t sizes[] = {0, 7, 30, SIZE_MAX};
    coll_sweep_t w = {NBO_COLL_ALLGATHERV, algs, sizes, 8, 0};
    print_message("%d cases\n", sweep(&w));
}

static void bcast_all(void **state)
{
    (void)state;
    static const nbo_algorithm_t algs[] = {NBO_ALG_AUTO, NBO_ALG_BINOMIAL,
                                           NBO_ALG_SCATTER_ALLGATHER, NBO_ALG_RING, END_ALGS};
    static const size_t sizes[] = {0, 1, 13, 100, SIZE_MAX};
    coll_sweep_t w = {NBO_COLL_BCAST, algs, sizes, 2, 0}; /* contiguous or not */
    print_message("%d cases\n", sweep(&w));
}

/* Sizes in whole 8-byte elements, most not divisible by P elements. */
static void allreduce_all(void **state)
{
    (void)state;
    static const nbo_algorithm_t algs[] = {NBO_ALG_AUTO, NBO_ALG_RECURSIVE_DOUBLING,
                                           NBO_ALG_RABENSEIFNER, NBO_ALG_RING, NBO_ALG_ORDERED,
                                           END_ALGS};
    static const size_t sizes[] = {0, 8, 40, 296, SIZE_MAX};
    coll_sweep_t w = {NBO_COLL_ALLREDUCE, algs, sizes, 2, 1};
    print_message("%d cases\n", sweep(&w));
}

static void reduce_scatter_block_all(void **state)
{
    (void)state;
    static const nbo_algorithm_t algs[] = {NBO_ALG_AUTO, NBO_ALG_PAIRWISE,
                                           NBO_ALG_RECURSIVE_HALVING, END_ALGS};
    static const size_t sizes[] = {0, 8, 24, SIZE_MAX};
    coll_sweep_t w = {NBO_COLL_REDUCE_SCATTER_BLOCK, algs, sizes, 2, 1};
    print_message("%d cases\n", sweep(&w));
}

/* Every rank's list, then all ranks together: after the last round each
 * rank has heard, directly or through others, from every rank; a round
 * is what lies between two WAITs, and a message carries what its sender
 * knew when its round began. */
static void barrier_all(void **state)
{
    (void)state;
    static const nbo_algorithm_t algs[] = {NBO_ALG_AUTO, NBO_ALG_DISSEMINATION,
                                           NBO_ALG_BINOMIAL, END_ALGS};
    static const size_t sizes[] = {0, SIZE_MAX};
    coll_sweep_t w = {NBO_COLL_BARRIER, algs, sizes, 1, 0};
    int n = sweep(&w);
    for (int P = 1; P <= 17; P++) {
        nbo_sched_t s[17];
        uint32_t known[17], next[17];
        int at[17], rounds = -1;
        for (int r = 0; r < P; r++) {
            size_t zero[17] = {0};
            nbo_sched_args_t a = {.size = P, .rank = r, .sbytes = zero, .sdispl = zero,
                                  .rbytes = zero, .rdispl = zero, .coll = NBO_COLL_BARRIER,
                                  .algs = nbo_barrier_algs, .window = 1, .elem = 1,
                                  .commutative = 1};
            assert_int_equal(nbo_sched_compile(&a, &s[r]), NBO_SUCCESS);
            known[r] = 1u << r;
            at[r] = 0;
            if (rounds < 0)
                rounds = s[r].nwaits;
            assert_int_equal(s[r].nwaits, rounds); /* every rank the same rounds */
        }
        for (int k = 0; k < rounds; k++) {
            memcpy(next, known, sizeof(next));
            for (int r = 0; r < P; r++)
                for (; s[r].tasks[at[r]].kind != NBO_TASK_WAIT; at[r]++)
                    if (s[r].tasks[at[r]].kind == NBO_TASK_SEND)
                        next[s[r].tasks[at[r]].peer] |= known[r];
            for (int r = 0; r < P; r++)
                at[r]++;
            memcpy(known, next, sizeof(known));
        }
        for (int r = 0; r < P; r++) {
            if (known[r] != (P == 32 ? ~0u : (1u << P) - 1))
                fail_msg("barrier P=%d: rank %d has heard from 0x%x only", P, r, known[r]);
            nbo_sched_destroy(&s[r]);
        }
    }
    print_message("%d cases\n", n);
}

/* Sizes in whole 8-byte elements; both kinds of op, three roots. */
static void reduce_all(void **state)
{
    (void)state;
    static const nbo_algorithm_t algs[] = {NBO_ALG_AUTO, NBO_ALG_BINOMIAL, NBO_ALG_RABENSEIFNER,
                                           NBO_ALG_RING, END_ALGS};
    static const size_t sizes[] = {0, 8, 40, 200, SIZE_MAX}; /* 200 > small_max: Rabenseifner */
    coll_sweep_t w = {NBO_COLL_REDUCE, algs, sizes, 2, 1};
    print_message("%d cases\n", sweep(&w));
}

/* Reduce-scatter with blocks of up to 0, 3 and 9 elements, some empty. */
static void reduce_scatter_all(void **state)
{
    (void)state;
    static const nbo_algorithm_t algs[] = {NBO_ALG_AUTO, NBO_ALG_PAIRWISE,
                                           NBO_ALG_RECURSIVE_HALVING, END_ALGS};
    static const size_t sizes[] = {0, 24, 72, SIZE_MAX};
    coll_sweep_t w = {NBO_COLL_REDUCE_SCATTER, algs, sizes, 2, 1};
    print_message("%d cases\n", sweep(&w));
}

/* Scan and exscan: both kinds of op, in place or not. */
static void scan_all(void **state)
{
    (void)state;
    static const nbo_algorithm_t algs[] = {NBO_ALG_AUTO, NBO_ALG_RECURSIVE_DOUBLING,
                                           NBO_ALG_BINOMIAL, END_ALGS};
    static const size_t sizes[] = {0, 8, 40, SIZE_MAX};
    coll_sweep_t w = {NBO_COLL_SCAN, algs, sizes, 2, 1};
    print_message("%d cases\n", sweep(&w));
    w.coll = NBO_COLL_EXSCAN;
    print_message("%d cases\n", sweep(&w));
}

/* Blocks of 0 and 5 bytes (binomial under AUTO, small_max 64) and 100
 * (linear); every layout, three roots. */
static void gather_scatter_all(void **state)
{
    (void)state;
    static const nbo_algorithm_t algs[] = {NBO_ALG_AUTO, NBO_ALG_BINOMIAL, NBO_ALG_LINEAR,
                                           END_ALGS};
    static const size_t sizes[] = {0, 5, 100, SIZE_MAX};
    static const nbo_coll_t colls[] = {NBO_COLL_GATHER, NBO_COLL_GATHERV, NBO_COLL_SCATTER,
                                       NBO_COLL_SCATTERV};
    for (size_t i = 0; i < sizeof(colls) / sizeof(colls[0]); i++) {
        coll_sweep_t w = {colls[i], algs, sizes, 8, 0};
        print_message("%d cases\n", sweep(&w));
    }
}

/* Malformed reductions (no element size, a vector of part elements) and
 * totals past size_t are refused, leaving the schedule empty. */
static void coll_bad_args(void **state)
{
    (void)state;
    coll_case_t c = {.coll = NBO_COLL_ALLREDUCE, .P = 3, .bytes = 12, .commutative = 1,
                     .send_contig = 1, .recv_contig = 1, .window = 2, .small_max = 64};
    assert_int_equal(coll_case_build(&c), 0);
    nbo_sched_args_t a = coll_case_args(&c, 1);
    nbo_sched_t s;
    for (int alg = 0; alg < 3; alg++) {
        a.algorithm = alg == 0 ? NBO_ALG_RECURSIVE_DOUBLING : alg == 1 ? NBO_ALG_RING
                                                                        : NBO_ALG_RABENSEIFNER;
        assert_int_equal(nbo_sched_compile(&a, &s), NBO_ERR_ARG); /* 12 bytes, elem 8 */
        assert_null(s.tasks);
    }
    coll_case_free(&c);
    c = (coll_case_t){.coll = NBO_COLL_REDUCE_SCATTER_BLOCK, .P = 4, .bytes = 8, .commutative = 1,
                      .send_contig = 1, .recv_contig = 1, .window = 2};
    assert_int_equal(coll_case_build(&c), 0);
    a = coll_case_args(&c, 0);
    a.elem = 0;
    assert_int_equal(nbo_sched_compile(&a, &s), NBO_ERR_ARG);
    coll_case_free(&c);
    c = (coll_case_t){.coll = NBO_COLL_ALLGATHER, .P = 3, .bytes = SIZE_MAX / 2,
                      .send_contig = 1, .recv_contig = 1, .window = 2};
    assert_int_equal(coll_case_build(&c), 0);
    a = coll_case_args(&c, 0);
    for (int alg = 0; alg < 2; alg++) {
        a.algorithm = alg ? NBO_ALG_BRUCK : NBO_ALG_RING;
        assert_int_equal(nbo_sched_compile(&a, &s), NBO_ERR_OVERFLOW);
    }
    coll_case_free(&c);
    c = (coll_case_t){.coll = NBO_COLL_BCAST, .P = 3, .bytes = 8, .send_contig = 1,
                      .recv_contig = 1, .window = 2};
    assert_int_equal(coll_case_build(&c), 0);
    a = coll_case_args(&c, 0);
    for (int alg = 0; alg < 2; alg++) {
        a.algorithm = alg ? NBO_ALG_BINOMIAL : NBO_ALG_SCATTER_ALLGATHER;
        a.root = alg ? 3 : -1;
        assert_int_equal(nbo_sched_compile(&a, &s), NBO_ERR_ROOT);
    }
    coll_case_free(&c);
}

/* A neighbourhood over explicit peer lists: a ring of 5 where each rank
 * sends its left neighbour one block and its right neighbour two (a
 * repeated peer), of sizes that differ per pair and per repeat.  Pairwise
 * is the one algorithm that takes such lists; every rank runs together in
 * the simulator, and each received block must be the sender's k-th block
 * to it, at its displacement. */
enum { RING_P = 5, RING_N = 3 };
static size_t ring_len(int s, int d, int k) { return 8 * (size_t)(1 + (s + 2 * d + k) % 3); }
static unsigned char ring_byte(int s, int d, int k, size_t i)
{
    return (unsigned char)(s * 31 + d * 7 + k * 3 + (int)i);
}

static void ring_name(const void *ctx, int r, char *buf, size_t len)
{
    snprintf(buf, len, "ring neighbourhood (%s), rank %d", (const char *)ctx, r);
}

static void neighbourhood_ring(void **state)
{
    (void)state;
    static const char *names[] = {"packed", "contiguous"};
    for (int contig = 0; contig < 2; contig++)
        for (int w = 1; w <= 4; w++) {
            sim_rank_t *rk = calloc(RING_P, sizeof(*rk)); /* sched_sim_free frees it */
            assert_non_null(rk);
            int speers[RING_P][RING_N], rpeers[RING_P][RING_N], rk_of[RING_P][RING_N];
            size_t sb[RING_P][RING_N], sd[RING_P][RING_N], rb[RING_P][RING_N], rd[RING_P][RING_N];
            for (int r = 0; r < RING_P; r++) {
                const int left = (r + RING_P - 1) % RING_P, right = (r + 1) % RING_P;
                const int sp[RING_N] = {left, right, right}, sk[RING_N] = {0, 0, 1};
                const int rp[RING_N] = {right, left, left}, rkk[RING_N] = {0, 0, 1};
                size_t soff = 3, roff = 5; /* gaps before and between blocks */
                for (int i = 0; i < RING_N; i++) {
                    speers[r][i] = sp[i];
                    sb[r][i] = ring_len(r, sp[i], sk[i]);
                    sd[r][i] = soff;
                    soff += sb[r][i] + 1;
                    rpeers[r][i] = rp[i];
                    rk_of[r][i] = rkk[i];
                    rb[r][i] = ring_len(rp[i], r, rkk[i]);
                    rd[r][i] = roff;
                    roff += rb[r][i] + 2;
                }
                rk[r].a = (nbo_sched_args_t){
                    .size = RING_P, .rank = r, .nsend = RING_N, .nrecv = RING_N,
                    .speers = speers[r], .rpeers = rpeers[r], .sbytes = sb[r], .sdispl = sd[r],
                    .rbytes = rb[r], .rdispl = rd[r], .send_contig = contig,
                    .recv_contig = contig, .coll = NBO_COLL_ALLTOALLV, .algs = nbo_alltoall_algs,
                    .elem = 1, .commutative = 1, .window = w};
                rk[r].len[NBO_BUF_SEND] = soff;
                rk[r].len[NBO_BUF_RECV] = roff;
                rk[r].buf[NBO_BUF_SEND] = calloc(soff, 1);
                rk[r].buf[NBO_BUF_RECV] = calloc(roff, 1);
                assert_non_null(rk[r].buf[NBO_BUF_SEND]);
                assert_non_null(rk[r].buf[NBO_BUF_RECV]);
                for (int i = 0; i < RING_N; i++)
                    for (size_t j = 0; j < sb[r][i]; j++)
                        rk[r].buf[NBO_BUF_SEND][sd[r][i] + j] = ring_byte(r, sp[i], sk[i], j);
            }
            sim_call_t call = {.P = RING_P, .name = ring_name, .ctx = names[contig]};
            const char *err = sched_sim_run(&call, rk);
            if (err)
                fail_msg("window %d: %s", w, err);
            for (int r = 0; r < RING_P; r++) {
                assert_int_equal(rk[r].s.algorithm, NBO_ALG_PAIRWISE);
                for (int i = 0; i < RING_N; i++)
                    for (size_t j = 0; j < rb[r][i]; j++)
                        if (rk[r].buf[NBO_BUF_RECV][rd[r][i] + j] !=
                            ring_byte(rpeers[r][i], r, rk_of[r][i], j))
                            fail_msg("%s, window %d: rank %d block %d byte %zu", names[contig], w,
                                     r, i, j);
            }
            sched_sim_free(rk, RING_P);
        }
}

/* The same ring with a rank's own entries among the lists (a self loop
 * twice, as a periodic dimension of one process gives): they never reach
 * the network, and the k-th block to itself must land in its k-th block
 * from itself, packed, unpacked or copied. */
enum { SELF_N = 5 };
static void neighbourhood_self(void **state)
{
    (void)state;
    static const char *names[] = {"packed", "contiguous"};
    /* Peers relative to the rank (-1 left, +1 right, 0 itself) and which
     * of the blocks between the pair each entry is. */
    static const int sp[SELF_N] = {-1, 0, 1, 1, 0}, sk[SELF_N] = {0, 0, 0, 1, 1};
    static const int rp[SELF_N] = {0, 1, -1, 0, -1}, rkk[SELF_N] = {0, 0, 0, 1, 1};
    for (int contig = 0; contig < 2; contig++)
        for (int w = 1; w <= 3; w++) {
            sim_rank_t *rk = calloc(RING_P, sizeof(*rk)); /* sched_sim_free frees it */
            assert_non_null(rk);
            int speers[RING_P][SELF_N], rpeers[RING_P][SELF_N];
            size_t sb[RING_P][SELF_N], sd[RING_P][SELF_N], rb[RING_P][SELF_N], rd[RING_P][SELF_N];
            for (int r = 0; r < RING_P; r++) {
                size_t soff = 1, roff = 3;
                for (int i = 0; i < SELF_N; i++) {
                    speers[r][i] = (r + RING_P + sp[i]) % RING_P;
                    sb[r][i] = ring_len(r, speers[r][i], sk[i]);
                    sd[r][i] = soff;
                    soff += sb[r][i] + 1;
                    rpeers[r][i] = (r + RING_P + rp[i]) % RING_P;
                    rb[r][i] = ring_len(rpeers[r][i], r, rkk[i]);
                    rd[r][i] = roff;
                    roff += rb[r][i] + 2;
                }
                rk[r].a = (nbo_sched_args_t){
                    .size = RING_P, .rank = r, .nsend = SELF_N, .nrecv = SELF_N,
                    .speers = speers[r], .rpeers = rpeers[r], .sbytes = sb[r], .sdispl = sd[r],
                    .rbytes = rb[r], .rdispl = rd[r], .send_contig = contig,
                    .recv_contig = contig, .coll = NBO_COLL_NEIGHBOR_ALLTOALLV,
                    .algs = nbo_neighbor_algs, .elem = 1, .commutative = 1, .window = w};
                rk[r].len[NBO_BUF_SEND] = soff;
                rk[r].len[NBO_BUF_RECV] = roff;
                rk[r].buf[NBO_BUF_SEND] = calloc(soff, 1);
                rk[r].buf[NBO_BUF_RECV] = calloc(roff, 1);
                assert_non_null(rk[r].buf[NBO_BUF_SEND]);
                assert_non_null(rk[r].buf[NBO_BUF_RECV]);
                for (int i = 0; i < SELF_N; i++)
                    for (size_t j = 0; j < sb[r][i]; j++)
                        rk[r].buf[NBO_BUF_SEND][sd[r][i] + j] = ring_byte(r, speers[r][i], sk[i], j);
            }
            sim_call_t call = {.P = RING_P, .name = ring_name, .ctx = names[contig]};
            const char *err = sched_sim_run(&call, rk);
            if (err)
                fail_msg("window %d: %s", w, err);
            for (int r = 0; r < RING_P; r++) {
                for (int t = 0; t < rk[r].s.ntasks; t++) {
                    const nbo_task_t *task = &rk[r].s.tasks[t];
                    if ((task->kind == NBO_TASK_SEND || task->kind == NBO_TASK_RECV) &&
                        task->peer == r)
                        fail_msg("%s, window %d: rank %d task %d goes to itself", names[contig],
                                 w, r, t);
                }
                for (int i = 0; i < SELF_N; i++)
                    for (size_t j = 0; j < rb[r][i]; j++)
                        if (rk[r].buf[NBO_BUF_RECV][rd[r][i] + j] !=
                            ring_byte(rpeers[r][i], r, rkk[i], j))
                            fail_msg("%s, window %d: rank %d block %d byte %zu", names[contig], w,
                                     r, i, j);
            }
            sched_sim_free(rk, RING_P);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pairwise_uniform),
        cmocka_unit_test(pairwise_irregular),
        cmocka_unit_test(alltoallw_all),
        cmocka_unit_test(bruck_uniform),
        cmocka_unit_test(bruck_irregular_falls_back),
        cmocka_unit_test(auto_threshold),
        cmocka_unit_test(candidates_fit),
        cmocka_unit_test(windowless_lists_match),
        cmocka_unit_test(allgather_all),
        cmocka_unit_test(allgatherv_all),
        cmocka_unit_test(bcast_all),
        cmocka_unit_test(allreduce_all),
        cmocka_unit_test(reduce_scatter_block_all),
        cmocka_unit_test(barrier_all),
        cmocka_unit_test(reduce_all),
        cmocka_unit_test(scan_all),
        cmocka_unit_test(reduce_scatter_all),
        cmocka_unit_test(gather_scatter_all),
        cmocka_unit_test(coll_bad_args),
        cmocka_unit_test(neighbourhood_ring),
        cmocka_unit_test(neighbourhood_self),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
