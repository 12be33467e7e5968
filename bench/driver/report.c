/* report.c - nbo_bench's tables (OSU layout, application loop), CSV rows
 * and verdict lines. */
#include "bench.h"

#include <stdio.h>
#include <string.h>

#define W 15

void report_header(FILE *out, const result_t *r, const char *detail, int parts)
{
    fprintf(out, "\n# %s: %s%s%s%s\n", coll_name(r->coll), r->method,
            detail && *detail ? " (" : "", detail ? detail : "", detail && *detail ? ")" : "");
    if (!(parts & (PART_OSU | PART_WORK)))
        return;
    fprintf(out, "# Overall = Init + Compute + Test + Wait; Overlap = max(0, 100 - 100 * "
                 "(Overall - Compute) / Pure Comm.)\n");
    fprintf(out, "# Work ovl = 100 * (1 - (Overall(work) - Compute alone) / Pure Comm.); "
                 "CPU = process CPU time per operation\n");
    fprintf(out, "# Lib CPU = the library's progress thread + the caller inside start/test/wait; "
                 "Prov CPU = every other thread but the caller (work phase)\n");
    fprintf(out, "%-10s%*s%*s%*s%*s%*s%*s%*s%*s%*s%*s%*s%*s\n", "# Size", W, "Overall(us)", W,
            "Compute(us)", W, "Init(us)", W, "Test(us)", W, "Wait(us)", W, "Pure Comm.(us)", W,
            "Overlap(%)", W, "Work ovl(%)", W, "CPU pure(us)", W, "CPU work(us)", W,
            "Lib CPU(us)", W, "Prov CPU(us)");
}

static void cell(FILE *out, double v, int shown)
{
    if (shown)
        fprintf(out, "%*.2f", W, v);
    else
        fprintf(out, "%*s", W, "-");
}

void report_row(FILE *out, const result_t *r, int parts)
{
    if (!(parts & (PART_OSU | PART_WORK))) {
        if (r->errors)
            fprintf(out, "# %zu: DATA ERRORS: %ld received wrong\n", r->size, r->errors);
        return;
    }
    int o = r->has_osu, w = r->has_work; /* MPI's blocking row has only a latency */
    fprintf(out, "%-10zu", r->size);
    cell(out, r->overall, o);
    cell(out, r->compute, o);
    cell(out, r->init, o);
    cell(out, r->test, o);
    cell(out, r->wait, o);
    cell(out, r->pure, 1);
    cell(out, r->overlap, o);
    cell(out, r->work_overlap, w);
    cell(out, r->cpu_pure, 1);
    cell(out, r->cpu_work, w);
    cell(out, r->cpu_lib, w);
    cell(out, r->cpu_prov, w);
    fprintf(out, "%s\n", r->errors ? "  DATA ERRORS" : "");
}

void report_app(FILE *out, const result_t *rows, int n, const char *blocking, const char *ref_path)
{
    if (n == 0 || !rows[0].has_app)
        return;
    fprintf(out, "\n# application loop, %s: %s: blocks of N back-to-back iterations of "
                 "start; compute; wait\n",
            coll_name(rows[0].coll), rows[0].method);
    fprintf(out, "# (compute-only, exchange-only, blocking %s and overlapped blocks alternate, "
                 "%d of each;\n# the slowest rank's block, medians, us per iteration; Hidden = "
                 "(Compute + Exchange - Overlapped) / Exchange)\n",
            blocking, rows[0].app_blocks);
    if (ref_path)
        fprintf(out, "# compute: as long as %s's exchange-only time (-R)%s\n", ref_path,
                rows[0].app_ref ? "" : "; not found there: this run's");
    fprintf(out, "%-10s%*s%*s%*s%*s%*s%*s%*s%*s\n", "# Size", 6, "N", 15, "Compute(us)", 15,
            "Exchange(us)", 16, "Overlapped(us)", 11, "Hidden(%)", 15, "Blocking(us)", 13,
            "NB/Blocking", 14, "Compute/idle");
    for (int i = 0; i < n; i++) {
        const result_t *r = &rows[i];
        fprintf(out, "%-10zu%*d%*.2f%*.2f%*.2f%*.1f%*.2f%*.3f%*.2f\n", r->size, 6, r->app_n, 15,
                r->app_comp, 15, r->app_exch, 16, r->app_ovl, 11, r->hidden, 15, r->app_block,
                13, r->nb_vs_blocking, 14, r->comp_vs_idle);
    }
}

