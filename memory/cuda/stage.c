/*
 * stage.c - the CUDA memory type's hooks (memory.h): all-to-alls on CUDA
 * device buffers (README.md in this folder).
 *
 *   DIRECT     the engine moves device memory (NBO_CAP_DEVICE_MEM): the task
 *              list runs on the user's buffers; only local COPY tasks need
 *              cudaMemcpy.
 *   PIPELINED  pinned host mirrors, three stages on two CUDA streams: the
 *              send blocks are copied from the GPU chunk by chunk, in the
 *              order the schedule sends them, and each SEND is posted once
 *              its chunk has landed; each RECV's block is copied to the GPU
 *              as soon as it completes.  So the copy of chunk k+1 from the
 *              GPU, the network transfer of chunk k and the copy to the GPU
 *              of earlier blocks run at once.
 *   WHOLE      pinned mirrors, no pipeline: the mirrors are filled before
 *              the first task and copied back after the last.  For task
 *              lists that read or write the buffers locally (in place,
 *              PACK/UNPACK of non-contiguous types, Bruck's scratch).
 *
 * Every CUDA call runs with the stage's device current and restores the
 * caller's: the progress thread and the application share nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "../../util/util.h" /* nbo_now */
#include "device.h"

enum { STAGE_DIRECT, STAGE_PIPELINED, STAGE_WHOLE };
enum { SEND = NBO_MEM_SEND, RECV = NBO_MEM_RECV };

typedef struct side {
    char    *user;  /* the user's base pointer (device memory), NULL: host side */
    char    *pin;   /* pinned allocation, NULL: not staged */
    MPI_Aint from;  /* the mirror covers [from, from + bytes) around the base */
    size_t   bytes;
} side_t;

typedef struct nbo_stage {
    nbo_mem_t      mem;       /* first: the core sees only this */
    nbo_mem_plan_t plan;      /* the request's task list and buffers (attach) */
    int            mode;
    int            dev;
    int            blocking;  /* wait on the GPU instead of polling it */
    size_t         chunk;
    side_t         s[2];      /* [SEND], [RECV] */
    cudaStream_t   d2h, h2d;
    int            ngroups;   /* chunks of sends copied from the GPU */
    int           *group_of;  /* [ntasks] */
    cudaEvent_t   *ev;        /* [max(ngroups, 1)]: chunk copied */
    cudaEvent_t    back;      /* every copy to the GPU done */
    cudaEvent_t    user;      /* the legacy default stream's work at the start */
    int            ready;     /* chunks known landed in this run */
    int            back_recorded;
} nbo_stage_t;

/* The mirror's base: where the user's base pointer maps to. */
static char *mirror(const side_t *s) { return s->pin ? s->pin - s->from : NULL; }

static int cuda_fail(const char *what, cudaError_t e)
{
    fprintf(stderr, "libnbo: %s: %s\n", what, cudaGetErrorString(e));
    cudaGetLastError();
    return NBO_ERR_CUDA;
}
#define CU(call) ((e_ = (call)) == cudaSuccess ? NBO_SUCCESS : cuda_fail(#call, e_))

/* Make st's device current; returns the caller's, to give back. */
static int enter(const nbo_stage_t *st)
{
    int old = st->dev;
    if (cudaGetDevice(&old) != cudaSuccess)
        old = st->dev;
    if (old != st->dev)
        cudaSetDevice(st->dev);
    return old;
}
static void leave(const nbo_stage_t *st, int old)
{
    if (old != st->dev)
        cudaSetDevice(old);
}

static void stage_free(nbo_mem_t *m)
{
    nbo_stage_t *st = (nbo_stage_t *)m;
    int old = enter(st);
    if (st->d2h)
        cudaStreamSynchronize(st->d2h);
    if (st->h2d)
        cudaStreamSynchronize(st->h2d);
    for (int g = 0; st->ev && g < (st->ngroups > 0 ? st->ngroups : 1); g++)
        if (st->ev[g])
            cudaEventDestroy(st->ev[g]);
    if (st->back)
        cudaEventDestroy(st->back);
    if (st->user)
        cudaEventDestroy(st->user);
    if (st->d2h)
        cudaStreamDestroy(st->d2h);
    if (st->h2d)
        cudaStreamDestroy(st->h2d);
    for (int i = 0; i < 2; i++)
        if (st->s[i].pin)
            cudaFreeHost(st->s[i].pin);
    cudaGetLastError();
    leave(st, old);
    free(st->group_of);
    free(st->ev);
    free(st);
}

