/*
 * sched_check.h - structural invariants of one rank's compiled task list,
 * checked without running it (the simulator in sched_sim.h runs them all).
 */
#ifndef TEST_SCHED_CHECK_H
#define TEST_SCHED_CHECK_H

#include "../../libnbo/schedule.h"

/* NULL when every invariant holds, else a message (valid until the next
 * call) naming the first broken one:
 *   - each SEND/RECV names a later WAIT, each WAIT's count is exactly the
 *     number of tasks naming it, nwaits is the number of WAITs;
 *   - all RECVs come before the first SEND (paper Fig. 1);
 *   - never more than W sends posted and not yet waited for;
 *   - pairwise: one SEND to and one RECV from every peer with a non-empty
 *     block, with its exact length, in the peer order;
 *     Bruck: one SEND/RECV per round to rank+2^k / from rank-2^k;
 *   - every byte of every receive block is written exactly once (the own
 *     block in place: at most once), nothing outside them is written, the
 *     send buffer is only read, inside its blocks, scratch stays in bounds. */
/* The collectives beyond the all-to-all (coll past ALLTOALL): the WAIT rules, the window
 * bound (receives may come anywhere), peers in range, every task inside its
 * buffers, the send buffer never written, PACK/UNPACK blocks of the right
 * size, REDUCE on whole elements, a bcast root's buffer never written.  What they compute the simulator checks. */
const char *sched_check(const nbo_sched_args_t *a, const nbo_sched_t *s);

#endif
