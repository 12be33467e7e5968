/*
 * test_datatype.c - derived datatypes: a strided MPI_Type_vector on the send
 * side, the receive side and both (alltoall, alltoallv, in place), a
 * contiguous derived type, and a vector type the user frees right after
 * the call.  Each algorithm; compared with MPI_Alltoall(v) on the whole
 * buffers, so the holes of the strided type must stay untouched.
 */
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

static MPI_Datatype make_vector(void)
{
    MPI_Datatype t; /* 2 blocks of 3 ints, stride 5: 24 data bytes in 32 */
    MPI_Type_vector(2, 3, 5, MPI_INT, &t);
    MPI_Type_commit(&t);
    return t;
}

static size_t extent_of(MPI_Datatype t)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    return (size_t)ext;
}

typedef struct dt_case {
    const char  *label;
    MPI_Datatype stype, rtype;
    int          scount, rcount;
    int          in_place;
    int          free_rtype;  /* the user frees rtype (a private copy) right after the call */
} dt_case_t;

static void run(nbo_comm_t comm, nbo_algorithm_t alg, const dt_case_t *k, unsigned seed)
{
    const int P = mt_size;
    const size_t sblk = (size_t)k->scount * extent_of(k->stype);
    const size_t rblk = (size_t)k->rcount * extent_of(k->rtype);
    const size_t sn = (size_t)P * sblk + 1, rn = (size_t)P * rblk + 1;
    unsigned char *sbuf = malloc(sn), *rbuf = malloc(rn), *ref = malloc(rn);
    mt_fill(sbuf, sn, mt_rank, -1, seed);
    mt_fill(rbuf, rn, mt_rank, -2, seed); /* holes and blocks: known bytes */
    memcpy(ref, rbuf, rn);
    if (k->in_place)
        MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ref, k->rcount, k->rtype, MPI_COMM_WORLD);
    else
        MPI_Alltoall(sbuf, k->scount, k->stype, ref, k->rcount, k->rtype, MPI_COMM_WORLD);

    MPI_Datatype rtype = k->rtype;
    if (k->free_rtype)
        MPI_Type_dup(k->rtype, &rtype);
    nbo_request_t req;
    int rc = nbo_ialltoall(k->in_place ? MPI_IN_PLACE : sbuf, k->scount, k->stype, rbuf, k->rcount,
                           rtype, comm, &req);
    if (k->free_rtype)
        MPI_Type_free(&rtype); /* libnbo must keep what it needs */
    if (rc == NBO_SUCCESS)
        rc = mt_complete(&req, (int)(seed & 1));
    char what[128];
    snprintf(what, sizeof(what), "%s, %s", k->label, nbo_algorithm_name(alg));
    if (rc != NBO_SUCCESS)
        mt_fail("%s: %s", what, nbo_strerror(rc));
    else
        mt_compare(rbuf, ref, rn, what);
    free(sbuf); free(rbuf); free(ref);
}

/* alltoallv with the vector type on both sides, irregular counts, gaps. */
static void run_v(nbo_comm_t comm, MPI_Datatype vec, unsigned seed, int free_types)
{
    const int P = mt_size;
    const size_t ext = extent_of(vec);
    int *sc = malloc(sizeof(int) * (size_t)P), *sd = malloc(sizeof(int) * (size_t)P);
    int *rc = malloc(sizeof(int) * (size_t)P), *rd = malloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++) {
        sc[p] = mt_count(mt_rank, p, seed, 40, 0);
        rc[p] = mt_count(p, mt_rank, seed, 40, 0);
    }
    const size_t sn = (size_t)mt_layout(P, sc, 2, seed + (unsigned)mt_rank, sd) * ext;
    const size_t rn = (size_t)mt_layout(P, rc, 3, seed + 5 + (unsigned)mt_rank, rd) * ext;
    unsigned char *sbuf = malloc(sn), *rbuf = malloc(rn), *ref = malloc(rn);
    mt_fill(sbuf, sn, mt_rank, -3, seed);
    mt_fill(rbuf, rn, mt_rank, -4, seed);
    memcpy(ref, rbuf, rn);
    MPI_Alltoallv(sbuf, sc, sd, vec, ref, rc, rd, vec, MPI_COMM_WORLD);
    MPI_Datatype st = vec, rt = vec;
    if (free_types) {
        MPI_Type_dup(vec, &st);
        MPI_Type_dup(vec, &rt);
    }
    nbo_request_t req;
    int err = nbo_ialltoallv(sbuf, sc, sd, st, rbuf, rc, rd, rt, comm, &req);
    if (free_types) {
        MPI_Type_free(&st);
        MPI_Type_free(&rt);
    }
    if (err == NBO_SUCCESS)
        err = mt_complete(&req, 0);
    if (err != NBO_SUCCESS)
        mt_fail("alltoallv vector seed %u: %s", seed, nbo_strerror(err));
    else
        mt_compare(rbuf, ref, rn, free_types ? "alltoallv vector, types freed" : "alltoallv vector");
    free(sc); free(sd); free(rc); free(rd);
    free(sbuf); free(rbuf); free(ref);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_datatype");
    MPI_Datatype vec = make_vector(), con;
    MPI_Type_contiguous(6, MPI_INT, &con);
    MPI_Type_commit(&con);
    const nbo_algorithm_t algs[] = {NBO_ALG_AUTO, NBO_ALG_PAIRWISE, NBO_ALG_BRUCK};
    const int ns[] = {1, 5, 300}; /* vector elements per peer */
    unsigned seed = 1;
    for (int a = 0; a < 3 && !mt_failures(); a++) {
        nbo_config_t cfg;
        mt_config(&cfg, algs[a]);
        nbo_comm_t comm;
        MT_OK(nbo_comm_create(MPI_COMM_WORLD, a == 0 ? NULL : &cfg, &comm));
        if (a == 0)
            mt_describe(comm);
        if (mt_failures())
            break;
        for (int i = 0; i < 3; i++) {
            const int n = ns[i];
            const dt_case_t cases[] = {
                {"vector send, int recv", vec, MPI_INT, n, 6 * n, 0, 0},
                {"int send, vector recv", MPI_INT, vec, 6 * n, n, 0, 0},
                {"vector both", vec, vec, n, n, 0, 0},
                {"vector both, recv type freed after the call", vec, vec, n, n, 0, 1},
                {"vector in place", MPI_DATATYPE_NULL, vec, 0, n, 1, 0},
                {"vector in place, type freed after the call", MPI_DATATYPE_NULL, vec, 0, n, 1, 1},
                {"contiguous derived both", con, con, n, n, 0, 0},
                {"contiguous derived send, vector recv", con, vec, n, n, 0, 0},
            };
            for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
                run(comm, algs[a], &cases[c], seed++);
        }
        MT_OK(nbo_comm_free(&comm));
    }
    nbo_comm_t comm;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, NULL, &comm));
    for (unsigned s = 0; s < 4 && !mt_failures(); s++)
        run_v(comm, vec, 50 + s, s & 1);
    MT_OK(nbo_comm_free(&comm));
    MPI_Type_free(&vec);
    MPI_Type_free(&con);
    return mt_finish();
}
