/* sched_check.c - structural invariants of a task list (see sched_check.h). */
#include "sched_check.h"
#include "../../codec/codec.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static char msg[512];

static const char *fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return msg;
}

static int is_pow2(int p) { return p > 0 && (p & (p - 1)) == 0; }

/* Bytes on the wire for a block of n bytes: the codec's message size when
 * the call is compressed. */
static size_t wire(const nbo_sched_args_t *a, size_t n)
{
    return nbo_sched_codec_on(a) ? nbo_codec_wire_bytes(a->codec, a->codec_rate, a->codec_elem, n)
                                 : n;
}

static const char *check_waits(const nbo_sched_t *s)
{
    int *named = calloc((size_t)s->ntasks + 1, sizeof(int));
    if (!named)
        return fail("out of memory");
    const char *err = NULL;
    int nwaits = 0;
    for (int i = 0; i < s->ntasks && !err; i++) {
        const nbo_task_t *t = &s->tasks[i];
        if (t->kind > NBO_TASK_DECODE)
            err = fail("task %d: unknown kind %d", i, t->kind);
        else if (t->kind == NBO_TASK_SEND || t->kind == NBO_TASK_RECV) {
            if (t->wait <= i || t->wait >= s->ntasks || s->tasks[t->wait].kind != NBO_TASK_WAIT)
                err = fail("task %d (%s) names wait %d, not a later WAIT", i,
                           nbo_task_kind_name(t->kind), t->wait);
            else if (t->len == 0)
                err = fail("task %d: empty %s", i, nbo_task_kind_name(t->kind));
            else
                named[t->wait]++;
        } else if (t->kind == NBO_TASK_WAIT)
            nwaits++;
    }
    for (int i = 0; i < s->ntasks && !err; i++)
        if (s->tasks[i].kind == NBO_TASK_WAIT && s->tasks[i].wait != named[i])
            err = fail("WAIT %d counts %d tasks but %d name it", i, s->tasks[i].wait, named[i]);
    if (!err && nwaits != s->nwaits)
        err = fail("nwaits %d but %d WAIT tasks", s->nwaits, nwaits);
    free(named);
    return err;
}

static const char *check_order_and_window(const nbo_sched_args_t *a, const nbo_sched_t *s)
{
    int last_recv = -1, first_send = -1;
    for (int i = 0; i < s->ntasks; i++) {
        if (s->tasks[i].kind == NBO_TASK_RECV)
            last_recv = i;
        if (s->tasks[i].kind == NBO_TASK_SEND && first_send < 0)
            first_send = i;
    }
    if (first_send >= 0 && last_recv > first_send)
        return fail("RECV at task %d after the first SEND at task %d", last_recv, first_send);
    /* Sends in flight: posted, and the WAIT covering them not yet passed. */
    for (int i = 0; i < s->ntasks; i++) {
        int busy = 0;
        for (int j = 0; j <= i; j++)
            if (s->tasks[j].kind == NBO_TASK_SEND && s->tasks[j].wait >= i)
                busy++;
        if (busy > a->window)
            return fail("%d sends in flight at task %d, window is %d", busy, i, a->window);
    }
    return NULL;
}

/* Pairwise: the own block's local work (a COPY into the receive buffer at
 * the rank's own displacement, or a PACK/UNPACK of peer `rank`) comes after
 * the first SEND (if any), so that the peers' data does not wait for it. */
static const char *check_own_block_after_sends(const nbo_sched_args_t *a, const nbo_sched_t *s)
{
    int first_send = 0;
    while (first_send < s->ntasks && s->tasks[first_send].kind != NBO_TASK_SEND)
        first_send++;
    if (first_send == s->ntasks)
        return NULL; /* sends nothing: the own block may come anywhere */
    for (int i = 0; i < first_send; i++) {
        const nbo_task_t *t = &s->tasks[i];
        int own = (t->kind == NBO_TASK_COPY && t->buf == NBO_BUF_RECV && t->src_buf == NBO_BUF_SEND &&
                   t->off == a->rdispl[a->rank]) ||
                  ((t->kind == NBO_TASK_PACK || t->kind == NBO_TASK_UNPACK) && t->peer == a->rank);
        if (own)
            return fail("own block's %s at task %d before the first SEND", nbo_task_kind_name(t->kind), i);
    }
    return NULL;
}

