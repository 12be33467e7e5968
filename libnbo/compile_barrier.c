/*
 * compile_barrier.c - the dissemination barrier (Hensgen, Finkel and
 * Manber): in round k every rank sends to rank + 2^k and receives from
 * rank - 2^k, so after ceil(log2 P) rounds each rank has heard, directly or
 * through others, from every rank.  Messages of one byte of scratch, since
 * a zero-byte message makes no task; each round's receive lands in its own
 * byte.
 */
#include "sched_algs.h"
#include "sched_build.h"

int nbo_compile_barrier_dissemination(const nbo_sched_args_t *a, sched_build_t *b)
{
    const int P = a->size, r = a->rank;
    if (P == 1)
        return NBO_SUCCESS;
    int rounds = 0;
    for (int d = 1; d < P; d <<= 1)
        rounds++;
    b->s->tmp_bytes = 1 + (size_t)rounds;
    int k = 0;
    for (int d = 1; d < P; d <<= 1, k++) {
        sched_build_post_recv(b, (r - d + P) % P, NBO_BUF_TMP, 1 + (size_t)k, 1);
        sched_build_post_send(b, a->window, (r + d) % P, NBO_BUF_TMP, 0, 1);
        sched_build_flush(b);
    }
    return NBO_SUCCESS;
}
