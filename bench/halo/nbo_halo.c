/*
 * nbo_halo.c - a halo-exchange loop, as a stencil code runs it: a 3-D
 * block per rank on a Cartesian process grid, its six faces exchanged
 * with the neighbours while the interior is updated, the boundary after
 * the wait.  Five blocks of `iters` iterations each, run in turn in every
 * round so that a shared machine's drift falls on all of them alike:
 *
 *   exchange   MPI_Neighbor_alltoallv alone
 *   compute    the interior alone
 *   blocking   MPI_Neighbor_alltoallv, then the interior (nothing hidden)
 *   mpi-nb     MPI_Ineighbor_alltoallv, the interior, MPI_Wait
 *   nbo        nbo_neighbor_alltoallv_init once; nbo_start, the interior,
 *              nbo_wait (a persistent task list progressed by libnbo)
 *
 * The interior is busy compute as long as the exchange alone took in a
 * warm-up block (so that all of it could hide).  A block's time is the
 * median over ranks of each rank's mean per iteration; a column is the
 * median over rounds.  Hidden: 100 * (compute + exchange - loop) /
 * exchange.  The received faces of both non-blocking ways are compared
 * with the blocking exchange's once per size; a difference exits 1.  Not
 * where a neighbour repeats (a periodic dimension of 1 or 2 ranks): MPI
 * libraries pair those blocks differently (docs/neighbor.md), and
 * tests/mpi/test_neighbor checks libnbo there.  Under LD_PRELOAD of
 * libnbo-mpi.so serving `neighbor`, the mpi-nb column is libnbo-mpi's.
 *
 *   mpiexec -n 4 nbo_halo [--faces=64K,256K,1M,4M] [--iters=10] [--rounds=5]
 *                         [--grid=2x2x1] [--periodic]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nbo.h>

#include "busy.h"
#include "sizes.h"
#include "stats.h"

typedef struct halo {
    MPI_Comm  cart;
    nbo_comm_t nc;
    int       nb;          /* blocks: 2 * 3 */
    int       cnt[6], displ[6];
    double   *out, *in;
    size_t    n;           /* doubles per face */
} halo_t;

enum { EXCHANGE, COMPUTE, BLOCKING, MPI_NB, NBO, NWAYS };
static const char *const way_name[NWAYS] = {"exchange", "compute", "blocking", "mpi-nb", "nbo"};

static double boundary(const halo_t *h)
{
    double s = 0;
    for (int b = 0; b < h->nb; b++)
        s += h->in[(size_t)h->displ[b]] + h->in[(size_t)h->displ[b] + h->n - 1];
    return s;
}

static void exchange_blocking(halo_t *h)
{
    MPI_Neighbor_alltoallv(h->out, h->cnt, h->displ, MPI_DOUBLE, h->in, h->cnt, h->displ,
                           MPI_DOUBLE, h->cart);
}

/* One block: iters iterations of `way` with `compute` seconds of interior
 * work each; the mean time per iteration. */
