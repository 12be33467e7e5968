/*
 * nbo_bench.c - the overlap benchmark driver: for each method (an API
 * backend with its settings, -a), collective (-c) and size (-m), one row
 * of the parts -M asks for, all run by bench/common/loops.c:
 *
 *   pure     start + wait, nothing else                       -> Pure Comm.
 *   osu      start, busy compute for Pure Comm. of wall time (with -t N test
 *            calls), wait                                     -> Overlap
 *   work     start, a fixed amount of work that takes Pure Comm. when run
 *            alone, wait                                      -> Work ovl
 *   app      blocks of back-to-back compute-only, exchange-only, blocking
 *            and overlapped iterations alternate; medians      -> Hidden
 *
 * OSU's and the work-based figures are averages over ranks of per-rank
 * means, as OSU reports; the application loop's are medians of the slowest
 * rank's blocks.  See bench/driver/README.md and docs/benchmarks.md.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "bench.h"
#include "loops.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MPI_Comm world;
static int rank, nprocs;
/* The work's speed before MPI_Init, when no thread of any library runs:
 * a progress thread that spins all the time (MPICH's async progress) slows
 * the compute alone as much as the overlapped one, and the work-based
 * formula would not see it; the alone_vs_idle column does. */
static double rate_idle, rate;

static void die(const char *what, const char *name, int rc)
{
    char msg[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (rc > 0 && rc <= MPI_ERR_LASTCODE)
        MPI_Error_string(rc, msg, &len);
    fprintf(stderr, "nbo_bench[%d]: %s failed (%s)%s%s\n", rank, what, name, len ? ": " : "", msg);
    MPI_Abort(world, 1);
}

/* libnbo-mpi's count of the calls it served (-1: not loaded), through
 * its nbo_pmpi_stats, looked up once. */
static long served(void)
{
    typedef int (*stats_fn)(long *, long *, long *);
    static stats_fn f;
    static int looked;
    if (!looked) {
        f = (stats_fn)dlsym(RTLD_DEFAULT, "nbo_pmpi_stats");
        looked = 1;
    }
    long n = -1;
    if (f)
        f(&n, NULL, NULL);
    return n;
}

/* ------------------------------------------------------------ reference */

/* -R: exchange-only times (us) by collective and size, read by rank 0
 * from another run's CSV and given to every rank. */
#define MAX_REF (COLL_N * BENCH_MAX_SIZES)
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
        char line[2048];
        int kc = -1, ks = -1, ku = -1;
        if (!f || !fgets(line, sizeof line, f)) {
            fprintf(stderr, "nbo_bench: -R %s: %s\n", path, f ? "empty" : strerror(errno));
            ok = 0;
        } else {
            kc = csv_column(line, "coll"), ks = csv_column(line, "size");
            ku = csv_column(line, "app_exchange_us");
            if (kc < 0 || ks < 0 || ku < 0) {
                fprintf(stderr, "nbo_bench: -R %s: not a CSV of nbo_bench -o\n", path);
                ok = 0;
            }
        }
        while (ok && ref.n < MAX_REF && fgets(line, sizeof line, f)) {
            char c[64], sz[32], us[32];
            coll_t coll;
            if (csv_field(line, kc, c, sizeof c) || csv_field(line, ks, sz, sizeof sz) ||
                csv_field(line, ku, us, sizeof us) || coll_parse(c, &coll) != 0)
                continue;
            double v = strtod(us, NULL);
            if (v <= 0) /* a row without the application loop */
                continue;
            ref.coll[ref.n] = (int)coll, ref.size[ref.n] = strtod(sz, NULL), ref.us[ref.n++] = v;
        }
        if (f)
            fclose(f);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, world);
    MPI_Bcast(&ref, sizeof ref, MPI_BYTE, 0, world);
    return ok ? 0 : -1;
}

/* The reference's exchange-only seconds for c and size, 0 if none. */
static double ref_exchange(coll_t c, size_t size)
{
    for (int i = 0; i < ref.n; i++)
        if (ref.coll[i] == (int)c && ref.size[i] == (double)size)
            return ref.us[i] * 1e-6;
    return 0;
}

