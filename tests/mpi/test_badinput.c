/*
 * test_badinput.c - the bad-input list, each returning its own
 * documented code (include/nbo.h) with a real nbo_strerror message:
 * NULL buffer with a nonzero count, negative counts and displacements,
 * byte sizes that overflow, MPI_DATATYPE_NULL and uncommitted types, NULL
 * and freed communicators, starting an active persistent request, NULL
 * requests, freeing an active request; plus bad configurations and
 * mismatched own blocks, aliased buffers, and (NBO_CHECK) counts or
 * windows that disagree across ranks; the neighbourhood collectives on a
 * communicator without a topology and with bad arguments.  A failed call
 * leaves *req = NBO_REQUEST_NULL, and afterwards a valid call still works and nbo_comm_free succeeds
 * (no request left live or half-posted).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

#define N 16 /* bytes per peer in the valid calls */

static unsigned char *sbuf, *rbuf;
static int *ones, *zeros, *displs;

/* A failing call: its code, its message, and no request left behind. */
#define BAD(want, call) MT_REFUSED(&req, (want), (call))

static void buffers_counts_types(nbo_comm_t comm)
{
    nbo_request_t req;
    const int P = mt_size;
    /* NULL buffer with a nonzero count. */
    BAD(NBO_ERR_BUFFER, nbo_ialltoall(NULL, N, MPI_BYTE, rbuf, N, MPI_BYTE, comm, &req));
    BAD(NBO_ERR_BUFFER, nbo_ialltoall(sbuf, N, MPI_BYTE, NULL, N, MPI_BYTE, comm, &req));
    BAD(NBO_ERR_BUFFER, nbo_alltoall_init(NULL, N, MPI_BYTE, rbuf, N, MPI_BYTE, comm, &req));
    BAD(NBO_ERR_BUFFER, nbo_ialltoallv(NULL, ones, displs, MPI_BYTE, rbuf, ones, displs, MPI_BYTE,
                                       comm, &req));
    BAD(NBO_ERR_BUFFER, nbo_alltoallv_init(sbuf, ones, displs, MPI_BYTE, NULL, ones, displs,
                                           MPI_BYTE, comm, &req));
    BAD(NBO_ERR_BUFFER, nbo_ialltoall(MPI_IN_PLACE, N, MPI_BYTE, MPI_IN_PLACE, N, MPI_BYTE, comm,
                                      &req));

    /* Negative counts and displacements. */
    BAD(NBO_ERR_COUNT, nbo_ialltoall(sbuf, -1, MPI_BYTE, rbuf, N, MPI_BYTE, comm, &req));
    BAD(NBO_ERR_COUNT, nbo_ialltoall(sbuf, N, MPI_BYTE, rbuf, -1, MPI_BYTE, comm, &req));
    BAD(NBO_ERR_COUNT, nbo_alltoall_init(sbuf, N, MPI_BYTE, rbuf, INT_MIN, MPI_BYTE, comm, &req));
    int *neg = malloc(sizeof(int) * (size_t)P);
    memcpy(neg, ones, sizeof(int) * (size_t)P);
    neg[P - 1] = -1;
    BAD(NBO_ERR_COUNT, nbo_ialltoallv(sbuf, neg, displs, MPI_BYTE, rbuf, ones, displs, MPI_BYTE,
                                      comm, &req));
    BAD(NBO_ERR_COUNT, nbo_ialltoallv(sbuf, ones, displs, MPI_BYTE, rbuf, neg, displs, MPI_BYTE,
                                      comm, &req));
    BAD(NBO_ERR_COUNT, nbo_ialltoallv(sbuf, ones, neg, MPI_BYTE, rbuf, ones, displs, MPI_BYTE,
                                      comm, &req));
    BAD(NBO_ERR_COUNT, nbo_alltoallv_init(sbuf, ones, displs, MPI_BYTE, rbuf, ones, neg, MPI_BYTE,
                                          comm, &req));
    free(neg);

    /* Byte sizes that overflow: a 1 TiB type, INT_MAX of them per peer. */
    MPI_Datatype mib, tib;
    MPI_Type_contiguous(1 << 20, MPI_BYTE, &mib);
    MPI_Type_contiguous(1 << 20, mib, &tib);
    MPI_Type_commit(&tib);
    BAD(NBO_ERR_OVERFLOW, nbo_ialltoall(sbuf, INT_MAX, tib, rbuf, N, MPI_BYTE, comm, &req));
    BAD(NBO_ERR_OVERFLOW, nbo_ialltoall(sbuf, N, MPI_BYTE, rbuf, INT_MAX, tib, comm, &req));
    int *huge = malloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++)
        huge[p] = INT_MAX;
    /* alltoallv: counts or displacements (in units of the 1 TiB extent). */
    BAD(NBO_ERR_OVERFLOW, nbo_ialltoallv(sbuf, huge, zeros, tib, rbuf, ones, displs, MPI_BYTE,
                                         comm, &req));
    BAD(NBO_ERR_OVERFLOW, nbo_ialltoallv(sbuf, ones, displs, MPI_BYTE, rbuf, ones, huge, tib,
                                         comm, &req));
    free(huge);
    MPI_Type_free(&tib);
    MPI_Type_free(&mib);

    /* MPI_DATATYPE_NULL and an uncommitted type, on either side. */
    MPI_Datatype raw;
    MPI_Type_vector(2, 1, 2, MPI_BYTE, &raw); /* never committed */
    BAD(NBO_ERR_DATATYPE, nbo_ialltoall(sbuf, N, MPI_DATATYPE_NULL, rbuf, N, MPI_BYTE, comm, &req));
    BAD(NBO_ERR_DATATYPE, nbo_ialltoall(sbuf, N, MPI_BYTE, rbuf, N, MPI_DATATYPE_NULL, comm, &req));
    BAD(NBO_ERR_DATATYPE, nbo_ialltoallv(sbuf, ones, displs, MPI_DATATYPE_NULL, rbuf, ones, displs,
                                         MPI_BYTE, comm, &req));
    BAD(NBO_ERR_DATATYPE, nbo_ialltoall(sbuf, 1, raw, rbuf, 2, MPI_BYTE, comm, &req));
    BAD(NBO_ERR_DATATYPE, nbo_alltoall_init(sbuf, 2, MPI_BYTE, rbuf, 1, raw, comm, &req));
    MPI_Type_free(&raw);

    /* Own block sizes that disagree; NULL count arrays. */
    BAD(NBO_ERR_MISMATCH, nbo_ialltoall(sbuf, N, MPI_BYTE, rbuf, N / 2, MPI_BYTE, comm, &req));
    BAD(NBO_ERR_ARG, nbo_ialltoallv(sbuf, NULL, displs, MPI_BYTE, rbuf, ones, displs, MPI_BYTE,
                                    comm, &req));
    BAD(NBO_ERR_ARG, nbo_ialltoallv(sbuf, ones, displs, MPI_BYTE, rbuf, ones, NULL, MPI_BYTE, comm,
                                    &req));
    MT_EXPECT(NBO_ERR_ARG, nbo_ialltoall(sbuf, N, MPI_BYTE, rbuf, N, MPI_BYTE, comm, NULL));

    /* Aliased send and receive buffers without MPI_IN_PLACE. */
    BAD(NBO_ERR_OVERLAP, nbo_ialltoall(rbuf, N, MPI_BYTE, rbuf, N, MPI_BYTE, comm, &req));
    BAD(NBO_ERR_OVERLAP, nbo_alltoall_init(rbuf + 1, N / 2, MPI_BYTE, rbuf, N / 2, MPI_BYTE, comm,
                                           &req));
}

