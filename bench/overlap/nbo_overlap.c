/*
 * nbo_overlap.c - overlap of a collective (all-to-all by default, -C) with
 * computation (paper Fig. 5), measured the way the OSU micro-benchmarks do,
 * plus a stricter work-based figure and, for all-to-all, the testbed's
 * ceiling.
 *
 * Per method and size:
 *   pure     start + wait, nothing else                       -> Pure Comm.
 *   OSU      start, busy compute for Pure Comm. of wall time (with -t N test
 *            calls), wait                                     -> Overlap
 *   work     start, a fixed amount of work that takes Pure Comm. when run
 *            alone, wait                                      -> Work ovl
 * Every figure is the average over ranks of per-rank means, as OSU reports.
 * See docs/benchmarks.md for the formulas and how to run it.
 */
#include "bench.h"
#include "loops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static MPI_Comm world;
static int rank, nprocs;
/* The work's speed before MPI_Init, when no thread of any library runs:
 * a progress thread that spins all the time (MPICH's async progress) slows
 * the compute alone as much as the overlapped one, and the work-based
 * formula would not see it; the alone_vs_idle column does. */
static double rate_idle;

static void die(const char *what, const char *name)
{
    fprintf(stderr, "nbo_overlap[%d]: %s failed (%s)\n", rank, what, name);
    MPI_Abort(world, 1);
}

/* ------------------------------------------------------------ averaging */

/* The rank means of f's sums over iters, into r (bench/common/loops.h). */
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
    r->errors = (int)f[BF_ERRORS];
    if (r->has_overlap) {
        r->overlap = bench_osu_overlap(f);
        r->work_overlap = bench_work_overlap(f);
    }
}

/* ---------------------------------------------------------- measurement */

/* The loops' exchange: an nbo or MPI method (m, b), or the ceiling's
 * sockets (s, and w for the exchange on a thread of its own).  The
 * barrier before each iteration is the row's own or MPI's
 * (options_t.own_barrier). */
typedef struct row_xchg {
    method_t *m;
    buffers_t *b;
    socket_mesh_t *s;
    socket_worker_t *w;
    const char *name;
} row_xchg_t;

static void row_fail(const bench_xchg_t *x, const char *what, int rc)
{
    (void)rc;
    die(what, ((const row_xchg_t *)x->ctx)->name);
}

static int method_xchg_start(void *c) { row_xchg_t *r = c; return method_start(r->m, r->b, world); }
static int method_xchg_wait(void *c) { return method_wait(((row_xchg_t *)c)->m); }
static int method_xchg_sync(void *c) { return method_barrier(((row_xchg_t *)c)->m, world); }

static void method_xchg_test(void *c)
{
    int done;
    method_test(((row_xchg_t *)c)->m, &done);
}

static int socket_xchg_alltoall(void *c) { row_xchg_t *r = c; return socket_mesh_alltoall(r->s, r->b); }

static int socket_xchg_start(void *c)
{
    socket_worker_post(((row_xchg_t *)c)->w);
    return 0;
}

static int socket_xchg_wait(void *c) { return socket_worker_wait(((row_xchg_t *)c)->w); }
static int socket_xchg_sync(void *c) { return socket_mesh_barrier(((row_xchg_t *)c)->s); }
static int mpi_sync(void *c) { (void)c; return MPI_Barrier(world); }

/* Every rank runs the same counts: those of the slowest rank's probe. */
static void fit_run(const options_t *o, size_t size, double probe, int *iters, int *skip)
{
    MPI_Allreduce(MPI_IN_PLACE, &probe, 1, MPI_DOUBLE, MPI_MAX, world);
    options_fit(o, size, probe, iters, skip);
}

