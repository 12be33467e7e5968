/*
 * test_codec.c - compressed all-to-alls (docs/compression.md) through the
 * public API, on the engine and progress mode of the environment.
 *
 * For each codec (fp32, zfp at rates 8 and 16 where built): nbo_ialltoall
 * (300 values per peer, and 40000 doubles: several messages of 128 KiB
 * each) and nbo_ialltoallv (irregular counts, gaps that must stay untouched),
 * non-blocking and persistent (two starts with different data), in place
 * and not, on MPI_DOUBLE, MPI_FLOAT, MPI_C_DOUBLE_COMPLEX and
 * MPI_C_FLOAT_COMPLEX: every received value within the codec's bound
 * (nbo_codec_bound; for zfp the measured envelope of the docs) of the
 * value sent, relative to the max-norm of its block, and the own block
 * bit-exact.  Types the codecs leave alone (MPI_INT, and MPI_DOUBLE sent
 * against a contiguous type of two doubles) arrive bit-exact.  fp32 passes
 * NaN and infinities through; zfp refuses them: the ranks that sent or
 * received such a block get NBO_ERR_CODEC, the block arrives as NaN, the
 * others succeed.  An exact communicator beside a compressed one on the
 * same MPI communicator; nbo_comm_query reports the codec; codec zfp in a
 * build without libzfp fails with NBO_ERR_CODEC on every rank.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mpitest.h"

#define GAP_BYTE 0x5C
#define N 300 /* scalars per peer block (alltoall) */
/* A block of several chunks (the library sends 128 KiB of raw data per
 * message): 40000 doubles, 312.5 KiB. */
#define N_BIG 40000
static int n_block = N; /* elements per peer block of the next alltoall */

typedef struct {
    nbo_codec_t codec;
    int         rate;
    nbo_comm_t  comm;
} codec_comm_t;

/* The docs' measured envelope for zfp (no a priori bound): 2^(8 - rate). */
static double tolerance(nbo_codec_t codec, int rate, MPI_Datatype type)
{
    double b = 0;
    if (nbo_codec_bound(codec, rate, type, &b) == NBO_SUCCESS)
        return b;
    return ldexp(1.0, 8 - rate);
}

static int is_float(MPI_Datatype t) { return t == MPI_FLOAT || t == MPI_C_FLOAT_COMPLEX; }
static int scalars(MPI_Datatype t) { return t == MPI_C_DOUBLE_COMPLEX || t == MPI_C_FLOAT_COMPLEX ? 2 : 1; }

/* Scalar i of the block rank src sends rank dst in round seed: smooth data
 * with noise, at a scale that differs per block (1e-20 .. 1e20 for doubles,
 * 1e-6 .. 1e6 for floats). */
static double val(int src, int dst, size_t i, unsigned seed, int flt)
{
    unsigned h = (unsigned)(src * 7919 + dst * 104729) ^ (seed * 2654435761u);
    int e = (int)(h % 41) - 20;
    if (flt)
        e = (int)(h % 13) - 6;
    double noise = (double)mt_byte(src, dst, i, seed) / 255.0 - 0.5;
    return pow(10.0, e) * (sin(0.05 * (double)i + src - dst) + 0.1 * noise);
}

static void put(void *buf, size_t k, double v, int flt)
{
    if (flt)
        ((float *)buf)[k] = (float)v;
    else
        ((double *)buf)[k] = v;
}

static double get(const void *buf, size_t k, int flt)
{
    return flt ? (double)((const float *)buf)[k] : ((const double *)buf)[k];
}

/* Fill the block for dst (n scalars at scalar offset at). */
static void fill(void *buf, size_t at, size_t n, int dst, unsigned seed, int flt)
{
    for (size_t i = 0; i < n; i++)
        put(buf, at + i, val(mt_rank, dst, i, seed, flt), flt);
}

/* The block from src (n scalars at scalar offset at) against what src
 * sent: within tol of its max-norm, or bit-exact (tol 0, the own block). */
