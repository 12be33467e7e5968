/*
 * compile_scan.c - inclusive and exclusive scan by recursive doubling: at
 * distance m each rank exchanges its partial result (the reduction of a
 * range of ranks ending at its own) with rank XOR m.  The one from a lower
 * rank joins on the left of both the partial and the result; the one from
 * a higher rank joins on the right of the partial only.  Rank order is
 * kept, so any op.  The partial lives in two slots of scratch: combining
 * into the received slot (REDUCE's left operand is the source) needs no
 * copy.  Exscan leaves rank 0's receive buffer as it is (MPI leaves it
 * undefined).
 */
#include "sched_algs.h"
#include "sched_build.h"

#include <stdint.h>

int nbo_compile_scan_rd(const nbo_sched_args_t *a, sched_build_t *b)
{
    const int P = a->size, r = a->rank, ex = a->coll == NBO_COLL_EXSCAN;
    const size_t n = a->rbytes[0];
    if (!a->elem || n % a->elem)
        return NBO_ERR_ARG;
    if (n > SIZE_MAX / 4)
        return NBO_ERR_OVERFLOW;
    if (n == 0)
        return NBO_SUCCESS;
    const nbo_buf_t in = a->in_place ? NBO_BUF_RECV : NBO_BUF_SEND;
    if (P == 1) {
        if (!ex && !a->in_place)
            sched_build_copy(b, NBO_BUF_RECV, 0, in, 0, n);
        return NBO_SUCCESS;
    }
    /* Slots: the partial at p * n, the incoming one at (1 - p) * n. */
    b->s->tmp_bytes = 2 * n;
    int p = 0, have = !ex; /* exscan: RECV holds nothing yet */
    sched_build_copy(b, NBO_BUF_TMP, 0, in, 0, n);
    if (!ex && !a->in_place)
        sched_build_copy(b, NBO_BUF_RECV, 0, in, 0, n);
    for (int m = 1; m < P; m <<= 1) {
        const int peer = r ^ m;
        if (peer >= P)
            continue;
        const size_t mine = (size_t)p * n, got = (size_t)(1 - p) * n;
        sched_build_post_recv(b, peer, NBO_BUF_TMP, got, n);
        sched_build_post_send(b, a->window, peer, NBO_BUF_TMP, mine, n);
        sched_build_flush(b);
        if (peer < r) { /* lower ranks: on the left of both */
            if (have)
                sched_build_reduce(b, NBO_BUF_RECV, 0, NBO_BUF_TMP, got, n);
            else
                sched_build_copy(b, NBO_BUF_RECV, 0, NBO_BUF_TMP, got, n);
            have = 1;
            sched_build_reduce(b, NBO_BUF_TMP, mine, NBO_BUF_TMP, got, n);
        } else { /* higher ranks: on the right of the partial */
            sched_build_reduce(b, NBO_BUF_TMP, got, NBO_BUF_TMP, mine, n);
            p = 1 - p;
        }
    }
    return NBO_SUCCESS;
}
