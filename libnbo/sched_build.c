/* sched_build.c - append tasks to a schedule under construction. */
#include "sched_build.h"

#include <stdlib.h>
#include <string.h>

void sched_build_start(sched_build_t *b, nbo_sched_t *out)
{
    memset(out, 0, sizeof(*out));
    b->s = out;
    b->cap = 0;
    b->err = NBO_SUCCESS;
    b->open = NULL;
    b->nopen = b->open_cap = b->open_sends = 0;
}

static nbo_task_t *append(sched_build_t *b, int kind)
{
    if (b->err)
        return NULL;
    if (b->s->ntasks == b->cap) {
        int cap = b->cap ? 2 * b->cap : 64;
        nbo_task_t *t = realloc(b->s->tasks, (size_t)cap * sizeof(*t));
        if (!t) {
            b->err = NBO_ERR_NOMEM;
            return NULL;
        }
        b->s->tasks = t;
        b->cap = cap;
    }
    nbo_task_t *t = &b->s->tasks[b->s->ntasks++];
    memset(t, 0, sizeof(*t));
    t->kind = (uint8_t)kind;
    t->peer = -1;
    t->wait = -1;
    return t;
}

static int comm_task(sched_build_t *b, int kind, int peer, nbo_buf_t buf, size_t off, size_t len)
{
    if (len == 0) /* both sides skip empty blocks: their sizes must agree */
        return -1;
    nbo_task_t *t = append(b, kind);
    if (!t)
        return -1;
    t->peer = peer;
    t->buf = (uint8_t)buf;
    t->off = off;
    t->len = len;
    return b->s->ntasks - 1;
}

int sched_build_recv(sched_build_t *b, int peer, nbo_buf_t buf, size_t off, size_t len)
{
    return comm_task(b, NBO_TASK_RECV, peer, buf, off, len);
}

int sched_build_send(sched_build_t *b, int peer, nbo_buf_t buf, size_t off, size_t len)
{
    return comm_task(b, NBO_TASK_SEND, peer, buf, off, len);
}

/* A local task from one named buffer range into another (COPY, REDUCE). */
static void move_task(sched_build_t *b, int kind, nbo_buf_t dst, size_t dst_off, nbo_buf_t src,
                      size_t src_off, size_t len)
{
    nbo_task_t *t = len ? append(b, kind) : NULL;
    if (!t)
        return;
    t->buf = (uint8_t)dst;
    t->off = dst_off;
    t->src_buf = (uint8_t)src;
    t->src_off = src_off;
    t->len = len;
}

void sched_build_copy(sched_build_t *b, nbo_buf_t dst, size_t dst_off,
                      nbo_buf_t src, size_t src_off, size_t len)
{
    if (dst != src || dst_off != src_off)
        move_task(b, NBO_TASK_COPY, dst, dst_off, src, src_off, len);
}

static void codec_task(sched_build_t *b, int kind, int peer, nbo_buf_t dst, size_t dst_off,
                       nbo_buf_t src, size_t src_off, size_t len)
{
    if (len == 0)
        return;
    nbo_task_t *t = append(b, kind);
    if (!t)
        return;
    t->peer = peer;
    t->buf = (uint8_t)dst;
    t->off = dst_off;
    t->src_buf = (uint8_t)src;
    t->src_off = src_off;
    t->len = len;
}

void sched_build_encode(sched_build_t *b, int peer, nbo_buf_t dst, size_t dst_off,
                        nbo_buf_t src, size_t src_off, size_t len)
{
    codec_task(b, NBO_TASK_ENCODE, peer, dst, dst_off, src, src_off, len);
}

void sched_build_decode(sched_build_t *b, int peer, nbo_buf_t dst, size_t dst_off,
                        nbo_buf_t src, size_t src_off, size_t len)
{
    codec_task(b, NBO_TASK_DECODE, peer, dst, dst_off, src, src_off, len);
}

/* A PACK or UNPACK of one block: its index and length; the caller names
 * the scratch side (NULL: nothing to add, or no memory). */
static nbo_task_t *block_task(sched_build_t *b, int kind, int block, size_t len)
{
    nbo_task_t *t = len ? append(b, kind) : NULL;
    if (t) {
        t->peer = block;
        t->len = len;
    }
    return t;
}

void sched_build_pack(sched_build_t *b, int block, nbo_buf_t dst, size_t off, size_t len)
{
    nbo_task_t *t = block_task(b, NBO_TASK_PACK, block, len);
    if (t) {
        t->buf = (uint8_t)dst;
        t->off = off;
    }
}

