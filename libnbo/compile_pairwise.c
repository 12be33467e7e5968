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
#include "../codec/codec.h"

#include <stdint.h>
#include <stdlib.h>

static int is_pow2(int p) { return p > 0 && (p & (p - 1)) == 0; }

static int step_dst(int P, int r, int i) { return is_pow2(P) ? (r ^ i) : (r + i) % P; }
static int step_src(int P, int r, int i) { return is_pow2(P) ? (r ^ i) : (r - i + P) % P; }

/* Compressed blocks (codec/codec.h).  Each block is cut into chunks of
 * nbo_sched_codec_chunk() raw bytes (the last one shorter), each its own
 * message in its own 16-byte aligned scratch slot, sized by the codec.
 * The steps go in windows of W as above, and a window in rounds: round r
 * sends chunk r of each of its steps' blocks and receives chunk r of each
 * block coming in, and ends with a WAIT on them (at most W sends in flight;
 * both sides number a pair's chunks alike, so every rank's round (window,
 * r) waits only for messages its peers send in their round (window, r)).
 * The receives are posted first, into their slots.  The chunks of round 0
 * are encoded before its sends; then, while round u's messages are in
 * flight, round u-1's received chunks are decoded and round u+1's encoded,
 * before u's WAIT: encoding the next chunk and decoding the previous one
 * overlap the transfer of the current one, at P = 2 too.  In place, every
 * chunk is encoded before the first send instead (a decode writes the
 * receive buffer, where the blocks still to be encoded are).  The own
 * block is copied exactly, after the first round that sends. */
typedef struct {
    int    peer;
    size_t raw_off, raw_len, slot, wire;
} cmsg_t;

typedef struct {
    int s0, ns, r0, nr; /* this round's messages in the send and receive lists */
} round_t;

static size_t nchunks(size_t bytes, size_t chunk) { return bytes ? (bytes + chunk - 1) / chunk : 0; }

/* Bytes between a block's chunk slots: its first chunk's message, 16-byte
 * aligned (SIZE_MAX on overflow). */
static size_t slot_stride(const nbo_sched_args_t *a, size_t bytes, size_t chunk)
{
    size_t w = nbo_codec_wire_bytes(a->codec, a->codec_rate, a->codec_elem,
                                    bytes < chunk ? bytes : chunk);
    return w > SIZE_MAX - 15 ? SIZE_MAX : (w + 15) & ~(size_t)15;
}

