/* sched_case.c - build the per-rank byte layout of a test case. */
#include "sched_case.h"
#include "../../codec/codec.h"
#include "../../libnbo/sched_algs.h"

#include <stdlib.h>
#include <string.h>

static size_t matrix_entry(const sched_case_t *c, int s, int d)
{
    if (c->counts == COUNTS_UNIFORM)
        return c->block;
    unsigned h = (unsigned)(s * 131 + d * 71 + c->P * 17) * 2654435761u;
    h ^= h >> 15;
    if (c->counts == COUNTS_SPARSE)
        return h % 5 == 0 ? 200 + h % 97 : 0;
    return h % 4 == 0 ? 0 : 1 + h % 37; /* a quarter are empty */
}

/* Bytes per unit of the case's sizes: a scalar of a compressed case. */
static size_t unit(const sched_case_t *c)
{
    return c->codec_elem ? nbo_celem_bytes(c->codec_elem) : 1;
}

/* Lay out P blocks of sizes b[] in a permuted order, each after a gap, so
 * displacements are neither sorted nor dense. */
static size_t layout(int P, int r, const size_t *b, size_t *displ, size_t u)
{
    size_t off = 0;
    for (int k = 0; k < P; k++) {
        int p = (r % 2) ? P - 1 - k : (k * 5 + r) % P;
        /* (k*5+r)%P is a permutation only when gcd(5,P)==1 */
        if (!(r % 2) && P % 5 == 0)
            p = k;
        off += (size_t)((p + r) % 3) * u; /* gap */
        displ[p] = off;
        off += b[p];
    }
    return off + u; /* a trailing unit that must stay untouched */
}

static void *alloc2(int P, size_t elem)
{
    void **rows = calloc((size_t)P, sizeof(void *));
    if (!rows)
        return NULL;
    for (int i = 0; i < P; i++)
        if (!(rows[i] = calloc((size_t)P, elem)))
            return rows; /* caller checks each row */
    return rows;
}

static void free2(void *v, int P)
{
    void **rows = v;
    if (!rows)
        return;
    for (int i = 0; i < P; i++)
        free(rows[i]);
    free(rows);
}

int sched_case_build(sched_case_t *c)
{
    const int P = c->P;
    c->bytes = calloc((size_t)P * P, sizeof(size_t));
    c->sdispl = alloc2(P, sizeof(size_t));
    c->rdispl = alloc2(P, sizeof(size_t));
    c->sb = alloc2(P, sizeof(size_t));
    c->rb = alloc2(P, sizeof(size_t));
    c->sspan = calloc((size_t)P, sizeof(size_t));
    c->rspan = calloc((size_t)P, sizeof(size_t));
    if (!c->bytes || !c->sdispl || !c->rdispl || !c->sb || !c->rb || !c->sspan || !c->rspan)
        return -1;
    for (int i = 0; i < P; i++)
        if (!c->sdispl[i] || !c->rdispl[i] || !c->sb[i] || !c->rb[i])
            return -1;
    for (int s = 0; s < P; s++)
        for (int d = 0; d < P; d++) {
            /* In place the send counts are the receive counts, so what s
             * sends to d equals what d sends to s. */
            int a = c->in_place && d < s ? d : s, b = c->in_place && d < s ? s : d;
            c->bytes[s * P + d] = matrix_entry(c, a, b) * unit(c);
        }
    for (int r = 0; r < P; r++) {
        for (int p = 0; p < P; p++) {
            c->sb[r][p] = c->bytes[r * P + p];
            c->rb[r][p] = c->bytes[p * P + r];
        }
        c->rspan[r] = layout(P, r, c->rb[r], c->rdispl[r], unit(c));
        if (c->in_place) {
            memcpy(c->sdispl[r], c->rdispl[r], (size_t)P * sizeof(size_t));
            c->sspan[r] = 0;
        } else
            c->sspan[r] = layout(P, (r + 1) % P, c->sb[r], c->sdispl[r], unit(c));
    }
    return 0;
}

void sched_case_free(sched_case_t *c)
{
    free(c->bytes);
    free2(c->sdispl, c->P);
    free2(c->rdispl, c->P);
    free2(c->sb, c->P);
    free2(c->rb, c->P);
    free(c->sspan);
    free(c->rspan);
    c->bytes = NULL;
    c->sdispl = c->rdispl = c->sb = c->rb = NULL;
    c->sspan = c->rspan = NULL;
}

nbo_sched_args_t sched_case_args(const sched_case_t *c, int r)
{
    nbo_sched_args_t a = {
        .size = c->P,
        .rank = r,
        .sbytes = c->sb[r],
        .sdispl = c->sdispl[r],
        .rbytes = c->rb[r],
        .rdispl = c->rdispl[r],
        .send_contig = c->send_contig,
        .recv_contig = c->recv_contig,
        .in_place = c->in_place,
        .uniform = c->counts == COUNTS_UNIFORM && !c->alltoallw,
        .coll = c->alltoallw ? NBO_COLL_ALLTOALLW : NBO_COLL_ALLTOALLV,
        .algs = nbo_alltoall_algs,
        .algorithm = c->algorithm,
        .window = c->window,
        .bruck_max = c->bruck_max,
        .codec = c->codec,
        .codec_rate = c->codec_rate,
        .codec_elem = c->codec_elem,
        .codec_chunk = c->codec_chunk,
    };
    return a;
}

const char *sched_case_name(const sched_case_t *c, int r, char *buf, size_t len)
{
    static const char *kinds[] = {"uniform", "irregular", "sparse"};
    snprintf(buf, len, "%sP=%d r=%d alg=%s W=%d %s block=%zu send_contig=%d recv_contig=%d in_place=%d"
             " codec=%s rate=%d elem=%d chunk=%zu",
             c->alltoallw ? "alltoallw " : "", c->P, r, nbo_algorithm_name(c->algorithm), c->window,
             kinds[c->counts], c->block,
             c->send_contig, c->recv_contig, c->in_place, nbo_codec_name((nbo_codec_t)c->codec),
             c->codec_rate, c->codec_elem, c->codec_chunk);
    return buf;
}

int sched_codec_run(int decode, int codec, int rate, int elem, const void *src,
                    size_t raw_bytes, void *dst)
{
    const nbo_codec_ops_t *ops = nbo_codec_find(codec, NULL);
    if (!ops)
        return NBO_ERR_CODEC;
    return (decode ? ops->decode : ops->encode)(rate, elem, src, raw_bytes, dst);
}
