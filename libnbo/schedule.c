/* schedule.c - compile a call into a task list: choose the algorithm from
 * the table, run its compiler, and print the result. */
#include "sched_algs.h"
#include "sched_build.h"
#include "../codec/codec.h"

#include <stdlib.h>

int nbo_sched_codec_on(const nbo_sched_args_t *a)
{
    return (a->coll == NBO_COLL_ALLTOALL || a->coll == NBO_COLL_ALLTOALLV) && a->send_contig &&
           a->recv_contig && nbo_codec_applies(a->codec, a->codec_rate, a->codec_elem);
}

size_t nbo_sched_codec_chunk(const nbo_sched_args_t *a)
{
    return nbo_codec_chunk_bytes(a->codec_elem, a->codec_chunk);
}

/* all: the peer lists are every rank in order (nbo_sched_all_ranks). */
static int fits(const nbo_sched_alg_t *e, const nbo_sched_args_t *a, int all)
{
    return (all || e->peer_lists) && (a->uniform || !e->uniform_only) && a->size >= e->min_ranks &&
           (!e->pow2_only || sched_is_pow2(a->size)) && (!e->commutative_only || a->commutative) &&
           (!e->no_codec || !nbo_sched_codec_on(a));
}

/* The requested algorithm where the table has it and it fits, else the
 * first that fits and AUTO wants, else the last (which fits every call). */
static const nbo_sched_alg_t *choose(const nbo_sched_alg_t *table, const nbo_sched_args_t *a)
{
    const int all = nbo_sched_all_ranks(a);
    const nbo_sched_alg_t *e;
    if (a->algorithm != NBO_ALG_AUTO)
        for (e = table; e->compile; e++)
            if (e->id == a->algorithm && fits(e, a, all))
                return e;
    for (e = table; e[1].compile; e++)
        if (fits(e, a, all) && (!e->auto_wants || e->auto_wants(a)))
            return e;
    return e;
}

int nbo_sched_all_ranks(const nbo_sched_args_t *a)
{
    if (!a->speers && !a->rpeers)
        return a->nsend == 0 && a->nrecv == 0;
    if (!a->speers || !a->rpeers || a->nsend != a->size || a->nrecv != a->size)
        return 0;
    for (int i = 0; i < a->size; i++)
        if (a->speers[i] != i || a->rpeers[i] != i)
            return 0;
    return 1;
}

/* Lists of ranks within 0..P-1, with their byte arrays (NULL lists:
 * every rank, the arrays of P entries). */
static int lists_valid(const nbo_sched_args_t *a)
{
    const int ns = a->speers || a->rpeers ? a->nsend : a->size;
    const int nr = a->speers || a->rpeers ? a->nrecv : a->size;
    if (ns < 0 || nr < 0 || (ns && (!a->sbytes || !a->sdispl)) ||
        (nr && (!a->rbytes || !a->rdispl)))
        return 0;
    if (!a->speers && !a->rpeers)
        return 1;
    if ((ns && !a->speers) || (nr && !a->rpeers))
        return 0;
    for (int i = 0; i < ns; i++)
        if (a->speers[i] < 0 || a->speers[i] >= a->size)
            return 0;
    for (int i = 0; i < nr; i++)
        if (a->rpeers[i] < 0 || a->rpeers[i] >= a->size)
            return 0;
    return 1;
}

nbo_algorithm_t nbo_sched_choose(const nbo_sched_args_t *a)
{
    return a->algs ? choose(a->algs, a)->id : NBO_ALG_AUTO;
}

int nbo_sched_candidates(const nbo_sched_args_t *a, nbo_algorithm_t *out, int max)
{
    if (!a->algs || max < 1)
        return 0;
    nbo_sched_args_t automatic = *a;
    automatic.algorithm = NBO_ALG_AUTO;
    int n = 0;
    out[n++] = choose(a->algs, &automatic)->id;
    const int all = nbo_sched_all_ranks(a);
    for (const nbo_sched_alg_t *e = a->algs; e->compile && n < max; e++)
        if (e->id != out[0] && fits(e, a, all) && (!e->tune_wants || e->tune_wants(a)))
            out[n++] = e->id;
    return n;
}

int nbo_sched_windowed(const nbo_sched_args_t *a, nbo_algorithm_t id)
{
    for (const nbo_sched_alg_t *e = a->algs; e && e->compile; e++)
        if (e->id == id)
            return !e->no_window;
    return 1;
}

