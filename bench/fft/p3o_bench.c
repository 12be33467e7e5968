/*
 * p3o_bench - the paper's Table II on our machines: run time of P3DFFT's
 * test_sine loop (forward, normalise, backward of nv variables) for several
 * grid sizes, blocking vs pipelined over MPI_Ialltoallv vs pipelined over
 * libnbo (one column per engine asked for), with the improvement and the
 * ideal bound from the blocking run's own timers (formula in report.h).
 * roundtrip_mpi / roundtrip_nbo: the same pipelines, each iteration one
 * p3o_roundtrip (its spectral op normalises), so the backward exchanges
 * queue behind the forward ones; roundtrip_blocking is forward + op +
 * backward one variable after another, the same work as blocking.
 *
 * Everything comes from argv (and libnbo's NBO_* variables), so the same
 * command runs under plain mpiexec on one host or on the emulated cluster.
 *
 *   mpiexec -n 2 p3o_bench [--sizes 64,96,128x128x64] [--nv 4] [--iters 3]
 *       [--warmup 1] [--reps 3]
 *       [--modes blocking,pipelined_mpi,pipelined_nbo,roundtrip_nbo]
 *       [--engines mpi,ucx] [--precision double|single] [--grid RxC]
 *       [--codecs none,fp32,zfp:16,...] [--compress-row] [--codec-cost]
 *       [--planner measure|estimate|patient] [--csv FILE] [--demo]
 *
 * --codecs: pipelined_nbo and roundtrip_nbo run once per codec (options.
 * codec; "none" is the exact run), each compressed run compared with the
 * grid's first exact run (error of the output, bytes on the wire).
 * --codec-cost: also what each codec costs the CPU, per exchange of the
 * grid's column block between two ranks of libnbo (codec_cost.c), and the
 * link rate below which it pays.
 *
 * --demo: a few seconds at P=2: small grids, FFTW_ESTIMATE, errors checked
 * (exit status 1 if any is above the bound), short timing comparison.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec_cost.h"
#include "report.h"

enum { MAX_SIZES = 16, MAX_VARIANTS = 40, MAX_CODECS = 8 };

typedef struct config {
    setup_t   base;
    int       nsizes, sizes[MAX_SIZES][3];
    int       nvariants;
    variant_t variants[MAX_VARIANTS];
    int       ncodecs;
    codec_choice_t codecs[MAX_CODECS];
    int       compress_row, codec_cost;
    const char *csv;
    int       demo;
} config_t;

static int usage(int rank)
{
    if (rank == 0)
        fprintf(stderr,
                "usage: p3o_bench [--sizes N|NXxNYxNZ,...] [--nv N] [--iters N] [--warmup N]\n"
                "                 [--reps N] [--modes blocking,pipelined_mpi,pipelined_nbo,\n"
                "                                     roundtrip_mpi,roundtrip_nbo,...]\n"
                "                 [--engines auto,mpi,ucx,verbs] [--precision double|single]\n"
                "                 [--grid RxC] [--planner measure|estimate|patient]\n"
                "                 [--codecs none,fp32,zfp[:RATE],...] [--compress-row]\n"
                "                 [--codec-cost] [--csv FILE] [--demo]\n");
    return 2;
}

static int parse_sizes(config_t *c, char *list)
{
    c->nsizes = 0;
    for (char *sp = NULL, *t = strtok_r(list, ",", &sp); t; t = strtok_r(NULL, ",", &sp)) {
        int *s = c->sizes[c->nsizes];
        if (c->nsizes == MAX_SIZES)
            return -1;
        if (sscanf(t, "%dx%dx%d", &s[0], &s[1], &s[2]) != 3) {
            if (sscanf(t, "%d", &s[0]) != 1)
                return -1;
            s[1] = s[2] = s[0];
        }
        c->nsizes++;
    }
    return c->nsizes > 0 ? 0 : -1;
}

/* "auto" or an engine built into libnbo. */
static int parse_engine(const char *name, char *engine, size_t len)
{
    nbo_config_t c;
    nbo_config_init(&c);
    if (nbo_config_set(&c, "NBO_ENGINE", name) != NBO_SUCCESS)
        return -1;
    snprintf(engine, len, "%s", c.engine);
    return 0;
}

/* "roundtrip_mpi" / "roundtrip_nbo": the pipelined mode, one p3o_roundtrip
 * call per iteration. */
