/*
 * test_ofi_correct.c - the OFI engine against MPI's own collectives: the
 * all-to-all from 0 B to 1 MiB per peer, alltoallv with irregular counts,
 * allgather(v), a broadcast from every root, allreduce (in place too) and
 * reduce-scatter-block, an all-to-all of a strided derived type, an
 * allreduce with a user-defined non-commutative op, 8 requests in flight
 * at once, and persistent all-to-all and allreduce requests started 100
 * times with new contents.
 * The provider comes from NBO_OFI_PROVIDER, the progress mode from
 * NBO_PROGRESS; exits 77 when the engine cannot run here.
 */
#include <mpi.h>
#include <nbo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_check.h"

static void alltoall(nbo_comm_t comm)
{
    static const size_t n[] = {0, 1, 100, 8192, 65536, 1 << 20};
    for (size_t k = 0; k < sizeof(n) / sizeof(n[0]); k++) {
        size_t bytes = n[k] * (size_t)size;
        unsigned char *s = malloc(bytes + 1), *r = malloc(bytes + 1), *ref = malloc(bytes + 1);
        fill(s, n[k], (unsigned)k);
        memset(r, 0xA5, bytes + 1);
        MPI_Alltoall(s, (int)n[k], MPI_BYTE, ref, (int)n[k], MPI_BYTE, MPI_COMM_WORLD);
        nbo_request_t req;
        int rc = finish(nbo_ialltoall(s, (int)n[k], MPI_BYTE, r, (int)n[k], MPI_BYTE, comm, &req),
                        &req);
        char what[64];
        snprintf(what, sizeof(what), "alltoall %zu B per peer", n[k]);
        check(what, rc, r, ref, bytes);
        if (r[bytes] != 0xA5)
            FAIL("%s: wrote past the receive buffer", what);
        free(s);
        free(r);
        free(ref);
    }
}

static void alltoallv(nbo_comm_t comm)
{
    int *sc = malloc(sizeof(int) * (size_t)size), *sd = malloc(sizeof(int) * (size_t)size);
    int *rc = malloc(sizeof(int) * (size_t)size), *rd = malloc(sizeof(int) * (size_t)size);
    int stot = 0, rtot = 0;
    for (int p = 0; p < size; p++) {
        unsigned hs = ((unsigned)rank * 7919u + (unsigned)p * 104729u) % 5u;
        unsigned hr = ((unsigned)p * 7919u + (unsigned)rank * 104729u) % 5u;
        sc[p] = (int)(hs * hs * 5000u); /* 0 .. 80000 */
        rc[p] = (int)(hr * hr * 5000u);
    }
    for (int p = size - 1; p >= 0; p--) { /* blocks in reverse order */
        sd[p] = stot;
        stot += sc[p];
        rd[p] = rtot;
        rtot += rc[p];
    }
    unsigned char *s = malloc((size_t)stot + 1), *r = malloc((size_t)rtot + 1),
                  *ref = malloc((size_t)rtot + 1);
    for (int i = 0; i < stot; i++)
        s[i] = pattern(rank, i % 7, (size_t)i, 300);
    MPI_Alltoallv(s, sc, sd, MPI_BYTE, ref, rc, rd, MPI_BYTE, MPI_COMM_WORLD);
    nbo_request_t req;
    int e = finish(nbo_ialltoallv(s, sc, sd, MPI_BYTE, r, rc, rd, MPI_BYTE, comm, &req), &req);
    check("alltoallv", e, r, ref, (size_t)rtot);
    free(s), free(r), free(ref), free(sc), free(sd), free(rc), free(rd);
}

