/*
 * test_alltoallw.c - nbo_ialltoallw and nbo_alltoallw_init against
 * MPI_Alltoallw on the same input, in the collectives' loop:
 *   - per peer counts (a quarter 0), byte displacements in a permuted
 *     order with gaps (not multiples of the types' extents), and a type
 *     per block on each side, chosen apart on the two sides: MPI_INT, a
 *     contiguous pair of ints, or a strided vector of ints whose holes
 *     must stay untouched (rounds of contiguous types only, and mixed);
 *   - MPI_IN_PLACE, blocks of up to 24 KB, AUTO and Bruck asked for (which
 *     falls back to pairwise);
 *   - a persistent request started 3 times on changing input, its types
 *     freed by the caller after init;
 *   - bad input with its own code, and under NBO_CHECK a count that
 *     disagrees across ranks (NBO_ERR_MISMATCH).
 * The whole receive buffer, gaps and holes included, is compared.
 */
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

enum { K_INT, K_PAIR, K_VEC, NKINDS };

/* The pair and the vector, both two ints of signature (one unit). */
static MPI_Datatype kind_type[NKINDS];

static void types_make(MPI_Datatype *t)
{
    t[K_INT] = MPI_INT;
    MPI_Type_contiguous(2, MPI_INT, &t[K_PAIR]);
    MPI_Type_vector(2, 1, 2, MPI_INT, &t[K_VEC]); /* ints 0 and 2, extent 3 ints */
    MPI_Type_commit(&t[K_PAIR]);
    MPI_Type_commit(&t[K_VEC]);
}

static void types_free(MPI_Datatype *t)
{
    MPI_Type_free(&t[K_PAIR]);
    MPI_Type_free(&t[K_VEC]);
}

static unsigned mix(unsigned x)
{
    x *= 2654435761u;
    return x ^ (x >> 13);
}

/* One side of one rank's call. */
typedef struct side {
    int          *counts, *displs; /* displs in bytes */
    MPI_Datatype *types;
    size_t        len;             /* bytes of the buffer */
} side_t;

/* Rank me's side (sending: what it sends each peer; else what it
 * receives): units of two ints per pair, a kind per block (contiguous
 * kinds only unless mixed), the blocks permuted with gaps of 0-2 ints. */
static void side_make(side_t *sd, int me, int sending, unsigned seed, int max, int sym,
                      int mixed, const MPI_Datatype *t)
{
    const int P = mt_size;
    sd->counts = calloc((size_t)P, sizeof(int));
    sd->displs = calloc((size_t)P, sizeof(int));
    sd->types = calloc((size_t)P, sizeof(MPI_Datatype));
    int off = 0; /* ints */
    for (int k = 0; k < P; k++) {
        const int p = (me % 2) ? P - 1 - k : (k + me) % P;
        const int u = sending ? mt_count(me, p, seed, max, sym) : mt_count(p, me, seed, max, sym);
        const int kind = (int)(mix((unsigned)(me * 131 + p * 17 + sending * 7) + seed) %
                               (mixed ? NKINDS : NKINDS - 1));
        sd->types[p] = t[kind];
        sd->counts[p] = kind == K_INT ? 2 * u : u;
        off += (p + me + (int)seed) % 3;
        sd->displs[p] = 4 * off;
        off += kind == K_VEC ? 3 * u : 2 * u;
    }
    sd->len = 4 * (size_t)(off + 1);
}

static void side_free(side_t *sd)
{
    free(sd->counts);
    free(sd->displs);
    free(sd->types);
}

/* One call of nbo_ialltoallw (or a persistent request started `starts`
 * times) against MPI_Alltoallw. */
static void round_check(nbo_comm_t comm, const char *alg, unsigned seed, int max, int in_place,
                        int mixed, int starts)
{
    const int me = mt_rank;
    side_t s, r;
    side_make(&r, me, 0, seed, max, in_place, mixed, kind_type);
    side_make(&s, me, 1, seed, max, in_place, mixed, kind_type);
    char *sbuf = calloc(s.len, 1), *rbuf = calloc(r.len, 1), *ref = calloc(r.len, 1);
    char what[96];
    snprintf(what, sizeof(what), "alltoallw %s seed %u max %d%s%s%s", alg, seed, max,
             in_place ? " in place" : "", mixed ? " mixed" : " contiguous",
             starts ? " persistent" : "");
    nbo_request_t req = NBO_REQUEST_NULL;
    if (starts) { /* the request keeps its own copies of the types */
        MPI_Datatype own[NKINDS];
        types_make(own);
        side_t s2, r2;
        side_make(&r2, me, 0, seed, max, in_place, mixed, own);
        side_make(&s2, me, 1, seed, max, in_place, mixed, own);
        MT_OK(nbo_alltoallw_init(in_place ? MPI_IN_PLACE : sbuf, s2.counts, s2.displs, s2.types,
                                 rbuf, r2.counts, r2.displs, r2.types, comm, &req));
        types_free(own);
        side_free(&s2);
        side_free(&r2);
    }
    for (int it = 0; it < (starts ? starts : 1) && !mt_failures(); it++) {
        mt_fill(sbuf, s.len, me, it, seed);
        if (in_place) {
            mt_fill(rbuf, r.len, me, it + 1, seed);
            memcpy(ref, rbuf, r.len);
        } else {
            memset(rbuf, 0x5A, r.len);
            memset(ref, 0x5A, r.len);
        }
        if (starts)
            MT_OK(nbo_start(&req));
        else
            MT_OK(nbo_ialltoallw(in_place ? MPI_IN_PLACE : sbuf, s.counts, s.displs, s.types,
                                 rbuf, r.counts, r.displs, r.types, comm, &req));
        mt_complete_alternating(&req);
        MPI_Alltoallw(in_place ? MPI_IN_PLACE : sbuf, s.counts, s.displs, s.types, ref, r.counts,
                      r.displs, r.types, MPI_COMM_WORLD);
        mt_compare(rbuf, ref, r.len, what);
    }
    if (starts)
        MT_OK(nbo_request_free(&req));
    free(sbuf);
    free(rbuf);
    free(ref);
    side_free(&s);
    side_free(&r);
}

