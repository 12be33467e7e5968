/*
 * test_allgather.c - nbo_iallgather(v) and nbo_allgather(v)_init against
 * MPI_Allgather(v) on the same input, byte for byte over the whole receive
 * buffer (gaps included), for AUTO, recursive doubling, Bruck and the
 * ring: 0 B to 4 MiB in all, in place, a derived (vector) receive type,
 * irregular allgatherv counts with gaps between the blocks, several
 * requests outstanding on two communicators, persistent requests started
 * 100 times, bad input with its own codes, and under NBO_CHECK block
 * sizes that disagree across ranks (NBO_ERR_MISMATCH).
 */
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

static const nbo_algorithm_t algs[] = {NBO_ALG_AUTO, NBO_ALG_RECURSIVE_DOUBLING, NBO_ALG_BRUCK,
                                       NBO_ALG_RING};
#define NALGS (int)(sizeof(algs) / sizeof(algs[0]))

static void bytes(nbo_comm_t comm, const char *alg, int n, int in_place, unsigned seed)
{
    const int P = mt_size;
    const size_t total = (size_t)n * (size_t)P;
    unsigned char *in = malloc((size_t)n + 1), *got = malloc(total + 1), *ref = malloc(total + 1);
    mt_fill(in, (size_t)n, mt_rank, 0, seed);
    MPI_Allgather(in, n, MPI_BYTE, ref, n, MPI_BYTE, MPI_COMM_WORLD);
    memset(got, 0xee, total);
    nbo_request_t req;
    if (in_place) {
        memcpy(got + (size_t)mt_rank * n, in, (size_t)n);
        MT_OK(nbo_iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, got, n, MPI_BYTE, comm, &req));
    } else
        MT_OK(nbo_iallgather(in, n, MPI_BYTE, got, n, MPI_BYTE, comm, &req));
    mt_complete_alternating(&req);
    char what[128];
    snprintf(what, sizeof(what), "allgather %s %d B per rank%s", alg, n, in_place ? " in place" : "");
    mt_compare(got, ref, total, what);
    free(in); free(got); free(ref);
}

/* Send 2n ints, receive them as n vectors of two ints with a hole. */
static void derived(nbo_comm_t comm, const char *alg, int n)
{
    const int P = mt_size;
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    const size_t rlen = (size_t)P * n * 3 + 1; /* ints: extent 3 ints per vector */
    int *in = malloc((size_t)n * 8 + 8), *got = malloc(rlen * 4), *ref = malloc(rlen * 4);
    mt_fill(in, (size_t)n * 8, mt_rank, 1, 5);
    memset(ref, 0x5a, rlen * 4);
    memset(got, 0x5a, rlen * 4);
    MPI_Allgather(in, 2 * n, MPI_INT, ref, n, vec, MPI_COMM_WORLD);
    nbo_request_t req;
    MT_OK(nbo_iallgather(in, 2 * n, MPI_INT, got, n, vec, comm, &req));
    MPI_Type_free(&vec); /* libnbo keeps its own */
    mt_complete_alternating(&req);
    char what[128];
    snprintf(what, sizeof(what), "allgather %s vector receive type, %d per rank", alg, n);
    mt_compare(got, ref, rlen * 4, what);
    free(in); free(got); free(ref);
}

/* Irregular counts, blocks in a permuted order with gaps. */
static void vcounts(nbo_comm_t comm, const char *alg, unsigned seed, int max, int in_place)
{
    const int P = mt_size;
    int *counts = malloc(sizeof(int) * (size_t)P), *displs = malloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++)
        counts[p] = mt_count(p, 0, seed, max, 0);
    int len = mt_layout(P, counts, 5, seed, displs);
    int me = counts[mt_rank];
    int *in = malloc(sizeof(int) * (size_t)me + 4), *got = malloc(sizeof(int) * (size_t)len);
    int *ref = malloc(sizeof(int) * (size_t)len);
    mt_fill(in, sizeof(int) * (size_t)me, mt_rank, 2, seed);
    memset(ref, 0x77, sizeof(int) * (size_t)len);
    memset(got, 0x77, sizeof(int) * (size_t)len);
    /* MPICH 4.0.2's MPI_Allgatherv on one rank ignores displs (it copies
     * to the start of recvbuf): the reference is built by hand there. */
    if (P > 1)
        MPI_Allgatherv(in, me, MPI_INT, ref, counts, displs, MPI_INT, MPI_COMM_WORLD);
    else
        memcpy(ref + displs[0], in, sizeof(int) * (size_t)me);
    nbo_request_t req;
    if (in_place) {
        memcpy(got + displs[mt_rank], in, sizeof(int) * (size_t)me);
        MT_OK(nbo_iallgatherv(MPI_IN_PLACE, -1, MPI_DATATYPE_NULL, got, counts, displs, MPI_INT,
                              comm, &req));
    } else
        MT_OK(nbo_iallgatherv(in, me, MPI_INT, got, counts, displs, MPI_INT, comm, &req));
    mt_complete_alternating(&req);
    char what[128];
    snprintf(what, sizeof(what), "allgatherv %s seed %u max %d%s", alg, seed, max,
             in_place ? " in place" : "");
    mt_compare(got, ref, sizeof(int) * (size_t)len, what);
    free(counts); free(displs); free(in); free(got); free(ref);
}

