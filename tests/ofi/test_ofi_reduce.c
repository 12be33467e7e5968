/*
 * test_ofi_reduce.c - does the provider run a reduce-scatter-block and an
 * allreduce with triggered atomics?  P ranks, thread progress.  MPI_SUM,
 * MPI_MIN and MPI_MAX on int and double (small integers, so that sums in
 * any order are exact), blocks of several atomics each, against MPI's own
 * result.  Each call is started, the application sleeps 300 ms without
 * calling libnbo, and the engine's counters (ofi_stats.h) say who ran it:
 * NBO_TEST_EXPECT=offload: every task offloaded, none posted by the host,
 * at most 2 polls while it ran, done before the application looks (the
 * doubles only with NBO_OFI_OFFLOAD=all, else on the host path); =host:
 * every task posted by the host.  Then a persistent sum of each
 * collective (doubles with NBO_OFI_OFFLOAD=all, else ints) started 100
 * times, checked each time, on the same path.  Last, on the offloaded
 * path, a block that needs more atomics than a list may queue: the host
 * path (a fallback counted), still right.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ofi_test.h"

/* Elements per reduce-scatter block (3 int atomics, 6 double ones on
 * sockets), and of the allreduce's vector (blocks of B / P). */
enum { B = 3000 };

static const MPI_Op ops[] = {MPI_SUM, MPI_MIN, MPI_MAX};
static const char *const opname[] = {"sum", "min", "max"};

/* Element i of the block for rank d from rank src: a small integer. */
static int value(int src, int d, size_t i, unsigned round)
{
    return (int)((src * 7919u + d * 31u + i * 13u + round * 101u) % 2001u) - 1000;
}

static void fill(void *s, size_t n, int dbl, unsigned round)
{
    for (int d = 0; d < size; d++)
        for (size_t i = 0; i < n; i++) {
            const int v = value(rank, d, i, round);
            if (dbl)
                ((double *)s)[(size_t)d * n + i] = v;
            else
                ((int *)s)[(size_t)d * n + i] = v;
        }
}

/* The reference and the libnbo call (all: allreduce of B elements). */
static int call(int all, const void *s, void *r, void *ref, MPI_Datatype t, MPI_Op op,
                nbo_comm_t comm, nbo_request_t *req, int persistent)
{
    if (ref && all)
        MPI_Allreduce(s, ref, B, t, op, MPI_COMM_WORLD);
    else if (ref)
        MPI_Reduce_scatter_block(s, ref, B, t, op, MPI_COMM_WORLD);
    if (persistent)
        return all ? nbo_allreduce_init(s, r, B, t, op, comm, req)
                   : nbo_reduce_scatter_block_init(s, r, B, t, op, comm, req);
    return all ? nbo_iallreduce(s, r, B, t, op, comm, req)
               : nbo_ireduce_scatter_block(s, r, B, t, op, comm, req);
}

static const char *const cname[] = {"reduce_scatter_block", "allreduce"};

/* One call measured: start, sleep, then who ran it. */
static void measured(nbo_comm_t comm, int all, int dbl, int o, int offload)
{
    const MPI_Datatype t = dbl ? MPI_DOUBLE : MPI_INT;
    const size_t es = dbl ? sizeof(double) : sizeof(int);
    char *s = malloc(es * B * (size_t)size), *r = malloc(es * B), *ref = malloc(es * B);
    char what[64];
    snprintf(what, sizeof(what), "%s %s %s", cname[all], dbl ? "double" : "int", opname[o]);
    fill(s, B, dbl, 3);
    memset(r, 0, es * B);
    nbo_ofi_stats_t s0, s1, s2;
    nbo_request_t req;
    MPI_Barrier(MPI_COMM_WORLD);
    nbo_ofi_stats_read(&s0);
    if (call(all, s, r, ref, t, ops[o], comm, &req, 0) != NBO_SUCCESS) {
        FAIL("%s failed to start", what);
        free(s), free(r), free(ref);
        return;
    }
    usleep(300000);
    nbo_ofi_stats_read(&s1);
    int flag = 0;
    nbo_test(&req, &flag);
    if (!flag && nbo_wait(&req) != NBO_SUCCESS)
        FAIL("%s failed", what);
    nbo_ofi_stats_read(&s2);
    if (memcmp(r, ref, es * B) != 0)
        FAIL("%s: differs from MPI's", what);
    ofi_test_verdict(what, &s0, &s1, &s2, flag, offload, -1, 300);
    free(s), free(r), free(ref);
}