int nbo_sched_compile(const nbo_sched_args_t *a, nbo_sched_t *out)
{
    if (!a || !out || a->size < 1 || a->rank < 0 || a->rank >= a->size || a->window < 1 ||
        !a->algs || !a->algs->compile || !lists_valid(a))
        return NBO_ERR_ARG;
    const nbo_sched_alg_t *alg = choose(a->algs, a);
    sched_build_t b;
    sched_build_start(&b, out);
    out->algorithm = alg->id;
    return sched_build_finish(&b, alg->compile(a, &b));
}

void nbo_sched_destroy(nbo_sched_t *s)
{
    if (!s)
        return;
    free(s->tasks);
    s->tasks = NULL;
    s->ntasks = s->nwaits = 0;
    s->tmp_bytes = 0;
}

const char *nbo_task_kind_name(int kind)
{
    switch (kind) {
    case NBO_TASK_RECV:   return "RECV";
    case NBO_TASK_SEND:   return "SEND";
    case NBO_TASK_WAIT:   return "WAIT";
    case NBO_TASK_COPY:   return "COPY";
    case NBO_TASK_PACK:   return "PACK";
    case NBO_TASK_UNPACK: return "UNPACK";
    case NBO_TASK_REDUCE: return "REDUCE";
    case NBO_TASK_ENCODE: return "ENCODE";
    case NBO_TASK_DECODE: return "DECODE";
    }
    return "?";
}

static const char *buf_name(int buf)
{
    static const char *names[] = {"send", "recv", "tmp"};
    return buf >= 0 && buf < NBO_BUF_COUNT ? names[buf] : "?";
}

void nbo_sched_print(const nbo_sched_t *s, FILE *out)
{
    fprintf(out, "# %s, %d tasks, %d waits, %zu scratch bytes\n",
            nbo_algorithm_name(s->algorithm), s->ntasks, s->nwaits, s->tmp_bytes);
    for (int i = 0; i < s->ntasks; i++) {
        const nbo_task_t *t = &s->tasks[i];
        fprintf(out, "%4d %-6s ", i, nbo_task_kind_name(t->kind));
        switch (t->kind) {
        case NBO_TASK_RECV:
        case NBO_TASK_SEND:
            fprintf(out, "peer %d %s[%zu..+%zu] wait@%d\n", t->peer, buf_name(t->buf), t->off,
                    t->len, t->wait);
            break;
        case NBO_TASK_WAIT:
            fprintf(out, "%d\n", t->wait);
            break;
        case NBO_TASK_COPY:
            fprintf(out, "%s[%zu..+%zu] <- %s[%zu]\n", buf_name(t->buf), t->off, t->len,
                    buf_name(t->src_buf), t->src_off);
            break;
        case NBO_TASK_REDUCE:
            fprintf(out, "%s[%zu..+%zu] <- %s[%zu] op itself\n", buf_name(t->buf), t->off, t->len,
                    buf_name(t->src_buf), t->src_off);
            break;
        case NBO_TASK_ENCODE:
            fprintf(out, "peer %d %s[%zu..+%zu] <- %s[%zu..+%zu] %s\n", t->peer, buf_name(t->buf),
                    t->off, nbo_codec_wire_bytes(s->codec, s->codec_rate, s->codec_elem, t->len),
                    buf_name(t->src_buf), t->src_off, t->len, nbo_codec_name(s->codec));
            break;
        case NBO_TASK_DECODE:
            fprintf(out, "peer %d %s[%zu..+%zu] <- %s[%zu..+%zu] %s\n", t->peer, buf_name(t->buf),
                    t->off, t->len, buf_name(t->src_buf), t->src_off,
                    nbo_codec_wire_bytes(s->codec, s->codec_rate, s->codec_elem, t->len),
                    nbo_codec_name(s->codec));
            break;
        case NBO_TASK_PACK:
            fprintf(out, "block %d -> %s[%zu..+%zu]\n", t->peer, buf_name(t->buf), t->off, t->len);
            break;
        case NBO_TASK_UNPACK:
            fprintf(out, "block %d <- %s[%zu..+%zu]\n", t->peer, buf_name(t->src_buf), t->src_off,
                    t->len);
            break;
        }
    }
}
