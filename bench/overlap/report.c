/* report.c - OSU-layout table, CSV rows and the verdict lines. */
#include "bench.h"

#include <stdio.h>
#include <string.h>

#define W 15

void report_header(FILE *out, const char *method, const char *detail)
{
    fprintf(out, "\n# %s%s%s%s\n", method, detail && *detail ? " (" : "", detail ? detail : "",
            detail && *detail ? ")" : "");
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

void report_row(FILE *out, const result_t *r)
{
    int o = r->has_overlap; /* MPI's blocking row has only a latency */
    fprintf(out, "%-10zu", r->size);
    cell(out, r->overall, o);
    cell(out, r->compute, o);
    cell(out, r->init, o);
    cell(out, r->test, o);
    cell(out, r->wait, o);
    cell(out, r->pure, 1);
    cell(out, r->overlap, o);
    cell(out, r->work_overlap, o);
    cell(out, r->cpu_pure, 1);
    cell(out, r->cpu_work, o);
    cell(out, r->cpu_lib, o);
    cell(out, r->cpu_prov, o);
    fprintf(out, "%s\n", r->errors ? "  DATA ERRORS" : "");
}

void report_csv_header(FILE *csv)
{
    fprintf(csv, "method,engine,progress,window,concurrency,size,iterations,overall_us,"
                 "compute_us,init_us,test_us,wait_us,pure_us,overlap_pct,work_overall_us,"
                 "compute_alone_us,work_overlap_pct,cpu_pure_us,cpu_work_us,errors,alone_vs_idle,"
                 "start_preempt,lib_cpu_us,provider_cpu_us\n");
}

void report_csv_row(FILE *csv, const result_t *r)
{
    fprintf(csv, "%s,%s,%s,%d,%d,%zu,%d,", r->method, r->engine, r->progress, r->window, r->conc,
            r->size, r->iters);
    /* MPI's blocking row has only a latency: leave the overlap fields empty. */
    if (r->has_overlap)
        fprintf(csv, "%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.2f,%.3f,%.3f,%.2f,", r->overall, r->compute,
                r->init, r->test, r->wait, r->pure, r->overlap, r->work_overall,
                r->compute_alone, r->work_overlap);
    else
        fprintf(csv, ",,,,,%.3f,,,,,", r->pure);
    fprintf(csv, "%.3f,", r->cpu_pure);
    if (r->has_overlap)
        fprintf(csv, "%.3f", r->cpu_work);
    fprintf(csv, ",%d,", r->errors);
    if (r->has_overlap)
        fprintf(csv, "%.3f", r->alone_vs_idle);
    fprintf(csv, ",");
    if (r->has_overlap)
        fprintf(csv, "%.2f,%.3f,%.3f", r->start_preempt, r->cpu_lib, r->cpu_prov);
    else
        fprintf(csv, ",,");
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

/* One line per size: the best nbo row against MPICH. */
void report_verdicts(FILE *out, const result_t *rows, int n, int inline_rows,
                     const char *blocking_name, const char *nb_name)
{
    fprintf(out, "\n# Verdict per size: the nbo row with the best min(work, OSU) overlap "
                 "among those within 2x %s's latency\n", blocking_name);
    if (!inline_rows)
        fprintf(out, "# (inline rows left out: with no test call during the computation (-t) "
                     "nothing advances them there, so their overlap is the first window's)\n");
    for (int i = 0; i < n; i++) {
        size_t size = rows[i].size;
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= rows[j].size == size;
        if (seen)
            continue;
        const result_t *nbo = NULL, *blocking = NULL, *mpi = NULL, *ceiling = NULL;
        for (int j = i; j < n; j++) {
            const result_t *r = &rows[j];
            if (r->size != size)
                continue;
            if (strcmp(r->method, blocking_name) == 0)
                blocking = r;
            else if (strcmp(r->method, nb_name) == 0)
                mpi = r;
            else if (strcmp(r->method, "ceiling") == 0)
                ceiling = r;
        }
        /* The best nbo row at most twice as slow as MPI's blocking row (a row that
         * overlaps by being very slow only wins when no other is left). */
        for (int pass = 0; pass < 2 && !nbo; pass++)
            for (int j = i; j < n; j++) {
                const result_t *r = &rows[j];
                if (r->size != size || strncmp(r->method, "nbo:", 4) != 0 ||
                    (!inline_rows && strcmp(r->progress, "inline") == 0))
                    continue;
                if (pass == 0 && blocking && r->pure > 2 * blocking->pure)
                    continue;
                if (!nbo || score(r) > score(nbo))
                    nbo = r;
            }
        char sz[32];
        size_name(size, sz, sizeof sz);
        fprintf(out, "%s:", sz);
        if (nbo) {
            fprintf(out, " %s %.0f %% work overlap (OSU %.0f %%)", nbo->method + 4,
                    nbo->work_overlap, nbo->overlap);
            alone_note(out, nbo);
        } else
            fprintf(out, " no nbo row");
        if (ceiling)
            fprintf(out, " (ceiling: work %.0f %%, OSU %.0f %%, CPU-bound %.0f %%)",
                    ceiling->work_overlap, ceiling->overlap, cpu_bound(ceiling));
        if (mpi) {
            fprintf(out, " vs %s %.0f %% (OSU %.0f %%)", nb_name, mpi->work_overlap,
                    mpi->overlap);
            alone_note(out, mpi);
        }
        if (nbo && blocking && blocking->pure > 0)
            fprintf(out, ", latency %.2fx %s", nbo->pure / blocking->pure, blocking_name);
        fprintf(out, "\n");
    }
}
