/* sched_coll.c - cases of the collectives beyond the all-to-all (see sched_coll.h). */
#include "sched_coll.h"
#include "../../libnbo/sched_algs.h"
#include "sched_sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GAP  0xA5 /* bytes outside every block */
#define JUNK 0x3C /* a receive buffer's bytes before the call */

static unsigned hash(unsigned x)
{
    x *= 2654435761u;
    x ^= x >> 15;
    x *= 2246822519u;
    return x ^ (x >> 13);
}

/* Byte i of rank s's contribution (never GAP or JUNK). */
static unsigned char pat(int s, size_t i)
{
    unsigned char v = (unsigned char)(s * 37 + i * 7 + (i >> 8) + 1);
    return v == GAP || v == JUNK ? 0x01 : v;
}

/* Element j (8 bytes) of rank s's input: a uint64, or for the ordered op
 * an affine map (odd a, so no product collapses to 0). */
static void elem_val(int s, size_t j, unsigned char *out)
{
    uint32_t v[2] = {hash((unsigned)s * 7919u + (unsigned)j) | 1u,
                     hash((unsigned)j * 104729u + (unsigned)s + 1u)};
    memcpy(out, v, 8);
}

/* The collectives whose in-place form is the root's alone. */
static int root_in_place(nbo_coll_t coll)
{
    return coll == NBO_COLL_REDUCE || coll == NBO_COLL_GATHER || coll == NBO_COLL_GATHERV ||
           coll == NBO_COLL_SCATTER || coll == NBO_COLL_SCATTERV;
}

/* Is rank r's call in place? */
static int in_place_at(const coll_case_t *c, int r)
{
    return c->in_place && (!root_in_place(c->coll) || r == c->root);
}

static int is_v(nbo_coll_t coll)
{
    return coll == NBO_COLL_ALLGATHERV || coll == NBO_COLL_GATHERV || coll == NBO_COLL_SCATTERV ||
           coll == NBO_COLL_REDUCE_SCATTER;
}

/* Allgatherv, gatherv, scatterv block sizes: up to `bytes`, some zero. */
static size_t block_size(const coll_case_t *c, int i)
{
    if (!is_v(c->coll))
        return c->bytes;
    unsigned h = hash((unsigned)(i * 31 + c->P * 7 + (int)c->bytes));
    if (c->coll == NBO_COLL_REDUCE_SCATTER) /* whole 8-byte elements */
        return h % 4 == 0 ? 0 : 8 * (h % (c->bytes / 8 + 1));
    return h % 4 == 0 ? 0 : h % (c->bytes + 1);
}

static size_t **alloc2(int P)
{
    size_t **m = calloc((size_t)P, sizeof(size_t *));
    for (int i = 0; m && i < P; i++)
        if (!(m[i] = calloc((size_t)P, sizeof(size_t))))
            return NULL; /* leaks in a failing test only */
    return m;
}

/* Rank r's receive blocks in a permuted order, each after a gap. */
static size_t layout_blocks(int P, int r, const size_t *b, size_t *displ)
{
    size_t off = 0;
    for (int k = 0; k < P; k++) {
        int p = (r % 2) ? P - 1 - k : (k + r) % P;
        off += (size_t)((p + r) % 3);
        displ[p] = off;
        off += b[p];
    }
    return off + 1; /* a trailing byte that must stay untouched */
}

/* Rank r's receive blocks end to end in rank order, after an offset of
 * its own, as a contiguous type with a lower bound lays them. */
static size_t end_to_end(int P, int r, const size_t *b, size_t *displ)
{
    size_t off = (size_t)(r % 3);
    for (int p = 0; p < P; p++) {
        displ[p] = off;
        off += b[p];
    }
    return off + 1;
}