/* ---------------------------------------------------------- measurement */

/* The loops' exchange (bench/common/loops.h): a method's backend on one
 * collective's buffers. */
typedef struct row_ctx {
    method_t *m;
    coll_op_t *op;
} row_ctx_t;

static int x_start(void *c) { row_ctx_t *r = c; return r->m->be->start(r->m, r->op); }
static int x_wait(void *c) { row_ctx_t *r = c; return r->m->be->wait(r->m, r->op); }
static int x_once(void *c) { row_ctx_t *r = c; return r->m->be->once(r->m, r->op); }
static int x_blocking(void *c) { row_ctx_t *r = c; return r->m->be->blocking(r->m, r->op); }
static int x_sync(void *c) { return ((row_ctx_t *)c)->m->be->sync(((row_ctx_t *)c)->m); }

static void x_test(void *c)
{
    row_ctx_t *r = c;
    int done;
    r->m->be->test(r->m, r->op, &done);
}

static void x_fail(const bench_xchg_t *x, const char *what, int rc)
{
    die(what, ((const row_ctx_t *)x->ctx)->m->name, rc);
}

/* Does the method time more than a latency (not MPI's blocking row)? */
static int method_overlaps(const method_t *m)
{
    return !(m->be == &bench_backend_mpi && m->form == FORM_BLOCKING);
}

static double tolerance(const method_t *m)
{
    return m->be == &bench_backend_nbo ? coll_tolerance(m->config.codec, m->config.codec_rate) : 0;
}

/* One operation from filled inputs; the elements it got wrong. */
static long checked_once(bench_xchg_t *x, coll_op_t *op, double tol)
{
    coll_op_fill(op);
    MPI_Barrier(world);
    if (x->once ? x->once(x->ctx) != 0 : x->start(x->ctx) != 0 || x->wait(x->ctx) != 0)
        x->fail(x, "the checked operation", 0);
    return coll_op_verify(op, tol);
}

static void average(double f[BF_N], int iters, double units, result_t *r)
{
    bench_per_operation(f, iters, units, rate_idle);
    bench_rank_mean(f, world);
    r->overall = f[BF_OVERALL], r->compute = f[BF_COMPUTE], r->init = f[BF_INIT];
    r->test = f[BF_TEST], r->wait = f[BF_WAIT], r->pure = f[BF_PURE];
    r->work_overall = f[BF_WORK_OVERALL], r->compute_alone = f[BF_ALONE];
    r->cpu_pure = f[BF_CPU_PURE], r->cpu_work = f[BF_CPU_WORK];
    r->cpu_lib = f[BF_CPU_LIB], r->cpu_prov = f[BF_CPU_PROV];
    r->alone_vs_idle = f[BF_ALONE_VS_IDLE];
    r->start_preempt = f[BF_START_PREEMPT];
    if (r->has_osu)
        r->overlap = bench_osu_overlap(f);
    if (r->has_work)
        r->work_overlap = bench_work_overlap(f);
}

