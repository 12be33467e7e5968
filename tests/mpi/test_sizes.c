/*
 * test_sizes.c - nbo_ialltoall against MPI_Alltoall for 0, 1, 7 bytes, 4 KiB,
 * 64 KiB and 1 MiB per peer, with the algorithm chosen automatically and
 * forced to pairwise and to Bruck; completed by nbo_wait or by nbo_test
 * loops in turn.
 */
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

typedef struct size_case {
    size_t       bytes; /* per peer */
    MPI_Datatype type;
} size_case_t;

static nbo_algorithm_t expected_alg(nbo_algorithm_t asked, size_t bytes, size_t bruck_max)
{
    if (mt_size <= 2)
        return NBO_ALG_PAIRWISE; /* Bruck gains nothing below 3 ranks */
    if (asked == NBO_ALG_AUTO)
        return bytes <= bruck_max ? NBO_ALG_BRUCK : NBO_ALG_PAIRWISE;
    return asked;
}

static void run(nbo_comm_t comm, nbo_algorithm_t asked, const size_case_t *k, int use_test,
                unsigned seed)
{
    const int P = mt_size;
    int tsize;
    MPI_Type_size(k->type, &tsize);
    const int count = (int)(k->bytes / (size_t)tsize);
    const size_t total = (size_t)P * k->bytes;
    unsigned char *sbuf = malloc(total + 1), *rbuf = malloc(total + 1), *ref = malloc(total + 1),
                  *copy = malloc(total + 1);
    if (!sbuf || !rbuf || !ref || !copy) {
        mt_fail("out of memory for %zu bytes", total);
        goto out;
    }
    for (int d = 0; d < P; d++)
        mt_fill(sbuf + (size_t)d * k->bytes, k->bytes, mt_rank, d, seed);
    memcpy(copy, sbuf, total);
    memset(rbuf, 0xEE, total + 1);
    memset(ref, 0xEE, total + 1);
    if (MPI_Alltoall(sbuf, count, k->type, ref, count, k->type, MPI_COMM_WORLD) != MPI_SUCCESS)
        mt_fail("MPI_Alltoall failed");

    nbo_request_t req = NBO_REQUEST_NULL;
    int rc = nbo_ialltoall(sbuf, count, k->type, rbuf, count, k->type, comm, &req);
    if (rc != NBO_SUCCESS) {
        mt_fail("nbo_ialltoall(%zu bytes/peer, %s): %s", k->bytes, nbo_algorithm_name(asked),
                nbo_strerror(rc));
        goto out;
    }
    nbo_comm_info_t info;
    nbo_algorithm_t alg = NBO_ALG_AUTO;
    MT_OK(nbo_comm_query(comm, &info));
    MT_OK(nbo_request_algorithm(req, &alg));
    nbo_algorithm_t want = expected_alg(asked, k->bytes, info.bruck_max);
    if (alg != want)
        mt_fail("%zu bytes/peer, asked %s: compiled %s, expected %s", k->bytes,
                nbo_algorithm_name(asked), nbo_algorithm_name(alg), nbo_algorithm_name(want));
    rc = mt_complete(&req, use_test);
    if (rc != NBO_SUCCESS)
        mt_fail("completing %zu bytes/peer (%s): %s", k->bytes, nbo_algorithm_name(asked),
                nbo_strerror(rc));
    if (req != NBO_REQUEST_NULL)
        mt_fail("completed request not set to NBO_REQUEST_NULL");
    char what[96];
    snprintf(what, sizeof(what), "%zu bytes/peer %s %s", k->bytes, nbo_algorithm_name(asked),
             use_test ? "nbo_test" : "nbo_wait");
    mt_compare(rbuf, ref, total + 1, what); /* +1: the byte after must stay */
    mt_compare(sbuf, copy, total, "send buffer after the call");
out:
    free(sbuf);
    free(rbuf);
    free(ref);
    free(copy);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_sizes");
    const size_case_t sizes[] = {
        {0, MPI_BYTE},       {1, MPI_BYTE},          {7, MPI_BYTE},
        {4096, MPI_BYTE},    {4096, MPI_INT},        {65536, MPI_BYTE},
        {65536, MPI_DOUBLE}, {1 << 20, MPI_BYTE},
    };
    const nbo_algorithm_t algs[] = {NBO_ALG_AUTO, NBO_ALG_PAIRWISE, NBO_ALG_BRUCK};
    nbo_comm_t comms[3];
    /* AUTO through a NULL config: defaults plus the NBO_* environment. */
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, NULL, &comms[0]));
    for (int a = 1; a < 3; a++) {
        nbo_config_t cfg;
        mt_config(&cfg, algs[a]);
        MT_OK(nbo_comm_create(MPI_COMM_WORLD, &cfg, &comms[a]));
    }
    mt_describe(comms[0]);
    if (mt_failures() == 0) {
        unsigned seed = 1;
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
            /* Oversubscribed runs (P > 4 on few cores) crawl at 1 MiB per
             * peer: there, one algorithm and one completion mode. */
            int big = sizes[s].bytes >= (1 << 20) && mt_size > 4;
            for (int a = 0; a < 3; a++) {
                /* nbo_wait and nbo_test loops take turns over the cases */
                int use_test = (int)(s + (size_t)a) & 1;
                if (!big || a == 1)
                    run(comms[a], algs[a], &sizes[s], use_test, seed++);
            }
        }
    }
    for (int a = 0; a < 3; a++)
        MT_OK(nbo_comm_free(&comms[a]));
    return mt_finish();
}
