/*
 * test_multi.c - 8 requests outstanding at once, on one nbo communicator and
 * alternating over two, completed in reverse order with nbo_wait, with
 * nbo_waitall (NBO_REQUEST_NULL entries mixed in), and by polling nbo_test
 * in an order that differs from rank to rank.  Mixed sizes (Bruck and
 * pairwise) and an alltoallv; each result compared with MPI_Alltoall(v).
 */
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

#define NREQ 8

typedef struct slot {
    unsigned char *sbuf, *rbuf, *ref;
    size_t         rbytes;
    int           *sc, *sd, *rc, *rd; /* alltoallv only */
} slot_t;

static size_t block_bytes(int k) { return (size_t[]){8, 1024, 16384, 0}[k % 4]; }

/* Prepare slot k (reference computed now, with MPI on MPI_COMM_WORLD). */
static void prepare(slot_t *s, int k, unsigned seed)
{
    const int P = mt_size;
    memset(s, 0, sizeof(*s));
    if (block_bytes(k)) {
        const size_t n = (size_t)P * block_bytes(k);
        s->sbuf = malloc(n);
        s->rbuf = malloc(n);
        s->ref = malloc(n);
        s->rbytes = n;
        for (int d = 0; d < P; d++)
            mt_fill(s->sbuf + (size_t)d * block_bytes(k), block_bytes(k), mt_rank, d, seed);
        memset(s->rbuf, 0xEE, n);
        MPI_Alltoall(s->sbuf, (int)block_bytes(k), MPI_BYTE, s->ref, (int)block_bytes(k), MPI_BYTE,
                     MPI_COMM_WORLD);
        return;
    }
    s->sc = malloc(sizeof(int) * (size_t)P);
    s->sd = malloc(sizeof(int) * (size_t)P);
    s->rc = malloc(sizeof(int) * (size_t)P);
    s->rd = malloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++) {
        s->sc[p] = mt_count(mt_rank, p, seed, 700, 0);
        s->rc[p] = mt_count(p, mt_rank, seed, 700, 0);
    }
    size_t sn = (size_t)mt_layout(P, s->sc, 3, seed + (unsigned)mt_rank, s->sd);
    size_t rn = (size_t)mt_layout(P, s->rc, 3, seed + 1 + (unsigned)mt_rank, s->rd);
    s->sbuf = malloc(sn);
    s->rbuf = malloc(rn);
    s->ref = malloc(rn);
    s->rbytes = rn;
    mt_fill(s->sbuf, sn, mt_rank, -1, seed);
    memset(s->rbuf, 0xEE, rn);
    memset(s->ref, 0xEE, rn);
    MPI_Alltoallv(s->sbuf, s->sc, s->sd, MPI_BYTE, s->ref, s->rc, s->rd, MPI_BYTE, MPI_COMM_WORLD);
}

static int start(slot_t *s, int k, nbo_comm_t comm, nbo_request_t *req)
{
    if (block_bytes(k))
        return nbo_ialltoall(s->sbuf, (int)block_bytes(k), MPI_BYTE, s->rbuf, (int)block_bytes(k),
                             MPI_BYTE, comm, req);
    return nbo_ialltoallv(s->sbuf, s->sc, s->sd, MPI_BYTE, s->rbuf, s->rc, s->rd, MPI_BYTE, comm,
                          req);
}

static void release(slot_t *s)
{
    free(s->sbuf); free(s->rbuf); free(s->ref);
    free(s->sc); free(s->sd); free(s->rc); free(s->rd);
}

enum { REVERSE_WAIT, WAITALL, TEST_POLL };
static const char *const mode_names[] = {"reverse nbo_wait", "nbo_waitall", "nbo_test polling"};

static void phase(nbo_comm_t a, nbo_comm_t b, int mode, unsigned seed)
{
    slot_t slots[NREQ];
    nbo_request_t reqs[NREQ + 2]; /* two NBO_REQUEST_NULL entries for waitall */
    for (int k = 0; k < NREQ; k++)
        prepare(&slots[k], k, seed + (unsigned)k);
    for (int k = 0; k < NREQ; k++) {
        int rc = start(&slots[k], k, (k & 1) ? b : a, &reqs[k + 1]);
        if (rc != NBO_SUCCESS)
            mt_fail("%s: starting request %d: %s", mode_names[mode], k, nbo_strerror(rc));
    }
    reqs[0] = reqs[NREQ + 1] = NBO_REQUEST_NULL;
    if (mt_failures())
        goto out; /* a failed start leaves the others unmatched: stop here */
    if (mode == REVERSE_WAIT) {
        for (int k = NREQ - 1; k >= 0; k--)
            MT_OK(nbo_wait(&reqs[k + 1]));
    } else if (mode == WAITALL) {
        MT_OK(nbo_waitall(NREQ + 2, reqs));
    } else {
        int left = NREQ;
        while (left > 0)
            for (int i = 0; i < NREQ; i++) {
                int k = (i * 3 + mt_rank) % NREQ; /* differs per rank */
                int flag = 0;
                if (reqs[k + 1] == NBO_REQUEST_NULL)
                    continue;
                int rc = nbo_test(&reqs[k + 1], &flag);
                if (rc != NBO_SUCCESS) {
                    mt_fail("nbo_test of request %d: %s", k, nbo_strerror(rc));
                    left = 0;
                    break;
                }
                if (flag)
                    left--;
            }
    }
    for (int k = 0; k < NREQ; k++) {
        if (reqs[k + 1] != NBO_REQUEST_NULL)
            mt_fail("%s: request %d not NBO_REQUEST_NULL after completion", mode_names[mode], k);
        char what[96];
        snprintf(what, sizeof(what), "%s, %s, request %d", mode_names[mode],
                 a == b ? "one communicator" : "two communicators", k);
        mt_compare(slots[k].rbuf, slots[k].ref, slots[k].rbytes, what);
    }
out:
    for (int k = 0; k < NREQ; k++)
        release(&slots[k]);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_multi");
    nbo_comm_t a, b;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, NULL, &a));
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, NULL, &b));
    mt_describe(a);
    unsigned seed = 1;
    for (int two = 0; two < 2 && !mt_failures(); two++)
        for (int mode = REVERSE_WAIT; mode <= TEST_POLL && !mt_failures(); mode++)
            for (int rep = 0; rep < 2 && !mt_failures(); rep++, seed += NREQ)
                phase(a, two ? b : a, mode, seed);
    MT_OK(nbo_comm_free(&a));
    MT_OK(nbo_comm_free(&b));
    return mt_finish();
}
