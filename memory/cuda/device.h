/*
 * device.h - the CUDA memory type: all-to-alls on CUDA device buffers.
 * Internal to memory/cuda/; the core sees only nbo_mem_cuda (memory.h).
 *
 * device.c   finds out where a buffer lives (lazily, once per process).
 * stage.c    the hooks: either the engine moves device memory itself
 *            (DIRECT), or the request stages through pinned host buffers
 *            it owns, pipelined (PIPELINED) or, for schedules that read or
 *            write the buffers locally (in place, packing, Bruck), as a
 *            whole (WHOLE).  See README.md in this folder.
 * stage_plan.c  the pure arithmetic: which schedules can be pipelined, how
 *            sends are grouped into chunks, the staging extents.
 *
 * The folder is built only with CUDA (NBO_HAVE_CUDA); a build without it
 * has host memory alone (memory.c), and tests/cuda/test_cuda_unit.c
 * compiles stage_plan.c itself there.
 */
#ifndef NBO_CUDA_DEVICE_H
#define NBO_CUDA_DEVICE_H

#include <stddef.h>

#include "../memory.h"
#include "nbo_engines.h" /* NBO_HAVE_CUDA */

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

/* The hooks of memory.h for device buffers. */
extern const nbo_mem_ops_t nbo_mem_cuda;

#endif /* NBO_HAVE_CUDA */
#endif /* NBO_CUDA_DEVICE_H */