static void outstanding(nbo_comm_t c1, nbo_comm_t c2)
{
    enum { K = 5, N = 1000 };
    const int P = mt_size;
    unsigned char *in = malloc(K * N), *got = malloc((size_t)K * N * P), *ref = malloc((size_t)K * N * P);
    nbo_request_t reqs[K];
    mt_fill(in, K * N, mt_rank, 7, 11);
    for (int k = 0; k < K; k++)
        MPI_Allgather(in + k * N, N, MPI_BYTE, ref + (size_t)k * N * P, N, MPI_BYTE, MPI_COMM_WORLD);
    for (int k = 0; k < K; k++)
        MT_OK(nbo_iallgather(in + k * N, N, MPI_BYTE, got + (size_t)k * N * P, N, MPI_BYTE,
                             k % 2 ? c2 : c1, &reqs[k]));
    for (int k = K - 1; k >= 0; k--)
        MT_OK(nbo_wait(&reqs[k]));
    mt_compare(got, ref, (size_t)K * N * P, "allgather: 5 outstanding on two communicators");
    free(in); free(got); free(ref);
}

static void persistent(nbo_comm_t comm)
{
    const int P = mt_size;
    enum { N = 257 };
    unsigned char in[N] = {0};
    unsigned char *got = malloc((size_t)N * P), *ref = malloc((size_t)N * P);
    int *counts = malloc(sizeof(int) * (size_t)P), *displs = malloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++) {
        counts[p] = N - p % 3;
        displs[p] = p * N;
    }
    nbo_request_t r1, r2;
    MT_OK(nbo_allgather_init(in, N, MPI_BYTE, got, N, MPI_BYTE, comm, &r1));
    MT_OK(nbo_allgatherv_init(in, counts[mt_rank], MPI_BYTE, got, counts, displs, MPI_BYTE, comm,
                              &r2));
    for (int it = 0; it < 100 && !mt_failures(); it++) {
        mt_fill(in, N, mt_rank, 0, (unsigned)it);
        MPI_Allgather(in, N, MPI_BYTE, ref, N, MPI_BYTE, MPI_COMM_WORLD);
        MT_OK(nbo_start(&r1));
        mt_complete_alternating(&r1);
        mt_compare(got, ref, (size_t)N * P, "persistent allgather");
        MPI_Allgatherv(in, counts[mt_rank], MPI_BYTE, ref, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
        /* (displs[0] is 0: MPICH's one-rank MPI_Allgatherv is right here) */
        MT_OK(nbo_start(&r2));
        mt_complete_alternating(&r2);
        mt_compare(got, ref, (size_t)N * P, "persistent allgatherv");
    }
    if (r1 != NBO_REQUEST_NULL)
        MT_OK(nbo_request_free(&r1));
    if (r2 != NBO_REQUEST_NULL)
        MT_OK(nbo_request_free(&r2));
    free(got); free(ref); free(counts); free(displs);
}

#define BAD(want, call) MT_REFUSED(&req, (want), (call))