/* Compressed calls: the (peer, length) of every SEND and RECV in list
 * order: windows of W steps, each in rounds, round j sending chunk j of
 * each step's block and receiving chunk j of each block coming in
 * (compile_pairwise.c). */
static size_t chunks(size_t bytes, size_t c) { return bytes ? (bytes + c - 1) / c : 0; }

static int codec_sequence(const nbo_sched_args_t *a, int sends, int *peer, size_t *len, int max)
{
    const int P = a->size, r = a->rank;
    const size_t c = nbo_sched_codec_chunk(a);
    int n = 0;
    for (int first = 1; first < P; first += a->window)
        for (size_t j = 0;; j++) {
            int any = 0;
            for (int i = first; i < first + a->window && i < P; i++) {
                int dst = is_pow2(P) ? r ^ i : (r + i) % P, src = is_pow2(P) ? r ^ i : (r - i + P) % P;
                any |= j < chunks(a->sbytes[dst], c) || j < chunks(a->rbytes[src], c);
                int p = sends ? dst : src;
                size_t b = sends ? a->sbytes[dst] : a->rbytes[src];
                if (j < chunks(b, c) && n < max) {
                    peer[n] = p;
                    len[n++] = wire(a, b - j * c < c ? b - j * c : c);
                }
            }
            if (!any)
                break;
        }
    return n;
}

/* Pairwise: the sequence of SEND peers and RECV peers follows the steps. */
static const char *check_pairwise(const nbo_sched_args_t *a, const nbo_sched_t *s)
{
    const int P = a->size, r = a->rank;
    int ns = 0, nr = 0;
    int *sp = malloc(sizeof(int) * (size_t)(s->ntasks + 1));
    int *rp = malloc(sizeof(int) * (size_t)(s->ntasks + 1));
    size_t *sl = malloc(sizeof(size_t) * (size_t)(s->ntasks + 1));
    size_t *rl = malloc(sizeof(size_t) * (size_t)(s->ntasks + 1));
    const char *err = NULL;
    if (!sp || !rp || !sl || !rl)
        err = fail("out of memory");
    for (int i = 0; i < s->ntasks && !err; i++) {
        const nbo_task_t *t = &s->tasks[i];
        if (t->kind == NBO_TASK_SEND) { sp[ns] = t->peer; sl[ns++] = t->len; }
        if (t->kind == NBO_TASK_RECV) { rp[nr] = t->peer; rl[nr++] = t->len; }
    }
    if (!err && nbo_sched_codec_on(a)) {
        for (int dir = 0; dir < 2 && !err; dir++) {
            int *got_p = dir ? rp : sp, n = dir ? nr : ns;
            size_t *got_l = dir ? rl : sl;
            int *wp = malloc(sizeof(int) * (size_t)(n + 2));
            size_t *wl = malloc(sizeof(size_t) * (size_t)(n + 2));
            int m = codec_sequence(a, !dir, wp, wl, n + 1);
            if (m != n)
                err = fail("%d %s messages, expected %d", n, dir ? "RECV" : "SEND", m);
            for (int k = 0; k < n && !err; k++)
                if (wp[k] != got_p[k] || wl[k] != got_l[k])
                    err = fail("%s #%d: peer %d, %zu bytes; expected peer %d, %zu bytes",
                               dir ? "RECV" : "SEND", k, got_p[k], got_l[k], wp[k], wl[k]);
            free(wp);
            free(wl);
        }
        free(sp); free(rp); free(sl); free(rl);
        return err ? err : check_own_block_after_sends(a, s);
    }
    int ks = 0, kr = 0;
    for (int i = 1; i < P && !err; i++) {
        int dst = is_pow2(P) ? r ^ i : (r + i) % P;
        int src = is_pow2(P) ? r ^ i : (r - i + P) % P;
        if (a->sbytes[dst]) {
            if (ks >= ns || sp[ks] != dst || sl[ks] != wire(a, a->sbytes[dst]))
                err = fail("step %d: expected SEND #%d to %d of %zu bytes, got %s %d/%zu", i, ks,
                           dst, wire(a, a->sbytes[dst]), ks < ns ? "" : "none",
                           ks < ns ? sp[ks] : -1, ks < ns ? sl[ks] : 0);
            ks++;
        }
        if (!err && a->rbytes[src]) {
            if (kr >= nr || rp[kr] != src || rl[kr] != wire(a, a->rbytes[src]))
                err = fail("step %d: expected RECV #%d from %d of %zu bytes, got %d/%zu", i, kr,
                           src, wire(a, a->rbytes[src]), kr < nr ? rp[kr] : -1,
                           kr < nr ? rl[kr] : 0);
            kr++;
        }
    }
    if (!err && (ks != ns || kr != nr))
        err = fail("%d SENDs and %d RECVs, expected %d and %d", ns, nr, ks, kr);
    free(sp); free(rp); free(sl); free(rl);
    return err ? err : check_own_block_after_sends(a, s);
}

