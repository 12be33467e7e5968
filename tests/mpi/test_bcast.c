/*
 * test_bcast.c - nbo_ibcast and nbo_bcast_init against MPI_Bcast on the
 * same input, byte for byte, for AUTO, binomial and scatter + allgather,
 * from every root: 0 B to 4 MiB, a derived (vector) type whose holes stay
 * untouched, several requests outstanding on two communicators, a
 * persistent request started 100 times, bad input with its own codes
 * (NBO_ERR_ROOT for a root out of range), and under NBO_CHECK roots and
 * counts that disagree across ranks (NBO_ERR_MISMATCH).
 */
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

static const nbo_algorithm_t algs[] = {NBO_ALG_AUTO, NBO_ALG_BINOMIAL,
                                       NBO_ALG_SCATTER_ALLGATHER};
#define NALGS (int)(sizeof(algs) / sizeof(algs[0]))

static void bytes(nbo_comm_t comm, const char *alg, int n, int root, unsigned seed)
{
    unsigned char *got = malloc((size_t)n + 1), *ref = malloc((size_t)n + 1);
    /* Non-roots start from garbage of their own. */
    mt_fill(ref, (size_t)n, mt_rank, 0, seed + (mt_rank != root));
    memcpy(got, ref, (size_t)n);
    MPI_Bcast(ref, n, MPI_BYTE, root, MPI_COMM_WORLD);
    nbo_request_t req;
    MT_OK(nbo_ibcast(got, n, MPI_BYTE, root, comm, &req));
    mt_complete_alternating(&req);
    char what[128];
    snprintf(what, sizeof(what), "bcast %s %d B from %d", alg, n, root);
    mt_compare(got, ref, (size_t)n, what);
    free(got); free(ref);
}

static void derived(nbo_comm_t comm, const char *alg, int n, int root)
{
    MPI_Datatype vec;
    MPI_Type_vector(3, 2, 3, MPI_SHORT, &vec); /* 6 shorts of data in 8 */
    MPI_Type_commit(&vec);
    const size_t len = (size_t)n * 16 + 8;
    unsigned char *got = malloc(len), *ref = malloc(len);
    if (mt_rank == root)
        mt_fill(ref, len, root, 1, 3);
    else
        memset(ref, 0x5a, len); /* the holes must keep this */
    memcpy(got, ref, len);
    MPI_Bcast(ref, n, vec, root, MPI_COMM_WORLD);
    nbo_request_t req;
    MT_OK(nbo_ibcast(got, n, vec, root, comm, &req));
    MPI_Type_free(&vec); /* libnbo keeps its own */
    mt_complete_alternating(&req);
    char what[128];
    snprintf(what, sizeof(what), "bcast %s vector type, %d of them from %d", alg, n, root);
    mt_compare(got, ref, len, what);
    free(got); free(ref);
}

static void outstanding(nbo_comm_t c1, nbo_comm_t c2)
{
    enum { K = 6, N = 5000 };
    unsigned char *got = malloc(K * N), *ref = malloc(K * N);
    nbo_request_t reqs[K];
    for (int k = 0; k < K; k++) {
        int root = k % mt_size;
        mt_fill(ref + k * N, N, mt_rank, 0, (unsigned)k + (mt_rank != root));
    }
    memcpy(got, ref, K * N);
    for (int k = 0; k < K; k++)
        MPI_Bcast(ref + k * N, N, MPI_BYTE, k % mt_size, MPI_COMM_WORLD);
    for (int k = 0; k < K; k++)
        MT_OK(nbo_ibcast(got + k * N, N, MPI_BYTE, k % mt_size, k % 2 ? c2 : c1, &reqs[k]));
    MT_OK(nbo_waitall(K, reqs));
    mt_compare(got, ref, K * N, "bcast: 6 outstanding on two communicators, every root");
    free(got); free(ref);
}

