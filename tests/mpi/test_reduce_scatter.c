/*
 * test_reduce_scatter.c - nbo_ireduce_scatter_block and
 * nbo_reduce_scatter_block_init against MPI_Reduce_scatter_block on the
 * same input, for AUTO, recursive halving and pairwise: integers byte for
 * byte from 0 B to 4 MiB in all, in place and not; double sums within
 * |got - ref| <= 2 P eps sum|x| and identical across two runs; a
 * user-defined non-commutative op (2x2 matrix product); MPI_DOUBLE_INT
 * MAXLOC (staged); several outstanding on two communicators; a persistent
 * request started 100 times; bad input with its own codes.  Then
 * nbo_ireduce_scatter and nbo_reduce_scatter_init (blocks of any size)
 * against MPI_Reduce_scatter: irregular counts with empty blocks, sums and
 * the non-commutative product, in place and not.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

static const nbo_algorithm_t algs[] = {NBO_ALG_AUTO, NBO_ALG_RECURSIVE_HALVING,
                                       NBO_ALG_PAIRWISE};
#define NALGS (int)(sizeof(algs) / sizeof(algs[0]))

static void ints(nbo_comm_t comm, const char *alg, int count, MPI_Op op, int in_place,
                 unsigned seed)
{
    const size_t n = (size_t)count * (size_t)mt_size;
    unsigned *in = malloc(n * 4 + 4), *got = malloc(n * 4 + 4), *ref = malloc((size_t)count * 4 + 4);
    mt_fill(in, n * 4, mt_rank, 0, seed);
    MPI_Reduce_scatter_block(in, ref, count, MPI_UNSIGNED, op, MPI_COMM_WORLD);
    nbo_request_t req;
    if (in_place) {
        memcpy(got, in, n * 4);
        MT_OK(nbo_ireduce_scatter_block(MPI_IN_PLACE, got, count, MPI_UNSIGNED, op, comm, &req));
    } else {
        memset(got, 0xee, (size_t)count * 4);
        MT_OK(nbo_ireduce_scatter_block(in, got, count, MPI_UNSIGNED, op, comm, &req));
    }
    mt_complete_alternating(&req);
    char what[128];
    snprintf(what, sizeof(what), "reduce_scatter_block %s count %d%s", alg, count,
             in_place ? " in place" : "");
    mt_compare(got, ref, (size_t)count * 4, what);
    free(in); free(got); free(ref);
}

static void doubles(nbo_comm_t comm, const char *alg, int count)
{
    const size_t n = (size_t)count * (size_t)mt_size;
    double *in = malloc(n * 8), *abs_in = malloc(n * 8), *got = malloc((size_t)count * 8 + 8);
    double *again = malloc((size_t)count * 8 + 8), *ref = malloc((size_t)count * 8 + 8);
    double *sum_abs = malloc((size_t)count * 8 + 8);
    for (size_t i = 0; i < n; i++) {
        in[i] = (mt_byte(mt_rank, 0, i, 5) - 127.5) / 7.0 + 1.0 / (double)(i + 3);
        abs_in[i] = fabs(in[i]);
    }
    MPI_Reduce_scatter_block(in, ref, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce_scatter_block(abs_in, sum_abs, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    nbo_request_t req;
    MT_OK(nbo_ireduce_scatter_block(in, got, count, MPI_DOUBLE, MPI_SUM, comm, &req));
    mt_complete_alternating(&req);
    MT_OK(nbo_ireduce_scatter_block(in, again, count, MPI_DOUBLE, MPI_SUM, comm, &req));
    mt_complete_alternating(&req);
    for (int i = 0; i < count; i++)
        if (fabs(got[i] - ref[i]) > 2.0 * mt_size * DBL_EPSILON * sum_abs[i]) {
            mt_fail("reduce_scatter_block %s double [%d]: %.17g, MPI %.17g", alg, i, got[i], ref[i]);
            break;
        }
    char what[128];
    snprintf(what, sizeof(what), "reduce_scatter_block %s double sum run twice", alg);
    mt_compare(again, got, (size_t)count * 8, what);
    free(in); free(abs_in); free(got); free(again); free(ref); free(sum_abs);
}

static void maxloc(nbo_comm_t comm, const char *alg, int count)
{
    struct di { double d; int i; };
    const size_t n = (size_t)count * (size_t)mt_size;
    struct di *in = calloc(n, sizeof(*in)), *got = calloc((size_t)count + 1, sizeof(*in));
    struct di *ref = calloc((size_t)count + 1, sizeof(*in));
    for (size_t k = 0; k < n; k++) {
        in[k].d = mt_byte(mt_rank, 1, k, 9) % 17;
        in[k].i = mt_rank;
    }
    MPI_Reduce_scatter_block(in, ref, count, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
    nbo_request_t req;
    MT_OK(nbo_ireduce_scatter_block(in, got, count, MPI_DOUBLE_INT, MPI_MAXLOC, comm, &req));
    mt_complete_alternating(&req);
    for (int k = 0; k < count; k++)
        if (got[k].d != ref[k].d || got[k].i != ref[k].i) {
            mt_fail("reduce_scatter_block %s MAXLOC [%d]: (%g, %d), MPI (%g, %d)", alg, k,
                    got[k].d, got[k].i, ref[k].d, ref[k].i);
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
    const size_t n = (size_t)count * 4 * (size_t)mt_size;
    unsigned *in = malloc(n * 4 + 4), *got = malloc(n * 4 + 4), *ref = malloc(n * 4 + 4);
    for (size_t i = 0; i < n; i++)
        in[i] = mt_byte(mt_rank, 2, i, 3) % 3 + (i % 4 == (unsigned)mt_rank % 4);
    MPI_Reduce_scatter_block(in, ref, count, mat, op, MPI_COMM_WORLD);
    nbo_request_t req;
    if (in_place) {
        memcpy(got, in, n * 4);
        MT_OK(nbo_ireduce_scatter_block(MPI_IN_PLACE, got, count, mat, op, comm, &req));
    } else
        MT_OK(nbo_ireduce_scatter_block(in, got, count, mat, op, comm, &req));
    mt_complete_alternating(&req);
    char what[128];
    snprintf(what, sizeof(what), "reduce_scatter_block %s non-commutative count %d%s", alg, count,
             in_place ? " in place" : "");
    mt_compare(got, ref, (size_t)count * 16, what);
    MPI_Op_free(&op);
    MPI_Type_free(&mat);
    free(in); free(got); free(ref);
}

static void outstanding(nbo_comm_t c1, nbo_comm_t c2)
{
    enum { K = 4, N = 513 };
    const size_t n = (size_t)N * (size_t)mt_size;
    unsigned *in = malloc(K * n * 4), *got = malloc(K * N * 4), *ref = malloc(K * N * 4);
    nbo_request_t reqs[K];
    mt_fill(in, K * n * 4, mt_rank, 7, 11);
    for (int k = 0; k < K; k++)
        MPI_Reduce_scatter_block(in + k * n, ref + k * N, N, MPI_UNSIGNED, MPI_SUM, MPI_COMM_WORLD);
    for (int k = 0; k < K; k++)
        MT_OK(nbo_ireduce_scatter_block(in + k * n, got + k * N, N, MPI_UNSIGNED, MPI_SUM,
                                        k % 2 ? c2 : c1, &reqs[k]));
    MT_OK(nbo_waitall(K, reqs));
    mt_compare(got, ref, K * N * 4, "reduce_scatter_block: 4 outstanding on two communicators");
    free(in); free(got); free(ref);
}

static void persistent(nbo_comm_t comm)
{
    enum { N = 301 };
    const size_t n = (size_t)N * (size_t)mt_size;
    unsigned *in = calloc(n, 4), got[N], ref[N];
    nbo_request_t req;
    MT_OK(nbo_reduce_scatter_block_init(in, got, N, MPI_UNSIGNED, MPI_SUM, comm, &req));
    for (int it = 0; it < 100 && !mt_failures(); it++) {
        mt_fill(in, n * 4, mt_rank, 0, (unsigned)it);
        MPI_Reduce_scatter_block(in, ref, N, MPI_UNSIGNED, MPI_SUM, MPI_COMM_WORLD);
        MT_OK(nbo_start(&req));
        mt_complete_alternating(&req);
        mt_compare(got, ref, sizeof(got), "persistent reduce_scatter_block");
    }
    if (req != NBO_REQUEST_NULL)
        MT_OK(nbo_request_free(&req));
    free(in);
}

#define BAD(want, call) MT_REFUSED(&req, (want), (call))

/* Blocks of mt_count elements (some 0) of unsigned sums, or of the 2x2
 * matrix product (non-commutative), against MPI_Reduce_scatter. */
