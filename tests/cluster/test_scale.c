/*
 * test_scale.c - every collective against MPI's own result, at small
 * sizes, for the cluster suite at 8-16 hosts: all-to-all(v),
 * allgather(v), bcast, allreduce and reduce-scatter-block, each as a
 * non-blocking call and as a persistent request started a few times with
 * new contents.  Small on purpose: 16 ranks share 2 cores here, so the
 * run checks results across many hosts, not throughput (the benchmarks
 * do).  Engine and progress mode from NBO_ENGINE / NBO_PROGRESS.
 */
#include <mpi.h>
#include <nbo.h>
#include <stdlib.h>

#include "coll_check.h"
#include "nbo_test.h"

static nbo_comm_t comm;
static int checks;

enum { STARTS = 3 }; /* starts of each persistent request */

static void verify(const char *coll, size_t n, int starts, int k, int rc,
                   const void *got, const void *want, size_t bytes)
{
    char what[96];
    if (starts)
        snprintf(what, sizeof(what), "%s %zu persistent, start %d", coll, n, k);
    else
        snprintf(what, sizeof(what), "%s %zu", coll, n);
    checks++;
    check(what, rc, got, want, bytes);
}

static void release(nbo_request_t *req, int starts)
{
    if (starts && *req != NBO_REQUEST_NULL) {
        int rc = nbo_request_free(req);
        if (rc != NBO_SUCCESS)
            FAIL("request_free: %s", nbo_strerror(rc));
    }
}

/* Each run_* below: starts == 0 runs the non-blocking call once; else the
 * persistent form, bound at init and started `starts` times, the send
 * contents new before each start.  n: bytes (or ints) per peer. */

static void run_alltoall(size_t n, int starts)
{
    size_t bytes = n * (size_t)size;
    unsigned char *s = calloc(1, bytes), *r = malloc(bytes), *ref = malloc(bytes);
    nbo_request_t req = NBO_REQUEST_NULL;
    int init = starts ? nbo_alltoall_init(s, (int)n, MPI_BYTE, r, (int)n, MPI_BYTE, comm, &req)
                      : NBO_SUCCESS;
    for (int k = 0; k < (starts ? starts : 1); k++) {
        fill(s, n, (unsigned)k);
        memset(r, 0xA5, bytes);
        MPI_Alltoall(s, (int)n, MPI_BYTE, ref, (int)n, MPI_BYTE, MPI_COMM_WORLD);
        int rc = init != NBO_SUCCESS ? init
                 : starts ? nbo_start(&req)
                          : nbo_ialltoall(s, (int)n, MPI_BYTE, r, (int)n, MPI_BYTE, comm, &req);
        verify("alltoall", n, starts, k, finish(rc, &req), r, ref, bytes);
    }
    release(&req, starts);
    free(s); free(r); free(ref);
}

/* Irregular counts, some zero; a rank's count toward p is p's from it. */
static int vcount(int from, int to, size_t n)
{
    return (int)((size_t)((from * 3 + to * 5) % 4) * n);
}

static void run_alltoallv(size_t n, int starts)
{
    int *sc = malloc(sizeof(int) * (size_t)size), *sd = malloc(sizeof(int) * (size_t)size);
    int *rc = malloc(sizeof(int) * (size_t)size), *rd = malloc(sizeof(int) * (size_t)size);
    int stot = 0, rtot = 0;
    for (int p = size - 1; p >= 0; p--) { /* blocks in reverse rank order */
        sc[p] = vcount(rank, p, n);
        rc[p] = vcount(p, rank, n);
        sd[p] = stot;
        rd[p] = rtot;
        stot += sc[p];
        rtot += rc[p];
    }
    unsigned char *s = calloc(1, (size_t)stot + 1), *r = malloc((size_t)rtot + 1),
                  *ref = malloc((size_t)rtot + 1);
    nbo_request_t req = NBO_REQUEST_NULL;
    int init = starts ? nbo_alltoallv_init(s, sc, sd, MPI_BYTE, r, rc, rd, MPI_BYTE, comm, &req)
                      : NBO_SUCCESS;
    for (int k = 0; k < (starts ? starts : 1); k++) {
        for (int p = 0; p < size; p++)
            for (int i = 0; i < sc[p]; i++)
                s[sd[p] + i] = pattern(rank, p, (size_t)i, 10u + (unsigned)k);
        memset(r, 0xA5, (size_t)rtot);
        MPI_Alltoallv(s, sc, sd, MPI_BYTE, ref, rc, rd, MPI_BYTE, MPI_COMM_WORLD);
        int err = init != NBO_SUCCESS ? init
                  : starts ? nbo_start(&req)
                           : nbo_ialltoallv(s, sc, sd, MPI_BYTE, r, rc, rd, MPI_BYTE, comm, &req);
        verify("alltoallv", n, starts, k, finish(err, &req), r, ref, (size_t)rtot);
    }
    release(&req, starts);
    free(sc); free(sd); free(rc); free(rd);
    free(s); free(r); free(ref);
}

