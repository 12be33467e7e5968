/*
 * test_persistent.c - persistent requests: one nbo_alltoall_init request
 * started 1000 times with new send data each time (every result checked,
 * the first and last also against MPI_Alltoall), a pairwise one, an
 * in-place one, a persistent alltoallv with gaps, and two persistent
 * requests in flight together.  Inactive requests: nbo_wait returns at once,
 * nbo_test reports done, the handle survives completion until freed.
 */
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

/* Expected receive buffer of round `seed`: block p is what p sent us. */
static void expect(unsigned char *want, size_t block, unsigned seed)
{
    for (int p = 0; p < mt_size; p++)
        mt_fill(want + (size_t)p * block, block, p, mt_rank, seed);
}

static void check_inactive(nbo_request_t *req, const char *what)
{
    nbo_request_t before = *req;
    int flag = 0;
    MT_EXPECT(NBO_SUCCESS, nbo_wait(req));
    MT_EXPECT(NBO_SUCCESS, nbo_test(req, &flag));
    if (!flag || *req != before)
        mt_fail("%s: inactive persistent request: flag %d, handle %s", what, flag,
                *req == before ? "kept" : "changed");
}

/* Start `req` (bound to sbuf/rbuf, `block` bytes per peer) `iters` times. */
static void loop_alltoall(nbo_request_t *req, unsigned char *sbuf, unsigned char *rbuf,
                          size_t block, int iters, int in_place, const char *what)
{
    const size_t n = (size_t)mt_size * block;
    unsigned char *want = malloc(n + 1), *ref = malloc(n + 1);
    for (int it = 0; it < iters && !mt_failures(); it++) {
        unsigned seed = 1000u * (unsigned)block + (unsigned)it;
        unsigned char *out = in_place ? rbuf : sbuf;
        for (int d = 0; d < mt_size; d++)
            mt_fill(out + (size_t)d * block, block, mt_rank, d, seed);
        if (!in_place)
            memset(rbuf, 0xEE, n);
        rbuf[n] = 0x77; /* the byte after the buffer */
        const int with_mpi = it == 0 || it == iters - 1;
        if (with_mpi) {
            memcpy(ref, out, n);
            MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ref, (int)block, MPI_BYTE,
                         MPI_COMM_WORLD);
        }
        int rc = nbo_start(req);
        if (rc == NBO_SUCCESS)
            rc = mt_complete(req, it % 10 != 0); /* nbo_wait spins: mostly test + yield */
        if (rc != NBO_SUCCESS) {
            mt_fail("%s, start %d: %s", what, it, nbo_strerror(rc));
            break;
        }
        if (*req == NBO_REQUEST_NULL) {
            mt_fail("%s, start %d: persistent request freed by completion", what, it);
            break;
        }
        char label[96];
        snprintf(label, sizeof(label), "%s, start %d", what, it);
        expect(want, block, seed);
        want[n] = 0x77;
        if (mt_compare(rbuf, want, n + 1, label) && with_mpi)
            mt_compare(rbuf, ref, n, label);
    }
    free(want);
    free(ref);
}

static void persistent_alltoallv(nbo_comm_t comm, int iters)
{
    const int P = mt_size;
    int *sc = malloc(sizeof(int) * (size_t)P), *sd = malloc(sizeof(int) * (size_t)P);
    int *rc = malloc(sizeof(int) * (size_t)P), *rd = malloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++) {
        sc[p] = mt_count(mt_rank, p, 77, 500, 0);
        rc[p] = mt_count(p, mt_rank, 77, 500, 0);
    }
    const size_t sn = (size_t)mt_layout(P, sc, 3, 5 + (unsigned)mt_rank, sd);
    const size_t rn = (size_t)mt_layout(P, rc, 4, 6 + (unsigned)mt_rank, rd);
    unsigned char *sbuf = malloc(sn), *rbuf = malloc(rn), *ref = malloc(rn);
    nbo_request_t req;
    MT_OK(nbo_alltoallv_init(sbuf, sc, sd, MPI_BYTE, rbuf, rc, rd, MPI_BYTE, comm, &req));
    if (mt_failures())
        goto out;
    check_inactive(&req, "alltoallv before its first start");
    for (int it = 0; it < iters && !mt_failures(); it++) {
        mt_fill(sbuf, sn, mt_rank, -1, (unsigned)it + 5000u);
        memset(rbuf, 0xD1, rn);
        memset(ref, 0xD1, rn);
        MPI_Alltoallv(sbuf, sc, sd, MPI_BYTE, ref, rc, rd, MPI_BYTE, MPI_COMM_WORLD);
        int err = nbo_start(&req);
        if (err == NBO_SUCCESS)
            err = mt_complete(&req, it & 1);
        char label[64];
        snprintf(label, sizeof(label), "persistent alltoallv, start %d", it);
        if (err != NBO_SUCCESS)
            mt_fail("%s: %s", label, nbo_strerror(err));
        else
            mt_compare(rbuf, ref, rn, label); /* gaps included: 0xD1 in both */
    }
    MT_OK(nbo_request_free(&req));
    if (req != NBO_REQUEST_NULL)
        mt_fail("nbo_request_free left the handle set");
