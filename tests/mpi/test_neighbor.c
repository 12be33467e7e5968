/*
 * test_neighbor.c - the neighbourhood collectives (nbo_ineighbor_* and the
 * persistent nbo_neighbor_*_init) against MPI's own MPI_Neighbor_*, byte
 * for byte over the whole receive buffer (blocks of MPI_PROC_NULL
 * neighbours and the gaps between blocks must stay untouched): 1-D, 2-D
 * and 3-D Cartesian grids, periodic and not, a random distributed graph
 * with self loops, duplicate edges and unequal in- and out-degrees, and an
 * MPI_Graph_create ring; counts that are zero for some pairs; a strided
 * derived type on either side; four requests outstanding at once; a
 * persistent request started 100 times with new data each time.
 */
/* Open MPI's MPI_UNWEIGHTED is a small constant pointer: GCC's access
 * attributes in its mpi.h then read it as a zero-size array. */
#pragma GCC diagnostic ignored "-Wpragmas"
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#pragma GCC diagnostic ignored "-Wstringop-overread"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

enum { A2A, A2AV, AG, AGV, NKINDS };
static const char *kind_name[] = {"alltoall", "alltoallv", "allgather", "allgatherv"};

/* A topology's neighbours in MPI's block order (MPI_PROC_NULL kept). */
typedef struct topo {
    const char *name;
    MPI_Comm    comm;
    int         indeg, outdeg;
    int        *src, *dst;
    int         cart;   /* Cartesian: blocks pair by direction */
    int         repeat; /* some rank's sources repeat one */
} topo_t;

/* The types a block moves as: a unit is two ints of data, one element of
 * the strided vector type (ints 0 and 2 of three) or two MPI_INTs. */
static MPI_Datatype vec;
typedef struct types {
    MPI_Datatype st, rt;
    int          sper, rper; /* elements per unit */
} types_t;

/* One call's buffers and arguments, and MPI's answer. */
typedef struct call {
    int            kind;
    types_t        ty;
    int            scount, rcount;
    int           *sc, *sd, *rc, *rd;
    unsigned char *sbuf, *rbuf, *ref, *mpiref;
    size_t         sbytes, rbytes;
} call_t;

/* Units rank s sends rank d (0..3 times scale: zero for some pairs), the
 * same for every block between them. */
static int units(int s, int d, int scale)
{
    if (s == MPI_PROC_NULL || d == MPI_PROC_NULL)
        return 1;
    return (s * 7 + d * 3) % 4 * scale;
}

static MPI_Aint extent(MPI_Datatype t)
{
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    return ext;
}

/* Blocks in reverse order with a gap of one element between them. */
static size_t layout(int n, const int *counts, int *displs)
{
    size_t at = 1;
    for (int i = n - 1; i >= 0; i--) {
        displs[i] = (int)at;
        at += (size_t)counts[i] + 1;
    }
    return at;
}

static void fill_send(call_t *c, unsigned seed)
{
    mt_fill(c->sbuf, c->sbytes, mt_rank, -1, seed);
}

/* MPI's own blocking neighbourhood collective into c->mpiref. */
static void mpi_collective(const topo_t *t, call_t *c)
{
    memset(c->mpiref, 0xEE, c->rbytes);
    int rc = MPI_ERR_OTHER;
    switch (c->kind) {
    case A2A:
        rc = MPI_Neighbor_alltoall(c->sbuf, c->scount, c->ty.st, c->mpiref, c->rcount, c->ty.rt,
                                   t->comm);
        break;
    case A2AV:
        rc = MPI_Neighbor_alltoallv(c->sbuf, c->sc, c->sd, c->ty.st, c->mpiref, c->rc, c->rd,
                                    c->ty.rt, t->comm);
        break;
    case AG:
        rc = MPI_Neighbor_allgather(c->sbuf, c->scount, c->ty.st, c->mpiref, c->rcount, c->ty.rt,
                                    t->comm);
        break;
    case AGV:
        rc = MPI_Neighbor_allgatherv(c->sbuf, c->scount, c->ty.st, c->mpiref, c->rc, c->rd,
                                     c->ty.rt, t->comm);
        break;
    }
    if (rc != MPI_SUCCESS)
        mt_fail("%s: MPI_Neighbor_%s failed", t->name, kind_name[c->kind]);
}

