/*
 * memory.h - memory types: where a request's buffers live, and what running
 * a task list on them takes.  The contract between the core (libnbo/) and
 * each memory type (memory/<type>/), as engine.h is for engines.
 *
 * Host memory needs nothing: its hooks (memory.c) do nothing, and the core
 * calls the hooks of every request unconditionally.  Another memory type
 * (CUDA device buffers: memory/cuda/) claims a call's buffers in prepare
 * and may then hand the engine other buffers (pinned host mirrors), hold
 * back SEND tasks until their data is there, and copy received data back.
 * The engine never knows.
 *
 * A memory type sees only what this header gives it: the task list
 * (schedule.h), the buffers, the extents of the user's blocks, and the
 * few facts about the communicator in nbo_mem_call_t.  Every hook but
 * prepare and attach is called with the progress lock held.
 */
#ifndef NBO_MEMORY_H
#define NBO_MEMORY_H

#include <stddef.h>

#include <nbo.h>
#include "../libnbo/schedule.h"

/* The two user buffers of a call. */
enum { NBO_MEM_SEND = 0, NBO_MEM_RECV = 1 };

/* One user buffer, as the block maps describe it. */
typedef struct nbo_mem_side {
    void    *base;   /* the user's pointer; NULL: no such buffer (the send side in place) */
    MPI_Aint lo, hi; /* bytes the blocks touch, relative to base (hi <= lo: none) */
    size_t   span;   /* bytes from base the engine addresses */
    int      contig; /* the datatype is contiguous: the engine reads the blocks in place */
} nbo_mem_side_t;

/* What a memory type learns of a call before the request is built. */
typedef struct nbo_mem_call {
    nbo_mem_side_t side[2];     /* [NBO_MEM_SEND], [NBO_MEM_RECV] */
    size_t chunk;               /* NBO_CUDA_CHUNK: bytes per pipelined copy */
    int    engine_device_mem;   /* the engine moves device memory itself (NBO_CAP_DEVICE_MEM) */
    int    progress_sleeps;     /* the progress thread sleeps on the engine's
                                   descriptor, which a finished copy does not wake */
} nbo_mem_call_t;

/* The compiled request, handed to attach.  Everything it points to lives as
 * long as the request: the memory type may keep the pointers. */
typedef struct nbo_mem_plan {
    const nbo_sched_t *sched;
    int                in_place;      /* send data lives in the receive buffer */
    void *const       *buf;           /* [NBO_BUF_COUNT]: the buffers the tasks address */
    double            *last_activity; /* the request's timeout clock: set it to
                                         nbo_now() when a copy makes progress */
} nbo_mem_plan_t;

struct nbo_mem_ops;

/* One request's memory type.  A type's own per-request state begins with
 * this (the core sees only it). */
typedef struct nbo_mem {
    const struct nbo_mem_ops *ops;
} nbo_mem_t;

typedef struct nbo_mem_ops {
    const char *name;

    /* Before the request is built, without the lock.  *out NULL: the
     * buffers are not of this type.  Otherwise *out is the request's state
     * and buf[NBO_MEM_SEND], buf[NBO_MEM_RECV] are replaced by the buffers
     * the engine must run on. */
    int (*prepare)(const nbo_mem_call_t *call, nbo_mem_t **out, void *buf[2]);
    /* Once the task list is compiled, without the lock.  map_base[i] holds
     * the user's buffer i; replacing it points the local tasks (PACK,
     * UNPACK, copies in place) at another copy of it.  The request owns m
     * from here, even on error. */
    int (*attach)(nbo_mem_t *m, const nbo_mem_plan_t *plan, void *map_base[2]);

    /* At every start, before the first task. */
    int (*begin)(nbo_mem_t *m);
    /* How many of tasks [first, first + n) may run now (0: not yet), or an
     * error. */
    int (*runnable)(nbo_mem_t *m, int first, int n);
    /* A local COPY task: 1 done here, 0 a plain memcpy is right, or an
     * error. */
    int (*copy)(nbo_mem_t *m, const nbo_task_t *t);
    /* RECV task `task` completed. */
    int (*received)(nbo_mem_t *m, int task);
    /* Every task done: 1 when the request may complete, 0 not yet, or an
     * error. */
    int (*finish)(nbo_mem_t *m);
    /* The request failed: after this, nothing touches the buffers. */
    void (*quiesce)(nbo_mem_t *m);
    void (*free)(nbo_mem_t *m);
} nbo_mem_ops_t;

/* Host memory: hooks that do nothing, and the state of every request on
 * host buffers (shared: it holds nothing). */
extern nbo_mem_t nbo_mem_host;

/* Ask each memory type built in whether it owns the call's buffers; host
 * memory, last, owns any.  Arguments as for prepare; *out is never NULL on
 * success. */
int nbo_mem_prepare(const nbo_mem_call_t *call, nbo_mem_t **out, void *buf[2]);

#endif /* NBO_MEMORY_H */
