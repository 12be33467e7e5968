/*
 * ofi_trig_part.c - which part of a task list the provider can run
 * (ofi_trigger.c runs it), and how it must be counted.
 *
 * A part is SEND, RECV and WAIT tasks from the list's first message to its
 * last WAIT, plus COPY tasks done by the host at the start.  Two kinds:
 *
 *   - sends that read only bytes no receive writes (all-to-all(v): the
 *     send buffer, or blocks packed to scratch before the part, which the
 *     compiler puts first for such engines: a derived type, in place):
 *     one counter for every receive;
 *   - sends that forward received data (broadcast, allgather(v)): one
 *     counter per WAIT, so a window fires once exactly the receives of
 *     the WAITs before it are in.  Receives are posted at the start, so
 *     no receive may write what a send before its WAIT reads.
 *
 * Depends on the collective and the list (and the buffers it names):
 * every rank's list of an all-to-all, a broadcast or an allgather(v) of
 * contiguous types passes, so ranks decide alike.
 */
#include <stdint.h>

#include "ofi_engine.h"

static const char *task_at(const nbo_exec_t *x, const nbo_task_t *t, int src)
{
    return (const char *)x->buf[src ? t->src_buf : t->buf] + (src ? t->src_off : t->off);
}

/* Do the bytes of a (its source if asrc) and b's destination overlap?  By
 * address: an in-place call names one buffer twice. */
static int overlaps(const nbo_exec_t *x, const nbo_task_t *a, int asrc, const nbo_task_t *b)
{
    const char *p = task_at(x, a, asrc), *q = task_at(x, b, 0);
    return a->len && b->len && p < q + b->len && q < p + a->len;
}

/* Sends read bytes no receive of the part writes: the send buffer, apart
 * from the receive buffer, or scratch blocks packed before the part (a
 * derived type, in place), apart from the scratch the receives land in.
 * A rank that sends nothing passes, as its peers do: an all-to-all-v's
 * ranks must all decide alike. */
static int sends_read_apart(const nbo_exec_t *x, int first, int end)
{
    const char *s = x->buf[NBO_BUF_SEND], *r = x->buf[NBO_BUF_RECV];
    const size_t sl = x->buf_len[NBO_BUF_SEND], rl = x->buf_len[NBO_BUF_RECV];
    size_t send_lo = SIZE_MAX, send_hi = 0, recv_lo = SIZE_MAX, recv_hi = 0; /* in TMP */
    for (int i = first; i < end; i++) {
        const nbo_task_t *t = &x->tasks[i];
        if (t->kind == NBO_TASK_SEND && t->buf == NBO_BUF_SEND && sl && rl && s < r + rl &&
            r < s + sl)
            return 0;
        if ((t->kind == NBO_TASK_SEND && t->buf == NBO_BUF_RECV) ||
            (t->kind == NBO_TASK_RECV && t->buf == NBO_BUF_SEND))
            return 0;
        if ((t->kind != NBO_TASK_SEND && t->kind != NBO_TASK_RECV) || t->buf != NBO_BUF_TMP ||
            !t->len)
            continue;
        size_t *lo = t->kind == NBO_TASK_SEND ? &send_lo : &recv_lo;
        size_t *hi = t->kind == NBO_TASK_SEND ? &send_hi : &recv_hi;
        if (t->off < *lo)
            *lo = t->off;
        if (t->off + t->len > *hi)
            *hi = t->off + t->len;
    }
    return send_hi <= recv_lo || recv_hi <= send_lo;
}

/* Messages, waits and copies only, anywhere in the list: a derived type
 * gives the root of a broadcast a PACK before its part and a middle rank
 * an UNPACK inside it; every rank has one of them, so all take the host
 * path. */
static int only_messages(const nbo_exec_t *x)
{
    for (int i = 0; i < x->ntasks; i++)
        if (x->tasks[i].kind > NBO_TASK_COPY)
            return 0;
    return 1;
}

/* Forwarding: a receive that overlaps a send is covered by a WAIT before
 * that send (its data is in when the send fires, and it cannot land while
 * the send reads).  Except in the receive buffer: there a broadcast or an
 * allgather writes each byte only with its final value (the root's data,
 * rank i's block), so a receive of the same bytes again (the
 * scatter-allgather broadcast's ring does) cannot change what a send
 * reads. */
static int forwards_safely(const nbo_exec_t *x, int first, int end)
{
    const nbo_task_t *T = x->tasks;
    for (int i = first; i < end; i++) {
        if (T[i].kind != NBO_TASK_SEND)
            continue;
        for (int k = first; k < end; k++)
            if (T[k].kind == NBO_TASK_RECV && T[k].wait > i &&
                !(T[i].buf == NBO_BUF_RECV && T[k].buf == NBO_BUF_RECV) &&
                overlaps(x, &T[i], 0, &T[k]))
                return 0;
    }
    return 1;
}

int ofi_trig_part(const nbo_exec_t *x, int first, ofi_part_t *p)
{
    const nbo_task_t *T = x->tasks;
    *p = (ofi_part_t){0};
    for (int i = 0; i < first; i++)
        if (T[i].kind == NBO_TASK_SEND || T[i].kind == NBO_TASK_RECV)
            return 0; /* one part per list, from its first message */
    int end = first, s = 0, r = 0;
    for (int i = first; i < x->ntasks; i++)
        if (T[i].kind == NBO_TASK_WAIT)
            end = i + 1;
    for (int i = first; i < end; i++) {
        const nbo_task_t *t = &T[i];
        switch (t->kind) {
        case NBO_TASK_SEND:
            s++;
            break;
        case NBO_TASK_RECV:
            r++;
            break;
        case NBO_TASK_WAIT:
            break;
        case NBO_TASK_COPY:
            /* Done at the start: reads the send buffer, writes nothing a
             * receive writes or a send reads before it. */
            if (t->src_buf != NBO_BUF_SEND || t->buf == NBO_BUF_SEND)
                return 0;
            for (int k = first; k < x->ntasks; k++)
                if ((T[k].kind == NBO_TASK_RECV &&
                     (overlaps(x, t, 0, &T[k]) || overlaps(x, t, 1, &T[k]))) ||
                    (T[k].kind == NBO_TASK_SEND && k < i && overlaps(x, &T[k], 0, t)))
                    return 0;
            break;
        default:
            return 0; /* a task the provider cannot run, before the last WAIT */
        }
    }
    for (int k = end; k < x->ntasks; k++)
        if (T[k].kind == NBO_TASK_SEND || T[k].kind == NBO_TASK_RECV)
            return 0;
    if (s + r == 0)
        return 0;
    /* Local tasks after the last WAIT stay with the host. */
    p->n = end - first;
    p->nsend = s;
    p->nrecv = r;
    for (int k = first; k < end; k++)
        p->nwait += T[k].kind == NBO_TASK_WAIT;
    /* By collective, not by list alone: one rank's list may look
     * offloadable where a peer's of the same call is not (the extra rank
     * of a reduction at P not a power of 2 only sends and receives). */
    if (x->coll == NBO_COLL_ALLTOALL || x->coll == NBO_COLL_ALLTOALLV)
        return sends_read_apart(x, first, end) ? p->n : 0;
    if ((x->coll != NBO_COLL_BCAST && x->coll != NBO_COLL_ALLGATHER &&
         x->coll != NBO_COLL_ALLGATHERV) ||
        !only_messages(x) || !forwards_safely(x, first, end))
        return 0;
    p->forwards = 1;
    return p->n;
}