static void measure(method_t *m, coll_op_t *op, const options_t *o, result_t *r)
{
    const int overlaps = method_overlaps(m), timed = o->parts & (PART_OSU | PART_WORK);
    r->has_osu = overlaps && (o->parts & PART_OSU);
    r->has_work = overlaps && (o->parts & PART_WORK);
    r->has_app = overlaps && (o->parts & PART_APP);
    long s0 = served(), bad = 0;
    const double tol = tolerance(m);

    int rc = m->be->prepare(m, op);
    if (rc != 0)
        die("prepare", m->name, rc);
    row_ctx_t ctx = {.m = m, .op = op};
    bench_xchg_t x = {.start = x_start, .wait = x_wait, .once = m->be->once ? x_once : NULL,
                      .blocking = m->be->blocking ? x_blocking : NULL, .sync = x_sync,
                      .test = m->be->test ? x_test : NULL, .ctx = &ctx, .tests = o->tests,
                      .comm = world, .fail = x_fail};

    /* A first operation checks the data and sizes the run: a short one
     * gets more iterations (-T), a slow one fewer so that each size stays
     * within the budget (-b).  Every rank runs the slowest rank's counts. */
    coll_op_fill(op);
    MPI_Barrier(world);
    double probe = now_s();
    if (x.once ? x.once(&ctx) : (x.start(&ctx) || x.wait(&ctx)))
        die(coll_name(op->coll), m->name, 0);
    probe = bench_agree_max(world, now_s() - probe);
    bad += coll_op_verify(op, tol);
    if (r->has_app && x.blocking) { /* the application loop's blocking form too */
        coll_op_fill(op);
        MPI_Barrier(world);
        if (x.blocking(&ctx) != 0)
            die("blocking call", m->name, 0);
        bad += coll_op_verify(op, 0);
    }
    int iters, skip;
    options_fit(o, op->size, probe, &iters, &skip);
    r->iters = iters;

    double f[BF_N] = {0}, units = 0;
    if (timed) {
        double pure = bench_pure_phase(&x, skip, iters, f);
        units = pure * rate;
        if (r->has_osu)
            bench_osu_phase(&x, pure, skip, iters, f);
        if (r->has_work)
            bench_work_phase(&x, units, skip, iters, f);
        average(f, iters, units, r);
    }
    if (r->has_app) {
        bench_app_t a = {.n = o->app_n, .blocks = o->app_blocks, .min_time = o->min_time_s,
                         .ref_s = ref_exchange(op->coll, op->size)};
        bench_app_loop(&x, probe, rate, rate_idle, &a);
        r->app_n = a.n, r->app_blocks = a.blocks, r->app_ref = a.ref;
        r->app_comp = a.comp, r->app_exch = a.exch, r->app_block = a.block, r->app_ovl = a.ovl;
        r->hidden = a.hidden, r->nb_vs_blocking = a.nb_vs_blocking;
        r->comp_vs_idle = a.comp_vs_idle;
    }
    /* The data once more, after every timed operation. */
    bad += checked_once(&x, op, tol);
    m->be->unprepare(m, op);
    MPI_Allreduce(&bad, &r->errors, 1, MPI_LONG, MPI_SUM, world);
    long s1 = served();
    r->served = s0 < 0 ? -1 : s1 - s0;
}

/* -------------------------------------------------------------- methods */

static method_t *add(method_t *ms, int *n, const backend_t *be, const options_t *o)
{
    method_t *m = &ms[(*n)++];
    memset(m, 0, sizeof *m);
    m->be = be;
    m->world = world;
    m->conc = be == &bench_backend_sockets ? 1 : o->concurrency;
    m->own_barrier = o->own_barrier;
    return m;
}

/* The label of this configuration ends every name ("+async"). */
static void name(method_t *m, const char *base, const options_t *o)
{
    int len = snprintf(m->name, sizeof m->name, "%s", base);
    if (o->label && len >= 0 && (size_t)len < sizeof m->name)
        snprintf(m->name + len, sizeof m->name - (size_t)len, "+%.*s",
                 (int)(sizeof m->name - (size_t)len - 1), o->label);
}

/* The nbo rows: engines x progress modes x windows x codecs.  NBO_ENGINE /
 * NBO_PROGRESS in the environment narrow the sweep unless -e / -P say
 * otherwise. */
