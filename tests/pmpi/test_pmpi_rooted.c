/*
 * test_pmpi_rooted.c - MPI_Ibarrier, MPI_Ireduce, MPI_Igather(v),
 * MPI_Iscatter(v), MPI_Iscan, MPI_Iexscan, MPI_Ireduce_scatter,
 * MPI_Ialltoallw and their persistent forms as an unmodified program calls
 * them, from every root, in place at the root and not, checked against
 * hand-computed values; under --expect=nbo every call must be served
 * (NBO_PMPI_COLLS names them: they are not in its default).
 */
#include <stdlib.h>
#include <string.h>

#include "pt.h"

#if MPI_VERSION < 4 && defined(OPEN_MPI)
#define MPI_Barrier_init  MPIX_Barrier_init
#define MPI_Reduce_init   MPIX_Reduce_init
#define MPI_Gather_init   MPIX_Gather_init
#define MPI_Scatterv_init MPIX_Scatterv_init
#define MPI_Alltoallw_init MPIX_Alltoallw_init
#endif

enum { N = 37 };

static long served_before;

/* Under --expect=nbo: `calls` calls served since the last look. */
static void expect_served(long calls, const char *what)
{
    long now = pt_served();
    if (pt_expect_nbo())
        PT_CHECK(now - served_before == calls, "%s: the library served %ld calls, want %ld",
                 what, now - served_before, calls);
    served_before = now;
}

static void wait(MPI_Request *req) { PT_MPI(MPI_Wait(req, MPI_STATUS_IGNORE)); }

static void reduce(int root, int in_place, int seed)
{
    int in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = out[i] = pt_val(pt_rank, 0, i, seed);
    const int ip = in_place && pt_rank == root;
    MPI_Request req;
    PT_MPI(MPI_Ireduce(ip ? MPI_IN_PLACE : in, pt_rank == root ? out : NULL, N, MPI_INT,
                       MPI_SUM, root, MPI_COMM_WORLD, &req));
    wait(&req);
    for (int i = 0; pt_rank == root && i < N; i++) {
        int want = 0;
        for (int s = 0; s < pt_size; s++)
            want += pt_val(s, 0, i, seed);
        PT_CHECK(out[i] == want, "reduce to %d%s [%d]: %d, want %d", root, ip ? " in place" : "",
                 i, out[i], want);
    }
}

/* Scan (ex = 0) or exscan of N ints; rank 0's exscan result is undefined. */
static void scan(int ex, int in_place, int seed)
{
    int in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = out[i] = pt_val(pt_rank, 0, i, seed);
    MPI_Request req;
    const void *sb = in_place ? MPI_IN_PLACE : in;
    if (ex)
        PT_MPI(MPI_Iexscan(sb, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req));
    else
        PT_MPI(MPI_Iscan(sb, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req));
    wait(&req);
    for (int i = 0; (!ex || pt_rank > 0) && i < N; i++) {
        int want = 0;
        for (int s = 0; s < pt_rank + !ex; s++)
            want += pt_val(s, 0, i, seed);
        PT_CHECK(out[i] == want, "%s%s [%d]: %d, want %d", ex ? "exscan" : "scan",
                 in_place ? " in place" : "", i, out[i], want);
    }
}

/* Rank d's block: pt_vcount(d, 0) ints, the sum over the ranks. */
static void reduce_scatter(int in_place, int seed)
{
    int *counts = malloc(sizeof(int) * (size_t)pt_size), total = 0;
    for (int d = 0; d < pt_size; d++)
        total += counts[d] = pt_vcount(d, 0);
    int *in = calloc((size_t)total + 1, sizeof(int)), *out = calloc((size_t)total + 1, sizeof(int));
    for (int i = 0; i < total; i++)
        in[i] = out[i] = pt_val(pt_rank, 0, i, seed);
    MPI_Request req;
    PT_MPI(MPI_Ireduce_scatter(in_place ? MPI_IN_PLACE : in, out, counts, MPI_INT, MPI_SUM,
                               MPI_COMM_WORLD, &req));
    wait(&req);
    int first = 0;
    for (int d = 0; d < pt_rank; d++)
        first += counts[d];
    for (int i = 0; i < counts[pt_rank]; i++) {
        int want = 0;
        for (int s = 0; s < pt_size; s++)
            want += pt_val(s, 0, first + i, seed);
        PT_CHECK(out[i] == want, "reduce_scatter%s [%d]: %d, want %d",
                 in_place ? " in place" : "", i, out[i], want);
    }
    free(counts); free(in); free(out);
}