static const char *check_bruck(const nbo_sched_args_t *a, const nbo_sched_t *s)
{
    const int P = a->size, r = a->rank;
    const size_t B = a->sbytes[0];
    int k = 0, kr = 0;
    for (int i = 0; i < s->ntasks; i++) {
        const nbo_task_t *t = &s->tasks[i];
        if (t->kind != NBO_TASK_SEND && t->kind != NBO_TASK_RECV)
            continue;
        int *n = t->kind == NBO_TASK_SEND ? &k : &kr;
        int d = 1 << *n;
        size_t m = 0;
        for (int j = 1; j < P; j++)
            if (j & d)
                m++;
        int peer = t->kind == NBO_TASK_SEND ? (r + d) % P : (r - d + P) % P;
        if (d >= P || t->peer != peer || t->len != m * B)
            return fail("Bruck %s #%d: peer %d len %zu, expected peer %d len %zu",
                        nbo_task_kind_name(t->kind), *n, t->peer, t->len, peer, m * B);
        (*n)++;
    }
    int rounds = 0;
    for (int d = 1; d < P; d <<= 1)
        rounds++;
    if (B && (k != rounds || kr != rounds))
        return fail("Bruck: %d SENDs, %d RECVs for %d rounds", k, kr, rounds);
    return NULL;
}

/* Writes into the user receive buffer, counted per byte; reads and writes of
 * every buffer kept in bounds. */
