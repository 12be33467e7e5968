/*
 * test_pmpi_neighbor.c - MPI_Ineighbor_alltoall(v), MPI_Ineighbor_allgather(v)
 * and MPI_Neighbor_alltoallv_init (started 20 times) of a plain MPI
 * program, on a periodic ring, a 2-D grid with edges (MPI_PROC_NULL) and
 * a distributed graph of two out-edges per rank.  Each result is checked
 * against values computed by hand from MPI-4.1's definition (on a
 * Cartesian grid block s of a sender lands in block s^1 of the receiver;
 * in a graph the k-th edge to a rank matches the k-th from it), and, where
 * no neighbour repeats (MPI libraries disagree there), against MPI's own
 * blocking collective, which the library never serves.
 */
/* Open MPI's MPI_UNWEIGHTED is a small constant pointer: GCC's access
 * attributes in its mpi.h then read it as a zero-size array. */
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#pragma GCC diagnostic ignored "-Wstringop-overread"
#include <stdlib.h>
#include <string.h>

#include "pt.h"

#define N 5 /* ints per block */

typedef struct topo {
    const char *name;
    MPI_Comm    comm;
    int         cart, in, out, repeat;
    int         src[8], dst[8];
    int         sblock[8]; /* graph: the block of src[j] that comes here */
} topo_t;

/* Element i of block b of rank r (allgather: b = -1, the one block). */
static int val(int r, int b, int i, int seed) { return pt_val(r, b + 1, i, seed); }

/* The sender's block that lands in receive block j. */
static int from_block(const topo_t *t, int j) { return t->cart ? j ^ 1 : t->sblock[j]; }

static void check(const topo_t *t, const int *got, const int *displs, int gather, int seed,
                  const char *what)
{
    for (int j = 0; j < t->in; j++)
        for (int i = 0; i < N; i++) {
            const int at = (displs ? displs[j] : j * N) + i;
            const int want = t->src[j] == MPI_PROC_NULL ? -1
                             : val(t->src[j], gather ? -1 : from_block(t, j), i, seed);
            PT_CHECK(got[at] == want, "%s %s: block %d element %d is %d, expected %d", t->name,
                     what, j, i, got[at], want);
        }
}