static int parse_mode(const char *name, p3o_mode_t *mode, int *roundtrip)
{
    static const char rt[] = "roundtrip_";
    char full[64];
    *roundtrip = strncmp(name, rt, sizeof(rt) - 1) == 0;
    if (*roundtrip)
        snprintf(full, sizeof(full), "pipelined_%s", name + sizeof(rt) - 1);
    else
        snprintf(full, sizeof(full), "%s", name);
    return p3o_mode_from_name(full, mode) == P3O_SUCCESS ? 0 : -1;
}

/* "none", "fp32", "zfp" (rate 16) or "zfp:RATE". */
static int parse_codecs(config_t *c, char *list)
{
    c->ncodecs = 0;
    for (char *sp = NULL, *t = strtok_r(list, ",", &sp); t; t = strtok_r(NULL, ",", &sp)) {
        if (c->ncodecs == MAX_CODECS)
            return -1;
        codec_choice_t *k = &c->codecs[c->ncodecs++];
        *k = (codec_choice_t){0};
        if (!strcmp(t, "none"))
            k->codec = NBO_CODEC_NONE;
        else if (!strcmp(t, "fp32"))
            k->codec = NBO_CODEC_FP32;
        else if (!strcmp(t, "zfp"))
            k->codec = NBO_CODEC_ZFP, k->rate = 16;
        else if (sscanf(t, "zfp:%d", &k->rate) == 1 && k->rate >= 1 && k->rate <= 64)
            k->codec = NBO_CODEC_ZFP;
        else
            return -1;
        codec_choice_name(k, k->name, sizeof(k->name));
    }
    return c->ncodecs > 0 ? 0 : -1;
}

/* Modes in order; pipelined_nbo and roundtrip_nbo expand into one variant
 * per engine and codec. */
static int parse_variants(config_t *c, char *modes, char *engines)
{
    c->nvariants = 0;
    for (char *sp = NULL, *t = strtok_r(modes, ",", &sp); t; t = strtok_r(NULL, ",", &sp)) {
        p3o_mode_t mode;
        int roundtrip;
        if (parse_mode(t, &mode, &roundtrip) != 0)
            return -1;
        char list[128];
        snprintf(list, sizeof(list), "%s", mode == P3O_PIPELINED_NBO && engines ? engines : "");
        char *ep = NULL, *e = strtok_r(list, ",", &ep);
        const int ncodecs = mode == P3O_PIPELINED_NBO ? c->ncodecs : 1;
        do {
            for (int k = 0; k < ncodecs; k++) {
                if (c->nvariants == MAX_VARIANTS)
                    return -1;
                variant_t *v = &c->variants[c->nvariants++];
                memset(v, 0, sizeof(*v));
                v->mode = mode;
                v->roundtrip = roundtrip;
                const codec_choice_t *cc = &c->codecs[mode == P3O_PIPELINED_NBO ? k : 0];
                if (mode == P3O_PIPELINED_NBO) {
                    v->codec = cc->codec;
                    v->rate = cc->rate;
                    v->compress_row = c->compress_row && cc->codec != NBO_CODEC_NONE;
                }
                char tag[64] = "";
                if (e)
                    snprintf(tag, sizeof(tag), "%s", e);
                if (v->codec != NBO_CODEC_NONE)
                    snprintf(tag + strlen(tag), sizeof(tag) - strlen(tag), "%s%s%s", e ? "," : "",
                             cc->name, v->compress_row ? "+row" : "");
                if (tag[0])
                    snprintf(v->name, sizeof(v->name), "%.24s[%.36s]", t, tag);
                else
                    snprintf(v->name, sizeof(v->name), "%.60s", t);
                if (e) {
                    if (parse_engine(e, v->engine, sizeof(v->engine)) != 0)
                        return -1;
                    v->set_engine = 1;
                }
            }
        } while (e && (e = strtok_r(NULL, ",", &ep)));
    }
    return c->nvariants > 0 ? 0 : -1;
}