void sched_build_unpack(sched_build_t *b, int block, nbo_buf_t src, size_t off, size_t len)
{
    nbo_task_t *t = block_task(b, NBO_TASK_UNPACK, block, len);
    if (t) {
        t->src_buf = (uint8_t)src;
        t->src_off = off;
    }
}

size_t sched_build_own_tmp(const nbo_sched_args_t *a)
{
    return a->in_place || a->send_contig || a->recv_contig ? 0 : a->sbytes[a->rank];
}

/* In place, the own block is already where it belongs. */
void sched_build_own_block(sched_build_t *b, const nbo_sched_args_t *a, size_t tmp_off)
{
    const int r = a->rank;
    const size_t n = a->sbytes[r];
    if (a->in_place)
        return;
    if (a->send_contig && a->recv_contig)
        sched_build_copy(b, NBO_BUF_RECV, a->rdispl[r], NBO_BUF_SEND, a->sdispl[r], n);
    else if (a->send_contig)
        sched_build_unpack(b, r, NBO_BUF_SEND, a->sdispl[r], n);
    else if (a->recv_contig)
        sched_build_pack(b, r, NBO_BUF_RECV, a->rdispl[r], n);
    else {
        sched_build_pack(b, r, NBO_BUF_TMP, tmp_off, n);
        sched_build_unpack(b, r, NBO_BUF_TMP, tmp_off, n);
    }
}

void sched_build_wait(sched_build_t *b, const int *idx, int n)
{
    int count = 0;
    for (int i = 0; i < n; i++)
        if (idx[i] >= 0)
            count++;
    if (count == 0 || b->err)
        return;
    int w = sched_build_next(b);
    nbo_task_t *t = append(b, NBO_TASK_WAIT);
    if (!t)
        return;
    t->wait = count;
    for (int i = 0; i < n; i++)
        if (idx[i] >= 0)
            b->s->tasks[idx[i]].wait = w;
    b->s->nwaits++;
}

/* Remember an open SEND/RECV for the next WAIT. */
static void keep_open(sched_build_t *b, int idx)
{
    if (idx < 0 || b->err)
        return;
    if (b->nopen == b->open_cap) {
        int cap = b->open_cap ? 2 * b->open_cap : 32;
        int *o = realloc(b->open, (size_t)cap * sizeof(int));
        if (!o) {
            b->err = NBO_ERR_NOMEM;
            return;
        }
        b->open = o;
        b->open_cap = cap;
    }
    b->open[b->nopen++] = idx;
}

void sched_build_post_recv(sched_build_t *b, int peer, nbo_buf_t buf, size_t off, size_t len)
{
    keep_open(b, sched_build_recv(b, peer, buf, off, len));
}

/* Close the open sends alone, keeping the open receives for later. */
static void close_sends(sched_build_t *b)
{
    int n = 0, k = 0;
    for (int i = 0; i < b->nopen; i++)
        if (b->s->tasks[b->open[i]].kind == NBO_TASK_SEND)
            n++;
    int *sends = malloc((size_t)(n ? n : 1) * sizeof(int));
    if (!sends) {
        b->err = NBO_ERR_NOMEM;
        return;
    }
    for (int i = 0; i < b->nopen; i++)
        if (b->s->tasks[b->open[i]].kind == NBO_TASK_SEND)
            sends[k++] = b->open[i];
        else
            b->open[i - k] = b->open[i];
    b->nopen -= k;
    sched_build_wait(b, sends, k);
    b->open_sends = 0;
    free(sends);
}

void sched_build_post_send(sched_build_t *b, int window, int peer, nbo_buf_t buf, size_t off,
                           size_t len)
{
    if (len == 0)
        return;
    if (b->open_sends >= window)
        close_sends(b);
    int idx = sched_build_send(b, peer, buf, off, len);
    keep_open(b, idx);
    if (idx >= 0)
        b->open_sends++;
}

void sched_build_flush(sched_build_t *b)
{
    if (b->nopen)
        sched_build_wait(b, b->open, b->nopen);
    b->nopen = b->open_sends = 0;
}

void sched_build_reduce(sched_build_t *b, nbo_buf_t dst, size_t dst_off,
                        nbo_buf_t src, size_t src_off, size_t len)
{
    move_task(b, NBO_TASK_REDUCE, dst, dst_off, src, src_off, len);
}

int sched_build_finish(sched_build_t *b, int rc)
{
    free(b->open);
    b->open = NULL;
    b->nopen = b->open_cap = b->open_sends = 0;
    if (rc == NBO_SUCCESS)
        rc = b->err;
    if (rc != NBO_SUCCESS) {
        free(b->s->tasks);
        memset(b->s, 0, sizeof(*b->s));
    }
    return rc;
}
