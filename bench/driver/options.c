/* options.c - nbo_bench's command line (OSU's letters where OSU has them). */
#include "bench.h"
#include "sizes.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
        "usage: nbo_bench [options]\n"
        "  -a LIST      the methods (API backends), one table each:\n"
        "                 blocking     MPI's blocking call (MPI_Alltoall, ...): latency only\n"
        "                 nonblocking  MPI's non-blocking call (MPI_Ialltoall, ...), or with\n"
        "                              -p its persistent one (MPI_Alltoall_init + MPI_Start)\n"
        "                 mpi          both (what libnbo-mpi.so serves when preloaded)\n"
        "                 nbo          libnbo's (nbo_ialltoall, ...), a row per engine and\n"
        "                              progress mode (-e, -P), window (-W), codec (-z)\n"
        "                 sockets      the ceiling: plain TCP sockets (all-to-all only)\n"
        "               (default mpi,nbo,sockets)\n"
        "  -c LIST      collectives, or all (default alltoall): alltoall, allreduce,\n"
        "               reduce_scatter_block, allgather, allgatherv, bcast, barrier,\n"
        "               reduce, gather.  A size is: bytes per peer (alltoall); the\n"
        "               vector's bytes, MPI_FLOAT, MPI_SUM (allreduce, reduce to root 0;\n"
        "               reduce_scatter_block: the whole vector, size/P per rank); each\n"
        "               rank's block (allgather, allgatherv, gather to root 0); the\n"
        "               message from root 0 (bcast); none (barrier: one row, size 0)\n"
        "  -m SIZES     MIN:MAX (powers of two) or S1,S2,.. (K and M suffixes);\n"
        "               default 4K,64K,1M (about a minute at P = 2)\n"
        "  -M LIST      parts: osu (OSU's columns: Overall, Compute, Init, Test, Wait,\n"
        "               Pure Comm., Overlap), work (work-based overlap and CPU columns),\n"
        "               app (the application loop: blocks of back-to-back start;\n"
        "               compute; wait, medians) (default osu,work,app)\n"
        "  -i N         timed iterations for every size (default 50 small, 10 large)\n"
        "  -x N         warm-up iterations for every size (default 5 small, 2 large)\n"
        "  -O           OSU's counts: 1000/100 iterations, 200/10 warm-up (large > 8K)\n"
        "  -T SECONDS   at least this long measured per phase and per block: more\n"
        "               iterations for short operations (default 0.5; 0: -i's counts)\n"
        "  -b SECONDS   time budget per method and size: fewer iterations for slow\n"
        "               methods (default 20; 0: always the full counts)\n"
        "  -t N         N test calls spread over the compute (paper Table I)\n"
        "  -k C         C concurrent collectives per operation (paper Fig. 10)\n"
        "  -p           persistent forms: MPI_<coll>_init and nbo_<coll>_init, started\n"
        "               by MPI_Start / nbo_start\n"
        "  -W W1,W2,..  window sweep of the nbo rows (paper Fig. 6; default: the library's)\n"
        "  -z LIST      codecs of the nbo rows, one row each: none, fp32, zfp[:RATE]\n"
        "               (bits per value, default 16); every row's all-to-all then moves\n"
        "               MPI_DOUBLE (sizes multiples of 8; docs/compression.md)\n"
        "  -e LIST      nbo engines to try: mpi,ucx,verbs,ofi (default all)\n"
        "  -P LIST      nbo progress modes to try: inline,thread (default both)\n"
        "  -B own|mpi   the barrier before each iteration: each method's own, on its\n"
        "               own connections (default: MPI_Barrier for the MPI rows, a\n"
        "               1-byte nbo all-to-all for nbo rows, a 1-byte socket exchange\n"
        "               for the ceiling), or MPI_Barrier for every row (OSU's choice)\n"
        "  -n N         application loop: iterations per block (default 10)\n"
        "  -r R         application loop: blocks of each kind (default 5; medians)\n"
        "  -R REF.csv   application loop: compute as long as REF.csv's exchange-only\n"
        "               time for the same collective and size (another run's -o, e.g.\n"
        "               MPI alone), so that runs compare at the same compute\n"
        "  -L LABEL     this configuration's name: a suffix of every row's name, e.g.\n"
        "               async (MPIR_CVAR_ASYNC_PROGRESS=1), and the CSV's label\n"
        "  -o FILE      the results as CSV, one line per row (rank 0)\n"
        "  -V           no verdict lines\n"
        "  -h           this help\n");
}

static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; p && *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, word, n) == 0)
            return 1;
        p = e ? e + 1 : NULL;
    }
    return 0;
}

int options_wants(const char *list, const char *word)
{
    return list == NULL || has_word(list, word);
}

/* Every word of list is one of words[]? */
static int only_words(const char *list, const char *const *words)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    int n = 0;
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        int k = 0;
        while (words[k] && strcmp(words[k], w) != 0)
            k++;
        if (!words[k])
            return 0;
        n++;
    }
    return n > 0;
}

static int parse_colls(const char *arg, options_t *o)
{
    o->ncolls = coll_parse_list(arg, o->colls);
    return o->ncolls > 0 ? 0 : -1;
}