static int compile_codec(const nbo_sched_args_t *a, sched_build_t *b)
{
    const int P = a->size, r = a->rank, W = a->window;
    const size_t scalar = nbo_celem_bytes(a->codec_elem), chunk = nbo_sched_codec_chunk(a);
    size_t nsend = 0, nrecv = 0, nround = 0;
    for (int p = 0; p < P; p++) {
        if (p == r)
            continue;
        if (a->sbytes[p] % scalar || a->rbytes[p] % scalar)
            return NBO_ERR_ARG; /* not whole scalars: the caller's type is not the codec's */
        nsend += nchunks(a->sbytes[p], chunk);
        nrecv += nchunks(a->rbytes[p], chunk);
    }
    for (int first = 1; first < P; first += W) {
        size_t most = 0;
        for (int i = first; i < first + W && i < P; i++) {
            size_t s = nchunks(a->sbytes[step_dst(P, r, i)], chunk);
            size_t q = nchunks(a->rbytes[step_src(P, r, i)], chunk);
            most = s > most ? s : most;
            most = q > most ? q : most;
        }
        nround += most;
    }
    cmsg_t *sm = calloc(nsend + 1, sizeof(*sm)), *rm = calloc(nrecv + 1, sizeof(*rm));
    round_t *rd = calloc(nround + 1, sizeof(*rd));
    size_t *sbase = calloc((size_t)P, sizeof(size_t)), *rbase = calloc((size_t)P, sizeof(size_t));
    int *widx = malloc((2 * (size_t)W + 1) * sizeof(int));
    int rc = !sm || !rm || !rd || !sbase || !rbase || !widx ? NBO_ERR_NOMEM : NBO_SUCCESS;

    /* Scratch: per peer and direction, its chunks' slots one after another,
     * each sized for the block's first (largest) chunk. */
    size_t tmp = 0;
    for (int p = 0; p < P && rc == NBO_SUCCESS; p++) {
        if (p == r)
            continue;
        for (int dir = 0; dir < 2; dir++) {
            const size_t bytes = dir ? a->rbytes[p] : a->sbytes[p], n = nchunks(bytes, chunk);
            const size_t stride = slot_stride(a, bytes, chunk);
            if (stride == SIZE_MAX || (n && stride > (SIZE_MAX - tmp) / n)) {
                rc = NBO_ERR_OVERFLOW;
                break;
            }
            (dir ? rbase : sbase)[p] = tmp;
            tmp += n * stride;
        }
    }
    if (rc != NBO_SUCCESS) {
        free(sm); free(rm); free(rd); free(sbase); free(rbase); free(widx);
        return rc;
    }
    b->s->tmp_bytes = tmp;
    b->s->codec = a->codec;
    b->s->codec_rate = a->codec_rate;
    b->s->codec_elem = a->codec_elem;
    /* In place the outgoing blocks are in the receive buffer. */
    const nbo_buf_t sbuf = a->in_place ? NBO_BUF_RECV : NBO_BUF_SEND;
    const size_t *sdispl = a->in_place ? a->rdispl : a->sdispl;

    /* The rounds, in order, and their messages. */
    size_t ks = 0, kr = 0, u = 0;
    for (int first = 1; first < P; first += W) {
        const int last = first + W < P ? first + W : P;
        for (size_t j = 0;; j++) {
            round_t *ro = &rd[u];
            ro->s0 = (int)ks, ro->r0 = (int)kr;
            for (int i = first; i < last; i++) {
                const int dst = step_dst(P, r, i), src = step_src(P, r, i);
                if (j < nchunks(a->sbytes[dst], chunk)) {
                    cmsg_t *m = &sm[ks++];
                    m->peer = dst;
                    m->raw_off = sdispl[dst] + j * chunk;
                    m->raw_len = a->sbytes[dst] - j * chunk < chunk ? a->sbytes[dst] - j * chunk : chunk;
                    m->slot = sbase[dst] + j * slot_stride(a, a->sbytes[dst], chunk);
                    m->wire = nbo_codec_wire_bytes(a->codec, a->codec_rate, a->codec_elem, m->raw_len);
                }
                if (j < nchunks(a->rbytes[src], chunk)) {
                    cmsg_t *m = &rm[kr++];
                    m->peer = src;
                    m->raw_off = a->rdispl[src] + j * chunk;
                    m->raw_len = a->rbytes[src] - j * chunk < chunk ? a->rbytes[src] - j * chunk : chunk;
                    m->slot = rbase[src] + j * slot_stride(a, a->rbytes[src], chunk);
                    m->wire = nbo_codec_wire_bytes(a->codec, a->codec_rate, a->codec_elem, m->raw_len);
                }
            }
            ro->ns = (int)ks - ro->s0;
            ro->nr = (int)kr - ro->r0;
            if (!ro->ns && !ro->nr)
                break; /* the window's blocks are all cut */
            u++;
        }
    }
    /* u == nround, ks == nsend, kr == nrecv.  The receives are posted
     * round by round: a pair's chunks in the order the peer sends them. */
    int *recv_task = malloc((nrecv + 1) * sizeof(int));
    if (!recv_task) {
        free(sm); free(rm); free(rd); free(sbase); free(rbase); free(widx);
        return NBO_ERR_NOMEM;
    }
    for (size_t k = 0; k < nrecv; k++)
        recv_task[k] = sched_build_recv(b, rm[k].peer, NBO_BUF_TMP, rm[k].slot, rm[k].wire);

#define ENCODE_ROUND(q)                                                                         \
    for (int k = rd[q].s0; k < rd[q].s0 + rd[q].ns; k++)                                       \
        sched_build_encode(b, sm[k].peer, NBO_BUF_TMP, sm[k].slot, sbuf, sm[k].raw_off,       \
                           sm[k].raw_len);
#define DECODE_ROUND(q)                                                                         \
    for (int k = rd[q].r0; k < rd[q].r0 + rd[q].nr; k++)                                       \
        sched_build_decode(b, rm[k].peer, NBO_BUF_RECV, rm[k].raw_off, NBO_BUF_TMP, rm[k].slot, \
                           rm[k].raw_len);
    if (a->in_place) {
        for (size_t q = 0; q < nround; q++)
            ENCODE_ROUND(q)
    } else if (nround)
        ENCODE_ROUND(0)

    int own_left = nsend > 0;
    if (!own_left)
        sched_build_own_block(b, a, 0);
    for (size_t q = 0; q < nround; q++) {
        int n = 0;
        for (int k = rd[q].s0; k < rd[q].s0 + rd[q].ns; k++)
            widx[n++] = sched_build_send(b, sm[k].peer, NBO_BUF_TMP, sm[k].slot, sm[k].wire);
        if (own_left && rd[q].ns) {
            sched_build_own_block(b, a, 0);
            own_left = 0;
        }
        /* While this round is in flight: the previous round's chunks out
         * of their slots, the next round's into theirs. */
        if (q > 0)
            DECODE_ROUND(q - 1)
        if (!a->in_place && q + 1 < nround)
            ENCODE_ROUND(q + 1)
        for (int k = rd[q].r0; k < rd[q].r0 + rd[q].nr; k++)
            widx[n++] = recv_task[k];
        sched_build_wait(b, widx, n);
    }
    if (nround)
        DECODE_ROUND(nround - 1)
#undef ENCODE_ROUND
#undef DECODE_ROUND
    free(recv_task);
    free(sm); free(rm); free(rd); free(sbase); free(rbase); free(widx);
    return NBO_SUCCESS;
}