/* A persistent sum started 100 times, checked each time. */
static void persistent(nbo_comm_t comm, int all, int dbl, int offload)
{
    const MPI_Datatype t = dbl ? MPI_DOUBLE : MPI_INT;
    const size_t es = dbl ? sizeof(double) : sizeof(int);
    char *s = calloc((size_t)size * B, es), *r = malloc(es * B), *ref = malloc(es * B);
    nbo_request_t p;
    if (call(all, s, r, NULL, t, MPI_SUM, comm, &p, 1) != NBO_SUCCESS) {
        FAIL("persistent init failed");
        free(s), free(r), free(ref);
        return;
    }
    nbo_ofi_stats_t s0, s1;
    nbo_ofi_stats_read(&s0);
    const int f0 = failures;
    for (unsigned round = 0; round < 100 && !any_rank_failed(failures > f0); round++) {
        fill(s, B, dbl, round);
        memset(r, 0, es * B);
        if (all)
            MPI_Allreduce(s, ref, B, t, MPI_SUM, MPI_COMM_WORLD);
        else
            MPI_Reduce_scatter_block(s, ref, B, t, MPI_SUM, MPI_COMM_WORLD);
        if (nbo_start(&p) != NBO_SUCCESS || nbo_wait(&p) != NBO_SUCCESS)
            FAIL("persistent %s start %u failed", cname[all], round);
        if (memcmp(r, ref, es * B) != 0)
            FAIL("persistent %s start %u: differs from MPI's", cname[all], round);
    }
    nbo_ofi_stats_read(&s1);
    const long off = s1.offload_tasks - s0.offload_tasks, host = s1.host_tasks - s0.host_tasks;
    if (offload ? (off == 0 || host != 0) : (off != 0 || host == 0))
        FAIL("persistent %s: %ld tasks offloaded, %ld by the host over 100 starts", cname[all],
             off, host);
    nbo_request_free(&p);
    free(s), free(r), free(ref);
}

/* More atomics than a list may queue (4096 of 4 KiB, 1024 ints, each on
 * sockets; beyond half the transmit queue too): the host path, counted
 * as a fallback, and right. */
static void over_limit(nbo_comm_t comm)
{
    const size_t n = (size_t)4097 * 1024 / (size_t)(size - 1) + 1024;
    int *s = malloc(sizeof(int) * n * (size_t)size), *r = malloc(sizeof(int) * n);
    int *ref = malloc(sizeof(int) * n);
    fill(s, n, 0, 5);
    MPI_Reduce_scatter_block(s, ref, (int)n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    nbo_ofi_stats_t s0, s1;
    nbo_request_t req;
    nbo_ofi_stats_read(&s0);
    if (nbo_ireduce_scatter_block(s, r, (int)n, MPI_INT, MPI_SUM, comm, &req) != NBO_SUCCESS ||
        nbo_wait(&req) != NBO_SUCCESS)
        FAIL("over the atomics' limit: failed");
    nbo_ofi_stats_read(&s1);
    if (memcmp(r, ref, sizeof(int) * n) != 0)
        FAIL("over the atomics' limit: differs from MPI's");
    const long off = s1.offload_tasks - s0.offload_tasks, fb = s1.fallbacks - s0.fallbacks;
    printf("test_ofi_reduce rank %d: %zu ints per block: %ld offloaded, %ld fallbacks\n", rank, n,
           off, fb);
    if (off != 0 || fb < 1)
        FAIL("over the atomics' limit: %ld tasks offloaded, %ld fallbacks", off, fb);
    free(s), free(r), free(ref);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    const int offload = ofi_test_expects_offload(), floats = ofi_test_offload_all();
    nbo_config_t cfg;
    nbo_comm_t comm;
    int rc = ofi_test_open("test_ofi_reduce", provided, NULL, &cfg, &comm);
    if (rc != 0)
        return rc;
    for (int all = 0; all < 2; all++) {
        for (int dbl = 0; dbl < 2; dbl++)
            for (int o = 0; o < 3; o++)
                measured(comm, all, dbl, o, offload && (!dbl || floats));
        persistent(comm, all, floats, offload);
    }
    if (offload)
        over_limit(comm);
    if (nbo_comm_free(&comm) != NBO_SUCCESS)
        FAIL("comm_free");
    return ofi_test_finish(offload, NULL);
}