static void check_block(const char *what, const void *buf, size_t at, size_t n, int src,
                        unsigned seed, int flt, double tol)
{
    double max = 0;
    for (size_t i = 0; i < n; i++) {
        double v = val(src, mt_rank, i, seed, flt);
        max = fmax(max, fabs(flt ? (double)(float)v : v));
    }
    for (size_t i = 0; i < n; i++) {
        double want = val(src, mt_rank, i, seed, flt), got = get(buf, at + i, flt);
        if (flt)
            want = (double)(float)want;
        if (tol == 0 ? got != want : !(fabs(got - want) <= tol * max)) {
            mt_fail("%s: value %zu from rank %d is %.17g, sent %.17g (max %.3g, bound %.3g)", what,
                    i, src, got, want, max, tol);
            return;
        }
    }
}

static void check_gaps(const char *what, const unsigned char *b, size_t len, const int *counts,
                       const int *displs, size_t esize)
{
    for (size_t k = 0; k < len; k++) {
        int in_block = 0;
        for (int p = 0; p < mt_size && !in_block; p++)
            in_block = k >= (size_t)displs[p] * esize && k < (size_t)(displs[p] + counts[p]) * esize;
        if (!in_block && b[k] != GAP_BYTE) {
            mt_fail("%s: gap byte %zu overwritten", what, k);
            return;
        }
    }
}

/* One all-to-all of `type` on comm: in place or not, alltoall or
 * alltoallv, non-blocking or persistent (two starts). */
static void exchange(const codec_comm_t *cc, MPI_Datatype type, int v, int in_place,
                     int persistent, unsigned seed)
{
    const int P = mt_size, flt = is_float(type), ns = scalars(type);
    const size_t ssize = flt ? sizeof(float) : sizeof(double), esize = ssize * (size_t)ns;
    const double tol = tolerance(cc->codec, cc->rate, type);
    int *sc = malloc(sizeof(int) * (size_t)P), *sd = malloc(sizeof(int) * (size_t)P);
    int *rc = malloc(sizeof(int) * (size_t)P), *rd = malloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++) {
        sc[p] = v ? mt_count(mt_rank, p, seed, 200, in_place) : n_block;
        rc[p] = v ? mt_count(p, mt_rank, seed, 200, in_place) : n_block;
    }
    int slen = v ? mt_layout(P, sc, 3, seed + (unsigned)mt_rank, sd) : n_block * P;
    int rlen = v ? mt_layout(P, rc, 2, seed * 3 + (unsigned)mt_rank, rd) : n_block * P;
    if (in_place)
        memcpy(sd, rd, sizeof(int) * (size_t)P), slen = rlen;
    if (!v)
        for (int p = 0; p < P; p++)
            sd[p] = rd[p] = p * n_block;
    unsigned char *sbuf = malloc((size_t)slen * esize + 1), *rbuf = malloc((size_t)rlen * esize + 1);
    unsigned char *scopy = malloc((size_t)slen * esize + 1);
    char what[160];
    snprintf(what, sizeof(what), "%s rate %d, %d/peer %s%s%s%s", nbo_codec_name(cc->codec), cc->rate,
             v ? 0 : n_block,
             type == MPI_DOUBLE ? "double" : type == MPI_FLOAT ? "float"
             : type == MPI_C_DOUBLE_COMPLEX ? "double complex" : "float complex",
             v ? ", alltoallv" : ", alltoall", in_place ? ", in place" : "",
             persistent ? ", persistent" : "");
    nbo_request_t req = NBO_REQUEST_NULL;
    for (int round = 0; round < (persistent ? 2 : 1); round++) {
        const unsigned s = seed + (unsigned)round * 1000;
        memset(rbuf, GAP_BYTE, (size_t)rlen * esize + 1);
        unsigned char *out = in_place ? rbuf : sbuf;
        if (!in_place)
            memset(sbuf, GAP_BYTE, (size_t)slen * esize + 1);
        for (int p = 0; p < P; p++)
            fill(out, (size_t)sd[p] * ns, (size_t)sc[p] * ns, p, s, flt);
        if (!in_place)
            memcpy(scopy, sbuf, (size_t)slen * esize + 1);
        int r;
        const void *sp = in_place ? MPI_IN_PLACE : sbuf;
        if (round == 0) {
            if (v)
                r = (persistent ? nbo_alltoallv_init : nbo_ialltoallv)(sp, sc, sd, type, rbuf, rc,
                                                                       rd, type, cc->comm, &req);
            else
                r = (persistent ? nbo_alltoall_init : nbo_ialltoall)(sp, n_block, type, rbuf,
                                                                     n_block, type, cc->comm, &req);
            if (r != NBO_SUCCESS) {
                mt_fail("%s: %s", what, nbo_strerror(r));
                break;
            }
        }
        if (persistent)
            MT_OK(nbo_start(&req));
        r = mt_complete(&req, (int)(s & 1));
        if (r != NBO_SUCCESS) {
            mt_fail("%s: %s", what, nbo_strerror(r));
            break;
        }
        for (int p = 0; p < P; p++)
            check_block(what, rbuf, (size_t)rd[p] * ns, (size_t)rc[p] * ns, p, s, flt,
                        p == mt_rank ? 0 : tol);
        if (v)
            check_gaps(what, rbuf, (size_t)rlen * esize + 1, rc, rd, esize);
        if (!in_place) /* the send buffer is read only */
            mt_compare(sbuf, scopy, (size_t)slen * esize + 1, what);
    }
    if (persistent && req != NBO_REQUEST_NULL)
        MT_OK(nbo_request_free(&req));
    free(sc); free(sd); free(rc); free(rd); free(sbuf); free(rbuf); free(scopy);
}

