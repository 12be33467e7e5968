/* codec_cost.c - the CPU cost of libnbo's codecs on p3o_bench's column
 * exchange (codec_cost.h). */
#include "codec_cost.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void codec_choice_name(const codec_choice_t *c, char *buf, size_t len)
{
    if (c->codec == NBO_CODEC_ZFP)
        snprintf(buf, len, "zfp:%d", c->rate);
    else
        snprintf(buf, len, "%s", nbo_codec_name(c->codec));
}

/* Seconds per exchange of req: the best of reps loops of iters, max over
 * ranks.  Negative on failure. */
static double time_exchange(MPI_Comm comm, nbo_request_t *req, const setup_t *s)
{
    int rc = NBO_SUCCESS;
    for (int i = 0; i < s->warmup + 1 && rc == NBO_SUCCESS; i++) {
        rc = nbo_start(req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(req);
    }
    double best = HUGE_VAL;
    const int iters = 4 * s->iters;
    for (int r = 0; r < s->reps && rc == NBO_SUCCESS; r++) {
        MPI_Barrier(comm);
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters && rc == NBO_SUCCESS; i++) {
            rc = nbo_start(req);
            if (rc == NBO_SUCCESS)
                rc = nbo_wait(req);
        }
        double dt = (MPI_Wtime() - t0) / iters, slowest;
        MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
        best = fmin(best, slowest);
    }
    int all;
    MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MIN, comm);
    return all == NBO_SUCCESS ? best : -1;
}

/* One persistent all-to-all of count complex numbers per peer with codec
 * (NONE: exact), timed. */
static double one(MPI_Comm comm, const setup_t *s, const codec_choice_t *k, void *sbuf,
                  void *rbuf, int count, MPI_Datatype type, codec_cost_t *out)
{
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    nbo_config_from_env(&cfg);
    cfg.codec = k->codec;
    if (k->codec == NBO_CODEC_ZFP)
        cfg.codec_rate = k->rate;
    nbo_comm_t nc;
    int rc = nbo_comm_create(comm, &cfg, &nc);
    if (rc != NBO_SUCCESS) {
        snprintf(out->error, sizeof(out->error), "nbo_comm_create (%s): %s", k->name,
                 nbo_strerror(rc));
        return -1;
    }
    nbo_comm_info_t info;
    if (nbo_comm_query(nc, &info) == NBO_SUCCESS)
        snprintf(out->engine, sizeof(out->engine), "%s/%s", info.engine,
                 nbo_progress_name(info.progress));
    nbo_request_t req = NBO_REQUEST_NULL;
    rc = nbo_alltoall_init(sbuf, count, type, rbuf, count, type, nc, &req);
    double t = -1;
    if (rc == NBO_SUCCESS)
        t = time_exchange(comm, &req, s);
    else
        snprintf(out->error, sizeof(out->error), "nbo_alltoall_init (%s): %s", k->name,
                 nbo_strerror(rc));
    if (req != NBO_REQUEST_NULL)
        nbo_request_free(&req);
    nbo_comm_free(&nc);
    if (t < 0 && !out->error[0])
        snprintf(out->error, sizeof(out->error), "exchange failed (%s)", k->name);
    return t;
}

void codec_cost_measure(MPI_Comm comm, const setup_t *s, const int size[3],
                        const codec_choice_t *k, codec_cost_t *out)
{
    memset(out, 0, sizeof(*out));
    memcpy(out->size, size, sizeof(out->size));
    out->codec = *k;
    int P;
    MPI_Comm_size(comm, &P);
    const int dbl = s->prec == P3O_DOUBLE;
    const size_t scalar = dbl ? 8 : 4;
    const MPI_Datatype type = dbl ? MPI_C_DOUBLE_COMPLEX : MPI_C_FLOAT_COMPLEX;
    const double cells = (double)(size[0] / 2 + 1) * size[1] * size[2] / ((double)P * P);
    const int count = cells < 1 ? 1 : (int)cells;
    const size_t bytes = (size_t)count * 2 * scalar * (size_t)P;
    char *sbuf = malloc(bytes), *rbuf = malloc(bytes);
    if (!sbuf || !rbuf) {
        snprintf(out->error, sizeof(out->error), "no memory for %zu bytes", 2 * bytes);
        free(sbuf);
        free(rbuf);
        return;
    }
    /* Random values in [-1, 1): the codec's cost does not depend on them
     * (fixed sizes), its error does (reported by the FFT runs). */
    uint64_t g = 88172645463325252ull;
    for (size_t i = 0; i < bytes / scalar; i++) {
        g ^= g << 13, g ^= g >> 7, g ^= g << 17;
        double u = (double)(g >> 11) * 0x1.0p-52 - 1.0;
        if (dbl)
            ((double *)sbuf)[i] = u;
        else
            ((float *)sbuf)[i] = (float)u;
    }
    codec_choice_t exact = {.codec = NBO_CODEC_NONE, .name = "none"};
    out->t_exact = one(comm, s, &exact, sbuf, rbuf, count, type, out);
    if (out->t_exact > 0)
        out->t_codec = one(comm, s, k, sbuf, rbuf, count, type, out);
    free(sbuf);
    free(rbuf);
    if (out->t_exact <= 0 || out->t_codec <= 0)
        return;
    /* The bytes this rank sends its P - 1 peers, raw and on the wire (the
     * plan's figures for the same block: p3o_compression's formula). */
    p3o_plan_t plan = NULL;
    p3o_options_t opt;
    p3o_options_init(&opt);
    opt.planner = P3O_PLANNER_ESTIMATE;
    opt.codec = k->codec;
    opt.codec_rate = k->rate;
    opt.row = 1;
    opt.col = P;
    p3o_compression_t pc = {0};
    int rc = p3o_plan_create(comm, size[0], size[1], size[2], 1, s->prec, P3O_PIPELINED_NBO, &opt,
                             &plan);
    if (rc == P3O_SUCCESS) {
        p3o_compression(plan, &pc);
        p3o_plan_destroy(&plan);
    }
    const double ratio = pc.raw_bytes > 0 ? pc.wire_bytes / pc.raw_bytes : 1;
    out->raw = (double)count * 2 * scalar * (P - 1);
    out->wire = out->raw * ratio;
    out->codec_s = out->t_codec - out->t_exact * ratio;
    out->ns_per_byte = 1e9 * out->codec_s / out->raw;
    out->crossover_gbit = out->codec_s > 0 ? 8e-9 * (out->raw - out->wire) / out->codec_s : INFINITY;
    out->ok = 1;
}

void report_codec_cost(FILE *f, const codec_cost_t *c, int n)
{
    fprintf(f, "| grid | codec | engine / progress | raw bytes | wire bytes | exact exchange (ms) | "
               "compressed exchange (ms) | codec (ms) | codec ns / raw byte | pays below (Gbit/s) |\n");
    fprintf(f, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (int i = 0; i < n; i++) {
        if (!c[i].ok) {
            fprintf(f, "| %dx%dx%d | %s | failed: %s ||||||||\n", c[i].size[0], c[i].size[1],
                    c[i].size[2], c[i].codec.name, c[i].error);
            continue;
        }
        fprintf(f, "| %dx%dx%d | %s | %s | %.0f | %.0f | %.3f | %.3f | %.3f | %.2f | %.2f |\n",
                c[i].size[0], c[i].size[1], c[i].size[2], c[i].codec.name, c[i].engine, c[i].raw,
                c[i].wire, 1e3 * c[i].t_exact, 1e3 * c[i].t_codec, 1e3 * c[i].codec_s,
                c[i].ns_per_byte, c[i].crossover_gbit);
    }
}