/* MIN:MAX (powers of two from MIN), one size, or a list. */
static int parse_sizes(const char *arg, options_t *o)
{
    const char *colon = strchr(arg, ':'), *e;
    if (!colon && strchr(arg, ',')) {
        o->nsizes = bench_size_list(arg, o->sizes, BENCH_MAX_SIZES);
        return o->nsizes > 0 ? 0 : -1;
    }
    size_t lo = 1, hi;
    if (colon) {
        lo = bench_size(arg, &e);
        if (!lo || e != colon)
            return -1;
    }
    hi = bench_size(colon ? colon + 1 : arg, &e);
    if (!hi || *e || hi < lo)
        return -1;
    if (!colon) { /* one size */
        o->sizes[0] = hi;
        o->nsizes = 1;
        return 0;
    }
    o->nsizes = 0;
    for (size_t s = lo; s <= hi && o->nsizes < BENCH_MAX_SIZES; s *= 2)
        o->sizes[o->nsizes++] = s;
    return 0;
}

static int parse_methods(const char *arg, options_t *o)
{
    static const char *const words[] = {"blocking", "nonblocking", "mpi", "nbo",
                                        "sockets", "ceiling", NULL};
    if (!only_words(arg, words))
        return -1;
    o->blocking = has_word(arg, "blocking") || has_word(arg, "mpi");
    o->nonblocking = has_word(arg, "nonblocking") || has_word(arg, "mpi");
    o->nbo = has_word(arg, "nbo");
    o->sockets = has_word(arg, "sockets") || has_word(arg, "ceiling");
    return 0;
}

static int parse_parts(const char *arg, options_t *o)
{
    static const char *const words[] = {"osu", "work", "app", NULL};
    if (!only_words(arg, words))
        return -1;
    o->parts = (has_word(arg, "osu") ? PART_OSU : 0) | (has_word(arg, "work") ? PART_WORK : 0) |
               (has_word(arg, "app") ? PART_APP : 0);
    return 0;
}

static int parse_codecs(const char *arg, options_t *o)
{
    for (const char *p = arg; p && *p;) {
        char word[32];
        size_t len = strcspn(p, ",");
        snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word ? len : sizeof word - 1), p);
        char *colon = strchr(word, ':');
        int rate = 16;
        if (colon) {
            *colon = 0;
            rate = atoi(colon + 1);
        }
        nbo_config_t probe;
        nbo_config_init(&probe);
        char rs[16];
        snprintf(rs, sizeof rs, "%d", rate);
        if (o->ncodecs == BENCH_MAX_CODECS ||
            nbo_config_set(&probe, "NBO_CODEC", word) != NBO_SUCCESS ||
            nbo_config_set(&probe, "NBO_CODEC_RATE", rs) != NBO_SUCCESS ||
            (colon && probe.codec != NBO_CODEC_ZFP))
            return -1;
        o->codecs[o->ncodecs] = probe.codec;
        o->codec_rates[o->ncodecs++] = probe.codec_rate;
        p = p[len] ? p + len + 1 : NULL;
    }
    return 0;
}

static int parse_windows(const char *arg, options_t *o)
{
    for (const char *p = arg; p && *p && o->nwindows < BENCH_MAX_WINDOWS;) {
        if ((o->windows[o->nwindows++] = atoi(p)) < 1)
            return -1;
        p = strchr(p, ',');
        p = p ? p + 1 : NULL;
    }
    return o->nwindows ? 0 : -1;
}

/* A whole number in [lo, hi]. */
static int count(const char *s, int lo, int hi, int *v)
{
    char *e;
    long x = strtol(s, &e, 10);
    if (*s == '\0' || *e || x < lo || x > hi)
        return -1;
    *v = (int)x;
    return 0;
}

static int seconds(const char *s, double *v)
{
    char *e;
    *v = strtod(s, &e);
    return *s == '\0' || *e || !(*v >= 0 && *v <= 3600) ? -1 : 0;
}

