/*
 * check.c - NBO_CHECK=1: compare call signatures across ranks before a
 * collective is compiled, so mismatched arguments end in NBO_ERR_MISMATCH
 * naming the rank that disagrees, instead of a hang or corrupted data.
 *
 * Costs two collectives per call, which is why it is off by default.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core.h"

int nbo_check_call(struct nbo_comm *c, nbo_coll_t coll, int persistent, int root,
                   const size_t *sbytes, const size_t *rbytes)
{
    const int P = c->size;
    int rc = NBO_SUCCESS;
    /* 1. Everyone makes the same kind of call: the same collective, and
     * all persistent or none. */
    int kind = (int)coll * 2 + (persistent != 0);
    int kmin = kind, kmax = kind;
    if (MPI_Allreduce(&kind, &kmin, 1, MPI_INT, MPI_MIN, c->comm) != MPI_SUCCESS ||
        MPI_Allreduce(&kind, &kmax, 1, MPI_INT, MPI_MAX, c->comm) != MPI_SUCCESS)
        return NBO_ERR_MPI;
    if (kmin != kmax) {
        fprintf(stderr, "libnbo: NBO_CHECK: rank %d calls collective kind %d, another rank kind %d\n",
                c->rank, kind, kind == kmin ? kmax : kmin);
        return NBO_ERR_MISMATCH;
    }
    /* The same root (bcast; the others pass 0). */
    int rmin = root, rmax = root;
    if (MPI_Allreduce(&root, &rmin, 1, MPI_INT, MPI_MIN, c->comm) != MPI_SUCCESS ||
        MPI_Allreduce(&root, &rmax, 1, MPI_INT, MPI_MAX, c->comm) != MPI_SUCCESS)
        return NBO_ERR_MPI;
    if (rmin != rmax) {
        fprintf(stderr, "libnbo: NBO_CHECK: rank %d has root %d, another rank root %d\n", c->rank,
                root, root == rmin ? rmax : rmin);
        return NBO_ERR_MISMATCH;
    }
    /* 2. What each peer will send me is what I expect to receive. */
    uint64_t *out = malloc((size_t)P * sizeof(*out)), *in = malloc((size_t)P * sizeof(*in));
    int bad = -1;
    if (!out || !in)
        rc = NBO_ERR_NOMEM;
    else {
        for (int p = 0; p < P; p++)
            out[p] = sbytes[p];
        if (MPI_Alltoall(out, 1, MPI_UINT64_T, in, 1, MPI_UINT64_T, c->comm) != MPI_SUCCESS)
            rc = NBO_ERR_MPI;
        for (int p = 0; rc == NBO_SUCCESS && p < P; p++)
            if (in[p] != rbytes[p]) {
                fprintf(stderr,
                        "libnbo: NBO_CHECK: rank %d sends %llu bytes to rank %d, which expects %zu\n",
                        p, (unsigned long long)in[p], c->rank, rbytes[p]);
                bad = p;
                break;
            }
    }
    free(out);
    free(in);
    if (rc == NBO_SUCCESS && bad >= 0)
        rc = NBO_ERR_MISMATCH;
    int all = rc;
    if (MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MIN, c->comm) != MPI_SUCCESS)
        return NBO_ERR_MPI;
    return all;
}
