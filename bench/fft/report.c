/* report.c - derived figures (improvement, ideal bound) and their tables. */
#include "report.h"

#include <math.h>
#include <string.h>

typedef struct derived {
    int    have;                  /* a successful blocking run exists */
    int    hideable;              /* the ideal gain is at least 1 %: "of ideal" means something */
    double improvement;           /* percent vs blocking */
    double ideal, ideal_gain;     /* seconds, percent */
    double of_ideal, comm_share;  /* percent */
} derived_t;

/* The baseline: blocking, as separate forward and backward calls. */
static int is_baseline(const variant_t *v) { return v->mode == P3O_BLOCKING && !v->roundtrip; }

/* A compressed variant: in the compression table, not in Table II. */
static int coded(const variant_t *v) { return v->codec != NBO_CODEC_NONE; }

static const bench_row_t *baseline(const bench_row_t *group, int nvariants)
{
    for (int i = 0; i < nvariants; i++)
        if (is_baseline(&group[i].v) && group[i].m.ok)
            return &group[i];
    return NULL;
}

static derived_t derive(const bench_row_t *r, const bench_row_t *base)
{
    derived_t d = {0};
    if (!base || !r->m.ok)
        return d;
    const double Tb = base->m.time, K = base->m.t.col_comm, C = Tb - K;
    const double hide = fmin(C, K);
    d.have = 1;
    d.improvement = 100.0 * (Tb - r->m.time) / Tb;
    d.ideal = Tb - hide;
    d.ideal_gain = 100.0 * hide / Tb;
    d.hideable = hide >= 0.01 * Tb;
    d.of_ideal = d.hideable ? 100.0 * (Tb - r->m.time) / hide : 0;
    d.comm_share = 100.0 * K / Tb;
    return d;
}

static void grid_name(char *buf, size_t n, const setup_t *s)
{
    snprintf(buf, n, "%dx%dx%d", s->nx, s->ny, s->nz);
}

void report_summary(FILE *f, const bench_row_t *rows, int nsizes, int nvariants, int P)
{
    fprintf(f, "| grid | P (ROW x COL) | nv |");
    int nexact = 0;
    for (int i = 0; i < nvariants; i++)
        if (!coded(&rows[i].v))
            fprintf(f, " %s (s) |", rows[i].v.name), nexact++;
    fprintf(f, " ideal (s) | col comm share |");
    for (int i = 0; i < nvariants; i++)
        if (!is_baseline(&rows[i].v) && !coded(&rows[i].v))
            fprintf(f, " %s gain |", rows[i].v.name);
    fprintf(f, " ideal gain |");
    for (int i = 0; i < nvariants; i++)
        if (rows[i].v.mode == P3O_PIPELINED_NBO && !coded(&rows[i].v))
            fprintf(f, " %s of ideal |", rows[i].v.name);
    fprintf(f, "\n|");
    int ncols = 3 + nexact + 2 + 1;
    for (int i = 0; i < nvariants; i++)
        if (!coded(&rows[i].v))
            ncols += (!is_baseline(&rows[i].v)) + (rows[i].v.mode == P3O_PIPELINED_NBO);
    for (int i = 0; i < ncols; i++)
        fprintf(f, " --- |");
    fprintf(f, "\n");

    for (int g = 0; g < nsizes; g++) {
        const bench_row_t *grp = rows + (size_t)g * nvariants, *base = baseline(grp, nvariants);
        char name[48];
        grid_name(name, sizeof(name), &grp[0].s);
        int row = 0, col = 0;
        for (int i = 0; i < nvariants; i++)
            if (grp[i].m.ok)
                row = grp[i].m.row, col = grp[i].m.col;
        fprintf(f, "| %s | %d (%d x %d) | %d |", name, P, row, col, grp[0].s.nv);
        for (int i = 0; i < nvariants; i++)
            if (!coded(&grp[i].v))
                grp[i].m.ok ? fprintf(f, " %.4f |", grp[i].m.time) : fprintf(f, " failed |");
        derived_t b = derive(base ? base : grp, base);
        b.have ? fprintf(f, " %.4f | %.0f %% |", b.ideal, b.comm_share) : fprintf(f, " - | - |");
        for (int i = 0; i < nvariants; i++) {
            if (is_baseline(&grp[i].v) || coded(&grp[i].v))
                continue;
            derived_t d = derive(&grp[i], base);
            d.have ? fprintf(f, " %.1f %% |", d.improvement) : fprintf(f, " - |");
        }
        b.have ? fprintf(f, " %.1f %% |", b.ideal_gain) : fprintf(f, " - |");
        for (int i = 0; i < nvariants; i++) {
            if (grp[i].v.mode != P3O_PIPELINED_NBO || coded(&grp[i].v))
                continue;
            derived_t d = derive(&grp[i], base);
            d.have && d.hideable ? fprintf(f, " %.0f %% |", d.of_ideal) : fprintf(f, " - |");
        }
        fprintf(f, "\n");
    }
}