/* Types the codec does not touch arrive bit-exact: MPI_INT, and doubles
 * sent as MPI_DOUBLE but received as a contiguous type of two. */
static void untouched(const codec_comm_t *cc)
{
    const int P = mt_size, n = 64;
    int *si = malloc(sizeof(int) * (size_t)(n * P)), *ri = malloc(sizeof(int) * (size_t)(n * P));
    int *ref = malloc(sizeof(int) * (size_t)(n * P));
    mt_fill(si, sizeof(int) * (size_t)(n * P), mt_rank, 0, 77);
    MPI_Alltoall(si, n, MPI_INT, ref, n, MPI_INT, MPI_COMM_WORLD);
    nbo_request_t req;
    MT_OK(nbo_ialltoall(si, n, MPI_INT, ri, n, MPI_INT, cc->comm, &req));
    MT_OK(mt_complete(&req, 0));
    mt_compare(ri, ref, sizeof(int) * (size_t)(n * P), "MPI_INT under a codec");

    double *sd = malloc(sizeof(double) * (size_t)(2 * n * P)), *rdb = malloc(sizeof(double) * (size_t)(2 * n * P));
    double *refd = malloc(sizeof(double) * (size_t)(2 * n * P));
    for (int k = 0; k < 2 * n * P; k++)
        sd[k] = val(mt_rank, k / (2 * n), (size_t)k, 5, 0) * 1.000000001;
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
    MPI_Type_commit(&pair);
    MPI_Alltoall(sd, 2 * n, MPI_DOUBLE, refd, n, pair, MPI_COMM_WORLD);
    MT_OK(nbo_ialltoall(sd, 2 * n, MPI_DOUBLE, rdb, n, pair, cc->comm, &req));
    MT_OK(mt_complete(&req, 1));
    mt_compare(rdb, refd, sizeof(double) * (size_t)(2 * n * P), "MPI_DOUBLE against 2 x MPI_DOUBLE");
    MPI_Type_free(&pair);
    free(si); free(ri); free(ref); free(sd); free(rdb); free(refd);
}

/* Non-finite values: fp32 passes them; zfp refuses the blocks holding them
 * (NBO_ERR_CODEC on the ranks that sent or received one, NaN in place of
 * the block), the rest of the call completes. */
