/*
 * nbo_osu_coll.c - MPI's collectives as an unmodified MPI program sees
 * them, in the OSU micro-benchmarks' columns, plus the loop applications
 * run.  Plain MPI (no libnbo): the same binary runs on MPI alone, on MPI
 * with its own progress thread (MPICH: MPIR_CVAR_ASYNC_PROGRESS=1), and
 * with libnbo-mpi.so preloaded, which then serves the calls it serves.
 *
 * Per collective (-c) and size (-m):
 *
 *   OSU      (the definitions of OSU's non-blocking collective benchmarks)
 *            Pure Comm.  start; wait                (a barrier before each)
 *            overlapped  start; compute for Pure Comm. seconds by the
 *                        clock (-t N: N MPI_Test calls spread over it); wait
 *            Overall = Init + Compute + Test + Wait, each a per-rank mean
 *            averaged over ranks; Overlap = max(0, 100 - 100 * (Overall -
 *            Compute) / Pure Comm.)
 *   app      the application loop: blocks of N back-to-back iterations,
 *            no barrier inside a block, of
 *              compute      a fixed amount of work (busy loop) calibrated to
 *                           take as long as a block of back-to-back
 *                           exchanges took per iteration (or -C's)
 *              exchange     start; wait
 *              blocking     the blocking call (MPI_Allreduce, ...)
 *              overlapped   start; the same work; wait
 *            R blocks of each kind in rotating order, a barrier before
 *            each block; a block's time is its slowest rank's; medians
 *            over blocks, per iteration.  Hidden = 100 * (compute +
 *            exchange - overlapped) / exchange; NB/Blocking = exchange /
 *            blocking.
 *
 * See bench/osu/README.md and docs/benchmarks.md.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "sizes.h"
#include "busy.h"
#include "loops.h"
#include "osu.h"

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_SIZES 64
#define MAX_ITERS 1000000
#define MAX_BLOCKS BENCH_APP_MAX_BLOCKS

static MPI_Comm world;
static int rank, nprocs;
static double rate, rate_idle; /* work steps per second: after / before MPI_Init */

/* ------------------------------------------------------------- options */

typedef struct options {
    int colls[OC_N], ncolls;
    size_t sizes[MAX_SIZES];
    int nsizes;          /* 0: OSU's sweep, min_size..max_size           */
    size_t min_size, max_size;
    int iters, skip;     /* -i, -x (0: OSU's defaults per size)           */
    int tests;           /* -t                                           */
    int persistent;      /* -p                                           */
    int full;            /* -f                                           */
    int osu, app;        /* -M                                           */
    int app_n, app_blocks; /* -n, -r                                     */
    double min_time;     /* -T                                           */
    const char *csv, *label;
    const char *ref;     /* -C: the compute's length from this CSV         */
} options_t;

static const char usage[] =
    "usage: nbo_osu_coll [-c COLL[,COLL..]|all] [-m [MIN:]MAX | -m S1,S2,..] [-i N] [-x N]\n"
    "                    [-t CALLS] [-p] [-f] [-M osu,app] [-n N] [-r R] [-T SECONDS]\n"
    "                    [-o FILE.csv] [-L LABEL] [-C REF.csv]\n"
    "  -c   alltoall, allreduce, reduce_scatter_block, allgather, allgatherv, bcast,\n"
    "       barrier, reduce, gather or all (default all).  A size is: bytes per peer\n"
    "       (alltoall); the vector's bytes, MPI_FLOAT, MPI_SUM (allreduce, reduce to root 0;\n"
    "       reduce_scatter_block: the whole vector, a block of size/P per rank); each\n"
    "       rank's block (allgather, allgatherv, gather to root 0); the message from\n"
    "       root 0 (bcast); none (barrier: one row, size 0)\n"
    "  -m   OSU's MIN:MAX sweep of powers of two (default: the smallest to 1M), or a list;\n"
    "       K and M suffixes\n"
    "  -i, -x  timed and warm-up iterations of the OSU part (default OSU's: 1000 and 200\n"
    "       up to 8K, 100 and 10 above)\n"
    "  -t   MPI_Test calls spread over the OSU compute (default 0)\n"
    "  -p   persistent: MPI_<coll>_init once per size, MPI_Start per operation\n"
    "  -f   OSU's full format (Init, Test, Wait columns)\n"
    "  -M   which parts: osu (OSU columns), app (the application loop); default both\n"
    "  -n   application loop: iterations per block (default 10)\n"
    "  -r   application loop: blocks of each kind (default 5; medians over them)\n"
    "  -T   at least this many seconds per OSU phase and per block (more iterations)\n"
    "  -o   CSV, one line per collective and size (rank 0)\n"
    "  -L   a label for this configuration (header and CSV)\n"
    "  -C   application loop: compute as long as REF.csv's exchange-only time for the same\n"
    "       collective and size (a CSV of another run, e.g. MPI alone), so that runs\n"
    "       compare at the same compute; sizes not in it use this run's exchange\n";