/* Blocks and spans of rank r, per collective (schedule.h's conventions). */
static void build_rank(coll_case_t *c, int r)
{
    const int P = c->P;
    size_t n = c->bytes;
    switch (c->coll) {
    case NBO_COLL_ALLGATHER:
    case NBO_COLL_ALLGATHERV:
        for (int i = 0; i < P; i++)
            c->rb[r][i] = block_size(c, i);
        if (c->coll == NBO_COLL_ALLGATHERV)
            c->rspan[r] = layout_blocks(P, r, c->rb[r], c->rd[r]);
        else /* an allgather's blocks lie end to end (schedule.h) */
            c->rspan[r] = end_to_end(P, r, c->rb[r], c->rd[r]);
        c->sb[r][r] = c->rb[r][r];
        c->sspan[r] = c->in_place ? 0 : c->sb[r][r] + 1;
        break;
    case NBO_COLL_BCAST:
        c->rb[r][0] = n;
        c->rspan[r] = n + 1;
        break;
    case NBO_COLL_ALLREDUCE:
    case NBO_COLL_SCAN:
    case NBO_COLL_EXSCAN:
        c->rb[r][0] = c->sb[r][0] = n;
        c->rspan[r] = n + 1;
        c->sspan[r] = c->in_place ? 0 : n + 1;
        break;
    case NBO_COLL_BARRIER:
        break;
    case NBO_COLL_REDUCE: /* the result on the root only */
        c->rb[r][0] = c->sb[r][0] = n;
        c->rspan[r] = r == c->root ? n + 1 : 0;
        c->sspan[r] = in_place_at(c, r) ? 0 : n + 1;
        break;
    case NBO_COLL_GATHER:
    case NBO_COLL_GATHERV:
        if (r == c->root) {
            for (int i = 0; i < P; i++)
                c->rb[r][i] = block_size(c, i);
            c->rspan[r] = c->coll == NBO_COLL_GATHERV ? layout_blocks(P, r, c->rb[r], c->rd[r])
                                                      : end_to_end(P, r, c->rb[r], c->rd[r]);
        }
        c->sb[r][r] = block_size(c, r);
        c->sd[r][r] = (size_t)(r % 2);
        if (in_place_at(c, r))
            c->sd[r][r] = 0;
        c->sspan[r] = in_place_at(c, r) ? 0 : c->sd[r][r] + c->sb[r][r] + 1;
        break;
    case NBO_COLL_SCATTER:
    case NBO_COLL_SCATTERV:
        if (in_place_at(c, r)) { /* the root's blocks in RECV */
            for (int i = 0; i < P; i++)
                c->rb[r][i] = block_size(c, i);
            c->rspan[r] = c->coll == NBO_COLL_SCATTERV ? layout_blocks(P, r, c->rb[r], c->rd[r])
                                                       : end_to_end(P, r, c->rb[r], c->rd[r]);
            break;
        }
        if (r == c->root) {
            for (int i = 0; i < P; i++)
                c->sb[r][i] = block_size(c, i);
            c->sspan[r] = c->coll == NBO_COLL_SCATTERV ? layout_blocks(P, r, c->sb[r], c->sd[r])
                                                       : end_to_end(P, r, c->sb[r], c->sd[r]);
        }
        c->rb[r][r] = block_size(c, r);
        c->rd[r][r] = (size_t)(r % 2);
        c->rspan[r] = c->rd[r][r] + c->rb[r][r] + 1;
        break;
    default: { /* NBO_COLL_REDUCE_SCATTER(_BLOCK): P blocks end to end */
        size_t at = 0;
        for (int i = 0; i < P; i++) {
            c->sb[r][i] = block_size(c, i);
            c->sd[r][i] = at;
            at += c->sb[r][i];
        }
        c->rb[r][r] = c->sb[r][r];
        c->sspan[r] = c->in_place ? 0 : at + 1;
        c->rspan[r] = (c->in_place ? at : c->rb[r][r]) + 1;
        break;
    }
    }
}

int coll_case_build(coll_case_t *c)
{
    const int P = c->P;
    c->sb = alloc2(P);
    c->sd = alloc2(P);
    c->rb = alloc2(P);
    c->rd = alloc2(P);
    c->sspan = calloc((size_t)P, sizeof(size_t));
    c->rspan = calloc((size_t)P, sizeof(size_t));
    if (!c->sb || !c->sd || !c->rb || !c->rd || !c->sspan || !c->rspan)
        return -1;
    if (c->coll == NBO_COLL_BCAST)
        c->in_place = 1;
    for (int r = 0; r < P; r++)
        build_rank(c, r);
    return 0;
}

static void free2(size_t **m, int P)
{
    for (int i = 0; m && i < P; i++)
        free(m[i]);
    free(m);
}

void coll_case_free(coll_case_t *c)
{
    free2(c->sb, c->P);
    free2(c->sd, c->P);
    free2(c->rb, c->P);
    free2(c->rd, c->P);
    free(c->sspan);
    free(c->rspan);
    c->sb = c->sd = c->rb = c->rd = NULL;
    c->sspan = c->rspan = NULL;
}

