/*
 * nbo_test.h - small helpers shared by the MPI test programs that check
 * progress and reliability (tests/progress, tests/reliability, tests/ucx).
 */
#ifndef NBO_TEST_H
#define NBO_TEST_H

#include <nbo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Monotonic seconds. */
static inline double nbo_test_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU seconds used by the whole process (all its threads). */
static inline double nbo_test_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Create an nbo communicator on MPI_COMM_WORLD from the NBO_* environment,
 * with `mode` forced unless it is NBO_PROGRESS_AUTO.  When the engine asked
 * for is not usable here, rank 0 says SKIP, MPI is finalised and the
 * process exits 77 (meson's SKIP); any other error aborts the job. */
static inline nbo_comm_t nbo_test_comm(nbo_progress_mode_t mode, int window,
                                       nbo_algorithm_t alg)
{
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    int rc = nbo_config_from_env(&cfg);
    if (mode != NBO_PROGRESS_AUTO)
        cfg.progress = mode;
    if (window > 0)
        cfg.window = window;
    if (alg != NBO_ALG_AUTO)
        cfg.algorithm = alg;
    nbo_comm_t comm = NBO_COMM_NULL;
    if (rc == NBO_SUCCESS)
        rc = nbo_comm_create(MPI_COMM_WORLD, &cfg, &comm);
    if (rc == NBO_ERR_ENGINE) {
        if (me == 0)
            printf("SKIP: engine %s not usable here\n", getenv("NBO_ENGINE"));
        MPI_Finalize();
        exit(77);
    }
    if (rc != NBO_SUCCESS) {
        fprintf(stderr, "rank %d: nbo_comm_create: %s\n", me, nbo_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return comm;
}

/* One all-to-all of 4 KiB per peer on comm, waited for; *data_ok: every
 * byte arrived right.  Returns its result. */
static inline int nbo_test_alltoall_once(nbo_comm_t comm, int *data_ok)
{
    int P, me;
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    enum { N = 4096 };
    char *s = malloc((size_t)N * P), *r = calloc((size_t)N, (size_t)P);
    for (int j = 0; j < P; j++)
        memset(s + (size_t)j * N, 'a' + (me * 7 + j) % 26, N);
    nbo_request_t req;
    int rc = nbo_ialltoall(s, N, MPI_BYTE, r, N, MPI_BYTE, comm, &req);
    if (rc == NBO_SUCCESS)
        rc = nbo_wait(&req);
    *data_ok = rc == NBO_SUCCESS;
    for (int j = 0; j < P && rc == NBO_SUCCESS; j++)
        for (int k = 0; k < N; k++)
            if (r[(size_t)j * N + k] != 'a' + (j * 7 + me) % 26)
                *data_ok = 0;
    free(s);
    free(r);
    return rc;
}

#endif