static void measure(method_t *m, buffers_t *b, const options_t *o, double rate, result_t *r)
{
    int iters, skip;
    double f[BF_N] = {0};
    r->has_overlap = m->kind != METHOD_BLOCKING;

    coll_fill(m->coll, b, m->conc, rank);
    if (method_prepare(m, b, world) != 0)
        die("prepare", m->name);

    /* A first operation checks the data and sizes the run: a short one
     * gets more iterations (-T), a slow one fewer so that each size stays
     * within the budget (-b). */
    MPI_Barrier(world);
    double probe = now_s();
    if (method_start(m, b, world) != 0 || method_wait(m) != 0)
        die(coll_name(m->coll), m->name);
    probe = now_s() - probe;
    if (o->check)
        f[BF_ERRORS] = coll_verify(m->coll, b, m->conc, rank,
                                   m->kind == METHOD_NBO
                                       ? coll_tolerance(m->config.codec, m->config.codec_rate)
                                       : 0);
    fit_run(o, b->size, probe, &iters, &skip);
    r->iters = iters;

    row_xchg_t rx = {.m = m, .b = b, .name = m->name};
    bench_xchg_t x = {.start = method_xchg_start, .wait = method_xchg_wait,
                      .sync = method_xchg_sync, .test = method_xchg_test, .ctx = &rx,
                      .tests = o->tests, .comm = world, .fail = row_fail};
    double pure = bench_pure_phase(&x, skip, iters, f), units = 0;

    if (r->has_overlap) {
        units = pure * rate;
        bench_osu_phase(&x, pure, skip, iters, f);
        bench_work_phase(&x, units, skip, iters, f);
    }
    method_unprepare(m);
    average(f, iters, units, r);
}

/* The testbed's ceilings, from plain TCP sockets between the same ranks,
 * the exchange on a thread of its own that blocks in poll() (no library
 * between the application and the kernel), measured exactly like the other
 * rows: OSU (the Overlap column) and work-based (Work ovl), so every cost
 * of this testbed (the other emulated host's kernel work on the same
 * cores, wake-ups, softirqs charged to whatever runs) counts against it as
 * it counts against libnbo.  CPU-bound: 1 - CPU/wall of the pure exchange
 * (cpu_pure_us and pure_us in the CSV), what the kernel's TCP work leaves
 * to the application; the report prints it. */
static void measure_ceiling(socket_mesh_t *s, buffers_t *b, const options_t *o, double rate,
                            result_t *r)
{
    double f[BF_N] = {0};
    r->has_overlap = 1;
    coll_fill(COLL_ALLTOALL, b, 1, rank);
    /* The first exchange sizes the run, as for the other rows. */
    MPI_Barrier(world);
    double probe = now_s();
    if (socket_mesh_alltoall(s, b) != 0)
        die("socket exchange", "ceiling");
    probe = now_s() - probe;
    if (o->check)
        f[BF_ERRORS] = coll_verify(COLL_ALLTOALL, b, 1, rank, 0);
    int iters, skip;
    fit_run(o, b->size, probe, &iters, &skip);
    r->iters = iters;
    row_xchg_t rx = {.b = b, .s = s, .name = "ceiling"};
    bench_xchg_t x = {.once = socket_xchg_alltoall, .start = socket_xchg_start,
                      .wait = socket_xchg_wait,
                      .sync = o->own_barrier ? socket_xchg_sync : mpi_sync, .ctx = &rx,
                      .comm = world, .fail = row_fail};
    double pure = bench_pure_phase(&x, skip, iters, f), units = pure * rate;
    /* The worker owns the sockets only while an exchange runs: the
     * barrier between exchanges may use them. */
    rx.w = socket_worker_start(s, b);
    if (!rx.w)
        die("socket worker thread", "ceiling");
    bench_osu_phase(&x, pure, skip, iters, f);
    bench_work_phase(&x, units, skip, iters, f);
    socket_worker_stop(rx.w);
    average(f, iters, units, r);
}

/* -------------------------------------------------------------- methods */