/* A rank's own entries of the lists: the k-th block to itself is the
 * k-th from itself, delivered by local tasks (soff: the scratch of the
 * packed send blocks).  NBO_ERR_ARG when the counts or sizes differ. */
static int self_copies(const nbo_sched_args_t *a, sched_build_t *b, const size_t *soff)
{
    int i = 0, j = 0;
    for (;;) {
        while (i < a->nsend && a->speers[i] != a->rank)
            i++;
        while (j < a->nrecv && a->rpeers[j] != a->rank)
            j++;
        if (i == a->nsend || j == a->nrecv)
            return i == a->nsend && j == a->nrecv ? NBO_SUCCESS : NBO_ERR_ARG;
        const size_t len = a->sbytes[i];
        if (len != a->rbytes[j])
            return NBO_ERR_ARG;
        if (len && a->send_contig && a->recv_contig)
            sched_build_copy(b, NBO_BUF_RECV, a->rdispl[j], NBO_BUF_SEND, a->sdispl[i], len);
        else if (len && a->recv_contig)
            sched_build_pack(b, i, NBO_BUF_RECV, a->rdispl[j], len);
        else if (len && a->send_contig)
            sched_build_unpack(b, j, NBO_BUF_SEND, a->sdispl[i], len);
        else if (len) {
            sched_build_pack(b, i, NBO_BUF_TMP, soff[i], len);
            sched_build_unpack(b, j, NBO_BUF_TMP, soff[i], len);
        }
        i++, j++;
    }
}

/* Explicit peer lists (a neighbourhood): every receive posted first, in
 * list order, then the sends W at a time, each window's WAIT on its sends
 * only: a rank's window then depends on no other rank's progress but its
 * having posted its receives, whatever the graph.  One WAIT covers every
 * receive at the end.  The rank's own entries are copied while the first
 * window's sends travel.  Block i of a non-contiguous side is list entry
 * i.  Not in place (MPI has no in-place neighbourhood exchange) and not
 * compressed. */
