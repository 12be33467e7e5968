/*
 * request.c - running a compiled task list, and the request life cycle
 * (start, test, wait, free) with MPI semantics.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core.h"
#include "tune.h"
#include "../codec/codec.h"

int nbo_request_check(nbo_request_t *req)
{
    if (!req)
        return NBO_ERR_ARG;
    if (*req == NBO_REQUEST_NULL)
        return NBO_ERR_REQUEST_NULL;
    if ((*req)->magic != NBO_REQ_MAGIC)
        return NBO_ERR_REQUEST;
    return NBO_SUCCESS;
}

/* The largest message a request may leave to its waiter: one that every
 * engine sends whole at once (eager), so it moves without more polling. */
#define FOREGROUND_MAX 4096

/* Does a run of this task list need the progress thread?  Not when it is
 * one window of small messages: everything is posted at the start, and
 * what is left after the messages land (a reduction, a copy) is done by
 * whoever waits or tests, as MPI does.  Waking the thread for each of its
 * messages would cost more than the exchange, and the peer a signal. */
static int needs_background(const nbo_sched_t *s)
{
    int after_wait = 0;
    for (int i = 0; i < s->ntasks; i++) {
        const nbo_task_t *t = &s->tasks[i];
        if (t->kind == NBO_TASK_WAIT)
            after_wait = 1;
        else if ((t->kind == NBO_TASK_SEND || t->kind == NBO_TASK_RECV) &&
                 (after_wait || t->len > FOREGROUND_MAX))
            return 1;
    }
    return 0;
}

/* One side of the call as a memory type sees it (memory.h). */
static nbo_mem_side_t mem_side(const nbo_block_map_t *m, int present)
{
    nbo_mem_side_t s = {.base = present ? m->base : NULL, .lo = m->lo, .hi = m->hi,
                        .span = m->span, .contig = present ? m->dt.contig : 1};
    return s;
}

/* The run state of a compiled plan: per-WAIT counters, scratch and what
 * the engine sees of the list.  Lock not held. */
int nbo_request_arm(struct nbo_request *r)
{
    const nbo_sched_t *s = &r->plan.sched;
    int32_t *pending = calloc((size_t)s->ntasks + 1, sizeof(int32_t));
    void *tmp = s->tmp_bytes ? malloc(s->tmp_bytes) : NULL;
    if (!pending || (s->tmp_bytes && !tmp)) {
        free(pending);
        free(tmp);
        return NBO_ERR_NOMEM;
    }
    free(r->pending);
    free(r->tmp);
    r->pending = pending;
    r->tmp = tmp;
    r->background = needs_background(s) || r->mem != &nbo_mem_host;
    r->x.tasks = s->tasks;
    r->x.ntasks = s->ntasks;
    r->x.buf[NBO_BUF_TMP] = r->tmp;
    r->x.buf_len[NBO_BUF_TMP] = s->tmp_bytes;
    return NBO_SUCCESS;
}

int nbo_request_create(struct nbo_comm *c, nbo_coll_parts_t *parts, int persistent,
                       struct nbo_request **out)
{
    struct nbo_request *r = calloc(1, sizeof(*r));
    if (!r) {
        nbo_block_map_free(&parts->smap);
        nbo_block_map_free(&parts->rmap);
        if (parts->stage)
            parts->stage->free(parts->stage_data);
        nbo_plan_free(&parts->plan);
        return NBO_ERR_NOMEM;
    }
    r->plan = parts->plan;
    const nbo_sched_args_t *args = &r->plan.args;
    r->red = parts->red;
    r->stage = parts->stage;
    r->stage_data = parts->stage_data;
    r->magic = NBO_REQ_MAGIC;
    r->comm = c;
    r->persistent = persistent;
    r->in_place = args->in_place;
    r->x.coll = (int)args->coll;
    if (r->red && !r->red->staged && r->red->shift == 0) {
        r->x.red_set = 1;
        r->x.red_type = r->red->type;
        r->x.red_op = r->red->op;
    }
    r->send_map = parts->smap;
    r->recv_map = parts->rmap;
    r->mem = &nbo_mem_host;
    const nbo_block_map_t *smap = &r->send_map, *rmap = &r->recv_map;