static void allgather(nbo_comm_t comm)
{
    enum { N = 20000 };
    int *s = malloc(sizeof(int) * N), *r = malloc(sizeof(int) * N * (size_t)size),
        *ref = malloc(sizeof(int) * N * (size_t)size);
    int *counts = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < N; i++)
        s[i] = rank * 1000003 + i;
    MPI_Allgather(s, N, MPI_INT, ref, N, MPI_INT, MPI_COMM_WORLD);
    nbo_request_t req;
    int e = finish(nbo_iallgather(s, N, MPI_INT, r, N, MPI_INT, comm, &req), &req);
    check("allgather", e, r, ref, sizeof(int) * N * (size_t)size);
    int tot = 0;
    for (int p = 0; p < size; p++) {
        counts[p] = (p * 3779) % N;
        displs[p] = tot;
        tot += counts[p];
    }
    MPI_Allgatherv(s, counts[rank], MPI_INT, ref, counts, displs, MPI_INT, MPI_COMM_WORLD);
    e = finish(nbo_iallgatherv(s, counts[rank], MPI_INT, r, counts, displs, MPI_INT, comm, &req),
               &req);
    check("allgatherv", e, r, ref, sizeof(int) * (size_t)tot);
    free(s), free(r), free(ref), free(counts), free(displs);
}

static void bcast(nbo_comm_t comm)
{
    static const int n[] = {1, 300000};
    for (int k = 0; k < 2; k++)
        for (int root = 0; root < size; root++) {
            double *b = malloc(sizeof(double) * (size_t)n[k]),
                   *ref = malloc(sizeof(double) * (size_t)n[k]);
            for (int i = 0; i < n[k]; i++)
                b[i] = ref[i] = rank == root ? i * 0.5 + root : -1;
            MPI_Bcast(ref, n[k], MPI_DOUBLE, root, MPI_COMM_WORLD);
            nbo_request_t req;
            int e = finish(nbo_ibcast(b, n[k], MPI_DOUBLE, root, comm, &req), &req);
            char what[64];
            snprintf(what, sizeof(what), "bcast %d doubles from %d", n[k], root);
            check(what, e, b, ref, sizeof(double) * (size_t)n[k]);
            free(b), free(ref);
        }
}