static int parse_sizes(const char *arg, options_t *o)
{
    const char *colon = strchr(arg, ':');
    const char *e;
    if (colon || !strchr(arg, ',')) {
        /* OSU: MAX, MIN:MAX, MIN: */
        if (colon && colon != arg) {
            o->min_size = bench_size(arg, &e);
            if (!o->min_size || e != colon)
                return -1;
        }
        const char *max = colon ? colon + 1 : arg;
        if (*max) {
            o->max_size = bench_size(max, &e);
            if (!o->max_size || *e)
                return -1;
        }
        o->nsizes = 0;
        return o->min_size <= o->max_size ? 0 : -1;
    }
    o->nsizes = bench_size_list(arg, o->sizes, MAX_SIZES);
    return o->nsizes > 0 ? 0 : -1;
}

static int parse_colls(const char *arg, options_t *o)
{
    o->ncolls = 0;
    if (strcmp(arg, "all") == 0) {
        for (int c = 0; c < OC_N; c++)
            o->colls[o->ncolls++] = c;
        return 0;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s", arg);
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        oc_coll_t c;
        if (oc_parse(w, &c) != 0 || o->ncolls == OC_N)
            return -1;
        o->colls[o->ncolls++] = (int)c;
    }
    return o->ncolls ? 0 : -1;
}

static int positive(const char *s, int *v)
{
    char *e;
    long x = strtol(s, &e, 10);
    if (*s == '\0' || *e || x < 0 || x > MAX_ITERS)
        return -1;
    *v = (int)x;
    return 0;
}

