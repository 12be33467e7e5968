/*
 * test_ofi_offload.c - does the provider run the all-to-all's task list?
 * P ranks, thread progress, NBO_WINDOW=1 (P-1 windows): after a start the
 * application sleeps without calling libnbo, and the engine's counters
 * (ofi_stats.h, from the static library) say who ran the tasks and how
 * often the engine was polled meanwhile.  NBO_TEST_EXPECT=offload: every
 * task offloaded, none posted by the host, at most 2 polls while it runs
 * (the wake-up of the message that ends the list, a poll while its last
 * sends end) and 5 in all, the request done before the application
 * looks; =host: every
 * task posted by the host, polled at least once per window.  Then a
 * persistent all-to-all started 100 times, checked each time, on the path
 * expected.
 */
#include <mpi.h>
#include <nbo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../offload/ofi/ofi_stats.h"

static int rank, size, failures;

#define FAIL(...)                                                        \
    do {                                                                 \
        if (failures++ < 5) {                                            \
            fprintf(stderr, "[test_ofi_offload %d/%d] ", rank, size);    \
            fprintf(stderr, __VA_ARGS__);                                \
            fputc('\n', stderr);                                         \
        }                                                                \
    } while (0)

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

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *expect = getenv("NBO_TEST_EXPECT");
    const int offload = expect && strcmp(expect, "offload") == 0;
    char detail[128];
    int avail = nbo_engine_available("ofi", detail, sizeof(detail)), all = avail;
    MPI_Allreduce(&avail, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (all != NBO_SUCCESS || provided != MPI_THREAD_MULTIPLE) {
        if (rank == 0)
            printf("test_ofi_offload: SKIP (ofi engine: %s)\n", detail);
        MPI_Finalize();
        return 77;
    }
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    nbo_config_from_env(&cfg);
    nbo_config_set(&cfg, "NBO_ENGINE", "ofi");
    nbo_config_set(&cfg, "NBO_PROGRESS", "thread");
    nbo_config_set(&cfg, "NBO_WINDOW", "1");
    nbo_comm_t comm;
    if (nbo_comm_create(MPI_COMM_WORLD, &cfg, &comm) != NBO_SUCCESS) {
        fprintf(stderr, "test_ofi_offload: nbo_comm_create failed\n");
        MPI_Finalize();
        return 1;
    }
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
    printf("test_ofi_offload rank %d: %ld tasks offloaded, %ld posted by the host, %ld polls "
           "between start and completion (%ld while offloaded), done before the wait: %s\n",
           rank, off, host, polls, s1.inflight_polls - s0.inflight_polls, flag ? "yes" : "no");
    if (offload) {
        if (off != tasks || host != 0)
            FAIL("offloaded %ld and host-posted %ld tasks, expected %ld and 0", off, host, tasks);
        if (s1.inflight_polls - s0.inflight_polls > 2 || polls > 5)
            FAIL("the engine was polled %ld times (%ld while offloaded) for an offloaded "
                 "all-to-all", polls, s1.inflight_polls - s0.inflight_polls);
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
    for (unsigned round = 2; round < 102 && failures == 0; round++) {
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
    if (nbo_comm_free(&comm) != NBO_SUCCESS)
        FAIL("comm_free");
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_ofi_offload P=%d expect=%s (%s): %s\n", size, offload ? "offload" : "host",
               info.engine_detail, total ? "FAIL" : "PASS");
    MPI_Finalize();
    return total ? 1 : 0;
}
