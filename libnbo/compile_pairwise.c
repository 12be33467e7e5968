/*
 * compile_pairwise.c - pairwise exchange in communication windows
 * (paper section IV-B, Fig. 1).
 *
 * Step i (1..P-1) sends to dst(i) and receives from src(i): rank XOR i when
 * P is a power of two, rank+i / rank-i otherwise.  All receives are posted
 * first so no message arrives unexpected; sends go out W steps at a time,
 * and each window's WAIT covers its sends and the matching receives, which
 * keeps at most W exchanges in flight (flow control without big buffers).
 * The own block is copied locally once the first sends are out.
 */
#include "sched_algs.h"
#include "sched_build.h"
#include "codec.h"

#include <stdint.h>
#include <stdlib.h>

static int is_pow2(int p) { return p > 0 && (p & (p - 1)) == 0; }

static int step_dst(int P, int r, int i) { return is_pow2(P) ? (r ^ i) : (r + i) % P; }
static int step_src(int P, int r, int i) { return is_pow2(P) ? (r ^ i) : (r - i + P) % P; }

/* Compressed blocks (codec.h): every message lives in its own scratch slot
 * (16-byte aligned), one per peer and direction, of the codec's size for
 * the block.  The receives are posted first, into their slots.  The
 * blocks of window 0 are encoded before its sends; then, while window w's
 * messages are in flight, the blocks window w-1 received are decoded into
 * the receive buffer and those window w+1 sends are encoded, before w's
 * WAIT: the codec's work overlaps the transfers.  In place, every block is
 * encoded before the first send instead (a decode writes the receive
 * buffer, where the blocks still to be encoded are).  The own block is
 * copied exactly, after the first window that sends. */
static int compile_codec(const nbo_sched_args_t *a, sched_build_t *b)
{
    const int P = a->size, r = a->rank, W = a->window;
    const size_t scalar = nbo_celem_bytes(a->codec_elem);
    size_t *soff = calloc((size_t)P, sizeof(size_t)), *roff = calloc((size_t)P, sizeof(size_t));
    size_t *swire = calloc((size_t)P, sizeof(size_t)), *rwire = calloc((size_t)P, sizeof(size_t));
    int *recv_task = malloc((size_t)P * sizeof(int)), *widx = malloc(2 * (size_t)W * sizeof(int));
    int rc = NBO_SUCCESS;
    if (!soff || !roff || !swire || !rwire || !recv_task || !widx)
        rc = NBO_ERR_NOMEM;
    size_t tmp = 0;
    for (int p = 0; p < P && rc == NBO_SUCCESS; p++) {
        if (p == r)
            continue;
        if (a->sbytes[p] % scalar || a->rbytes[p] % scalar) {
            rc = NBO_ERR_ARG; /* not whole scalars: the caller's type is not the codec's */
            break;
        }
        swire[p] = nbo_codec_wire_bytes(a->codec, a->codec_rate, a->codec_elem, a->sbytes[p]);
        rwire[p] = nbo_codec_wire_bytes(a->codec, a->codec_rate, a->codec_elem, a->rbytes[p]);
        if (swire[p] == SIZE_MAX || rwire[p] == SIZE_MAX ||
            tmp > SIZE_MAX - 32 - swire[p] - rwire[p]) {
            rc = NBO_ERR_OVERFLOW;
            break;
        }
        soff[p] = tmp;
        tmp = (tmp + swire[p] + 15) & ~(size_t)15;
        roff[p] = tmp;
        tmp = (tmp + rwire[p] + 15) & ~(size_t)15;
    }
    if (rc != NBO_SUCCESS) {
        free(soff); free(roff); free(swire); free(rwire); free(recv_task); free(widx);
        return rc;
    }
    b->s->tmp_bytes = tmp;
    b->s->codec = a->codec;
    b->s->codec_rate = a->codec_rate;
    b->s->codec_elem = a->codec_elem;
    /* In place the outgoing blocks are in the receive buffer. */
    const nbo_buf_t sbuf = a->in_place ? NBO_BUF_RECV : NBO_BUF_SEND;
    const size_t *sdispl = a->in_place ? a->rdispl : a->sdispl;

    for (int i = 1; i < P; i++) {
        int src = step_src(P, r, i);
        recv_task[i] = sched_build_recv(b, src, NBO_BUF_TMP, roff[src], rwire[src]);
    }
    /* Encode steps [from, to) (to clipped at P). */
#define ENCODE_STEPS(from, to)                                                                 \
    for (int i = (from); i < (to) && i < P; i++) {                                             \
        int dst = step_dst(P, r, i);                                                           \
        sched_build_encode(b, dst, NBO_BUF_TMP, soff[dst], sbuf, sdispl[dst], a->sbytes[dst]); \
    }
    if (a->in_place)
        ENCODE_STEPS(1, P)
    else
        ENCODE_STEPS(1, 1 + W)

    int own_left = 0;
    for (int p = 0; p < P; p++)
        if (p != r && a->sbytes[p] > 0)
            own_left = 1;
    if (!own_left)
        sched_build_own_block(b, a, 0);

    for (int first = 1; first < P; first += W) {
        int last = first + W < P ? first + W : P;
        int n = 0, sent = 0;
        for (int i = first; i < last; i++) {
            int dst = step_dst(P, r, i);
            widx[n++] = sched_build_send(b, dst, NBO_BUF_TMP, soff[dst], swire[dst]);
            sent |= a->sbytes[dst] > 0;
            widx[n++] = recv_task[i];
        }
        if (own_left && sent) {
            sched_build_own_block(b, a, 0);
            own_left = 0;
        }
        /* While this window is in flight: the previous window's blocks
         * out of their slots, the next window's into theirs. */
        for (int i = first - W; i >= 1 && i < first; i++) {
            int src = step_src(P, r, i);
            sched_build_decode(b, src, NBO_BUF_RECV, a->rdispl[src], NBO_BUF_TMP, roff[src],
                               a->rbytes[src]);
        }
        if (!a->in_place)
            ENCODE_STEPS(last, last + W)
        sched_build_wait(b, widx, n);
    }
#undef ENCODE_STEPS
    /* The last window's blocks. */
    int last_first = P > 1 ? 1 + ((P - 2) / W) * W : P;
    for (int i = last_first; i < P; i++) {
        int src = step_src(P, r, i);
        sched_build_decode(b, src, NBO_BUF_RECV, a->rdispl[src], NBO_BUF_TMP, roff[src],
                           a->rbytes[src]);
    }
    free(soff); free(roff); free(swire); free(rwire); free(recv_task); free(widx);
    return NBO_SUCCESS;
}

