/*
 * nbo_halo.c - a halo-exchange loop, as a stencil code runs it: a 3-D
 * block per rank on a Cartesian process grid, its six faces exchanged
 * with the neighbours while the interior is updated, the boundary after
 * the wait.  Three ways to exchange, each its own loop:
 *
 *   blocking   MPI_Neighbor_alltoallv, then the interior (nothing hidden)
 *   mpi-nb     MPI_Ineighbor_alltoallv, the interior, MPI_Wait
 *   nbo        nbo_neighbor_alltoallv_init once; nbo_start, the interior,
 *              nbo_wait (a persistent task list progressed by libnbo)
 *
 * The interior update is busy compute as long as the blocking exchange
 * alone (so that all of it could hide).  Per face size: the exchange
 * alone, each loop's time per iteration (median over ranks of the mean),
 * the share of the exchange hidden, 100 * (blocking - loop) / exchange,
 * and nbo's speed-up over mpi-nb.  The received faces of both
 * non-blocking ways are compared with the blocking exchange's once per
 * size; a difference exits 1.  Not where a neighbour repeats (a periodic
 * dimension of 1 or 2 ranks): MPI libraries pair those blocks differently
 * (docs/neighbor.md), and tests/mpi/test_neighbor checks libnbo there.
 *
 *   mpiexec -n 4 nbo_halo [--faces=64K,256K,1M,4M] [--iters=20] [--grid=2x2x1] [--periodic]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nbo.h>

#include "busy.h"
#include "stats.h"

typedef struct halo {
    MPI_Comm  cart;
    nbo_comm_t nc;
    int       nb;          /* blocks: 2 * 3 */
    int       cnt[6], displ[6];
    double   *out, *in;
    size_t    n;           /* doubles per face */
} halo_t;

enum { BLOCKING, MPI_NB, NBO, NWAYS };

static double boundary(const halo_t *h)
{
    double s = 0;
    for (int b = 0; b < h->nb; b++)
        s += h->in[(size_t)h->displ[b]] + h->in[(size_t)h->displ[b] + h->n - 1];
    return s;
}

/* The loop of MPI's blocking or non-blocking way, iters iterations with
 * `compute` seconds of interior work each: the mean time per iteration. */
static double loop(halo_t *h, int way, int iters, double compute)
{
    volatile double sink = 0;
    MPI_Barrier(h->cart);
    const double t0 = MPI_Wtime();
    for (int it = 0; it < iters; it++) {
        h->out[0] = it; /* the faces change every step */
        if (way == BLOCKING) {
            MPI_Neighbor_alltoallv(h->out, h->cnt, h->displ, MPI_DOUBLE, h->in, h->cnt, h->displ,
                                   MPI_DOUBLE, h->cart);
            busy_for_time(compute, 0, NULL, NULL);
        } else {
            MPI_Request q;
            MPI_Ineighbor_alltoallv(h->out, h->cnt, h->displ, MPI_DOUBLE, h->in, h->cnt, h->displ,
                                    MPI_DOUBLE, h->cart, &q);
            busy_for_time(compute, 0, NULL, NULL);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
        }
        sink += boundary(h);
    }
    (void)sink;
    return (MPI_Wtime() - t0) / iters;
}

/* The nbo loop: start, interior, wait, boundary. */
static double loop_nbo(halo_t *h, int iters, double compute, nbo_request_t *req)
{
    volatile double sink = 0;
    MPI_Barrier(h->cart);
    const double t0 = MPI_Wtime();
    for (int it = 0; it < iters; it++) {
        h->out[0] = it;
        if (nbo_start(req) != NBO_SUCCESS)
            MPI_Abort(MPI_COMM_WORLD, 1);
        busy_for_time(compute, 0, NULL, NULL);
        if (nbo_wait(req) != NBO_SUCCESS)
            MPI_Abort(MPI_COMM_WORLD, 1);
        sink += boundary(h);
    }
    (void)sink;
    return (MPI_Wtime() - t0) / iters;
}

/* The median over ranks of x. */
static double across(MPI_Comm c, double x)
{
    int P;
    MPI_Comm_size(c, &P);
    double *all = malloc(sizeof(double) * (size_t)P);
    MPI_Allgather(&x, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, c);
    double m = bench_median(all, P);
    free(all);
    return m;
}

