/*
 * test_allreduce.c - nbo_iallreduce and nbo_allreduce_init against
 * MPI_Allreduce on the same input, for every allreduce algorithm (AUTO,
 * recursive doubling, Rabenseifner, ring, ordered; a request for one that
 * does not fit gets AUTO's choice):
 *   - integers (MPI_SUM, MPI_MAX, MPI_BXOR) byte for byte, 0 B to 4 MiB,
 *     in place and not;
 *   - double sums within |got - ref| <= 2 P eps sum|x| (MPI's order of
 *     summation may differ from ours), and byte for byte across two runs
 *     of the same algorithm (ours must be deterministic);
 *   - MPI_MAXLOC on MPI_DOUBLE_INT (a type with a hole: staged);
 *   - a user-defined non-commutative op (2x2 matrix product, commute = 0);
 *   - a derived non-contiguous type with a user op, the holes of the
 *     receive buffer untouched;
 *   - several requests outstanding on one and on two communicators;
 *   - a persistent request started 100 times on changing input;
 *   - bad input: NBO_ERR_COUNT, _BUFFER, _DATATYPE, _OP with messages,
 *     and under NBO_CHECK counts that disagree (NBO_ERR_MISMATCH).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

static const nbo_algorithm_t algs[] = {NBO_ALG_AUTO, NBO_ALG_RECURSIVE_DOUBLING,
                                       NBO_ALG_RABENSEIFNER, NBO_ALG_RING, NBO_ALG_ORDERED};
#define NALGS (int)(sizeof(algs) / sizeof(algs[0]))

/* Integers: byte for byte with MPI_Allreduce. */
static void ints(nbo_comm_t comm, const char *alg, int count, MPI_Op op, int in_place,
                 unsigned seed)
{
    unsigned *in = malloc((size_t)count * 4 + 4), *got = malloc((size_t)count * 4 + 4);
    unsigned *ref = malloc((size_t)count * 4 + 4);
    mt_fill(in, (size_t)count * 4, mt_rank, 0, seed);
    MPI_Allreduce(in, ref, count, MPI_UNSIGNED, op, MPI_COMM_WORLD);
    nbo_request_t req;
    if (in_place) {
        memcpy(got, in, (size_t)count * 4);
        MT_OK(nbo_iallreduce(MPI_IN_PLACE, got, count, MPI_UNSIGNED, op, comm, &req));
    } else {
        memset(got, 0xee, (size_t)count * 4);
        MT_OK(nbo_iallreduce(in, got, count, MPI_UNSIGNED, op, comm, &req));
    }
    mt_complete_alternating(&req);
    char what[128];
    snprintf(what, sizeof(what), "allreduce %s count %d%s", alg, count,
             in_place ? " in place" : "");
    mt_compare(got, ref, (size_t)count * 4, what);
    free(in);
    free(got);
    free(ref);
}