out:
    free(sc); free(sd); free(rc); free(rd);
    free(sbuf); free(rbuf); free(ref);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_persistent");
    const int P = mt_size;
    /* Oversubscribed (P > 4 on few cores) every start costs milliseconds:
     * the 1000 starts stay, the other loops shrink. */
    const int few = P > 4 ? 30 : 100;
    nbo_comm_t comm, pw;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, NULL, &comm));
    nbo_config_t cfg;
    mt_config(&cfg, NBO_ALG_PAIRWISE);
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, &cfg, &pw));
    mt_describe(comm);
    if (mt_failures())
        return mt_finish();

    /* 32 B per peer: Bruck under the default threshold (P > 2). */
    const size_t small = 32, big = 4096;
    unsigned char *s1 = malloc(P * small), *r1 = malloc(P * small + 1);
    unsigned char *s2 = malloc(P * big), *r2 = malloc(P * big + 1), *r3 = malloc(P * big + 1);
    nbo_request_t q1, q2, q3;
    MT_OK(nbo_alltoall_init(s1, (int)small, MPI_BYTE, r1, (int)small, MPI_BYTE, comm, &q1));
    MT_OK(nbo_alltoall_init(s2, (int)big, MPI_BYTE, r2, (int)big, MPI_BYTE, pw, &q2));
    MT_OK(nbo_alltoall_init(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, r3, (int)big, MPI_BYTE, comm, &q3));
    if (!mt_failures()) {
        nbo_algorithm_t alg;
        MT_OK(nbo_request_algorithm(q2, &alg));
        if (alg != NBO_ALG_PAIRWISE)
            mt_fail("forced pairwise persistent request compiled as %s", nbo_algorithm_name(alg));
        check_inactive(&q1, "alltoall before its first start");
        loop_alltoall(&q1, s1, r1, small, 1000, 0, "persistent alltoall 32 B/peer");
        check_inactive(&q1, "alltoall after 1000 starts");
        loop_alltoall(&q2, s2, r2, big, few, 0, "persistent pairwise 4 KiB/peer");
        loop_alltoall(&q3, NULL, r3, big, few, 1, "persistent in place 4 KiB/peer");

        /* Two persistent requests in flight together, completed at once. */
        for (int it = 0; it < 10 && !mt_failures(); it++) {
            for (int d = 0; d < P; d++) {
                mt_fill(s1 + (size_t)d * small, small, mt_rank, d, 90000u + (unsigned)it);
                mt_fill(s2 + (size_t)d * big, big, mt_rank, d, 91000u + (unsigned)it);
            }
            MT_OK(nbo_start(&q1));
            MT_OK(nbo_start(&q2));
            nbo_request_t both[2] = {q1, q2};
            MT_OK(nbo_waitall(2, both));
            if (both[0] != q1 || both[1] != q2)
                mt_fail("nbo_waitall changed persistent handles");
            unsigned char *want = malloc(P * big);
            expect(want, small, 90000u + (unsigned)it);
            mt_compare(r1, want, P * small, "two in flight: 32 B request");
            expect(want, big, 91000u + (unsigned)it);
            mt_compare(r2, want, P * big, "two in flight: 4 KiB request");
            free(want);
        }
    }
    persistent_alltoallv(comm, few);
    MT_OK(nbo_request_free(&q1));
    MT_OK(nbo_request_free(&q2));
    MT_OK(nbo_request_free(&q3));
    MT_OK(nbo_comm_free(&comm));
    MT_OK(nbo_comm_free(&pw));
    free(s1); free(r1); free(s2); free(r2); free(r3);
    return mt_finish();
}
