/*
 * compile_bcast.c - broadcast: a binomial tree for small messages, scatter
 * down the binomial tree then a ring allgather for large ones (van de
 * Geijn).  Ranks are taken relative to the root (v = rank - root).
 *
 * The data is worked on in the receive buffer, or (non-contiguous type) in
 * scratch: the root PACKs block 0 there first, the others UNPACK it last.
 */
#include "sched_algs.h"
#include "sched_build.h"

static int real_rank(const nbo_sched_args_t *a, int v) { return (v + a->root) % a->size; }

/* Where the bytes are worked on; packs the root's data when staged. */
static nbo_buf_t data_start(const nbo_sched_args_t *a, sched_build_t *b)
{
    if (a->recv_contig)
        return NBO_BUF_RECV;
    b->s->tmp_bytes = a->rbytes[0];
    if (a->rank == a->root)
        sched_build_pack(b, 0, NBO_BUF_TMP, 0, a->rbytes[0]);
    return NBO_BUF_TMP;
}

/* Non-roots deliver the staged data to the user's buffer. */
static void data_end(const nbo_sched_args_t *a, sched_build_t *b)
{
    if (!a->recv_contig && a->rank != a->root)
        sched_build_unpack(b, 0, NBO_BUF_TMP, 0, a->rbytes[0]);
}

/* The lowest set bit of v (v > 0), or the first power of two >= P for the
 * root: the span of v's subtree. */
static int subtree(int P, int v)
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

/* Receive from the parent v - lowbit(v), then send to children v + m for
 * every power of two m below the subtree span, largest first. */
int nbo_compile_bcast_binomial(const nbo_sched_args_t *a, sched_build_t *b)
{
    if (a->root < 0 || a->root >= a->size)
        return NBO_ERR_ROOT;
    if (a->size == 1) /* the data is where it belongs */
        return NBO_SUCCESS;
    const int P = a->size, v = (a->rank - a->root + P) % P;
    const size_t n = a->rbytes[0];
    nbo_buf_t buf = data_start(a, b);
    int span = subtree(P, v);
    if (v) {
        sched_build_post_recv(b, real_rank(a, v - span), buf, 0, n);
        sched_build_flush(b);
    }
    for (int m = span >> 1; m > 0; m >>= 1)
        if (v + m < P)
            sched_build_post_send(b, a->window, real_rank(a, v + m), buf, 0, n);
    sched_build_flush(b);
    data_end(a, b);
    return NBO_SUCCESS;
}

/* Byte offset of piece i of P: ceil(n/P) bytes each, the last ones short. */
static size_t piece(size_t n, int P, int i)
{
    size_t c = (n + (size_t)P - 1) / (size_t)P, o = c * (size_t)i;
    return o < n ? o : n;
}

/* Scatter: v receives pieces [v, v+span) from its parent and passes
 * [c, c+m) on to each child c = v+m. */
static void scatter(const nbo_sched_args_t *a, sched_build_t *b, nbo_buf_t buf, int v)
{
    const int P = a->size;
    const size_t n = a->rbytes[0];
    int span = subtree(P, v);
    if (v) {
        int end = v + span < P ? v + span : P;
        size_t lo = piece(n, P, v), hi = piece(n, P, end);
        sched_build_post_recv(b, real_rank(a, v - span), buf, lo, hi - lo);
        sched_build_flush(b);
    }
    for (int m = span >> 1; m > 0; m >>= 1)
        if (v + m < P) {
            int c = v + m, end = c + m < P ? c + m : P;
            size_t lo = piece(n, P, c), hi = piece(n, P, end);
            sched_build_post_send(b, a->window, real_rank(a, c), buf, lo, hi - lo);
        }
    sched_build_flush(b);
}

/* Ring: step s sends piece v-s to v+1, receives piece v-s-1 from v-1; the
 * root has every piece, so the link P-1 -> root is left out (the root's
 * buffer is never written). */
static void ring(const nbo_sched_args_t *a, sched_build_t *b, nbo_buf_t buf, int v)
{
    const int P = a->size;
    const size_t n = a->rbytes[0];
    for (int s = 0; s < P - 1; s++) {
        int sp = (v - s + P) % P, rp = (v - s - 1 + P) % P;
        if (v != 0)
            sched_build_post_recv(b, real_rank(a, v - 1 + P), buf, piece(n, P, rp),
                                  piece(n, P, rp + 1) - piece(n, P, rp));
        if (v != P - 1)
            sched_build_post_send(b, a->window, real_rank(a, v + 1), buf, piece(n, P, sp),
                                  piece(n, P, sp + 1) - piece(n, P, sp));
        sched_build_flush(b);
    }
}

/* Large messages: the root sends each byte about twice instead of log2 P
 * times down the tree. */
int nbo_compile_bcast_scatter_allgather(const nbo_sched_args_t *a, sched_build_t *b)
{
    if (a->root < 0 || a->root >= a->size)
        return NBO_ERR_ROOT;
    if (a->size == 1) /* the data is where it belongs */
        return NBO_SUCCESS;
    const int v = (a->rank - a->root + a->size) % a->size;
    nbo_buf_t buf = data_start(a, b);
    scatter(a, b, buf, v);
    ring(a, b, buf, v);
    data_end(a, b);
    return NBO_SUCCESS;
}