/* Claims the call if either buffer is device memory (the in-place send
 * side has no buffer: -1). */
static int stage_prepare(const nbo_mem_call_t *call, nbo_mem_t **out, void *buf[2])
{
    *out = NULL;
    const nbo_mem_side_t *side = call->side;
    int sdev = nbo_dev_locate(side[SEND].base);
    int rdev = nbo_dev_locate(side[RECV].base);
    if (sdev < 0 && rdev < 0)
        return NBO_SUCCESS; /* host memory: not ours */
    if (sdev >= 0 && rdev >= 0 && sdev != rdev)
        return NBO_ERR_DEVICE;

    nbo_stage_t *st = calloc(1, sizeof(*st));
    if (!st)
        return NBO_ERR_NOMEM;
    st->mem.ops = &nbo_mem_cuda;
    st->dev = sdev >= 0 ? sdev : rdev;
    st->chunk = call->chunk;
    /* The progress thread sleeps on the engine's descriptor, which a copy
     * finishing does not wake: there it waits on the GPU (for one chunk at
     * most).  Inline progress and descriptor-less engines poll anyway. */
    st->blocking = call->progress_sleeps;
    const int contig = side[SEND].contig && side[RECV].contig;
    st->mode = call->engine_device_mem && contig ? STAGE_DIRECT : STAGE_WHOLE;
    if (sdev >= 0)
        st->s[SEND].user = side[SEND].base;
    if (rdev >= 0)
        st->s[RECV].user = side[RECV].base;

    int old = enter(st), rc = NBO_SUCCESS;
    cudaError_t e_;
    if (st->mode != STAGE_DIRECT) {
        for (int i = 0; i < 2 && rc == NBO_SUCCESS; i++) {
            side_t *s = &st->s[i];
            if (!s->user)
                continue;
            nbo_stage_extent(side[i].lo, side[i].hi, side[i].span, &s->from, &s->bytes);
            rc = CU(cudaHostAlloc((void **)&s->pin, s->bytes ? s->bytes : 1, cudaHostAllocPortable));
        }
        if (rc == NBO_SUCCESS)
            rc = CU(cudaStreamCreateWithFlags(&st->d2h, cudaStreamNonBlocking));
    }
    if (rc == NBO_SUCCESS)
        rc = CU(cudaStreamCreateWithFlags(&st->h2d, cudaStreamNonBlocking));
    if (rc == NBO_SUCCESS)
        rc = CU(cudaEventCreateWithFlags(&st->back, cudaEventDisableTiming));
    if (rc == NBO_SUCCESS)
        rc = CU(cudaEventCreateWithFlags(&st->user, cudaEventDisableTiming));
    leave(st, old);
    if (rc != NBO_SUCCESS) {
        stage_free(&st->mem);
        return rc;
    }
    for (int i = 0; i < 2; i++)
        if (st->s[i].pin)
            buf[i] = mirror(&st->s[i]);
    *out = &st->mem;
    return NBO_SUCCESS;
}

static int stage_attach(nbo_mem_t *m, const nbo_mem_plan_t *plan, void *map_base[2])
{
    nbo_stage_t *st = (nbo_stage_t *)m;
    st->plan = *plan;
    if (st->mode == STAGE_DIRECT)
        return NBO_SUCCESS;
    const nbo_sched_t *s = plan->sched;
    if (nbo_stage_pipelinable(s, plan->in_place)) {
        st->mode = STAGE_PIPELINED;
        if (st->s[SEND].pin) { /* else a host send buffer: no chunks to wait for */
            st->group_of = malloc(((size_t)s->ntasks + 1) * sizeof(int));
            if (!st->group_of)
                return NBO_ERR_NOMEM;
            st->ngroups = nbo_stage_group(s->tasks, s->ntasks, st->chunk, st->group_of);
        }
    } else {
        /* Local tasks (PACK, in-place copies) read the mirrors through the
         * block maps: point those at the mirrors too. */
        for (int i = 0; i < 2; i++)
            if (st->s[i].pin)
                map_base[i] = mirror(&st->s[i]);
    }
    const int nev = st->ngroups > 0 ? st->ngroups : 1;
    st->ev = calloc((size_t)nev, sizeof(cudaEvent_t));
    if (!st->ev)
        return NBO_ERR_NOMEM;
    int old = enter(st), rc = NBO_SUCCESS;
    cudaError_t e_;
    for (int g = 0; g < nev && rc == NBO_SUCCESS; g++)
        rc = CU(cudaEventCreateWithFlags(&st->ev[g], cudaEventDisableTiming));
    leave(st, old);
    return rc;
}

