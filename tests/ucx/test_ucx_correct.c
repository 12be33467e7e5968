/*
 * test_ucx_correct.c - the UCX engine against MPI's own all-to-all: every size
 * class UCX switches protocol at (0 B .. 1 MiB per peer: eager short,
 * eager copy, zero-copy rendezvous), persistent requests started several
 * times with new contents, 8 requests in flight at once, and alltoallv
 * with irregular counts.  Honours NBO_PROGRESS; exits 77 without UCX.
 */
#include <mpi.h>
#include <nbo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_check.h"

static void sizes(nbo_comm_t comm)
{
    static const size_t n[] = {0, 1, 8, 100, 1024, 8192, 9000, 65536, 262144, 1 << 20};
    for (size_t k = 0; k < sizeof(n) / sizeof(n[0]); k++) {
        size_t bytes = n[k] * (size_t)size;
        unsigned char *s = malloc(bytes + 1), *r = malloc(bytes + 1), *ref = malloc(bytes + 1);
        fill(s, n[k], (unsigned)k);
        memset(r, 0xA5, bytes + 1);
        MPI_Alltoall(s, (int)n[k], MPI_BYTE, ref, (int)n[k], MPI_BYTE, MPI_COMM_WORLD);
        nbo_request_t req;
        int rc = nbo_ialltoall(s, (int)n[k], MPI_BYTE, r, (int)n[k], MPI_BYTE, comm, &req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
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

/* A persistent request, started 4 times with new contents each time. */
static void persistent(nbo_comm_t comm, size_t n)
{
    size_t bytes = n * (size_t)size;
    unsigned char *s = calloc(1, bytes + 1), *r = malloc(bytes + 1), *ref = malloc(bytes + 1);
    nbo_request_t req;
    int rc = nbo_alltoall_init(s, (int)n, MPI_BYTE, r, (int)n, MPI_BYTE, comm, &req);
    if (rc != NBO_SUCCESS) {
        FAIL("alltoall_init: %s", nbo_strerror(rc));
        return;
    }
    for (unsigned round = 0; round < 4; round++) {
        fill(s, n, 100 + round);
        MPI_Alltoall(s, (int)n, MPI_BYTE, ref, (int)n, MPI_BYTE, MPI_COMM_WORLD);
        rc = nbo_start(&req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&req);
        char what[64];
        snprintf(what, sizeof(what), "persistent %zu B, start %u", n, round);
        check(what, rc, r, ref, bytes);
    }
    rc = nbo_request_free(&req);
    if (rc != NBO_SUCCESS || req != NBO_REQUEST_NULL)
        FAIL("request_free: %s", nbo_strerror(rc));
    free(s);
    free(r);
    free(ref);
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
        size_t bytes = n[k] * (size_t)size;
        s[k] = malloc(bytes);
        r[k] = malloc(bytes);
        ref[k] = malloc(bytes);
        fill(s[k], n[k], 200 + (unsigned)k);
        MPI_Alltoall(s[k], (int)n[k], MPI_BYTE, ref[k], (int)n[k], MPI_BYTE, MPI_COMM_WORLD);
    }
    for (int k = 0; k < K; k++) {
        int rc = nbo_ialltoall(s[k], (int)n[k], MPI_BYTE, r[k], (int)n[k], MPI_BYTE, comm, &req[k]);
        if (rc != NBO_SUCCESS) {
            FAIL("concurrent ialltoall %d: %s", k, nbo_strerror(rc));
            req[k] = NBO_REQUEST_NULL;
        }
    }
    for (int k = K - 1; k >= 0; k--) {
        if (req[k] == NBO_REQUEST_NULL)
            continue;
        char what[64];
        snprintf(what, sizeof(what), "concurrent request %d (%zu B)", k, n[k]);
        check(what, nbo_wait(&req[k]), r[k], ref[k], n[k] * (size_t)size);
    }
    for (int k = 0; k < K; k++) {
        free(s[k]);
        free(r[k]);
        free(ref[k]);
    }
}

/* Irregular counts (some zero, some large), reversed block order. */
static void alltoallv(nbo_comm_t comm, unsigned seed)
{
    int *sc = malloc(sizeof(int) * (size_t)size), *sd = malloc(sizeof(int) * (size_t)size);
    int *rc = malloc(sizeof(int) * (size_t)size), *rd = malloc(sizeof(int) * (size_t)size);
    int stot = 0, rtot = 0;
    for (int p = 0; p < size; p++) {
        unsigned hs = ((unsigned)rank * 7919u + (unsigned)p * 104729u + seed) % 7u;
        unsigned hr = ((unsigned)p * 7919u + (unsigned)rank * 104729u + seed) % 7u;
        sc[p] = hs == 0 ? 0 : (int)(hs * hs * 3000u);
        rc[p] = hr == 0 ? 0 : (int)(hr * hr * 3000u);
    }
    for (int p = size - 1; p >= 0; p--) {
        sd[p] = stot;
        stot += sc[p];
        rd[p] = rtot;
        rtot += rc[p];
    }
    unsigned char *s = malloc((size_t)stot + 1), *r = malloc((size_t)rtot + 1),
                  *ref = malloc((size_t)rtot + 1);
    for (int p = 0; p < size; p++)
        for (int i = 0; i < sc[p]; i++)
            s[sd[p] + i] = pattern(rank, p, (size_t)i, seed);
    MPI_Alltoallv(s, sc, sd, MPI_BYTE, ref, rc, rd, MPI_BYTE, MPI_COMM_WORLD);
    nbo_request_t req;
    int err = nbo_ialltoallv(s, sc, sd, MPI_BYTE, r, rc, rd, MPI_BYTE, comm, &req);
    if (err == NBO_SUCCESS)
        err = nbo_wait(&req);
    char what[64];
    snprintf(what, sizeof(what), "alltoallv seed %u", seed);
    check(what, err, r, ref, (size_t)rtot);
    free(sc); free(sd); free(rc); free(rd);
    free(s); free(r); free(ref);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    coll_check_name = "test_ucx_correct";
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    nbo_config_t cfg;
    nbo_config_init(&cfg);
    int rc = nbo_config_from_env(&cfg);
    strcpy(cfg.engine, "ucx");
    nbo_comm_t comm = NBO_COMM_NULL;
    if (rc == NBO_SUCCESS)
        rc = nbo_comm_create(MPI_COMM_WORLD, &cfg, &comm);
    if (rc == NBO_ERR_ENGINE) {
        if (rank == 0)
            printf("test_ucx_correct: UCX engine not usable here: SKIP\n");
        MPI_Finalize();
        return 77;
    }
    if (rc != NBO_SUCCESS) {
        FAIL("comm_create: %s", nbo_strerror(rc));
    } else {
        sizes(comm);
        persistent(comm, 100);
        persistent(comm, 300000); /* registered: rendezvous zero-copy */
        concurrent(comm);
        for (unsigned seed = 1; seed <= 4; seed++)
            alltoallv(comm, seed);
        rc = nbo_comm_free(&comm);
        if (rc != NBO_SUCCESS)
            FAIL("comm_free: %s", nbo_strerror(rc));
    }
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_ucx_correct P=%d progress=%s: %s (%d failures)\n", size,
               getenv("NBO_PROGRESS") ? getenv("NBO_PROGRESS") : "auto", all ? "FAIL" : "PASS", all);
    MPI_Finalize();
    return all ? 1 : 0;
}