    /* Before compiling: device buffers get host mirrors the engine runs on
     * instead (or stay, if the engine moves device memory). */
    nbo_mem_call_t mc = {
        .side = {mem_side(smap, !args->in_place), mem_side(rmap, 1)},
        .chunk = c->cfg.cuda_chunk,
        .engine_device_mem = (c->caps & NBO_CAP_DEVICE_MEM) != 0,
        .progress_sleeps = c->cfg.progress == NBO_PROGRESS_THREAD && c->source.fd >= 0,
    };
    void *buf[2] = {parts->sendbuf, parts->recvbuf};
    nbo_mem_t *m;
    int rc = nbo_mem_prepare(&mc, &m, buf);
    if (rc == NBO_SUCCESS) {
        r->mem = m;
        /* Staging covers blocks that arrive whole (the family says so):
         * blocks reduced or forwarded after arrival do not fit it yet. */
        if (m != &nbo_mem_host && !parts->device_ok)
            rc = NBO_ERR_DEVICE;
        /* The codecs run on the host, on host data only. */
        if (m != &nbo_mem_host && nbo_sched_codec_on(args))
            rc = NBO_ERR_DEVICE;
    }
    if (rc == NBO_SUCCESS)
        rc = nbo_sched_compile(args, &r->plan.sched);
    if (rc == NBO_SUCCESS) {
        r->x.buf[NBO_BUF_SEND] = buf[NBO_MEM_SEND];
        r->x.buf[NBO_BUF_RECV] = buf[NBO_MEM_RECV];
        r->x.buf_len[NBO_BUF_SEND] = args->in_place ? 0 : smap->span;
        r->x.buf_len[NBO_BUF_RECV] = rmap->span;
        rc = nbo_request_arm(r);
    }
    if (rc == NBO_SUCCESS) {
        nbo_lock();
        r->x.tag = c->seq++; /* every rank numbers its collective calls alike */
        rc = c->ops->plan_attach ? c->ops->plan_attach(c->ec, &r->x) : NBO_SUCCESS;
        if (rc == NBO_SUCCESS) {
            r->attached = 1;
            c->live++;
        }
        nbo_unlock();
    }
    if (rc == NBO_SUCCESS) {
        nbo_mem_plan_t plan = {.sched = &r->plan.sched, .in_place = r->in_place, .buf = r->x.buf,
                               .last_activity = &r->last_activity};
        void *map_base[2] = {r->send_map.base, r->recv_map.base};
        rc = r->mem->ops->attach(r->mem, &plan, map_base);
        r->send_map.base = map_base[NBO_MEM_SEND];
        r->recv_map.base = map_base[NBO_MEM_RECV];
    }
    if (rc != NBO_SUCCESS) {
        nbo_lock();
        nbo_request_destroy(r);
        nbo_unlock();
        return rc;
    }
    *out = r;
    return NBO_SUCCESS;
}

/* Lock held, request inactive; also undoes a create that failed midway. */
void nbo_request_destroy(struct nbo_request *r)
{
    struct nbo_comm *c = r->comm;
    if (r->cached)
        nbo_cache_drop(r);
    if (r->attached) {
        if (c->ops->plan_detach)
            c->ops->plan_detach(c->ec, &r->x);
        c->live--;
    }
    r->mem->ops->free(r->mem);
    nbo_plan_free(&r->plan);
    nbo_block_map_free(&r->send_map);
    nbo_block_map_free(&r->recv_map);
    if (r->stage)
        r->stage->free(r->stage_data);
    free(r->pending);
    free(r->tmp);
    nbo_tune_free(r);
    r->magic = 0;
    free(r);
}