/* Copy [off, off + len) of side i between the user's buffer and its mirror. */
static int copy_range(nbo_stage_t *st, int i, size_t off, size_t len, int to_host)
{
    const side_t *s = &st->s[i];
    if (len == 0)
        return NBO_SUCCESS;
    char *dev = s->user + off, *host = mirror(s) + off;
    cudaError_t e_;
    return to_host ? CU(cudaMemcpyAsync(host, dev, len, cudaMemcpyDeviceToHost, st->d2h))
                   : CU(cudaMemcpyAsync(dev, host, len, cudaMemcpyHostToDevice, st->h2d));
}

/* The whole mirror of side i: [from, from + bytes). */
static int copy_side(nbo_stage_t *st, int i, int to_host)
{
    const side_t *s = &st->s[i];
    if (!s->pin || s->bytes == 0)
        return NBO_SUCCESS;
    cudaError_t e_;
    return to_host ? CU(cudaMemcpyAsync(s->pin, s->user + s->from, s->bytes,
                                        cudaMemcpyDeviceToHost, st->d2h))
                   : CU(cudaMemcpyAsync(s->user + s->from, s->pin, s->bytes,
                                        cudaMemcpyHostToDevice, st->h2d));
}

/* Order this run after the work the caller queued on the legacy default
 * stream: cudaMemset, kernels on stream 0, and even a cudaMemcpy from
 * pageable memory, which may return before its data has landed.  Our
 * streams are non-blocking, so without this they could overtake that work.
 * Staged: our streams wait on the GPU, the caller does not.  DIRECT: the
 * engine reads the buffers itself, so the host waits. */
static int after_legacy_stream(nbo_stage_t *st)
{
    cudaError_t e_;
    int rc = CU(cudaEventRecord(st->user, cudaStreamLegacy));
    if (rc == NBO_SUCCESS && st->mode == STAGE_DIRECT)
        return CU(cudaEventSynchronize(st->user));
    if (rc == NBO_SUCCESS && st->d2h)
        rc = CU(cudaStreamWaitEvent(st->d2h, st->user, 0));
    if (rc == NBO_SUCCESS)
        rc = CU(cudaStreamWaitEvent(st->h2d, st->user, 0));
    return rc;
}

static int stage_begin(nbo_mem_t *m)
{
    nbo_stage_t *st = (nbo_stage_t *)m;
    st->ready = 0;
    st->back_recorded = 0;
    int old = enter(st);
    int rc = after_legacy_stream(st);
    cudaError_t e_;
    if (rc != NBO_SUCCESS || st->mode == STAGE_DIRECT) {
        leave(st, old);
        return rc;
    }
    if (st->mode == STAGE_WHOLE) {
        /* The receive mirror too: in place it holds the send data, and
         * otherwise its gaps between blocks must hold the user's bytes when
         * it is copied back whole. */
        rc = copy_side(st, SEND, 1);
        if (rc == NBO_SUCCESS)
            rc = copy_side(st, RECV, 1);
        if (rc == NBO_SUCCESS)
            rc = CU(cudaEventRecord(st->ev[0], st->d2h));
    } else {
        /* Chunk by chunk, in the order the schedule sends. */
        const nbo_task_t *t = st->plan.sched->tasks;
        const int ntasks = st->plan.sched->ntasks;
        for (int g = 0, i = 0; g < st->ngroups && rc == NBO_SUCCESS; g++) {
            for (; i < ntasks && rc == NBO_SUCCESS; i++) {
                if (st->group_of[i] > g)
                    break;
                if (st->group_of[i] == g)
                    rc = copy_range(st, SEND, t[i].off, t[i].len, 1);
            }
            if (rc == NBO_SUCCESS)
                rc = CU(cudaEventRecord(st->ev[g], st->d2h));
        }
    }
    leave(st, old);
    return rc;
}

/* Has chunk g landed?  1, 0 (not yet) or an error.  Chunks land in order. */
static int landed(nbo_stage_t *st, int g)
{
    while (st->ready <= g) {
        cudaEvent_t ev = st->ev[st->ready];
        cudaError_t e = st->blocking ? cudaEventSynchronize(ev) : cudaEventQuery(ev);
        if (e == cudaErrorNotReady)
            return 0;
        if (e != cudaSuccess)
            return cuda_fail("waiting for a copy from the GPU", e);
        st->ready++;
        *st->plan.last_activity = nbo_now(); /* the timeout counts it as progress */
    }
    return 1;
}