#define BAD(want, call) MT_REFUSED(&req, (want), (call))

static void bad_input(nbo_comm_t comm)
{
    const int P = mt_size, me = mt_rank;
    nbo_request_t req;
    int *c = calloc((size_t)P, sizeof(int)), *c2 = calloc((size_t)P, sizeof(int));
    int *d = calloc((size_t)P, sizeof(int)), a[8] = {0}, b[8] = {0};
    MPI_Datatype *t = calloc((size_t)P, sizeof(MPI_Datatype));
    for (int p = 0; p < P; p++)
        t[p] = MPI_INT;
    BAD(NBO_ERR_ARG, nbo_ialltoallw(a, c, d, NULL, b, c, d, t, comm, &req));
    BAD(NBO_ERR_ARG, nbo_ialltoallw(a, c, d, t, b, NULL, d, t, comm, &req));
    BAD(NBO_ERR_ARG, nbo_alltoallw_init(MPI_IN_PLACE, NULL, NULL, NULL, b, c, NULL, t, comm, &req));
    c[me] = -1;
    BAD(NBO_ERR_COUNT, nbo_ialltoallw(a, c, d, t, b, c2, d, t, comm, &req));
    c[me] = 2;
    c2[me] = 3; /* the block to oneself must fit */
    BAD(NBO_ERR_MISMATCH, nbo_ialltoallw(a, c, d, t, b, c2, d, t, comm, &req));
    BAD(NBO_ERR_OVERLAP, nbo_ialltoallw(a, c, d, t, a, c, d, t, comm, &req));
    BAD(NBO_ERR_BUFFER, nbo_ialltoallw(a, c, d, t, NULL, c, d, t, comm, &req));
    d[me] = -4;
    BAD(NBO_ERR_COUNT, nbo_ialltoallw(a, c, d, t, b, c, c2, t, comm, &req));
    d[me] = 0;
    t[me] = MPI_DATATYPE_NULL;
    BAD(NBO_ERR_DATATYPE, nbo_ialltoallw(a, c, d, t, b, c, d, t, comm, &req));
    /* Empty blocks may name any type, NULL buffers included. */
    memset(c, 0, (size_t)P * sizeof(int));
    for (int p = 0; p < P; p++)
        t[p] = MPI_DATATYPE_NULL;
    MT_OK(nbo_ialltoallw(NULL, c, d, t, NULL, c, d, t, comm, &req));
    MT_OK(nbo_wait(&req));
    free(c);
    free(c2);
    free(d);
    free(t);
}

/* NBO_CHECK=1: rank 0 expects one int more from its left than is sent. */
static void checked(void)
{
    if (mt_size < 2)
        return;
    const int P = mt_size, me = mt_rank;
    nbo_config_t cfg;
    nbo_comm_t chk;
    nbo_request_t req;
    mt_config(&cfg, NBO_ALG_AUTO);
    cfg.check = 1;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, &cfg, &chk));
    if (mt_failures())
        return;
    int *sc = calloc((size_t)P, sizeof(int)), *rc = calloc((size_t)P, sizeof(int));
    int *sd = calloc((size_t)P, sizeof(int)), *rd = calloc((size_t)P, sizeof(int));
    int a[2] = {1, 2}, b[2] = {0};
    MPI_Datatype *t = calloc((size_t)P, sizeof(MPI_Datatype));
    for (int p = 0; p < P; p++)
        t[p] = MPI_INT;
    sc[(me + 1) % P] = 1;
    rc[(me + P - 1) % P] = 1 + (me == 0);
    BAD(NBO_ERR_MISMATCH, nbo_ialltoallw(a, sc, sd, t, b, rc, rd, t, chk, &req));
    MT_OK(nbo_comm_free(&chk));
    free(sc);
    free(rc);
    free(sd);
    free(rd);
    free(t);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_alltoallw");
    types_make(kind_type);
    static const nbo_algorithm_t algs[] = {NBO_ALG_AUTO, NBO_ALG_BRUCK};
    for (int a = 0; a < 2 && !mt_failures(); a++) {
        nbo_comm_t comm;
        if (!mt_comm_for(algs[a], &comm))
            break;
        const char *name = nbo_algorithm_name(algs[a]);
        for (unsigned seed = 0; seed < 4 && !mt_failures(); seed++)
            round_check(comm, name, seed, 40, seed & 1, (seed & 2) != 0, 0);
        if (a == 0) {
            round_check(comm, name, 7, 3000, 0, 1, 0);
            round_check(comm, name, 8, 3000, 1, 1, 0);
            round_check(comm, name, 9, 50, 0, 1, 3);
            round_check(comm, name, 10, 50, 1, 0, 3);
            bad_input(comm);
            checked();
        }
        MT_OK(nbo_comm_free(&comm));
    }
    types_free(kind_type);
    return mt_finish();
}
