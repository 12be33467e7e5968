/*
 * compile_gather.c - gather(v) and scatter(v): a binomial tree for small
 * uniform blocks, linear (the root exchanges every block with its owner
 * itself) for large ones and for the v-forms, whose block sizes only the
 * root knows.  Ranks on the tree are taken relative to the root (v = rank
 * - root); the subtree of v holds the blocks of v .. v + span - 1 (span:
 * v's lowest set bit), kept in scratch in that order, B bytes each.
 */
#include "sched_algs.h"
#include "sched_build.h"

#include <stdint.h>

static int real_rank(const nbo_sched_args_t *a, int v) { return (v + a->root) % a->size; }

/* v's lowest set bit, or for the root the first power of two >= P. */
static int span_of(int P, int v)
{
    int m = 1;
    if (v == 0) {
        while (m < P)
            m <<= 1;
        return m;
    }
    while (!(v & m))
        m <<= 1;
    return m;
}

/* Blocks in the subtree of v. */
static int count_of(int P, int v, int span) { return span < P - v ? span : P - v; }

/* The root's side of the blocks (gather: RECV, scatter: the input) at
 * displ[] holds relative ranks [j, j + n) end to end without wrapping
 * around rank P - 1, so one message can move them. */
static int end_to_end(const nbo_sched_args_t *a, const size_t *displ, int j, int n, size_t B)
{
    const int s = real_rank(a, j);
    if (s + n > a->size)
        return 0;
    for (int i = s; i + 1 < s + n; i++)
        if (displ[i + 1] != displ[i] + B)
            return 0;
    return 1;
}

static int check_root(const nbo_sched_args_t *a)
{
    return a->root < 0 || a->root >= a->size ? NBO_ERR_ROOT : NBO_SUCCESS;
}

/* ---------------------------------------------------------------- gather */

/* The own block into scratch at 0 (a rank of the tree that forwards). */
static void own_to_tmp(const nbo_sched_args_t *a, sched_build_t *b, size_t B)
{
    if (a->send_contig)
        sched_build_copy(b, NBO_BUF_TMP, 0, NBO_BUF_SEND, a->sdispl[a->rank], B);
    else
        sched_build_pack(b, a->rank, NBO_BUF_TMP, 0, B);
}

/* Block of relative rank j, at scratch offset off, to its place in RECV. */
static void deliver(const nbo_sched_args_t *a, sched_build_t *b, int j, size_t off, size_t B)
{
    const int i = real_rank(a, j);
    if (a->recv_contig)
        sched_build_copy(b, NBO_BUF_RECV, a->rdispl[i], NBO_BUF_TMP, off, B);
    else
        sched_build_unpack(b, i, NBO_BUF_TMP, off, B);
}

/* The root receives each child's subtree straight into RECV where the
 * blocks lie end to end, else into scratch and delivers block by block. */
static void gather_root(const nbo_sched_args_t *a, sched_build_t *b, size_t B)
{
    const int P = a->size;
    int staged = 0;
    for (int m = 1; m < P; m <<= 1) {
        const int n = count_of(P, m, m);
        if (a->recv_contig && end_to_end(a, a->rdispl, m, n, B)) {
            sched_build_post_recv(b, real_rank(a, m), NBO_BUF_RECV,
                                  a->rdispl[real_rank(a, m)], (size_t)n * B);
        } else {
            sched_build_post_recv(b, real_rank(a, m), NBO_BUF_TMP, (size_t)m * B,
                                  (size_t)n * B);
            staged = 1;
        }
    }
    if (staged || sched_build_own_tmp(a))
        b->s->tmp_bytes = (size_t)P * B;
    sched_build_own_block(b, a, 0); /* slot 0 is the root's own, never received */
    sched_build_flush(b);
    for (int m = 1; m < P; m <<= 1) {
        const int n = count_of(P, m, m);
        if (!(a->recv_contig && end_to_end(a, a->rdispl, m, n, B)))
            for (int j = m; j < m + n; j++)
                deliver(a, b, j, (size_t)j * B, B);
    }
}