/* NBO_CHECK=1: ranks that disagree on block sizes all get NBO_ERR_MISMATCH
 * instead of a hang or truncated messages. */
static void checked_mismatch(void)
{
    nbo_config_t cfg;
    nbo_comm_t chk;
    nbo_request_t req;
    mt_config(&cfg, NBO_ALG_AUTO);
    cfg.check = 1;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, &cfg, &chk));
    if (mt_failures())
        return;
    if (mt_size > 1) {
        const int n = N - mt_rank % 2; /* consistent per rank, not across */
        BAD(NBO_ERR_MISMATCH, nbo_ialltoall(sbuf, n, MPI_BYTE, rbuf, n, MPI_BYTE, chk, &req));
    }
    MT_OK(nbo_ialltoall(sbuf, N, MPI_BYTE, rbuf, N, MPI_BYTE, chk, &req));
    MT_OK(nbo_wait(&req));
    MT_EXPECT(NBO_SUCCESS, nbo_comm_free(&chk));
}

/* NBO_CHECK=1: ranks configured with different windows would compile
 * lists that do not match; the choice is part of the signature, so every
 * rank gets NBO_ERR_MISMATCH instead of a hang. */
static void checked_choice_mismatch(void)
{
    nbo_config_t cfg;
    nbo_comm_t chk;
    nbo_request_t req;
    if (mt_size < 2)
        return;
    mt_config(&cfg, NBO_ALG_PAIRWISE);
    MT_OK(nbo_config_set(&cfg, "NBO_CHECK", "1"));
    MT_OK(nbo_config_set(&cfg, "NBO_WINDOW", mt_rank % 2 ? "4" : "1"));
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, &cfg, &chk));
    if (mt_failures())
        return;
    BAD(NBO_ERR_MISMATCH, nbo_ialltoall(sbuf, N, MPI_BYTE, rbuf, N, MPI_BYTE, chk, &req));
    BAD(NBO_ERR_MISMATCH, nbo_alltoall_init(sbuf, N, MPI_BYTE, rbuf, N, MPI_BYTE, chk, &req));
    MT_EXPECT(NBO_SUCCESS, nbo_comm_free(&chk));
}