static int stage_runnable(nbo_mem_t *m, int first, int n)
{
    nbo_stage_t *st = (nbo_stage_t *)m;
    if (st->mode == STAGE_DIRECT || (st->mode == STAGE_PIPELINED && st->ngroups == 0))
        return n; /* nothing comes off the GPU first */
    int old = enter(st), k = 0;
    if (st->mode == STAGE_WHOLE) {
        int rc = landed(st, 0);
        k = rc == 1 ? n : rc;
    } else {
        for (; k < n; k++) {
            int g = st->group_of[first + k];
            if (g < 0)
                continue;
            int rc = landed(st, g);
            if (rc != 1) {
                if (rc < 0)
                    k = rc;
                break;
            }
        }
    }
    leave(st, old);
    return k;
}

static int stage_copy(nbo_mem_t *m, const nbo_task_t *t)
{
    nbo_stage_t *st = (nbo_stage_t *)m;
    if (st->mode == STAGE_WHOLE)
        return 0; /* host mirrors: memcpy */
    char *const *b = (char *const *)st->plan.buf;
    char *dst = b[t->buf] + t->off, *src = b[t->src_buf] + t->src_off;
    int old = enter(st), rc;
    cudaError_t e_;
    if (st->mode == STAGE_DIRECT) /* later tasks may read dst at once */
        rc = CU(cudaMemcpy(dst, src, t->len, cudaMemcpyDefault));
    else /* the own block, user buffer to user buffer; nothing reads it */
        rc = CU(cudaMemcpyAsync(st->s[RECV].user ? st->s[RECV].user + t->off : dst,
                                st->s[SEND].user ? st->s[SEND].user + t->src_off : src, t->len,
                                cudaMemcpyDefault, st->h2d));
    leave(st, old);
    return rc == NBO_SUCCESS ? 1 : rc;
}

static int stage_received(nbo_mem_t *m, int task)
{
    nbo_stage_t *st = (nbo_stage_t *)m;
    if (st->mode != STAGE_PIPELINED || !st->s[RECV].pin)
        return NBO_SUCCESS;
    const nbo_task_t *t = &st->plan.sched->tasks[task];
    int old = enter(st);
    int rc = copy_range(st, RECV, t->off, t->len, 0);
    leave(st, old);
    return rc;
}

static int stage_finish(nbo_mem_t *m)
{
    nbo_stage_t *st = (nbo_stage_t *)m;
    if (st->mode == STAGE_DIRECT)
        return 1;
    int old = enter(st), rc = NBO_SUCCESS;
    cudaError_t e_;
    if (!st->back_recorded) {
        /* Not before the mirror is filled: an empty task list (one rank, in
         * place) never asked whether it had landed. */
        if (st->mode == STAGE_WHOLE)
            rc = CU(cudaStreamWaitEvent(st->h2d, st->ev[0], 0));
        if (rc == NBO_SUCCESS && st->mode == STAGE_WHOLE)
            rc = copy_side(st, RECV, 0);
        if (rc == NBO_SUCCESS)
            rc = CU(cudaEventRecord(st->back, st->h2d));
        st->back_recorded = rc == NBO_SUCCESS;
    }
    if (rc == NBO_SUCCESS) {
        cudaError_t e = st->blocking ? cudaEventSynchronize(st->back) : cudaEventQuery(st->back);
        rc = e == cudaSuccess ? 1 : e == cudaErrorNotReady ? 0
                                   : cuda_fail("waiting for the copies to the GPU", e);
    }
    leave(st, old);
    return rc;
}

static void stage_quiesce(nbo_mem_t *m)
{
    nbo_stage_t *st = (nbo_stage_t *)m;
    int old = enter(st);
    if (st->d2h)
        cudaStreamSynchronize(st->d2h);
    cudaStreamSynchronize(st->h2d);
    cudaGetLastError();
    leave(st, old);
}

const nbo_mem_ops_t nbo_mem_cuda = {
    .name = "cuda",
    .prepare = stage_prepare,
    .attach = stage_attach,
    .begin = stage_begin,
    .runnable = stage_runnable,
    .copy = stage_copy,
    .received = stage_received,
    .finish = stage_finish,
    .quiesce = stage_quiesce,
    .free = stage_free,
};