/* MPI-4.1 section 8.6's definition, in point-to-point messages, into
 * c->ref: on a Cartesian grid block s of a sender lands in block s^1 of
 * the receiver (the tags say the direction), in a graph the k-th edge to
 * a rank matches the k-th from it (one tag, non-overtaking). */
static void p2p_reference(const topo_t *t, call_t *c)
{
    memset(c->ref, 0xEE, c->rbytes);
    const MPI_Aint se = extent(c->ty.st), re = extent(c->ty.rt);
    MPI_Request *q = malloc(sizeof(MPI_Request) * (size_t)(t->indeg + t->outdeg + 1));
    int n = 0;
    for (int j = 0; j < t->indeg; j++) {
        const int cnt = c->kind == A2A || c->kind == AG ? c->rcount : c->rc[j];
        const MPI_Aint at = c->kind == A2A || c->kind == AG ? (MPI_Aint)j * c->rcount : c->rd[j];
        MPI_Irecv(c->ref + at * re, cnt, c->ty.rt, t->src[j], t->cart ? j : 0, t->comm, &q[n++]);
    }
    for (int i = 0; i < t->outdeg; i++) {
        const int cnt = c->kind == A2AV ? c->sc[i] : c->scount;
        const MPI_Aint at = c->kind == A2AV ? c->sd[i] : c->kind == A2A ? (MPI_Aint)i * c->scount : 0;
        MPI_Isend(c->sbuf + at * se, cnt, c->ty.st, t->dst[i], t->cart ? i ^ 1 : 0, t->comm,
                  &q[n++]);
    }
    for (int k = 0; k < n; k++) /* MPI_Waitall's STATUSES_IGNORE upsets GCC's bounds checks */
        MPI_Wait(&q[k], MPI_STATUS_IGNORE);
    free(q);
}

/* Both answers.  Where no source repeats, MPI's collective is
 * unambiguous and must agree with the definition; where one does, MPI
 * libraries disagree (MPICH 4.0's MPI_Neighbor_alltoall pairs a repeated
 * pair's blocks in reverse, its MPI_Neighbor_alltoallv in list order) and
 * only the definition is compared with. */
static void reference(const topo_t *t, call_t *c)
{
    p2p_reference(t, c);
    if (t->repeat)
        return;
    mpi_collective(t, c);
    char name[160];
    snprintf(name, sizeof(name), "%s %s: MPI_Neighbor_%s against the definition", t->name,
             kind_name[c->kind], kind_name[c->kind]);
    mt_compare(c->mpiref, c->ref, c->rbytes, name);
}

static void setup(const topo_t *t, call_t *c, int kind, types_t ty, int scale, unsigned seed)
{
    memset(c, 0, sizeof(*c));
    c->kind = kind;
    c->ty = ty;
    const int in = t->indeg, out = t->outdeg;
    c->sc = calloc((size_t)out + 1, sizeof(int));
    c->sd = calloc((size_t)out + 1, sizeof(int));
    c->rc = calloc((size_t)in + 1, sizeof(int));
    c->rd = calloc((size_t)in + 1, sizeof(int));
    size_t selems = 0, relems = 0;
    const int u = (mt_rank % 3 + 1) * scale; /* allgather(v): this rank's units */
    switch (kind) {
    case A2A:
    case AG:
        c->scount = scale * ty.sper;
        c->rcount = scale * ty.rper;
        selems = (size_t)c->scount * (kind == A2A ? (size_t)out : 1);
        relems = (size_t)c->rcount * (size_t)in;
        break;
    case A2AV:
        for (int i = 0; i < out; i++)
            c->sc[i] = units(mt_rank, t->dst[i], scale) * ty.sper;
        for (int i = 0; i < in; i++)
            c->rc[i] = units(t->src[i], mt_rank, scale) * ty.rper;
        selems = layout(out, c->sc, c->sd);
        relems = layout(in, c->rc, c->rd);
        break;
    case AGV:
        c->scount = u * ty.sper;
        for (int i = 0; i < in; i++)
            c->rc[i] = (t->src[i] == MPI_PROC_NULL ? 1 : (t->src[i] % 3 + 1) * scale) * ty.rper;
        selems = (size_t)c->scount;
        relems = layout(in, c->rc, c->rd);
        break;
    }
    c->sbytes = (selems + 1) * (size_t)extent(ty.st);
    c->rbytes = (relems + 1) * (size_t)extent(ty.rt);
    c->sbuf = malloc(c->sbytes);
    c->rbuf = malloc(c->rbytes);
    c->ref = malloc(c->rbytes);
    c->mpiref = malloc(c->rbytes);
    fill_send(c, seed);
    memset(c->rbuf, 0xEE, c->rbytes);
    reference(t, c);
}

