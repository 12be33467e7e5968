/*
 * compile_allgather.c - allgather(v): ring, recursive doubling, Bruck.
 *
 * Ring and recursive doubling work on the blocks where they end up: in the
 * receive buffer at rdispl[i], or (non-contiguous receive type) in scratch
 * at the packed prefix offset, UNPACKed at the end.  The ring sends every
 * block as its own message, so irregular (allgatherv) sizes need nothing
 * more; recursive doubling sends a round's blocks that lie end to end as
 * one.
 * Bruck works in a rotated scratch array, where each round is one message.
 */
#include "sched_algs.h"
#include "sched_build.h"

#include <stdint.h>
#include <stdlib.h>

/* The blocks' total fits in size_t. */
static int too_big(const nbo_sched_args_t *a)
{
    size_t t = 0;
    for (int i = 0; i < a->size; i++) {
        if (a->rbytes[i] > SIZE_MAX - t)
            return 1;
        t += a->rbytes[i];
    }
    return 0;
}

typedef struct ag_layout {
    nbo_buf_t buf;   /* where the blocks are worked on */
    size_t   *off;   /* [P] offset of block i there */
} ag_layout_t;

/* Blocks in place in RECV, or packed in rank order in scratch. */
static int layout(const nbo_sched_args_t *a, sched_build_t *b, ag_layout_t *l)
{
    const int P = a->size;
    if (too_big(a))
        return NBO_ERR_OVERFLOW;
    l->off = malloc((size_t)P * sizeof(size_t));
    if (!l->off)
        return NBO_ERR_NOMEM;
    l->buf = a->recv_contig ? NBO_BUF_RECV : NBO_BUF_TMP;
    size_t tmp = 0;
    for (int i = 0; i < P; i++) {
        l->off[i] = a->recv_contig ? a->rdispl[i] : tmp;
        tmp += a->rbytes[i];
    }
    b->s->tmp_bytes = a->recv_contig ? 0 : tmp;
    return NBO_SUCCESS;
}

/* The own block to (buf, off): copied from SEND or RECV, or packed. */
static void own_to(const nbo_sched_args_t *a, sched_build_t *b, nbo_buf_t buf, size_t off)
{
    const int r = a->rank;
    const size_t n = a->rbytes[r];
    if (a->in_place ? a->recv_contig : a->send_contig)
        sched_build_copy(b, buf, off, a->in_place ? NBO_BUF_RECV : NBO_BUF_SEND,
                         a->in_place ? a->rdispl[r] : a->sdispl[r], n);
    else
        sched_build_pack(b, r, buf, off, n);
}

/* The ring and recursive doubling begin alike: the layout, with the own
 * block already in it. */
static int lay_out_own(const nbo_sched_args_t *a, sched_build_t *b, ag_layout_t *l)
{
    int rc = layout(a, b, l);
    if (rc == NBO_SUCCESS)
        own_to(a, b, l->buf, l->off[a->rank]);
    return rc;
}

/* Non-contiguous receive: every block (the own one too unless it is there
 * already) leaves scratch for the user's buffer. */
static void unpack_all(const nbo_sched_args_t *a, sched_build_t *b, const ag_layout_t *l)
{
    if (a->recv_contig)
        return;
    for (int i = 0; i < a->size; i++)
        if (i != a->rank || !a->in_place)
            sched_build_unpack(b, i, NBO_BUF_TMP, l->off[i], a->rbytes[i]);
}

/* Step s sends block r-s to r+1 and receives block r-s-1 from r-1. */
int nbo_compile_allgather_ring(const nbo_sched_args_t *a, sched_build_t *b)
{
    const int P = a->size, r = a->rank;
    ag_layout_t l;
    int rc = lay_out_own(a, b, &l);
    if (rc)
        return rc;
    for (int s = 0; s < P - 1; s++) {
        int sb = (r - s + P) % P, rb = (r - s - 1 + P) % P;
        sched_build_post_recv(b, (r - 1 + P) % P, l.buf, l.off[rb], a->rbytes[rb]);
        sched_build_post_send(b, a->window, (r + 1) % P, l.buf, l.off[sb], a->rbytes[sb]);
        sched_build_flush(b);
    }
    unpack_all(a, b, &l);
    free(l.off);
    return NBO_SUCCESS;
}