static void bad_input(nbo_comm_t comm)
{
    const int P = mt_size;
    nbo_request_t req;
    char a[8] = {0}, *b = calloc((size_t)P * 8, 1);
    int *counts = malloc(sizeof(int) * (size_t)P), *displs = malloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++) {
        counts[p] = 8;
        displs[p] = 8 * p;
    }
    MPI_Datatype raw;
    MPI_Type_contiguous(2, MPI_INT, &raw); /* never committed */
    BAD(NBO_ERR_COUNT, nbo_iallgather(a, -1, MPI_BYTE, b, 8, MPI_BYTE, comm, &req));
    BAD(NBO_ERR_COUNT, nbo_allgather_init(a, 8, MPI_BYTE, b, -8, MPI_BYTE, comm, &req));
    BAD(NBO_ERR_BUFFER, nbo_iallgather(NULL, 8, MPI_BYTE, b, 8, MPI_BYTE, comm, &req));
    BAD(NBO_ERR_BUFFER, nbo_iallgather(a, 8, MPI_BYTE, NULL, 8, MPI_BYTE, comm, &req));
    BAD(NBO_ERR_DATATYPE, nbo_iallgather(a, 8, MPI_DATATYPE_NULL, b, 8, MPI_BYTE, comm, &req));
    BAD(NBO_ERR_DATATYPE, nbo_iallgather(a, 1, MPI_BYTE, b, 1, raw, comm, &req));
    BAD(NBO_ERR_MISMATCH, nbo_iallgather(a, 8, MPI_BYTE, b, 4, MPI_BYTE, comm, &req));
    BAD(NBO_ERR_ARG, nbo_iallgatherv(a, 8, MPI_BYTE, b, NULL, displs, MPI_BYTE, comm, &req));
    BAD(NBO_ERR_ARG, nbo_allgatherv_init(a, 8, MPI_BYTE, b, counts, NULL, MPI_BYTE, comm, &req));
    BAD(NBO_ERR_COUNT, nbo_iallgatherv(a, -2, MPI_BYTE, b, counts, displs, MPI_BYTE, comm, &req));
    counts[P - 1] = -1;
    BAD(NBO_ERR_COUNT, nbo_iallgatherv(a, 8, MPI_BYTE, b, counts, displs, MPI_BYTE, comm, &req));
    BAD(NBO_ERR_DATATYPE, nbo_iallgatherv(a, 8, MPI_BYTE, b, displs, displs, MPI_DATATYPE_NULL,
                                          comm, &req));
    BAD(NBO_ERR_OVERLAP, nbo_iallgather(b, 8, MPI_BYTE, b, 8, MPI_BYTE, comm, &req));
    MPI_Type_free(&raw);
    free(b); free(counts); free(displs);
}

/* NBO_CHECK=1: a rank whose block size others do not expect. */
static void checked(void)
{
    nbo_config_t cfg;
    nbo_comm_t chk;
    nbo_request_t req;
    char a[8] = {0}, *b = calloc((size_t)mt_size * 8, 1);
    mt_config(&cfg, NBO_ALG_AUTO);
    cfg.check = 1;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, &cfg, &chk));
    if (mt_failures())
        return;
    if (mt_size > 1) {
        const int n = 8 - mt_rank % 2; /* consistent per rank, not across */
        BAD(NBO_ERR_MISMATCH, nbo_iallgather(a, n, MPI_BYTE, b, n, MPI_BYTE, chk, &req));
    }
    MT_OK(nbo_iallgather(a, 8, MPI_BYTE, b, 8, MPI_BYTE, chk, &req));
    MT_OK(nbo_wait(&req));
    MT_OK(nbo_comm_free(&chk));
    free(b);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_allgather");
    nbo_comm_t second;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, NULL, &second));
    static const int sizes[] = {0, 1, 13, 4096, 70001, 1 << 19}; /* 4 MiB in all at P = 8 */
    for (int a = 0; a < NALGS && !mt_failures(); a++) {
        nbo_comm_t comm;
        if (!mt_comm_for(algs[a], &comm))
            break;
        const char *name = nbo_algorithm_name(algs[a]);
        for (int i = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++) {
            bytes(comm, name, sizes[i], 0, (unsigned)i);
            bytes(comm, name, sizes[i], 1, (unsigned)i + 20);
        }
        derived(comm, name, 1);
        derived(comm, name, 3001);
        for (unsigned seed = 1; seed <= 3; seed++) {
            vcounts(comm, name, seed, 50, 0);
            vcounts(comm, name, seed + 10, 20000, seed & 1);
        }
        if (a == 0) {
            outstanding(comm, second);
            persistent(comm);
            bad_input(comm);
            checked();
        }
        MT_OK(nbo_comm_free(&comm));
    }
    MT_OK(nbo_comm_free(&second));
    return mt_finish();
}