static void gather(int root, int in_place, int seed)
{
    int mine[N], *all = calloc((size_t)pt_size * N, sizeof(int));
    for (int i = 0; i < N; i++)
        mine[i] = pt_val(pt_rank, root, i, seed);
    const int ip = in_place && pt_rank == root;
    if (ip)
        memcpy(all + (size_t)root * N, mine, sizeof(mine));
    MPI_Request req;
    PT_MPI(MPI_Igather(ip ? MPI_IN_PLACE : mine, N, MPI_INT, all, N, MPI_INT, root,
                       MPI_COMM_WORLD, &req));
    wait(&req);
    for (int s = 0; pt_rank == root && s < pt_size; s++)
        for (int i = 0; i < N; i++)
            PT_CHECK(all[s * N + i] == pt_val(s, root, i, seed), "gather to %d%s: [%d][%d] = %d",
                     root, ip ? " in place" : "", s, i, all[s * N + i]);
    free(all);
}

static void scatter(int root, int in_place, int seed)
{
    int mine[N] = {0}, *all = calloc((size_t)pt_size * N, sizeof(int));
    for (int d = 0; d < pt_size; d++)
        for (int i = 0; i < N; i++)
            all[d * N + i] = pt_val(root, d, i, seed);
    const int ip = in_place && pt_rank == root;
    MPI_Request req;
    PT_MPI(MPI_Iscatter(all, N, MPI_INT, ip ? MPI_IN_PLACE : mine, N, MPI_INT, root,
                        MPI_COMM_WORLD, &req));
    wait(&req);
    for (int i = 0; !ip && i < N; i++)
        PT_CHECK(mine[i] == pt_val(root, pt_rank, i, seed), "scatter from %d [%d] = %d", root, i,
                 mine[i]);
    free(all);
}

/* Uneven blocks: rank s's is pt_vcount(s, root) ints, packed at the root. */
static void gatherv_scatterv(int root, int seed)
{
    int *counts = malloc(sizeof(int) * (size_t)pt_size), *displs = malloc(sizeof(int) * (size_t)pt_size);
    int total = 0;
    for (int s = 0; s < pt_size; s++) {
        counts[s] = pt_vcount(s, root);
        displs[s] = total;
        total += counts[s];
    }
    const int n = counts[pt_rank];
    int *mine = calloc((size_t)n + 1, sizeof(int)), *all = calloc((size_t)total + 1, sizeof(int));
    for (int i = 0; i < n; i++)
        mine[i] = pt_val(pt_rank, root, i, seed);
    MPI_Request req;
    PT_MPI(MPI_Igatherv(mine, n, MPI_INT, all, counts, displs, MPI_INT, root, MPI_COMM_WORLD,
                        &req));
    wait(&req);
    for (int s = 0; pt_rank == root && s < pt_size; s++)
        for (int i = 0; i < counts[s]; i++)
            PT_CHECK(all[displs[s] + i] == pt_val(s, root, i, seed), "gatherv to %d: [%d][%d]",
                     root, s, i);
    memset(mine, 0, sizeof(int) * (size_t)n);
    PT_MPI(MPI_Iscatterv(all, counts, displs, MPI_INT, mine, n, MPI_INT, root, MPI_COMM_WORLD,
                         &req));
    wait(&req);
    for (int i = 0; i < n; i++)
        PT_CHECK(mine[i] == pt_val(pt_rank, root, i, seed), "scatterv from %d: [%d] = %d", root,
                 i, mine[i]);
    free(counts); free(displs); free(mine); free(all);
}

/* pt_vcount(s, d) ints from s to d: sent as MPI_INT end to end, received
 * from an odd s as one strided vector (its holes kept), from an even s as
 * MPI_INT, the blocks at byte displacements in reverse rank order; once
 * non-blocking, then twice persistent. */
