/*
 * ofi_test.h - what the offload tests (test_ofi_offload, test_ofi_reduce)
 * share: the failure count, an ofi communicator in thread mode (SKIP where
 * the engine is not on every rank), the verdict on who ran a call's tasks,
 * and the end.  Header-only: each program includes it once.
 */
#ifndef NBO_OFI_TEST_H
#define NBO_OFI_TEST_H

#include <mpi.h>
#include <nbo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../offload/ofi/ofi_stats.h"
#include "../common/any_failed.h"

static int rank, size, failures;
static const char *ofi_test_name = "test_ofi";

#define FAIL(...)                                                              \
    do {                                                                       \
        if (failures++ < 5) {                                                  \
            fprintf(stderr, "[%s %d/%d] ", ofi_test_name, rank, size);         \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
        }                                                                      \
    } while (0)

/* The row expects the offloaded path (NBO_TEST_EXPECT=offload). */
static int ofi_test_expects_offload(void)
{
    const char *e = getenv("NBO_TEST_EXPECT");
    return e && strcmp(e, "offload") == 0;
}

/* NBO_OFI_OFFLOAD=all: float and double reductions are offloaded too. */
static inline int ofi_test_offload_all(void)
{
    const char *m = getenv("NBO_OFI_OFFLOAD");
    return m && strcmp(m, "all") == 0;
}

/* After MPI_Init_thread: an ofi communicator with a progress thread (and
 * NBO_WINDOW=window unless NULL), made from *cfg, which it fills.  0, or
 * the exit code (77: SKIP, 1) after MPI_Finalize. */
static int ofi_test_open(const char *name, int provided, const char *window, nbo_config_t *cfg,
                         nbo_comm_t *comm)
{
    ofi_test_name = name;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char detail[128];
    int avail = nbo_engine_available("ofi", detail, sizeof(detail)), all = avail;
    MPI_Allreduce(&avail, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (all != NBO_SUCCESS || provided != MPI_THREAD_MULTIPLE) {
        if (rank == 0)
            printf("%s: SKIP (ofi engine: %s)\n", name, detail);
        MPI_Finalize();
        return 77;
    }
    nbo_config_init(cfg);
    nbo_config_from_env(cfg);
    nbo_config_set(cfg, "NBO_ENGINE", "ofi");
    nbo_config_set(cfg, "NBO_PROGRESS", "thread");
    if (window)
        nbo_config_set(cfg, "NBO_WINDOW", window);
    if (nbo_comm_create(MPI_COMM_WORLD, cfg, comm) != NBO_SUCCESS) {
        fprintf(stderr, "%s: nbo_comm_create failed\n", name);
        MPI_Finalize();
        return 1;
    }
    return 0;
}

/* Who ran a call: stats before its start (s0), after the application
 * slept slept_ms (s1) and after it ended (s2); flag: it had ended by then.
 * Offloaded: tasks offloaded and none posted by the host, at most 2 polls
 * while it received (and max_polls in all, unless negative, leaving out the
 * polls after its done message while its last sends are counted: their
 * number follows the machine's load), ended in the sleep; else every task
 * posted by the host. */
static void ofi_test_verdict(const char *what, const nbo_ofi_stats_t *s0,
                             const nbo_ofi_stats_t *s1, const nbo_ofi_stats_t *s2, int flag,
                             int offload, long max_polls, int slept_ms)
{
    const long off = s2->offload_tasks - s0->offload_tasks, host = s2->host_tasks - s0->host_tasks;
    const long polls = s1->progress_calls - s0->progress_calls;
    const long inflight = s1->inflight_polls - s0->inflight_polls;
    const long tail = s1->tail_polls - s0->tail_polls;
    printf("%s rank %d: %s: %ld tasks offloaded, %ld posted by the host, %ld polls (%ld while "
           "offloaded, %ld while its last sends ended), %ld nudges, done before the "
           "wait: %s\n",
           ofi_test_name, rank, what, off, host, polls, inflight, tail,
           s2->nudges - s0->nudges, flag ? "yes" : "no");
    if (offload) {
        if (off == 0 || host != 0)
            FAIL("%s: offloaded %ld and host-posted %ld tasks, expected >0 and 0", what, off, host);
        if (inflight > 2 || (max_polls >= 0 && polls - tail > max_polls))
            FAIL("%s: the engine was polled %ld times (%ld while offloaded)", what, polls,
                 inflight);
        if (!flag)
            FAIL("%s: offloaded, not ended after %d ms", what, slept_ms);
    } else if (off != 0 || host == 0)
        FAIL("%s: offloaded %ld and host-posted %ld tasks, expected 0 and >0", what, off, host);
}

/* The verdict over every rank; the exit code, after MPI_Finalize. */
static int ofi_test_finish(int offload, const char *detail)
{
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%s P=%d expect=%s%s%s%s: %s\n", ofi_test_name, size,
               offload ? "offload" : "host", detail ? " (" : "", detail ? detail : "",
               detail ? ")" : "", total ? "FAIL" : "PASS");
    MPI_Finalize();
    return total ? 1 : 0;
}

#endif
