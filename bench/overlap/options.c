/* options.c - command line of nbo_overlap (OSU-like letters where OSU has them). */
#include "bench.h"
#include "sizes.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
        "usage: nbo_overlap [options]\n"
        "  -C COLL      the collective: alltoall (default), allreduce, allgather, bcast\n"
        "               -m/-S sizes are bytes per peer (alltoall), the vector's bytes\n"
        "               (allreduce: MPI_DOUBLE, MPI_SUM; multiples of 8), the block\n"
        "               per rank (allgather), the message from root 0 (bcast)\n"
        "  -m MIN:MAX   sweep sizes, powers of two (K/M suffixes), e.g. 1:4M\n"
        "  -S S1,S2,..  explicit sizes (default 4K,64K,1M: about a minute at P = 2)\n"
        "  -i N         timed iterations for every size (default 50 small, 10 large)\n"
        "  -x N         warm-up iterations for every size (default 5 small, 2 large)\n"
        "  -O           OSU's counts: 1000/100 iterations, 200/10 warm-up (large > 8K)\n"
        "  -t N         N test calls spread over the compute (paper Table I)\n"
        "  -c C         C concurrent collectives per operation (paper Fig. 10)\n"
        "  -W W1,W2,..  window sweep for nbo (paper Fig. 6; default: the library's)\n"
        "  -p           nbo persistent requests (nbo_<coll>_init + nbo_start)\n"
        "  -z LIST      codecs of the nbo rows, one row each: none, fp32, zfp[:RATE]\n"
        "               (bits per value, default 16), e.g. none,fp32,zfp:8,zfp:16;\n"
        "               every row's all-to-all then moves MPI_DOUBLE (sizes in bytes,\n"
        "               multiples of 8; docs/compression.md); all-to-all only\n"
        "  -M LIST      methods: blocking (or the collective's name, e.g. alltoall),\n"
        "               nonblocking (or i + the name, e.g. ialltoall), nbo, ceiling\n"
        "               (all-to-all only) (default all)\n"
        "  -e LIST      nbo engines to try: mpi,ucx,verbs (default all)\n"
        "  -P LIST      nbo progress modes to try: inline,thread (default both)\n"
        "  -L LABEL     name suffix for every row, e.g. async (MPIR_CVAR_ASYNC_PROGRESS=1)\n"
        "               or an OFI provider (NBO_OFI_PROVIDER)\n"
        "  -o FILE      write the results as CSV (rank 0)\n"
        "  -T SECONDS   at least this long measured per phase: more iterations for\n"
        "               short operations, whose averages one preemption skews\n"
        "               (default 0.5; 0: the counts of -i only)\n"
        "  -b SECONDS   time budget per method and size: fewer iterations for slow\n"
        "               methods (default 20; 0: always the full counts)\n"
        "  -B own|mpi   the barrier before each iteration: each method's own, on its\n"
        "               own connections (default: MPI_Barrier for the MPI rows, a\n"
        "               1-byte nbo all-to-all for nbo rows, a 1-byte socket exchange\n"
        "               for the ceiling), or MPI_Barrier for every row (OSU's choice)\n"
        "  -V           no verdict lines\n"
        "  -h           this help\n");
}

static const char *const coll_names[COLL_N] = {"alltoall", "allreduce", "allgather", "bcast"};