static void request_finish(struct nbo_request *r, int status)
{
    r->status = status;
    r->state = REQ_DONE;
    NBO_LIST_UNLINK(r, active_link);
    nbo_progress_signal();
}

int nbo_request_begin(struct nbo_request *r)
{
    struct nbo_comm *c = r->comm;
    for (int i = 0; i < r->plan.sched.ntasks; i++)
        r->pending[i] = r->plan.sched.tasks[i].kind == NBO_TASK_WAIT ? r->plan.sched.tasks[i].wait : 0;
    r->cursor = 0;
    r->posted = 0;
    r->offload_wait = -1;
    r->status = NBO_SUCCESS;
    r->codec_status = NBO_SUCCESS;
    r->state = REQ_ACTIVE;
    r->last_activity = nbo_now();
    r->thread_at = r->last_activity + c->cfg.foreground_us * 1e-6;
    LIST_INSERT_HEAD(&c->active, r, active_link);
    int rc = r->mem->ops->begin(r->mem); /* device memory: start copying send data off the GPU */
    if (rc == NBO_SUCCESS)
        if (r->stage && r->stage->in) /* a reduction's non-contiguous type: to scratch */
            rc = r->stage->in(r->stage_data, c->comm);
    if (rc != NBO_SUCCESS) {
        nbo_request_fail(r, rc);
        return NBO_SUCCESS; /* reported by test/wait, as any failure */
    }
    nbo_request_advance(r);
    nbo_progress_started(&c->source, r->background ? r->thread_at : -1.0);
    return NBO_SUCCESS;
}

void nbo_exec_complete(nbo_exec_t *x, int task, int status)
{
    struct nbo_request *r = (struct nbo_request *)x; /* x is the first member */
    r->posted--;
    if (status != NBO_SUCCESS) {
        if (r->status == NBO_SUCCESS)
            r->status = status; /* the poll loop fails the request */
        return;
    }
    r->pending[r->plan.sched.tasks[task].wait]--;
    r->last_activity = nbo_now();
    if (r->plan.sched.tasks[task].kind == NBO_TASK_RECV) {
        int rc = r->mem->ops->received(r->mem, task); /* device memory: copy the block back */
        if (rc != NBO_SUCCESS && r->status == NBO_SUCCESS)
            r->status = rc;
    }
}

/* Execute one local task; NBO_SUCCESS or an error. */
static int run_local(struct nbo_request *r, const nbo_task_t *t)
{
    char **b = (char **)r->x.buf;
    MPI_Comm comm = r->comm->comm;
    switch (t->kind) {
    case NBO_TASK_COPY: {
        int rc = r->mem->ops->copy(r->mem, t); /* device memory copies itself */
        if (rc != 0)
            return rc > 0 ? NBO_SUCCESS : rc;
        memcpy(b[t->buf] + t->off, b[t->src_buf] + t->src_off, t->len);
        return NBO_SUCCESS;
    }
    case NBO_TASK_PACK: /* in place, outgoing data is in the receive buffer */
        return nbo_block_pack(r->in_place ? &r->recv_map : &r->send_map, t->peer,
                              b[t->buf] + t->off, t->len, comm);
    case NBO_TASK_UNPACK:
        return nbo_block_unpack(&r->recv_map, t->peer, b[t->src_buf] + t->src_off, t->len, comm);
    case NBO_TASK_REDUCE: {
        /* dst = src op dst, whole elements; shift: where MPI expects the
         * element to start when the scratch begins at its data. */
        const nbo_reduce_t *red = r->red;
        if (!red || t->len % red->elem)
            return NBO_ERR_INTERNAL;
        size_t n = t->len / red->elem, done = 0;
        while (done < n) { /* MPI_Reduce_local counts in int */
            int m = n - done > INT_MAX ? INT_MAX : (int)(n - done);
            size_t at = done * red->elem;
            if (MPI_Reduce_local(b[t->src_buf] + t->src_off + at - red->shift,
                                 b[t->buf] + t->off + at - red->shift, m, red->type,
                                 red->op) != MPI_SUCCESS)
                return NBO_ERR_MPI;
            done += (size_t)m;
        }
        return NBO_SUCCESS;
    }
    case NBO_TASK_ENCODE:
    case NBO_TASK_DECODE: {
        const nbo_sched_t *s = &r->plan.sched;
        const nbo_codec_ops_t *c = nbo_codec_find(s->codec, NULL);
        if (!c)
            return NBO_ERR_CODEC; /* a list compiled for a codec this build lacks */
        int rc = (t->kind == NBO_TASK_ENCODE ? c->encode : c->decode)(
            s->codec_rate, s->codec_elem, b[t->src_buf] + t->src_off, t->len, b[t->buf] + t->off);
        if (rc == NBO_ERR_CODEC) { /* refused data: the message still goes */
            r->codec_status = rc;
            rc = NBO_SUCCESS;
        }
        return rc;
    }
    }
    return NBO_ERR_INTERNAL;
}