static void release(call_t *c)
{
    free(c->sc); free(c->sd); free(c->rc); free(c->rd);
    free(c->sbuf); free(c->rbuf); free(c->ref); free(c->mpiref);
}

static int post(call_t *c, nbo_comm_t nc, int persistent, nbo_request_t *req)
{
    if (persistent)
        switch (c->kind) {
        case A2A:
            return nbo_neighbor_alltoall_init(c->sbuf, c->scount, c->ty.st, c->rbuf, c->rcount,
                                              c->ty.rt, nc, req);
        case A2AV:
            return nbo_neighbor_alltoallv_init(c->sbuf, c->sc, c->sd, c->ty.st, c->rbuf, c->rc,
                                               c->rd, c->ty.rt, nc, req);
        case AG:
            return nbo_neighbor_allgather_init(c->sbuf, c->scount, c->ty.st, c->rbuf, c->rcount,
                                               c->ty.rt, nc, req);
        default:
            return nbo_neighbor_allgatherv_init(c->sbuf, c->scount, c->ty.st, c->rbuf, c->rc,
                                                c->rd, c->ty.rt, nc, req);
        }
    switch (c->kind) {
    case A2A:
        return nbo_ineighbor_alltoall(c->sbuf, c->scount, c->ty.st, c->rbuf, c->rcount, c->ty.rt,
                                      nc, req);
    case A2AV:
        return nbo_ineighbor_alltoallv(c->sbuf, c->sc, c->sd, c->ty.st, c->rbuf, c->rc, c->rd,
                                       c->ty.rt, nc, req);
    case AG:
        return nbo_ineighbor_allgather(c->sbuf, c->scount, c->ty.st, c->rbuf, c->rcount, c->ty.rt,
                                       nc, req);
    default:
        return nbo_ineighbor_allgatherv(c->sbuf, c->scount, c->ty.st, c->rbuf, c->rc, c->rd,
                                        c->ty.rt, nc, req);
    }
}

static void compare(const topo_t *t, const call_t *c, const char *what)
{
    char name[160];
    snprintf(name, sizeof(name), "%s %s %s", t->name, kind_name[c->kind], what);
    mt_compare(c->rbuf, c->ref, c->rbytes, name);
}

/* Every collective with each pair of types, one call at a time. */
static void one_by_one(const topo_t *t, nbo_comm_t nc)
{
    const types_t tys[] = {{MPI_INT, MPI_INT, 2, 2}, {vec, MPI_INT, 1, 2}, {MPI_INT, vec, 2, 1}};
    const char *tyname[] = {"int", "vector->int", "int->vector"};
    const int scales[] = {0, 3, 700};
    for (int k = 0; k < NKINDS; k++)
        for (size_t y = 0; y < 3; y++)
            for (size_t s = 0; s < 3; s++) {
                if (y && scales[s] > 3)
                    continue; /* derived types: small blocks only, for time */
                call_t c;
                setup(t, &c, k, tys[y], scales[s], (unsigned)(k * 10 + y * 3 + s));
                nbo_request_t req = NBO_REQUEST_NULL;
                MT_OK(post(&c, nc, 0, &req));
                if (req != NBO_REQUEST_NULL)
                    mt_complete_alternating(&req);
                char what[64];
                snprintf(what, sizeof(what), "%s scale %d", tyname[y], scales[s]);
                compare(t, &c, what);
                release(&c);
            }
}

