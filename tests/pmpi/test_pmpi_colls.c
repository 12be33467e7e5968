/*
 * test_pmpi_colls.c - MPI_Iallreduce, MPI_Ireduce_scatter_block,
 * MPI_Iallgather(v), MPI_Ibcast and their persistent forms as an unmodified
 * program calls them: MPI_IN_PLACE, a non-contiguous derived datatype,
 * user-defined ops (commutative and not), many outstanding at once and
 * completed in any order mixed with MPI's own requests; then the calls the
 * library must leave to MPI (an intercommunicator, an op MPI refuses, a
 * root out of range), which must come out right and unserved.
 *
 *   --expect=nbo|mpi    served by libnbo or not (pt.h)
 *   --served=LIST       with --expect=nbo: the collectives NBO_PMPI_COLLS
 *                       serves, by its names (default: all of them); the
 *                       others must not be
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pt_coll.h"

/* gcc reads MPI_STATUSES_IGNORE, a sentinel pointer, as a zero-size array. */
#pragma GCC diagnostic ignored "-Wstringop-overflow"

#define NSERVED (PC_BCAST + 1)
static int served_on[NSERVED];

/* Did the library serve `calls` calls since *before?  (Checks only under
 * --expect=nbo; also moves *before on.) */
static void expect_served(long *before, long calls, const char *what)
{
    long now = pt_served();
    if (pt_expect_nbo())
        PT_CHECK(now - *before == calls, "%s: the library served %ld calls, want %ld", what,
                 now - *before, calls);
    *before = now;
}

static const int variants[] = {0, PC_INPLACE, PC_USEROP, PC_NONCOMM, PC_DERIVED,
                               PC_INPLACE | PC_DERIVED};
static const int counts[] = {0, 1, 37, 3000};
#define NV (int)(sizeof(variants) / sizeof(variants[0]))
#define NC (int)(sizeof(counts) / sizeof(counts[0]))

/* Every variant and count of one collective, non-blocking: all posted at
 * once with an MPI_Ibarrier and a ring message among them, completed by
 * MPI_Waitsome in whatever order they finish. */
static void outstanding(pc_kind_t kind, int round)
{
    enum { N = NV * NC + 3 };
    pc_call_t calls[NV * NC];
    MPI_Request reqs[N];
    int ring_out = pt_rank, ring_in = -1, left = (pt_rank + pt_size - 1) % pt_size;
    long before = pt_served();
    PT_MPI(MPI_Irecv(&ring_in, 1, MPI_INT, left, 9, MPI_COMM_WORLD, &reqs[0]));
    for (int v = 0; v < NV; v++)
        for (int c = 0; c < NC; c++) {
            pc_call_t *pc = &calls[v * NC + c];
            pc_setup(pc, kind, MPI_COMM_WORLD, counts[c], round * 100 + v * NC + c, variants[v]);
            PT_MPI(pc_start(pc, &reqs[1 + v * NC + c]));
        }
    long served = 0;
    for (int k = 0; k < NV * NC; k++)
        served += served_on[kind] && pc_served(&calls[k]);
    PT_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &reqs[N - 2]));
    PT_MPI(MPI_Isend(&ring_out, 1, MPI_INT, (pt_rank + 1) % pt_size, 9, MPI_COMM_WORLD,
                     &reqs[N - 1]));
    expect_served(&before, served, pc_kind_name[kind]);
    int left_to_do = N, idx[N];
    while (left_to_do > 0) {
        int out = 0;
        PT_MPI(MPI_Waitsome(N, reqs, &out, idx, MPI_STATUSES_IGNORE));
        if (out == MPI_UNDEFINED)
            break;
        left_to_do -= out;
    }
    PT_CHECK(left_to_do == 0, "%s: %d requests never completed", pc_kind_name[kind], left_to_do);
    PT_CHECK(ring_in == left, "%s: the ring message is %d, want %d", pc_kind_name[kind], ring_in,
             left);
    for (int k = 0; k < NV * NC; k++) {
        char what[96];
        snprintf(what, sizeof(what), "%s variant %d count %d", pc_kind_name[kind],
                 calls[k].variant, calls[k].n);
        pc_check(&calls[k], what);
        pc_free(&calls[k]);
    }
}

/* The persistent form: made once per variant, started three times with
 * fresh inputs, completed by MPI_Wait, an MPI_Test loop, MPI_Waitall. */
