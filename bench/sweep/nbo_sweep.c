/*
 * nbo_sweep.c - does the window matter, and does the tuner find the best?
 * One all-to-all, per size (bytes per peer), timed every way it can run:
 *
 *   alg/W      a persistent libnbo request pinned to one algorithm of the
 *              all-to-all's table (pairwise, Bruck) and one window W of
 *              1, 2, 4, 8, P - 1
 *   tuned      a persistent request with NBO_TUNE=on, after its trial
 *   MPI_Alltoall, MPI_Ialltoall + MPI_Wait   MPI's own, on the same ranks
 *
 * Each way runs `iters` back-to-back operations (start, wait) per block,
 * the blocks of all ways in turn, `rounds` times, so that a shared
 * machine's drift falls on all alike; each block's request is made just
 * before it (one warm-up operation) and freed after it, except the tuned
 * one, which keeps what its trial learnt.  A block's time is the slowest
 * rank's mean per operation (a collective ends with its slowest rank); a
 * column is the median over rounds.  The default is the way the library
 * takes unconfigured (AUTO with NBO_WINDOW's default); the trial's cost is
 * the sum of the tuned request's trial starts over as many starts of the
 * way it kept (column kept).  Data are checked once per way and size.
 *
 *   mpiexec -n 16 nbo_sweep [-m 64K,256K,1M,4M] [-i 5] [-r 3]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nbo.h>

#include "sizes.h"
#include "stats.h"

enum { MAXWAYS = 16, MPI_A2A = -1, MPI_IA2A = -2 };

typedef struct way {
    char            name[32];
    nbo_algorithm_t alg;     /* libnbo ways */
    int             window;  /* 0: MPI's */
    int             mpi;     /* MPI_A2A or MPI_IA2A, or 0 */
    int             tuned;
    nbo_comm_t      comm;
    nbo_request_t   req;
    double         *t;       /* [rounds] */
} way_t;

typedef struct run {
    int    P, rank, iters, rounds;
    size_t block;
    char  *s, *r;
} run_t;

static double slowest(double x)
{
    double m;
    MPI_Allreduce(&x, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return m;
}

static void fail(const char *what)
{
    fprintf(stderr, "nbo_sweep: %s\n", what);
    MPI_Abort(MPI_COMM_WORLD, 1);
}

/* One operation of a way. */
static void once(way_t *w, run_t *x)
{
    const int n = (int)x->block;
    if (w->mpi == MPI_A2A) {
        MPI_Alltoall(x->s, n, MPI_BYTE, x->r, n, MPI_BYTE, MPI_COMM_WORLD);
    } else if (w->mpi == MPI_IA2A) {
        MPI_Request q;
        MPI_Ialltoall(x->s, n, MPI_BYTE, x->r, n, MPI_BYTE, MPI_COMM_WORLD, &q);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
    } else if (nbo_start(&w->req) != NBO_SUCCESS || nbo_wait(&w->req) != NBO_SUCCESS) {
        fail("nbo_start/nbo_wait failed");
    }
}

/* The mean time of iters operations, on the slowest rank. */
static double block(way_t *w, run_t *x)
{
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int i = 0; i < x->iters; i++)
        once(w, x);
    return slowest((MPI_Wtime() - t0) / x->iters);
}

/* Every block from the right rank once. */
static int data_wrong(way_t *w, run_t *x)
{
    for (int p = 0; p < x->P; p++)
        memset(x->s + (size_t)p * x->block, (x->rank * 31 + p) & 0xff, x->block);
    memset(x->r, 0xee, x->block * (size_t)x->P);
    once(w, x);
    int bad = 0;
    for (int p = 0; p < x->P && !bad; p++)
        for (size_t i = 0; i < x->block; i += 4093)
            bad |= (unsigned char)x->r[(size_t)p * x->block + i] != ((p * 31 + x->rank) & 0xff);
    int any;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any;
}

static void way_open(way_t *w, run_t *x)
{
    if (w->mpi)
        return;
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    nbo_config_from_env(&cfg);
    cfg.algorithm = w->alg;
    if (w->window)
        cfg.window = w->window;
    cfg.tune = w->tuned ? NBO_TUNE_ON : NBO_TUNE_OFF;
    const int n = (int)x->block;
    if (nbo_comm_create(MPI_COMM_WORLD, &cfg, &w->comm) != NBO_SUCCESS ||
        nbo_alltoall_init(x->s, n, MPI_BYTE, x->r, n, MPI_BYTE, w->comm, &w->req) != NBO_SUCCESS)
        fail("cannot make a persistent all-to-all");
}

static void way_close(way_t *w)
{
    if (w->mpi)
        return;
    nbo_request_free(&w->req);
    nbo_comm_free(&w->comm);
}

static int ways_make(way_t *ways, int P)
{
    static const nbo_algorithm_t algs[] = {NBO_ALG_PAIRWISE, NBO_ALG_BRUCK};
    int wins[] = {1, 2, 4, 8, P - 1};
    for (int k = 0; k < 5; k++) /* a window beyond P - 1 is the same list as P - 1 */
        wins[k] = wins[k] < P - 1 ? wins[k] : P - 1;
    int n = 0;
    for (int a = 0; a < 2; a++)
        for (int k = 0; k < 5; k++) {
            if (k > 0 && wins[k] <= wins[k - 1])
                continue;
            way_t *w = &ways[n++];
            *w = (way_t){.alg = algs[a], .window = wins[k]};
            snprintf(w->name, sizeof(w->name), "%s/%d", a ? "bruck" : "pair", wins[k]);
        }
    ways[n] = (way_t){.name = "tuned", .alg = NBO_ALG_AUTO, .tuned = 1};
    ways[n + 1] = (way_t){.name = "default", .alg = NBO_ALG_AUTO};
    ways[n + 2] = (way_t){.name = "MPI_Alltoall", .mpi = MPI_A2A};
    ways[n + 3] = (way_t){.name = "MPI_Ialltoall", .mpi = MPI_IA2A};
    return n + 4;
}