static const char *check_bytes(const nbo_sched_args_t *a, const nbo_sched_t *s)
{
    const int P = a->size;
    size_t rspan = 0, sspan = 0;
    for (int p = 0; p < P; p++) {
        if (a->rdispl[p] + a->rbytes[p] > rspan) rspan = a->rdispl[p] + a->rbytes[p];
        if (a->sdispl[p] + a->sbytes[p] > sspan) sspan = a->sdispl[p] + a->sbytes[p];
    }
    unsigned char *wr = calloc(rspan + 1, 1);   /* writes per byte */
    signed char *owner = malloc(rspan + 1);    /* block of each byte, -1 gap */
    signed char *sown = malloc(sspan + 1);
    if (!wr || !owner || !sown) {
        free(wr); free(owner); free(sown);
        return fail("out of memory");
    }
    memset(owner, -1, rspan + 1);
    memset(sown, -1, sspan + 1);
    for (int p = 0; p < P; p++) {
        memset(owner + a->rdispl[p], p, a->rbytes[p]);
        memset(sown + a->sdispl[p], p, a->sbytes[p]);
    }
    const char *err = NULL;
    const size_t len[NBO_BUF_COUNT] = {a->in_place ? 0 : sspan, rspan, s->tmp_bytes};
    for (int i = 0; i < s->ntasks && !err; i++) {
        const nbo_task_t *t = &s->tasks[i];
        int wbuf = -1, rbuf = -1;
        size_t woff = 0, roff = 0, rlen = t->len, wlen = t->len;
        switch (t->kind) {
        case NBO_TASK_RECV: wbuf = t->buf; woff = t->off; break;
        case NBO_TASK_SEND: rbuf = t->buf; roff = t->off; break;
        case NBO_TASK_COPY: wbuf = t->buf; woff = t->off; rbuf = t->src_buf; roff = t->src_off; break;
        case NBO_TASK_ENCODE:
        case NBO_TASK_DECODE:
            wbuf = t->buf; woff = t->off; rbuf = t->src_buf; roff = t->src_off;
            /* A chunk of the peer's block: inside it, whole scalars. */
            if (!nbo_sched_codec_on(a) || t->peer < 0 || t->peer >= P || t->peer == a->rank)
                err = fail("task %d: %s for peer %d", i, nbo_task_kind_name(t->kind), t->peer);
            else {
                const int enc = t->kind == NBO_TASK_ENCODE;
                const size_t bo = enc ? (a->in_place ? a->rdispl : a->sdispl)[t->peer]
                                      : a->rdispl[t->peer];
                const size_t bl = (enc ? a->sbytes : a->rbytes)[t->peer];
                const size_t at = enc ? t->src_off : t->off;
                if (!t->len || t->len % nbo_celem_bytes(a->codec_elem) || at < bo ||
                    at + t->len > bo + bl || t->len > nbo_sched_codec_chunk(a))
                    err = fail("task %d: %s of [%zu..+%zu], not a chunk of peer %d's block "
                               "[%zu..+%zu]", i, nbo_task_kind_name(t->kind), at, t->len, t->peer,
                               bo, bl);
            }
            if (t->kind == NBO_TASK_ENCODE)
                wlen = wire(a, t->len);
            else
                rlen = wire(a, t->len);
            break;
        case NBO_TASK_PACK:
            wbuf = t->buf; woff = t->off;
            if (t->peer < 0 || t->peer >= P || t->len != a->sbytes[t->peer])
                err = fail("task %d: PACK of block %d with %zu bytes", i, t->peer, t->len);
            break;
        case NBO_TASK_UNPACK:
            rbuf = t->src_buf; roff = t->src_off;
            if (t->peer < 0 || t->peer >= P || t->len != a->rbytes[t->peer])
                err = fail("task %d: UNPACK of block %d with %zu bytes", i, t->peer, t->len);
            else /* writes the whole receive block */
                for (size_t b = 0; b < t->len; b++)
                    wr[a->rdispl[t->peer] + b]++;
            break;
        default: continue;
        }
        if (err)
            break;
        if (rbuf >= 0 && (rbuf >= NBO_BUF_COUNT || roff + rlen > len[rbuf]))
            err = fail("task %d (%s) reads buf %d [%zu..+%zu] beyond %zu", i,
                       nbo_task_kind_name(t->kind), rbuf, roff, rlen,
                       rbuf < NBO_BUF_COUNT ? len[rbuf] : 0);
        else if (rbuf == NBO_BUF_SEND)
            for (size_t b = 0; b < rlen && !err; b++)
                if (sown[roff + b] < 0)
                    err = fail("task %d reads send gap byte %zu", i, roff + b);
        if (err)
            break;
        if (wbuf == NBO_BUF_SEND)
            err = fail("task %d (%s) writes the send buffer", i, nbo_task_kind_name(t->kind));
        else if (wbuf >= 0 && (wbuf >= NBO_BUF_COUNT || woff + wlen > len[wbuf]))
            err = fail("task %d (%s) writes buf %d [%zu..+%zu] beyond %zu", i,
                       nbo_task_kind_name(t->kind), wbuf, woff, wlen,
                       wbuf < NBO_BUF_COUNT ? len[wbuf] : 0);
        else if (wbuf == NBO_BUF_RECV)
            for (size_t b = 0; b < wlen; b++)
                wr[woff + b]++;
    }
    for (size_t b = 0; b < rspan && !err; b++) {
        int own = owner[b] == a->rank && a->in_place;
        if (owner[b] < 0 && wr[b])
            err = fail("receive gap byte %zu written %d times", b, wr[b]);
        else if (owner[b] >= 0 && (wr[b] > 1 || (wr[b] == 0 && !own)))
            err = fail("receive byte %zu (block %d) written %d times", b, owner[b], wr[b]);
    }
    free(wr); free(owner); free(sown);
    return err;
}

