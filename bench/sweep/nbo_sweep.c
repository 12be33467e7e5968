/*
 * nbo_sweep.c - does the window matter, and does the tuner find the best?
 * One all-to-all, per size (bytes per peer), timed every way it can run:
 *
 *   pair/W     a persistent libnbo request pinned to pairwise exchange
 *              with a window W of 1, 2, 4, 8, P - 1
 *   bruck      pinned to Bruck (its rounds are one message each way: no
 *              window)
 *   tuned      a persistent request with NBO_TUNE=on, after its trial
 *   default    the way the library takes unconfigured (AUTO, NBO_WINDOW's
 *              default): the same list as one of the pinned ways, so the
 *              two measure this testbed's noise
 *   MPI_Alltoall, MPI_Ialltoall + MPI_Wait   MPI's own, on the same ranks,
 *              in the first -q rounds only (they are many times slower here)
 *
 * Each way runs one warm-up operation then `iters` back-to-back operations
 * (start, wait) per block, the blocks of all ways in turn, `rounds` times,
 * each round starting one way further on, so that a shared machine's
 * drift and a block's place in the round fall on all alike.  Every way
 * has its own communicator for the size, so all run on connections alike
 * warm; a block's request is made just before it and freed after it,
 * except the tuned one, which keeps what its trial learnt.  A block's time is the slowest
 * rank's mean per operation (a collective ends with its slowest rank); a
 * column is the median over rounds.  The ratios (tuned/best, def/best,
 * tuned/kept, def/twin) are medians of each round's ratio, blocks of one
 * round set side by side; kept is the way the tuned request kept, best
 * the pinned way of least median, twin the pinned way that runs the
 * default's list (def/twin: two measures of one list, the testbed's
 * resolution).  trial/op: the tuned request's trial (its last 20 starts
 * before the kept one's; the first run its own choice while connections
 * ramp up) over as many starts of what it kept.  ideal, ideal2x: the
 * share of simulated ideal trials (warm lists, no ramp, no switch) that
 * keep a way within 5 % of the best, each candidate drawn as the trial's
 * counted starts (twice as many) from its blocks' own starts: what a
 * trial of that length can do at best on this testbed's noise.  Data are
 * checked once per way and size.
 *
 *   mpiexec -n 16 nbo_sweep [-m 64K,256K,1M,4M] [-i 5] [-r 3] [-q 1] [-v]
 *
 * -v also prints each start of the trial: the list it ran and its time.
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
    double         *st;      /* [rounds][iters]: each start's time, slowest rank (rank 0) */
} way_t;