/* The table of each collective, as its family's descriptor names it. */
static const nbo_sched_alg_t *coll_algs(nbo_coll_t coll)
{
    switch (coll) {
    case NBO_COLL_ALLGATHER:
    case NBO_COLL_ALLGATHERV: return nbo_allgather_algs;
    case NBO_COLL_BCAST:      return nbo_bcast_algs;
    case NBO_COLL_ALLREDUCE:  return nbo_allreduce_algs;
    case NBO_COLL_REDUCE_SCATTER_BLOCK: return nbo_reduce_scatter_block_algs;
    case NBO_COLL_BARRIER:    return nbo_barrier_algs;
    case NBO_COLL_REDUCE:     return nbo_reduce_algs;
    case NBO_COLL_SCAN:
    case NBO_COLL_EXSCAN:     return nbo_scan_algs;
    case NBO_COLL_REDUCE_SCATTER: return nbo_reduce_scatter_algs;
    case NBO_COLL_GATHER:
    case NBO_COLL_GATHERV:    return nbo_gather_algs;
    case NBO_COLL_SCATTER:
    case NBO_COLL_SCATTERV:   return nbo_scatter_algs;
    default:                  return nbo_alltoall_algs;
    }
}

nbo_sched_args_t coll_case_args(const coll_case_t *c, int r)
{
    nbo_sched_args_t a = {
        .size = c->P, .rank = r,
        .sbytes = c->sb[r], .sdispl = c->sd[r], .rbytes = c->rb[r], .rdispl = c->rd[r],
        .send_contig = c->send_contig, .recv_contig = c->recv_contig,
        .in_place = in_place_at(c, r), .uniform = !is_v(c->coll),
        .coll = c->coll, .algs = coll_algs(c->coll), .root = c->root, .elem = 8, .commutative = c->commutative,
        .algorithm = c->algorithm, .window = c->window, .bruck_max = 256,
        .small_max = c->small_max,
    };
    return a;
}

const char *coll_case_name(const coll_case_t *c, int r, char *buf, size_t len)
{
    static const char *names[] = {"alltoallv", "alltoall", "allgather", "allgatherv", "bcast",
                                  "allreduce", "reduce_scatter_block", "neighbor_alltoall",
                                  "neighbor_alltoallv", "neighbor_allgather",
                                  "neighbor_allgatherv", "barrier", "reduce", "gather",
                                  "gatherv", "scatter", "scatterv", "scan", "exscan",
                                  "reduce_scatter"};
    snprintf(buf, len, "%s P=%d r=%d alg=%s W=%d bytes=%zu root=%d commutative=%d "
             "send_contig=%d recv_contig=%d in_place=%d small_max=%zu",
             (unsigned)c->coll < NBO_COLL_COUNT ? names[c->coll] : "?", c->P, r,
             nbo_algorithm_name(c->algorithm), c->window, c->bytes, c->root, c->commutative,
             c->send_contig, c->recv_contig, c->in_place, c->small_max);
    return buf;
}

/* Rank s's reduction input: elements of the whole vector (P blocks for
 * reduce-scatter) into out. */
static void reduce_input(int s, unsigned char *out, size_t n)
{
    for (size_t j = 0; j + 8 <= n; j += 8)
        elem_val(s, j / 8, out + j);
}

/* Input data of every rank; everything else GAP (or JUNK where the result
 * lands). */