/* The extent of a buffer the arguments describe: the furthest block end. */
static size_t span(int P, const size_t *bytes, const size_t *displ)
{
    size_t n = 0;
    for (int p = 0; p < P; p++)
        if (bytes[p] && displ[p] + bytes[p] > n)
            n = displ[p] + bytes[p];
    return n;
}

/* The new collectives: every task stays inside its buffers (the input
 * blocks of a reduce-scatter in place are in the receive buffer), nothing
 * writes the send buffer, PACK/UNPACK name a block of the right size, and
 * REDUCE covers whole elements at element offsets. */
static const char *check_coll_bytes(const nbo_sched_args_t *a, const nbo_sched_t *s)
{
    const int P = a->size;
    size_t len[NBO_BUF_COUNT] = {span(P, a->sbytes, a->sdispl), span(P, a->rbytes, a->rdispl),
                                 s->tmp_bytes};
    if (a->in_place) {
        if (len[NBO_BUF_SEND] > len[NBO_BUF_RECV])
            len[NBO_BUF_RECV] = len[NBO_BUF_SEND];
        len[NBO_BUF_SEND] = 0;
    }
    for (int i = 0; i < s->ntasks; i++) {
        const nbo_task_t *t = &s->tasks[i];
        int wbuf = -1, rbuf = -1;
        size_t woff = 0, roff = 0;
        switch (t->kind) {
        case NBO_TASK_RECV: wbuf = t->buf; woff = t->off; break;
        case NBO_TASK_SEND: rbuf = t->buf; roff = t->off; break;
        case NBO_TASK_COPY:
        case NBO_TASK_REDUCE:
            wbuf = t->buf; woff = t->off; rbuf = t->src_buf; roff = t->src_off;
            if (t->kind == NBO_TASK_REDUCE &&
                (!a->elem || t->len % a->elem || t->off % a->elem || t->src_off % a->elem))
                return fail("task %d: REDUCE [%zu..+%zu] <- [%zu] is not whole %zu-byte elements",
                            i, t->off, t->len, t->src_off, a->elem);
            break;
        case NBO_TASK_PACK:
            wbuf = t->buf; woff = t->off;
            if (t->peer < 0 || t->peer >= P ||
                t->len != (a->in_place ? a->rbytes[t->peer] : a->sbytes[t->peer]))
                return fail("task %d: PACK of block %d with %zu bytes", i, t->peer, t->len);
            break;
        case NBO_TASK_UNPACK:
            rbuf = t->src_buf; roff = t->src_off;
            if (t->peer < 0 || t->peer >= P || t->len != a->rbytes[t->peer])
                return fail("task %d: UNPACK of block %d with %zu bytes", i, t->peer, t->len);
            break;
        default: continue;
        }
        if (rbuf >= 0 && (rbuf >= NBO_BUF_COUNT || roff + t->len > len[rbuf]))
            return fail("task %d (%s) reads buf %d [%zu..+%zu] beyond %zu", i,
                        nbo_task_kind_name(t->kind), rbuf, roff, t->len,
                        rbuf < NBO_BUF_COUNT ? len[rbuf] : 0);
        if (wbuf == NBO_BUF_SEND)
            return fail("task %d (%s) writes the send buffer", i, nbo_task_kind_name(t->kind));
        if (wbuf >= 0 && (wbuf >= NBO_BUF_COUNT || woff + t->len > len[wbuf]))
            return fail("task %d (%s) writes buf %d [%zu..+%zu] beyond %zu", i,
                        nbo_task_kind_name(t->kind), wbuf, woff, t->len,
                        wbuf < NBO_BUF_COUNT ? len[wbuf] : 0);
    }
    return NULL;
}

/* Bcast: nothing writes the root's buffer (its input). */
static const char *check_root_untouched(const nbo_sched_args_t *a, const nbo_sched_t *s)
{
    if (a->coll != NBO_COLL_BCAST || a->rank != a->root)
        return NULL;
    for (int i = 0; i < s->ntasks; i++) {
        const nbo_task_t *t = &s->tasks[i];
        int writes = t->kind == NBO_TASK_UNPACK ||
                     ((t->kind == NBO_TASK_RECV || t->kind == NBO_TASK_COPY ||
                       t->kind == NBO_TASK_REDUCE) && t->buf == NBO_BUF_RECV);
        if (writes)
            return fail("task %d (%s) writes the root's buffer", i, nbo_task_kind_name(t->kind));
    }
    return NULL;
}