static void ints_v(nbo_comm_t comm, const char *alg, unsigned seed, int noncomm, int in_place,
                   int persistent)
{
    MPI_Datatype type = MPI_UNSIGNED;
    MPI_Op op = MPI_SUM;
    const int per = noncomm ? 4 : 1;
    if (noncomm) {
        MPI_Type_contiguous(4, MPI_UNSIGNED, &type);
        MPI_Type_commit(&type);
        MPI_Op_create(mt_op_matmul2x2, 0, &op);
    }
    int *counts = malloc(sizeof(int) * (size_t)mt_size), total = 0;
    for (int i = 0; i < mt_size; i++)
        total += counts[i] = mt_count(i, 0, seed, noncomm ? 300 : 3000, 0);
    const size_t n = (size_t)total * per, mine = (size_t)counts[mt_rank] * per;
    unsigned *in = malloc(n * 4 + 4), *got = malloc(n * 4 + 4), *ref = calloc(mine + 1, 4);
    for (size_t i = 0; i < n; i++)
        in[i] = noncomm ? mt_byte(mt_rank, 2, i, seed) % 3 + (i % 4 == (unsigned)mt_rank % 4)
                        : mt_byte(mt_rank, 2, i, seed);
    memcpy(got, in, n * 4);
    MPI_Reduce_scatter(in, ref, counts, type, op, MPI_COMM_WORLD);
    nbo_request_t req;
    const void *sb = in_place ? MPI_IN_PLACE : in;
    if (persistent) {
        MT_OK(nbo_reduce_scatter_init(sb, got, counts, type, op, comm, &req));
        for (int it = 0; it < 3 && req != NBO_REQUEST_NULL; it++) {
            if (in_place)
                memcpy(got, in, n * 4);
            MT_OK(nbo_start(&req));
            mt_complete_alternating(&req);
            mt_compare(got, ref, mine * 4, "persistent reduce_scatter");
        }
        if (req != NBO_REQUEST_NULL)
            MT_OK(nbo_request_free(&req));
    } else {
        MT_OK(nbo_ireduce_scatter(sb, got, counts, type, op, comm, &req));
        mt_complete_alternating(&req);
    }
    char what[128];
    snprintf(what, sizeof(what), "reduce_scatter %s %d elements%s%s", alg, total,
             noncomm ? " non-commutative" : "", in_place ? " in place" : "");
    mt_compare(got, ref, mine * 4, what);
    if (noncomm) {
        MPI_Op_free(&op);
        MPI_Type_free(&type);
    }
    free(counts); free(in); free(got); free(ref);
}