static double block(halo_t *h, int way, int iters, double compute, nbo_request_t *req)
{
    volatile double sink = 0;
    MPI_Barrier(h->cart);
    const double t0 = MPI_Wtime();
    for (int it = 0; it < iters; it++) {
        h->out[0] = it; /* the faces change every step */
        MPI_Request q;
        switch (way) {
        case EXCHANGE:
            exchange_blocking(h);
            break;
        case COMPUTE:
            busy_for_time(compute, 0, NULL, NULL);
            break;
        case BLOCKING:
            exchange_blocking(h);
            busy_for_time(compute, 0, NULL, NULL);
            break;
        case MPI_NB:
            MPI_Ineighbor_alltoallv(h->out, h->cnt, h->displ, MPI_DOUBLE, h->in, h->cnt, h->displ,
                                    MPI_DOUBLE, h->cart, &q);
            busy_for_time(compute, 0, NULL, NULL);
            MPI_Wait(&q, MPI_STATUS_IGNORE);
            break;
        case NBO:
            if (nbo_start(req) != NBO_SUCCESS)
                MPI_Abort(MPI_COMM_WORLD, 1);
            busy_for_time(compute, 0, NULL, NULL);
            if (nbo_wait(req) != NBO_SUCCESS)
                MPI_Abort(MPI_COMM_WORLD, 1);
            break;
        }
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

/* Both non-blocking ways deliver the blocking exchange's faces: 0 or 1. */
static int faces_differ(halo_t *h, nbo_request_t *req, size_t bytes)
{
    double *ref = malloc(bytes);
    int bad = 0;
    memset(ref, 0, bytes);
    h->out[0] = 0; /* as the first iteration of each block sets it */
    MPI_Neighbor_alltoallv(h->out, h->cnt, h->displ, MPI_DOUBLE, ref, h->cnt, h->displ,
                           MPI_DOUBLE, h->cart);
    for (int way = MPI_NB; way <= NBO; way++) {
        memset(h->in, 0, bytes);
        block(h, way, 1, 0, req);
        bad |= memcmp(h->in, ref, bytes) != 0;
    }
    free(ref);
    return bad;
}

static int one_size(halo_t *h, size_t face, int iters, int rounds, int rank, int check)
{
    h->n = face / sizeof(double);
    for (int b = 0; b < h->nb; b++) {
        h->cnt[b] = (int)h->n;
        h->displ[b] = (int)((size_t)b * h->n);
    }
    const size_t bytes = face * (size_t)h->nb;
    h->out = malloc(bytes);
    h->in = malloc(bytes);
    for (size_t i = 0; i < h->n * (size_t)h->nb; i++)
        h->out[i] = rank * 1e6 + (double)i;
    nbo_request_t req;
    if (nbo_neighbor_alltoallv_init(h->out, h->cnt, h->displ, MPI_DOUBLE, h->in, h->cnt, h->displ,
                                    MPI_DOUBLE, h->nc, &req) != NBO_SUCCESS) {
        fprintf(stderr, "nbo_halo: nbo_neighbor_alltoallv_init failed\n");
        return 1;
    }
    int bad = faces_differ(h, &req, bytes) && check, any = 0;

    /* The warm-up block's exchange sets the interior's length. */
    block(h, EXCHANGE, 2, 0, &req);
    const double compute = across(h->cart, block(h, EXCHANGE, iters, 0, &req));
    double *t[NWAYS], med[NWAYS];
    for (int w = 0; w < NWAYS; w++)
        t[w] = malloc(sizeof(double) * (size_t)rounds);
    for (int r = 0; r < rounds; r++)
        for (int w = 0; w < NWAYS; w++)
            t[w][r] = across(h->cart, block(h, w, iters, compute, &req));
    for (int w = 0; w < NWAYS; w++) {
        med[w] = bench_median(t[w], rounds);
        free(t[w]);
    }
    if (rank == 0) {
        const double ex = med[EXCHANGE];
        printf("%9zu", face);
        for (int w = 0; w < NWAYS; w++)
            printf(" %10.1f", med[w] * 1e6);
        for (int w = MPI_NB; w < NWAYS; w++)
            printf(" %10.0f", ex > 0 ? 100 * (med[COMPUTE] + ex - med[w]) / ex : 0);
        printf(" %10.2f %10.2f\n", med[BLOCKING] / med[NBO], med[MPI_NB] / med[NBO]);
        fflush(stdout);
    }
    nbo_request_free(&req);
    free(h->out);
    free(h->in);
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, h->cart);
    if (any && rank == 0)
        fprintf(stderr, "nbo_halo: received faces differ from MPI_Neighbor_alltoallv's at %zu B\n",
                face);
    return any;
}

int main(int argc, char **argv)
{
    int provided, rank, P;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    const char *faces = "64K,256K,1M,4M";
    int iters = 10, rounds = 5, dims[3] = {0, 0, 0}, periods[3] = {0, 0, 0};
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--faces=", 8) == 0)
            faces = argv[i] + 8;
        else if (strncmp(argv[i], "--iters=", 8) == 0)
            iters = atoi(argv[i] + 8);
        else if (strncmp(argv[i], "--rounds=", 9) == 0)
            rounds = atoi(argv[i] + 9);
        else if (strncmp(argv[i], "--grid=", 7) == 0)
            sscanf(argv[i] + 7, "%dx%dx%d", &dims[0], &dims[1], &dims[2]);
        else if (strcmp(argv[i], "--periodic") == 0)
            periods[0] = periods[1] = periods[2] = 1;
        else {
            if (rank == 0)
                fprintf(stderr, "usage: nbo_halo [--faces=LIST] [--iters=N] [--rounds=N] "
                                "[--grid=AxBxC] [--periodic]\n");
            MPI_Finalize();
            return 2;
        }
    }
    if (iters < 1 || rounds < 1 || MPI_Dims_create(P, 3, dims) != MPI_SUCCESS) {
        if (rank == 0)
            fprintf(stderr, "nbo_halo: bad --iters, --rounds or a --grid that is not %d ranks\n", P);
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
        const char *pre = getenv("LD_PRELOAD");
        printf("# nbo_halo P=%d grid %dx%dx%d%s, %d rounds of %d iterations; engine %s, "
               "progress %s%s\n",
               P, dims[0], dims[1], dims[2], periods[0] ? " periodic" : "", rounds, iters,
               info.engine, nbo_progress_name(info.progress),
               pre && strstr(pre, "libnbo-mpi") ? "; mpi-nb under LD_PRELOAD=libnbo-mpi.so" : "");
        printf("# us per iteration (median over rounds of the median over ranks); "
               "hidden = (compute + exchange - loop) / exchange\n");
        printf("#    face");
        for (int w = 0; w < NWAYS; w++)
            printf(" %10s", way_name[w]);
        printf(" hidden-mpi hidden-nbo nbo-vs-blk nbo-vs-mpi\n");
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
        bad |= one_size(&h, bench_size(tok, NULL) / sizeof(double) * sizeof(double), iters, rounds,
                       rank, check);
    free(list);
    if (rank == 0) {
        printf("# nbo_halo: done\n"); /* a driver may end a job that hangs in MPI_Finalize */
        fflush(stdout);
    }
    nbo_comm_free(&h.nc);
    MPI_Comm_free(&h.cart);
    MPI_Finalize();
    return bad;
}