static void communicators(void)
{
    nbo_request_t req;
    nbo_comm_info_t info;
    BAD(NBO_ERR_COMM, nbo_ialltoall(sbuf, N, MPI_BYTE, rbuf, N, MPI_BYTE, NBO_COMM_NULL, &req));
    BAD(NBO_ERR_COMM, nbo_alltoallv_init(sbuf, ones, displs, MPI_BYTE, rbuf, ones, displs, MPI_BYTE,
                                         NBO_COMM_NULL, &req));
    MT_EXPECT(NBO_ERR_COMM, nbo_comm_query(NBO_COMM_NULL, &info));
    nbo_comm_t none = NBO_COMM_NULL;
    MT_EXPECT(NBO_ERR_COMM, nbo_comm_free(&none));
    MT_EXPECT(NBO_ERR_ARG, nbo_comm_free(NULL));

    /* A freed communicator: keep a copy of the handle, then use it.  No
     * communicator is created in between, so the address is not reused. */
    nbo_comm_t c, stale;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, NULL, &c));
    stale = c;
    MT_OK(nbo_comm_free(&c));
    if (c != NBO_COMM_NULL)
        mt_fail("nbo_comm_free did not set the handle to NBO_COMM_NULL");
    BAD(NBO_ERR_COMM, nbo_ialltoall(sbuf, N, MPI_BYTE, rbuf, N, MPI_BYTE, stale, &req));
    BAD(NBO_ERR_COMM, nbo_ialltoallv(sbuf, ones, displs, MPI_BYTE, rbuf, ones, displs, MPI_BYTE,
                                     stale, &req));
    BAD(NBO_ERR_COMM, nbo_alltoall_init(sbuf, N, MPI_BYTE, rbuf, N, MPI_BYTE, stale, &req));
    MT_EXPECT(NBO_ERR_COMM, nbo_comm_query(stale, &info));
    MT_EXPECT(NBO_ERR_COMM, nbo_comm_free(&stale));

    /* Creating: MPI_COMM_NULL, NULL output, bad configurations. */
    MT_EXPECT(NBO_ERR_COMM, nbo_comm_create(MPI_COMM_NULL, NULL, &c));
    MT_EXPECT(NBO_ERR_ARG, nbo_comm_create(MPI_COMM_WORLD, NULL, NULL));
    nbo_config_t cfg;
    mt_config(&cfg, NBO_ALG_AUTO);
    cfg.window = 0;
    MT_EXPECT(NBO_ERR_CONFIG, nbo_comm_create(MPI_COMM_WORLD, &cfg, &c));
    if (c != NBO_COMM_NULL)
        mt_fail("failed nbo_comm_create left a handle");
    mt_config(&cfg, (nbo_algorithm_t)42);
    MT_EXPECT(NBO_ERR_CONFIG, nbo_comm_create(MPI_COMM_WORLD, &cfg, &c));
    mt_config(&cfg, NBO_ALG_AUTO);
    cfg.progress_sched = (nbo_progress_sched_t)7;
    MT_EXPECT(NBO_ERR_CONFIG, nbo_comm_create(MPI_COMM_WORLD, &cfg, &c));
}

