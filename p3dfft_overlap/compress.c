/*
 * compress.c - what a plan's compression (options.codec) does to its
 * results and to its traffic: the bounds and byte counts of
 * p3o_compression, and p3o_plan_describe.
 *
 * The bounds (docs/p3dfft_overlap.md, "Compression", derives them).  Per
 * compressed exchange, from the codec's per-value bound b (nbo_codec_bound:
 * |decoded - x| <= b max|B| for each value x of a block B, the values one
 * rank sends one peer), summed over the blocks of one variable:
 *   ||error||_2^2 <= b^2 sum_B n_B max|B|^2 <= b^2 n_max ||data||_2^2
 * (max|B| <= ||B||_2), so one exchange adds at most beta = b sqrt(n_max)
 * to the relative 2-norm error of the data it moves, n_max the largest
 * block (in scalars, a complex number being two) of any rank.  fp32 does
 * better than its stated b: it multiplies a block by a power of two (exact)
 * and rounds each value to float, so |decoded - x| <= b |x| + 2^-149 max|B|
 * (the second term where a value falls below float's normal range after
 * the scale), and beta = b (1 + 2^-125 sqrt(n_max)), b to 30 digits for any
 * block of fewer than 2^150 values.  The 1-D FFTs between exchanges are
 * unitary up to a factor (sqrt(n)), so a relative error passes through
 * them unchanged, and k compressed exchanges compose to (1 + beta)^k - 1.
 * The complex-to-real X transform at the end of a backward leg may turn a
 * relative error into at most sqrt(2) times it (it counts each coefficient
 * 0 < kx < nx/2 twice).  zfp: libnbo states no a priori bound (fixed rate
 * cannot), so neither does the plan (INFINITY); its measured envelope is in
 * docs/compression.md and docs/p3dfft_overlap.md.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "p3o_internal.h"
#include "../codec/codec.h"

/* The codecs' scalar kind of a real of `scalar` bytes. */
static int celem_of(size_t scalar) { return scalar == 8 ? NBO_CELEM_F64 : NBO_CELEM_F32; }

/* The bytes libnbo sends for a block of n scalars: the codecs' own
 * formula (codec/wire.c), its messages as libnbo cuts them. */
static double wire_of(nbo_codec_t codec, int rate, size_t scalar, double n)
{
    return (double)nbo_codec_block_wire_bytes(codec, rate, celem_of(scalar), (size_t)n * scalar, 0);
}

/* Bytes this rank sends other ranks in one exchange of x, both directions
 * (forward sends scnt, backward rcnt), raw and as the codec sends them;
 * *nmax: the largest block it sends, in scalars. */
static void exchange_bytes(const struct p3o_plan *p, const p3o_xfer_t *x, int compressed,
                           double *raw, double *wire, double *nmax)
{
    for (int q = 0; q < x->m; q++) {
        if (q == x->me)
            continue; /* the own block is copied, exactly */
        const int blocks[2] = {x->scnt[q], x->rcnt[q]};
        for (int d = 0; d < 2; d++) {
            const double n = 2.0 * blocks[d]; /* scalars: a complex number is two */
            *raw += n * p->rs;
            *wire += compressed ? wire_of(p->codec, p->codec_rate, p->rs, n) : n * p->rs;
            if (compressed && n > *nmax)
                *nmax = n;
        }
    }
}

int p3o_compression_setup(struct p3o_plan *p)
{
    p3o_compression_t *c = &p->comp;
    memset(c, 0, sizeof(*c));
    c->codec = p->codec;
    c->rate = p->codec == NBO_CODEC_ZFP ? p->codec_rate : 0;
    const int lossy = nbo_codec_applies(p->codec, p->codec_rate, celem_of(p->rs));
    c->column = lossy && p->col > 1;
    c->row = lossy && p->compress_row && p->row > 1;
    c->exchanges = c->column + c->row;

    double raw = 0, wire = 0, nmax = 0;
    exchange_bytes(p, &p->colx, c->column, &raw, &wire, &nmax);
    if (p->row > 1)
        exchange_bytes(p, &p->rowx, c->row, &raw, &wire, &nmax);
    c->raw_bytes = raw / 2; /* per leg: the mean of forward and backward */
    c->wire_bytes = wire / 2;
    /* The largest block of any rank (every rank calls this: plan time). */
    double all = 0;
    if (MPI_Allreduce(&nmax, &all, 1, MPI_DOUBLE, MPI_MAX, p->cart) != MPI_SUCCESS)
        return p3o_fail(P3O_ERR_MPI, "MPI_Allreduce of the largest compressed block failed");

    if (c->exchanges == 0)
        return P3O_SUCCESS; /* every exchange exact: all bounds 0 */
    double b = 0;
    int rc = nbo_codec_bound(p->codec, c->rate ? c->rate : 16, p->ctype, &b);
    if (rc == NBO_ERR_CODEC) {
        b = INFINITY; /* the codec states no a priori bound at this rate */
    } else if (rc != NBO_SUCCESS) {
        return p3o_fail(P3O_ERR_NBO, "nbo_codec_bound(%s): %s", nbo_codec_name(p->codec),
                        nbo_strerror(rc));
    }
    const double beta = p->codec == NBO_CODEC_FP32 ? b * (1 + ldexp(sqrt(all), -125))
                                                   : b * sqrt(all);
    const double k = c->exchanges;
    c->value_bound = b;
    c->exchange_bound = beta;
    c->forward_bound = isinf(beta) ? INFINITY : expm1(k * log1p(beta));
    c->backward_bound = sqrt(2.0) * c->forward_bound;
    c->roundtrip_bound = isinf(beta) ? INFINITY : sqrt(2.0) * expm1(2 * k * log1p(beta));
    return P3O_SUCCESS;
}