/* 0: run; 1: help printed; -1: error (printed by rank 0). */
static int parse_options(int argc, char **argv, options_t *o)
{
    *o = (options_t){.min_size = 1, .max_size = 1 << 20, .osu = 1, .app = 1, .app_n = 10,
                     .app_blocks = 5};
    parse_colls("all", o);
    int c;
    const char *bad = NULL;
    while (!bad && (c = getopt(argc, argv, "c:m:i:x:t:pfM:n:r:T:o:L:C:h")) != -1) {
        switch (c) {
        case 'c':
            if (parse_colls(optarg, o) != 0)
                bad = "-c: unknown collective";
            break;
        case 'm':
            if (parse_sizes(optarg, o) != 0)
                bad = "-m: bad size list";
            break;
        case 'i':
            if (positive(optarg, &o->iters) != 0 || o->iters < 1)
                bad = "-i: a count of at least 1";
            break;
        case 'x':
            if (positive(optarg, &o->skip) != 0)
                bad = "-x: a count";
            else if (o->skip == 0)
                o->skip = -1; /* explicitly none */
            break;
        case 't':
            if (positive(optarg, &o->tests) != 0)
                bad = "-t: a count";
            break;
        case 'p':
            o->persistent = 1;
            break;
        case 'f':
            o->full = 1;
            break;
        case 'M':
            o->osu = strstr(optarg, "osu") != NULL;
            o->app = strstr(optarg, "app") != NULL;
            if (!o->osu && !o->app)
                bad = "-M: osu, app or osu,app";
            break;
        case 'n':
            if (positive(optarg, &o->app_n) != 0 || o->app_n < 1)
                bad = "-n: a count of at least 1";
            break;
        case 'r':
            if (positive(optarg, &o->app_blocks) != 0 || o->app_blocks < 1 ||
                o->app_blocks > MAX_BLOCKS)
                bad = "-r: 1 to 101 blocks";
            break;
        case 'T': {
            char *e;
            o->min_time = strtod(optarg, &e);
            if (*e || o->min_time < 0 || o->min_time > 3600)
                bad = "-T: seconds";
            break;
        }
        case 'o':
            o->csv = optarg;
            break;
        case 'L':
            o->label = optarg;
            break;
        case 'C':
            o->ref = optarg;
            break;
        case 'h':
            if (rank == 0)
                fputs(usage, stdout);
            return 1;
        default:
            bad = "unknown option";
            break;
        }
    }
    if (!bad && optind < argc)
        bad = "unexpected argument";
    if (!bad && o->persistent && !OSU_HAVE_PERSISTENT)
        bad = "-p: this MPI has no persistent collectives (MPI_Allreduce_init, ...)";
    if (bad) {
        if (rank == 0)
            fprintf(stderr, "nbo_osu_coll: %s\n%s", bad, usage);
        return -1;
    }
    if (o->nsizes == 0)
        for (size_t s = 1; s <= o->max_size && o->nsizes < MAX_SIZES; s *= 2)
            if (s >= o->min_size)
                o->sizes[o->nsizes++] = s;
    return 0;
}

/* ------------------------------------------------------------ reference */

/* -C: exchange-only times (us) by collective and size, read by rank 0
 * from another run's CSV and given to every rank. */
#define MAX_REF (OC_N * MAX_SIZES)
static struct {
    int coll[MAX_REF];
    double size[MAX_REF], us[MAX_REF];
    int n;
} ref;

/* Field k (0-based) of a CSV line, copied into out. */
static int csv_field(const char *line, int k, char *out, size_t len)
{
    const char *p = line;
    for (int i = 0; i < k; i++) {
        p = strchr(p, ',');
        if (!p)
            return -1;
        p++;
    }
    size_t n = strcspn(p, ",\n");
    if (n >= len)
        return -1;
    memcpy(out, p, n);
    out[n] = '\0';
    return 0;
}

static int csv_column(const char *header, const char *name)
{
    char f[64];
    for (int k = 0; csv_field(header, k, f, sizeof f) == 0; k++)
        if (strcmp(f, name) == 0)
            return k;
    return -1;
}