static void persistent(nbo_comm_t comm)
{
    enum { N = 3001 };
    unsigned char got[N], ref[N];
    const int root = mt_size - 1;
    nbo_request_t req;
    MT_OK(nbo_bcast_init(got, N, MPI_BYTE, root, comm, &req));
    for (int it = 0; it < 100 && !mt_failures(); it++) {
        mt_fill(ref, N, mt_rank, 0, (unsigned)it * 2 + (mt_rank != root));
        memcpy(got, ref, N);
        MPI_Bcast(ref, N, MPI_BYTE, root, MPI_COMM_WORLD);
        MT_OK(nbo_start(&req));
        mt_complete_alternating(&req);
        mt_compare(got, ref, N, "persistent bcast");
    }
    if (req != NBO_REQUEST_NULL)
        MT_OK(nbo_request_free(&req));
}

#define BAD(want, call) MT_REFUSED(&req, (want), (call))

static void bad_input(nbo_comm_t comm)
{
    nbo_request_t req;
    char a[8];
    MPI_Datatype raw;
    MPI_Type_contiguous(2, MPI_INT, &raw); /* never committed */
    BAD(NBO_ERR_ROOT, nbo_ibcast(a, 8, MPI_BYTE, mt_size, comm, &req));
    BAD(NBO_ERR_ROOT, nbo_bcast_init(a, 8, MPI_BYTE, -1, comm, &req));
    BAD(NBO_ERR_COUNT, nbo_ibcast(a, -1, MPI_BYTE, 0, comm, &req));
    BAD(NBO_ERR_BUFFER, nbo_ibcast(NULL, 8, MPI_BYTE, 0, comm, &req));
    BAD(NBO_ERR_BUFFER, nbo_ibcast(MPI_IN_PLACE, 8, MPI_BYTE, 0, comm, &req));
    BAD(NBO_ERR_DATATYPE, nbo_ibcast(a, 8, MPI_DATATYPE_NULL, 0, comm, &req));
    BAD(NBO_ERR_DATATYPE, nbo_bcast_init(a, 1, raw, 0, comm, &req));
    BAD(NBO_ERR_COMM, nbo_ibcast(a, 8, MPI_BYTE, 0, NBO_COMM_NULL, &req));
    MPI_Type_free(&raw);
}

/* NBO_CHECK=1: ranks that disagree on the root or the count all get
 * NBO_ERR_MISMATCH instead of a hang. */
static void checked(void)
{
    nbo_config_t cfg;
    nbo_comm_t chk;
    nbo_request_t req;
    char a[16] = {0};
    mt_config(&cfg, NBO_ALG_AUTO);
    cfg.check = 1;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, &cfg, &chk));
    if (mt_failures())
        return;
    if (mt_size > 1) {
        BAD(NBO_ERR_MISMATCH, nbo_ibcast(a, 8, MPI_BYTE, mt_rank % 2, chk, &req));
        BAD(NBO_ERR_MISMATCH, nbo_ibcast(a, 8 + mt_rank % 2, MPI_BYTE, 0, chk, &req));
    }
    MT_OK(nbo_ibcast(a, 8, MPI_BYTE, 0, chk, &req));
    MT_OK(nbo_wait(&req));
    MT_OK(nbo_comm_free(&chk));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_bcast");
    nbo_comm_t second;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, NULL, &second));
    static const int sizes[] = {0, 1, 100, 16385, 300000, 4 << 20};
    for (int a = 0; a < NALGS && !mt_failures(); a++) {
        nbo_comm_t comm;
        if (!mt_comm_for(algs[a], &comm))
            break;
        const char *name = nbo_algorithm_name(algs[a]);
        for (int root = 0; root < mt_size; root++)
            for (int i = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++)
                if (sizes[i] < (1 << 20) || root == mt_size / 2) /* 4 MiB from one root */
                    bytes(comm, name, sizes[i], root, (unsigned)i);
        derived(comm, name, 1, 0);
        derived(comm, name, 5000, mt_size - 1);
        if (a == 0) {
            outstanding(comm, second);
            persistent(comm);
            bad_input(comm);
            checked();
        }
        MT_OK(nbo_comm_free(&comm));
    }
    MT_OK(nbo_comm_free(&second));
    return mt_finish();
}