int p3o_compression(p3o_plan_t plan, p3o_compression_t *compression)
{
    struct p3o_plan *p = p3o_plan_check(plan);
    if (!p)
        return p3o_fail(P3O_ERR_PLAN, "p3o_compression: not a valid plan");
    if (!compression)
        return p3o_fail(P3O_ERR_ARG, "p3o_compression: compression is NULL");
    *compression = p->comp;
    return P3O_SUCCESS;
}

/* Append to buf at *used, never past len. */
static void add(char *buf, size_t len, size_t *used, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void add(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
    if (*used >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf + *used, len - *used, fmt, ap);
    va_end(ap);
    if (n > 0)
        *used += (size_t)n < len - *used ? (size_t)n : len - *used - 1;
}

int p3o_plan_describe(p3o_plan_t plan, char *buf, size_t len)
{
    struct p3o_plan *p = p3o_plan_check(plan);
    if (!p)
        return p3o_fail(P3O_ERR_PLAN, "p3o_plan_describe: not a valid plan");
    if (!buf)
        return p3o_fail(P3O_ERR_ARG, "p3o_plan_describe: buf is NULL");
    if (len == 0)
        return P3O_SUCCESS;
    size_t used = 0;
    buf[0] = 0;
    add(buf, len, &used, "%dx%dx%d nv=%d %s %s%s grid %dx%d", p->nx, p->ny, p->nz, p->nv,
        p3o_precision_name(p->prec), p3o_mode_name(p->mode), p->gpu ? " (GPU)" : "", p->row,
        p->col);
    nbo_comm_info_t info;
    if (p->ncomm != NBO_COMM_NULL && nbo_comm_query(p->ncomm, &info) == NBO_SUCCESS)
        add(buf, len, &used, ", libnbo %s/%s", info.engine,
            nbo_progress_name(info.progress));
    const p3o_compression_t *c = &p->comp;
    if (p->codec == NBO_CODEC_NONE) {
        add(buf, len, &used, ", exchanges exact");
        return P3O_SUCCESS;
    }
    char codec[32];
    if (p->codec == NBO_CODEC_ZFP)
        snprintf(codec, sizeof(codec), "zfp rate %d", p->codec_rate);
    else
        snprintf(codec, sizeof(codec), "%s", nbo_codec_name(p->codec));
    if (c->exchanges == 0) {
        add(buf, len, &used, ", codec %s: nothing to compress (%s), exchanges exact", codec,
            !nbo_codec_applies(p->codec, p->codec_rate, celem_of(p->rs)) ? "the codec leaves this precision exact"
                                                           : "no exchange between ranks");
        return P3O_SUCCESS;
    }
    add(buf, len, &used, ", %s%s%s exchange%s %s", c->column ? "column" : "",
        c->column && c->row ? " and " : "", c->row ? "row" : "", c->exchanges > 1 ? "s" : "",
        codec);
    add(buf, len, &used, " (%.0f of %.0f bytes a variable and leg on the wire)", c->wire_bytes,
        c->raw_bytes);
    if (isinf(c->value_bound))
        add(buf, len, &used, ": no a priori error bound at this rate");
    else
        add(buf, len, &used,
            ": value bound %.2e of a block's max, relative 2-norm error bounds: exchange %.2e, "
            "forward %.2e, backward %.2e, round trip %.2e",
            c->value_bound, c->exchange_bound, c->forward_bound, c->backward_bound,
            c->roundtrip_bound);
    return P3O_SUCCESS;
}
