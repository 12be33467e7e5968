/*
 * compile_reduce.c - reduce to a root by a binomial tree.  At the step of
 * distance m a rank whose bit m is set sends what it holds to rank - m and
 * is done; the others receive rank + m's partial result and combine it.  A
 * rank's partial result covers a range of consecutive ranks, its own
 * first, so combining "held op received" keeps rank order: a
 * non-commutative op is reduced on the tree of rank 0 and the result sent
 * on to the root; a commutative one on the tree of the root itself.
 *
 * The received partial is combined into the slot it landed in (REDUCE's
 * left operand is the source), so partials alternate between two slots of
 * scratch and no copy is made, but the root's last one into RECV.
 */
#include "sched_algs.h"
#include "sched_build.h"

#include <stdint.h>

typedef struct {
    nbo_buf_t buf;
    size_t    off;
} loc_t;

/* Children of v on the tree: the steps m below v's lowest set bit with
 * v + m < P. */
static int children(int P, int v)
{
    int n = 0;
    for (int m = 1; m < P && !(v & m); m <<= 1)
        if (v + m < P)
            n++;
    return n;
}

int nbo_reduce_check(const nbo_sched_args_t *a)
{
    const size_t n = a->rbytes[0];
    if (a->root < 0 || a->root >= a->size)
        return NBO_ERR_ROOT;
    if (!a->elem || n % a->elem)
        return NBO_ERR_ARG;
    return n > SIZE_MAX / 4 ? NBO_ERR_OVERFLOW : NBO_SUCCESS;
}

int nbo_compile_reduce_binomial(const nbo_sched_args_t *a, sched_build_t *b)
{
    const int P = a->size, r = a->rank, root = a->root;
    const size_t n = a->rbytes[0];
    const int rc = nbo_reduce_check(a);
    if (rc != NBO_SUCCESS || n == 0)
        return rc;
    const int ip = a->in_place && r == root;
    loc_t cur = {ip ? NBO_BUF_RECV : NBO_BUF_SEND, 0};
    const int top = a->commutative ? root : 0; /* the tree's root */
    const int v = (r - top + P) % P;
    int left = children(P, v);
    if (left > 1)
        b->s->tmp_bytes = 2 * n;
    else if (left == 1)
        b->s->tmp_bytes = n;
    int slot = 0;
    for (int m = 1; m < P; m <<= 1) {
        if (v & m) {
            sched_build_post_send(b, a->window, (v - m + top) % P, cur.buf, cur.off, n);
            sched_build_flush(b);
            break;
        }
        if (v + m >= P)
            continue;
        /* The tree's root receives its last partial in RECV when that is
         * not its input. */
        loc_t dst = {NBO_BUF_TMP, (size_t)slot * n};
        if (r == root && !ip && left == 1)
            dst = (loc_t){NBO_BUF_RECV, 0};
        sched_build_post_recv(b, (v + m + top) % P, dst.buf, dst.off, n);
        sched_build_flush(b);
        sched_build_reduce(b, dst.buf, dst.off, cur.buf, cur.off, n);
        cur = dst;
        slot ^= 1;
        left--;
    }
    if (v == 0 && r != root) { /* non-commutative: the result goes on to the root */
        sched_build_post_send(b, a->window, root, cur.buf, cur.off, n);
        sched_build_flush(b);
    } else if (r == root && v != 0) {
        sched_build_post_recv(b, top, NBO_BUF_RECV, 0, n);
        sched_build_flush(b);
    } else if (r == root && cur.buf != NBO_BUF_RECV) {
        sched_build_copy(b, NBO_BUF_RECV, 0, cur.buf, cur.off, n);
    }
    return NBO_SUCCESS;
}