/* 0, or -1 with the reason printed (rank 0). */
static int read_ref(const char *path)
{
    int ok = 1;
    if (rank == 0) {
        FILE *f = fopen(path, "r");
        char line[1024];
        int kc = -1, ks = -1, ku = -1;
        if (!f || !fgets(line, sizeof line, f)) {
            fprintf(stderr, "nbo_osu_coll: -C %s: %s\n", path, f ? "empty" : strerror(errno));
            ok = 0;
        } else {
            kc = csv_column(line, "coll"), ks = csv_column(line, "size");
            ku = csv_column(line, "app_exchange_us");
            if (kc < 0 || ks < 0 || ku < 0) {
                fprintf(stderr, "nbo_osu_coll: -C %s: not a CSV of nbo_osu_coll -o\n", path);
                ok = 0;
            }
        }
        while (ok && ref.n < MAX_REF && fgets(line, sizeof line, f)) {
            char c[64], sz[32], us[32];
            oc_coll_t coll;
            if (csv_field(line, kc, c, sizeof c) || csv_field(line, ks, sz, sizeof sz) ||
                csv_field(line, ku, us, sizeof us) || oc_parse(c, &coll) != 0)
                continue;
            double v = strtod(us, NULL);
            if (v <= 0)
                continue;
            ref.coll[ref.n] = (int)coll, ref.size[ref.n] = strtod(sz, NULL), ref.us[ref.n++] = v;
        }
        if (f)
            fclose(f);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Bcast(&ref, sizeof ref, MPI_BYTE, 0, MPI_COMM_WORLD);
    return ok ? 0 : -1;
}

/* The reference's exchange-only seconds for c and size, 0 if none. */
static double ref_exchange(oc_coll_t c, size_t size)
{
    for (int i = 0; i < ref.n; i++)
        if (ref.coll[i] == (int)c && ref.size[i] == (double)size)
            return ref.us[i] * 1e-6;
    return 0;
}

/* ------------------------------------------------------------ utilities */

static void die(const char *what, oc_coll_t c, int rc)
{
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (rc != MPI_SUCCESS)
        MPI_Error_string(rc, msg, &len);
    fprintf(stderr, "nbo_osu_coll[%d]: %s (%s) failed: %s\n", rank, what, oc_name(c), msg);
    MPI_Abort(world, 1);
}

#define CHECK(call, what, c)                 \
    do {                                     \
        int rc_ = (call);                    \
        if (rc_ != MPI_SUCCESS)              \
            die(what, c, rc_);               \
    } while (0)

/* libnbo-mpi's count of the calls it served (-1: not loaded). */
static long served(void)
{
    typedef int (*stats_fn)(long *, long *, long *);
    stats_fn f = (stats_fn)dlsym(RTLD_DEFAULT, "nbo_pmpi_stats");
    long n = -1;
    if (f)
        f(&n, NULL, NULL);
    return n;
}

/* ---------------------------------------------------------- measurement */

typedef struct row {
    oc_coll_t coll;
    size_t size;
    int iters;
    double overall, compute, init, test, wait, pure, overlap; /* OSU, us */
    int app_n, app_blocks;
    double app_comp, app_exch, app_block, app_ovl;            /* us per iteration */
    double hidden, nb_vs_blocking, comp_vs_idle;
    int ref;                  /* the compute's length came from -C        */
    long served, errors;
} row_t;

/* The loops' exchange (bench/common/loops.h): this collective's MPI calls. */
static int xchg_start(void *op) { return oc_start(op); }
static int xchg_wait(void *op) { return oc_wait(op); }
static int xchg_blocking(void *op) { return oc_blocking(op); }
static int xchg_sync(void *op) { (void)op; return MPI_Barrier(world); }

static void xchg_fail(const bench_xchg_t *x, const char *what, int rc)
{
    die(what, ((const oc_op_t *)x->ctx)->coll, rc);
}

/* OSU's: per-rank means over the timed iterations, averaged over ranks. */
static void osu_part(const bench_xchg_t *x, const options_t *o, double probe, row_t *r)
{
    const oc_op_t *op = x->ctx;
    int small = op->size <= 8192;
    int iters = o->iters ? o->iters : small ? 1000 : 100;
    int skip = o->skip > 0 ? o->skip : o->skip < 0 ? 0 : small ? 200 : 10;
    if (o->min_time > 0 && probe > 0 && o->min_time / probe > iters)
        iters = o->min_time / probe < MAX_ITERS ? (int)ceil(o->min_time / probe) : MAX_ITERS;
    r->iters = iters;

    double f[BF_N] = {0};
    /* This rank's latency: its compute lasts as long. */
    double latency = bench_pure_phase(x, skip, iters, f);
    bench_osu_phase(x, latency, skip, iters, f);
    bench_per_operation(f, iters, 0, rate_idle);
    bench_rank_mean(f, world);
    r->overall = f[BF_OVERALL], r->compute = f[BF_COMPUTE], r->init = f[BF_INIT];
    r->test = f[BF_TEST], r->wait = f[BF_WAIT], r->pure = f[BF_PURE];
    r->overlap = bench_osu_overlap(f);
}

/* The application loop (bench_app_loop): compute as long as -C's
 * reference, if it has this collective and size. */
static void app_part(const bench_xchg_t *x, const options_t *o, double probe, double ref_s,
                     row_t *r)
{
    bench_app_t a = {.n = o->app_n, .blocks = o->app_blocks, .min_time = o->min_time,
                     .ref_s = ref_s};
    bench_app_loop(x, probe, rate, rate_idle, &a);
    r->app_n = a.n, r->app_blocks = a.blocks, r->ref = a.ref;
    r->app_comp = a.comp, r->app_exch = a.exch, r->app_block = a.block, r->app_ovl = a.ovl;
    r->hidden = a.hidden, r->nb_vs_blocking = a.nb_vs_blocking, r->comp_vs_idle = a.comp_vs_idle;
}

static void measure(oc_coll_t c, size_t size, const options_t *o, row_t *r)
{
    memset(r, 0, sizeof *r);
    r->coll = c, r->size = size;
    long s0 = served();
    oc_op_t op;
    CHECK(oc_setup(&op, c, size, world, o->persistent),
          o->persistent ? "persistent init" : "buffers", c);

    /* Both forms once, each result checked; the non-blocking one also
     * sizes the run. */
    long bad = 0;
    MPI_Barrier(world);
    CHECK(oc_blocking(&op), oc_mpi_name(c, 0), c);
    bad += oc_verify(&op);
    oc_fill(&op);
    MPI_Barrier(world);
    double probe = now_s();
    CHECK(oc_start(&op), "start", c);
    CHECK(oc_wait(&op), "wait", c);
    probe = bench_agree_max(world, now_s() - probe);
    bad += oc_verify(&op);

    bench_xchg_t x = {.start = xchg_start, .wait = xchg_wait, .blocking = xchg_blocking,
                      .sync = xchg_sync, .test = oc_test, .ctx = &op, .tests = o->tests,
                      .comm = world, .fail = xchg_fail};
    if (o->osu)
        osu_part(&x, o, probe, r);
    if (o->app)
        app_part(&x, o, probe, ref_exchange(c, size), r);
    /* The data once more, after every timed operation. */
    oc_fill(&op);
    MPI_Barrier(world);
    CHECK(oc_start(&op), "start", c);
    CHECK(oc_wait(&op), "wait", c);
    bad += oc_verify(&op);
    MPI_Allreduce(&bad, &r->errors, 1, MPI_LONG, MPI_SUM, world);
    oc_teardown(&op);
    long s1 = served();
    r->served = s0 < 0 ? -1 : s1 - s0;
}

/* --------------------------------------------------------------- report */

#define W 18

static const char *served_word(long s) { return s < 0 ? "mpi" : s > 0 ? "libnbo" : "mpi"; }

static void print_osu_header(oc_coll_t c, const options_t *o)
{
    printf("\n# nbo_osu_coll: %s%s, non-blocking latency and overlap (OSU columns)\n",
           o->persistent ? "persistent " : "", oc_mpi_name(c, 1));
    printf("# Overall = Coll. Init + Compute + MPI_Test + MPI_Wait\n");
    printf("%-10s%*s%*s", "# Size", W, "Overall(us)", W, "Compute(us)");
    if (o->full)
        printf("%*s%*s%*s", W, "Coll. Init(us)", W, "MPI_Test(us)", W, "MPI_Wait(us)");
    printf("%*s%*s\n", W, "Pure Comm.(us)", W, "Overlap(%)");
}

static void print_osu_row(const row_t *r, const options_t *o)
{
    printf("%-10zu%*.2f%*.2f", r->size, W, r->overall, W, r->compute);
    if (o->full)
        printf("%*.2f%*.2f%*.2f", W, r->init, W, r->test, W, r->wait);
    printf("%*.2f%*.2f\n", W, r->pure, W, r->overlap);
}

static void print_app(const row_t *rows, int n, oc_coll_t c, const options_t *o)
{
    if (n == 0)
        return;
    printf("\n# application loop, %s%s: blocks of N back-to-back iterations of "
           "start; compute; wait\n",
           o->persistent ? "persistent " : "", oc_mpi_name(c, 1));
    printf("# (compute-only, exchange-only, blocking %s and overlapped blocks alternate, %d of "
           "each;\n# the slowest rank's block, medians, us per iteration; Hidden = (Compute + "
           "Exchange - Overlapped) / Exchange)\n",
           oc_mpi_name(c, 0), rows[0].app_blocks);
    if (o->ref)
        printf("# compute: as long as %s's exchange-only time (-C)%s\n", o->ref,
               rows[0].ref ? "" : "; not found there: this run's");
    printf("%-10s%*s%*s%*s%*s%*s%*s%*s%*s\n", "# Size", 6, "N", 15, "Compute(us)", 15,
           "Exchange(us)", 16, "Overlapped(us)", 11, "Hidden(%)", 15, "Blocking(us)", 13,
           "NB/Blocking", 14, "Compute/idle");
    for (int i = 0; i < n; i++) {
        const row_t *r = &rows[i];
        printf("%-10zu%*d%*.2f%*.2f%*.2f%*.1f%*.2f%*.3f%*.2f\n", r->size, 6, r->app_n, 15,
               r->app_comp, 15, r->app_exch, 16, r->app_ovl, 11, r->hidden, 15, r->app_block,
               13, r->nb_vs_blocking, 14, r->comp_vs_idle);
    }
}

static void csv_header(FILE *f)
{
    fprintf(f, "label,coll,size,nprocs,persistent,served,osu_iters,overall_us,compute_us,"
               "init_us,test_us,wait_us,pure_us,overlap_pct,app_n,app_blocks,app_compute_us,"
               "app_exchange_us,app_blocking_us,app_overlapped_us,hidden_pct,nb_vs_blocking,"
               "compute_vs_idle,errors\n");
}

static void csv_row(FILE *f, const row_t *r, const options_t *o)
{
    fprintf(f, "%s,%s,%zu,%d,%d,%s,%d,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,%d,%d,%.2f,%.2f,%.2f,"
               "%.2f,%.2f,%.4f,%.3f,%ld\n",
            o->label ? o->label : "", oc_name(r->coll), r->size, nprocs, o->persistent,
            served_word(r->served), r->iters, r->overall, r->compute, r->init, r->test, r->wait,
            r->pure, r->overlap, r->app_n, r->app_blocks, r->app_comp, r->app_exch,
            r->app_block, r->app_ovl, r->hidden, r->nb_vs_blocking, r->comp_vs_idle, r->errors);
}

static void print_preamble(const options_t *o, int provided)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    MPI_Get_library_version(lib, &len);
    char *nl = strchr(lib, '\n');
    if (nl)
        *nl = '\0';
    const char *env[] = {"NBO_PMPI", "NBO_PMPI_COLLS", "NBO_PMPI_MIN_SIZE", "NBO_ENGINE",
                         "NBO_PROGRESS", "MPIR_CVAR_ASYNC_PROGRESS", "UCX_TLS"};
    long s = served();
    printf("# nbo_osu_coll%s%s: %d ranks, MPI thread level %s, %s\n", o->label ? " " : "",
           o->label ? o->label : "", nprocs,
           provided == MPI_THREAD_MULTIPLE ? "multiple" : "below multiple", lib);
    printf("# libnbo-mpi: %s;", s < 0 ? "not loaded" : "loaded");
    for (size_t i = 0; i < sizeof env / sizeof env[0]; i++) {
        const char *v = getenv(env[i]);
        if (v)
            printf(" %s=%s", env[i], v);
    }
    printf("\n# %d sizes (%zu to %zu B), OSU iterations %s (warm-up %s)%s, %d test calls; "
           "application loop %d iterations x %d blocks per kind; at least %.3g s per phase\n",
           o->nsizes, o->sizes[0], o->sizes[o->nsizes - 1], o->iters ? "-i" : "1000/100",
           o->skip ? "-x" : "200/10", o->persistent ? ", persistent" : "", o->tests, o->app_n,
           o->app_blocks, o->min_time);
    if (o->iters)
        printf("# -i %d -x %d\n", o->iters, o->skip > 0 ? o->skip : 0);
    printf("# work: %.0f Msteps/s (before MPI_Init: %.0f)\n", rate / 1e6, rate_idle / 1e6);
}