static void add_nbo(method_t *ms, int *n, int max, const options_t *o)
{
    const char *engines = o->only_engine, *modes = o->only_progress;
    const char *env_e = getenv("NBO_ENGINE"), *env_p = getenv("NBO_PROGRESS");
    if (!engines && env_e && *env_e && strcmp(env_e, "auto") != 0)
        engines = env_e;
    if (!modes && env_p && *env_p && strcmp(env_p, "auto") != 0)
        modes = env_p;
    const nbo_progress_mode_t progs[] = {NBO_PROGRESS_INLINE, NBO_PROGRESS_THREAD};
    int nwin = o->nwindows ? o->nwindows : 1, ncod = o->ncodecs ? o->ncodecs : 1;
    for (int e = 0; nbo_engine_at(e); e++) {
        const char *engine = nbo_engine_at(e);
        if (!options_wants(engines, engine))
            continue;
        for (int p = 0; p < 2; p++) {
            if (!options_wants(modes, nbo_progress_name(progs[p])))
                continue;
            for (int w = 0; w < nwin * ncod && *n < max; w++) {
                const int z = w % ncod;
                method_t *m = add(ms, n, &bench_backend_nbo, o);
                m->persistent = o->persistent;
                nbo_config_init(&m->config);
                if (nbo_config_from_env(&m->config) != NBO_SUCCESS)
                    die("reading NBO_* variables", "nbo_config_from_env", 0);
                snprintf(m->config.engine, sizeof m->config.engine, "%s", engine);
                m->config.progress = progs[p];
                char base[64];
                int len = snprintf(base, sizeof base, "nbo:%s/%s", engine,
                                   nbo_progress_name(progs[p]));
                if (o->nwindows) {
                    m->config.window = o->windows[w / ncod];
                    len += snprintf(base + len, sizeof base - (size_t)len, "/W%d", m->config.window);
                }
                if (o->ncodecs) { /* "/none", "/fp32", "/zfp16" */
                    m->config.codec = o->codecs[z];
                    m->config.codec_rate = o->codec_rates[z];
                    if (o->codecs[z] == NBO_CODEC_ZFP)
                        snprintf(base + len, sizeof base - (size_t)len, "/zfp%d", o->codec_rates[z]);
                    else
                        snprintf(base + len, sizeof base - (size_t)len, "/%s",
                                 nbo_codec_name(o->codecs[z]));
                }
                name(m, base, o);
            }
        }
    }
}

/* The ceiling first (it also shows that the network works), then MPI's
 * rows, then libnbo's. */
static int build_methods(const options_t *o, method_t *ms, int max)
{
    int n = 0;
    if (o->sockets) {
        method_t *m = add(ms, &n, &bench_backend_sockets, o);
        snprintf(m->name, sizeof m->name, "ceiling");
    }
    for (int k = 0; k < 2; k++) {
        if (!(k == 0 ? o->blocking : o->nonblocking))
            continue;
        method_t *m = add(ms, &n, &bench_backend_mpi, o);
        m->form = k == 0 ? FORM_BLOCKING : o->persistent ? FORM_PERSISTENT : FORM_NONBLOCKING;
        name(m, m->form == FORM_BLOCKING ? "mpi:blocking" : "mpi:nonblocking", o);
    }
    if (o->nbo)
        add_nbo(ms, &n, max, o);
    return n;
}

/* MPI's rows are named by the call ("MPI_Ialltoall+async"), the others
 * by their method. */
static void fill_ids(result_t *r, const method_t *m, coll_t c, size_t size, const char *label)
{
    memset(r, 0, sizeof *r);
    if (m->be == &bench_backend_mpi)
        snprintf(r->method, sizeof r->method, "%s%s%s", coll_mpi_name(c, m->form),
                 label ? "+" : "", label ? label : "");
    else
        snprintf(r->method, sizeof r->method, "%s", m->name);
    /* CSV: the nbo rows' engine and mode; MPI's ("mpi", "-"); the sockets'. */
    const int nbo = m->be == &bench_backend_nbo, mpi = m->be == &bench_backend_mpi;
    snprintf(r->engine, sizeof r->engine, "%s", nbo ? m->config.engine : mpi ? "mpi" : "sockets");
    snprintf(r->progress, sizeof r->progress, "%s",
             nbo ? nbo_progress_name(m->config.progress) : mpi ? "-" : "kernel");
    r->coll = c;
    r->size = size;
    r->conc = m->conc;
    r->nprocs = nprocs;
    r->persistent = m->be == &bench_backend_mpi ? m->form == FORM_PERSISTENT : m->persistent;
    r->window = m->be == &bench_backend_nbo ? m->config.window : 0;
}

/* ---------------------------------------------------------------- report */