static int parse(int argc, char **argv, config_t *c)
{
    char sizes[256] = "64,96,128";
    char modes[128] = "blocking,pipelined_mpi,pipelined_nbo,roundtrip_nbo";
    char engines[128] = "";
    char codecs[128] = "none";
    memset(c, 0, sizeof(*c));
    c->base = (setup_t){.nv = 4, .prec = P3O_DOUBLE, .planner = P3O_PLANNER_MEASURE,
                        .warmup = 1, .iters = 3, .reps = 3};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--compress-row")) {
            c->compress_row = 1;
            continue;
        }
        if (!strcmp(a, "--codec-cost")) {
            c->codec_cost = 1;
            continue;
        }
        if (!strcmp(a, "--demo")) {
            c->demo = 1;
            snprintf(sizes, sizeof(sizes), "32,64");
            c->base.planner = P3O_PLANNER_ESTIMATE;
            c->base.iters = 3;
            c->base.reps = 2;
            continue;
        }
        if (i + 1 >= argc)
            return -1;
        const char *v = argv[++i];
        if (!strcmp(a, "--sizes"))
            snprintf(sizes, sizeof(sizes), "%s", v);
        else if (!strcmp(a, "--modes"))
            snprintf(modes, sizeof(modes), "%s", v);
        else if (!strcmp(a, "--engines"))
            snprintf(engines, sizeof(engines), "%s", v);
        else if (!strcmp(a, "--codecs"))
            snprintf(codecs, sizeof(codecs), "%s", v);
        else if (!strcmp(a, "--nv"))
            c->base.nv = atoi(v);
        else if (!strcmp(a, "--iters"))
            c->base.iters = atoi(v);
        else if (!strcmp(a, "--warmup"))
            c->base.warmup = atoi(v);
        else if (!strcmp(a, "--reps"))
            c->base.reps = atoi(v);
        else if (!strcmp(a, "--csv"))
            c->csv = v;
        else if (!strcmp(a, "--grid")) {
            if (sscanf(v, "%dx%d", &c->base.row, &c->base.col) != 2)
                return -1;
        } else if (!strcmp(a, "--precision")) {
            if (p3o_precision_from_name(v, &c->base.prec) != P3O_SUCCESS)
                return -1;
        } else if (!strcmp(a, "--planner")) {
            if (!strcmp(v, "measure"))
                c->base.planner = P3O_PLANNER_MEASURE;
            else if (!strcmp(v, "estimate"))
                c->base.planner = P3O_PLANNER_ESTIMATE;
            else if (!strcmp(v, "patient"))
                c->base.planner = P3O_PLANNER_PATIENT;
            else
                return -1;
        } else
            return -1;
    }
    if (c->base.iters < 1 || c->base.reps < 1 || c->base.warmup < 0 || c->base.nv < 1)
        return -1;
    if (parse_sizes(c, sizes) != 0 || parse_codecs(c, codecs) != 0)
        return -1;
    return parse_variants(c, modes, engines[0] ? engines : NULL);
}

static void print_header(FILE *f, int argc, char **argv, int P, const config_t *c)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(lib, &len);
    char *nl = strchr(lib, '\n');
    if (nl)
        *nl = 0;
    fprintf(f, "# p3o_bench: P=%d, nv=%d, %s precision, %d iteration(s) x %d rep(s) (best rep), "
               "warm-up %d, FFTW %s\n",
            P, c->base.nv, p3o_precision_name(c->base.prec), c->base.iters, c->base.reps,
            c->base.warmup,
            c->base.planner == P3O_PLANNER_ESTIMATE ? "ESTIMATE"
            : c->base.planner == P3O_PLANNER_PATIENT ? "PATIENT" : "MEASURE");
    fprintf(f, "# MPI: %s\n", lib);
    const char *vars[] = {"NBO_ENGINE", "NBO_PROGRESS", "NBO_WINDOW", "NBO_PROGRESS_CPU",
                          "NBO_SPIN_US", "NBO_CODEC", "NBO_CODEC_RATE"};
    fprintf(f, "# environment:");
    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
        fprintf(f, " %s=%s", vars[i], getenv(vars[i]) ? getenv(vars[i]) : "(unset)");
    fprintf(f, "\n# command:");
    for (int i = 0; i < argc; i++)
        fprintf(f, " %s", argv[i]);
    fprintf(f, "\n# time = seconds per iteration (forward + normalise + backward of nv variables),"
               " max over ranks; ideal = max(C, K) from the blocking run (see docs)\n");
    if (c->ncodecs > 1 || c->codecs[0].codec != NBO_CODEC_NONE)
        fprintf(f, "# codecs (options.codec, p3o plans ignore NBO_CODEC):%s", "");
    for (int i = 0; i < c->ncodecs && (c->ncodecs > 1 || c->codecs[0].codec != NBO_CODEC_NONE); i++)
        fprintf(f, " %s%s", c->codecs[i].name, i + 1 == c->ncodecs ? "\n" : ",");
    fprintf(f, "\n");
}