static void bad_input(nbo_comm_t comm)
{
    nbo_request_t req;
    int *a = calloc(4 * (size_t)mt_size, sizeof(int)), b[4] = {0};
    BAD(NBO_ERR_COUNT, nbo_ireduce_scatter_block(a, b, -1, MPI_INT, MPI_SUM, comm, &req));
    BAD(NBO_ERR_BUFFER, nbo_ireduce_scatter_block(NULL, b, 4, MPI_INT, MPI_SUM, comm, &req));
    BAD(NBO_ERR_BUFFER, nbo_reduce_scatter_block_init(a, NULL, 4, MPI_INT, MPI_SUM, comm, &req));
    BAD(NBO_ERR_DATATYPE, nbo_ireduce_scatter_block(a, b, 4, MPI_DATATYPE_NULL, MPI_SUM, comm, &req));
    BAD(NBO_ERR_OP, nbo_ireduce_scatter_block(a, b, 4, MPI_INT, MPI_OP_NULL, comm, &req));
    BAD(NBO_ERR_OP, nbo_reduce_scatter_block_init(a, b, 1, MPI_DOUBLE, MPI_BXOR, comm, &req));
    BAD(NBO_ERR_ARG, nbo_ireduce_scatter(a, b, NULL, MPI_INT, MPI_SUM, comm, &req));
    int *neg = calloc((size_t)mt_size, sizeof(int));
    neg[mt_size - 1] = -1;
    BAD(NBO_ERR_COUNT, nbo_reduce_scatter_init(a, b, neg, MPI_INT, MPI_SUM, comm, &req));
    neg[mt_size - 1] = 1;
    BAD(NBO_ERR_OP, nbo_ireduce_scatter(a, b, neg, MPI_INT, MPI_OP_NULL, comm, &req));
    free(neg);
    free(a);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_reduce_scatter");
    nbo_comm_t second;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, NULL, &second));
    /* Per-rank blocks: 4 MiB in all for the largest at P = 8. */
    static const int counts[] = {0, 1, 5, 1000, 131072};
    for (int a = 0; a < NALGS && !mt_failures(); a++) {
        nbo_comm_t comm;
        if (!mt_comm_for(algs[a], &comm))
            break;
        const char *name = nbo_algorithm_name(algs[a]);
        for (int i = 0; i < (int)(sizeof(counts) / sizeof(counts[0])); i++) {
            ints(comm, name, counts[i], MPI_SUM, 0, (unsigned)i);
            ints(comm, name, counts[i], MPI_SUM, 1, (unsigned)i + 50);
        }
        ints(comm, name, 777, MPI_MAX, 0, 3);
        doubles(comm, name, 2001);
        maxloc(comm, name, 129);
        noncommutative(comm, name, 1, 0);
        noncommutative(comm, name, 3000, 0);
        noncommutative(comm, name, 33, 1);
        for (int k = 0; a == 0 && k < 4; k++) /* one algorithm: AUTO's */
            ints_v(comm, name, (unsigned)k + 70, k / 2, k % 2, k == 1);
        if (a == 0) {
            outstanding(comm, second);
            persistent(comm);
            bad_input(comm);
        }
        MT_OK(nbo_comm_free(&comm));
    }
    MT_OK(nbo_comm_free(&second));
    return mt_finish();
}
