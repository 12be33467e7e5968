/*
 * test_pmpi_comms.c - communicators: MPI_COMM_SELF, a split sub-communicator, an
 * intercommunicator (MPI serves it), and N communicators (--ncomms=N,
 * default 50) created, used and freed: the attribute callback must free
 * libnbo's state each time.
 */
#include <stdlib.h>
#include <string.h>

#include "pt.h"

static int *alloc_ints(size_t n) { return calloc(n ? n : 1, sizeof(int)); }

static void alltoall_on(MPI_Comm comm, int n, int seed, const char *what)
{
    int p;
    MPI_Comm_size(comm, &p);
    int *s = alloc_ints((size_t)n * p), *r = alloc_ints((size_t)n * p);
    pt_fill(s, n, comm, seed);
    MPI_Request req;
    PT_MPI(MPI_Ialltoall(s, n, MPI_INT, r, n, MPI_INT, comm, &req));
    PT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    pt_check(r, n, comm, seed, what);
    free(s), free(r);
}

/* Intercommunicator all-to-all: rank i of one group sends to every rank of
 * the other.  libnbo does not serve these; MPI must. */
static void intercomm(int seed)
{
    if (pt_size < 2)
        return;
    MPI_Comm half, inter;
    int color = pt_rank % 2;
    MPI_Comm_split(MPI_COMM_WORLD, color, pt_rank, &half);
    PT_MPI(MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 3, &inter));
    int me, rsize;
    MPI_Comm_rank(inter, &me);
    MPI_Comm_remote_size(inter, &rsize);
    int *s = alloc_ints(rsize), *r = alloc_ints(rsize);
    for (int d = 0; d < rsize; d++)
        s[d] = pt_val(2 * me + color, 2 * d + 1 - color, 0, seed);
    MPI_Request req;
    PT_MPI(MPI_Ialltoall(s, 1, MPI_INT, r, 1, MPI_INT, inter, &req));
    PT_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    for (int src = 0; src < rsize; src++)
        PT_CHECK(r[src] == pt_val(2 * src + 1 - color, 2 * me + color, 0, seed),
                 "intercomm: from %d got %d", src, r[src]);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    free(s), free(r);
}

int main(int argc, char **argv)
{
    pt_init(&argc, &argv, "test_pmpi_comms");
    int ncomms = 50;
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], "--ncomms=", 9) == 0)
            ncomms = atoi(argv[i] + 9);
    int seed = 1;
    alltoall_on(MPI_COMM_SELF, 100, seed++, "comm_self");

    MPI_Comm sub;
    MPI_Comm_split(MPI_COMM_WORLD, pt_rank % 2, -pt_rank, &sub);
    alltoall_on(sub, 33, seed++, "split");
    alltoall_on(MPI_COMM_WORLD, 10, seed++, "world");
    alltoall_on(sub, 5, seed++, "split again");
    MPI_Comm_free(&sub);

    intercomm(seed++);

    /* Each communicator's libnbo state must go with it. */
    alltoall_on(MPI_COMM_WORLD, 1, seed++, "world");
    long before = pt_live_comms();
    for (int i = 0; i < ncomms; i++) {
        MPI_Comm dup;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        alltoall_on(dup, 3, seed++, "dup");
        MPI_Comm_free(&dup);
    }
    long after = pt_live_comms();
    PT_CHECK(after == before, "libnbo communicators alive: %ld before %d dup/free, %ld after",
             before, ncomms, after);
    return pt_finish();
}