int main(int argc, char **argv)
{
    int provided, rank, P;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    config_t c;
    if (parse(argc, argv, &c) != 0) {
        int rc = usage(rank);
        MPI_Finalize();
        return rc;
    }
    if (rank == 0) {
        print_header(stdout, argc, argv, P, &c);
        fflush(stdout); /* progress lines go to stderr */
    }

    bench_row_t *rows = calloc((size_t)c.nsizes * c.nvariants, sizeof(*rows));
    int bad = 0;
    const double bound = c.base.prec == P3O_DOUBLE ? 1e-12 : 1e-5;
    for (int g = 0; g < c.nsizes; g++) {
        reference_t ref = {0};
        for (int i = 0; i < c.nvariants; i++) {
            bench_row_t *r = &rows[(size_t)g * c.nvariants + i];
            r->s = c.base;
            r->s.nx = c.sizes[g][0];
            r->s.ny = c.sizes[g][1];
            r->s.nz = c.sizes[g][2];
            r->v = c.variants[i];
            measure(MPI_COMM_WORLD, &r->s, &r->v, &ref, &r->m);
            /* A compressed run: its errors against the exact one, within the
             * plan's round-trip bound (plus the FFT's own rounding). */
            const p3o_compression_t *k = &r->m.comp;
            if (k->exchanges == 0)
                bad |= !r->m.ok || r->m.err > bound;
            else
                bad |= !r->m.ok || r->m.err_sine < 0 || r->m.err_sine > k->roundtrip_bound + bound ||
                       r->m.err_random > k->roundtrip_bound + bound;
            if (rank == 0) {
                if (r->m.ok && k->exchanges == 0)
                    fprintf(stderr, "  %dx%dx%d %-28s %.4f s/iter  round-trip error %.1e\n",
                            r->s.nx, r->s.ny, r->s.nz, r->v.name, r->m.time, r->m.err);
                else if (r->m.ok)
                    fprintf(stderr, "  %dx%dx%d %-28s %.4f s/iter  vs exact: sine %.1e random %.1e"
                            " (bound %.1e), wire %.0f%% of raw\n",
                            r->s.nx, r->s.ny, r->s.nz, r->v.name, r->m.time, r->m.err_sine,
                            r->m.err_random, k->roundtrip_bound,
                            k->raw_bytes > 0 ? 100 * k->wire_bytes / k->raw_bytes : 100.0);
                else
                    fprintf(stderr, "  %dx%dx%d %-28s failed: %s\n", r->s.nx, r->s.ny, r->s.nz,
                            r->v.name, r->m.error);
            }
        }
        reference_free(&ref);
    }
    codec_cost_t costs[MAX_SIZES * MAX_CODECS];
    int ncosts = 0;
    if (c.codec_cost)
        for (int g = 0; g < c.nsizes; g++)
            for (int k = 0; k < c.ncodecs; k++)
                if (c.codecs[k].codec != NBO_CODEC_NONE) {
                    codec_cost_t *cc = &costs[ncosts++];
                    codec_cost_measure(MPI_COMM_WORLD, &c.base, c.sizes[g], &c.codecs[k], cc);
                    bad |= !cc->ok;
                }

    if (rank == 0) {
        fflush(stderr);
        printf("\n## Run time (Table II)\n\n");
        report_summary(stdout, rows, c.nsizes, c.nvariants, P);
        printf("\n## Stages (seconds per iteration, max over ranks)\n\n");
        report_details(stdout, rows, c.nsizes, c.nvariants, P);
        if (report_has_codecs(rows, c.nsizes * c.nvariants)) {
            printf("\n## Compression (time against the exact runs of this session)\n\n");
            report_compression(stdout, rows, c.nsizes, c.nvariants, P);
        }
        if (ncosts) {
            printf("\n## Codec cost (one column exchange between two ranks of libnbo)\n\n");
            report_codec_cost(stdout, costs, ncosts);
        }
        if (c.demo)
            printf("\ndemo: %s (round-trip errors vs bound %.0e; compressed runs against "
                   "the exact output, within their plan's round-trip bound)\n",
                   bad ? "FAILED" : "all modes correct", bound);
        if (c.csv) {
            FILE *f = fopen(c.csv, "w");
            if (f) {
                report_csv(f, rows, c.nsizes, c.nvariants, P);
                fclose(f);
                printf("\nCSV written to %s\n", c.csv);
            } else {
                fprintf(stderr, "cannot write %s\n", c.csv);
                bad = 1;
            }
        }
    }
    free(rows);
    MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        /* Drivers watch for this line (MPI_Finalize can hang over UCX tcp). */
        printf("# p3o_bench: done, %s\n", bad ? "FAILED" : "ok");
        fflush(stdout);
    }
    MPI_Finalize();
    return bad ? 1 : 0;
}