void report_details(FILE *f, const bench_row_t *rows, int nsizes, int nvariants, int P)
{
    (void)P;
    fprintf(f, "| grid | variant | engine / progress | time (s) | gain | of ideal | FFT x+y+z | "
               "row | col local | col comm | wait | round-trip error |\n");
    fprintf(f, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (int g = 0; g < nsizes; g++) {
        const bench_row_t *grp = rows + (size_t)g * nvariants, *base = baseline(grp, nvariants);
        for (int i = 0; i < nvariants; i++) {
            const bench_row_t *r = &grp[i];
            char name[48];
            grid_name(name, sizeof(name), &r->s);
            if (!r->m.ok) {
                fprintf(f, "| %s | %s | - | failed: %s |||||||||\n", name, r->v.name, r->m.error);
                continue;
            }
            derived_t d = derive(r, base);
            const p3o_timers_t *t = &r->m.t;
            fprintf(f, "| %s | %s | %s / %s | %.4f |", name, r->v.name, r->m.engine, r->m.progress,
                    r->m.time);
            if (d.have && d.hideable && !is_baseline(&r->v))
                fprintf(f, " %.1f %% | %.0f %% |", d.improvement, d.of_ideal);
            else if (d.have && !is_baseline(&r->v))
                fprintf(f, " %.1f %% | - |", d.improvement);
            else
                fprintf(f, " - | - |");
            fprintf(f, " %.4f | %.4f | %.4f | %.4f | %.4f | %.1e |\n", t->fft_x + t->fft_y + t->fft_z,
                    t->row, t->col_local, t->col_comm, t->wait, r->m.err);
        }
    }
}

int report_has_codecs(const bench_row_t *rows, int n)
{
    for (int i = 0; i < n; i++)
        if (coded(&rows[i].v))
            return 1;
    return 0;
}

/* The exact run of the same mode, call form and engine as r, in its group. */
static const bench_row_t *exact_twin(const bench_row_t *grp, int nvariants, const bench_row_t *r)
{
    for (int i = 0; i < nvariants; i++) {
        const variant_t *v = &grp[i].v;
        if (!coded(v) && grp[i].m.ok && v->mode == r->v.mode && v->roundtrip == r->v.roundtrip &&
            v->set_engine == r->v.set_engine && (!v->set_engine || v->engine == r->v.engine))
            return &grp[i];
    }
    return NULL;
}

static void codec_label(char *buf, size_t n, const variant_t *v)
{
    if (v->codec == NBO_CODEC_ZFP)
        snprintf(buf, n, "zfp rate %d%s", v->rate ? v->rate : 16, v->compress_row ? " (+row)" : "");
    else
        snprintf(buf, n, "%s%s", nbo_codec_name(v->codec), v->compress_row ? " (+row)" : "");
}

void report_compression(FILE *f, const bench_row_t *rows, int nsizes, int nvariants, int P)
{
    (void)P;
    fprintf(f, "| grid | variant | codec | time (s) | x blocking | x exact | wire MB / iter | "
               "of raw | error sine | error random | bound |\n");
    fprintf(f, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (int g = 0; g < nsizes; g++) {
        const bench_row_t *grp = rows + (size_t)g * nvariants, *base = baseline(grp, nvariants);
        for (int i = 0; i < nvariants; i++) {
            const bench_row_t *r = &grp[i];
            if (!coded(&r->v) && !is_baseline(&r->v) && r->v.mode != P3O_PIPELINED_NBO)
                continue; /* MPI's pipelines have no codec to compare */
            char name[48], codec[48];
            grid_name(name, sizeof(name), &r->s);
            codec_label(codec, sizeof(codec), &r->v);
            if (!r->m.ok) {
                fprintf(f, "| %s | %s | %s | failed: %s ||||||||\n", name, r->v.name, codec,
                        r->m.error);
                continue;
            }
            const p3o_compression_t *c = &r->m.comp;
            const bench_row_t *twin = coded(&r->v) ? exact_twin(grp, nvariants, r) : r;
            const double iter = 2.0 * r->s.nv; /* legs per iteration */
            fprintf(f, "| %s | %s | %s | %.4f |", name, r->v.name, codec, r->m.time);
            base ? fprintf(f, " %.2f |", r->m.time / base->m.time) : fprintf(f, " - |");
            twin ? fprintf(f, " %.2f |", r->m.time / twin->m.time) : fprintf(f, " - |");
            fprintf(f, " %.1f | %.0f %% |", iter * c->wire_bytes / 1e6,
                    c->raw_bytes > 0 ? 100 * c->wire_bytes / c->raw_bytes : 100.0);
            if (coded(&r->v) && r->m.err_sine >= 0)
                fprintf(f, " %.1e | %.1e |", r->m.err_sine, r->m.err_random);
            else
                fprintf(f, " - | - |");
            if (!coded(&r->v))
                fprintf(f, " exact |\n");
            else if (isinf(c->roundtrip_bound))
                fprintf(f, " none stated |\n");
            else
                fprintf(f, " %.1e |\n", c->roundtrip_bound);
        }
    }
}

void report_csv(FILE *f, const bench_row_t *rows, int nsizes, int nvariants, int P)
{
    fprintf(f, "nx,ny,nz,nv,P,row,col,precision,variant,engine,progress,ok,time_s,"
               "improvement_pct,ideal_s,ideal_improvement_pct,of_ideal_pct,col_comm_share_pct,"
               "fft_x_s,fft_y_s,fft_z_s,row_s,col_local_s,col_comm_s,wait_s,error,"
               "codec,codec_rate,compress_row,raw_bytes_per_leg,wire_bytes_per_leg,"
               "error_sine_rel2,error_random_rel2,roundtrip_bound\n");
    for (int g = 0; g < nsizes; g++) {
        const bench_row_t *grp = rows + (size_t)g * nvariants, *base = baseline(grp, nvariants);
        derived_t b = derive(base ? base : grp, base);
        for (int i = 0; i < nvariants; i++) {
            const bench_row_t *r = &grp[i];
            derived_t d = derive(r, base);
            const p3o_timers_t *t = &r->m.t;
            fprintf(f, "%d,%d,%d,%d,%d,%d,%d,%s,\"%s\",%s,%s,%d,%.6f,", r->s.nx, r->s.ny, r->s.nz,
                    r->s.nv, P, r->m.row, r->m.col, p3o_precision_name(r->s.prec), r->v.name,
                    r->m.ok ? r->m.engine : "-", r->m.ok ? r->m.progress : "-", r->m.ok,
                    r->m.ok ? r->m.time : 0.0);
            if (d.have && d.hideable)
                fprintf(f, "%.2f,%.6f,%.2f,%.2f,%.2f,", d.improvement, b.ideal, b.ideal_gain,
                        d.of_ideal, b.comm_share);
            else if (d.have)
                fprintf(f, "%.2f,%.6f,%.2f,,%.2f,", d.improvement, b.ideal, b.ideal_gain,
                        b.comm_share);
            else
                fprintf(f, ",,,,,");
            fprintf(f, "%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.3e,", t->fft_x, t->fft_y, t->fft_z,
                    t->row, t->col_local, t->col_comm, t->wait, r->m.err);
            const p3o_compression_t *c = &r->m.comp;
            fprintf(f, "%s,%d,%d,%.0f,%.0f,%.3e,%.3e,%.3e\n", nbo_codec_name(r->v.codec),
                    r->v.codec == NBO_CODEC_ZFP ? (r->v.rate ? r->v.rate : 16) : 0,
                    r->v.compress_row, c->raw_bytes, c->wire_bytes, r->m.err_sine,
                    r->m.err_random, c->roundtrip_bound);
        }
    }
}
