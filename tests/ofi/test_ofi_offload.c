/*
 * test_ofi_offload.c - does the provider run the task lists of the
 * all-to-all, the broadcast and the allgather(v)?
 * P ranks, thread progress, NBO_WINDOW=1 (P-1 windows): after a start the
 * application sleeps without calling libnbo, and the engine's counters
 * (ofi_stats.h, from the static library) say who ran the tasks and how
 * often the engine was polled meanwhile.  NBO_TEST_EXPECT=offload: every
 * task offloaded, none posted by the host, at most 2 polls while it
 * receives (the wake-up of the message that ends the list may come
 * first) and 5 in all besides the polls while its last sends end (as many
 * as the machine's load makes), the request done before the application
 * looks; =host: every
 * task posted by the host, polled at least once per window.  Then a
 * persistent all-to-all started 100 times, checked each time, on the path
 * expected.  Then a broadcast (a small one and a large one, from rank 1),
 * an allgather and an allgatherv, whose lists forward received data, each
 * against MPI's result, with the same bounds on host tasks and polls; a
 * persistent broadcast and allgather started together 30 times.  Then an
 * all-to-all of a strided type and one in place.  Last, where offloaded,
 * with NBO_OFI_TRIG_COUNTERS=1 (fewer window
 * counters than the allgather's windows), the allgather falls back to the
 * host path (a fallback counted, no task offloaded) and is still right,
 * while the all-to-all, which needs none, stays offloaded.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ofi_test.h"

enum { N = 65536 };

static unsigned char pattern(int src, int dst, size_t i, unsigned round)
{
    return (unsigned char)(src * 31 + dst * 7 + i * 13 + round * 101);
}

static void fill(unsigned char *s, unsigned round)
{
    for (int d = 0; d < size; d++)
        for (size_t i = 0; i < N; i++)
            s[(size_t)d * N + i] = pattern(rank, d, i, round);
}

static void verify(const char *what, const unsigned char *r, unsigned round)
{
    for (int src = 0; src < size; src++)
        for (size_t i = 0; i < N; i++)
            if (r[(size_t)src * N + i] != pattern(src, rank, i, round)) {
                FAIL("%s: block from %d differs at byte %zu", what, src, i);
                return;
            }
}

/* ------------------------------------ broadcast and allgather(v) */

enum { C_BCAST_SMALL, C_BCAST_LARGE, C_ALLGATHER, C_ALLGATHERV, C_COUNT };
static const char *const cname[] = {"bcast 16 doubles", "bcast 2^17 doubles", "allgather",
                                    "allgatherv"};
enum { M = 4096 }; /* doubles per allgather block */
static double *cs, *cr, *cref;
static int *counts, *displs;
static size_t ctotal; /* doubles of cr and cref */

static void coll_alloc(void)
{
    counts = malloc(sizeof(int) * (size_t)size);
    displs = malloc(sizeof(int) * (size_t)size);
    int d = 0;
    for (int i = 0; i < size; i++) {
        counts[i] = 100 + 37 * i; /* irregular, with gaps */
        displs[i] = d;
        d += counts[i] + 3;
    }
    ctotal = (size_t)M * size > (size_t)d ? (size_t)M * size : (size_t)d;
    if (ctotal < (1u << 17))
        ctotal = 1u << 17;
    cs = malloc(sizeof(double) * M);
    cr = malloc(sizeof(double) * ctotal);
    cref = malloc(sizeof(double) * ctotal);
}

