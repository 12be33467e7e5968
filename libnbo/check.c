/*
 * check.c - NBO_CHECK=1: compare call signatures across ranks before a
 * collective is compiled, so mismatched arguments end in NBO_ERR_MISMATCH
 * naming the rank that disagrees, instead of a hang or corrupted data.
 *
 * Costs three collectives per call, which is why it is off by default.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core.h"

/* The sequence of blocks between two ranks, as three numbers: how many,
 * their total, and an order-sensitive digest (the k-th block sent to a
 * peer is the k-th it receives from us). */
enum { N_BLOCKS, N_BYTES, N_DIGEST, N_FIELDS };

static void add_block(uint64_t *f, size_t bytes)
{
    f[N_BLOCKS]++;
    f[N_BYTES] += bytes;
    f[N_DIGEST] = (f[N_DIGEST] ^ (uint64_t)bytes) * 0x100000001b3ull + f[N_BLOCKS];
}

/* 1. Everyone makes the same call: the same collective, all persistent or
 * none, the same root, the same choice. */
static int check_kind(struct nbo_comm *c, const nbo_check_sig_t *s)
{
    static const char *what[] = {"collective kind", "root", "algorithm", "window"};
    int v[8] = {(int)s->coll * 2 + (s->persistent != 0), s->root, (int)s->choice.algorithm,
                s->choice.window};
    int m[8];
    for (int i = 0; i < 4; i++)
        v[4 + i] = -v[i];
    if (MPI_Allreduce(v, m, 8, MPI_INT, MPI_MIN, c->comm) != MPI_SUCCESS)
        return NBO_ERR_MPI;
    for (int i = 0; i < 4; i++)
        if (m[i] != -m[4 + i]) { /* min != max */
            fprintf(stderr, "libnbo: NBO_CHECK: rank %d has %s %d, another rank %d\n", c->rank,
                    what[i], v[i], v[i] == m[i] ? -m[4 + i] : m[i]);
            return NBO_ERR_MISMATCH;
        }
    return NBO_SUCCESS;
}

/* 2. What each peer will send me is what I expect to receive from it. */
static int check_blocks(struct nbo_comm *c, const nbo_check_sig_t *s)
{
    const int P = c->size;
    uint64_t *out = calloc(3 * (size_t)P * N_FIELDS, sizeof(*out));
    if (!out)
        return NBO_ERR_NOMEM;
    uint64_t *in = out + (size_t)P * N_FIELDS, *want = in + (size_t)P * N_FIELDS;
    for (int i = 0; i < s->nsend; i++)
        add_block(out + (size_t)s->speers[i] * N_FIELDS, s->sb[i]);
    for (int i = 0; i < s->nrecv; i++)
        add_block(want + (size_t)s->rpeers[i] * N_FIELDS, s->rb[i]);
    int rc = MPI_Alltoall(out, N_FIELDS, MPI_UINT64_T, in, N_FIELDS, MPI_UINT64_T, c->comm) ==
                     MPI_SUCCESS
                 ? NBO_SUCCESS
                 : NBO_ERR_MPI;
    for (int p = 0; rc == NBO_SUCCESS && p < P; p++) {
        const uint64_t *got = in + (size_t)p * N_FIELDS, *exp = want + (size_t)p * N_FIELDS;
        if (got[N_BLOCKS] != exp[N_BLOCKS] || got[N_BYTES] != exp[N_BYTES] ||
            got[N_DIGEST] != exp[N_DIGEST]) {
            fprintf(stderr,
                    "libnbo: NBO_CHECK: rank %d sends %llu bytes in %llu blocks to rank %d, "
                    "which expects %llu in %llu\n",
                    p, (unsigned long long)got[N_BYTES], (unsigned long long)got[N_BLOCKS],
                    c->rank, (unsigned long long)exp[N_BYTES], (unsigned long long)exp[N_BLOCKS]);
            rc = NBO_ERR_MISMATCH;
        }
    }
    free(out);
    return rc;
}

int nbo_check_call(struct nbo_comm *c, const nbo_check_sig_t *sig)
{
    int rc = check_kind(c, sig);
    if (rc != NBO_SUCCESS)
        return rc; /* the same on every rank: all saw the same min and max */
    rc = check_blocks(c, sig);
    int all = rc;
    if (MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MIN, c->comm) != MPI_SUCCESS)
        return NBO_ERR_MPI;
    return all;
}
