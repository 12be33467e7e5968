/*
 * device.h - CUDA device buffers in the all-to-all.  Internal to libnbo.
 *
 * device.c   finds out where a buffer lives (lazily, once per process).
 * stage.c    a request on device buffers: either the engine moves device
 *            memory itself (DIRECT), or the request stages through pinned
 *            host buffers it owns, pipelined (PIPELINED) or, for schedules
 *            that read or write the buffers locally (in place, packing,
 *            Bruck), as a whole (WHOLE).  See README.md in this folder.
 * stage_plan.c  the pure arithmetic: which schedules can be pipelined, how
 *            sends are grouped into chunks, the staging extents.
 *
 * A build without CUDA (NBO_HAVE_CUDA 0) compiles the hooks to inline
 * no-ops by design: a request never has a stage, every buffer is host
 * memory, and nbo_cuda_available says "built without CUDA"
 * (tests/cuda/test_cuda_unit.c checks that build's answers).  Every hook
 * is called with the progress lock held, except nbo_stage_prepare and
 * nbo_dev_locate.
 */
#ifndef NBO_DEVICE_H
#define NBO_DEVICE_H

#include <stddef.h>

#include "../datatype.h"
#include "../schedule.h"
#include "nbo_engines.h" /* NBO_HAVE_CUDA */

struct nbo_comm;
struct nbo_request;
typedef struct nbo_stage nbo_stage_t;

/* ------------------------------------------------ pure (stage_plan.c) */

/* Can this schedule run with per-chunk staging?  Only if its local tasks
 * never read or write the staged buffers: no scratch, no PACK/UNPACK, not
 * in place, and every COPY goes from the send to the receive buffer. */
int nbo_stage_pipelinable(const nbo_sched_t *s, int in_place);

/* Group the SEND tasks of the send buffer, in task order, into chunks of
 * at most `chunk` bytes; a send larger than chunk is a chunk of its own
 * (messages are never split).  group_of[t]: chunk of task t, -1 for other
 * tasks.  Returns the number of chunks. */
int nbo_stage_group(const nbo_task_t *tasks, int ntasks, size_t chunk, int *group_of);

/* The bytes of one side that staging must mirror, relative to the user's
 * base pointer: [*from, *from + *bytes), covering the byte range the
 * blocks touch (lo, hi) and the span the engines address (0, span). */
void nbo_stage_extent(MPI_Aint lo, MPI_Aint hi, size_t span, MPI_Aint *from, size_t *bytes);

#if NBO_HAVE_CUDA

/* ---------------------------------------------------------- device.c */

/* The CUDA device of p, or -1 for host memory.  -1 too when the process
 * has not loaded the CUDA driver (it cannot have device memory), when no
 * GPU is usable, or when CUDA fails: never an error.  Managed memory is
 * host memory (the host can address it). */
int nbo_dev_locate(const void *p);

/* Probe once per process: NBO_SUCCESS if a CUDA GPU is usable, else
 * NBO_ERR_CUDA; detail gets the devices or the CUDA error string. */
int nbo_dev_probe(char *detail, size_t len);

/* ----------------------------------------------------------- stage.c */

/* Before the request is built: locate the buffers (smap NULL in place).
 * All host: *out = NULL.  Otherwise a stage is made and *sbuf, *rbuf are
 * replaced by the buffers the engine must use (pinned host mirrors, or
 * the device buffers themselves for DIRECT). */
int  nbo_stage_prepare(struct nbo_comm *c, const nbo_block_map_t *smap,
                       const nbo_block_map_t *rmap, nbo_stage_t **out, void **sbuf, void **rbuf);
/* After the schedule is compiled: choose the mode, build the chunks, point
 * the request's block maps at the mirrors.  The request owns st after. */
int  nbo_stage_attach(struct nbo_request *r, nbo_stage_t *st);
void nbo_stage_free(nbo_stage_t *st);

/* Request life cycle (lock held). */
int  nbo_stage_begin(struct nbo_request *r);
/* How many of tasks [first, first + n) may run now (0: not yet), or an
 * error.  Only blocks (for one chunk copy) when nothing else would wake
 * the progress thread; see README.md. */
int  nbo_stage_runnable(struct nbo_request *r, int first, int n);
/* A local COPY task: 1 done here, 0 a plain memcpy is right, or an error. */
int  nbo_stage_copy(struct nbo_request *r, const nbo_task_t *t);
/* A RECV task completed: start its copy to the GPU. */
int  nbo_stage_received(struct nbo_request *r, int task);
/* Every task done: 1 when the copies to the GPU are done, 0 not yet, or
 * an error. */
int  nbo_stage_finish(struct nbo_request *r);
/* The request failed: wait for copies in flight, so none touches the
 * buffers after completion. */
void nbo_stage_quiesce(struct nbo_request *r);

#else /* !NBO_HAVE_CUDA: no request ever has a stage */

static inline int nbo_stage_prepare(struct nbo_comm *c, const nbo_block_map_t *smap,
                                    const nbo_block_map_t *rmap, nbo_stage_t **out, void **sbuf,
                                    void **rbuf)
{
    (void)c, (void)smap, (void)rmap, (void)sbuf, (void)rbuf;
    *out = NULL;
    return 0;
}
static inline int nbo_stage_attach(struct nbo_request *r, nbo_stage_t *st) { (void)r, (void)st; return 0; }
static inline void nbo_stage_free(nbo_stage_t *st) { (void)st; }
static inline int nbo_stage_begin(struct nbo_request *r) { (void)r; return 0; }
static inline int nbo_stage_runnable(struct nbo_request *r, int first, int n) { (void)r, (void)first; return n; }
static inline int nbo_stage_copy(struct nbo_request *r, const nbo_task_t *t) { (void)r, (void)t; return 0; }
static inline int nbo_stage_received(struct nbo_request *r, int task) { (void)r, (void)task; return 0; }
static inline int nbo_stage_finish(struct nbo_request *r) { (void)r; return 1; }
static inline void nbo_stage_quiesce(struct nbo_request *r) { (void)r; }

#endif /* NBO_HAVE_CUDA */
#endif /* NBO_DEVICE_H */