static int build_methods(const options_t *o, method_t *ms, int max)
{
    int n = 0;
    char suffix[40] = "";
    if (o->label)
        snprintf(suffix, sizeof suffix, "+%s", o->label);
    if (o->blocking && n < max) {
        ms[n] = (method_t){.kind = METHOD_BLOCKING, .coll = o->coll, .conc = o->concurrency};
        snprintf(ms[n++].name, sizeof ms[0].name, "%s%s", coll_mpi_name(o->coll, 0), suffix);
    }
    if (o->mpi_nb && n < max) {
        ms[n] = (method_t){.kind = METHOD_MPI_NB, .coll = o->coll, .conc = o->concurrency};
        snprintf(ms[n++].name, sizeof ms[0].name, "%s%s", coll_mpi_name(o->coll, 1), suffix);
    }
    if (!o->nbo)
        return n;

    /* NBO_ENGINE / NBO_PROGRESS in the environment narrow the sweep unless
     * -e / -P say otherwise. */
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
            for (int w = 0; w < nwin * ncod && n < max; w++) {
                const int z = w % ncod;
                method_t *m = &ms[n++];
                *m = (method_t){.kind = METHOD_NBO, .coll = o->coll, .conc = o->concurrency,
                                .persistent = o->persistent, .own_barrier = o->own_barrier};
                nbo_config_init(&m->config);
                if (nbo_config_from_env(&m->config) != NBO_SUCCESS)
                    die("reading NBO_* variables", "nbo_config_from_env");
                snprintf(m->config.engine, sizeof m->config.engine, "%s", engine);
                m->config.progress = progs[p];
                int len = snprintf(m->name, sizeof m->name, "nbo:%s/%s", engine,
                                   nbo_progress_name(progs[p]));
                if (o->nwindows) {
                    m->config.window = o->windows[w / ncod];
                    len += snprintf(m->name + len, sizeof m->name - (size_t)len, "/W%d",
                                    o->windows[w / ncod]);
                }
                if (o->ncodecs) { /* "/none", "/fp32", "/zfp16" */
                    m->config.codec = o->codecs[z];
                    m->config.codec_rate = o->codec_rates[z];
                    if (o->codecs[z] == NBO_CODEC_ZFP)
                        len += snprintf(m->name + len, sizeof m->name - (size_t)len, "/zfp%d",
                                 o->codec_rates[z]);
                    else
                        len += snprintf(m->name + len, sizeof m->name - (size_t)len, "/%s",
                                        nbo_codec_name(o->codecs[z]));
                }
                /* A run per OFI provider tells its rows apart by -L. */
                if (len >= 0 && (size_t)len < sizeof m->name)
                    snprintf(m->name + len, sizeof m->name - (size_t)len, "%s", suffix);
            }
        }
    }
    return n;
}

static void fill_ids(result_t *r, const method_t *m, size_t size)
{
    memset(r, 0, sizeof *r);
    snprintf(r->method, sizeof r->method, "%s", m ? m->name : "ceiling");
    r->size = size;
    r->conc = m ? m->conc : 1;
    r->window = m && m->kind == METHOD_NBO ? m->config.window : 0;
    snprintf(r->engine, sizeof r->engine, "%s",
             !m ? "sockets" : m->kind == METHOD_NBO ? m->config.engine : "mpich");
    snprintf(r->progress, sizeof r->progress, "%s",
             !m ? "kernel" : m->kind == METHOD_NBO ? nbo_progress_name(m->config.progress) : "-");
}