/* The first 24 fields are those of every row (plot.gp and
 * scripts/emu-cluster/bench-overlap.sh read them by position); then the
 * configuration and the application loop's. */
void report_csv_header(FILE *csv)
{
    fprintf(csv, "method,engine,progress,window,concurrency,size,iterations,overall_us,"
                 "compute_us,init_us,test_us,wait_us,pure_us,overlap_pct,work_overall_us,"
                 "compute_alone_us,work_overlap_pct,cpu_pure_us,cpu_work_us,errors,alone_vs_idle,"
                 "start_preempt,lib_cpu_us,provider_cpu_us,coll,label,nprocs,persistent,served,"
                 "app_n,app_blocks,app_compute_us,app_exchange_us,app_blocking_us,"
                 "app_overlapped_us,hidden_pct,nb_vs_blocking,compute_vs_idle\n");
}

static const char *served_word(long s) { return s > 0 ? "libnbo" : "mpi"; }

void report_csv_row(FILE *csv, const result_t *r, const char *label)
{
    fprintf(csv, "%s,%s,%s,%d,%d,%zu,%d,", r->method, r->engine, r->progress, r->window, r->conc,
            r->size, r->iters);
    /* Fields of a part that did not run stay empty (MPI's blocking row has
     * only a latency). */
    if (r->has_osu)
        fprintf(csv, "%.3f,%.3f,%.3f,%.3f,%.3f,", r->overall, r->compute, r->init, r->test,
                r->wait);
    else
        fprintf(csv, ",,,,,");
    fprintf(csv, "%.3f,", r->pure);
    if (r->has_osu)
        fprintf(csv, "%.2f", r->overlap);
    fprintf(csv, ",");
    if (r->has_work)
        fprintf(csv, "%.3f,%.3f,%.2f,", r->work_overall, r->compute_alone, r->work_overlap);
    else
        fprintf(csv, ",,,");
    fprintf(csv, "%.3f,", r->cpu_pure);
    if (r->has_work)
        fprintf(csv, "%.3f", r->cpu_work);
    fprintf(csv, ",%ld,", r->errors);
    if (r->has_work)
        fprintf(csv, "%.3f", r->alone_vs_idle);
    fprintf(csv, ",");
    if (r->has_osu)
        fprintf(csv, "%.2f", r->start_preempt);
    fprintf(csv, ",");
    if (r->has_work)
        fprintf(csv, "%.3f,%.3f", r->cpu_lib, r->cpu_prov);
    else
        fprintf(csv, ",");
    fprintf(csv, ",%s,%s,%d,%d,%s,", coll_name(r->coll), label ? label : "", r->nprocs,
            r->persistent, served_word(r->served));
    if (r->has_app)
        fprintf(csv, "%d,%d,%.2f,%.2f,%.2f,%.2f,%.2f,%.4f,%.3f", r->app_n, r->app_blocks,
                r->app_comp, r->app_exch, r->app_block, r->app_ovl, r->hidden, r->nb_vs_blocking,
                r->comp_vs_idle);
    else
        fprintf(csv, ",,,,,,,,");
    fprintf(csv, "\n");
}

static void size_name(size_t s, char *buf, size_t len)
{
    if (s >= (1u << 20) && s % (1u << 20) == 0)
        snprintf(buf, len, "%zu MiB", s >> 20);
    else if (s >= 1024 && s % 1024 == 0)
        snprintf(buf, len, "%zu KiB", s >> 10);
    else
        snprintf(buf, len, "%zu B", s);
}

/* What the kernel's TCP work leaves to the application while the pure
 * exchange runs (the ceiling row): 1 - CPU/wall. */
static double cpu_bound(const result_t *r)
{
    return r->pure > 0 ? 100.0 * (1.0 - r->cpu_pure / r->pure) : 0;
}

/* Conservative: the lower of the two overlap figures, so that noise that
 * inflates one of them does not pick the row. */
