/*
 * compile_reduce_rabenseifner.c - reduce to a root for long vectors and
 * commutative ops (Rabenseifner): a reduce-scatter by recursive halving
 * leaves each rank one reduced segment, then a binomial gather brings the
 * segments to the root.  About 2n bytes cross the root's link, instead of
 * n log2 P for the binomial tree of whole vectors.  A P that is not a
 * power of two folds first, as the allreduce does: of the first 2*rem
 * ranks the even ones hand their vector to the odd one above and sit out.
 *
 * The work vector is the root's receive buffer (no copy at the end), a
 * scratch vector elsewhere; received halves land in scratch after it.
 */
#include "sched_algs.h"
#include "sched_build.h"

#include <stdint.h>

/* Byte offset of segment i of k: count elements split as evenly as can be,
 * the first count % k segments one element longer. */
static size_t seg(const nbo_sched_args_t *a, int k, int i)
{
    size_t count = a->rbytes[0] / a->elem, q = count / (size_t)k, rm = count % (size_t)k;
    size_t u = (size_t)i;
    return (q * u + (u < rm ? u : rm)) * a->elem;
}

/* Old rank of new rank v. */
static int old_rank(int v, int rem) { return v < rem ? 2 * v + 1 : v + rem; }

/* New rank of old rank r, -1 for one that sits out. */
static int new_rank(int r, int rem)
{
    if (r >= 2 * rem)
        return r - rem;
    return r % 2 ? r / 2 : -1;
}

/* Segments [lo, hi) of the work vector to or from old rank peer. */
static void segs(const nbo_sched_args_t *a, sched_build_t *b, int send, int peer, nbo_buf_t buf,
                 size_t base, int pof2, int lo, int hi)
{
    size_t off = seg(a, pof2, lo), len = seg(a, pof2, hi) - off;
    if (send)
        sched_build_post_send(b, a->window, peer, buf, base + off, len);
    else
        sched_build_post_recv(b, peer, buf, base + off, len);
}

int nbo_compile_reduce_rabenseifner(const nbo_sched_args_t *a, sched_build_t *b)
{
    const int P = a->size, r = a->rank, root = a->root;
    const size_t n = a->rbytes[0];
    const int rc = nbo_reduce_check(a);
    if (rc != NBO_SUCCESS || n == 0)
        return rc;
    const int at_root = r == root, pof2 = sched_pof2(P), rem = P - pof2;
    const nbo_buf_t w = at_root ? NBO_BUF_RECV : NBO_BUF_TMP;
    const size_t scr = at_root ? 0 : n; /* scratch's offset in TMP */
    b->s->tmp_bytes = P > 1 ? scr + n : 0;
    if (!(at_root && a->in_place))
        sched_build_copy(b, w, 0, NBO_BUF_SEND, 0, n);
    if (P == 1)
        return NBO_SUCCESS;
    int v = new_rank(r, rem);
    if (r < 2 * rem && r % 2 == 0) {
        sched_build_post_send(b, a->window, r + 1, w, 0, n);
        sched_build_flush(b);
    } else if (r < 2 * rem) {
        sched_build_post_recv(b, r - 1, NBO_BUF_TMP, scr, n);
        sched_build_flush(b);
        sched_build_reduce(b, w, 0, NBO_BUF_TMP, scr, n);
    }
    /* The gather's destination: the root, or the partner it folded into. */
    const int vroot = root < 2 * rem ? root / 2 : root - rem;
    if (v >= 0) {
        int lo = 0, hi = pof2;
        for (int d = pof2 >> 1; d > 0; d >>= 1) { /* halving: keep the half holding v */
            int peer = old_rank(v ^ d, rem), mid = (lo + hi) / 2;
            int klo = v & d ? mid : lo, khi = v & d ? hi : mid;
            segs(a, b, 0, peer, NBO_BUF_TMP, scr, pof2, klo, khi);
            segs(a, b, 1, peer, w, 0, pof2, v & d ? lo : mid, v & d ? mid : hi);
            sched_build_flush(b);
            size_t ko = seg(a, pof2, klo);
            sched_build_reduce(b, w, ko, NBO_BUF_TMP, scr + ko, seg(a, pof2, khi) - ko);
            lo = klo;
            hi = khi;
        }
        /* Gather: at distance d a rank holds the aligned block of d
         * segments around it; the one whose bit d differs from vroot's
         * sends its block and is done. */
        for (int d = 1; d < pof2; d <<= 1) {
            const int peer = v ^ d, mine = v & ~(d - 1), theirs = peer & ~(d - 1);
            if ((v ^ vroot) & d) {
                segs(a, b, 1, old_rank(peer, rem), w, 0, pof2, mine, mine + d);
                sched_build_flush(b);
                break;
            }
            segs(a, b, 0, old_rank(peer, rem), w, 0, pof2, theirs, theirs + d);
            sched_build_flush(b);
        }
    }
    if (v == vroot && !at_root) { /* the root sat out: the result goes to it */
        sched_build_post_send(b, a->window, root, w, 0, n);
        sched_build_flush(b);
    } else if (at_root && v < 0) {
        sched_build_post_recv(b, r + 1, NBO_BUF_RECV, 0, n);
        sched_build_flush(b);
    }
    return NBO_SUCCESS;
}