/* Blocks [first, first + n) to or from peer: one message per run of
 * blocks that lie end to end, where every rank's layout is the same (the
 * packed scratch, or an allgather's uniform blocks), so that both sides
 * cut the same messages; else one message per block. */
static void post_blocks(const nbo_sched_args_t *a, sched_build_t *b, const ag_layout_t *l,
                        int peer, int first, int n, int send)
{
    const int same_layout = l->buf == NBO_BUF_TMP || a->uniform;
    for (int i = first; i < first + n;) {
        size_t len = a->rbytes[i];
        int j = i + 1;
        while (same_layout && j < first + n && l->off[j] == l->off[j - 1] + a->rbytes[j - 1])
            len += a->rbytes[j++];
        if (send)
            sched_build_post_send(b, a->window, peer, l->buf, l->off[i], len);
        else
            sched_build_post_recv(b, peer, l->buf, l->off[i], len);
        i = j;
    }
}

/* Round d (power-of-two P): swap the d blocks of my group with the
 * partner r^d's group. */
int nbo_compile_allgather_rd(const nbo_sched_args_t *a, sched_build_t *b)
{
    const int P = a->size, r = a->rank;
    ag_layout_t l;
    int rc = lay_out_own(a, b, &l);
    if (rc)
        return rc;
    for (int d = 1; d < P; d <<= 1) {
        int peer = r ^ d, mine = r & ~(d - 1), theirs = peer & ~(d - 1);
        post_blocks(a, b, &l, peer, theirs, d, 0);
        post_blocks(a, b, &l, peer, mine, d, 1);
        sched_build_flush(b);
    }
    unpack_all(a, b, &l);
    free(l.off);
    return NBO_SUCCESS;
}

/* Bruck: A[i] (scratch, rotated) holds block r+i; round d sends A[0..c) to
 * r-d and receives A[d..d+c) from r+d, c = min(d, P-d), one message each
 * (the same bytes on both sides: every rank knows every block's size). */
int nbo_compile_allgather_bruck(const nbo_sched_args_t *a, sched_build_t *b)
{
    const int P = a->size, r = a->rank;
    if (P == 1) /* the own block straight to its place */
        return nbo_compile_allgather_ring(a, b);
    if (too_big(a))
        return NBO_ERR_OVERFLOW;
    size_t *aoff = malloc(((size_t)P + 1) * sizeof(size_t));
    if (!aoff)
        return NBO_ERR_NOMEM;
    aoff[0] = 0;
    for (int i = 0; i < P; i++)
        aoff[i + 1] = aoff[i] + a->rbytes[(r + i) % P];
    b->s->tmp_bytes = aoff[P];
    own_to(a, b, NBO_BUF_TMP, 0);
    for (int d = 1; d < P; d <<= 1) {
        int c = d < P - d ? d : P - d;
        sched_build_post_recv(b, (r + d) % P, NBO_BUF_TMP, aoff[d], aoff[d + c] - aoff[d]);
        sched_build_post_send(b, a->window, (r - d + P) % P, NBO_BUF_TMP, 0, aoff[c]);
        sched_build_flush(b);
    }
    for (int i = 0; i < P; i++) {
        int blk = (r + i) % P;
        if (i == 0 && a->in_place)
            continue; /* the own block is where it belongs */
        if (a->recv_contig)
            sched_build_copy(b, NBO_BUF_RECV, a->rdispl[blk], NBO_BUF_TMP, aoff[i], a->rbytes[blk]);
        else
            sched_build_unpack(b, blk, NBO_BUF_TMP, aoff[i], a->rbytes[blk]);
    }
    free(aoff);
    return NBO_SUCCESS;
}