int nbo_compile_gather_binomial(const nbo_sched_args_t *a, sched_build_t *b)
{
    const int P = a->size, v = (a->rank - a->root + P) % P;
    const size_t B = a->sbytes[a->rank];
    int rc = check_root(a);
    if (rc)
        return rc;
    if (B > SIZE_MAX / 2 / (size_t)P)
        return NBO_ERR_OVERFLOW;
    if (v == 0) {
        if (B == 0 || P == 1) {
            b->s->tmp_bytes = sched_build_own_tmp(a);
            sched_build_own_block(b, a, 0);
        } else {
            gather_root(a, b, B);
        }
        return NBO_SUCCESS;
    }
    if (B == 0)
        return NBO_SUCCESS;
    const int span = span_of(P, v), n = count_of(P, v, span), parent = real_rank(a, v - span);
    if (n == 1 && a->send_contig) { /* a leaf sends straight from SEND */
        sched_build_post_send(b, a->window, parent, NBO_BUF_SEND, a->sdispl[a->rank], B);
        sched_build_flush(b);
        return NBO_SUCCESS;
    }
    b->s->tmp_bytes = (size_t)n * B;
    for (int m = 1; m < span && v + m < P; m <<= 1)
        sched_build_post_recv(b, real_rank(a, v + m), NBO_BUF_TMP, (size_t)m * B,
                              (size_t)count_of(P, v + m, m) * B);
    own_to_tmp(a, b, B);
    sched_build_flush(b);
    sched_build_post_send(b, a->window, parent, NBO_BUF_TMP, 0, (size_t)n * B);
    sched_build_flush(b);
    return NBO_SUCCESS;
}

/* Gather and gatherv: each rank sends its block to the root, which posts
 * every receive at once, packed blocks through scratch. */
int nbo_compile_gather_linear(const nbo_sched_args_t *a, sched_build_t *b)
{
    const int P = a->size, r = a->rank;
    int rc = check_root(a);
    if (rc)
        return rc;
    if (r != a->root) {
        const size_t B = a->sbytes[r];
        if (a->send_contig) {
            sched_build_post_send(b, a->window, a->root, NBO_BUF_SEND, a->sdispl[r], B);
        } else if (B) {
            b->s->tmp_bytes = B;
            sched_build_pack(b, r, NBO_BUF_TMP, 0, B);
            sched_build_post_send(b, a->window, a->root, NBO_BUF_TMP, 0, B);
        }
        sched_build_flush(b);
        return NBO_SUCCESS;
    }
    size_t off = sched_build_own_tmp(a); /* scratch: the own block first, if it needs any */
    for (int i = 0; i < P; i++) {
        if (i == r)
            continue;
        if (a->recv_contig) {
            sched_build_post_recv(b, i, NBO_BUF_RECV, a->rdispl[i], a->rbytes[i]);
        } else {
            sched_build_post_recv(b, i, NBO_BUF_TMP, off, a->rbytes[i]);
            off += a->rbytes[i];
        }
    }
    b->s->tmp_bytes = off;
    sched_build_own_block(b, a, 0);
    sched_build_flush(b);
    if (!a->recv_contig) {
        off = sched_build_own_tmp(a);
        for (int i = 0; i < P; i++)
            if (i != r && a->rbytes[i]) {
                sched_build_unpack(b, i, NBO_BUF_TMP, off, a->rbytes[i]);
                off += a->rbytes[i];
            }
    }
    return NBO_SUCCESS;
}

/* --------------------------------------------------------------- scatter */

/* The root's input block i: in SEND, or in RECV in place. */
static nbo_buf_t in_buf(const nbo_sched_args_t *a) { return a->in_place ? NBO_BUF_RECV : NBO_BUF_SEND; }
static const size_t *in_displ(const nbo_sched_args_t *a) { return a->in_place ? a->rdispl : a->sdispl; }
static const size_t *in_bytes(const nbo_sched_args_t *a) { return a->in_place ? a->rbytes : a->sbytes; }
static int in_contig(const nbo_sched_args_t *a) { return a->in_place ? a->recv_contig : a->send_contig; }

/* The root's input block i to scratch at off (COPY or PACK). */
static void stage_block(const nbo_sched_args_t *a, sched_build_t *b, int i, size_t off)
{
    const size_t len = in_bytes(a)[i];
    if (in_contig(a))
        sched_build_copy(b, NBO_BUF_TMP, off, in_buf(a), in_displ(a)[i], len);
    else
        sched_build_pack(b, i, NBO_BUF_TMP, off, len);
}

/* A received own block, at scratch offset 0, to its place. */
static void own_from_tmp(const nbo_sched_args_t *a, sched_build_t *b, size_t B)
{
    const int r = a->rank;
    if (a->recv_contig)
        sched_build_copy(b, NBO_BUF_RECV, a->rdispl[r], NBO_BUF_TMP, 0, B);
    else
        sched_build_unpack(b, r, NBO_BUF_TMP, 0, B);
}