static int compile_lists(const nbo_sched_args_t *a, sched_build_t *b)
{
    if (a->in_place || nbo_sched_codec_on(a))
        return NBO_ERR_ARG;
    const int ns = a->nsend, nr = a->nrecv, me = a->rank;
    size_t *roff = calloc((size_t)nr + 1, sizeof(size_t));
    size_t *soff = calloc((size_t)ns + 1, sizeof(size_t));
    int *ridx = malloc(((size_t)nr + 1) * sizeof(int));      /* the receives, waited for last */
    int *widx = malloc(((size_t)a->window + 1) * sizeof(int)); /* a window's sends */
    if (!roff || !soff || !ridx || !widx) {
        free(roff); free(soff); free(ridx); free(widx);
        return NBO_ERR_NOMEM;
    }
    size_t tmp = 0;
    for (int i = 0; i < ns && !a->send_contig; i++) {
        soff[i] = tmp;
        tmp += a->sbytes[i];
    }
    for (int i = 0; i < nr && !a->recv_contig; i++) {
        roff[i] = tmp;
        tmp += a->rbytes[i];
    }
    b->s->tmp_bytes = tmp;
    int n = 0, rc = NBO_SUCCESS, own_left = 1;
    for (int i = 0; i < nr; i++) {
        if (a->rpeers[i] == me)
            continue;
        int t = a->recv_contig
                    ? sched_build_recv(b, a->rpeers[i], NBO_BUF_RECV, a->rdispl[i], a->rbytes[i])
                    : sched_build_recv(b, a->rpeers[i], NBO_BUF_TMP, roff[i], a->rbytes[i]);
        if (t >= 0)
            ridx[n++] = t;
    }
    for (int first = 0; first < ns; first += a->window) {
        int last = first + a->window < ns ? first + a->window : ns, m = 0;
        for (int i = first; i < last; i++) {
            if (a->speers[i] == me)
                continue;
            int t;
            if (a->send_contig)
                t = sched_build_send(b, a->speers[i], NBO_BUF_SEND, a->sdispl[i], a->sbytes[i]);
            else {
                sched_build_pack(b, i, NBO_BUF_TMP, soff[i], a->sbytes[i]);
                t = sched_build_send(b, a->speers[i], NBO_BUF_TMP, soff[i], a->sbytes[i]);
            }
            if (t >= 0)
                widx[m++] = t;
        }
        if (own_left) {
            rc = self_copies(a, b, soff);
            own_left = 0;
        }
        sched_build_wait(b, widx, m);
    }
    if (own_left)
        rc = self_copies(a, b, soff);
    sched_build_wait(b, ridx, n);
    for (int i = 0; i < nr && !a->recv_contig; i++)
        if (a->rpeers[i] != me)
            sched_build_unpack(b, i, NBO_BUF_TMP, roff[i], a->rbytes[i]);
    free(widx);
    free(roff);
    free(soff);
    free(ridx);
    return rc;
}

int nbo_compile_pairwise(const nbo_sched_args_t *a, sched_build_t *b)
{
    if (!nbo_sched_all_ranks(a))
        return compile_lists(a, b);
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
     * receive can land on them; with host_first every block is packed
     * before the first message. */
    const int pack_first = a->in_place || (a->host_first && stage_send);
    if (pack_first)
        for (int p = 0; p < P; p++) {
            if (p == r)
                continue;
            if (a->send_contig)
                sched_build_copy(b, NBO_BUF_TMP, soff[p], NBO_BUF_RECV, a->sdispl[p], a->sbytes[p]);
            else
                sched_build_pack(b, p, NBO_BUF_TMP, soff[p], a->sbytes[p]);
        }

    /* host_first: an own block that needs PACK or UNPACK goes first too (a
     * plain copy may stay among the messages: the provider makes it). */
    const int own_first = a->host_first && !(a->send_contig && a->recv_contig);
    if (own_first)
        sched_build_own_block(b, a, self_off);

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
    if (own_first)
        own_left = 0;
    else if (!own_left)
        sched_build_own_block(b, a, self_off);

    for (int first = 1; first < P; first += a->window) {
        int last = first + a->window < P ? first + a->window : P;
        int n = 0, sent = 0;
        for (int i = first; i < last; i++) {
            int dst = step_dst(P, r, i);
            if (stage_send && !pack_first)
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
        if (stage_recv && !a->host_first)
            for (int i = first; i < last; i++) {
                int src = step_src(P, r, i);
                sched_build_unpack(b, src, NBO_BUF_TMP, roff[src], a->rbytes[src]);
            }
    }
    if (stage_recv && a->host_first) /* after the last WAIT */
        for (int i = 1; i < P; i++) {
            int src = step_src(P, r, i);
            sched_build_unpack(b, src, NBO_BUF_TMP, roff[src], a->rbytes[src]);
        }
    free(recv_task);
    free(soff);
    free(roff);
    free(widx);
    return NBO_SUCCESS;
}