static void one_size(run_t *x)
{
    way_t ways[MAXWAYS];
    const int nw = ways_make(ways, x->P), nfixed = nw - 4, tuned = nfixed, def = nfixed + 1;
    x->s = malloc(x->block * (size_t)x->P);
    x->r = malloc(x->block * (size_t)x->P);
    if (!x->s || !x->r)
        fail("out of memory");
    int bad = 0;
    for (int i = 0; i < nw; i++)
        ways[i].t = calloc((size_t)x->rounds, sizeof(double));
    way_open(&ways[tuned], x);
    /* The trial: its starts, timed as the others' are. */
    int trial = 0;
    double trial_s = 0;
    for (int left = 1; left > 0 && trial < 64; trial++) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double t0 = MPI_Wtime();
        once(&ways[tuned], x);
        trial_s += slowest(MPI_Wtime() - t0);
        if (nbo_request_tuning(ways[tuned].req, NULL, &left) != NBO_SUCCESS)
            fail("nbo_request_tuning failed");
    }
    bad |= data_wrong(&ways[tuned], x);
    nbo_algorithm_t kept_alg = NBO_ALG_AUTO;
    int kept_w = 0;
    nbo_request_algorithm(ways[tuned].req, &kept_alg);
    nbo_request_tuning(ways[tuned].req, &kept_w, NULL);
    char kept[32];
    snprintf(kept, sizeof(kept), "%s/%d", kept_alg == NBO_ALG_BRUCK ? "bruck" : "pair", kept_w);
    /* One way's request at a time besides the tuned one: a Bruck list's
     * scratch is several times the receive buffer, and 12 requests at
     * 4 MiB per peer do not fit 16 ranks in this machine's memory.  Made
     * before its block, checked (the warm-up), timed, freed. */
    for (int r = 0; r < x->rounds; r++)
        for (int i = 0; i < nw; i++) {
            if (i != tuned) {
                way_open(&ways[i], x);
                if (r == 0)
                    bad |= data_wrong(&ways[i], x);
                else
                    once(&ways[i], x);
            }
            ways[i].t[r] = block(&ways[i], x);
            if (i != tuned)
                way_close(&ways[i]);
        }
    double med[MAXWAYS];
    int best = 0;
    for (int i = 0; i < nw; i++) {
        med[i] = bench_median(ways[i].t, x->rounds);
        if (i < nfixed && med[i] < med[best])
            best = i;
    }
    if (x->rank == 0) {
        printf("%9zu", x->block);
        for (int i = 0; i < nw; i++)
            printf(" %*.2f", (int)strlen(ways[i].name) > 9 ? (int)strlen(ways[i].name) : 9,
                   med[i] * 1e3);
        printf(" %9s %9s %10.2f %10.2f %10.2f\n", ways[best].name, kept, med[tuned] / med[best],
               med[def] / med[best], trial_s / (trial * med[tuned]));
        fflush(stdout);
    }
    way_close(&ways[tuned]);
    for (int i = 0; i < nw; i++)
        free(ways[i].t);
    free(x->s);
    free(x->r);
    if (bad)
        fail("a way delivered wrong data");
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    run_t x = {.iters = 5, .rounds = 3};
    MPI_Comm_rank(MPI_COMM_WORLD, &x.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &x.P);
    const char *sizes = "64K,256K,1M,4M";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-m") == 0 && i + 1 < argc)
            sizes = argv[++i];
        else if (strcmp(argv[i], "-i") == 0 && i + 1 < argc)
            x.iters = atoi(argv[++i]);
        else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
            x.rounds = atoi(argv[++i]);
        else {
            if (x.rank == 0)
                fprintf(stderr, "usage: nbo_sweep [-m SIZES] [-i ITERS] [-r ROUNDS]\n");
            MPI_Finalize();
            return 2;
        }
    }
    if (x.iters < 1 || x.rounds < 1 || x.P < 2) {
        if (x.rank == 0)
            fprintf(stderr, "nbo_sweep: needs -i, -r >= 1 and at least 2 ranks\n");
        MPI_Finalize();
        return 2;
    }
    way_t ways[MAXWAYS];
    const int nw = ways_make(ways, x.P);
    if (x.rank == 0) {
        printf("# nbo_sweep P=%d: ms per all-to-all (slowest rank's mean of %d, median of %d "
               "rounds); best = the fastest alg/W\n", x.P, x.iters, x.rounds);
        printf("#   bytes");
        for (int i = 0; i < nw; i++)
            printf(" %9s", ways[i].name);
        printf(" %9s %9s %10s %10s %10s\n", "best", "kept", "tuned/best", "def/best", "trial/op");
    }
    char *list = strdup(sizes), *save = NULL;
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        x.block = bench_size(tok, NULL);
        one_size(&x);
    }
    free(list);
    if (x.rank == 0) {
        printf("# nbo_sweep: done\n"); /* a driver may end a job that hangs in MPI_Finalize */
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}
