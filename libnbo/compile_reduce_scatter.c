/*
 * compile_reduce_scatter.c - reduce-scatter: pairwise (any P, any op,
 * blocks of any size: every rank gathers the P contributions to its block
 * and combines them in rank order) and, with equal blocks, recursive
 * halving (power-of-two P, commutative ops).  Block i is sbytes[i] bytes
 * at sdispl[i]; the result goes to the receive buffer at 0.
 */
#include "sched_algs.h"
#include "sched_build.h"

#include <stdint.h>

/* Whole elements and P blocks that fit in size_t, or an error. */
static int bad_blocks(const nbo_sched_args_t *a)
{
    if (!a->elem)
        return NBO_ERR_ARG;
    for (int i = 0; i < a->size; i++) {
        const size_t B = a->sbytes[i];
        if (B % a->elem)
            return NBO_ERR_ARG;
        if (B > SIZE_MAX / 2 / (size_t)a->size)
            return NBO_ERR_OVERFLOW;
    }
    return NBO_SUCCESS;
}

/* Where the input blocks are: SEND, or RECV in place. */
static nbo_buf_t input(const nbo_sched_args_t *a) { return a->in_place ? NBO_BUF_RECV : NBO_BUF_SEND; }

/* Step i sends block r+i to r+i and receives rank r-i's copy of block r
 * into scratch slot r-i; then result = x0 op (x1 op (... op x(P-1))).
 * B: the bytes of this rank's block. */
int nbo_compile_reduce_scatter_pairwise(const nbo_sched_args_t *a, sched_build_t *b)
{
    const int P = a->size, r = a->rank;
    const size_t B = a->sbytes[r];
    int rc = bad_blocks(a);
    if (rc)
        return rc;
    b->s->tmp_bytes = (size_t)P * B;
    for (int i = 1; i < P; i++) {
        int src = (r - i + P) % P;
        sched_build_post_recv(b, src, NBO_BUF_TMP, (size_t)src * B, B);
    }
    for (int i = 1; i < P; i++) {
        int dst = (r + i) % P;
        sched_build_post_send(b, a->window, dst, input(a), a->sdispl[dst], a->sbytes[dst]);
    }
    sched_build_flush(b);
    if (B == 0)
        return NBO_SUCCESS;
    /* The own contribution joins the others in scratch, then the chain
     * runs from the right into RECV at 0 (safe now: every send is done). */
    sched_build_copy(b, NBO_BUF_TMP, (size_t)r * B, input(a), a->sdispl[r], B);
    sched_build_copy(b, NBO_BUF_RECV, 0, NBO_BUF_TMP, (size_t)(P - 1) * B, B);
    for (int i = P - 2; i >= 0; i--)
        sched_build_reduce(b, NBO_BUF_RECV, 0, NBO_BUF_TMP, (size_t)i * B, B);
    return NBO_SUCCESS;
}

/* Recursive halving: distance P/2 down to 1, keeping the half of the block
 * range that holds my block; work array W = P blocks, R = P/2 blocks of
 * received partials, both in scratch. */
int nbo_compile_reduce_scatter_halving(const nbo_sched_args_t *a, sched_build_t *b)
{
    const int P = a->size, r = a->rank;
    const size_t B = a->sbytes[0], W = 0, R = (size_t)P * B;
    int rc = bad_blocks(a);
    if (rc)
        return rc;
    if (B == 0)
        return NBO_SUCCESS;
    b->s->tmp_bytes = R + (size_t)(P / 2) * B;
    int lo = 0, hi = P, first = 1;
    for (int d = P >> 1; d > 0; d >>= 1, first = 0) {
        int peer = r ^ d, mid = (lo + hi) / 2;
        int klo = r & d ? mid : lo, slo = r & d ? lo : mid;
        size_t len = (size_t)d * B;
        sched_build_post_recv(b, peer, NBO_BUF_TMP, R, len);
        if (first) /* the first round reads the input itself */
            sched_build_post_send(b, a->window, peer, input(a), a->sdispl[slo], len);
        else
            sched_build_post_send(b, a->window, peer, NBO_BUF_TMP, W + (size_t)slo * B, len);
        if (first)
            sched_build_copy(b, NBO_BUF_TMP, W + (size_t)klo * B, input(a), a->sdispl[klo], len);
        sched_build_flush(b);
        sched_build_reduce(b, NBO_BUF_TMP, W + (size_t)klo * B, NBO_BUF_TMP, R, len);
        lo = klo;
        hi = klo + d;
    }
    /* P = 1: the only block is the input itself. */
    if (P == 1)
        sched_build_copy(b, NBO_BUF_RECV, 0, input(a), a->sdispl[0], B);
    else
        sched_build_copy(b, NBO_BUF_RECV, 0, NBO_BUF_TMP, W + (size_t)r * B, B);
    return NBO_SUCCESS;
}