/* Hand the engine the list from the cursor, if it runs lists itself
 * (offload): 1 if it took a part (or failed the request), 0 to post
 * windows.  The cursor stops at the WAIT ending the part, which passes
 * once every task the engine took is done: its WAITs in between are the
 * engine's. */
static int try_offload(struct nbo_request *r)
{
    struct nbo_comm *c = r->comm;
    if (!c->ops->offload || r->mem != &nbo_mem_host)
        return 0;
    int taken = 0;
    int rc = c->ops->offload(c->ec, &r->x, r->cursor, &taken);
    if (rc != NBO_SUCCESS) {
        nbo_request_fail(r, rc);
        return 1;
    }
    if (taken <= 0)
        return 0;
    const nbo_task_t *tasks = r->plan.sched.tasks;
    for (int i = r->cursor; i < r->cursor + taken; i++)
        if (tasks[i].kind == NBO_TASK_SEND || tasks[i].kind == NBO_TASK_RECV)
            r->posted++;
    r->cursor += taken;
    if (tasks[r->cursor - 1].kind == NBO_TASK_WAIT)
        r->offload_wait = --r->cursor;
    return 1;
}

void nbo_request_advance(struct nbo_request *r)
{
    struct nbo_comm *c = r->comm;
    const nbo_task_t *tasks = r->plan.sched.tasks;
    while (r->state == REQ_ACTIVE && r->cursor < r->plan.sched.ntasks) {
        const nbo_task_t *t = &tasks[r->cursor];
        if (t->kind == NBO_TASK_WAIT) {
            if (r->pending[r->cursor] > 0 || (r->cursor == r->offload_wait && r->posted > 0))
                return;
            r->cursor++;
        } else if ((t->kind == NBO_TASK_SEND || t->kind == NBO_TASK_RECV) &&
                   try_offload(r)) {
            continue;
        } else if (t->kind == NBO_TASK_SEND || t->kind == NBO_TASK_RECV) {
            int n = 1;
            while (r->cursor + n < r->plan.sched.ntasks &&
                   (tasks[r->cursor + n].kind == NBO_TASK_SEND ||
                    tasks[r->cursor + n].kind == NBO_TASK_RECV))
                n++;
            if ((n = r->mem->ops->runnable(r->mem, r->cursor, n)) <= 0) {
                if (n < 0) /* else: send data not yet copied from the GPU */
                    nbo_request_fail(r, n);
                return;
            }
            int rc = c->ops->post(c->ec, &r->x, r->cursor, n);
            if (rc != NBO_SUCCESS) {
                nbo_request_fail(r, rc);
                return;
            }
            r->posted += n;
            r->cursor += n;
        } else {
            int k = r->mem->ops->runnable(r->mem, r->cursor, 1);
            if (k <= 0) {
                if (k < 0)
                    nbo_request_fail(r, k);
                return;
            }
            int rc = run_local(r, t);
            if (rc != NBO_SUCCESS) {
                nbo_request_fail(r, rc);
                return;
            }
            r->cursor++;
        }
    }
    if (r->state == REQ_ACTIVE && r->cursor == r->plan.sched.ntasks && r->posted == 0) {
        int done = r->mem->ops->finish(r->mem); /* device memory: copies back */
        if (done > 0)
            done = !r->stage || !r->stage->out ||
                           r->stage->out(r->stage_data, c->comm) == NBO_SUCCESS
                       ? 1
                       : NBO_ERR_MPI;
        if (done < 0)
            nbo_request_fail(r, done);
        else if (done)
            request_finish(r, r->codec_status);
    }
}