static void persistent(pc_kind_t kind)
{
    for (int v = 0; v < NV; v++) {
        pc_call_t pc;
        MPI_Request req = MPI_REQUEST_NULL;
        long before = pt_served();
        pc_setup(&pc, kind, MPI_COMM_WORLD, 501, 7 + v, variants[v]);
        PT_MPI(pc_persistent(&pc, &req));
        expect_served(&before, served_on[kind] && pc_served(&pc), pc_kind_name[kind]);
        for (int round = 0; round < 3; round++) {
            pc_fill(&pc, 7 + v + 10 * round);
            PT_MPI(MPI_Start(&req));
            if (round == 0) {
                PT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
            } else if (round == 1) {
                int flag = 0;
                while (!flag)
                    PT_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
            } else {
                PT_MPI(MPI_Waitall(1, &req, MPI_STATUSES_IGNORE));
            }
            PT_CHECK(req != MPI_REQUEST_NULL, "persistent %s: the handle became null",
                     pc_kind_name[kind]);
            char what[96];
            snprintf(what, sizeof(what), "persistent %s variant %d start %d",
                     pc_kind_name[kind], pc.variant, round);
            pc_check(&pc, what);
        }
        PT_MPI(MPI_Request_free(&req));
        pc_free(&pc);
    }
}

/* Calls the library must hand to MPI: right results (or MPI's own error),
 * and nothing served. */
static void fallbacks(void)
{
    long before = pt_served();
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Request req;
    float f = 1.0f, g = 0.0f;
    int rc = MPI_Iallreduce(&f, &g, 1, MPI_FLOAT, MPI_BAND, MPI_COMM_WORLD, &req);
    int cls = MPI_SUCCESS;
    MPI_Error_class(rc, &cls);
    PT_CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_OP,
             "MPI_BAND on MPI_FLOAT: error class %d, want MPI_ERR_OP (%d)", cls, MPI_ERR_OP);
    int x = 5;
    rc = MPI_Ibcast(&x, 1, MPI_INT, pt_size + 3, MPI_COMM_WORLD, &req);
    MPI_Error_class(rc, &cls);
    PT_CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_ROOT,
             "MPI_Ibcast root %d: error class %d, want MPI_ERR_ROOT (%d)", pt_size + 3, cls,
             MPI_ERR_ROOT);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    expect_served(&before, 0, "refused op and root");

    if (pt_size < 2)
        return;
    /* An intercommunicator between even and odd ranks: each side gets the
     * sum of the other side's ranks. */
    MPI_Comm half, inter;
    MPI_Comm_split(MPI_COMM_WORLD, pt_rank % 2, pt_rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - pt_rank % 2, 17, &inter);
    int mine = pt_rank + 1, sum = -1, want = 0;
    for (int r = 0; r < pt_size; r++)
        if (r % 2 != pt_rank % 2)
            want += r + 1;
    PT_MPI(MPI_Iallreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter, &req));
    PT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    PT_CHECK(sum == want, "intercommunicator allreduce: %d, want %d", sum, want);
    expect_served(&before, 0, "intercommunicator");
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
}

static void parse(int argc, char **argv)
{
    static const char *names[NSERVED] = {"alltoall", "alltoall", "allreduce",
                                         "reduce_scatter_block", "allgather", "allgatherv",
                                         "bcast"};
    for (int k = 0; k < NSERVED; k++)
        served_on[k] = 1;
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], "--served=", 9) == 0) {
            char list[256];
            snprintf(list, sizeof(list), ",%s,", argv[i] + 9);
            for (int k = 0; k < NSERVED; k++) {
                char name[64];
                snprintf(name, sizeof(name), ",%s,", names[k]);
                served_on[k] = strstr(list, name) != NULL;
            }
        }
}

int main(int argc, char **argv)
{
    pt_init(&argc, &argv, "colls");
    parse(argc, argv);
    pc_init();
    for (int round = 0; round < 2; round++)
        for (pc_kind_t k = PC_ALLREDUCE; k <= PC_BCAST; k++)
            outstanding(k, round);
    for (pc_kind_t k = PC_ALLREDUCE; k <= PC_BCAST; k++)
        persistent(k);
    fallbacks();
    pc_finalize();
    return pt_finish();
}
