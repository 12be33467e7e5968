/*
 * compile_allreduce.c - allreduce: recursive doubling (small; keeps rank
 * order, so it also serves as ORDERED), Rabenseifner (reduce-scatter by
 * recursive halving, then allgather by recursive doubling) and a ring, the
 * last two for commutative operations only.
 *
 * The vector (n = rbytes[0] bytes of elem-byte elements) is reduced in place
 * in the receive buffer; received partials land in scratch.  A P that is
 * not a power of two is folded as MPICH does: of the first 2*rem ranks
 * (rem = P - pof2) the even ones send their vector to the odd one above and
 * wait for the result; the others renumber to 0..pof2-1, which keeps every
 * group of new ranks a contiguous range of old ranks.
 */
#include "sched_algs.h"
#include "sched_build.h"

#include <stdlib.h>

/* Whole elements, or the call is malformed. */
static int bad_vector(const nbo_sched_args_t *a)
{
    return !a->elem || a->rbytes[0] % a->elem;
}

/* The input to the receive buffer (not in place). */
static void load_input(const nbo_sched_args_t *a, sched_build_t *b)
{
    if (!a->in_place)
        sched_build_copy(b, NBO_BUF_RECV, 0, NBO_BUF_SEND, 0, a->rbytes[0]);
}

/* Fold in: returns the new rank, or -1 for a rank that sits out. */
static int fold_in(const nbo_sched_args_t *a, sched_build_t *b, int pof2)
{
    const int r = a->rank, rem = a->size - pof2;
    const size_t n = a->rbytes[0];
    if (r >= 2 * rem)
        return r - rem;
    if (r % 2 == 0) {
        sched_build_post_send(b, a->window, r + 1, NBO_BUF_RECV, 0, n);
        sched_build_flush(b);
        return -1;
    }
    sched_build_post_recv(b, r - 1, NBO_BUF_TMP, 0, n);
    sched_build_flush(b);
    sched_build_reduce(b, NBO_BUF_RECV, 0, NBO_BUF_TMP, 0, n); /* x(r-1) op x(r) */
    return r / 2;
}

/* Fold out: the odd ranks hand the result to the even ones below. */
static void fold_out(const nbo_sched_args_t *a, sched_build_t *b, int pof2)
{
    const int r = a->rank, rem = a->size - pof2;
    if (r >= 2 * rem)
        return;
    if (r % 2)
        sched_build_post_send(b, a->window, r - 1, NBO_BUF_RECV, 0, a->rbytes[0]);
    else
        sched_build_post_recv(b, r + 1, NBO_BUF_RECV, 0, a->rbytes[0]);
    sched_build_flush(b);
}

/* Old rank of new rank v. */
static int old_rank(int v, int rem) { return v < rem ? 2 * v + 1 : v + rem; }

/* dst (RECV, off) = partial received in TMP combined in rank order: the
 * lower group's data is the left operand. */
static void combine(const nbo_sched_args_t *a, sched_build_t *b, size_t off, size_t tmp_off,
                    size_t len, int theirs_lower)
{
    if (theirs_lower || a->commutative)
        sched_build_reduce(b, NBO_BUF_RECV, off, NBO_BUF_TMP, tmp_off, len);
    else {
        sched_build_reduce(b, NBO_BUF_TMP, tmp_off, NBO_BUF_RECV, off, len);
        sched_build_copy(b, NBO_BUF_RECV, off, NBO_BUF_TMP, tmp_off, len);
    }
}

/* Exchange whole vectors with new rank v ^ d for d = 1, 2, ..., pof2/2. */
int nbo_compile_allreduce_rd(const nbo_sched_args_t *a, sched_build_t *b)
{
    if (bad_vector(a))
        return NBO_ERR_ARG;
    const int pof2 = sched_pof2(a->size), rem = a->size - pof2;
    const size_t n = a->rbytes[0];
    b->s->tmp_bytes = a->size > 1 ? n : 0;
    load_input(a, b);
    int v = fold_in(a, b, pof2);
    for (int d = 1; v >= 0 && d < pof2; d <<= 1) {
        int peer = old_rank(v ^ d, rem);
        sched_build_post_recv(b, peer, NBO_BUF_TMP, 0, n);
        sched_build_post_send(b, a->window, peer, NBO_BUF_RECV, 0, n);
        sched_build_flush(b);
        combine(a, b, 0, 0, n, (v ^ d) < v);
    }
    fold_out(a, b, pof2);
    return NBO_SUCCESS;
}

/* Byte offset of segment i of k: count elements split as evenly as can be,
 * the first count % k segments one element longer. */
static size_t seg(const nbo_sched_args_t *a, int k, int i)
{
    size_t count = a->rbytes[0] / a->elem, q = count / (size_t)k, rm = count % (size_t)k;
    size_t u = (size_t)i;
    return (q * u + (u < rm ? u : rm)) * a->elem;
}