static void run_allgather(size_t n, int starts)
{
    size_t bytes = n * (size_t)size;
    unsigned char *s = calloc(1, n + 1), *r = malloc(bytes), *ref = malloc(bytes);
    nbo_request_t req = NBO_REQUEST_NULL;
    int init = starts ? nbo_allgather_init(s, (int)n, MPI_BYTE, r, (int)n, MPI_BYTE, comm, &req)
                      : NBO_SUCCESS;
    for (int k = 0; k < (starts ? starts : 1); k++) {
        for (size_t i = 0; i < n; i++)
            s[i] = pattern(rank, 0, i, 20u + (unsigned)k);
        memset(r, 0xA5, bytes);
        MPI_Allgather(s, (int)n, MPI_BYTE, ref, (int)n, MPI_BYTE, MPI_COMM_WORLD);
        int rc = init != NBO_SUCCESS ? init
                 : starts ? nbo_start(&req)
                          : nbo_iallgather(s, (int)n, MPI_BYTE, r, (int)n, MPI_BYTE, comm, &req);
        verify("allgather", n, starts, k, finish(rc, &req), r, ref, bytes);
    }
    release(&req, starts);
    free(s); free(r); free(ref);
}

static void run_allgatherv(size_t n, int starts)
{
    int *cnt = malloc(sizeof(int) * (size_t)size), *dsp = malloc(sizeof(int) * (size_t)size);
    int tot = 0;
    for (int p = size - 1; p >= 0; p--) {
        cnt[p] = (int)((size_t)(p % 3) * n); /* every third rank sends nothing */
        dsp[p] = tot;
        tot += cnt[p];
    }
    unsigned char *s = calloc(1, (size_t)cnt[rank] + 1), *r = malloc((size_t)tot + 1),
                  *ref = malloc((size_t)tot + 1);
    nbo_request_t req = NBO_REQUEST_NULL;
    int init = starts ? nbo_allgatherv_init(s, cnt[rank], MPI_BYTE, r, cnt, dsp, MPI_BYTE, comm, &req)
                      : NBO_SUCCESS;
    for (int k = 0; k < (starts ? starts : 1); k++) {
        for (int i = 0; i < cnt[rank]; i++)
            s[i] = pattern(rank, 1, (size_t)i, 30u + (unsigned)k);
        memset(r, 0xA5, (size_t)tot);
        MPI_Allgatherv(s, cnt[rank], MPI_BYTE, ref, cnt, dsp, MPI_BYTE, MPI_COMM_WORLD);
        int rc = init != NBO_SUCCESS ? init
                 : starts ? nbo_start(&req)
                          : nbo_iallgatherv(s, cnt[rank], MPI_BYTE, r, cnt, dsp, MPI_BYTE, comm, &req);
        verify("allgatherv", n, starts, k, finish(rc, &req), r, ref, (size_t)tot);
    }
    release(&req, starts);
    free(cnt); free(dsp);
    free(s); free(r); free(ref);
}

/* The root is the last rank (farthest from rank 0 in a tree rooted at 0). */
static void run_bcast(size_t n, int starts)
{
    int root = size - 1;
    unsigned char *b = calloc(1, n + 1), *ref = malloc(n + 1);
    nbo_request_t req = NBO_REQUEST_NULL;
    int init = starts ? nbo_bcast_init(b, (int)n, MPI_BYTE, root, comm, &req) : NBO_SUCCESS;
    for (int k = 0; k < (starts ? starts : 1); k++) {
        for (size_t i = 0; i < n; i++)
            ref[i] = pattern(root, 2, i, 40u + (unsigned)k);
        if (rank == root)
            memcpy(b, ref, n);
        else
            memset(b, 0xA5, n);
        MPI_Bcast(ref, (int)n, MPI_BYTE, root, MPI_COMM_WORLD); /* the same data */
        int rc = init != NBO_SUCCESS ? init
                 : starts ? nbo_start(&req)
                          : nbo_ibcast(b, (int)n, MPI_BYTE, root, comm, &req);
        verify("bcast", n, starts, k, finish(rc, &req), b, ref, n);
    }
    release(&req, starts);
    free(b); free(ref);
}

