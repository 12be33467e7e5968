/*
 * test_rooted.c - the barrier, the rooted collectives and the scans
 * against MPI's own on the same input; gather and scatter for AUTO,
 * binomial and linear, the others (one algorithm each) under AUTO:
 *   - nbo_ibarrier and nbo_barrier_init: no rank leaves before the last
 *     one (late in turn) has entered, by one clock where every rank is on
 *     one host;
 *   - nbo_ireduce against MPI_Reduce from every root: integer sums byte
 *     for byte, 0 to 70000 elements, in place at the root, under AUTO and
 *     Rabenseifner (above NBO_REDUCE_LARGE AUTO's choice too); a
 *     non-commutative user op (2x2 matrix product); MPI_DOUBLE_INT
 *     MAXLOC and a derived type with a user op (staged, holes kept); the
 *     receive buffer NULL off the root;
 *   - nbo_igather(v) and nbo_iscatter(v) against MPI_Gather(v) and
 *     MPI_Scatter(v) from every root: blocks of 0 B to 20 KB (both sides
 *     of NBO_GATHER_SMALL), in place at the root, a derived (vector) type
 *     on the root's side whose holes stay untouched, irregular counts with
 *     gaps for the v-forms;
 *   - nbo_iscan and nbo_iexscan against MPI_Scan and MPI_Exscan: sums and
 *     the non-commutative product, in place and not (rank 0's exscan
 *     result is undefined: not compared);
 *   - persistent requests started 20 times on changing input;
 *   - bad input with its own code, and under NBO_CHECK roots or counts
 *     that disagree across ranks (NBO_ERR_MISMATCH).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpitest.h"

static const nbo_algorithm_t algs[] = {NBO_ALG_AUTO, NBO_ALG_BINOMIAL, NBO_ALG_LINEAR,
                                       NBO_ALG_RABENSEIFNER};
#define NALGS (int)(sizeof(algs) / sizeof(algs[0]))

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* 1 when every rank runs on this host (one monotonic clock). */
static int one_host(void)
{
    char name[MPI_MAX_PROCESSOR_NAME] = {0}, *all = calloc((size_t)mt_size, sizeof(name));
    int len, same = 1;
    MPI_Get_processor_name(name, &len);
    MPI_Allgather(name, sizeof(name), MPI_CHAR, all, sizeof(name), MPI_CHAR, MPI_COMM_WORLD);
    for (int i = 0; i < mt_size; i++)
        same &= strcmp(all + (size_t)i * sizeof(name), name) == 0;
    free(all);
    return same;
}

/* Rank `late` enters 20 ms after the others: every rank must leave after
 * every rank entered. */
static void barrier_round(nbo_request_t *req, int persistent, nbo_comm_t comm, int late,
                          int timed)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank == late) {
        struct timespec d = {0, 20 * 1000 * 1000};
        nanosleep(&d, NULL);
    }
    double t[2] = {now(), 0}, span[2];
    if (persistent)
        MT_OK(nbo_start(req));
    else
        MT_OK(nbo_ibarrier(comm, req));
    mt_complete_alternating(req);
    t[1] = -now();
    /* span[0]: the last entry; -span[1]: the first exit. */
    MPI_Allreduce(t, span, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (timed && -span[1] < span[0])
        mt_fail("barrier%s: a rank left %.6f s before rank %d entered",
                persistent ? " (persistent)" : "", span[0] + span[1], late);
}

static void barrier(nbo_comm_t comm)
{
    const int timed = one_host();
    nbo_request_t req;
    for (int it = 0; it < 4; it++)
        barrier_round(&req, 0, comm, (it * 5 + 1) % mt_size, timed);
    MT_OK(nbo_barrier_init(comm, &req));
    for (int it = 0; it < 4 && !mt_failures(); it++)
        barrier_round(&req, 1, comm, (it * 3 + 2) % mt_size, timed);
    if (req != NBO_REQUEST_NULL)
        MT_OK(nbo_request_free(&req));
    /* Many in a row, each completed before the next. */
    for (int it = 0; it < 200; it++) {
        MT_OK(nbo_ibarrier(comm, &req));
        MT_OK(nbo_wait(&req));
    }
}

/* ------------------------------------------------------------------ reduce */

