/* sched_sim.c - execute all ranks' task lists together (see sched_sim.h). */
#include "sched_sim.h"
#include "../../codec/codec.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define GAP 0xA5 /* bytes outside every block */

static char msg[768];

typedef sim_rank_t rank_state_t;

typedef struct sim {
    const sim_call_t   *c;
    rank_state_t       *rk;
    int                *next_send; /* [s*P+d]: scan position for s -> d */
    int                *next_recv; /* [d*P+s]: scan position at d from s */
} sim_t;

static const char *fail(const sim_call_t *c, int r, const char *fmt, ...)
{
    char name[240];
    c->name(c->ctx, r, name, sizeof(name));
    int n = snprintf(msg, sizeof(msg), "%s: ", name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
    va_end(ap);
    return msg;
}

/* The byte at offset i of the block rank s sends to rank d. */
static unsigned char pattern(int s, int d, size_t i)
{
    unsigned char v = (unsigned char)(s * 37 + d * 11 + i * 7 + (i >> 8) + 1);
    return v == GAP ? 0x01 : v; /* never the gap byte, so a missed write shows */
}

static int overlap(size_t a, size_t alen, size_t b, size_t blen)
{
    return alen && blen && a < b + blen && b < a + alen;
}

/* Does [off, off+len) of buffer buf hit an in-flight transfer of rank x?
 * recv_only: only receives count (a read may overlap an outgoing send). */
static int hazard(const rank_state_t *x, int buf, size_t off, size_t len, int recv_only)
{
    for (int j = 0; j < x->cursor; j++) {
        const nbo_task_t *t = &x->s.tasks[j];
        if ((t->kind != NBO_TASK_RECV && (recv_only || t->kind != NBO_TASK_SEND)) ||
            t->wait < x->cursor)
            continue;
        if (t->buf == buf && overlap(t->off, t->len, off, len))
            return j;
    }
    return -1;
}

static const char *check_range(const sim_t *m, int r, int i, int buf, size_t off, size_t len)
{
    const rank_state_t *x = &m->rk[r];
    if (buf < 0 || buf >= NBO_BUF_COUNT || off + len > x->len[buf] ||
        (len && !x->buf[buf]))
        return fail(m->c, r, "task %d touches buf %d [%zu..+%zu] beyond %zu", i, buf, off, len,
                    buf >= 0 && buf < NBO_BUF_COUNT ? x->len[buf] : 0);
    return NULL;
}

/* Source of block p on the send side: the user's send block, or in place
 * the receive buffer's block (the executor packs with the receive map). */
static void send_block(const rank_state_t *x, int p, int *buf, size_t *off, size_t *len)
{
    *buf = x->a.in_place ? NBO_BUF_RECV : NBO_BUF_SEND;
    *off = x->a.in_place ? x->a.rdispl[p] : x->a.sdispl[p];
    *len = x->a.in_place ? x->a.rbytes[p] : x->a.sbytes[p];
}

/* The modelled operations on 8-byte elements.  Commutative: uint64 add.
 * Not commutative: affine maps x -> a*x + b (a, b uint32, the pair's first
 * and second half), L op R = "L, then R": (aL*aR, aR*bL + bR) mod 2^32. */
static void reduce_elems(unsigned char *dst, const unsigned char *src, size_t len, int commutative)
{
    for (size_t i = 0; i < len; i += 8) {
        if (commutative) {
            uint64_t d, l;
            memcpy(&d, dst + i, 8);
            memcpy(&l, src + i, 8);
            d += l;
            memcpy(dst + i, &d, 8);
        } else {
            uint32_t l[2], rr[2], o[2];
            memcpy(l, src + i, 8);
            memcpy(rr, dst + i, 8);
            o[0] = l[0] * rr[0];
            o[1] = rr[0] * l[1] + rr[1];
            memcpy(dst + i, o, 8);
        }
    }
}

void sched_sim_op(unsigned char *dst, const unsigned char *src, size_t len, int commutative)
{
    reduce_elems(dst, src, len, commutative);
}

/* Run one task of rank r.  1: done, cursor moved; 0: blocked on a WAIT;
 * sets *err on a broken rule. */
static int step(sim_t *m, int r, const char **err)
{
    rank_state_t *x = &m->rk[r];
    const int i = x->cursor;
    const nbo_task_t *t = &x->s.tasks[i];
    int sbuf = -1, dbuf = -1, h;
    size_t soff = 0, doff = 0;
    switch (t->kind) {
    case NBO_TASK_WAIT:
        if (x->pending[i] > 0)
            return 0;
        x->cursor++;
        return 1;
    case NBO_TASK_RECV:
        if ((*err = check_range(m, r, i, t->buf, t->off, t->len)))
            return 0;
        if ((h = hazard(x, t->buf, t->off, t->len, 0)) >= 0) {
            *err = fail(m->c, r, "RECV %d lands on bytes of in-flight task %d", i, h);
            return 0;
        }
        x->cursor++;
        return 1;
    case NBO_TASK_SEND:
        if ((*err = check_range(m, r, i, t->buf, t->off, t->len)))
            return 0;
        if ((h = hazard(x, t->buf, t->off, t->len, 1)) >= 0) {
            *err = fail(m->c, r, "SEND %d reads bytes of in-flight RECV %d", i, h);
            return 0;
        }
        x->cursor++;
        return 1;
    case NBO_TASK_COPY:
    case NBO_TASK_REDUCE:
        sbuf = t->src_buf; soff = t->src_off; dbuf = t->buf; doff = t->off;
        if (t->kind == NBO_TASK_REDUCE &&
            (x->a.elem != 8 || t->len % 8 || t->off % 8 || t->src_off % 8)) {
            *err = fail(m->c, r, "REDUCE %d: [%zu..+%zu] <- [%zu], elem %zu: not whole 8-byte "
                        "elements", i, t->off, t->len, t->src_off, x->a.elem);
            return 0;
        }
        break;
    case NBO_TASK_PACK: {
        size_t blen = 0;
        if (t->peer >= 0 && t->peer < x->a.size)
            send_block(x, t->peer, &sbuf, &soff, &blen);
        if (t->peer < 0 || t->peer >= x->a.size || t->len != blen) {
            *err = fail(m->c, r, "PACK %d: block %d, %zu bytes", i, t->peer, t->len);
            return 0;
        }
        dbuf = t->buf; doff = t->off;
        break;
    }
    case NBO_TASK_UNPACK:
        if (t->peer < 0 || t->peer >= x->a.size || t->len != x->a.rbytes[t->peer]) {
            *err = fail(m->c, r, "UNPACK %d: block %d, %zu bytes", i, t->peer, t->len);
            return 0;
        }
        sbuf = t->src_buf; soff = t->src_off;
        dbuf = NBO_BUF_RECV; doff = x->a.rdispl[t->peer];
        break;
    case NBO_TASK_ENCODE:
    case NBO_TASK_DECODE: {
        /* The real codec on the bytes: the raw side is t->len, the message
         * side the codec's size. */
        const nbo_sched_t *sc = &x->s;
        const size_t wire = nbo_codec_wire_bytes(sc->codec, sc->codec_rate, sc->codec_elem, t->len);
        const int enc = t->kind == NBO_TASK_ENCODE;
        const size_t slen = enc ? t->len : wire, dlen = enc ? wire : t->len;
        if (!sc->codec || (*err = check_range(m, r, i, t->src_buf, t->src_off, slen)) ||
            (*err = check_range(m, r, i, t->buf, t->off, dlen))) {
            if (!*err)
                *err = fail(m->c, r, "%s %d in a list without a codec", nbo_task_kind_name(t->kind), i);
            return 0;
        }
        if (t->buf == NBO_BUF_SEND) {
            *err = fail(m->c, r, "%s %d writes the user's send buffer", nbo_task_kind_name(t->kind), i);
            return 0;
        }
        if ((h = hazard(x, t->src_buf, t->src_off, slen, 1)) >= 0 ||
            (h = hazard(x, t->buf, t->off, dlen, 0)) >= 0) {
            *err = fail(m->c, r, "%s %d touches bytes of in-flight task %d",
                        nbo_task_kind_name(t->kind), i, h);
            return 0;
        }
        int rc = sched_codec_run(!enc, sc->codec, sc->codec_rate, sc->codec_elem,
                                 x->buf[t->src_buf] + t->src_off, t->len, x->buf[t->buf] + t->off);
        if (rc != NBO_SUCCESS && rc != NBO_ERR_CODEC) { /* refused data is no error here */
            *err = fail(m->c, r, "%s %d: %s", nbo_task_kind_name(t->kind), i, nbo_strerror(rc));
            return 0;
        }
        x->cursor++;
        return 1;
    }
    default:
        *err = fail(m->c, r, "task %d: unknown kind %d", i, t->kind);
        return 0;
    }
    if ((*err = check_range(m, r, i, sbuf, soff, t->len)) ||
        (*err = check_range(m, r, i, dbuf, doff, t->len)))
        return 0;
    if (dbuf == NBO_BUF_SEND) {
        *err = fail(m->c, r, "%s %d writes the user's send buffer", nbo_task_kind_name(t->kind), i);
        return 0;
    }
    if ((h = hazard(x, sbuf, soff, t->len, 1)) >= 0 || (h = hazard(x, dbuf, doff, t->len, 0)) >= 0) {
        *err = fail(m->c, r, "%s %d touches bytes of in-flight task %d",
                    nbo_task_kind_name(t->kind), i, h);
        return 0;
    }
    if (t->kind == NBO_TASK_REDUCE) {
        if (overlap(soff, t->len, doff, t->len) && sbuf == dbuf) {
            *err = fail(m->c, r, "REDUCE %d: operands overlap", i);
            return 0;
        }
        reduce_elems(x->buf[dbuf] + doff, x->buf[sbuf] + soff, t->len, x->a.commutative);
    } else
        memmove(x->buf[dbuf] + doff, x->buf[sbuf] + soff, t->len);
    x->cursor++;
    return 1;
}

/* First posted, unmatched task of `kind` to/from `peer` at rank r, scanning
 * from *pos; -1 if the next one is not posted yet or there is none. */
static int head(rank_state_t *x, int kind, int peer, int *pos)
{
    while (*pos < x->s.ntasks) {
        const nbo_task_t *t = &x->s.tasks[*pos];
        if (t->kind == kind && t->peer == peer && !x->done[*pos])
            return *pos < x->cursor ? *pos : -1;
        (*pos)++;
    }
    return -1;
}

/* Match heads of every channel; returns matches made, sets *err. */
static int match(sim_t *m, const char **err)
{
    const int P = m->c->P;
    int made = 0;
    for (int s = 0; s < P; s++)
        for (int d = 0; d < P; d++) {
            for (;;) {
                int si = head(&m->rk[s], NBO_TASK_SEND, d, &m->next_send[s * P + d]);
                int ri = head(&m->rk[d], NBO_TASK_RECV, s, &m->next_recv[d * P + s]);
                if (si < 0 || ri < 0)
                    break;
                const nbo_task_t *st = &m->rk[s].s.tasks[si], *rt = &m->rk[d].s.tasks[ri];
                if (st->len != rt->len) {
                    *err = fail(m->c, s, "SEND %d to %d has %zu bytes, its RECV %d there %zu",
                                si, d, st->len, ri, rt->len);
                    return made;
                }
                memcpy(m->rk[d].buf[rt->buf] + rt->off, m->rk[s].buf[st->buf] + st->off, st->len);
                m->rk[s].done[si] = m->rk[d].done[ri] = 1;
                m->rk[s].pending[st->wait]--;
                m->rk[d].pending[rt->wait]--;
                made++;
            }
        }
    return made;
}

/* Compile every rank's list and give it scratch (0x5A) and WAIT counters. */
static const char *setup(sim_t *m)
{
    for (int r = 0; r < m->c->P; r++) {
        rank_state_t *x = &m->rk[r];
        int rc = nbo_sched_compile(&x->a, &x->s);
        if (rc != NBO_SUCCESS)
            return fail(m->c, r, "compile failed: %s", nbo_strerror(rc));
        x->len[NBO_BUF_TMP] = x->s.tmp_bytes;
        if (x->s.tmp_bytes && !(x->buf[NBO_BUF_TMP] = malloc(x->s.tmp_bytes)))
            return "out of memory";
        if (x->buf[NBO_BUF_TMP])
            memset(x->buf[NBO_BUF_TMP], 0x5A, x->len[NBO_BUF_TMP]);
        x->pending = calloc((size_t)x->s.ntasks + 1, sizeof(int32_t));
        x->done = calloc((size_t)x->s.ntasks + 1, 1);
        if (!x->pending || !x->done)
            return "out of memory";
        for (int i = 0; i < x->s.ntasks; i++)
            if (x->s.tasks[i].kind == NBO_TASK_WAIT)
                x->pending[i] = x->s.tasks[i].wait;
    }
    return NULL;
}

/* Every rank ran to the end and every SEND/RECV matched. */
static const char *all_done(const sim_t *m)
{
    for (int r = 0; r < m->c->P; r++) {
        const rank_state_t *x = &m->rk[r];
        if (x->cursor != x->s.ntasks)
            return fail(m->c, r, "stopped at task %d of %d", x->cursor, x->s.ntasks);
        for (int i = 0; i < x->s.ntasks; i++) {
            const nbo_task_t *t = &x->s.tasks[i];
            if ((t->kind == NBO_TASK_SEND || t->kind == NBO_TASK_RECV) && !x->done[i])
                return fail(m->c, r, "%s %d (peer %d) never matched", nbo_task_kind_name(t->kind),
                            i, t->peer);
        }
    }
    return NULL;
}

const char *sched_sim_run(const sim_call_t *c, sim_rank_t *rk)
{
    const int P = c->P;
    sim_t m = {.c = c, .rk = rk};
    m.next_send = calloc((size_t)P * P, sizeof(int));
    m.next_recv = calloc((size_t)P * P, sizeof(int));
    const char *err = (!m.next_send || !m.next_recv) ? "out of memory" : setup(&m);
    while (!err) {
        int moved = 0, finished = 1;
        for (int r = 0; r < P && !err; r++) {
            while (rk[r].cursor < rk[r].s.ntasks && step(&m, r, &err))
                moved++;
            if (rk[r].cursor < rk[r].s.ntasks)
                finished = 0;
        }
        if (!err)
            moved += match(&m, &err);
        if (err || finished)
            break;
        if (!moved) {
            for (int r = 0; r < P; r++)
                if (rk[r].cursor < rk[r].s.ntasks) {
                    err = fail(c, r, "deadlock: every rank blocked, this one at task %d (%s)",
                               rk[r].cursor, nbo_task_kind_name(rk[r].s.tasks[rk[r].cursor].kind));
                    break;
                }
        }
    }
    if (!err && match(&m, &err) > 0 && !err)
        err = fail(c, 0, "messages matched after every rank finished");
    if (!err)
        err = all_done(&m);
    free(m.next_send);
    free(m.next_recv);
    return err;
}

void sched_sim_free(sim_rank_t *rk, int P)
{
    for (int r = 0; rk && r < P; r++) {
        nbo_sched_destroy(&rk[r].s);
        for (int b = 0; b < NBO_BUF_COUNT; b++)
            free(rk[r].buf[b]);
        free(rk[r].pending);
        free(rk[r].done);
    }
    free(rk);
}

/* The all-to-all case: every rank's outgoing blocks in the send buffer or
 * (in place) the receive buffer; every other byte is GAP. */
static const char *a2a_setup(const sched_case_t *c, sim_rank_t *rk)
{
    for (int r = 0; r < c->P; r++) {
        sim_rank_t *x = &rk[r];
        x->a = sched_case_args(c, r);
        x->len[NBO_BUF_SEND] = c->in_place ? 0 : c->sspan[r];
        x->len[NBO_BUF_RECV] = c->rspan[r];
        for (int b = NBO_BUF_SEND; b <= NBO_BUF_RECV; b++)
            if (x->len[b] && !(x->buf[b] = malloc(x->len[b])))
                return "out of memory";
        memset(x->buf[NBO_BUF_RECV], GAP, x->len[NBO_BUF_RECV]);
        if (!c->in_place)
            memset(x->buf[NBO_BUF_SEND], GAP, x->len[NBO_BUF_SEND]);
        unsigned char *out = x->buf[c->in_place ? NBO_BUF_RECV : NBO_BUF_SEND];
        for (int p = 0; p < c->P; p++)
            for (size_t i = 0; i < c->sb[r][p]; i++)
                out[c->sdispl[r][p] + i] = pattern(r, p, i);
    }
    return NULL;
}

/* What a compressed block from p arrives as: the pattern through the
 * codec (the own block stays exact).  0, or -1 when out of memory. */
static int through_codec(const sched_case_t *c, const rank_state_t *x, int p, int r,
                         unsigned char *out)
{
    const size_t n = c->rb[r][p];
    if (p == r || !n || !nbo_sched_codec_on(&x->a))
        return 0;
    /* Chunk by chunk, as the messages travel. */
    const size_t chunk = nbo_sched_codec_chunk(&x->a);
    size_t wire = nbo_codec_wire_bytes(c->codec, c->codec_rate, c->codec_elem, n);
    unsigned char *raw = malloc(n), *msg = malloc(wire);
    if (!raw || !msg) {
        free(raw); free(msg);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        raw[i] = pattern(p, r, i);
    for (size_t at = 0; at < n; at += chunk) {
        size_t len = n - at < chunk ? n - at : chunk;
        sched_codec_run(0, c->codec, c->codec_rate, c->codec_elem, raw + at, len, msg);
        sched_codec_run(1, c->codec, c->codec_rate, c->codec_elem, msg, len, out + at);
    }
    free(raw);
    free(msg);
    return 0;
}

static const char *verify(const sim_call_t *sc, const sched_case_t *c, const sim_rank_t *rk)
{
    const int P = c->P;
    for (int r = 0; r < P; r++) {
        const rank_state_t *x = &rk[r];
        /* Expected receive buffer: block from p at rdispl[p], GAP elsewhere. */
        unsigned char *want = malloc(c->rspan[r]);
        if (!want)
            return "out of memory";
        memset(want, GAP, c->rspan[r]);
        for (int p = 0; p < P; p++) {
            for (size_t i = 0; i < c->rb[r][p]; i++)
                want[c->rdispl[r][p] + i] = pattern(p, r, i);
            if (through_codec(c, x, p, r, want + c->rdispl[r][p]) != 0) {
                free(want);
                return "out of memory";
            }
        }
        for (size_t b = 0; b < c->rspan[r]; b++)
            if (x->buf[NBO_BUF_RECV][b] != want[b]) {
                int blk = -1;
                for (int p = 0; p < P; p++)
                    if (b >= c->rdispl[r][p] && b < c->rdispl[r][p] + c->rb[r][p])
                        blk = p;
                const char *e = fail(sc, r, "receive byte %zu (block from %d, -1 = gap) is 0x%02x, "
                                     "expected 0x%02x", b, blk, x->buf[NBO_BUF_RECV][b], want[b]);
                free(want);
                return e;
            }
        free(want);
        if (!c->in_place) /* the send buffer is read only */
            for (int p = 0; p < P; p++)
                for (size_t i = 0; i < c->sb[r][p]; i++)
                    if (x->buf[NBO_BUF_SEND][c->sdispl[r][p] + i] != pattern(r, p, i))
                        return fail(sc, r, "send block %d byte %zu was modified", p, i);
    }
    return NULL;
}

static void a2a_name(const void *ctx, int r, char *buf, size_t len)
{
    sched_case_name(ctx, r, buf, len);
}

const char *sched_simulate(const sched_case_t *c)
{
    sim_call_t sc = {.P = c->P, .name = a2a_name, .ctx = c};
    sim_rank_t *rk = calloc((size_t)c->P, sizeof(sim_rank_t));
    const char *err = !rk ? "out of memory" : a2a_setup(c, rk);
    if (!err)
        err = sched_sim_run(&sc, rk);
    if (!err)
        err = verify(&sc, c, rk);
    sched_sim_free(rk, c->P);
    return err;
}