static const char *fill(const coll_case_t *c, sim_rank_t *rk)
{
    for (int r = 0; r < c->P; r++) {
        sim_rank_t *x = &rk[r];
        x->a = coll_case_args(c, r);
        x->len[NBO_BUF_SEND] = c->sspan[r];
        x->len[NBO_BUF_RECV] = c->rspan[r];
        for (int b = NBO_BUF_SEND; b <= NBO_BUF_RECV; b++)
            if (x->len[b] && !(x->buf[b] = malloc(x->len[b])))
                return "out of memory";
        unsigned char *sb = x->buf[NBO_BUF_SEND], *rb = x->buf[NBO_BUF_RECV];
        unsigned char *in = in_place_at(c, r) ? rb : sb;
        if (sb)
            memset(sb, GAP, x->len[NBO_BUF_SEND]);
        if (rb)
            memset(rb, GAP, x->len[NBO_BUF_RECV]);
        switch (c->coll) {
        case NBO_COLL_BARRIER:
            break;
        case NBO_COLL_REDUCE:
            if (rb)
                memset(rb, JUNK, c->bytes);
            reduce_input(r, in, c->bytes);
            break;
        case NBO_COLL_GATHER:
        case NBO_COLL_GATHERV:
            for (int i = 0; rb && i < c->P; i++)
                memset(rb + c->rd[r][i], JUNK, c->rb[r][i]);
            for (size_t i = 0; i < c->sb[r][r]; i++)
                in[(in_place_at(c, r) ? c->rd[r][r] : c->sd[r][r]) + i] = pat(r, i);
            break;
        case NBO_COLL_SCATTER:
        case NBO_COLL_SCATTERV:
            if (!in_place_at(c, r))
                memset(rb + c->rd[r][r], JUNK, c->rb[r][r]);
            for (int i = 0; r == c->root && i < c->P; i++)
                for (size_t k = 0; k < block_size(c, i); k++)
                    in[(in_place_at(c, r) ? c->rd[r][i] : c->sd[r][i]) + k] = pat(i, k);
            break;
        case NBO_COLL_ALLGATHER:
        case NBO_COLL_ALLGATHERV:
            for (int i = 0; i < c->P; i++)
                memset(rb + c->rd[r][i], JUNK, c->rb[r][i]);
            for (size_t i = 0; i < c->rb[r][r]; i++)
                in[(c->in_place ? c->rd[r][r] : 0) + i] = pat(r, i);
            break;
        case NBO_COLL_BCAST:
            for (size_t i = 0; i < c->bytes; i++)
                rb[i] = r == c->root ? pat(r, i) : JUNK;
            break;
        case NBO_COLL_ALLREDUCE:
        case NBO_COLL_SCAN:
        case NBO_COLL_EXSCAN:
            memset(rb, JUNK, c->bytes);
            reduce_input(r, in, c->bytes);
            break;
        default:
            memset(rb, JUNK, c->rspan[r] - 1);
            reduce_input(r, in, c->sd[r][c->P - 1] + c->sb[r][c->P - 1]);
            break;
        }
    }
    return NULL;
}

/* x0 op x1 op ... op x(ranks-1) over n bytes starting at byte `from` of
 * each rank's input vector. */
static const char *reference_of(const coll_case_t *c, int ranks, size_t from, size_t n,
                                unsigned char *acc)
{
    size_t total = from + n;
    unsigned char *x = malloc(total + 8), *t = malloc(n + 8);
    if (!x || !t) {
        free(x); free(t);
        return "out of memory";
    }
    for (int s = 0; s < ranks; s++) {
        reduce_input(s, x, total);
        if (s == 0)
            memcpy(acc, x + from, n);
        else { /* acc = acc op x_s: REDUCE(dst = x_s copy, src = acc) */
            memcpy(t, x + from, n);
            sched_sim_op(t, acc, n, c->commutative);
            memcpy(acc, t, n);
        }
    }
    free(x); free(t);
    return NULL;
}

/* Over every rank. */
static const char *reference(const coll_case_t *c, size_t from, size_t n, unsigned char *acc)
{
    return reference_of(c, c->P, from, n, acc);
}