static void run(topo_t *t)
{
    int s[8 * N], ag[N], r[8 * N + 8], ref[8 * N + 8], cnt[8], sd[8], rd[8];
    const int rlen = 8 * N + 8;
    for (int b = 0; b < t->out; b++) {
        cnt[b] = N;
        sd[b] = (t->out - 1 - b) * N; /* blocks in reverse order */
    }
    for (int j = 0; j < t->in; j++)
        rd[j] = (t->in - 1 - j) * (N + 1); /* reverse, with gaps */
    for (int seed = 1; seed <= 4; seed++) {
        for (int b = 0; b < t->out; b++)
            for (int i = 0; i < N; i++)
                s[sd[b] + i] = val(pt_rank, b, i, seed);
        for (int i = 0; i < N; i++)
            ag[i] = val(pt_rank, -1, i, seed);
        MPI_Request q;
        for (int k = 0; k < rlen; k++)
            r[k] = ref[k] = -1;
        int *rc = cnt; /* every block N ints */
        switch (seed) {
        case 1: {
            int sc[8 * N]; /* alltoall's blocks in order */
            for (int b = 0; b < t->out; b++)
                memcpy(sc + b * N, s + sd[b], sizeof(int) * N);
            PT_MPI(MPI_Ineighbor_alltoall(sc, N, MPI_INT, r, N, MPI_INT, t->comm, &q));
            PT_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
            check(t, r, NULL, 0, seed, "MPI_Ineighbor_alltoall");
            if (!t->repeat) {
                PT_MPI(MPI_Neighbor_alltoall(sc, N, MPI_INT, ref, N, MPI_INT, t->comm));
                PT_CHECK(!memcmp(r, ref, sizeof(r)), "%s: differs from MPI_Neighbor_alltoall",
                         t->name);
            }
            break;
        }
        case 2:
            PT_MPI(MPI_Ineighbor_alltoallv(s, cnt, sd, MPI_INT, r, rc, rd, MPI_INT, t->comm, &q));
            PT_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
            check(t, r, rd, 0, seed, "MPI_Ineighbor_alltoallv");
            if (!t->repeat) {
                PT_MPI(MPI_Neighbor_alltoallv(s, cnt, sd, MPI_INT, ref, rc, rd, MPI_INT, t->comm));
                PT_CHECK(!memcmp(r, ref, sizeof(r)), "%s: differs from MPI_Neighbor_alltoallv",
                         t->name);
            }
            break;
        case 3:
            PT_MPI(MPI_Ineighbor_allgather(ag, N, MPI_INT, r, N, MPI_INT, t->comm, &q));
            PT_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
            check(t, r, NULL, 1, seed, "MPI_Ineighbor_allgather");
            break;
        case 4:
            PT_MPI(MPI_Ineighbor_allgatherv(ag, N, MPI_INT, r, rc, rd, MPI_INT, t->comm, &q));
            PT_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
            check(t, r, rd, 1, seed, "MPI_Ineighbor_allgatherv");
            if (!t->repeat) {
                PT_MPI(MPI_Neighbor_allgatherv(ag, N, MPI_INT, ref, rc, rd, MPI_INT, t->comm));
                PT_CHECK(!memcmp(r, ref, sizeof(r)), "%s: differs from MPI_Neighbor_allgatherv",
                         t->name);
            }
            break;
        }
    }
#if MPI_VERSION >= 4 || defined(OPEN_MPI)
    /* Persistent: compiled once, started 20 times with new data. */
    MPI_Request q;
    PT_MPI(MPI_Neighbor_alltoallv_init(s, cnt, sd, MPI_INT, r, cnt, rd, MPI_INT, t->comm,
                                       MPI_INFO_NULL, &q));
    for (int it = 0; it < 20; it++) {
        for (int b = 0; b < t->out; b++)
            for (int i = 0; i < N; i++)
                s[sd[b] + i] = val(pt_rank, b, i, 100 + it);
        for (int k = 0; k < rlen; k++)
            r[k] = -1;
        PT_MPI(MPI_Start(&q));
        PT_MPI(MPI_Wait(&q, MPI_STATUS_IGNORE));
        check(t, r, rd, 0, 100 + it, "MPI_Neighbor_alltoallv_init");
    }
    PT_MPI(MPI_Request_free(&q));
#endif
}

static void finish(topo_t *t)
{
    int mine = 0;
    for (int j = 0; j < t->in; j++)
        for (int k = 0; k < j; k++)
            mine |= t->src[j] != MPI_PROC_NULL && t->src[j] == t->src[k];
    MPI_Allreduce(&mine, &t->repeat, 1, MPI_INT, MPI_MAX, t->comm);
    run(t);
    MPI_Comm_free(&t->comm);
}

static void cart(int nd, const int *periods, const char *name)
{
    int dims[2] = {0, 0};
    MPI_Dims_create(pt_size, nd, dims);
    topo_t t = {.name = name, .cart = 1, .in = 2 * nd, .out = 2 * nd};
    MPI_Cart_create(MPI_COMM_WORLD, nd, dims, periods, 0, &t.comm);
    for (int d = 0; d < nd; d++) {
        MPI_Cart_shift(t.comm, d, 1, &t.src[2 * d], &t.src[2 * d + 1]);
        t.dst[2 * d] = t.src[2 * d];
        t.dst[2 * d + 1] = t.src[2 * d + 1];
    }
    finish(&t);
}

/* Edges to rank+1 (block 0) and rank+2 (block 1); sources listed as
 * rank-1 (its block 0) then rank-2 (its block 1). */
static void graph(void)
{
    const int P = pt_size, me = pt_rank;
    topo_t t = {.name = "dist graph", .in = 2, .out = 2};
    t.dst[0] = (me + 1) % P;
    t.dst[1] = (me + 2) % P;
    t.src[0] = (me - 1 + P) % P;
    t.src[1] = (me - 2 + 2 * P) % P;
    t.sblock[0] = 0;
    t.sblock[1] = 1;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, t.src, MPI_UNWEIGHTED, 2, t.dst,
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &t.comm);
    finish(&t);
}

int main(int argc, char **argv)
{
    pt_init(&argc, &argv, "test_pmpi_neighbor");
    const int ring[1] = {1}, grid[2] = {0, 0};
    cart(1, ring, "periodic ring");
    cart(2, grid, "2-D grid");
    graph();
    return pt_finish();
}