/* ----------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    rate_idle = busy_calibrate(); /* no thread of any library runs yet */
    int provided;
    /* MPICH's own progress thread (MPIR_CVAR_ASYNC_PROGRESS=1) needs
     * MPI_THREAD_MULTIPLE, and libnbo-mpi asks for it itself: every
     * configuration runs at the same level. */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    world = MPI_COMM_WORLD;
    MPI_Comm_rank(world, &rank);
    MPI_Comm_size(world, &nprocs);

    options_t o;
    int prc = parse_options(argc, argv, &o);
    if (prc != 0) {
        MPI_Finalize();
        return prc > 0 ? 0 : 2;
    }
    if (o.ref && read_ref(o.ref) != 0) {
        MPI_Finalize();
        return 2;
    }
    rate = busy_calibrate();

    FILE *csv = NULL;
    if (rank == 0) {
        print_preamble(&o, provided);
        if (o.csv) {
            csv = fopen(o.csv, "w");
            if (!csv) {
                perror(o.csv);
                MPI_Abort(world, 1);
            }
            csv_header(csv);
        }
        fflush(stdout);
    }

    long errors = 0;
    row_t rows[MAX_SIZES];
    for (int ci = 0; ci < o.ncolls; ci++) {
        oc_coll_t c = (oc_coll_t)o.colls[ci];
        int n = 0;
        long calls = 0;
        if (rank == 0 && o.osu)
            print_osu_header(c, &o);
        for (int k = 0; k < o.nsizes; k++) {
            size_t size = oc_fit_size(c, o.sizes[k], nprocs);
            /* The barrier moves no data: one row, size 0. */
            if (c == OC_BARRIER ? k > 0
                                : size == 0 || (k > 0 && size == oc_fit_size(c, o.sizes[k - 1], nprocs)))
                continue;
            row_t *r = &rows[n++];
            measure(c, size, &o, r);
            errors += r->errors;
            calls = r->served < 0 ? -1 : calls + r->served;
            if (rank == 0) {
                if (o.osu)
                    print_osu_row(r, &o);
                if (r->errors)
                    printf("# DATA ERRORS: %ld elements received wrong\n", r->errors);
                if (csv)
                    csv_row(csv, r, &o), fflush(csv);
                fflush(stdout);
            }
        }
        if (rank == 0) {
            if (o.app)
                print_app(rows, n, c, &o);
            if (calls < 0)
                printf("# %s: served by MPI (libnbo-mpi not loaded)\n", oc_name(c));
            else if (calls == 0)
                printf("# %s: served by MPI (libnbo-mpi loaded, served none of its calls)\n",
                       oc_name(c));
            else
                printf("# %s: served by libnbo (libnbo-mpi served %ld calls)\n", oc_name(c),
                       calls);
            fflush(stdout);
        }
    }
    if (rank == 0) {
        if (csv)
            fclose(csv);
        /* Drivers watch for this line (MPI_Finalize can hang over UCX tcp). */
        printf("# nbo_osu_coll: done, %ld data errors\n", errors);
        fflush(stdout);
    }
    MPI_Finalize();
    return errors ? 1 : 0;
}