static void reduce_ints(nbo_comm_t comm, const char *alg, int count, int root, int in_place,
                        unsigned seed)
{
    unsigned *in = malloc((size_t)count * 4 + 4), *got = malloc((size_t)count * 4 + 4);
    unsigned *ref = calloc((size_t)count + 1, 4);
    mt_fill(in, (size_t)count * 4, mt_rank, 0, seed);
    MPI_Reduce(in, ref, count, MPI_UNSIGNED, MPI_SUM, root, MPI_COMM_WORLD);
    memcpy(got, in, (size_t)count * 4);
    nbo_request_t req;
    const int ip = in_place && mt_rank == root;
    MT_OK(nbo_ireduce(ip ? MPI_IN_PLACE : in, mt_rank == root ? got : NULL, count,
                      MPI_UNSIGNED, MPI_SUM, root, comm, &req));
    mt_complete_alternating(&req);
    char what[128];
    snprintf(what, sizeof(what), "reduce %s count %d to %d%s", alg, count, root,
             ip ? " in place" : "");
    if (mt_rank == root)
        mt_compare(got, ref, (size_t)count * 4, what);
    free(in); free(got); free(ref);
}

static void reduce_noncommutative(nbo_comm_t comm, const char *alg, int count, int root,
                                  int in_place)
{
    MPI_Datatype mat;
    MPI_Op op;
    MPI_Type_contiguous(4, MPI_UNSIGNED, &mat);
    MPI_Type_commit(&mat);
    MPI_Op_create(mt_op_matmul2x2, 0, &op);
    const size_t n = (size_t)count * 4;
    unsigned *in = malloc(n * 4 + 4), *got = malloc(n * 4 + 4), *ref = calloc(n + 1, 4);
    for (size_t i = 0; i < n; i++)
        in[i] = mt_byte(mt_rank, 2, i, 3) % 3 + (i % 4 == (unsigned)mt_rank % 4);
    MPI_Reduce(in, ref, count, mat, op, root, MPI_COMM_WORLD);
    memcpy(got, in, n * 4);
    nbo_request_t req;
    const int ip = in_place && mt_rank == root;
    MT_OK(nbo_ireduce(ip ? MPI_IN_PLACE : in, got, count, mat, op, root, comm, &req));
    MPI_Type_free(&mat); /* libnbo keeps its own */
    mt_complete_alternating(&req);
    char what[128];
    snprintf(what, sizeof(what), "reduce %s non-commutative matmul count %d to %d%s", alg,
             count, root, ip ? " in place" : "");
    if (mt_rank == root)
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

/* Staged types: MPI_DOUBLE_INT's MAXLOC, a vector with a user op. */
static void reduce_staged(nbo_comm_t comm, const char *alg, int count, int root)
{
    struct di { double d; int i; } *in = calloc((size_t)count, sizeof(*in));
    struct di *got = calloc((size_t)count, sizeof(*in)), *ref = calloc((size_t)count, sizeof(*in));
    for (int k = 0; k < count; k++) {
        in[k].d = mt_byte(mt_rank, 1, (size_t)k, 9) % 17;
        in[k].i = mt_rank;
    }
    MPI_Reduce(in, ref, count, MPI_DOUBLE_INT, MPI_MAXLOC, root, MPI_COMM_WORLD);
    nbo_request_t req;
    MT_OK(nbo_ireduce(in, got, count, MPI_DOUBLE_INT, MPI_MAXLOC, root, comm, &req));
    mt_complete_alternating(&req);
    for (int k = 0; mt_rank == root && k < count; k++)
        if (got[k].d != ref[k].d || got[k].i != ref[k].i) {
            mt_fail("reduce %s MAXLOC [%d]: (%g, %d), MPI (%g, %d)", alg, k, got[k].d,
                    got[k].i, ref[k].d, ref[k].i);
            break;
        }
    free(in); free(got); free(ref);

    MPI_Datatype vec;
    MPI_Op op;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Op_create(vecsum, 1, &op);
    const size_t n = (size_t)count * 3;
    int *vin = calloc(n + 1, 4), *vgot = malloc(n * 4 + 4), *vref = malloc(n * 4 + 4);
    for (size_t i = 0; i < n; i++)
        vin[i] = (int)mt_byte(mt_rank, 3, i, 4);
    memset(vref, 0x5a, n * 4);
    memset(vgot, 0x5a, n * 4); /* the holes must keep this */
    MPI_Reduce(vin, vref, count, vec, op, root, MPI_COMM_WORLD);
    MT_OK(nbo_ireduce(vin, vgot, count, vec, op, root, comm, &req));
    mt_complete_alternating(&req);
    char what[128];
    snprintf(what, sizeof(what), "reduce %s derived vector type, holes kept, to %d", alg, root);
    if (mt_rank == root)
        mt_compare(vgot, vref, n * 4, what);
    MPI_Op_free(&op);
    MPI_Type_free(&vec);
    free(vin); free(vgot); free(vref);
}

/* ------------------------------------------------------------------- scan */

/* Scan (ex = 0) or exscan against MPI's: unsigned sums, or the
 * non-commutative matrix product; rank 0's exscan result is undefined. */
static void scan(nbo_comm_t comm, const char *alg, int ex, int count, int noncomm,
                 int in_place, unsigned seed)
{
    MPI_Datatype type = MPI_UNSIGNED;
    MPI_Op op = MPI_SUM;
    if (noncomm) {
        MPI_Type_contiguous(4, MPI_UNSIGNED, &type);
        MPI_Type_commit(&type);
        MPI_Op_create(mt_op_matmul2x2, 0, &op);
    }
    const size_t n = (size_t)count * (noncomm ? 4 : 1);
    unsigned *in = malloc(n * 4 + 4), *got = malloc(n * 4 + 4), *ref = calloc(n + 1, 4);
    for (size_t i = 0; i < n; i++)
        in[i] = noncomm ? mt_byte(mt_rank, 2, i, seed) % 3 + (i % 4 == (unsigned)mt_rank % 4)
                        : mt_byte(mt_rank, 2, i, seed);
    memcpy(got, in, n * 4);
    if (ex)
        MPI_Exscan(in, ref, count, type, op, MPI_COMM_WORLD);
    else
        MPI_Scan(in, ref, count, type, op, MPI_COMM_WORLD);
    nbo_request_t req;
    const void *sb = in_place ? MPI_IN_PLACE : in;
    if (ex)
        MT_OK(nbo_iexscan(sb, got, count, type, op, comm, &req));
    else
        MT_OK(nbo_iscan(sb, got, count, type, op, comm, &req));
    mt_complete_alternating(&req);
    char what[128];
    snprintf(what, sizeof(what), "%s %s count %d%s%s", ex ? "exscan" : "scan", alg, count,
             noncomm ? " non-commutative" : "", in_place ? " in place" : "");
    if (!ex || mt_rank > 0)
        mt_compare(got, ref, n * 4, what);
    if (noncomm) {
        MPI_Op_free(&op);
        MPI_Type_free(&type);
    }
    free(in); free(got); free(ref);
}

/* ------------------------------------------------------- gather, scatter */

/* Bytes: n per rank, MPI_BYTE on both sides. */
static void gather_bytes(nbo_comm_t comm, const char *alg, int n, int root, int in_place)
{
    const size_t total = (size_t)n * (size_t)mt_size;
    unsigned char *in = malloc((size_t)n + 1), *got = malloc(total + 1), *ref = malloc(total + 1);
    mt_fill(in, (size_t)n, mt_rank, root, (unsigned)n);
    memset(got, 0x5a, total);
    memset(ref, 0x5a, total);
    MPI_Gather(in, n, MPI_BYTE, ref, n, MPI_BYTE, root, MPI_COMM_WORLD);
    const int ip = in_place && mt_rank == root;
    if (ip)
        memcpy(got + (size_t)root * (size_t)n, in, (size_t)n);
    nbo_request_t req;
    MT_OK(nbo_igather(ip ? MPI_IN_PLACE : in, n, MPI_BYTE, got, n, MPI_BYTE, root, comm, &req));
    mt_complete_alternating(&req);
    char what[128];
    snprintf(what, sizeof(what), "gather %s %d B from %d%s", alg, n, root, ip ? " in place" : "");
    if (mt_rank == root)
        mt_compare(got, ref, total, what);
    free(in); free(got); free(ref);
}

static void scatter_bytes(nbo_comm_t comm, const char *alg, int n, int root, int in_place)
{
    const size_t total = (size_t)n * (size_t)mt_size;
    unsigned char *in = malloc(total + 1), *got = malloc((size_t)n + 1), *ref = malloc((size_t)n + 1);
    mt_fill(in, total, mt_rank, root, (unsigned)n + 1);
    memset(got, 0x5a, (size_t)n);
    memset(ref, 0x5a, (size_t)n);
    MPI_Scatter(in, n, MPI_BYTE, ref, n, MPI_BYTE, root, MPI_COMM_WORLD);
    const int ip = in_place && mt_rank == root;
    nbo_request_t req;
    MT_OK(nbo_iscatter(in, n, MPI_BYTE, ip ? MPI_IN_PLACE : got, n, MPI_BYTE, root, comm, &req));
    mt_complete_alternating(&req);
    char what[128];
    snprintf(what, sizeof(what), "scatter %s %d B from %d%s", alg, n, root, ip ? " in place" : "");
    if (ip) { /* the root's input stays as it was */
        unsigned char *again = malloc(total + 1);
        mt_fill(again, total, mt_rank, root, (unsigned)n + 1);
        mt_compare(in, again, total, what);
        free(again);
    } else {
        mt_compare(got, ref, (size_t)n, what);
    }
    free(in); free(got); free(ref);
}

/* The root's side as a vector type (6 shorts of data in 8), the others'
 * as 6 * count contiguous shorts: the holes keep their bytes. */
static void rooted_derived(nbo_comm_t comm, const char *alg, int count, int root)
{
    MPI_Datatype vec;
    MPI_Type_vector(3, 2, 3, MPI_SHORT, &vec);
    MPI_Type_commit(&vec);
    const size_t own = (size_t)count * 12, all = (size_t)count * 16 * (size_t)mt_size + 8;
    unsigned char *in = malloc(own + 1), *got = malloc(all), *ref = malloc(all);
    mt_fill(in, own, mt_rank, 9, 4);
    memset(got, 0x5a, all);
    memset(ref, 0x5a, all);
    MPI_Gather(in, 6 * count, MPI_SHORT, ref, count, vec, root, MPI_COMM_WORLD);
    nbo_request_t req;
    MT_OK(nbo_igather(in, 6 * count, MPI_SHORT, got, count, vec, root, comm, &req));
    mt_complete_alternating(&req);
    char what[128];
    snprintf(what, sizeof(what), "gather %s into a vector type, %d per rank, to %d", alg, count,
             root);
    if (mt_rank == root)
        mt_compare(got, ref, all, what);
    /* Back: the vector-typed blocks scattered into contiguous shorts. */
    unsigned char *back = malloc(own + 1), *bref = malloc(own + 1);
    memset(back, 0x5a, own);
    memset(bref, 0x5a, own);
    MPI_Scatter(ref, count, vec, bref, 6 * count, MPI_SHORT, root, MPI_COMM_WORLD);
    MT_OK(nbo_iscatter(got, count, vec, back, 6 * count, MPI_SHORT, root, comm, &req));
    MPI_Type_free(&vec); /* libnbo keeps its own */
    mt_complete_alternating(&req);
    snprintf(what, sizeof(what), "scatter %s from a vector type, %d per rank, from %d", alg,
             count, root);
    mt_compare(back, bref, own, what);
    mt_compare(back, in, own, what);
    free(in); free(got); free(ref); free(back); free(bref);
}

/* Irregular counts (ints), the root's blocks placed with gaps. */
static void rooted_v(nbo_comm_t comm, const char *alg, int root, int in_place, unsigned seed)
{
    const int P = mt_size;
    int *counts = malloc(sizeof(int) * (size_t)P), *displs = malloc(sizeof(int) * (size_t)P);
    for (int i = 0; i < P; i++)
        counts[i] = mt_count(i, root, seed, 3000, 0);
    const int len = mt_layout(P, counts, 5, seed, displs), mine = counts[mt_rank];
    int *own = calloc((size_t)mine + 1, 4), *big = malloc((size_t)len * 4), *ref = malloc((size_t)len * 4);
    mt_fill(own, (size_t)mine * 4, mt_rank, root, seed);
    memset(big, 0x5a, (size_t)len * 4);
    memset(ref, 0x5a, (size_t)len * 4);
    const int ip = in_place && mt_rank == root;
    if (ip)
        memcpy(big + displs[root], own, (size_t)mine * 4);
    MPI_Gatherv(own, mine, MPI_INT, ref, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
    nbo_request_t req;
    MT_OK(nbo_igatherv(ip ? MPI_IN_PLACE : own, mine, MPI_INT, big, counts, displs, MPI_INT,
                       root, comm, &req));
    mt_complete_alternating(&req);
    char what[128];
    snprintf(what, sizeof(what), "gatherv %s to %d%s", alg, root, ip ? " in place" : "");
    if (mt_rank == root)
        mt_compare(big, ref, (size_t)len * 4, what);
    /* Scatterv of the gathered blocks gives every rank its own back. */
    int *back = calloc((size_t)mine + 1, 4);
    MT_OK(nbo_iscatterv(ref, counts, displs, MPI_INT, ip ? MPI_IN_PLACE : back, mine, MPI_INT,
                        root, comm, &req));
    mt_complete_alternating(&req);
    snprintf(what, sizeof(what), "scatterv %s from %d%s", alg, root, ip ? " in place" : "");
    if (!ip)
        mt_compare(back, own, (size_t)mine * 4, what);
    free(counts); free(displs); free(own); free(big); free(ref); free(back);
}

/* Persistent forms, 20 starts each on changing input. */
static void persistent(nbo_comm_t comm)
{
    enum { N = 333 };
    const int P = mt_size, root = P / 2;
    unsigned in[N] = {0}, got[N] = {0}, ref[N] = {0};
    unsigned *all = calloc((size_t)N * (size_t)P, 4), *allref = calloc((size_t)N * (size_t)P, 4);
    nbo_request_t red, gat, sca;
    MT_OK(nbo_reduce_init(in, got, N, MPI_UNSIGNED, MPI_SUM, root, comm, &red));
    MT_OK(nbo_gather_init(in, N, MPI_UNSIGNED, all, N, MPI_UNSIGNED, root, comm, &gat));
    MT_OK(nbo_scatter_init(allref, N, MPI_UNSIGNED, got, N, MPI_UNSIGNED, root, comm, &sca));
    if (mt_failures())
        return;
    for (int it = 0; it < 20 && !mt_failures(); it++) {
        mt_fill(in, sizeof(in), mt_rank, 0, (unsigned)it);
        MPI_Reduce(in, ref, N, MPI_UNSIGNED, MPI_SUM, root, MPI_COMM_WORLD);
        MT_OK(nbo_start(&red));
        mt_complete_alternating(&red);
        if (mt_rank == root)
            mt_compare(got, ref, sizeof(got), "persistent reduce");
        MPI_Gather(in, N, MPI_UNSIGNED, allref, N, MPI_UNSIGNED, root, MPI_COMM_WORLD);
        MT_OK(nbo_start(&gat));
        mt_complete_alternating(&gat);
        if (mt_rank == root)
            mt_compare(all, allref, (size_t)N * (size_t)P * 4, "persistent gather");
        memset(got, 0, sizeof(got));
        MT_OK(nbo_start(&sca));
        mt_complete_alternating(&sca);
        mt_compare(got, in, sizeof(got), "persistent scatter of the gathered blocks");
    }
    MT_OK(nbo_request_free(&red));
    MT_OK(nbo_request_free(&gat));
    MT_OK(nbo_request_free(&sca));
    free(all); free(allref);
}

#define BAD(want, call) MT_REFUSED(&req, (want), (call))

static void bad_input(nbo_comm_t comm)
{
    nbo_request_t req;
    const int P = mt_size, last = P - 1;
    int a[4] = {0}, *b = calloc((size_t)P * 8, sizeof(int)), counts[64] = {0}, displs[64] = {0};
    BAD(NBO_ERR_ROOT, nbo_ireduce(a, b, 4, MPI_INT, MPI_SUM, P, comm, &req));
    BAD(NBO_ERR_ROOT, nbo_reduce_init(a, b, 4, MPI_INT, MPI_SUM, -1, comm, &req));
    BAD(NBO_ERR_ROOT, nbo_igather(a, 1, MPI_INT, b, 1, MPI_INT, P, comm, &req));
    BAD(NBO_ERR_ROOT, nbo_iscatterv(b, counts, displs, MPI_INT, a, 1, MPI_INT, -2, comm, &req));
    BAD(NBO_ERR_OP, nbo_ireduce(a, b, 4, MPI_INT, MPI_OP_NULL, 0, comm, &req));
    BAD(NBO_ERR_OP, nbo_ireduce(a, b, 2, MPI_FLOAT, MPI_BAND, 0, comm, &req));
    BAD(NBO_ERR_COUNT, nbo_ireduce(a, b, -1, MPI_INT, MPI_SUM, 0, comm, &req));
    BAD(NBO_ERR_COUNT, nbo_igather(a, -1, MPI_INT, b, 1, MPI_INT, 0, comm, &req));
    BAD(NBO_ERR_COUNT, nbo_iscatter(b, -1, MPI_INT, a, 1, MPI_INT, mt_rank, comm, &req));
    BAD(NBO_ERR_DATATYPE, nbo_igather(a, 1, MPI_DATATYPE_NULL, b, 1, MPI_INT, 0, comm, &req));
    BAD(NBO_ERR_BUFFER, nbo_igather(a, 1, MPI_INT, NULL, 1, MPI_INT, mt_rank, comm, &req));
    BAD(NBO_ERR_BUFFER, nbo_ireduce(a, NULL, 4, MPI_INT, MPI_SUM, mt_rank, comm, &req));
    BAD(NBO_ERR_ARG, nbo_igatherv(a, 1, MPI_INT, b, NULL, displs, MPI_INT, mt_rank, comm, &req));
    /* The root's own block must fill its slot. */
    BAD(NBO_ERR_MISMATCH, nbo_igather(a, 2, MPI_INT, b, 3, MPI_INT, mt_rank, comm, &req));
    BAD(NBO_ERR_OVERLAP, nbo_igather(b, 1, MPI_INT, b, 1, MPI_INT, mt_rank, comm, &req));
    BAD(NBO_ERR_COMM, nbo_ibarrier(NBO_COMM_NULL, &req));
    MT_EXPECT(NBO_ERR_ARG, nbo_ibarrier(comm, NULL));
    if (P > 1) { /* MPI_IN_PLACE is the root's alone */
        const int root = mt_rank == last ? 0 : last;
        BAD(NBO_ERR_BUFFER, nbo_ireduce(MPI_IN_PLACE, b, 4, MPI_INT, MPI_SUM, root, comm, &req));
        BAD(NBO_ERR_BUFFER, nbo_igather(MPI_IN_PLACE, 1, MPI_INT, b, 1, MPI_INT, root, comm, &req));
        BAD(NBO_ERR_BUFFER, nbo_iscatter(b, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, root, comm, &req));
    }
    /* Off the root the root's side is not read: NULL and no type is fine. */
    MT_OK(nbo_igather(a, 1, MPI_INT, mt_rank == 0 ? b : NULL, mt_rank == 0 ? 1 : -7,
                      mt_rank == 0 ? MPI_INT : MPI_DATATYPE_NULL, 0, comm, &req));
    MT_OK(nbo_wait(&req));
    MT_OK(nbo_ireduce(NULL, NULL, 0, MPI_INT, MPI_SUM, 0, comm, &req));
    MT_OK(nbo_wait(&req));
    BAD(NBO_ERR_OP, nbo_iscan(a, b, 4, MPI_INT, MPI_OP_NULL, comm, &req));
    BAD(NBO_ERR_COUNT, nbo_exscan_init(a, b, -1, MPI_INT, MPI_SUM, comm, &req));
    BAD(NBO_ERR_OVERLAP, nbo_iexscan(b, b, 4, MPI_INT, MPI_SUM, comm, &req));
    free(b);
}

/* NBO_CHECK=1: roots or counts that disagree, NBO_ERR_MISMATCH on every
 * rank instead of a hang. */
static void checked(void)
{
    nbo_config_t cfg;
    nbo_comm_t chk;
    nbo_request_t req;
    int a[4] = {1, 2, 3, 4}, b[256] = {0}; /* 2 per rank up to P = 128 */
    mt_config(&cfg, NBO_ALG_AUTO);
    cfg.check = 1;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, &cfg, &chk));
    if (mt_failures())
        return;
    if (mt_size > 1 && mt_size <= 128) {
        BAD(NBO_ERR_MISMATCH, nbo_ireduce(a, b, 4, MPI_INT, MPI_SUM, mt_rank % 2, chk, &req));
        BAD(NBO_ERR_MISMATCH, nbo_igather(a, 1 + mt_rank % 2, MPI_INT, b, 1, MPI_INT, 0, chk, &req));
        BAD(NBO_ERR_MISMATCH, nbo_iscatter(b, 2, MPI_INT, a, 2 + (mt_rank == 1), MPI_INT, 0, chk, &req));
    }
    MT_OK(nbo_ibarrier(chk, &req));
    MT_OK(nbo_wait(&req));
    MT_OK(nbo_ireduce(a, b, 4, MPI_INT, MPI_SUM, 0, chk, &req));
    MT_OK(nbo_wait(&req));
    if (mt_rank == 0 && b[3] != 4 * mt_size)
        mt_fail("checked reduce: %d, expected %d", b[3], 4 * mt_size);
    MT_OK(nbo_comm_free(&chk));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_rooted");
    static const int counts[] = {0, 1, 1000, 70000};
    static const int blocks[] = {0, 1, 100, 4096, 4097, 20000};
    for (int a = 0; a < NALGS && !mt_failures(); a++) {
        nbo_comm_t comm;
        if (!mt_comm_for(algs[a], &comm))
            break;
        const char *name = nbo_algorithm_name(algs[a]);
        /* Gather and scatter have binomial and linear, reduce binomial
         * and Rabenseifner; the others one each, which every request gets:
         * they run under AUTO only. */
        const int rab = algs[a] == NBO_ALG_RABENSEIFNER;
        if (rab) {
            for (int root = 0; root < mt_size; root++)
                for (int i = 0; i < (int)(sizeof(counts) / sizeof(counts[0])); i++)
                    if (counts[i] < 5000 || root == mt_size - 1)
                        reduce_ints(comm, name, counts[i], root, i % 2 == 0, (unsigned)i + 5);
            reduce_noncommutative(comm, name, 5000, 0, 0); /* binomial: not commutative */
            reduce_staged(comm, name, 301, mt_size / 2);
            MT_OK(nbo_comm_free(&comm));
            continue;
        }
        for (int root = 0; root < mt_size; root++) {
            for (int i = 0; a == 0 && i < (int)(sizeof(counts) / sizeof(counts[0])); i++)
                if (counts[i] < 5000 || root == mt_size / 2)
                    reduce_ints(comm, name, counts[i], root, i % 2, (unsigned)i);
            for (int i = 0; i < (int)(sizeof(blocks) / sizeof(blocks[0])); i++)
                if (blocks[i] < 5000 || root == mt_size - 1) {
                    gather_bytes(comm, name, blocks[i], root, i % 2);
                    scatter_bytes(comm, name, blocks[i], root, i % 2 == 0);
                }
            if (a == 0)
                rooted_v(comm, name, root, root % 2, (unsigned)root + 3);
        }
        rooted_derived(comm, name, 1, 0);
        rooted_derived(comm, name, 700, mt_size - 1);
        if (a == 0) {
            for (int ex = 0; ex < 2; ex++)
                for (int i = 0; i < (int)(sizeof(counts) / sizeof(counts[0])); i++) {
                    scan(comm, name, ex, counts[i], 0, i % 2, (unsigned)i);
                    scan(comm, name, ex, counts[i] / 4, 1, i % 2 == 0, (unsigned)i + 9);
                }
            reduce_noncommutative(comm, name, 1, mt_size - 1, 0);
            reduce_noncommutative(comm, name, 5000, mt_size / 2, 1);
            reduce_staged(comm, name, 301, mt_size - 1);
            barrier(comm);
            persistent(comm);
            bad_input(comm);
            checked();
        }
        MT_OK(nbo_comm_free(&comm));
    }
    return mt_finish();
}
