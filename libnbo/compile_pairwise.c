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

#include <stdlib.h>

static int is_pow2(int p) { return p > 0 && (p & (p - 1)) == 0; }

static int step_dst(int P, int r, int i) { return is_pow2(P) ? (r ^ i) : (r + i) % P; }
static int step_src(int P, int r, int i) { return is_pow2(P) ? (r ^ i) : (r - i + P) % P; }

int nbo_compile_pairwise(const nbo_sched_args_t *a, sched_build_t *b)
{
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