static void scatter_root(const nbo_sched_args_t *a, sched_build_t *b, size_t B)
{
    const int P = a->size;
    int top = 1, staged = 0;
    while (top < P)
        top <<= 1;
    /* Largest subtree first: it has the longest way to go. */
    for (int m = top >> 1; m >= 1; m >>= 1) {
        if (m >= P)
            continue;
        const int n = count_of(P, m, m);
        if (in_contig(a) && end_to_end(a, in_displ(a), m, n, B)) {
            sched_build_post_send(b, a->window, real_rank(a, m), in_buf(a),
                                  in_displ(a)[real_rank(a, m)], (size_t)n * B);
        } else {
            staged = 1;
            for (int j = m; j < m + n; j++)
                stage_block(a, b, real_rank(a, j), (size_t)j * B);
            sched_build_post_send(b, a->window, real_rank(a, m), NBO_BUF_TMP, (size_t)m * B,
                                  (size_t)n * B);
        }
    }
    if (staged || sched_build_own_tmp(a))
        b->s->tmp_bytes = (size_t)P * B;
    sched_build_own_block(b, a, 0); /* slot 0 is the root's own, never sent */
    sched_build_flush(b);
}

int nbo_compile_scatter_binomial(const nbo_sched_args_t *a, sched_build_t *b)
{
    const int P = a->size, v = (a->rank - a->root + P) % P;
    const size_t B = a->rbytes[a->rank];
    int rc = check_root(a);
    if (rc)
        return rc;
    if (B > SIZE_MAX / 2 / (size_t)P)
        return NBO_ERR_OVERFLOW;
    if (v == 0) {
        if (B == 0 || P == 1) {
            b->s->tmp_bytes = sched_build_own_tmp(a);
            sched_build_own_block(b, a, 0);
        } else {
            scatter_root(a, b, B);
        }
        return NBO_SUCCESS;
    }
    if (B == 0)
        return NBO_SUCCESS;
    const int span = span_of(P, v), n = count_of(P, v, span), parent = real_rank(a, v - span);
    if (n == 1 && a->recv_contig) { /* a leaf receives straight into RECV */
        sched_build_post_recv(b, parent, NBO_BUF_RECV, a->rdispl[a->rank], B);
        sched_build_flush(b);
        return NBO_SUCCESS;
    }
    b->s->tmp_bytes = (size_t)n * B;
    sched_build_post_recv(b, parent, NBO_BUF_TMP, 0, (size_t)n * B);
    sched_build_flush(b);
    for (int m = span >> 1; m >= 1; m >>= 1)
        if (v + m < P)
            sched_build_post_send(b, a->window, real_rank(a, v + m), NBO_BUF_TMP, (size_t)m * B,
                                  (size_t)count_of(P, v + m, m) * B);
    own_from_tmp(a, b, B);
    sched_build_flush(b);
    return NBO_SUCCESS;
}

/* Scatter and scatterv: the root sends every block itself, W at a time,
 * packed blocks through scratch. */
int nbo_compile_scatter_linear(const nbo_sched_args_t *a, sched_build_t *b)
{
    const int P = a->size, r = a->rank;
    int rc = check_root(a);
    if (rc)
        return rc;
    if (r != a->root) {
        const size_t B = a->rbytes[r];
        if (a->recv_contig) {
            sched_build_post_recv(b, a->root, NBO_BUF_RECV, a->rdispl[r], B);
            sched_build_flush(b);
        } else if (B) {
            b->s->tmp_bytes = B;
            sched_build_post_recv(b, a->root, NBO_BUF_TMP, 0, B);
            sched_build_flush(b);
            own_from_tmp(a, b, B);
        }
        return NBO_SUCCESS;
    }
    size_t off = sched_build_own_tmp(a);
    for (int k = 1; k < P; k++) {
        const int i = (r + k) % P;
        const size_t len = in_bytes(a)[i];
        if (in_contig(a)) {
            sched_build_post_send(b, a->window, i, in_buf(a), in_displ(a)[i], len);
        } else if (len) {
            stage_block(a, b, i, off);
            sched_build_post_send(b, a->window, i, NBO_BUF_TMP, off, len);
            off += len;
        }
    }
    b->s->tmp_bytes = off;
    sched_build_own_block(b, a, 0);
    sched_build_flush(b);
    return NBO_SUCCESS;
}