/* Four calls outstanding, completed in reverse order. */
static void outstanding(const topo_t *t, nbo_comm_t nc)
{
    const types_t ty = {MPI_INT, MPI_INT, 2, 2};
    call_t c[NKINDS];
    nbo_request_t req[NKINDS];
    for (int k = 0; k < NKINDS; k++)
        setup(t, &c[k], k, ty, 40, 100u + (unsigned)k);
    for (int k = 0; k < NKINDS; k++)
        MT_OK(post(&c[k], nc, 0, &req[k]));
    for (int k = NKINDS - 1; k >= 0; k--) {
        MT_OK(nbo_wait(&req[k]));
        compare(t, &c[k], "outstanding");
        release(&c[k]);
    }
}

/* A persistent request started 100 times, the send data new each time. */
static void persistent(const topo_t *t, nbo_comm_t nc, int kind)
{
    const types_t ty = {MPI_INT, MPI_INT, 2, 2};
    call_t c;
    setup(t, &c, kind, ty, 50, 7);
    nbo_request_t req = NBO_REQUEST_NULL;
    MT_OK(post(&c, nc, 1, &req));
    for (unsigned it = 0; it < 100 && req != NBO_REQUEST_NULL && !mt_failures(); it++) {
        fill_send(&c, 1000 + it);
        reference(t, &c);
        memset(c.rbuf, 0xEE, c.rbytes);
        MT_OK(nbo_start(&req));
        MT_OK(nbo_wait(&req));
        compare(t, &c, "persistent");
    }
    if (req != NBO_REQUEST_NULL)
        MT_OK(nbo_request_free(&req));
    release(&c);
}

static void run(topo_t *t, int full)
{
    nbo_config_t cfg;
    mt_config(&cfg, NBO_ALG_AUTO);
    nbo_comm_t nc;
    int rc = nbo_comm_create(t->comm, &cfg, &nc);
    if (rc != NBO_SUCCESS) {
        mt_fail("%s: nbo_comm_create: %s", t->name, nbo_strerror(rc));
        return;
    }
    one_by_one(t, nc);
    outstanding(t, nc);
    if (full) {
        persistent(t, nc, A2AV);
        persistent(t, nc, AG);
    }
    MT_OK(nbo_comm_free(&nc));
}

static void neighbours(topo_t *t)
{
    int topo;
    MPI_Topo_test(t->comm, &topo);
    if (topo == MPI_CART) {
        int nd;
        t->cart = 1;
        MPI_Cartdim_get(t->comm, &nd);
        t->indeg = t->outdeg = 2 * nd;
        t->src = malloc(sizeof(int) * (size_t)(2 * nd + 1));
        t->dst = malloc(sizeof(int) * (size_t)(2 * nd + 1));
        for (int d = 0; d < nd; d++) {
            MPI_Cart_shift(t->comm, d, 1, &t->src[2 * d], &t->src[2 * d + 1]);
            t->dst[2 * d] = t->src[2 * d];
            t->dst[2 * d + 1] = t->src[2 * d + 1];
        }
    } else if (topo == MPI_GRAPH) {
        int r, n;
        MPI_Comm_rank(t->comm, &r);
        MPI_Graph_neighbors_count(t->comm, r, &n);
        t->indeg = t->outdeg = n;
        t->src = malloc(sizeof(int) * (size_t)(n + 1));
        t->dst = malloc(sizeof(int) * (size_t)(n + 1));
        MPI_Graph_neighbors(t->comm, r, n, t->src);
        memcpy(t->dst, t->src, sizeof(int) * (size_t)n);
    } else {
        int w;
        MPI_Dist_graph_neighbors_count(t->comm, &t->indeg, &t->outdeg, &w);
        t->src = malloc(sizeof(int) * (size_t)(t->indeg + 1));
        t->dst = malloc(sizeof(int) * (size_t)(t->outdeg + 1));
        MPI_Dist_graph_neighbors(t->comm, t->indeg, t->src, MPI_UNWEIGHTED, t->outdeg, t->dst,
                                 MPI_UNWEIGHTED);
    }
}