static void print_preamble(const options_t *o, int provided)
{
    char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    MPI_Get_library_version(lib, &len);
    char *nl = strchr(lib, '\n');
    if (nl)
        *nl = '\0';
    printf("# nbo_bench (libnbo %s)%s%s: %d ranks, MPI thread level %s, %s\n", nbo_version(),
           o->label ? " " : "", o->label ? o->label : "", nprocs,
           provided == MPI_THREAD_MULTIPLE ? "multiple" : "below multiple", lib);
    const char *env[] = {"NBO_PMPI", "NBO_PMPI_COLLS", "NBO_PMPI_MIN_SIZE", "NBO_ENGINE",
                         "NBO_PROGRESS", "MPIR_CVAR_ASYNC_PROGRESS", "UCX_TLS"};
    printf("# libnbo-mpi: %s;", served() < 0 ? "not loaded" : "loaded");
    for (size_t i = 0; i < sizeof env / sizeof env[0]; i++) {
        const char *v = getenv(env[i]);
        if (v)
            printf(" %s=%s", env[i], v);
    }
    printf("\n# collectives (-c):");
    for (int i = 0; i < o->ncolls; i++)
        printf(" %s", coll_name(o->colls[i]));
    printf("%s\n", o->ncodecs ? "; the all-to-all moves MPI_DOUBLE (-z: the nbo rows' codecs "
                                "in their names)" : "");
    printf("# parts (-M):%s%s%s; %d sizes (%zu to %zu B), iterations %d/%d (warm-up %d/%d) "
           "small/large, at least %.2g s per phase, budget %.3g s, %d test calls, %d concurrent%s\n",
           o->parts & PART_OSU ? " osu" : "", o->parts & PART_WORK ? " work" : "",
           o->parts & PART_APP ? " app" : "", o->nsizes, o->sizes[0], o->sizes[o->nsizes - 1],
           o->iters_small, o->iters_large, o->skip_small, o->skip_large, o->min_time_s,
           o->budget_s, o->tests, o->concurrency, o->persistent ? ", persistent (-p)" : "");
    if (o->parts & PART_APP)
        printf("# application loop: %d iterations x %d blocks per kind\n", o->app_n,
               o->app_blocks);
    printf("# work: %.0f Msteps/s (before MPI_Init: %.0f)\n", rate / 1e6, rate_idle / 1e6);
    printf("# barrier before each iteration: %s\n",
           o->own_barrier ? "each method's own, on its own connections (-B own)"
                          : "MPI_Barrier for every method (-B mpi)");
    if (rate < 0.8 * rate_idle)
        printf("# NOTE: after MPI_Init the work runs at %.0f %% of that speed: a thread of\n"
               "# the MPI library takes the core all the time; see alone_vs_idle\n",
               100 * rate / rate_idle);
}

static void print_served(const method_t *m, coll_t c, long calls)
{
    const char *name = coll_mpi_name(c, m->form);
    if (calls < 0)
        printf("# %s: %s served by MPI (libnbo-mpi not loaded)\n", coll_name(c), name);
    else if (calls == 0)
        printf("# %s: %s served by MPI (libnbo-mpi loaded, served none of its calls)\n",
               coll_name(c), name);
    else
        printf("# %s: %s served by libnbo (libnbo-mpi served %ld calls)\n", coll_name(c), name,
               calls);
}

/* ----------------------------------------------------------------- main */

/* The sizes of collective c (-m fitted to whole elements, each once; the
 * barrier: one row of size 0). */
static int sizes_of(const options_t *o, coll_t c, size_t *out)
{
    if (c == COLL_BARRIER) {
        out[0] = 0;
        return 1;
    }
    int n = 0;
    for (int k = 0; k < o->nsizes; k++) {
        size_t s = coll_fit_size(c, o->sizes[k], nprocs, o->ncodecs > 0);
        int dup = s == 0;
        for (int j = 0; j < n && !dup; j++)
            dup = out[j] == s;
        if (!dup)
            out[n++] = s;
    }
    return n;
}