void nbo_request_fail(struct nbo_request *r, int err)
{
    if (r->state != REQ_ACTIVE)
        return;
    /* An operation that failed in flight leaves the ranks out of step, and
     * peers may be gone: a later collective step (nbo_comm_free's agreement)
     * must not wait on them.  Any error counts: MPICH, for one, reports a
     * dead peer as a plain MPI error (NBO_ERR_MPI), and a rank that failed
     * alone (a CUDA error) is waited for in vain by the others. */
    r->comm->broken = 1;
    if (r->posted > 0)
        r->comm->ops->cancel(r->comm->ec, &r->x);
    r->mem->ops->quiesce(r->mem); /* no copy may touch the buffers after this */
    request_finish(r, err);
}

/* ------------------------------------------------------------ public API */

int nbo_start(nbo_request_t *req)
{
    int rc = nbo_request_check(req);
    if (rc != NBO_SUCCESS)
        return rc;
    struct nbo_request *r = *req;
    if (!r->persistent)
        return NBO_ERR_ARG;
    if (!r->plan.agreed && r->state == REQ_INACTIVE && (rc = nbo_plan_agree(r)) != NBO_SUCCESS)
        return rc;
    if (r->state == REQ_INACTIVE && (rc = nbo_tune_start(r)) != NBO_SUCCESS)
        return rc;
    nbo_lock();
    if (r->state != REQ_INACTIVE)
        rc = NBO_ERR_ACTIVE;
    else
        rc = nbo_request_begin(r);
    nbo_unlock();
    return rc;
}

/* A finished non-persistent request leaves the user (lock held): back to
 * its communicator's cache if it ran well, else freed. */
static void release(nbo_request_t *req)
{
    struct nbo_request *r = *req;
    if (r->cached && r->status == NBO_SUCCESS)
        r->state = REQ_INACTIVE;
    else
        nbo_request_destroy(r);
    *req = NBO_REQUEST_NULL;
}

/* Hand a finished request back (lock held): status, and free or re-arm. */
static int collect(nbo_request_t *req)
{
    struct nbo_request *r = *req;
    if (r->state == REQ_INACTIVE)
        return NBO_SUCCESS; /* inactive persistent request: nothing to do */
    int status = r->status;
    if (r->persistent)
        r->state = REQ_INACTIVE;
    else
        release(req);
    return status;
}

int nbo_test(nbo_request_t *req, int *flag)
{
    if (!flag)
        return NBO_ERR_ARG;
    *flag = 0;
    int rc = nbo_request_check(req);
    if (rc == NBO_ERR_REQUEST_NULL) { /* as MPI_Test on MPI_REQUEST_NULL */
        *flag = 1;
        return NBO_SUCCESS;
    }
    if (rc != NBO_SUCCESS)
        return rc;
    nbo_lock();
    struct nbo_request *r = *req;
    /* In thread mode too, as nbo_wait helps: a test loop (MPI_Wait under
     * libnbo-mpi) must not wait for the progress thread to get a core. */
    if (r->state == REQ_ACTIVE)
        nbo_progress_poll(r->comm->cfg.progress);
    if (r->state != REQ_ACTIVE) {
        *flag = 1;
        rc = collect(req);
    }
    nbo_unlock();
    return rc;
}

