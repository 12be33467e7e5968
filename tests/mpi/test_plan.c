/*
 * test_plan.c - a persistent request's plan rebuilt between two starts
 * (nbo_plan_rebuild, internal: this program links libnbo's static library).
 * A persistent alltoall is started and checked, its plan rebuilt on every
 * rank with another window (then, for P > 2, another algorithm), and
 * started again: the new list has the new shape (its WAITs, its
 * algorithm) and the data is right each time.  A running request refuses
 * a rebuild.  Ranks configured apart (rank 0 Bruck with W = 2, the others
 * pairwise with W = 1) run rank 0's choice, agreed at the first start.
 * Run under valgrind in the sanitize suite: nothing leaks.
 */
#include <stdlib.h>
#include <string.h>

#include "../../libnbo/core.h"
#include "mpitest.h"

enum { BLOCK = 1000 };

static void run_once(nbo_request_t *req, unsigned char *sbuf, unsigned char *rbuf,
                     unsigned seed, const char *what)
{
    const size_t n = (size_t)mt_size * BLOCK;
    for (int p = 0; p < mt_size; p++)
        mt_fill(sbuf + (size_t)p * BLOCK, BLOCK, mt_rank, p, seed);
    memset(rbuf, 0, n);
    MT_OK(nbo_start(req));
    MT_OK(nbo_wait(req));
    unsigned char *want = malloc(BLOCK);
    for (int p = 0; p < mt_size && want; p++) {
        mt_fill(want, BLOCK, p, mt_rank, seed);
        if (memcmp(rbuf + (size_t)p * BLOCK, want, BLOCK) != 0) {
            mt_fail("%s: block from rank %d wrong", what, p);
            break;
        }
    }
    free(want);
}

/* Pairwise with window W and every block non-empty: one WAIT per window. */
static int pairwise_waits(int W) { return (mt_size - 1 + W - 1) / W; }

/* Every rank's configuration differs from rank 0's: the first start agrees
 * on rank 0's choice, and the lists match (else the data would be wrong or
 * the start would hang). */
static void configured_apart(unsigned char *sbuf, unsigned char *rbuf)
{
    nbo_config_t cfg;
    mt_config(&cfg, mt_rank == 0 ? NBO_ALG_BRUCK : NBO_ALG_PAIRWISE);
    cfg.window = mt_rank == 0 ? 2 : 1;
    nbo_comm_t comm;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, &cfg, &comm));
    nbo_request_t req = NBO_REQUEST_NULL;
    MT_OK(nbo_alltoall_init(sbuf, BLOCK, MPI_BYTE, rbuf, BLOCK, MPI_BYTE, comm, &req));
    if (!mt_failures()) {
        run_once(&req, sbuf, rbuf, 5, "configured apart");
        const nbo_algorithm_t want = mt_size > 2 ? NBO_ALG_BRUCK : NBO_ALG_PAIRWISE;
        if (req->plan.args.algorithm != want || req->plan.args.window != 2 || !req->plan.agreed)
            mt_fail("configured apart: runs %s with W = %d (agreed %d), want rank 0's %s, W = 2",
                    nbo_algorithm_name(req->plan.args.algorithm), req->plan.args.window,
                    req->plan.agreed, nbo_algorithm_name(want));
        run_once(&req, sbuf, rbuf, 6, "configured apart, second start");
        MT_OK(nbo_request_free(&req));
    }
    MT_EXPECT(NBO_SUCCESS, nbo_comm_free(&comm));
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_plan");
    nbo_config_t cfg;
    mt_config(&cfg, NBO_ALG_PAIRWISE);
    cfg.window = 1;
    nbo_comm_t comm;
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, &cfg, &comm));
    const size_t n = (size_t)mt_size * BLOCK;
    unsigned char *sbuf = malloc(n), *rbuf = malloc(n);
    nbo_request_t req = NBO_REQUEST_NULL;
    MT_OK(nbo_alltoall_init(sbuf, BLOCK, MPI_BYTE, rbuf, BLOCK, MPI_BYTE, comm, &req));
    if (!mt_failures()) {
        if (req->plan.sched.nwaits != pairwise_waits(1))
            mt_fail("window 1: %d waits, want %d", req->plan.sched.nwaits, pairwise_waits(1));
        run_once(&req, sbuf, rbuf, 1, "window 1");

        nbo_choice_t w3 = {.algorithm = NBO_ALG_PAIRWISE, .window = 3};
        MT_OK(nbo_plan_rebuild(req, &w3));
        if (req->plan.args.window != 3 || req->plan.sched.nwaits != pairwise_waits(3))
            mt_fail("rebuilt with window 3: window %d, %d waits, want %d", req->plan.args.window,
                    req->plan.sched.nwaits, pairwise_waits(3));
        run_once(&req, sbuf, rbuf, 2, "window 3");

        nbo_choice_t bruck = {.algorithm = NBO_ALG_BRUCK, .window = 2};
        MT_OK(nbo_plan_rebuild(req, &bruck));
        nbo_algorithm_t alg;
        MT_OK(nbo_request_algorithm(req, &alg));
        if (alg != (mt_size > 2 ? NBO_ALG_BRUCK : NBO_ALG_PAIRWISE))
            mt_fail("rebuilt for Bruck: %s", nbo_algorithm_name(alg));
        run_once(&req, sbuf, rbuf, 3, "Bruck");

        /* Only between two starts. */
        MT_OK(nbo_start(&req));
        MT_EXPECT(NBO_ERR_ACTIVE, nbo_plan_rebuild(req, &w3));
        MT_OK(nbo_wait(&req));
        nbo_choice_t bad = {.algorithm = NBO_ALG_PAIRWISE, .window = 0};
        MT_EXPECT(NBO_ERR_ARG, nbo_plan_rebuild(req, &bad));
        run_once(&req, sbuf, rbuf, 4, "after refusals");
        MT_OK(nbo_request_free(&req));
    }
    MT_EXPECT(NBO_SUCCESS, nbo_comm_free(&comm));
    configured_apart(sbuf, rbuf);
    free(sbuf);
    free(rbuf);
    return mt_finish();
}