/* ----------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    int provided;
    rate_idle = busy_calibrate();
    /* The progress thread needs MPI_THREAD_MULTIPLE; ask for it for every
     * method so that all rows run under the same MPI. */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    world = MPI_COMM_WORLD;
    MPI_Comm_rank(world, &rank);
    MPI_Comm_size(world, &nprocs);

    options_t o;
    int prc = options_parse(argc, argv, &o, rank);
    if (prc != 0) {
        MPI_Finalize();
        return prc > 0 ? 0 : 2;
    }
    coll_set_doubles(o.ncodecs > 0);

    FILE *csv = NULL;
    if (rank == 0 && o.csv_path) {
        csv = fopen(o.csv_path, "w");
        if (!csv) {
            perror(o.csv_path);
            MPI_Abort(world, 1);
        }
        report_csv_header(csv);
    }

    size_t maxbytes = (size_t)o.concurrency * (size_t)nprocs * o.max_size;
    buffers_t b = {.send = malloc(maxbytes), .recv = malloc(maxbytes), .nprocs = nprocs};
    if (!b.send || !b.recv)
        die("malloc", "buffers");

    double rate = busy_calibrate();
    if (rank == 0) {
        const char *tls = getenv("UCX_TLS");
        printf("# nbo_overlap (libnbo %s): %d ranks, MPI thread level %s, UCX_TLS=%s\n",
               nbo_version(), nprocs,
               provided == MPI_THREAD_MULTIPLE ? "multiple" : "below multiple",
               tls ? tls : "(default)");
        static const char *const unit[COLL_N] = {
            "B per peer", "B per vector (MPI_DOUBLE, MPI_SUM)", "B per rank's block",
            "B per message from root 0"};
        printf("# collective: %s (-C)%s\n", coll_name(o.coll),
               o.ncodecs ? ", MPI_DOUBLE (-z: the nbo rows' codecs in their names)" : "");
        printf("# %d sizes up to %zu %s, iterations %d/%d (warm-up %d/%d) small/large, "
               "at least %.2g s per phase, %d test calls, %d concurrent, work %.0f Msteps/s\n",
               o.nsizes, o.max_size, unit[o.coll], o.iters_small, o.iters_large, o.skip_small, o.skip_large,
               o.min_time_s, o.tests, o.concurrency, rate / 1e6);
        printf("# work before MPI_Init: %.0f Msteps/s\n", rate_idle / 1e6);
        printf("# barrier before each iteration: %s\n",
               o.own_barrier ? "each method's own, on its own connections (-B own)"
                             : "MPI_Barrier for every method (-B mpi)");
        if (rate < 0.8 * rate_idle)
            printf("# NOTE: after MPI_Init the work runs at %.0f %% of that speed: a thread of\n"
                   "# the MPI library takes the core all the time; see alone_vs_idle\n",
                   100 * rate / rate_idle);
        fflush(stdout);
    }

    int maxrows = 64 * 32;
    result_t *rows = calloc((size_t)maxrows, sizeof *rows);
    int nrows = 0;

    /* The ceiling first: it also shows that the network works.  Its socket
     * exchange is an all-to-all; no other collective has one. */
    if (o.ceiling && o.coll != COLL_ALLTOALL && rank == 0)
        printf("\n# ceiling (plain TCP sockets): all-to-all only, not run for -C %s\n",
               coll_name(o.coll));
    if (o.ceiling && o.coll == COLL_ALLTOALL) {
        char why[160] = "";
        socket_mesh_t *mesh = socket_mesh_open(world, why, sizeof why);
        if (!mesh) {
            if (rank == 0)
                printf("\n# ceiling (plain TCP sockets): skipped: %s\n", why);
        } else {
            if (rank == 0)
                report_header(stdout, "ceiling", "plain TCP sockets, the exchange on a thread of its own; CPU-bound = 100 * (1 - CPU pure / Pure Comm.)");
            for (int k = 0; k < o.nsizes && nrows < maxrows; k++) {
                size_t s = b.size = o.sizes[k];
                result_t *r = &rows[nrows++];
                fill_ids(r, NULL, s);
                measure_ceiling(mesh, &b, &o, rate, r);
                if (rank == 0) {
                    report_row(stdout, r);
                    fflush(stdout);
                    if (csv)
                        report_csv_row(csv, r), fflush(csv);
                }
            }
            socket_mesh_close(mesh);
        }
    }

    method_t ms[64];
    int nm = build_methods(&o, ms, 64);
    for (int i = 0; i < nm; i++) {
        method_t *m = &ms[i];
        char why[160];
        int rc = method_open(m, world, why, sizeof why);
        if (rank == 0) {
            if (rc != 0)
                printf("\n# %s: skipped: nbo_comm_create: %s\n", m->name, why);
            else
                report_header(stdout, m->name, why);
            fflush(stdout);
        }
        if (rc != 0)
            continue;
        for (int k = 0; k < o.nsizes && nrows < maxrows; k++) {
            size_t s = b.size = o.sizes[k];
            result_t *r = &rows[nrows++];
            fill_ids(r, m, s);
            measure(m, &b, &o, rate, r);
            if (rank == 0) {
                report_row(stdout, r);
                fflush(stdout);
                if (csv)
                    report_csv_row(csv, r), fflush(csv);
            }
        }
        method_close(m);
    }

    int errors = 0;
    if (rank == 0) {
        for (int i = 0; i < nrows; i++)
            errors += rows[i].errors;
        if (o.verdict)
            report_verdicts(stdout, rows, nrows, o.tests > 0, coll_mpi_name(o.coll, 0),
                            coll_mpi_name(o.coll, 1));
        if (errors)
            printf("# DATA ERRORS: %d blocks, vectors or messages received wrong\n", errors);
        if (csv)
            fclose(csv);
    }
    free(rows);
    free(b.send);
    free(b.recv);
    MPI_Bcast(&errors, 1, MPI_INT, 0, world);
    if (rank == 0) {
        /* Drivers watch for this line (MPI_Finalize can hang over UCX tcp). */
        printf("# nbo_overlap: done, %d data errors\n", errors);
        fflush(stdout);
    }
    MPI_Finalize();
    return errors ? 1 : 0;
}