/* Inputs for round, MPI's result in cref, then the libnbo call started. */
static int coll_start(int c, nbo_comm_t comm, nbo_request_t *req, unsigned round)
{
    const int nb = c == C_BCAST_SMALL ? 16 : 1 << 17;
    const int nv = c == C_ALLGATHERV ? counts[rank] : M;
    for (size_t i = 0; i < ctotal; i++)
        cr[i] = cref[i] = -1.0;
    switch (c) {
    case C_BCAST_SMALL:
    case C_BCAST_LARGE:
        for (int i = 0; i < nb; i++)
            cr[i] = cref[i] = rank == 1 ? i * 0.5 + round : -2.0;
        MPI_Bcast(cref, nb, MPI_DOUBLE, 1, MPI_COMM_WORLD);
        return nbo_ibcast(cr, nb, MPI_DOUBLE, 1, comm, req);
    default:
        for (int i = 0; i < nv; i++)
            cs[i] = rank * 1e6 + i + round * 0.25;
        if (c == C_ALLGATHER) {
            MPI_Allgather(cs, M, MPI_DOUBLE, cref, M, MPI_DOUBLE, MPI_COMM_WORLD);
            return nbo_iallgather(cs, M, MPI_DOUBLE, cr, M, MPI_DOUBLE, comm, req);
        }
        MPI_Allgatherv(cs, nv, MPI_DOUBLE, cref, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
        return nbo_iallgatherv(cs, nv, MPI_DOUBLE, cr, counts, displs, MPI_DOUBLE, comm, req);
    }
}

static void coll_verify(int c)
{
    if (memcmp(cr, cref, ctotal * sizeof(double)) != 0)
        FAIL("%s: data differs from MPI's", cname[c]);
}

/* One call of collective c measured as the all-to-all is: who ran its
 * tasks, how often the engine was polled while the application slept. */
static void coll_measured(int c, nbo_comm_t comm, int offload)
{
    nbo_ofi_stats_t s0, s1, s2;
    nbo_request_t req;
    MPI_Barrier(MPI_COMM_WORLD);
    nbo_ofi_stats_read(&s0);
    if (coll_start(c, comm, &req, 3) != NBO_SUCCESS) {
        FAIL("%s failed to start", cname[c]);
        return;
    }
    usleep(500000);
    nbo_ofi_stats_read(&s1);
    int flag = 0;
    nbo_test(&req, &flag);
    if (!flag && nbo_wait(&req) != NBO_SUCCESS)
        FAIL("%s failed", cname[c]);
    nbo_ofi_stats_read(&s2);
    coll_verify(c);
    ofi_test_verdict(cname[c], &s0, &s1, &s2, flag, offload, 5, 500);
}

/* A persistent broadcast and allgather started together 30 times (two
 * parts queued, the window counters reused), checked each time, on the
 * path expected. */
static void coll_persistent(nbo_comm_t comm, int offload)
{
    enum { NB = 20000 };
    double *b = malloc(sizeof(double) * NB);
    nbo_request_t pb, pa;
    if (nbo_bcast_init(b, NB, MPI_DOUBLE, 2 % size, comm, &pb) != NBO_SUCCESS ||
        nbo_allgather_init(cs, M, MPI_DOUBLE, cr, M, MPI_DOUBLE, comm, &pa) != NBO_SUCCESS) {
        FAIL("persistent bcast/allgather init failed");
        free(b);
        return;
    }
    nbo_ofi_stats_t s0, s1;
    nbo_ofi_stats_read(&s0);
    const int f0 = failures;
    for (int round = 0; round < 30 && !any_rank_failed(failures > f0); round++) {
        for (int i = 0; i < NB; i++)
            b[i] = rank == 2 % size ? i * 0.25 + round : -1.0;
        for (int i = 0; i < M; i++)
            cs[i] = rank * 1e6 + i + round;
        if (nbo_start(&pb) != NBO_SUCCESS || nbo_start(&pa) != NBO_SUCCESS ||
            nbo_wait(&pb) != NBO_SUCCESS || nbo_wait(&pa) != NBO_SUCCESS)
            FAIL("persistent bcast/allgather start %d failed", round);
        for (int i = 0; i < NB; i++)
            if (b[i] != i * 0.25 + round) {
                FAIL("persistent bcast start %d: element %d differs", round, i);
                break;
            }
        for (int r = 0; r < size; r++)
            for (int i = 0; i < M; i++)
                if (cr[(size_t)r * M + i] != r * 1e6 + i + round) {
                    FAIL("persistent allgather start %d: block %d differs", round, r);
                    r = size;
                    break;
                }
    }
    nbo_ofi_stats_read(&s1);
    const long off = s1.offload_tasks - s0.offload_tasks, host = s1.host_tasks - s0.host_tasks;
    if (offload ? (off == 0 || host != 0) : (off != 0 || host == 0))
        FAIL("persistent bcast/allgather: %ld tasks offloaded, %ld by the host", off, host);
    nbo_request_free(&pb);
    nbo_request_free(&pa);
    free(b);
}

/* A communicator with one window counter: the allgather (2 or more
 * windows) runs on the host path and is right; the all-to-all stays
 * offloaded where the provider offloads. */
static void fallback_check(const nbo_config_t *cfg, int offload)
{
    setenv("NBO_OFI_TRIG_COUNTERS", "1", 1);
    nbo_comm_t comm;
    if (nbo_comm_create(MPI_COMM_WORLD, cfg, &comm) != NBO_SUCCESS) {
        FAIL("nbo_comm_create with NBO_OFI_TRIG_COUNTERS=1 failed");
        return;
    }
    unsetenv("NBO_OFI_TRIG_COUNTERS");
    nbo_ofi_stats_t s0, s1;
    nbo_request_t req;
    for (int c = C_ALLGATHER; c <= C_ALLGATHERV; c++) {
        nbo_ofi_stats_read(&s0);
        if (coll_start(c, comm, &req, 7) != NBO_SUCCESS || nbo_wait(&req) != NBO_SUCCESS)
            FAIL("%s with one window counter failed", cname[c]);
        nbo_ofi_stats_read(&s1);
        coll_verify(c);
        const long off = s1.offload_tasks - s0.offload_tasks;
        const long host = s1.host_tasks - s0.host_tasks, fb = s1.fallbacks - s0.fallbacks;
        printf("test_ofi_offload rank %d: %s, one window counter: %ld offloaded, %ld by the "
               "host, %ld fallbacks\n", rank, cname[c], off, host, fb);
        if (off != 0 || host == 0 || (offload && fb < 1))
            FAIL("%s with one window counter: %ld offloaded, %ld by the host, %ld fallbacks",
                 cname[c], off, host, fb);
    }
    unsigned char *s = malloc((size_t)N * size), *r = malloc((size_t)N * size);
    fill(s, 9);
    nbo_ofi_stats_read(&s0);
    if (nbo_ialltoall(s, N, MPI_BYTE, r, N, MPI_BYTE, comm, &req) != NBO_SUCCESS ||
        nbo_wait(&req) != NBO_SUCCESS)
        FAIL("all-to-all with one window counter failed");
    nbo_ofi_stats_read(&s1);
    verify("all-to-all, one window counter", r, 9);
    if ((s1.offload_tasks - s0.offload_tasks != 0) != offload)
        FAIL("all-to-all with one window counter: %ld tasks offloaded",
             s1.offload_tasks - s0.offload_tasks);
    free(s);
    free(r);
    if (nbo_comm_free(&comm) != NBO_SUCCESS)
        FAIL("comm_free (one window counter)");
}

/* An all-to-all of a strided derived type (every other int sent) and
 * one in place: their packing is host work before the list and their
 * unpacking after it, so the messages between are offloaded whole, and
 * both end as MPI's own. */
static void typed_alltoalls(nbo_comm_t comm, int offload)
{
    enum { K = 4096 };
    MPI_Datatype vec, strided;
    MPI_Type_vector(K, 1, 2, MPI_INT, &vec);
    MPI_Type_create_resized(vec, 0, (MPI_Aint)(2 * K * sizeof(int)), &strided);
    MPI_Type_commit(&strided);
    int *s = calloc((size_t)2 * K * size, sizeof(int)), *r = calloc((size_t)K * size, sizeof(int));
    int *ref = calloc((size_t)K * size, sizeof(int));
    for (int i = 0; i < 2 * K * size; i++)
        s[i] = rank * 1000003 + i;
    for (int c = 0; c < 2; c++) {
        const char *what = c == 0 ? "all-to-all, strided type" : "all-to-all, in place";
        if (c == 0)
            MPI_Alltoall(s, 1, strided, ref, K, MPI_INT, MPI_COMM_WORLD);
        else {
            for (int i = 0; i < K * size; i++)
                r[i] = ref[i] = rank * 7 + i * 3;
            MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ref, K, MPI_INT, MPI_COMM_WORLD);
        }
        nbo_ofi_stats_t s0, s1, s2;
        nbo_request_t req;
        int flag = 0;
        nbo_ofi_stats_read(&s0);
        int rc = c == 0 ? nbo_ialltoall(s, 1, strided, r, K, MPI_INT, comm, &req)
                        : nbo_ialltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r, K, MPI_INT, comm, &req);
        if (rc != NBO_SUCCESS) {
            FAIL("%s failed to start: %s", what, nbo_strerror(rc));
            continue;
        }
        usleep(300000);
        nbo_ofi_stats_read(&s1);
        nbo_test(&req, &flag);
        if (!flag && nbo_wait(&req) != NBO_SUCCESS)
            FAIL("%s failed", what);
        nbo_ofi_stats_read(&s2);
        if (memcmp(r, ref, (size_t)K * size * sizeof(int)) != 0)
            FAIL("%s: data differs from MPI's", what);
        ofi_test_verdict(what, &s0, &s1, &s2, flag, offload, -1, 300);
    }
    MPI_Type_free(&vec);
    MPI_Type_free(&strided);
    free(s);
    free(r);
    free(ref);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    const int offload = ofi_test_expects_offload(), forwards = offload;
    nbo_config_t cfg;
    nbo_comm_t comm;
    int rc = ofi_test_open("test_ofi_offload", provided, "1", &cfg, &comm);
    if (rc != 0)
        return rc;
    nbo_comm_info_t info;
    nbo_comm_query(comm, &info);
    if (offload != ((info.engine_caps & NBO_CAP_HW_WAITS) != 0))
        FAIL("NBO_CAP_HW_WAITS %s (%s)", offload ? "clear" : "set", info.engine_detail);

    unsigned char *s = malloc((size_t)N * size), *r = malloc((size_t)N * size);
    nbo_request_t req;
    /* Warm-up: connections made, the thread asleep. */
    fill(s, 0);
    if (nbo_ialltoall(s, N, MPI_BYTE, r, N, MPI_BYTE, comm, &req) != NBO_SUCCESS ||
        nbo_wait(&req) != NBO_SUCCESS)
        FAIL("warm-up all-to-all failed");
    verify("warm-up", r, 0);
    MPI_Barrier(MPI_COMM_WORLD);
    usleep(100000);

    nbo_ofi_stats_t s0, s1, s2;
    fill(s, 1);
    nbo_ofi_stats_read(&s0);
    if (nbo_ialltoall(s, N, MPI_BYTE, r, N, MPI_BYTE, comm, &req) != NBO_SUCCESS)
        FAIL("all-to-all failed to start");
    usleep(500000); /* the application computes: no libnbo call */
    nbo_ofi_stats_read(&s1);
    int flag = 0;
    nbo_test(&req, &flag);
    if (!flag && nbo_wait(&req) != NBO_SUCCESS)
        FAIL("all-to-all failed");
    nbo_ofi_stats_read(&s2);
    verify("all-to-all", r, 1);
    const long tasks = 2L * (size - 1);
    const long off = s1.offload_tasks - s0.offload_tasks, host = s2.host_tasks - s0.host_tasks;
    const long polls = s1.progress_calls - s0.progress_calls;
    const long inflight = s1.inflight_polls - s0.inflight_polls, tail = s1.tail_polls - s0.tail_polls;
    printf("test_ofi_offload rank %d: %ld tasks offloaded, %ld posted by the host, %ld polls "
           "between start and completion (%ld while offloaded, %ld while its last sends ended), "
           "%ld nudges, done before the wait: %s\n",
           rank, off, host, polls, inflight, tail, s2.nudges - s0.nudges, flag ? "yes" : "no");
    if (offload) {
        if (off != tasks || host != 0)
            FAIL("offloaded %ld and host-posted %ld tasks, expected %ld and 0", off, host, tasks);
        if (inflight > 2 || polls - tail > 5)
            FAIL("the engine was polled %ld times (%ld while offloaded) for an offloaded "
                 "all-to-all", polls, inflight);
        if (!flag)
            FAIL("the offloaded all-to-all had not ended after 500 ms");
    } else {
        if (off != 0 || host != tasks)
            FAIL("offloaded %ld and host-posted %ld tasks, expected 0 and %ld", off, host, tasks);
        if (s2.progress_calls - s0.progress_calls < size - 1)
            FAIL("the engine was polled %ld times for %d windows",
                 s2.progress_calls - s0.progress_calls, size - 1);
    }

    /* Persistent: 100 starts, each checked, each on the expected path. */
    nbo_request_t p;
    if (nbo_alltoall_init(s, N, MPI_BYTE, r, N, MPI_BYTE, comm, &p) != NBO_SUCCESS)
        FAIL("persistent init failed");
    nbo_ofi_stats_read(&s0);
    const int f0 = failures;
    for (unsigned round = 2; round < 102 && !any_rank_failed(failures > f0); round++) {
        fill(s, round);
        memset(r, 0, (size_t)N * size);
        if (nbo_start(&p) != NBO_SUCCESS || nbo_wait(&p) != NBO_SUCCESS)
            FAIL("persistent start %u failed", round);
        verify("persistent all-to-all", r, round);
    }
    nbo_ofi_stats_read(&s1);
    if ((s1.offload_tasks - s0.offload_tasks) != (offload ? 100 * tasks : 0))
        FAIL("persistent: %ld tasks offloaded over 100 starts", s1.offload_tasks - s0.offload_tasks);
    nbo_request_free(&p);
    free(s);
    free(r);

    coll_alloc();
    for (int c = 0; c < C_COUNT; c++) {
        /* Warm-up: the list compiled, then measured. */
        if (coll_start(c, comm, &req, 1) != NBO_SUCCESS || nbo_wait(&req) != NBO_SUCCESS)
            FAIL("warm-up %s failed", cname[c]);
        coll_verify(c);
        coll_measured(c, comm, forwards);
    }
    coll_persistent(comm, forwards);
    typed_alltoalls(comm, offload);
    if (nbo_comm_free(&comm) != NBO_SUCCESS)
        FAIL("comm_free");
    if (forwards)
        fallback_check(&cfg, forwards);
    free(cs);
    free(cr);
    free(cref);
    free(counts);
    free(displs);
    return ofi_test_finish(offload, info.engine_detail);
}