static int one_size(halo_t *h, size_t face, int iters, int rank, int check)
{
    h->n = face / sizeof(double);
    for (int b = 0; b < h->nb; b++) {
        h->cnt[b] = (int)h->n;
        h->displ[b] = (int)((size_t)b * h->n);
    }
    h->out = malloc(face * (size_t)h->nb);
    h->in = malloc(face * (size_t)h->nb);
    double *ref = malloc(face * (size_t)h->nb);
    for (size_t i = 0; i < h->n * (size_t)h->nb; i++)
        h->out[i] = rank * 1e6 + (double)i;
    nbo_request_t req;
    if (nbo_neighbor_alltoallv_init(h->out, h->cnt, h->displ, MPI_DOUBLE, h->in, h->cnt, h->displ,
                                    MPI_DOUBLE, h->nc, &req) != NBO_SUCCESS) {
        fprintf(stderr, "nbo_halo: nbo_neighbor_alltoallv_init failed\n");
        return 1;
    }
    /* The data, once: both non-blocking ways against the blocking one. */
    int bad = 0, any = 0;
    memset(ref, 0, face * (size_t)h->nb);
    h->out[0] = 0; /* as the first iteration of each loop sets it */
    MPI_Neighbor_alltoallv(h->out, h->cnt, h->displ, MPI_DOUBLE, ref, h->cnt, h->displ,
                           MPI_DOUBLE, h->cart);
    memset(h->in, 0, face * (size_t)h->nb);
    loop(h, MPI_NB, 1, 0);
    bad |= memcmp(h->in, ref, face * (size_t)h->nb) != 0;
    memset(h->in, 0, face * (size_t)h->nb);
    loop_nbo(h, 1, 0, &req);
    bad |= memcmp(h->in, ref, face * (size_t)h->nb) != 0;
    bad &= check;

    /* The exchange alone sets the interior's length. */
    loop(h, BLOCKING, 2, 0); /* warm-up */
    const double ex = across(h->cart, loop(h, BLOCKING, iters, 0));
    double t[NWAYS];
    t[BLOCKING] = across(h->cart, loop(h, BLOCKING, iters, ex));
    t[MPI_NB] = across(h->cart, loop(h, MPI_NB, iters, ex));
    t[NBO] = across(h->cart, loop_nbo(h, iters, ex, &req));
    if (rank == 0) {
        printf("%9zu %11.1f", face, ex * 1e6);
        for (int w = 0; w < NWAYS; w++)
            printf(" %11.1f", t[w] * 1e6);
        for (int w = MPI_NB; w < NWAYS; w++)
            printf(" %9.0f", ex > 0 ? 100 * (t[BLOCKING] - t[w]) / ex : 0);
        printf(" %9.2f\n", t[MPI_NB] / t[NBO]);
        fflush(stdout);
    }
    nbo_request_free(&req);
    free(h->out);
    free(h->in);
    free(ref);
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, h->cart);
    if (any && rank == 0)
        fprintf(stderr, "nbo_halo: received faces differ from MPI_Neighbor_alltoallv's at %zu B\n",
                face);
    return any;
}

static size_t parse_size(const char *s)
{
    char *end;
    size_t v = strtoull(s, &end, 10);
    if (*end == 'K' || *end == 'k')
        v <<= 10;
    else if (*end == 'M' || *end == 'm')
        v <<= 20;
    return v;
}

int main(int argc, char **argv)
{
    int provided, rank, P;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    const char *faces = "64K,256K,1M,4M";
    int iters = 20, dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0};
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--faces=", 8) == 0)
            faces = argv[i] + 8;
        else if (strncmp(argv[i], "--iters=", 8) == 0)
            iters = atoi(argv[i] + 8);
        else if (strncmp(argv[i], "--grid=", 7) == 0)
            sscanf(argv[i] + 7, "%dx%dx%d", &dims[0], &dims[1], &dims[2]);
        else if (strcmp(argv[i], "--periodic") == 0)
            periods[0] = periods[1] = periods[2] = 1;
        else {
            if (rank == 0)
                fprintf(stderr, "usage: nbo_halo [--faces=LIST] [--iters=N] [--grid=AxBxC] "
                                "[--periodic]\n");
            MPI_Finalize();
            return 2;
        }
    }
    if (iters < 1 || MPI_Dims_create(P, 3, dims) != MPI_SUCCESS) {
        if (rank == 0)
            fprintf(stderr, "nbo_halo: bad --iters or a --grid that is not %d ranks\n", P);
        MPI_Finalize();
        return 2;
    }
    halo_t h = {.nb = 6};
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &h.cart);
    if (nbo_comm_create(h.cart, NULL, &h.nc) != NBO_SUCCESS) {
        fprintf(stderr, "nbo_halo: nbo_comm_create failed\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0) {
        nbo_comm_info_t info;
        nbo_comm_query(h.nc, &info);
        printf("# nbo_halo P=%d grid %dx%dx%d%s, %d iterations; engine %s, progress %s\n", P,
               dims[0], dims[1], dims[2], periods[0] ? " periodic" : "", iters, info.engine,
               nbo_progress_name(info.progress));
        printf("# times in us per iteration (median over ranks); hidden = (blocking - loop) / "
               "exchange\n");
        printf("#    face    exchange    blocking      mpi-nb         nbo hidden-mpi hidden-nbo "
               "nbo/mpi-nb\n");
    }
    /* Repeated neighbours: no data check (above). */
    int check = 1;
    for (int d = 0; d < 3; d++)
        if (periods[d] && dims[d] <= 2)
            check = 0;
    if (rank == 0 && !check)
        printf("# a periodic dimension of 1 or 2 ranks: data not compared with MPI's\n");
    int bad = 0;
    char *list = strdup(faces), *save = NULL;
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
        bad |= one_size(&h, parse_size(tok) / sizeof(double) * sizeof(double), iters, rank, check);
    free(list);
    nbo_comm_free(&h.nc);
    MPI_Comm_free(&h.cart);
    MPI_Finalize();
    return bad;
}