static double score(const result_t *r)
{
    return r->work_overlap < r->overlap ? r->work_overlap : r->overlap;
}

/* A row whose work alone ran much slower than on an idle core (a library
 * thread that spins all the time): its work-based figure does not count
 * that, so say it next to the figure. */
static void alone_note(FILE *out, const result_t *r)
{
    if (r->alone_vs_idle > ALONE_SLOW)
        fprintf(out, " [its compute alone took %.2fx an idle core's time]", r->alone_vs_idle);
}

/* The best nbo row of one collective and size: the best min(work, OSU)
 * overlap at most twice as slow as MPI's blocking row (a row that overlaps
 * by being very slow only wins when no other is left). */
static const result_t *best_nbo(const result_t *rows, int n, coll_t c, size_t size,
                                int inline_rows, const result_t *blocking)
{
    const result_t *nbo = NULL;
    for (int pass = 0; pass < 2 && !nbo; pass++)
        for (int j = 0; j < n; j++) {
            const result_t *r = &rows[j];
            if (r->coll != c || r->size != size || strncmp(r->method, "nbo:", 4) != 0 ||
                !r->has_osu || !r->has_work ||
                (!inline_rows && strcmp(r->progress, "inline") == 0))
                continue;
            if (pass == 0 && blocking && r->pure > 2 * blocking->pure)
                continue;
            if (!nbo || score(r) > score(nbo))
                nbo = r;
        }
    return nbo;
}

static void verdict(FILE *out, const result_t *rows, int n, coll_t c, size_t size,
                    int inline_rows)
{
    const char *bname = coll_mpi_name(c, FORM_BLOCKING);
    const result_t *blocking = NULL, *mpi = NULL, *ceiling = NULL;
    for (int j = 0; j < n; j++) {
        const result_t *r = &rows[j];
        if (r->coll != c || r->size != size)
            continue;
        if (strcmp(r->method, bname) == 0)
            blocking = r;
        else if (strcmp(r->method, coll_mpi_name(c, FORM_NONBLOCKING)) == 0 ||
                 strcmp(r->method, coll_mpi_name(c, FORM_PERSISTENT)) == 0)
            mpi = r;
        else if (strcmp(r->method, "ceiling") == 0)
            ceiling = r;
    }
    const result_t *nbo = best_nbo(rows, n, c, size, inline_rows, blocking);
    char sz[32];
    size_name(size, sz, sizeof sz);
    fprintf(out, "%s %s:", coll_name(c), sz);
    if (nbo) {
        fprintf(out, " %s %.0f %% work overlap (OSU %.0f %%)", nbo->method + 4, nbo->work_overlap,
                nbo->overlap);
        alone_note(out, nbo);
    } else
        fprintf(out, " no nbo row");
    if (ceiling && ceiling->has_work)
        fprintf(out, " (ceiling: work %.0f %%, OSU %.0f %%, CPU-bound %.0f %%)",
                ceiling->work_overlap, ceiling->overlap, cpu_bound(ceiling));
    if (mpi && mpi->has_work) {
        fprintf(out, " vs %s %.0f %% (OSU %.0f %%)", mpi->method, mpi->work_overlap, mpi->overlap);
        alone_note(out, mpi);
    }
    if (nbo && blocking && blocking->pure > 0)
        fprintf(out, ", latency %.2fx %s", nbo->pure / blocking->pure, bname);
    fprintf(out, "\n");
}

void report_verdicts(FILE *out, const result_t *rows, int n, int inline_rows)
{
    int any = 0;
    for (int i = 0; i < n; i++)
        any |= strncmp(rows[i].method, "nbo:", 4) == 0 && rows[i].has_osu && rows[i].has_work;
    if (!any)
        return;
    fprintf(out, "\n# Verdict per collective and size: the nbo row with the best min(work, OSU) "
                 "overlap among those within 2x the blocking call's latency\n");
    if (!inline_rows)
        fprintf(out, "# (inline rows left out: with no test call during the computation (-t) "
                     "nothing advances them there, so their overlap is the first window's)\n");
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= rows[j].coll == rows[i].coll && rows[j].size == rows[i].size;
        if (!seen)
            verdict(out, rows, n, rows[i].coll, rows[i].size, inline_rows);
    }
}