int options_parse(int argc, char **argv, options_t *o, int rank)
{
    memset(o, 0, sizeof *o);
    o->colls[o->ncolls++] = COLL_ALLTOALL;
    static const size_t quick[] = {4096, 65536, 1u << 20}; /* long sweeps: -m */
    for (int i = 0; i < 3; i++)
        o->sizes[o->nsizes++] = quick[i];
    o->parts = PART_OSU | PART_WORK | PART_APP;
    o->iters_small = 50, o->iters_large = 10;
    o->skip_small = 5, o->skip_large = 2;
    o->large_size = 8192;
    o->concurrency = 1;
    o->blocking = o->nonblocking = o->nbo = o->sockets = 1;
    o->verdict = 1;
    o->budget_s = 20;
    o->min_time_s = 0.5;
    o->own_barrier = 1;
    o->app_n = 10, o->app_blocks = 5;

    const char *bad = NULL;
    int c;
    opterr = 0;
    optind = 1;
    while (!bad && (c = getopt(argc, argv, "a:c:m:M:i:x:OT:b:t:k:pW:z:e:P:B:n:r:R:L:o:Vh")) != -1) {
        switch (c) {
        case 'a': bad = parse_methods(optarg, o) ? "-a: blocking, nonblocking, mpi, nbo, sockets" : NULL; break;
        case 'c': bad = parse_colls(optarg, o) ? "-c: unknown collective" : NULL; break;
        case 'm': bad = parse_sizes(optarg, o) ? "-m: MIN:MAX or S1,S2,.. (K, M suffixes)" : NULL; break;
        case 'M': bad = parse_parts(optarg, o) ? "-M: osu, work, app" : NULL; break;
        case 'i':
            bad = count(optarg, 1, BENCH_MAX_ITERS, &o->iters_small) ? "-i: a count of at least 1" : NULL;
            o->iters_large = o->iters_small;
            break;
        case 'x':
            bad = count(optarg, 0, BENCH_MAX_ITERS, &o->skip_small) ? "-x: a count" : NULL;
            o->skip_large = o->skip_small;
            break;
        case 'O':
            o->iters_small = 1000, o->iters_large = 100;
            o->skip_small = 200, o->skip_large = 10;
            break;
        case 'T': bad = seconds(optarg, &o->min_time_s) ? "-T: seconds" : NULL; break;
        case 'b': bad = seconds(optarg, &o->budget_s) ? "-b: seconds" : NULL; break;
        case 't': bad = count(optarg, 0, 1000000, &o->tests) ? "-t: a count" : NULL; break;
        case 'k':
            bad = count(optarg, 1, BENCH_MAX_CONC, &o->concurrency) ? "-k: 1 to 64" : NULL;
            break;
        case 'p': o->persistent = 1; break;
        case 'W': bad = parse_windows(optarg, o) ? "-W: windows >= 1, comma separated" : NULL; break;
        case 'z':
            bad = parse_codecs(optarg, o)
                      ? "-z: up to 8 of none, fp32, zfp[:RATE] (RATE 1..64), comma separated"
                      : NULL;
            break;
        case 'e': o->only_engine = optarg; break;
        case 'P': o->only_progress = optarg; break;
        case 'B':
            if (strcmp(optarg, "own") != 0 && strcmp(optarg, "mpi") != 0)
                bad = "-B: own or mpi";
            o->own_barrier = strcmp(optarg, "own") == 0;
            break;
        case 'n': bad = count(optarg, 1, BENCH_MAX_ITERS, &o->app_n) ? "-n: a count of at least 1" : NULL; break;
        case 'r':
            bad = count(optarg, 1, 101, &o->app_blocks) ? "-r: 1 to 101 blocks"
                                                                              : NULL;
            break;
        case 'R': o->ref_path = optarg; break;
        case 'L': o->label = optarg; break;
        case 'o': o->csv_path = optarg; break;
        case 'V': o->verdict = 0; break;
        case 'h':
            if (rank == 0)
                usage(stdout);
            return 1;
        default: bad = "unknown option"; break;
        }
    }
    if (!bad && optind < argc)
        bad = "unexpected argument";
    o->max_size = 0;
    for (int i = 0; !bad && i < o->nsizes; i++) {
        if (o->sizes[i] == 0 || o->sizes[i] > (1u << 30))
            bad = "-m: sizes from 1 B to 1 GiB";
        else if (o->sizes[i] > o->max_size)
            o->max_size = o->sizes[i];
    }
    for (int i = 0; !bad && o->ncodecs && i < o->ncolls; i++)
        if (o->colls[i] != COLL_ALLTOALL)
            bad = "-z: the codecs apply to the all-to-all only";
    for (int i = 0; !bad && o->ncodecs && i < o->nsizes; i++)
        if (o->sizes[i] % sizeof(double) != 0)
            bad = "-z: sizes are blocks of doubles, multiples of 8 bytes";
    if (!bad && o->persistent && !BENCH_MPI_PERSISTENT && o->nonblocking)
        bad = "-p: this MPI has no persistent collectives (MPI_Alltoall_init, ...); "
              "-a nbo runs libnbo's alone";
    if (bad) {
        if (rank == 0) {
            fprintf(stderr, "nbo_bench: %s\n", bad);
            usage(stderr);
        }
        return -1;
    }
    return 0;
}

void options_fit(const options_t *o, size_t size, double probe, int *iters, int *skip)
{
    int large = size > o->large_size;
    *iters = large ? o->iters_large : o->iters_small;
    *skip = large ? o->skip_large : o->skip_small;
    if (probe <= 0)
        return;
    if (probe * *iters < o->min_time_s) {
        double want = o->min_time_s / probe + 1;
        *iters = want < BENCH_MAX_ITERS ? (int)want : BENCH_MAX_ITERS;
    }
    /* About 5 operations' worth per iteration, counting all phases. */
    if (o->budget_s > 0 && probe * 5 * (*iters + *skip) > o->budget_s) {
        int fit = (int)(o->budget_s / (probe * 5));
        *skip = *skip > 0 ? 1 : 0;
        *iters = fit - *skip < 2 ? 2 : fit - *skip;
    }
}