static void alltoallw(int seed)
{
    const int P = pt_size, me = pt_rank;
    int *sc = calloc((size_t)P, sizeof(int)), *sd = calloc((size_t)P, sizeof(int));
    int *rc = calloc((size_t)P, sizeof(int)), *rd = calloc((size_t)P, sizeof(int));
    MPI_Datatype *st = calloc((size_t)P, sizeof(MPI_Datatype)), *rt = calloc((size_t)P, sizeof(MPI_Datatype));
    int soff = 0, roff = 0;
    for (int d = 0; d < P; d++) {
        sc[d] = pt_vcount(me, d);
        sd[d] = (int)sizeof(int) * soff;
        soff += sc[d];
        st[d] = MPI_INT;
    }
    for (int s = P - 1; s >= 0; s--) {
        const int n = pt_vcount(s, me);
        rd[s] = (int)sizeof(int) * roff;
        if (s % 2 && n > 0) {
            PT_MPI(MPI_Type_vector(n, 1, 2, MPI_INT, &rt[s]));
            PT_MPI(MPI_Type_commit(&rt[s]));
            rc[s] = 1;
            roff += 2 * n;
        } else {
            rt[s] = MPI_INT;
            rc[s] = n;
            roff += n;
        }
    }
    int *in = calloc((size_t)soff + 1, sizeof(int)), *out = calloc((size_t)roff + 1, sizeof(int));
    MPI_Request req, pers;
    PT_MPI(MPI_Alltoallw_init(in, sc, sd, st, out, rc, rd, rt, MPI_COMM_WORLD, MPI_INFO_NULL,
                              &pers));
    for (int it = 0; it < 3; it++) {
        for (int d = 0; d < P; d++)
            for (int i = 0; i < sc[d]; i++)
                in[sd[d] / (int)sizeof(int) + i] = pt_val(me, d, i, seed + it);
        memset(out, 0x7f, sizeof(int) * ((size_t)roff + 1));
        if (it == 0)
            PT_MPI(MPI_Ialltoallw(in, sc, sd, st, out, rc, rd, rt, MPI_COMM_WORLD, &req));
        else
            PT_MPI(MPI_Start(&pers));
        wait(it == 0 ? &req : &pers);
        for (int s = 0; s < P; s++) {
            const int stride = rt[s] == MPI_INT ? 1 : 2, *b = out + rd[s] / (int)sizeof(int);
            for (int i = 0; i < pt_vcount(s, me); i++) {
                PT_CHECK(b[stride * i] == pt_val(s, me, i, seed + it),
                         "alltoallw start %d from %d [%d]: %d", it, s, i, b[stride * i]);
                PT_CHECK(stride == 1 || b[2 * i + 1] == 0x7f7f7f7f,
                         "alltoallw start %d from %d: hole %d written", it, s, i);
            }
        }
    }
    PT_MPI(MPI_Request_free(&pers));
    for (int s = 0; s < P; s++)
        if (rt[s] != MPI_INT)
            PT_MPI(MPI_Type_free(&rt[s]));
    free(sc); free(sd); free(rc); free(rd); free(st); free(rt); free(in); free(out);
}

/* Each persistent form started twice on changing input. */
static void persistent(void)
{
    const int root = pt_size - 1;
    int in[N] = {0}, out[N] = {0}, *all = calloc((size_t)pt_size * N, sizeof(int));
    int *counts = malloc(sizeof(int) * (size_t)pt_size), *displs = malloc(sizeof(int) * (size_t)pt_size);
    for (int s = 0; s < pt_size; s++) {
        counts[s] = N;
        displs[s] = s * N;
    }
    MPI_Request bar, red, gat, sca;
    PT_MPI(MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &bar));
    PT_MPI(MPI_Reduce_init(in, out, N, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD, MPI_INFO_NULL, &red));
    PT_MPI(MPI_Gather_init(in, N, MPI_INT, all, N, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &gat));
    PT_MPI(MPI_Scatterv_init(all, counts, displs, MPI_INT, out, N, MPI_INT, root, MPI_COMM_WORLD,
                             MPI_INFO_NULL, &sca));
    expect_served(4, "the persistent forms");
    for (int it = 0; it < 2; it++) {
        for (int i = 0; i < N; i++)
            in[i] = pt_val(pt_rank, root, i, it);
        PT_MPI(MPI_Start(&bar));
        wait(&bar);
        PT_MPI(MPI_Start(&red));
        wait(&red);
        for (int i = 0; pt_rank == root && i < N; i++) {
            int want = 0;
            for (int s = 0; s < pt_size; s++)
                want += pt_val(s, root, i, it);
            PT_CHECK(out[i] == want, "persistent reduce [%d]: %d, want %d", i, out[i], want);
        }
        PT_MPI(MPI_Start(&gat));
        wait(&gat);
        PT_MPI(MPI_Start(&sca)); /* the gathered blocks back where they came from */
        wait(&sca);
        for (int i = 0; i < N; i++)
            PT_CHECK(out[i] == in[i], "persistent gather + scatterv [%d]: %d, want %d", i,
                     out[i], in[i]);
    }
    PT_MPI(MPI_Request_free(&bar));
    PT_MPI(MPI_Request_free(&red));
    PT_MPI(MPI_Request_free(&gat));
    PT_MPI(MPI_Request_free(&sca));
    free(all); free(counts); free(displs);
}

int main(int argc, char **argv)
{
    pt_init(&argc, &argv, "rooted");
    served_before = pt_served();
    MPI_Request req;
    for (int k = 0; k < 3; k++) {
        PT_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &req));
        wait(&req);
    }
    expect_served(3, "MPI_Ibarrier");
    for (int root = 0; root < pt_size; root++) {
        reduce(root, root % 2, root);
        gather(root, root % 2 == 0, root + 1);
        scatter(root, root % 2, root + 2);
        gatherv_scatterv(root, root + 3);
        expect_served(5, "reduce, gather, scatter, gatherv, scatterv");
    }
    for (int k = 0; k < 4; k++)
        scan(k / 2, k % 2, k);
    expect_served(4, "MPI_Iscan, MPI_Iexscan");
    reduce_scatter(0, 5);
    reduce_scatter(1, 6);
    expect_served(2, "MPI_Ireduce_scatter");
    alltoallw(7);
    expect_served(2, "MPI_Ialltoallw, MPI_Alltoallw_init");
    persistent();
    return pt_finish();
}