typedef struct run {
    int    P, rank, iters, rounds, mpi_rounds, verbose;
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

/* The mean time of iters operations, on the slowest rank; each start's
 * own (start to start, slowest rank) into st on rank 0. */
static double block(way_t *w, run_t *x, double *st)
{
    double at[x->iters + 1], d[x->iters];
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < x->iters; i++) {
        at[i] = MPI_Wtime();
        once(w, x);
    }
    at[x->iters] = MPI_Wtime();
    for (int i = 0; i < x->iters; i++)
        d[i] = at[i + 1] - at[i];
    MPI_Reduce(d, st, x->iters, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    return slowest((at[x->iters] - at[0]) / x->iters);
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

/* A way's communicator, made once per size so that every way runs on
 * connections as warm as the others'. */
static void comm_open(way_t *w)
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
    if (nbo_comm_create(MPI_COMM_WORLD, &cfg, &w->comm) != NBO_SUCCESS)
        fail("cannot make a communicator");
}

static void comm_close(way_t *w)
{
    if (!w->mpi)
        nbo_comm_free(&w->comm);
}

static void req_open(way_t *w, run_t *x)
{
    const int n = (int)x->block;
    if (!w->mpi && nbo_alltoall_init(x->s, n, MPI_BYTE, x->r, n, MPI_BYTE, w->comm, &w->req) !=
                       NBO_SUCCESS)
        fail("cannot make a persistent all-to-all");
}

static void req_close(way_t *w)
{
    if (!w->mpi)
        nbo_request_free(&w->req);
}

static int ways_make(way_t *ways, int P)
{
    int wins[] = {1, 2, 4, 8, P - 1};
    for (int k = 0; k < 5; k++) /* a window beyond P - 1 is the same list as P - 1 */
        wins[k] = wins[k] < P - 1 ? wins[k] : P - 1;
    int n = 0;
    for (int k = 0; k < 5; k++) {
        if (k > 0 && wins[k] <= wins[k - 1])
            continue;
        way_t *w = &ways[n++];
        *w = (way_t){.alg = NBO_ALG_PAIRWISE, .window = wins[k]};
        snprintf(w->name, sizeof(w->name), "pair/%d", wins[k]);
    }
    if (P >= 3) /* Bruck's least (the table's min_ranks) */
        ways[n++] = (way_t){.name = "bruck", .alg = NBO_ALG_BRUCK, .window = 1};
    ways[n] = (way_t){.name = "tuned", .alg = NBO_ALG_AUTO, .tuned = 1};
    ways[n + 1] = (way_t){.name = "default", .alg = NBO_ALG_AUTO};
    ways[n + 2] = (way_t){.name = "MPI_Alltoall", .mpi = MPI_A2A};
    ways[n + 3] = (way_t){.name = "MPI_Ialltoall", .mpi = MPI_IA2A};
    return n + 4;
}

/* The median over rounds of a's time over b's, each round's blocks side by side. */
static double paired(const way_t *a, const way_t *b, int rounds)
{
    double q[rounds];
    for (int r = 0; r < rounds; r++)
        q[r] = a->t[r] / b->t[r];
    return bench_median(q, rounds);
}

/* The pinned way that runs algorithm alg with window w (-1: none). */
static int way_of(const way_t *ways, int nfixed, int P, nbo_algorithm_t alg, int w)
{
    w = w < P - 1 ? w : P - 1; /* a window beyond P - 1 is the same list */
    for (int i = 0; i < nfixed; i++)
        if (ways[i].alg == alg && (alg == NBO_ALG_BRUCK || ways[i].window == w))
            return i;
    return -1;
}

/* The pinned way that runs the list req runs (-1: none), its name in
 * name when not NULL. */
static int twin_of(const way_t *ways, int nfixed, int P, nbo_request_t req, char *name,
                   size_t len)
{
    nbo_algorithm_t alg = NBO_ALG_AUTO;
    int w = 0;
    nbo_request_algorithm(req, &alg);
    nbo_request_tuning(req, &w, NULL);
    const int i = way_of(ways, nfixed, P, alg, w);
    if (name && i >= 0)
        snprintf(name, len, "%s", ways[i].name);
    else if (name)
        snprintf(name, len, "%s/%d", nbo_algorithm_name(alg), w < P - 1 ? w : P - 1);
    return i;
}

enum { TRIAL_MAX = 64, TRIAL_STARTS = 20 /* the tuner's trial (docs/tuning.md) */ };

/* -v: each trial start's time, start to start on the slowest rank, and
 * the list it ran. */
static void trial_print(const run_t *x, const double *at, const nbo_algorithm_t *alg,
                        const int *win, int n, int reps)
{
    double d[TRIAL_MAX], dmax[TRIAL_MAX];
    for (int k = 0; k < n; k++)
        d[k] = at[k + 1] - at[k];
    MPI_Reduce(d, dmax, n, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (x->rank != 0)
        return;
    printf("# trial at %zu bytes (ms per start, slowest rank):", x->block);
    for (int k = 0; k < n; k++)
        printf(" %s%d %.1f", alg[k] == NBO_ALG_BRUCK ? "B" : "W", win[k], dmax[k] * 1e3);
    printf("; %d counted per candidate\n", reps);
}

/* The trial's candidates, as pinned ways (-1: none runs that list), and
 * its counted starts per candidate. */
typedef struct trial {
    int way[TRIAL_MAX];
    int n, reps;
} trial_t;

/* From the lists the trial's starts ran: each candidate's starts, less
 * one warm-up per visit (the first's lead too: hence the least), over
 * the starts before the agreement's two (the last candidate's again, the
 * kept one's). */
static void trial_candidates(const way_t *ways, int nfixed, const run_t *x,
                             const nbo_algorithm_t *alg, const int *win, int n, trial_t *tr)
{
    int starts[TRIAL_MAX] = {0}, visits[TRIAL_MAX] = {0};
    tr->n = 0;
    for (int k = 0; k < n - 2; k++) {
        const int w = way_of(ways, nfixed, x->P, alg[k], win[k]);
        int c = 0;
        while (c < tr->n && tr->way[c] != w)
            c++;
        if (c == tr->n)
            tr->way[tr->n++] = w;
        starts[c]++;
        visits[c] += k == 0 || alg[k] != alg[k - 1] || win[k] != win[k - 1];
    }
    tr->reps = TRIAL_MAX;
    for (int c = 0; c < tr->n; c++)
        if (starts[c] - visits[c] < tr->reps)
            tr->reps = starts[c] - visits[c];
}

/* The tuned request's trial, its starts back to back as the blocks run
 * theirs (the tuner learns from the application's own starts); the
 * seconds it took on the slowest rank, *starts how many. */
static double trial_run(way_t *ways, int nfixed, run_t *x, int *starts, trial_t *tr)
{
    way_t *w = &ways[nfixed];
    double at[TRIAL_MAX + 1];
    nbo_algorithm_t alg[TRIAL_MAX];
    int win[TRIAL_MAX];
    MPI_Barrier(MPI_COMM_WORLD);
    int n = 0;
    for (int left = 1; left > 0 && n < TRIAL_MAX; n++) {
        at[n] = MPI_Wtime();
        once(w, x);
        if (nbo_request_tuning(w->req, &win[n], &left) != NBO_SUCCESS ||
            nbo_request_algorithm(w->req, &alg[n]) != NBO_SUCCESS)
            fail("nbo_request_tuning or nbo_request_algorithm failed");
    }
    at[n] = MPI_Wtime();
    trial_candidates(ways, nfixed, x, alg, win, n, tr);
    if (x->verbose)
        trial_print(x, at, alg, win, n, tr->reps);
    /* The trial proper: its last TRIAL_STARTS starts before the kept one's;
     * those before run the request's own choice, as an untuned one does. */
    *starts = n - 1 < TRIAL_STARTS ? n - 1 : TRIAL_STARTS;
    return *starts > 0 ? slowest(at[n - 1] - at[n - 1 - *starts]) : 0;
}

/* xorshift32: the simulated trials' draws, the same every run. */
static unsigned next_draw(unsigned *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* What a trial of reps counted starts per candidate can do on this
 * testbed at best: the share of simulated trials that keep a way within
 * 5 % of the best pinned one (medians).  Each draws one round, shared by
 * all candidates as a real trial's drift is, and for each candidate reps
 * distinct starts of its block in that round; the least mean is kept.
 * Ideal: warm lists, no ramp, no switch.  -1: not computable. */
static double ideal_trial(const way_t *ways, const trial_t *tr, const double *med, int best,
                          const run_t *x, int reps)
{
    enum { SIMS = 4000 };
    if (tr->n < 2 || reps < 1 || reps > x->iters)
        return -1;
    for (int c = 0; c < tr->n; c++)
        if (tr->way[c] < 0)
            return -1;
    unsigned seed = 2463534242u;
    int hits = 0;
    for (int s = 0; s < SIMS; s++) {
        const int r = (int)(next_draw(&seed) % (unsigned)x->rounds);
        int pick = tr->way[0];
        double least = 0;
        for (int c = 0; c < tr->n; c++) {
            const double *b = ways[tr->way[c]].st + (size_t)r * (size_t)x->iters;
            int idx[x->iters];
            for (int i = 0; i < x->iters; i++)
                idx[i] = i;
            double sum = 0;
            for (int j = 0; j < reps; j++) { /* a partial shuffle: reps distinct starts */
                const int q = j + (int)(next_draw(&seed) % (unsigned)(x->iters - j));
                const int t = idx[j];
                idx[j] = idx[q];
                idx[q] = t;
                sum += b[idx[j]];
            }
            if (c == 0 || sum < least) {
                least = sum;
                pick = tr->way[c];
            }
        }
        hits += med[pick] <= 1.05 * med[best];
    }
    return (double)hits / SIMS;
}

/* The rounds: each way's block in turn, the start moving one way on per
 * round.  One way's request at a time besides the tuned one: a Bruck
 * list's scratch is several times the receive buffer, and a dozen
 * requests at 4 MiB per peer do not fit 16 ranks in this machine's
 * memory.  Made before its block, warmed up (checked, the first time),
 * timed, freed; the tuned one warmed up alike.  Returns non-zero if a way
 * delivered wrong data; *twin: the pinned way running the default's list. */
static int rounds_run(way_t *ways, int nw, int nfixed, run_t *x, int *twin)
{
    const int tuned = nfixed, def = nfixed + 1;
    int bad = 0;
    for (int r = 0; r < x->rounds; r++)
        for (int k = 0; k < nw; k++) {
            const int i = (k + r) % nw;
            if (ways[i].mpi && r >= x->mpi_rounds)
                continue;
            if (i != tuned)
                req_open(&ways[i], x);
            if (r == 0 && i != tuned)
                bad |= data_wrong(&ways[i], x);
            else
                once(&ways[i], x);
            if (i == def && r == 0) /* its plan is made at its first start */
                *twin = twin_of(ways, nfixed, x->P, ways[def].req, NULL, 0);
            ways[i].t[r] = block(&ways[i], x, ways[i].st + (size_t)r * (size_t)x->iters);
            if (i != tuned)
                req_close(&ways[i]);
        }
    return bad;
}

static void share_print(double v)
{
    if (v < 0)
        printf(" %9s", "-");
    else
        printf(" %9.2f", v);
}

/* Rank 0's row: each way's median, then best, kept and the ratios. */
static void row_print(way_t *ways, int nw, int nfixed, const run_t *x, const char *kept, int kw,
                      int twin, double trial_per_op, const trial_t *tr)
{
    if (x->rank != 0)
        return;
    const int tuned = nfixed, def = nfixed + 1;
    double med[MAXWAYS];
    int best = 0;
    for (int i = 0; i < nw; i++) {
        double v[x->rounds];
        const int n = ways[i].mpi ? x->mpi_rounds : x->rounds;
        memcpy(v, ways[i].t, sizeof(double) * (size_t)n);
        med[i] = bench_median(v, n);
        if (i < nfixed && med[i] < med[best])
            best = i;
    }
    printf("%9zu", x->block);
    for (int i = 0; i < nw; i++)
        printf(" %*.2f", (int)strlen(ways[i].name) > 9 ? (int)strlen(ways[i].name) : 9,
               med[i] * 1e3);
    printf(" %9s %9s %10.2f %10.2f %10.2f %10.2f %10.2f", ways[best].name, kept,
           paired(&ways[tuned], &ways[best], x->rounds), paired(&ways[def], &ways[best], x->rounds),
           kw >= 0 ? paired(&ways[tuned], &ways[kw], x->rounds) : 0.0,
           twin >= 0 ? paired(&ways[def], &ways[twin], x->rounds) : 0.0,
           trial_per_op / med[tuned]);
    const double ideal = ideal_trial(ways, tr, med, best, x, tr->reps),
                 ideal2 = ideal_trial(ways, tr, med, best, x, 2 * tr->reps);
    share_print(ideal);
    share_print(ideal2);
    printf("\n");
    fflush(stdout);
}

static void one_size(run_t *x)
{
    way_t ways[MAXWAYS];
    const int nw = ways_make(ways, x->P), nfixed = nw - 4, tuned = nfixed;
    x->s = malloc(x->block * (size_t)x->P);
    x->r = malloc(x->block * (size_t)x->P);
    if (!x->s || !x->r)
        fail("out of memory");
    for (int i = 0; i < nw; i++) {
        ways[i].t = calloc((size_t)x->rounds, sizeof(double));
        ways[i].st = calloc((size_t)x->rounds * (size_t)x->iters, sizeof(double));
        if (!ways[i].t || !ways[i].st)
            fail("out of memory");
        comm_open(&ways[i]);
    }
    req_open(&ways[tuned], x);
    int trial, twin = -1;
    trial_t tr;
    const double trial_s = trial_run(ways, nfixed, x, &trial, &tr);
    int bad = data_wrong(&ways[tuned], x);
    char kept[32];
    const int kw = twin_of(ways, nfixed, x->P, ways[tuned].req, kept, sizeof(kept));
    bad |= rounds_run(ways, nw, nfixed, x, &twin);
    row_print(ways, nw, nfixed, x, kept, kw, twin, trial > 0 ? trial_s / trial : 0, &tr);
    req_close(&ways[tuned]);
    for (int i = 0; i < nw; i++) {
        comm_close(&ways[i]);
        free(ways[i].t);
        free(ways[i].st);
    }
    free(x->s);
    free(x->r);
    if (bad)
        fail("a way delivered wrong data");
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    run_t x = {.iters = 5, .rounds = 3, .mpi_rounds = 1};
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
        else if (strcmp(argv[i], "-q") == 0 && i + 1 < argc)
            x.mpi_rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "-v") == 0)
            x.verbose = 1;
        else {
            if (x.rank == 0)
                fprintf(stderr, "usage: nbo_sweep [-m SIZES] [-i ITERS] [-r ROUNDS] [-q MPI_ROUNDS] [-v]\n");
            MPI_Finalize();
            return 2;
        }
    }
    if (x.iters < 1 || x.rounds < 1 || x.mpi_rounds < 1 || x.P < 2) {
        if (x.rank == 0)
            fprintf(stderr, "nbo_sweep: needs -i, -r, -q >= 1 and at least 2 ranks\n");
        MPI_Finalize();
        return 2;
    }
    if (x.mpi_rounds > x.rounds)
        x.mpi_rounds = x.rounds;
    way_t ways[MAXWAYS];
    const int nw = ways_make(ways, x.P);
    if (x.rank == 0) {
        printf("# nbo_sweep P=%d: ms per all-to-all (slowest rank's mean of %d, median of %d "
               "rounds, MPI's of %d); best = the fastest pinned way; ratios: medians of "
               "each round's\n", x.P, x.iters, x.rounds, x.mpi_rounds);
        printf("#   bytes");
        for (int i = 0; i < nw; i++)
            printf(" %9s", ways[i].name);
        printf(" %9s %9s %10s %10s %10s %10s %10s %9s %9s\n", "best", "kept", "tuned/best",
               "def/best", "tuned/kept", "def/twin", "trial/op", "ideal", "ideal2x");
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
