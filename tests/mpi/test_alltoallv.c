/*
 * test_alltoallv.c - nbo_ialltoallv against MPI_Alltoallv: irregular counts
 * with zeros, blocks in permuted order with gaps that must stay untouched
 * (sentinel-filled) on both sides, ranks that send or receive nothing,
 * all-zero calls with NULL buffers, and send/receive types that differ but
 * have the same signature.  Run with windows 1, 3 and the default.
 */
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

#define SENTINEL 0xC3

enum { PLAIN, NO_SENDS_FROM_0, NO_RECVS_AT_LAST, ALL_ZERO };

static int count_of(int kind, int s, int d, unsigned seed, int max)
{
    if (kind == ALL_ZERO || (kind == NO_SENDS_FROM_0 && s == 0) ||
        (kind == NO_RECVS_AT_LAST && d == mt_size - 1))
        return 0;
    return mt_count(s, d, seed, max, 0);
}

/* bytes_recv: receive side counted in MPI_BYTE instead of MPI_INT. */
static void run(nbo_comm_t comm, int kind, unsigned seed, int max, int bytes_recv)
{
    const int P = mt_size;
    int *sc = malloc(sizeof(int) * (size_t)P), *sd = malloc(sizeof(int) * (size_t)P);
    int *rc = malloc(sizeof(int) * (size_t)P), *rd = malloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++) {
        sc[p] = count_of(kind, mt_rank, p, seed, max);
        rc[p] = count_of(kind, p, mt_rank, seed, max);
    }
    const int sn = mt_layout(P, sc, 4, seed + (unsigned)mt_rank, sd);
    const int rn = mt_layout(P, rc, 5, seed * 3 + (unsigned)mt_rank + 1, rd);
    const size_t sbytes = sizeof(int) * (size_t)sn, rbytes = sizeof(int) * (size_t)rn;
    unsigned char *sbuf = malloc(sbytes), *scopy = malloc(sbytes);
    unsigned char *rbuf = malloc(rbytes), *ref = malloc(rbytes);
    memset(sbuf, SENTINEL, sbytes);
    for (int p = 0; p < P; p++)
        mt_fill(sbuf + sizeof(int) * (size_t)sd[p], sizeof(int) * (size_t)sc[p], mt_rank, p, seed);
    memcpy(scopy, sbuf, sbytes);
    memset(rbuf, SENTINEL, rbytes);
    memset(ref, SENTINEL, rbytes);

    MPI_Datatype rtype = MPI_INT;
    if (bytes_recv) { /* same bytes, counted in MPI_BYTE */
        rtype = MPI_BYTE;
        for (int p = 0; p < P; p++) {
            rc[p] *= (int)sizeof(int);
            rd[p] *= (int)sizeof(int);
        }
    }
    /* All zero: buffers may be NULL, as in MPI. */
    void *sb = kind == ALL_ZERO ? NULL : sbuf, *rb = kind == ALL_ZERO ? NULL : rbuf;
    if (kind != ALL_ZERO &&
        MPI_Alltoallv(sbuf, sc, sd, MPI_INT, ref, rc, rd, rtype, MPI_COMM_WORLD) != MPI_SUCCESS)
        mt_fail("MPI_Alltoallv failed");
    nbo_request_t req;
    int err = nbo_ialltoallv(sb, sc, sd, MPI_INT, rb, rc, rd, rtype, comm, &req);
    if (err == NBO_SUCCESS)
        err = mt_complete(&req, (int)(seed & 1));
    char what[96];
    snprintf(what, sizeof(what), "alltoallv kind %d seed %u max %d%s", kind, seed, max,
             bytes_recv ? " (recv as bytes)" : "");
    if (err != NBO_SUCCESS)
        mt_fail("%s: %s", what, nbo_strerror(err));
    else {
        mt_compare(rbuf, ref, rbytes, what);
        mt_compare(sbuf, scopy, sbytes, "send buffer (blocks and gaps) after alltoallv");
        int unit = bytes_recv ? 1 : (int)sizeof(int);
        for (size_t b = 0; b < rbytes; b++)
            if (mt_in_gap(P, rc, rd, (int)(b / (size_t)unit)) && rbuf[b] != SENTINEL) {
                mt_fail("%s: receive gap byte %zu overwritten", what, b);
                break;
            }
    }
    free(sc); free(sd); free(rc); free(rd);
    free(sbuf); free(scopy); free(rbuf); free(ref);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_alltoallv");
    const int windows[] = {0, 1, 3}; /* 0: from the environment / default */
    for (int w = 0; w < 3 && !mt_failures(); w++) {
        nbo_comm_t comm;
        if (windows[w] == 0)
            MT_OK(nbo_comm_create(MPI_COMM_WORLD, NULL, &comm));
        else {
            nbo_config_t cfg;
            mt_config(&cfg, NBO_ALG_AUTO);
            cfg.window = windows[w];
            MT_OK(nbo_comm_create(MPI_COMM_WORLD, &cfg, &comm));
        }
        if (w == 0)
            mt_describe(comm);
        if (mt_failures())
            break;
        for (unsigned seed = 1; seed <= 3; seed++) {
            run(comm, PLAIN, seed + 10 * (unsigned)w, 9, 0);
            run(comm, PLAIN, seed + 10 * (unsigned)w, 5000, seed == 2);
        }
        run(comm, NO_SENDS_FROM_0, 7, 300, 0);
        run(comm, NO_RECVS_AT_LAST, 8, 300, 1);
        run(comm, ALL_ZERO, 9, 1, 0);
        MT_OK(nbo_comm_free(&comm));
    }
    return mt_finish();
}