/* The expected receive buffer of rank r. */
static const char *expected(const coll_case_t *c, int r, unsigned char *want)
{
    memset(want, GAP, c->rspan[r]);
    switch (c->coll) {
    case NBO_COLL_BARRIER:
        return NULL;
    case NBO_COLL_REDUCE:
        return r == c->root ? reference(c, 0, c->bytes, want) : NULL;
    case NBO_COLL_SCAN:
        return reference_of(c, r + 1, 0, c->bytes, want);
    case NBO_COLL_EXSCAN: /* rank 0's buffer stays as it was */
        if (r > 0)
            return reference_of(c, r, 0, c->bytes, want);
        if (c->in_place)
            reduce_input(0, want, c->bytes);
        else
            memset(want, JUNK, c->bytes);
        return NULL;
    case NBO_COLL_GATHER:
    case NBO_COLL_GATHERV:
        for (int i = 0; r == c->root && i < c->P; i++)
            for (size_t k = 0; k < c->rb[r][i]; k++)
                want[c->rd[r][i] + k] = pat(i, k);
        return NULL;
    case NBO_COLL_SCATTER:
    case NBO_COLL_SCATTERV: /* in place the root's input stays as it is */
        for (int i = 0; i < c->P; i++)
            if (i == r || in_place_at(c, r))
                for (size_t k = 0; k < c->rb[r][i]; k++)
                    want[c->rd[r][i] + k] = pat(i, k);
        return NULL;
    case NBO_COLL_ALLGATHER:
    case NBO_COLL_ALLGATHERV:
        for (int i = 0; i < c->P; i++)
            for (size_t k = 0; k < c->rb[r][i]; k++)
                want[c->rd[r][i] + k] = pat(i, k);
        return NULL;
    case NBO_COLL_BCAST:
        for (size_t k = 0; k < c->bytes; k++)
            want[k] = pat(c->root, k);
        return NULL;
    case NBO_COLL_ALLREDUCE:
        return reference(c, 0, c->bytes, want);
    default:
        if (c->in_place) /* the rest of the input may be overwritten */
            return NULL;
        return reference(c, c->sd[r][r], c->sb[r][r], want);
    }
}

static void name_cb(const void *ctx, int r, char *buf, size_t len)
{
    coll_case_name(ctx, r, buf, len);
}

static const char *compare(const coll_case_t *c, const sim_rank_t *rk)
{
    static char msg[600];
    char name[240];
    for (int r = 0; r < c->P; r++) {
        size_t span = c->rspan[r];
        unsigned char *want = malloc(span + 1), *got = rk[r].buf[NBO_BUF_RECV];
        if (!want)
            return "out of memory";
        const char *err = expected(c, r, want);
        size_t lo = 0, hi = span;
        if (!err && (c->coll == NBO_COLL_REDUCE_SCATTER_BLOCK ||
                     c->coll == NBO_COLL_REDUCE_SCATTER) && c->in_place) {
            /* only the result block at 0 and the trailing byte are defined */
            err = reference(c, c->sd[r][r], c->sb[r][r], want);
            want[span - 1] = GAP;
            hi = c->sb[r][r];
            if (!err && got[span - 1] != GAP)
                err = "the trailing byte was written";
        }
        for (size_t b = lo; b < hi && !err; b++)
            if (got[b] != want[b]) {
                snprintf(msg, sizeof(msg), "%s: receive byte %zu is 0x%02x, expected 0x%02x",
                         coll_case_name(c, r, name, sizeof(name)), b, got[b], want[b]);
                err = msg;
            }
        free(want);
        if (err)
            return err;
        if (c->sspan[r]) { /* the send buffer is read only */
            unsigned char *in = malloc(c->sspan[r]);
            if (!in)
                return "out of memory";
            memset(in, GAP, c->sspan[r]);
            if (c->coll == NBO_COLL_ALLGATHER || c->coll == NBO_COLL_ALLGATHERV)
                for (size_t i = 0; i < c->rb[r][r]; i++)
                    in[i] = pat(r, i);
            else if (c->coll == NBO_COLL_GATHER || c->coll == NBO_COLL_GATHERV)
                for (size_t i = 0; i < c->sb[r][r]; i++)
                    in[c->sd[r][r] + i] = pat(r, i);
            else if (c->coll == NBO_COLL_SCATTER || c->coll == NBO_COLL_SCATTERV)
                for (int i = 0; i < c->P; i++)
                    for (size_t k = 0; k < c->sb[r][i]; k++)
                        in[c->sd[r][i] + k] = pat(i, k);
            else
                reduce_input(r, in, c->sspan[r] - 1);
            int same = !memcmp(in, rk[r].buf[NBO_BUF_SEND], c->sspan[r]);
            free(in);
            if (!same) {
                snprintf(msg, sizeof(msg), "%s: the send buffer was modified",
                         coll_case_name(c, r, name, sizeof(name)));
                return msg;
            }
        }
    }
    return NULL;
}

const char *coll_simulate(const coll_case_t *c)
{
    sim_call_t sc = {.P = c->P, .name = name_cb, .ctx = c};
    sim_rank_t *rk = calloc((size_t)c->P, sizeof(sim_rank_t));
    const char *err = !rk ? "out of memory" : fill(c, rk);
    if (!err)
        err = sched_sim_run(&sc, rk);
    if (!err)
        err = compare(c, rk);
    sched_sim_free(rk, c->P);
    return err;
}