/* Sums of ints: exact, so any order of reduction gives MPI's result. */
static void fill_ints(int *v, size_t count, unsigned round)
{
    for (size_t i = 0; i < count; i++)
        v[i] = (int)pattern(rank, 3, i, round) - 128;
}

static void run_allreduce(size_t n, int starts)
{
    int *s = calloc(n + 1, sizeof(int)), *r = malloc(sizeof(int) * (n + 1)),
        *ref = malloc(sizeof(int) * (n + 1));
    nbo_request_t req = NBO_REQUEST_NULL;
    int init = starts ? nbo_allreduce_init(s, r, (int)n, MPI_INT, MPI_SUM, comm, &req)
                      : NBO_SUCCESS;
    for (int k = 0; k < (starts ? starts : 1); k++) {
        fill_ints(s, n, 50u + (unsigned)k);
        memset(r, 0xA5, sizeof(int) * n);
        MPI_Allreduce(s, ref, (int)n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        int rc = init != NBO_SUCCESS ? init
                 : starts ? nbo_start(&req)
                          : nbo_iallreduce(s, r, (int)n, MPI_INT, MPI_SUM, comm, &req);
        verify("allreduce", n, starts, k, finish(rc, &req), r, ref, sizeof(int) * n);
    }
    release(&req, starts);
    free(s); free(r); free(ref);
}

static void run_reduce_scatter_block(size_t n, int starts)
{
    size_t total = n * (size_t)size;
    int *s = calloc(total + 1, sizeof(int)), *r = malloc(sizeof(int) * (n + 1)),
        *ref = malloc(sizeof(int) * (n + 1));
    nbo_request_t req = NBO_REQUEST_NULL;
    int init = starts ? nbo_reduce_scatter_block_init(s, r, (int)n, MPI_INT, MPI_SUM, comm, &req)
                      : NBO_SUCCESS;
    for (int k = 0; k < (starts ? starts : 1); k++) {
        fill_ints(s, total, 60u + (unsigned)k);
        memset(r, 0xA5, sizeof(int) * n);
        MPI_Reduce_scatter_block(s, ref, (int)n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        int rc = init != NBO_SUCCESS ? init
                 : starts ? nbo_start(&req)
                          : nbo_ireduce_scatter_block(s, r, (int)n, MPI_INT, MPI_SUM, comm, &req);
        verify("reduce_scatter_block", n, starts, k, finish(rc, &req), r, ref, sizeof(int) * n);
    }
    release(&req, starts);
    free(s); free(r); free(ref);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    coll_check_name = "test_scale";
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    comm = nbo_test_comm(NBO_PROGRESS_AUTO, 0, NBO_ALG_AUTO);

    /* Per peer: one byte, and a few KiB (several packets per peer at
     * P = 16); the persistent forms at a size between. */
    static const size_t n[] = {1, 3000};
    void (*const run[])(size_t, int) = {run_alltoall, run_alltoallv, run_allgather,
                                         run_allgatherv, run_bcast, run_allreduce,
                                         run_reduce_scatter_block};
    for (size_t c = 0; c < sizeof(run) / sizeof(run[0]); c++) {
        for (size_t k = 0; k < sizeof(n) / sizeof(n[0]); k++)
            run[c](n[k], 0);
        run[c](200, STARTS);
    }

    nbo_comm_info_t info;
    int qrc = nbo_comm_query(comm, &info);
    int rc = nbo_comm_free(&comm);
    if (rc != NBO_SUCCESS)
        FAIL("comm_free: %s", nbo_strerror(rc));
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_scale P=%d %s/%s: %s (%d checks, %d failures over all ranks)\n", size,
               qrc == NBO_SUCCESS ? info.engine : "?",
               qrc == NBO_SUCCESS ? (info.progress == NBO_PROGRESS_THREAD ? "thread" : "inline")
                                  : "?",
               all ? "FAIL" : "PASS", checks, all);
    MPI_Finalize();
    return all ? 1 : 0;
}