/* Doubles: within the bound of the header; the same bytes twice. */
static void doubles(nbo_comm_t comm, const char *alg, int count)
{
    double *in = malloc(sizeof(double) * (size_t)count), *abs_in = malloc(sizeof(double) * (size_t)count);
    double *got = malloc(sizeof(double) * (size_t)count), *again = malloc(sizeof(double) * (size_t)count);
    double *ref = malloc(sizeof(double) * (size_t)count), *sum_abs = malloc(sizeof(double) * (size_t)count);
    for (int i = 0; i < count; i++) {
        in[i] = (mt_byte(mt_rank, 0, (size_t)i, 5) - 127.5) / 7.0 + 1.0 / (i + 3);
        abs_in[i] = fabs(in[i]);
    }
    MPI_Allreduce(in, ref, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(abs_in, sum_abs, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    nbo_request_t req;
    MT_OK(nbo_iallreduce(in, got, count, MPI_DOUBLE, MPI_SUM, comm, &req));
    mt_complete_alternating(&req);
    MT_OK(nbo_iallreduce(in, again, count, MPI_DOUBLE, MPI_SUM, comm, &req));
    mt_complete_alternating(&req);
    int bad = 0;
    for (int i = 0; i < count && !bad; i++)
        if (fabs(got[i] - ref[i]) > 2.0 * mt_size * DBL_EPSILON * sum_abs[i]) {
            mt_fail("allreduce %s double sum [%d]: %.17g, MPI %.17g", alg, i, got[i], ref[i]);
            bad = 1;
        }
    char what[128];
    snprintf(what, sizeof(what), "allreduce %s double sum run twice", alg);
    mt_compare(again, got, sizeof(double) * (size_t)count, what);
    free(in); free(abs_in); free(got); free(again); free(ref); free(sum_abs);
}

/* MPI_DOUBLE_INT: 12 bytes of data in a 16-byte extent. */
static void maxloc(nbo_comm_t comm, const char *alg, int count)
{
    struct di { double d; int i; } *in = calloc((size_t)count, sizeof(*in));
    struct di *got = calloc((size_t)count, sizeof(*in)), *ref = calloc((size_t)count, sizeof(*in));
    for (int k = 0; k < count; k++) {
        in[k].d = mt_byte(mt_rank, 1, (size_t)k, 9) % 17;
        in[k].i = mt_rank;
    }
    MPI_Allreduce(in, ref, count, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    nbo_request_t req;
    MT_OK(nbo_iallreduce(in, got, count, MPI_DOUBLE_INT, MPI_MAXLOC, comm, &req));
    mt_complete_alternating(&req);
    for (int k = 0; k < count; k++)
        if (got[k].d != ref[k].d || got[k].i != ref[k].i) {
            mt_fail("allreduce %s MAXLOC [%d]: (%g, %d), MPI (%g, %d)", alg, k, got[k].d,
                    got[k].i, ref[k].d, ref[k].i);
            break;
        }
    free(in); free(got); free(ref);
}

static void noncommutative(nbo_comm_t comm, const char *alg, int count, int in_place)
{
    MPI_Datatype mat;
    MPI_Op op;
    MPI_Type_contiguous(4, MPI_UNSIGNED, &mat);
    MPI_Type_commit(&mat);
    MPI_Op_create(mt_op_matmul2x2, 0, &op);
    size_t n = (size_t)count * 4;
    unsigned *in = malloc(n * 4 + 4), *got = malloc(n * 4 + 4), *ref = malloc(n * 4 + 4);
    for (size_t i = 0; i < n; i++)
        in[i] = mt_byte(mt_rank, 2, i, 3) % 3 + (i % 4 == (unsigned)mt_rank % 4);
    MPI_Allreduce(in, ref, count, mat, op, MPI_COMM_WORLD);
    nbo_request_t req;
    if (in_place) {
        memcpy(got, in, n * 4);
        MT_OK(nbo_iallreduce(MPI_IN_PLACE, got, count, mat, op, comm, &req));
    } else
        MT_OK(nbo_iallreduce(in, got, count, mat, op, comm, &req));
    MPI_Type_free(&mat); /* libnbo keeps its own */
    mt_complete_alternating(&req);
    char what[128];
    snprintf(what, sizeof(what), "allreduce %s non-commutative matmul count %d%s", alg, count,
             in_place ? " in place" : "");
    mt_compare(got, ref, n * 4, what);
    MPI_Op_free(&op);
    free(in); free(got); free(ref);
}

/* Two ints 8 bytes apart (a hole between): elementwise sum by hand. */
static void vecsum(void *invec, void *inoutvec, int *len, MPI_Datatype *type)
{
    (void)type;
    const int *a = invec;
    int *b = inoutvec;
    for (int k = 0; k < *len; k++) {
        b[3 * k] += a[3 * k];
        b[3 * k + 2] += a[3 * k + 2];
    }
}

static void derived(nbo_comm_t comm, const char *alg, int count)
{
    MPI_Datatype vec;
    MPI_Op op;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Op_create(vecsum, 1, &op);
    size_t n = (size_t)count * 3;
    int *in = malloc(n * 4 + 4), *got = malloc(n * 4 + 4), *ref = malloc(n * 4 + 4);
    for (size_t i = 0; i < n; i++)
        in[i] = (int)mt_byte(mt_rank, 3, i, 4);
    memset(ref, 0x5a, n * 4);
    memset(got, 0x5a, n * 4); /* the holes must keep this */
    MPI_Allreduce(in, ref, count, vec, op, MPI_COMM_WORLD);
    nbo_request_t req;
    MT_OK(nbo_iallreduce(in, got, count, vec, op, comm, &req));
    mt_complete_alternating(&req);
    char what[128];
    snprintf(what, sizeof(what), "allreduce %s derived vector type, holes kept, count %d", alg,
             count);
    mt_compare(got, ref, n * 4, what);
    MPI_Op_free(&op);
    MPI_Type_free(&vec);
    free(in); free(got); free(ref);
}

/* Several outstanding on two communicators, completed in reverse order. */
static void outstanding(nbo_comm_t c1, nbo_comm_t c2)
{
    enum { K = 5, N = 3001 };
    unsigned *in = malloc(K * N * 4), *got = malloc(K * N * 4), *ref = malloc(K * N * 4);
    nbo_request_t reqs[K];
    mt_fill(in, K * N * 4, mt_rank, 7, 11);
    for (int k = 0; k < K; k++)
        MPI_Allreduce(in + k * N, ref + k * N, N, MPI_UNSIGNED, k % 2 ? MPI_BXOR : MPI_SUM,
                      MPI_COMM_WORLD);
    for (int k = 0; k < K; k++)
        MT_OK(nbo_iallreduce(in + k * N, got + k * N, N, MPI_UNSIGNED, k % 2 ? MPI_BXOR : MPI_SUM,
                             k % 3 == 2 ? c2 : c1, &reqs[k]));
    for (int k = K - 1; k >= 0; k--)
        MT_OK(nbo_wait(&reqs[k]));
    mt_compare(got, ref, K * N * 4, "allreduce: 5 outstanding on two communicators");
    free(in); free(got); free(ref);
}

static void persistent(nbo_comm_t comm)
{
    enum { N = 1027 };
    unsigned in[N] = {0}, got[N], ref[N];
    nbo_request_t req;
    MT_OK(nbo_allreduce_init(in, got, N, MPI_UNSIGNED, MPI_SUM, comm, &req));
    if (mt_failures())
        return;
    for (int it = 0; it < 100 && !mt_failures(); it++) {
        mt_fill(in, sizeof(in), mt_rank, 0, (unsigned)it);
        MPI_Allreduce(in, ref, N, MPI_UNSIGNED, MPI_SUM, MPI_COMM_WORLD);
        MT_OK(nbo_start(&req));
        mt_complete_alternating(&req);
        mt_compare(got, ref, sizeof(got), "persistent allreduce");
    }
    MT_OK(nbo_request_free(&req));
}

#define BAD(want, call) MT_REFUSED(&req, (want), (call))

static void bad_input(nbo_comm_t comm)
{
    nbo_request_t req;
    int a[4] = {0}, b[4] = {0};
    MPI_Datatype raw;
    MPI_Type_contiguous(2, MPI_INT, &raw); /* never committed */
    BAD(NBO_ERR_COUNT, nbo_iallreduce(a, b, -1, MPI_INT, MPI_SUM, comm, &req));
    BAD(NBO_ERR_COUNT, nbo_allreduce_init(a, b, -4, MPI_INT, MPI_SUM, comm, &req));
    BAD(NBO_ERR_BUFFER, nbo_iallreduce(NULL, b, 4, MPI_INT, MPI_SUM, comm, &req));
    BAD(NBO_ERR_BUFFER, nbo_iallreduce(a, NULL, 4, MPI_INT, MPI_SUM, comm, &req));
    BAD(NBO_ERR_BUFFER, nbo_iallreduce(MPI_IN_PLACE, MPI_IN_PLACE, 4, MPI_INT, MPI_SUM, comm, &req));
    BAD(NBO_ERR_DATATYPE, nbo_iallreduce(a, b, 4, MPI_DATATYPE_NULL, MPI_SUM, comm, &req));
    BAD(NBO_ERR_DATATYPE, nbo_allreduce_init(a, b, 1, raw, MPI_SUM, comm, &req));
    BAD(NBO_ERR_OP, nbo_iallreduce(a, b, 4, MPI_INT, MPI_OP_NULL, comm, &req));
    /* Ops MPI does not define on the type, and both MPICH 4.0 and Open
     * MPI 4.1 refuse: a bitwise op on floats, MAXLOC on a plain int.  (A
     * sum of MPI_BYTE is no test: Open MPI accepts it.) */
    BAD(NBO_ERR_OP, nbo_iallreduce(a, b, 2, MPI_FLOAT, MPI_BAND, comm, &req));
    BAD(NBO_ERR_OP, nbo_allreduce_init(a, b, 2, MPI_INT, MPI_MAXLOC, comm, &req));
    BAD(NBO_ERR_OVERLAP, nbo_iallreduce(a, a, 4, MPI_INT, MPI_SUM, comm, &req));
    BAD(NBO_ERR_COMM, nbo_iallreduce(a, b, 4, MPI_INT, MPI_SUM, NBO_COMM_NULL, &req));
    MT_EXPECT(NBO_ERR_ARG, nbo_iallreduce(a, b, 4, MPI_INT, MPI_SUM, comm, NULL));
    MPI_Type_free(&raw);
    /* A count of 0 with NULL buffers is no error. */
    MT_OK(nbo_iallreduce(NULL, NULL, 0, MPI_INT, MPI_SUM, comm, &req));
    MT_OK(nbo_wait(&req));
}

/* NBO_CHECK=1: counts that disagree across ranks, NBO_ERR_MISMATCH on
 * every rank instead of a hang; then a valid call works. */
static void checked(void)
{
    nbo_config_t cfg;
    nbo_comm_t chk;
    nbo_request_t req;
    int a[64] = {1, 2, 3, 4}, b[64]; /* 2 per rank fits up to P = 32 */
    mt_config(&cfg, NBO_ALG_AUTO);
    cfg.check = 1;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, &cfg, &chk));
    if (mt_failures())
        return;
    if (mt_size > 1 && mt_size <= 32) {
        BAD(NBO_ERR_MISMATCH, nbo_iallreduce(a, b, 3 + mt_rank % 2, MPI_INT, MPI_SUM, chk, &req));
        BAD(NBO_ERR_MISMATCH, nbo_ireduce_scatter_block(a, b, 1 + mt_rank % 2, MPI_INT, MPI_SUM, chk, &req));
    }
    MT_OK(nbo_iallreduce(a, b, 4, MPI_INT, MPI_SUM, chk, &req));
    MT_OK(nbo_wait(&req));
    if (b[3] != 4 * mt_size)
        mt_fail("checked allreduce: %d, expected %d", b[3], 4 * mt_size);
    MT_OK(nbo_comm_free(&chk));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_allreduce");
    nbo_comm_t second;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, NULL, &second));
    static const int counts[] = {0, 1, 3, 1000, 65536 + 5, 1 << 20}; /* up to 4 MiB */
    for (int a = 0; a < NALGS && !mt_failures(); a++) {
        nbo_comm_t comm;
        if (!mt_comm_for(algs[a], &comm))
            break;
        const char *name = nbo_algorithm_name(algs[a]);
        for (int i = 0; i < (int)(sizeof(counts) / sizeof(counts[0])); i++) {
            if (counts[i] > 70000 && a > 0 && algs[a] != NBO_ALG_RING &&
                algs[a] != NBO_ALG_RABENSEIFNER)
                continue; /* 4 MiB: the bandwidth algorithms and AUTO only */
            ints(comm, name, counts[i], MPI_SUM, 0, (unsigned)i);
            ints(comm, name, counts[i], MPI_SUM, 1, (unsigned)i + 100);
        }
        ints(comm, name, 999, MPI_MAX, 0, 7);
        ints(comm, name, 4097, MPI_BXOR, 1, 8);
        doubles(comm, name, 5000);
        maxloc(comm, name, 333);
        noncommutative(comm, name, 1, 0);
        noncommutative(comm, name, 20000, 0);
        noncommutative(comm, name, 77, 1);
        derived(comm, name, 1001);
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