/* Send or receive (dir) segments [lo, hi) of pof2 with old rank peer. */
static void post_segs(const nbo_sched_args_t *a, sched_build_t *b, int send, int peer,
                      nbo_buf_t buf, int pof2, int lo, int hi)
{
    size_t off = seg(a, pof2, lo), len = seg(a, pof2, hi) - off;
    if (send)
        sched_build_post_send(b, a->window, peer, buf, off, len);
    else
        sched_build_post_recv(b, peer, buf, off, len);
}

/* Recursive halving, distance pof2/2 down to 1: keep the half of [lo, hi)
 * that holds segment v, send the other; new rank v ends owning segment v. */
static void halve(const nbo_sched_args_t *a, sched_build_t *b, int v, int pof2, int *lo, int *hi)
{
    const int rem = a->size - pof2;
    for (int d = pof2 >> 1; d > 0; d >>= 1) {
        int peer = old_rank(v ^ d, rem), mid = (*lo + *hi) / 2;
        int klo = v & d ? mid : *lo, khi = v & d ? *hi : mid; /* kept */
        post_segs(a, b, 0, peer, NBO_BUF_TMP, pof2, klo, khi);
        post_segs(a, b, 1, peer, NBO_BUF_RECV, pof2, v & d ? *lo : mid, v & d ? mid : *hi);
        sched_build_flush(b);
        size_t ko = seg(a, pof2, klo);
        sched_build_reduce(b, NBO_BUF_RECV, ko, NBO_BUF_TMP, ko, seg(a, pof2, khi) - ko);
        *lo = klo;
        *hi = khi;
    }
}

/* Recursive doubling, distance 1 up to pof2/2: swap owned ranges with the
 * partner until every new rank has all segments. */
static void double_back(const nbo_sched_args_t *a, sched_build_t *b, int v, int pof2, int lo, int hi)
{
    const int rem = a->size - pof2;
    for (int d = 1; d < pof2; d <<= 1) {
        int peer = old_rank(v ^ d, rem), plo = lo ^ d, phi = plo + (hi - lo);
        post_segs(a, b, 0, peer, NBO_BUF_RECV, pof2, plo, phi);
        post_segs(a, b, 1, peer, NBO_BUF_RECV, pof2, lo, hi);
        sched_build_flush(b);
        lo = lo < plo ? lo : plo;
        hi = lo + 2 * (phi - plo);
    }
}

/* Rabenseifner: reduce-scatter by halving then allgather by doubling on
 * the folded ranks: ~2n bytes moved instead of n log2 P. */
int nbo_compile_allreduce_rabenseifner(const nbo_sched_args_t *a, sched_build_t *b)
{
    if (bad_vector(a))
        return NBO_ERR_ARG;
    const int pof2 = sched_pof2(a->size);
    b->s->tmp_bytes = a->size > 1 ? a->rbytes[0] : 0;
    load_input(a, b);
    int v = fold_in(a, b, pof2), lo = 0, hi = pof2;
    if (v >= 0) {
        halve(a, b, v, pof2, &lo, &hi);
        double_back(a, b, v, pof2, lo, hi);
    }
    fold_out(a, b, pof2);
    return NBO_SUCCESS;
}

/* Ring: P-1 steps of reduce-scatter (send segment r-s, receive segment
 * r-s-1 and reduce it), then P-1 steps passing the finished segments on. */
int nbo_compile_allreduce_ring(const nbo_sched_args_t *a, sched_build_t *b)
{
    if (bad_vector(a))
        return NBO_ERR_ARG;
    const int P = a->size, r = a->rank;
    size_t big = 0;
    for (int i = 0; i < P; i++)
        if (seg(a, P, i + 1) - seg(a, P, i) > big)
            big = seg(a, P, i + 1) - seg(a, P, i);
    b->s->tmp_bytes = P > 1 ? big : 0;
    load_input(a, b);
    const int to = (r + 1) % P, from = (r - 1 + P) % P;
    for (int s = 0; s < P - 1; s++) {
        int sp = (r - s + P) % P, rp = (r - s - 1 + P) % P;
        size_t rl = seg(a, P, rp + 1) - seg(a, P, rp);
        sched_build_post_recv(b, from, NBO_BUF_TMP, 0, rl);
        sched_build_post_send(b, a->window, to, NBO_BUF_RECV, seg(a, P, sp),
                              seg(a, P, sp + 1) - seg(a, P, sp));
        sched_build_flush(b);
        sched_build_reduce(b, NBO_BUF_RECV, seg(a, P, rp), NBO_BUF_TMP, 0, rl);
    }
    for (int s = 0; s < P - 1; s++) { /* rank r owns segment r+1 now */
        int sp = (r + 1 - s + P) % P, rp = (r - s + P) % P;
        sched_build_post_recv(b, from, NBO_BUF_RECV, seg(a, P, rp), seg(a, P, rp + 1) - seg(a, P, rp));
        sched_build_post_send(b, a->window, to, NBO_BUF_RECV, seg(a, P, sp),
                              seg(a, P, sp + 1) - seg(a, P, sp));
        sched_build_flush(b);
    }
    return NBO_SUCCESS;
}