/* Sends in flight never exceed the window (receives may come anywhere). */
static const char *check_window(const nbo_sched_args_t *a, const nbo_sched_t *s)
{
    int busy = 0;
    for (int i = 0; i < s->ntasks; i++) {
        const nbo_task_t *t = &s->tasks[i];
        if (t->kind == NBO_TASK_SEND)
            busy++;
        if (busy > a->window)
            return fail("%d sends in flight at task %d, window is %d", busy, i, a->window);
        if (t->kind == NBO_TASK_WAIT)
            for (int j = 0; j < i; j++)
                if (s->tasks[j].kind == NBO_TASK_SEND && s->tasks[j].wait == i)
                    busy--;
    }
    return NULL;
}

/* Compressed calls: the list carries the codec; every SEND goes out of a
 * scratch message that an earlier ENCODE for that peer wrote whole (and
 * nothing wrote since), every RECV lands in scratch that a later DECODE
 * from that peer reads whole, after the WAIT that covers the RECV; one
 * ENCODE per SEND and one DECODE per RECV; scratch messages never overlap;
 * and with more than one window, the next window's blocks are encoded, and
 * the previous window's decoded, while a window is in flight (between its
 * first SEND and its WAIT) unless in place (every block encoded before the
 * first SEND). */
static const char *check_codec(const nbo_sched_args_t *a, const nbo_sched_t *s)
{
    if (!nbo_sched_codec_on(a)) {
        for (int i = 0; i < s->ntasks; i++)
            if (s->tasks[i].kind == NBO_TASK_ENCODE || s->tasks[i].kind == NBO_TASK_DECODE)
                return fail("task %d: %s in an exact call", i, nbo_task_kind_name(s->tasks[i].kind));
        return NULL;
    }
    if (s->codec != a->codec || s->codec_rate != a->codec_rate || s->codec_elem != a->codec_elem)
        return fail("list codec %d/%d/%d, call %d/%d/%d", s->codec, s->codec_rate, s->codec_elem,
                    a->codec, a->codec_rate, a->codec_elem);
    int nenc = 0, ndec = 0, nsend = 0, nrecv = 0, overlapped_enc = 0, overlapped_dec = 0;
    int first_send = -1;
    for (int i = 0; i < s->ntasks; i++) {
        const nbo_task_t *t = &s->tasks[i];
        if (t->kind == NBO_TASK_SEND) {
            nsend++;
            if (first_send < 0)
                first_send = i;
            if (t->buf != NBO_BUF_TMP)
                return fail("SEND %d not from scratch", i);
            int e = i - 1;
            while (e >= 0 && !(s->tasks[e].kind == NBO_TASK_ENCODE && s->tasks[e].peer == t->peer &&
                               s->tasks[e].off == t->off))
                e--;
            if (e < 0 || s->tasks[e].buf != NBO_BUF_TMP || s->tasks[e].off != t->off ||
                wire(a, s->tasks[e].len) != t->len)
                return fail("SEND %d to %d: no ENCODE of [%zu..+%zu] before it", i, t->peer, t->off,
                            t->len);
            for (int k = e + 1; k < i; k++) { /* nothing else wrote the message since */
                const nbo_task_t *u = &s->tasks[k];
                size_t ulen = u->kind == NBO_TASK_ENCODE ? wire(a, u->len) : u->len;
                if ((u->kind == NBO_TASK_ENCODE || u->kind == NBO_TASK_RECV ||
                     u->kind == NBO_TASK_COPY) && u->buf == NBO_BUF_TMP &&
                    u->off < t->off + t->len && t->off < u->off + ulen)
                    return fail("task %d overwrites the message of SEND %d", k, i);
            }
        } else if (t->kind == NBO_TASK_RECV) {
            nrecv++;
            if (t->buf != NBO_BUF_TMP)
                return fail("RECV %d not into scratch", i);
            int d = t->wait + 1;
            while (d < s->ntasks &&
                   !(s->tasks[d].kind == NBO_TASK_DECODE && s->tasks[d].peer == t->peer &&
                     s->tasks[d].src_off == t->off))
                d++;
            if (d == s->ntasks || s->tasks[d].src_buf != NBO_BUF_TMP ||
                s->tasks[d].src_off != t->off || wire(a, s->tasks[d].len) != t->len)
                return fail("RECV %d from %d (WAIT %d): no DECODE of [%zu..+%zu] after its WAIT", i,
                            t->peer, t->wait, t->off, t->len);
        } else if (t->kind == NBO_TASK_ENCODE || t->kind == NBO_TASK_DECODE) {
            int enc = t->kind == NBO_TASK_ENCODE;
            enc ? nenc++ : ndec++;
            /* In flight: a SEND before it whose WAIT comes after it. */
            for (int j = 0; j < i; j++)
                if (s->tasks[j].kind == NBO_TASK_SEND && s->tasks[j].wait > i) {
                    enc ? overlapped_enc++ : overlapped_dec++;
                    break;
                }
            if (enc && a->in_place && first_send >= 0)
                return fail("ENCODE %d after the first SEND in place", i);
        }
    }
    if (nenc != nsend || ndec != nrecv)
        return fail("%d ENCODE for %d SEND, %d DECODE for %d RECV", nenc, nsend, ndec, nrecv);
    /* More than one round that sends and receives: the codec overlaps. */
    int windows = 0;
    for (int i = 0; i < s->ntasks; i++)
        windows += s->tasks[i].kind == NBO_TASK_WAIT;
    if (windows > 1 && nsend > 1 && nrecv > 1 && a->uniform &&
        ((!a->in_place && overlapped_enc == 0) || overlapped_dec == 0))
        return fail("%d windows: %d ENCODE and %d DECODE overlap a window in flight", windows,
                    overlapped_enc, overlapped_dec);
    return NULL;
}