const char *coll_name(coll_t c)
{
    return coll_names[c];
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

int options_parse(int argc, char **argv, options_t *o, int rank)
{
    memset(o, 0, sizeof *o);
    o->min_size = 1;
    o->max_size = 4u << 20;
    o->iters_small = 50, o->iters_large = 10;
    o->skip_small = 5, o->skip_large = 2;
    o->large_size = 8192;
    o->concurrency = 1;
    o->ceiling = o->blocking = o->mpi_nb = o->nbo = 1;
    o->verdict = 1;
    o->check = 1;
    o->budget_s = 20;
    o->min_time_s = 0.5;
    o->own_barrier = 1;

    int c, swept = 0;
    const char *methods = NULL;
    opterr = 0;
    while ((c = getopt(argc, argv, "C:m:S:i:x:Ot:c:W:pz:M:e:P:L:o:b:T:B:Vh")) != -1) {
        switch (c) {
        case 'C': {
            int k = 0;
            while (k < COLL_N && strcmp(optarg, coll_names[k]) != 0)
                k++;
            if (k == COLL_N) {
                if (rank == 0)
                    fprintf(stderr, "nbo_overlap: -C takes alltoall, allreduce, allgather or bcast\n");
                return -1;
            }
            o->coll = (coll_t)k;
            break;
        }
        case 'm': {
            const char *colon = strchr(optarg, ':');
            o->min_size = bench_size(optarg, NULL);
            o->max_size = colon ? bench_size(colon + 1, NULL) : o->min_size;
            swept = 1;
            break;
        }
        case 'S':
            o->nsizes = bench_size_list(optarg, o->sizes, BENCH_MAX_SIZES);
            if (o->nsizes < 1) {
                if (rank == 0)
                    fprintf(stderr, "nbo_overlap: -S takes up to %d sizes, comma separated\n",
                            BENCH_MAX_SIZES);
                return -1;
            }
            break;
        case 'i': o->iters_small = o->iters_large = atoi(optarg); break;
        case 'x': o->skip_small = o->skip_large = atoi(optarg); break;
        case 'O':
            o->iters_small = 1000, o->iters_large = 100;
            o->skip_small = 200, o->skip_large = 10;
            break;
        case 't': o->tests = atoi(optarg); break;
        case 'c': o->concurrency = atoi(optarg); break;
        case 'W':
            for (char *p = optarg; p && *p && o->nwindows < BENCH_MAX_WINDOWS;) {
                o->windows[o->nwindows++] = atoi(p);
                p = strchr(p, ',');
                p = p ? p + 1 : NULL;
            }
            break;
        case 'p': o->persistent = 1; break;
        case 'z':
            for (char *p = optarg; p && *p;) {
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
                    (colon && probe.codec != NBO_CODEC_ZFP)) {
                    if (rank == 0)
                        fprintf(stderr, "nbo_overlap: -z takes up to %d of none, fp32, "
                                        "zfp[:RATE] (RATE 1..64), comma separated\n",
                                BENCH_MAX_CODECS);
                    return -1;
                }
                o->codecs[o->ncodecs] = probe.codec;
                o->codec_rates[o->ncodecs++] = probe.codec_rate;
                p = p[len] ? p + len + 1 : NULL;
            }
            break;
        case 'M': methods = optarg; break;
        case 'e': o->only_engine = optarg; break;
        case 'P': o->only_progress = optarg; break;
        case 'L': o->label = optarg; break;
        case 'o': o->csv_path = optarg; break;
        case 'b': o->budget_s = atof(optarg); break;
        case 'T': o->min_time_s = atof(optarg); break;
        case 'B':
            if (strcmp(optarg, "own") != 0 && strcmp(optarg, "mpi") != 0) {
                if (rank == 0)
                    fprintf(stderr, "nbo_overlap: -B takes own or mpi\n");
                return -1;
            }
            o->own_barrier = strcmp(optarg, "own") == 0;
            break;
        case 'V': o->verdict = 0; break;
        case 'h':
            if (rank == 0)
                usage(stdout);
            return 1;
        default:
            if (rank == 0) {
                fprintf(stderr, "nbo_overlap: bad option -%c\n", optopt);
                usage(stderr);
            }
            return -1;
        }
    }
    if (o->min_size == 0 || o->max_size < o->min_size || o->max_size > (1u << 30) ||
        o->iters_small < 1 || o->iters_large < 1 || o->skip_small < 0 ||
        o->tests < 0 || o->min_time_s < 0 || o->budget_s < 0 || o->concurrency < 1 ||
        o->concurrency > BENCH_MAX_CONC) {
        if (rank == 0)
            fprintf(stderr, "nbo_overlap: bad sizes, counts, times or concurrency (1..%d)\n",
                    BENCH_MAX_CONC);
        return -1;
    }
    if (methods) {
        char nb[16];
        snprintf(nb, sizeof nb, "i%s", coll_name(o->coll));
        o->blocking = has_word(methods, "blocking") || has_word(methods, coll_name(o->coll));
        o->mpi_nb = has_word(methods, "nonblocking") || has_word(methods, nb);
        o->nbo = has_word(methods, "nbo");
        o->ceiling = has_word(methods, "ceiling");
    }
    static const size_t quick[] = {4096, 65536, 1u << 20}; /* long sweeps: -m */
    if (o->nsizes == 0 && !swept)
        for (int i = 0; i < 3; i++)
            o->sizes[o->nsizes++] = quick[i];
    if (o->nsizes == 0)
        for (size_t s = o->min_size; s <= o->max_size && o->nsizes < BENCH_MAX_SIZES; s *= 2)
            o->sizes[o->nsizes++] = s;
    o->max_size = 0;
    for (int i = 0; i < o->nsizes; i++) {
        if (o->sizes[i] == 0 || o->sizes[i] > (1u << 30)) {
            if (rank == 0)
                fprintf(stderr, "nbo_overlap: bad size in -S\n");
            return -1;
        }
        if (o->sizes[i] > o->max_size)
            o->max_size = o->sizes[i];
        if (o->coll == COLL_ALLREDUCE && o->sizes[i] % sizeof(double) != 0) {
            if (rank == 0)
                fprintf(stderr, "nbo_overlap: allreduce sizes are vectors of doubles: "
                                "multiples of 8 bytes\n");
            return -1;
        }
    }
    if (o->ncodecs && o->coll != COLL_ALLTOALL) {
        if (rank == 0)
            fprintf(stderr, "nbo_overlap: -z applies to the all-to-all only\n");
        return -1;
    }
    for (int i = 0; i < o->nsizes && o->ncodecs; i++)
        if (o->sizes[i] % sizeof(double) != 0) {
            if (rank == 0)
                fprintf(stderr, "nbo_overlap: with -z sizes are blocks of doubles: "
                                "multiples of 8 bytes\n");
            return -1;
        }
    for (int i = 0; i < o->nwindows; i++)
        if (o->windows[i] < 1) {
            if (rank == 0)
                fprintf(stderr, "nbo_overlap: windows must be >= 1\n");
            return -1;
        }
    return 0;
}

int options_iters(const options_t *o, size_t size)
{
    return size > o->large_size ? o->iters_large : o->iters_small;
}

int options_skip(const options_t *o, size_t size)
{
    return size > o->large_size ? o->skip_large : o->skip_small;
}

void options_fit(const options_t *o, size_t size, double probe, int *iters, int *skip)
{
    *iters = options_iters(o, size);
    *skip = options_skip(o, size);
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

int options_wants(const char *list, const char *word)
{
    return list == NULL || has_word(list, word);
}