static void test_topo(topo_t *t, int full)
{
    if (getenv("NBT_TRACE") && mt_rank == 0)
        fprintf(stderr, "%.2f topo %s\n", MPI_Wtime(), t->name);
    neighbours(t);
    for (int i = 0; i < t->indeg; i++)
        for (int j = 0; j < i; j++)
            if (t->src[i] != MPI_PROC_NULL && t->src[i] == t->src[j])
                t->repeat = 1;
    /* Every rank calls MPI's collective or none does. */
    MPI_Allreduce(MPI_IN_PLACE, &t->repeat, 1, MPI_INT, MPI_MAX, t->comm);
    run(t, full);
    free(t->src);
    free(t->dst);
    MPI_Comm_free(&t->comm);
}

static void cartesian(int nd, const int *periods, const char *name, int full)
{
    int dims[3] = {0, 0, 0};
    MPI_Dims_create(mt_size, nd, dims);
    topo_t t = {.name = name};
    MPI_Cart_create(MPI_COMM_WORLD, nd, dims, periods, 0, &t.comm);
    test_topo(&t, full);
}

/* Every rank draws the same random multigraph: 0-4 edges out of each
 * rank to any rank, itself and repeats included; the sources of a rank
 * interleave its senders (edge by edge), which keeps each sender's edges
 * in its own order, as MPI's multigraph matching needs. */
static void dist_graph(void)
{
    const int P = mt_size;
    int *deg = calloc((size_t)P, sizeof(int)), *edge = calloc((size_t)P * 4, sizeof(int));
    srand(12345);
    for (int s = 0; s < P; s++) {
        deg[s] = rand() % 5;
        for (int e = 0; e < deg[s]; e++)
            edge[s * 4 + e] = rand() % P;
    }
    int *srcs = malloc(sizeof(int) * (size_t)(4 * P + 1)), nsrc = 0;
    for (int e = 0; e < 4; e++)
        for (int s = 0; s < P; s++)
            if (e < deg[s] && edge[s * 4 + e] == mt_rank)
                srcs[nsrc++] = s;
    topo_t t = {.name = "dist graph"};
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, nsrc, srcs, MPI_UNWEIGHTED, deg[mt_rank],
                                   edge + mt_rank * 4, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &t.comm);
    test_topo(&t, 1);
    free(deg);
    free(edge);
    free(srcs);
}

/* A ring as MPI_Graph_create gives it (two edges to one rank at P = 2,
 * self loops at P = 1). */
static void graph_ring(void)
{
    const int P = mt_size;
    int *index = malloc(sizeof(int) * (size_t)P), *edges = malloc(sizeof(int) * 2 * (size_t)P);
    for (int r = 0; r < P; r++) {
        index[r] = 2 * (r + 1);
        edges[2 * r] = (r + P - 1) % P;
        edges[2 * r + 1] = (r + 1) % P;
    }
    topo_t t = {.name = "graph ring"};
    MPI_Graph_create(MPI_COMM_WORLD, P, index, edges, 0, &t.comm);
    test_topo(&t, 0);
    free(index);
    free(edges);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_neighbor");
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    const int per1[1] = {1}, non1[1] = {0};
    const int per2[2] = {1, 0}, per3[3] = {1, 0, 1}, non3[3] = {0, 0, 0};
    cartesian(1, per1, "1-D periodic", 0);
    cartesian(1, non1, "1-D", 0);
    cartesian(2, per2, "2-D periodic x", 0);
    cartesian(3, per3, "3-D periodic x,z", 1);
    cartesian(3, non3, "3-D", 0);
    dist_graph();
    graph_ring();
    MPI_Type_free(&vec);
    return mt_finish();
}