const char *sched_check(const nbo_sched_args_t *a, const nbo_sched_t *s)
{
    const char *err;
    if (a->coll != NBO_COLL_ALLTOALL && a->coll != NBO_COLL_ALLTOALLV &&
        a->coll != NBO_COLL_ALLTOALLW) {
        if (s->algorithm != nbo_sched_choose(a))
            return fail("algorithm %s, nbo_sched_choose says %s", nbo_algorithm_name(s->algorithm),
                        nbo_algorithm_name(nbo_sched_choose(a)));
        if ((err = check_waits(s)) || (err = check_window(a, s)))
            return err;
        for (int i = 0; i < s->ntasks; i++) {
            const nbo_task_t *t = &s->tasks[i];
            if ((t->kind == NBO_TASK_SEND || t->kind == NBO_TASK_RECV) &&
                (t->peer < 0 || t->peer >= a->size || t->peer == a->rank))
                return fail("task %d: %s with peer %d", i, nbo_task_kind_name(t->kind), t->peer);
        }
        return (err = check_coll_bytes(a, s)) ? err : check_root_untouched(a, s);
    }
    if (s->algorithm != nbo_sched_choose(a))
        return fail("algorithm %s, nbo_sched_choose says %s", nbo_algorithm_name(s->algorithm),
                    nbo_algorithm_name(nbo_sched_choose(a)));
    if ((err = check_waits(s)) || (err = check_order_and_window(a, s)))
        return err;
    for (int i = 0; i < s->ntasks; i++) {
        const nbo_task_t *t = &s->tasks[i];
        if ((t->kind == NBO_TASK_SEND || t->kind == NBO_TASK_RECV) &&
            (t->peer < 0 || t->peer >= a->size || t->peer == a->rank))
            return fail("task %d: %s with peer %d", i, nbo_task_kind_name(t->kind), t->peer);
    }
    if (s->algorithm == NBO_ALG_BRUCK && nbo_sched_codec_on(a))
        return fail("Bruck on compressed blocks");
    err = s->algorithm == NBO_ALG_BRUCK ? check_bruck(a, s) : check_pairwise(a, s);
    if (!err)
        err = check_codec(a, s);
    return err ? err : check_bytes(a, s);
}