static void nonfinite(const codec_comm_t *cc)
{
    const int P = mt_size, n = 40;
    double *s = malloc(sizeof(double) * (size_t)(n * P)), *r = malloc(sizeof(double) * (size_t)(n * P));
    for (int k = 0; k < n * P; k++)
        s[k] = val(mt_rank, k / n, (size_t)(k % n), 9, 0);
    const int bad_src = 0, bad_dst = P - 1; /* rank 0's block for the last rank */
    if (mt_rank == bad_src) {
        s[bad_dst * n + 3] = NAN;
        s[bad_dst * n + 7] = -INFINITY;
    }
    nbo_request_t req;
    MT_OK(nbo_ialltoall(s, n, MPI_DOUBLE, r, n, MPI_DOUBLE, cc->comm, &req));
    int rc = mt_complete(&req, 0);
    const int involved = P > 1 && (mt_rank == bad_src || mt_rank == bad_dst);
    if (cc->codec == NBO_CODEC_ZFP) {
        int want = involved ? NBO_ERR_CODEC : NBO_SUCCESS;
        if (rc != want)
            mt_fail("zfp with NaN: rank %d got %s, expected %s", mt_rank, nbo_strerror(rc),
                    nbo_strerror(want));
        if (mt_rank == bad_dst && P > 1)
            for (int i = 0; i < n; i++)
                if (!isnan(r[bad_src * n + i])) {
                    mt_fail("zfp: refused block value %d is %g, not NaN", i, r[bad_src * n + i]);
                    break;
                }
    } else {
        MT_OK(rc);
        if (mt_rank == bad_dst && P > 1 &&
            (!isnan(r[bad_src * n + 3]) || r[bad_src * n + 7] != -INFINITY))
            mt_fail("fp32: NaN / -inf came back %g / %g", r[bad_src * n + 3], r[bad_src * n + 7]);
    }
    /* Blocks without them are within the bound on every rank. */
    for (int p = 0; p < P; p++)
        if (!(p == bad_src && mt_rank == bad_dst) && p != mt_rank)
            check_block("beside non-finite values", r, (size_t)(p * n), (size_t)n, p, 9, 0,
                        tolerance(cc->codec, cc->rate, MPI_DOUBLE));
    free(s);
    free(r);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_codec");
    nbo_config_t cfg;
    mt_config(&cfg, NBO_ALG_AUTO);

    /* zfp without libzfp: NBO_ERR_CODEC on every rank. */
    const int have_zfp = nbo_codec_available(NBO_CODEC_ZFP, NULL, 0) == NBO_SUCCESS;
    if (!have_zfp) {
        nbo_config_t z = cfg;
        z.codec = NBO_CODEC_ZFP;
        nbo_comm_t c = (nbo_comm_t)&z;
        MT_EXPECT(NBO_ERR_CODEC, nbo_comm_create(MPI_COMM_WORLD, &z, &c));
        if (c != NBO_COMM_NULL)
            mt_fail("a failed create left a communicator");
    }
    /* Invalid settings in the struct: NBO_ERR_CONFIG. */
    nbo_config_t bad = cfg;
    nbo_comm_t c0;
    bad.codec_rate = 0;
    bad.codec = NBO_CODEC_ZFP;
    MT_EXPECT(NBO_ERR_CONFIG, nbo_comm_create(MPI_COMM_WORLD, &bad, &c0));
    bad = cfg;
    bad.codec = (nbo_codec_t)5;
    MT_EXPECT(NBO_ERR_CONFIG, nbo_comm_create(MPI_COMM_WORLD, &bad, &c0));

    codec_comm_t comms[4] = {{NBO_CODEC_FP32, 16, NBO_COMM_NULL},
                             {NBO_CODEC_ZFP, 16, NBO_COMM_NULL},
                             {NBO_CODEC_ZFP, 8, NBO_COMM_NULL},
                             {NBO_CODEC_NONE, 16, NBO_COMM_NULL}};
    const int ncomms = 4;
    for (int i = 0; i < ncomms; i++) {
        if (comms[i].codec == NBO_CODEC_ZFP && !have_zfp)
            continue;
        nbo_config_t c = cfg;
        c.codec = comms[i].codec;
        c.codec_rate = comms[i].rate;
        MT_OK(nbo_comm_create(MPI_COMM_WORLD, &c, &comms[i].comm));
        nbo_comm_info_t info;
        if (comms[i].comm != NBO_COMM_NULL && nbo_comm_query(comms[i].comm, &info) == NBO_SUCCESS &&
            (info.codec != comms[i].codec || info.codec_rate != comms[i].rate))
            mt_fail("nbo_comm_query: codec %s rate %d, configured %s rate %d",
                    nbo_codec_name(info.codec), info.codec_rate, nbo_codec_name(comms[i].codec),
                    comms[i].rate);
    }
    if (mt_failures())
        return mt_finish();
    mt_describe(comms[0].comm);

    const MPI_Datatype types[] = {MPI_DOUBLE, MPI_FLOAT, MPI_C_DOUBLE_COMPLEX, MPI_C_FLOAT_COMPLEX};
    unsigned seed = 1;
    for (int i = 0; i < ncomms; i++) {
        if (comms[i].comm == NBO_COMM_NULL)
            continue;
        for (int t = 0; t < 4; t++)
            for (int mode = 0; mode < 8; mode++) {
                /* Every type: the four layouts non-blocking; in place and
                 * persistent on doubles and float complex only, for time. */
                int v = mode & 1, in_place = !!(mode & 2), persistent = !!(mode & 4);
                if ((in_place || persistent) && t != 0 && t != 3 && mode != 6)
                    continue;
                exchange(&comms[i], types[t], v, in_place, persistent, seed++);
            }
        /* Blocks of several chunks: doubles (persistent too) and float
         * complex, the chunks' coding overlapping their transfers. */
        n_block = N_BIG;
        exchange(&comms[i], MPI_DOUBLE, 0, 0, 1, seed++);
        exchange(&comms[i], MPI_C_FLOAT_COMPLEX, 0, 1, 0, seed++);
        n_block = N;
        untouched(&comms[i]);
        nonfinite(&comms[i]);
    }
    /* The exact and a lossy communicator on the same MPI communicator, both
     * requests in flight together. */
    if (comms[0].comm != NBO_COMM_NULL && comms[3].comm != NBO_COMM_NULL) {
        const int P = mt_size;
        double *s = malloc(sizeof(double) * (size_t)(N * P));
        double *a = malloc(sizeof(double) * (size_t)(N * P)), *b = malloc(sizeof(double) * (size_t)(N * P));
        for (int p = 0; p < P; p++)
            fill(s, (size_t)(p * N), N, p, 4242, 0);
        nbo_request_t r[2];
        MT_OK(nbo_ialltoall(s, N, MPI_DOUBLE, a, N, MPI_DOUBLE, comms[0].comm, &r[0]));
        MT_OK(nbo_ialltoall(s, N, MPI_DOUBLE, b, N, MPI_DOUBLE, comms[3].comm, &r[1]));
        MT_OK(nbo_waitall(2, r));
        int lossy = 0;
        for (int p = 0; p < P; p++) {
            check_block("beside an exact one", a, (size_t)(p * N), N, p, 4242, 0,
                        p == mt_rank ? 0 : 0x1p-24);
            check_block("exact beside a lossy one", b, (size_t)(p * N), N, p, 4242, 0, 0);
            if (p != mt_rank)
                lossy |= memcmp(a + p * N, b + p * N, N * sizeof(double)) != 0;
        }
        if (P > 1 && !lossy)
            mt_fail("fp32 left every double exact: no compression happened");
        free(s); free(a); free(b);
    }
    for (int i = 0; i < ncomms; i++)
        if (comms[i].comm != NBO_COMM_NULL)
            MT_OK(nbo_comm_free(&comms[i].comm));
    return mt_finish();
}