int nbo_compile_pairwise(const nbo_sched_args_t *a, sched_build_t *b)
{
    if (nbo_sched_codec_on(a))
        return compile_codec(a, b);
    const int P = a->size, r = a->rank;
    /* Scratch: staged send blocks (in-place or packed), then staged
     * receive blocks (non-contiguous receive type), then own block. */
    size_t *soff = calloc((size_t)P, sizeof(size_t));
    size_t *roff = calloc((size_t)P, sizeof(size_t));
    int *widx = malloc(2 * (size_t)a->window * sizeof(int));
    if (!soff || !roff || !widx) {
        free(soff); free(roff); free(widx);
        return NBO_ERR_NOMEM;
    }
    const int stage_send = a->in_place || !a->send_contig;
    const int stage_recv = !a->recv_contig;
    size_t tmp = 0;
    for (int p = 0; p < P; p++)
        if (stage_send && p != r) { soff[p] = tmp; tmp += a->sbytes[p]; }
    for (int p = 0; p < P; p++)
        if (stage_recv && p != r) { roff[p] = tmp; tmp += a->rbytes[p]; }
    size_t self_off = tmp;
    tmp += sched_build_own_tmp(a);
    b->s->tmp_bytes = tmp;

    /* In place, outgoing blocks must leave the receive buffer before any
     * receive can land on them. */
    if (a->in_place)
        for (int p = 0; p < P; p++) {
            if (p == r)
                continue;
            if (a->send_contig)
                sched_build_copy(b, NBO_BUF_TMP, soff[p], NBO_BUF_RECV, a->sdispl[p], a->sbytes[p]);
            else
                sched_build_pack(b, p, NBO_BUF_TMP, soff[p], a->sbytes[p]);
        }

    int *recv_task = malloc((size_t)P * sizeof(int));
    if (!recv_task) {
        free(soff); free(roff); free(widx);
        return NBO_ERR_NOMEM;
    }
    for (int i = 1; i < P; i++) {
        int src = step_src(P, r, i);
        recv_task[i] = stage_recv
            ? sched_build_recv(b, src, NBO_BUF_TMP, roff[src], a->rbytes[src])
            : sched_build_recv(b, src, NBO_BUF_RECV, a->rdispl[src], a->rbytes[src]);
    }

    /* Own block: after the first window that sends anything, so that those
     * bytes are on the wire while it is copied; a rank that sends nothing
     * copies it while its receives are in flight. */
    int own_left = 0;
    for (int p = 0; p < P; p++)
        if (p != r && a->sbytes[p] > 0)
            own_left = 1;
    if (!own_left)
        sched_build_own_block(b, a, self_off);

    for (int first = 1; first < P; first += a->window) {
        int last = first + a->window < P ? first + a->window : P;
        int n = 0, sent = 0;
        for (int i = first; i < last; i++) {
            int dst = step_dst(P, r, i);
            if (stage_send && !a->in_place)
                sched_build_pack(b, dst, NBO_BUF_TMP, soff[dst], a->sbytes[dst]);
            widx[n++] = stage_send
                ? sched_build_send(b, dst, NBO_BUF_TMP, soff[dst], a->sbytes[dst])
                : sched_build_send(b, dst, NBO_BUF_SEND, a->sdispl[dst], a->sbytes[dst]);
            sent |= a->sbytes[dst] > 0; /* as own_left: empty blocks are not sent */
            widx[n++] = recv_task[i];
        }
        if (own_left && sent) {
            sched_build_own_block(b, a, self_off);
            own_left = 0;
        }
        sched_build_wait(b, widx, n);
        if (stage_recv)
            for (int i = first; i < last; i++) {
                int src = step_src(P, r, i);
                sched_build_unpack(b, src, NBO_BUF_TMP, roff[src], a->rbytes[src]);
            }
    }
    free(recv_task);
    free(soff);
    free(roff);
    free(widx);
    return NBO_SUCCESS;
}
