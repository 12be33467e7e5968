/*
 * test_inplace.c - MPI_IN_PLACE: nbo_ialltoall for several sizes and each
 * algorithm (send count and type must be ignored), and nbo_ialltoallv with
 * irregular symmetric counts and gaps that must stay untouched; compared
 * with MPI_Alltoall(v) in place.
 */
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

#define SENTINEL 0x5C

static void alltoall_in_place(nbo_comm_t comm, nbo_algorithm_t alg, size_t bytes, unsigned seed)
{
    const int P = mt_size;
    const size_t total = (size_t)P * bytes;
    unsigned char *buf = malloc(total + 1), *ref = malloc(total + 1);
    if (!buf || !ref) {
        mt_fail("out of memory");
        free(buf); free(ref);
        return;
    }
    for (int d = 0; d < P; d++)
        mt_fill(buf + (size_t)d * bytes, bytes, mt_rank, d, seed);
    buf[total] = SENTINEL;
    memcpy(ref, buf, total + 1);
    if (MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ref, (int)bytes, MPI_BYTE,
                     MPI_COMM_WORLD) != MPI_SUCCESS)
        mt_fail("MPI_Alltoall in place failed");
    nbo_request_t req;
    /* In place the send count and type are ignored: pass nonsense. */
    int rc = nbo_ialltoall(MPI_IN_PLACE, -7, MPI_DATATYPE_NULL, buf, (int)bytes, MPI_BYTE, comm, &req);
    if (rc == NBO_SUCCESS)
        rc = mt_complete(&req, seed & 1);
    char what[80];
    snprintf(what, sizeof(what), "in place, %zu bytes/peer, %s", bytes, nbo_algorithm_name(alg));
    if (rc != NBO_SUCCESS)
        mt_fail("%s: %s", what, nbo_strerror(rc));
    else
        mt_compare(buf, ref, total + 1, what);
    free(buf);
    free(ref);
}

static void alltoallv_in_place(nbo_comm_t comm, unsigned seed, int max)
{
    const int P = mt_size;
    int *counts = malloc(sizeof(int) * (size_t)P), *displs = malloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++)
        counts[p] = mt_count(mt_rank, p, seed, max, 1);
    const int n = mt_layout(P, counts, 3, seed + (unsigned)mt_rank, displs);
    int *buf = malloc(sizeof(int) * (size_t)n), *ref = malloc(sizeof(int) * (size_t)n);
    memset(buf, SENTINEL, sizeof(int) * (size_t)n);
    for (int p = 0; p < P; p++)
        mt_fill(buf + displs[p], sizeof(int) * (size_t)counts[p], mt_rank, p, seed);
    memcpy(ref, buf, sizeof(int) * (size_t)n);
    if (MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, ref, counts, displs, MPI_INT,
                      MPI_COMM_WORLD) != MPI_SUCCESS)
        mt_fail("MPI_Alltoallv in place failed");
    nbo_request_t req;
    int rc = nbo_ialltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, buf, counts, displs,
                            MPI_INT, comm, &req);
    if (rc == NBO_SUCCESS)
        rc = mt_complete(&req, seed & 1);
    char what[80];
    snprintf(what, sizeof(what), "alltoallv in place, seed %u", seed);
    if (rc != NBO_SUCCESS)
        mt_fail("%s: %s", what, nbo_strerror(rc));
    else if (mt_compare(buf, ref, sizeof(int) * (size_t)n, what)) {
        int sentinel;
        memset(&sentinel, SENTINEL, sizeof(sentinel));
        for (int e = 0; e < n; e++)
            if (mt_in_gap(P, counts, displs, e) && buf[e] != sentinel) {
                mt_fail("%s: gap element %d was overwritten", what, e);
                break;
            }
    }
    free(counts); free(displs); free(buf); free(ref);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_inplace");
    const nbo_algorithm_t algs[] = {NBO_ALG_AUTO, NBO_ALG_PAIRWISE, NBO_ALG_BRUCK};
    const size_t sizes[] = {0, 1, 7, 64, 4096, 65536};
    unsigned seed = 1;
    for (int a = 0; a < 3; a++) {
        nbo_config_t cfg;
        mt_config(&cfg, algs[a]);
        nbo_comm_t comm;
        MT_OK(nbo_comm_create(MPI_COMM_WORLD, &cfg, &comm));
        if (a == 0)
            mt_describe(comm);
        if (mt_failures())
            break;
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
            alltoall_in_place(comm, algs[a], sizes[s], seed++);
        MT_OK(nbo_comm_free(&comm));
    }
    nbo_comm_t comm;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, NULL, &comm));
    for (unsigned s = 0; s < 6 && !mt_failures(); s++)
        alltoallv_in_place(comm, 100 + s, s < 3 ? 9 : 3000);
    MT_OK(nbo_comm_free(&comm));
    return mt_finish();
}