static void requests(nbo_comm_t comm)
{
    const int P = mt_size;
    nbo_request_t req = NBO_REQUEST_NULL;
    int flag = 0;
    /* Operations on NBO_REQUEST_NULL, and on no handle at all.  Waiting on
     * it succeeds at once and a test reports it complete, as MPI_Wait and
     * MPI_Test do on MPI_REQUEST_NULL; starting or freeing it is an error. */
    MT_EXPECT(NBO_SUCCESS, nbo_wait(&req));
    MT_EXPECT(NBO_SUCCESS, nbo_test(&req, &flag));
    if (flag != 1 || req != NBO_REQUEST_NULL)
        mt_fail("nbo_test on NBO_REQUEST_NULL: flag %d, handle %p", flag, (void *)req);
    flag = 0;
    MT_EXPECT(NBO_ERR_ARG, nbo_test(&req, NULL));
    MT_EXPECT(NBO_ERR_ARG, nbo_test(NULL, &flag));
    MT_EXPECT(NBO_ERR_REQUEST_NULL, nbo_start(&req));
    MT_EXPECT(NBO_ERR_REQUEST_NULL, nbo_request_free(&req));
    MT_EXPECT(NBO_ERR_ARG, nbo_wait(NULL));
    MT_EXPECT(NBO_ERR_ARG, nbo_waitall(-1, &req));
    MT_EXPECT(NBO_SUCCESS, nbo_waitall(1, &req)); /* NULL entries are skipped */

    /* Starting an active persistent request; freeing it while active. */
    nbo_request_t pers;
    MT_OK(nbo_alltoall_init(sbuf, N, MPI_BYTE, rbuf, N, MPI_BYTE, comm, &pers));
    if (mt_failures())
        return;
    MT_EXPECT(NBO_SUCCESS, nbo_start(&pers));
    /* Still active, or done but not yet collected: either way busy. */
    MT_EXPECT(NBO_ERR_ACTIVE, nbo_start(&pers));
    MT_OK(nbo_wait(&pers));
    if (pers == NBO_REQUEST_NULL)
        mt_fail("nbo_wait freed a persistent request");

    /* Rank 0 starts first and cannot finish before the others post, so its
     * request is surely active; the others start after the barrier. */
    if (mt_rank == 0) {
        MT_EXPECT(NBO_SUCCESS, nbo_start(&pers));
        if (P > 1) {
            MT_EXPECT(NBO_ERR_ACTIVE, nbo_request_free(&pers));
            MT_EXPECT(NBO_ERR_ACTIVE, nbo_start(&pers));
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank != 0)
        MT_EXPECT(NBO_SUCCESS, nbo_start(&pers));
    /* A communicator with a live request cannot be freed (collective). */
    MT_EXPECT(NBO_ERR_PENDING, nbo_comm_free(&comm));
    MT_OK(nbo_wait(&pers));
    MT_OK(nbo_request_free(&pers));

    /* The same for a non-persistent request; nbo_start refuses it. */
    if (mt_rank == 0) {
        MT_OK(nbo_ialltoall(sbuf, N, MPI_BYTE, rbuf, N, MPI_BYTE, comm, &req));
        MT_EXPECT(NBO_ERR_ARG, nbo_start(&req));
        if (P > 1)
            MT_EXPECT(NBO_ERR_ACTIVE, nbo_request_free(&req));
        MT_EXPECT(NBO_ERR_ARG, nbo_test(&req, NULL));
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (mt_rank != 0)
        MT_OK(nbo_ialltoall(sbuf, N, MPI_BYTE, rbuf, N, MPI_BYTE, comm, &req));
    MT_OK(req == NBO_REQUEST_NULL ? NBO_SUCCESS : nbo_wait(&req));
}

/* A valid call after all the bad ones: correct data. */
static void still_works(nbo_comm_t comm, unsigned seed)
{
    const int P = mt_size;
    unsigned char *ref = malloc((size_t)P * N);
    for (int d = 0; d < P; d++)
        mt_fill(sbuf + (size_t)d * N, N, mt_rank, d, seed);
    MPI_Alltoall(sbuf, N, MPI_BYTE, ref, N, MPI_BYTE, MPI_COMM_WORLD);
    memset(rbuf, 0, (size_t)P * N);
    nbo_request_t req;
    MT_OK(nbo_ialltoall(sbuf, N, MPI_BYTE, rbuf, N, MPI_BYTE, comm, &req));
    if (req != NBO_REQUEST_NULL)
        MT_OK(nbo_wait(&req));
    mt_compare(rbuf, ref, (size_t)P * N, "valid alltoall after the bad calls");
    free(ref);
}

/* The neighbourhood collectives: a communicator without a topology, and
 * each bad argument on a periodic ring; then a valid call still works
 * (block 1 goes right and lands in the right neighbour's block 0). */
static void neighbourhoods(nbo_comm_t flat)
{
    nbo_request_t req;
    int sb[2] = {0, 0}, rb[2] = {0, 0}, cnt[2] = {1, 1}, neg[2] = {1, -1};
    int dsp[2] = {0, 1}, negd[2] = {0, -1};
    BAD(NBO_ERR_COMM, nbo_ineighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, flat, &req));
    BAD(NBO_ERR_COMM, nbo_ineighbor_allgatherv(sb, 1, MPI_INT, rb, cnt, dsp, MPI_INT, flat, &req));
    BAD(NBO_ERR_COMM, nbo_neighbor_alltoallv_init(sb, cnt, dsp, MPI_INT, rb, cnt, dsp, MPI_INT,
                                                  flat, &req));
    BAD(NBO_ERR_COMM, nbo_ineighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, NBO_COMM_NULL, &req));

    const int dims[1] = {mt_size}, periods[1] = {1};
    MPI_Comm ring;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
    nbo_comm_t c;
    MT_OK(nbo_comm_create(ring, NULL, &c));
    if (mt_failures()) {
        MPI_Comm_free(&ring);
        return;
    }
    BAD(NBO_ERR_COUNT, nbo_ineighbor_alltoall(sb, -1, MPI_INT, rb, 1, MPI_INT, c, &req));
    BAD(NBO_ERR_COUNT, nbo_neighbor_allgather_init(sb, 1, MPI_INT, rb, -1, MPI_INT, c, &req));
    BAD(NBO_ERR_COUNT, nbo_ineighbor_alltoallv(sb, neg, dsp, MPI_INT, rb, cnt, dsp, MPI_INT, c,
                                               &req));
    BAD(NBO_ERR_COUNT, nbo_ineighbor_allgatherv(sb, 1, MPI_INT, rb, cnt, negd, MPI_INT, c, &req));
    BAD(NBO_ERR_ARG, nbo_ineighbor_alltoallv(sb, NULL, dsp, MPI_INT, rb, cnt, dsp, MPI_INT, c,
                                             &req));
    BAD(NBO_ERR_ARG, nbo_neighbor_allgatherv_init(sb, 1, MPI_INT, rb, cnt, NULL, MPI_INT, c,
                                                  &req));
    MT_EXPECT(NBO_ERR_ARG, nbo_ineighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, c, NULL));
    BAD(NBO_ERR_BUFFER, nbo_ineighbor_alltoall(MPI_IN_PLACE, 1, MPI_INT, rb, 1, MPI_INT, c, &req));
    BAD(NBO_ERR_BUFFER, nbo_ineighbor_allgather(NULL, 1, MPI_INT, rb, 1, MPI_INT, c, &req));
    BAD(NBO_ERR_DATATYPE, nbo_ineighbor_alltoall(sb, 1, MPI_DATATYPE_NULL, rb, 1, MPI_INT, c,
                                                 &req));
    BAD(NBO_ERR_OVERLAP, nbo_ineighbor_alltoall(rb, 1, MPI_INT, rb, 1, MPI_INT, c, &req));

    const int left = (mt_rank + mt_size - 1) % mt_size, right = (mt_rank + 1) % mt_size;
    sb[0] = 2 * mt_rank;
    sb[1] = 2 * mt_rank + 1;
    rb[0] = rb[1] = -1;
    MT_OK(nbo_ineighbor_alltoall(sb, 1, MPI_INT, rb, 1, MPI_INT, c, &req));
    if (req != NBO_REQUEST_NULL)
        MT_OK(nbo_wait(&req));
    if (rb[0] != 2 * left + 1 || rb[1] != 2 * right)
        mt_fail("neighbour alltoall on a ring after the bad calls: %d %d, expected %d %d", rb[0],
                rb[1], 2 * left + 1, 2 * right);
    MT_EXPECT(NBO_SUCCESS, nbo_comm_free(&c));
    MPI_Comm_free(&ring);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_badinput");
    const int P = mt_size;
    sbuf = malloc((size_t)P * N);
    rbuf = malloc((size_t)P * N);
    ones = malloc(sizeof(int) * (size_t)P);
    zeros = calloc((size_t)P, sizeof(int));
    displs = malloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++) {
        ones[p] = 1;
        displs[p] = p;
    }
    nbo_comm_t comm;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, NULL, &comm));
    mt_describe(comm);
    if (!mt_failures()) {
        buffers_counts_types(comm);
        still_works(comm, 1);
        communicators();
        checked_mismatch();
        checked_choice_mismatch();
        still_works(comm, 2);
        requests(comm);
        still_works(comm, 3);
        neighbourhoods(comm);
        /* Nothing left live: the communicator frees. */
        MT_EXPECT(NBO_SUCCESS, nbo_comm_free(&comm));
    }
    free(sbuf); free(rbuf); free(ones); free(zeros); free(displs);
    return mt_finish();
}