int nbo_progress(void)
{
    nbo_lock();
    int n = nbo_progress_poll(NBO_PROGRESS_INLINE);
    nbo_unlock();
    return n;
}

static int request_done(const void *arg)
{
    return ((const struct nbo_request *)arg)->state != REQ_ACTIVE;
}

int nbo_wait(nbo_request_t *req)
{
    int rc = nbo_request_check(req);
    if (rc == NBO_ERR_REQUEST_NULL)
        return NBO_SUCCESS; /* as MPI_Wait on MPI_REQUEST_NULL */
    if (rc != NBO_SUCCESS)
        return rc;
    nbo_lock();
    const struct nbo_request *r = *req;
    /* While the engine runs the list itself (offload), polling for it
     * would only take the caller's core from the engine's work. */
    const int spin_us = r->cursor == r->offload_wait ? 0 : r->comm->cfg.foreground_us;
    nbo_progress_wait(r->comm->cfg.progress, spin_us, request_done, r);
    rc = collect(req);
    nbo_unlock();
    return rc;
}

int nbo_waitall(int count, nbo_request_t reqs[])
{
    if (count < 0 || (count > 0 && !reqs))
        return NBO_ERR_ARG;
    /* Check every handle first, so a bad one leaves the others untouched. */
    for (int i = 0; i < count; i++) {
        int rc = nbo_request_check(&reqs[i]);
        if (rc != NBO_SUCCESS && rc != NBO_ERR_REQUEST_NULL)
            return rc;
    }
    int first_err = NBO_SUCCESS;
    for (int i = 0; i < count; i++) {
        if (reqs[i] == NBO_REQUEST_NULL)
            continue;
        int rc = nbo_wait(&reqs[i]);
        if (rc != NBO_SUCCESS && first_err == NBO_SUCCESS)
            first_err = rc;
    }
    return first_err;
}

int nbo_request_free(nbo_request_t *req)
{
    int rc = nbo_request_check(req);
    if (rc != NBO_SUCCESS)
        return rc;
    nbo_lock();
    if ((*req)->state == REQ_ACTIVE)
        rc = NBO_ERR_ACTIVE;
    else if (!(*req)->persistent)
        release(req);
    else {
        nbo_request_destroy(*req);
        *req = NBO_REQUEST_NULL;
    }
    nbo_unlock();
    return rc;
}

int nbo_request_algorithm(nbo_request_t req, nbo_algorithm_t *alg)
{
    int rc = nbo_request_check(&req);
    if (rc != NBO_SUCCESS)
        return rc;
    if (!alg)
        return NBO_ERR_ARG;
    *alg = req->plan.sched.algorithm;
    return NBO_SUCCESS;
}

int nbo_request_tuning(nbo_request_t req, int *window, int *trial_left)
{
    int rc = nbo_request_check(&req);
    if (rc != NBO_SUCCESS)
        return rc;
    nbo_lock();
    nbo_choice_t choice;
    int left;
    nbo_tune_query(req, &choice, &left);
    nbo_unlock();
    if (window)
        *window = choice.window;
    if (trial_left)
        *trial_left = left;
    return NBO_SUCCESS;
}

int nbo_request_print(nbo_request_t req, FILE *out)
{
    int rc = nbo_request_check(&req);
    if (rc != NBO_SUCCESS)
        return rc;
    if (!out)
        return NBO_ERR_ARG;
    fprintf(out, "# rank %d of %d, tag %u, %s\n", req->comm->rank, req->comm->size, req->x.tag,
            req->persistent ? "persistent" : "non-persistent");
    nbo_sched_print(&req->plan.sched, out);
    return NBO_SUCCESS;
}