/* One method on every collective and size, its rows appended to rows. */
static void run_method(method_t *m, const options_t *o, FILE *csv, result_t *rows, int *nrows)
{
    char why[200] = "";
    int any = m->be != &bench_backend_sockets;
    for (int ci = 0; ci < o->ncolls; ci++)
        any |= o->colls[ci] == COLL_ALLTOALL;
    if (!any) { /* the sockets exchange is an all-to-all; no other collective has one */
        if (rank == 0)
            printf("\n# ceiling (plain TCP sockets): all-to-all only, not run\n");
        return;
    }
    int rc = m->be->open(m, why, sizeof why);
    if (rc != 0) {
        if (rank == 0)
            printf("\n# %s: skipped: %s\n", m->name, why);
        return;
    }
    for (int ci = 0; ci < o->ncolls; ci++) {
        coll_t c = o->colls[ci];
        if (m->be == &bench_backend_sockets && c != COLL_ALLTOALL) {
            if (rank == 0)
                printf("\n# %s: ceiling (plain TCP sockets): all-to-all only, not run\n",
                       coll_name(c));
            continue;
        }
        size_t sizes[BENCH_MAX_SIZES];
        int ns = sizes_of(o, c, sizes), first = *nrows;
        long calls = 0;
        for (int k = 0; k < ns; k++) {
            result_t *r = &rows[(*nrows)++];
            fill_ids(r, m, c, sizes[k], o->label);
            if (k == 0 && rank == 0) {
                report_header(stdout, r, why, o->parts);
                fflush(stdout);
            }
            coll_op_t op;
            if (coll_op_setup(&op, c, sizes[k], m->conc, o->ncodecs > 0, world) != MPI_SUCCESS)
                die("buffers", m->name, 0);
            measure(m, &op, o, r);
            coll_op_free(&op);
            calls = r->served < 0 ? -1 : calls + r->served;
            if (rank == 0) {
                report_row(stdout, r, o->parts);
                if (csv)
                    report_csv_row(csv, r, o->label), fflush(csv);
                fflush(stdout);
            }
        }
        if (rank == 0) {
            report_app(stdout, rows + first, *nrows - first, coll_mpi_name(c, FORM_BLOCKING),
                       o->ref_path);
            if (m->be == &bench_backend_mpi)
                print_served(m, c, calls);
            fflush(stdout);
        }
    }
    m->be->close(m);
}

int main(int argc, char **argv)
{
    rate_idle = busy_calibrate(); /* no thread of any library runs yet */
    int provided;
    /* libnbo's progress thread and MPICH's own (MPIR_CVAR_ASYNC_PROGRESS=1)
     * need MPI_THREAD_MULTIPLE, and libnbo-mpi asks for it itself: every
     * method and configuration runs at the same level. */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    world = MPI_COMM_WORLD;
    MPI_Comm_rank(world, &rank);
    MPI_Comm_size(world, &nprocs);

    options_t o;
    int prc = options_parse(argc, argv, &o, rank);
    if (prc == 0 && o.ref_path && read_ref(o.ref_path) != 0)
        prc = -1;
    if (prc != 0) {
        MPI_Finalize();
        return prc > 0 ? 0 : 2;
    }
    rate = busy_calibrate();

    FILE *csv = NULL;
    if (rank == 0) {
        print_preamble(&o, provided);
        if (o.csv_path) {
            csv = fopen(o.csv_path, "w");
            if (!csv) {
                perror(o.csv_path);
                MPI_Abort(world, 1);
            }
            report_csv_header(csv);
        }
        fflush(stdout);
    }

    method_t *ms = calloc(64, sizeof *ms);
    int nm = build_methods(&o, ms, 64);
    size_t maxrows = (size_t)nm * (size_t)o.ncolls * BENCH_MAX_SIZES;
    result_t *rows = calloc(maxrows ? maxrows : 1, sizeof *rows);
    if (!ms || !rows)
        die("malloc", "rows", 0);
    int nrows = 0;
    for (int i = 0; i < nm; i++)
        run_method(&ms[i], &o, csv, rows, &nrows);

    long errors = 0;
    for (int i = 0; i < nrows; i++)
        errors += rows[i].errors;
    if (rank == 0) {
        if (o.verdict)
            report_verdicts(stdout, rows, nrows, o.tests > 0);
        if (errors)
            printf("# DATA ERRORS: %ld elements, blocks or vectors received wrong\n", errors);
        if (csv)
            fclose(csv);
        /* Drivers watch for this line (MPI_Finalize can hang over UCX tcp). */
        printf("# nbo_bench: done, %ld data errors\n", errors);
        fflush(stdout);
    }
    free(rows);
    free(ms);
    MPI_Finalize();
    return errors ? 1 : 0;
}
