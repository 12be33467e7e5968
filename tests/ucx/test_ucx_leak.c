/*
 * test_ucx_leak.c - 100 UCX communicators created and freed one after another,
 * each running one all-to-all (small and rendezvous-sized alternately):
 * afterwards the process holds the descriptors it held before (the shared
 * UCP worker, its event fd and sockets are all released with the last
 * communicator) and its resident memory has not grown by more than a few
 * MiB.  A second pass keeps one communicator alive, so the worker stays and
 * only endpoints, communicator ids and registrations come and go.
 */
#include <mpi.h>
#include <nbo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resident_memory.h"

#define ROUNDS_REBUILD 20
#define ROUNDS 100
#define RSS_SLACK_KB (4 * 1024)

/* Under AddressSanitizer freed memory waits in a quarantine, so resident
 * memory grows without a leak; LeakSanitizer checks leaks there instead. */
#if defined(__SANITIZE_ADDRESS__)
#define CHECK_RSS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHECK_RSS 0
#endif
#endif
#ifndef CHECK_RSS
#define CHECK_RSS 1
#endif

static int one_round(int round, int size)
{
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    if (nbo_config_from_env(&cfg) != NBO_SUCCESS)
        return NBO_ERR_CONFIG;
    strcpy(cfg.engine, "ucx");
    nbo_comm_t comm;
    int rc = nbo_comm_create(MPI_COMM_WORLD, &cfg, &comm);
    if (rc != NBO_SUCCESS)
        return rc;
    size_t n = round % 2 ? 65536 : 64;
    char *s = malloc(n * (size_t)size), *r = malloc(n * (size_t)size);
    memset(s, round, n * (size_t)size);
    nbo_request_t req;
    rc = nbo_ialltoall(s, (int)n, MPI_BYTE, r, (int)n, MPI_BYTE, comm, &req);
    if (rc == NBO_SUCCESS)
        rc = nbo_wait(&req);
    if (rc == NBO_SUCCESS && memcmp(s, r, n * (size_t)size) != 0)
        rc = NBO_ERR_INTERNAL; /* every rank sent the byte `round` */
    int frc = nbo_comm_free(&comm);
    free(s);
    free(r);
    return rc != NBO_SUCCESS ? rc : frc;
}

int main(int argc, char **argv)
{
    resident_memory_small_pages(); /* before anything is mapped */
    int provided, rank, size, bad = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int rc = one_round(0, size); /* warm-up: MPI and UCX allocate once */
    if (rc == NBO_ERR_ENGINE) {
        if (rank == 0)
            printf("test_ucx_leak: UCX engine not usable here: SKIP\n");
        MPI_Finalize();
        return 77;
    }
    int fds0 = open_fds();
    long rss0 = resident_memory_kib();
    for (int i = 1; i <= ROUNDS_REBUILD && rc == NBO_SUCCESS; i++)
        rc = one_round(i, size);
    if (rc != NBO_SUCCESS) {
        fprintf(stderr, "[%d] pass 1: %s\n", rank, nbo_strerror(rc));
        bad = 1;
    }
    int fds1 = open_fds();
    long rss1 = resident_memory_kib();

    /* Pass 2: a communicator held open keeps the worker alive. */
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    nbo_config_from_env(&cfg); /* the same progress mode as the rounds' */
    strcpy(cfg.engine, "ucx");
    nbo_comm_t keep;
    rc = nbo_comm_create(MPI_COMM_WORLD, &cfg, &keep);
    if (rc == NBO_SUCCESS)
        rc = one_round(0, size); /* the new worker's pools fill once */
    int fds2a = open_fds();
    long rss2a = resident_memory_kib();
    int rounds = argc > 1 ? atoi(argv[1]) : ROUNDS; /* more, to see a trend */
    for (int i = 1; i <= rounds && rc == NBO_SUCCESS; i++)
        rc = one_round(i, size);
    if (rc != NBO_SUCCESS) {
        fprintf(stderr, "[%d] pass 2: %s\n", rank, nbo_strerror(rc));
        bad = 1;
    }
    int fds2b = open_fds();
    long rss2 = resident_memory_kib();
    if (keep != NBO_COMM_NULL && nbo_comm_free(&keep) != NBO_SUCCESS)
        bad = 1;

    if (fds1 != fds0 || fds2b != fds2a) {
        fprintf(stderr, "[%d] descriptors: %d before, %d after pass 1; %d -> %d in pass 2\n", rank,
                fds0, fds1, fds2a, fds2b);
        bad = 1;
    }
    if (CHECK_RSS && (rss1 - rss0 > RSS_SLACK_KB || rss2 - rss2a > RSS_SLACK_KB)) {
        fprintf(stderr, "[%d] resident memory grew: %ld -> %ld (pass 1), %ld -> %ld KiB (pass 2)\n",
                rank, rss0, rss1, rss2a, rss2);
        bad = 1;
    }
    if (rank == 0)
        printf("test_ucx_leak: fds %d -> %d, RSS %ld -> %ld KiB (pass 1); "
               "fds %d -> %d, RSS %ld -> %ld KiB (pass 2)\n",
               fds0, fds1, rss0, rss1, fds2a, fds2b, rss2a, rss2);
    int all = 0;
    MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_ucx_leak P=%d: %s\n", size, all ? "FAIL" : "PASS");
    MPI_Finalize();
    return all ? 1 : 0;
}