/* Integer-valued doubles: the sum is exact in any order. */
static void reductions(nbo_comm_t comm)
{
    enum { N = 50000 };
    double *s = malloc(sizeof(double) * N * (size_t)size), *r = malloc(sizeof(double) * N * (size_t)size),
           *ref = malloc(sizeof(double) * N * (size_t)size);
    for (int i = 0; i < N * size; i++)
        s[i] = (double)((rank + 1) * (i % 977));
    MPI_Allreduce(s, ref, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    nbo_request_t req;
    check("allreduce sum", finish(nbo_iallreduce(s, r, N, MPI_DOUBLE, MPI_SUM, comm, &req), &req),
          r, ref, sizeof(double) * N);
    memcpy(r, s, sizeof(double) * N);
    MPI_Allreduce(s, ref, N, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    check("allreduce max in place",
          finish(nbo_iallreduce(MPI_IN_PLACE, r, N, MPI_DOUBLE, MPI_MAX, comm, &req), &req), r,
          ref, sizeof(double) * N);
    MPI_Reduce_scatter_block(s, ref, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    check("reduce_scatter_block",
          finish(nbo_ireduce_scatter_block(s, r, N, MPI_DOUBLE, MPI_SUM, comm, &req), &req), r,
          ref, sizeof(double) * N);
    free(s), free(r), free(ref);
}

/* A strided send type (every other int of the send buffer) into a
 * contiguous receive: the list packs on the host, the rest runs as usual. */
static void derived_alltoall(nbo_comm_t comm)
{
    enum { N = 3000 };
    MPI_Datatype strided;
    MPI_Type_vector(N, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    MPI_Aint lb, extent;
    MPI_Type_get_extent(strided, &lb, &extent);
    size_t per = (size_t)extent / sizeof(int) + 1; /* ints from one block to the next */
    int *s = malloc(sizeof(int) * per * (size_t)size), *r = malloc(sizeof(int) * N * (size_t)size),
        *ref = malloc(sizeof(int) * N * (size_t)size);
    MPI_Datatype blocks; /* one strided block per peer, a block apart */
    MPI_Type_create_resized(strided, 0, (MPI_Aint)(sizeof(int) * per), &blocks);
    MPI_Type_commit(&blocks);
    for (size_t i = 0; i < per * (size_t)size; i++)
        s[i] = rank * 1000003 + (int)i;
    MPI_Alltoall(s, 1, blocks, ref, N, MPI_INT, MPI_COMM_WORLD);
    nbo_request_t req;
    int e = finish(nbo_ialltoall(s, 1, blocks, r, N, MPI_INT, comm, &req), &req);
    check("alltoall of a strided type", e, r, ref, sizeof(int) * N * (size_t)size);
    MPI_Type_free(&blocks);
    MPI_Type_free(&strided);
    free(s), free(r), free(ref);
}

/* Not commutative (2x2 matrix products, mod 2^32): the host reduces in
 * rank order, as MPI does. */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    unsigned *a = in, *b = inout;
    for (int k = 0; k < *len; k++, a += 4, b += 4) {
        unsigned c0 = a[0] * b[0] + a[1] * b[2], c1 = a[0] * b[1] + a[1] * b[3];
        unsigned c2 = a[2] * b[0] + a[3] * b[2], c3 = a[2] * b[1] + a[3] * b[3];
        b[0] = c0, b[1] = c1, b[2] = c2, b[3] = c3;
    }
}

static void user_op(nbo_comm_t comm)
{
    enum { N = 500 };
    MPI_Datatype mat;
    MPI_Op op;
    MPI_Type_contiguous(4, MPI_UNSIGNED, &mat);
    MPI_Type_commit(&mat);
    MPI_Op_create(matmul, 0, &op);
    unsigned *s = malloc(sizeof(unsigned) * 4 * N), *r = malloc(sizeof(unsigned) * 4 * N),
             *ref = malloc(sizeof(unsigned) * 4 * N);
    for (int i = 0; i < 4 * N; i++)
        s[i] = (unsigned)(rank * 31 + i * 7 + 1);
    MPI_Allreduce(s, ref, N, mat, op, MPI_COMM_WORLD);
    nbo_request_t req;
    int e = finish(nbo_iallreduce(s, r, N, mat, op, comm, &req), &req);
    check("allreduce with a user-defined, non-commutative op", e, r, ref,
          sizeof(unsigned) * 4 * N);
    MPI_Op_free(&op);
    MPI_Type_free(&mat);
    free(s), free(r), free(ref);
}

/* 8 requests in flight, of different sizes, completed in reverse order. */
static void concurrent(nbo_comm_t comm)
{
    enum { K = 8 };
    unsigned char *s[K], *r[K], *ref[K];
    size_t n[K];
    nbo_request_t req[K];
    for (int k = 0; k < K; k++) {
        n[k] = (size_t)1 << (2 * k + 3); /* 8 B .. 128 KiB */
        s[k] = malloc(n[k] * (size_t)size);
        r[k] = malloc(n[k] * (size_t)size);
        ref[k] = malloc(n[k] * (size_t)size);
        fill(s[k], n[k], 200 + (unsigned)k);
        MPI_Alltoall(s[k], (int)n[k], MPI_BYTE, ref[k], (int)n[k], MPI_BYTE, MPI_COMM_WORLD);
    }
    for (int k = 0; k < K; k++)
        if (nbo_ialltoall(s[k], (int)n[k], MPI_BYTE, r[k], (int)n[k], MPI_BYTE, comm, &req[k]) !=
            NBO_SUCCESS) {
            FAIL("concurrent ialltoall %d failed to start", k);
            req[k] = NBO_REQUEST_NULL;
        }
    for (int k = K - 1; k >= 0; k--) {
        char what[64];
        snprintf(what, sizeof(what), "concurrent request %d (%zu B)", k, n[k]);
        if (req[k] != NBO_REQUEST_NULL)
            check(what, nbo_wait(&req[k]), r[k], ref[k], n[k] * (size_t)size);
        free(s[k]), free(r[k]), free(ref[k]);
    }
}

/* Persistent requests started 100 times, new contents each time. */
static void persistent(nbo_comm_t comm)
{
    enum { N = 4096, STARTS = 100 };
    size_t bytes = N * (size_t)size;
    /* Zeroed: the init calls take the buffers before the first fill. */
    unsigned char *s = calloc(1, bytes), *r = malloc(bytes), *ref = malloc(bytes);
    long *as = calloc(64, sizeof(long)), *ar = malloc(sizeof(long) * 64),
         *aref = malloc(sizeof(long) * 64);
    nbo_request_t a2a, ared;
    if (nbo_alltoall_init(s, N, MPI_BYTE, r, N, MPI_BYTE, comm, &a2a) != NBO_SUCCESS ||
        nbo_allreduce_init(as, ar, 64, MPI_LONG, MPI_SUM, comm, &ared) != NBO_SUCCESS) {
        FAIL("persistent init failed");
        return;
    }
    const int f0 = failures;
    for (unsigned round = 0; round < STARTS && !any_rank_failed(failures > f0); round++) {
        fill(s, N, 1000 + round);
        for (int i = 0; i < 64; i++)
            as[i] = (long)(rank + 1) * (long)(round + 1) * i;
        MPI_Alltoall(s, N, MPI_BYTE, ref, N, MPI_BYTE, MPI_COMM_WORLD);
        MPI_Allreduce(as, aref, 64, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
        int e1 = nbo_start(&a2a), e2 = nbo_start(&ared);
        if (e1 == NBO_SUCCESS)
            e1 = nbo_wait(&a2a);
        if (e2 == NBO_SUCCESS)
            e2 = nbo_wait(&ared);
        char what[64];
        snprintf(what, sizeof(what), "persistent alltoall, start %u", round);
        check(what, e1, r, ref, bytes);
        snprintf(what, sizeof(what), "persistent allreduce, start %u", round);
        check(what, e2, ar, aref, sizeof(long) * 64);
    }
    if (nbo_request_free(&a2a) != NBO_SUCCESS || nbo_request_free(&ared) != NBO_SUCCESS)
        FAIL("request_free");
    free(s), free(r), free(ref), free(as), free(ar), free(aref);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    coll_check_name = "test_ofi_correct";
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char detail[128];
    int avail = nbo_engine_available("ofi", detail, sizeof(detail));
    int all = avail;
    MPI_Allreduce(&avail, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (all != NBO_SUCCESS) {
        if (rank == 0)
            printf("test_ofi_correct: SKIP (ofi engine: %s)\n", detail);
        MPI_Finalize();
        return 77;
    }
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    nbo_config_from_env(&cfg);
    nbo_config_set(&cfg, "NBO_ENGINE", "ofi");
    nbo_comm_t comm;
    int rc = nbo_comm_create(MPI_COMM_WORLD, &cfg, &comm);
    if (rc != NBO_SUCCESS) {
        if (rank == 0)
            fprintf(stderr, "test_ofi_correct: nbo_comm_create: %s\n", nbo_strerror(rc));
        MPI_Finalize();
        return 1;
    }
    nbo_comm_info_t info;
    nbo_comm_query(comm, &info);
    if (strcmp(info.engine, "ofi") != 0)
        FAIL("engine %s, not ofi", info.engine);
    alltoall(comm);
    alltoallv(comm);
    allgather(comm);
    bcast(comm);
    reductions(comm);
    derived_alltoall(comm);
    user_op(comm);
    concurrent(comm);
    persistent(comm);
    rc = nbo_comm_free(&comm);
    if (rc != NBO_SUCCESS)
        FAIL("comm_free: %s", nbo_strerror(rc));
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_ofi_correct P=%d progress=%s (%s%s): %s (%d failures over all ranks)\n",
               size, info.progress == NBO_PROGRESS_THREAD ? "thread" : "inline",
               info.engine_detail, info.engine_caps & NBO_CAP_EVENT_FD ? ", event fd" : "",
               total ? "FAIL" : "PASS", total);
    MPI_Finalize();
    return total ? 1 : 0;
}
