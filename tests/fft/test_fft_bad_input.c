/*
 * test_fft_bad_input.c - p3dfft_overlap refuses bad input with a clear code and
 * message, on every rank, without crashing or hanging; and a good plan
 * still works afterwards.
 *
 * Cases: zero / negative sizes, nv < 1, unknown enums, NULL pointers,
 * MPI_COMM_NULL, options.device without a GPU, a grid that does not make
 * P, more processes than the pencils allow (P >= 2), ranks that disagree
 * on the arguments (P >= 2), execute / query / destroy on invalid plans,
 * compression options where they cannot run (P3O_ERR_CODEC) and the
 * compression queries, and the error strings.
 */
#include <fftw3.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fft_reference.h"

static int rank, nprocs, failures;

/* Every rank must get `want`; a rank that got it prints the message. */
static void expect(const char *what, int got, int want)
{
    int lo, hi;
    MPI_Allreduce(&got, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&got, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int ok = lo == want && hi == want && (want == P3O_SUCCESS || p3o_last_error()[0] != 0);
    failures += !ok;
    if (rank == 0)
        printf("%-4s %-52s -> %3d %s: %s\n", ok ? "ok" : "FAIL", what, got, p3o_strerror(got),
               want == P3O_SUCCESS ? "" : p3o_last_error());
    if (!ok && rank == 0)
        printf("     expected %d (%s) on every rank, got min %d max %d\n", want,
               p3o_strerror(want), lo, hi);
}

static int create(int nx, int ny, int nz, int nv, int prec, int mode, const p3o_options_t *o,
                  p3o_plan_t *plan)
{
    p3o_plan_t dummy = NULL;
    int rc = p3o_plan_create(MPI_COMM_WORLD, nx, ny, nz, nv, (p3o_precision_t)prec,
                             (p3o_mode_t)mode, o, plan ? plan : &dummy);
    if (!plan && dummy)
        p3o_plan_destroy(&dummy);
    return rc;
}

static void creation_cases(void)
{
    p3o_options_t o;
    p3o_options_init(&o);
    o.planner = P3O_PLANNER_ESTIMATE;
    const int D = P3O_DOUBLE, B = P3O_BLOCKING;

    expect("nx = 0", create(0, 8, 8, 1, D, B, &o, NULL), P3O_ERR_SIZE);
    expect("ny = -4", create(8, -4, 8, 1, D, B, &o, NULL), P3O_ERR_SIZE);
    expect("nz = 0", create(8, 8, 0, 1, D, B, &o, NULL), P3O_ERR_SIZE);
    expect("nv = 0", create(8, 8, 8, 0, D, B, &o, NULL), P3O_ERR_NV);
    expect("nv = -3", create(8, 8, 8, -3, D, B, &o, NULL), P3O_ERR_NV);
    expect("precision = 7", create(8, 8, 8, 1, 7, B, &o, NULL), P3O_ERR_ARG);
    expect("mode = 9", create(8, 8, 8, 1, D, 9, &o, NULL), P3O_ERR_ARG);
    expect("mode = -1", create(8, 8, 8, 1, D, -1, &o, NULL), P3O_ERR_ARG);
    p3o_plan_t *null_plan = NULL;
    expect("plan pointer NULL",
           p3o_plan_create(MPI_COMM_WORLD, 8, 8, 8, 1, P3O_DOUBLE, P3O_BLOCKING, &o, null_plan),
           P3O_ERR_ARG);
    p3o_plan_t plan = (p3o_plan_t)&o; /* must be reset to NULL on failure */
    int rc = p3o_plan_create(MPI_COMM_NULL, 8, 8, 8, 1, P3O_DOUBLE, P3O_BLOCKING, &o, &plan);
    expect("comm = MPI_COMM_NULL", rc, P3O_ERR_COMM);
    expect("failed create leaves *plan NULL", plan == NULL ? P3O_SUCCESS : P3O_ERR_ARG,
           P3O_SUCCESS);

    /* A GPU plan where libnbo finds no usable GPU (a build without CUDA, or
     * no GPU, as on the CI machines) is refused with P3O_ERR_CUDA. */
    p3o_options_t dev = o;
    dev.device = 1;
    const int have_gpu = nbo_cuda_available(NULL, 0) == NBO_SUCCESS;
    expect(have_gpu ? "options.device = 1 (a GPU here)" : "options.device = 1 without a GPU",
           create(8, 8, 8, 1, D, B, &dev, NULL), have_gpu ? P3O_SUCCESS : P3O_ERR_CUDA);

    p3o_options_t g = o;
    g.row = nprocs + 1, g.col = 1;
    expect("options grid (P+1) x 1", create(8, 8, 8, 1, D, B, &g, NULL), P3O_ERR_GRID);
    g.row = 1, g.col = 0;
    expect("options grid 1 x 0", create(8, 8, 8, 1, D, B, &g, NULL), P3O_ERR_GRID);
    g.row = -1, g.col = -nprocs;
    expect("options grid -1 x -P", create(8, 8, 8, 1, D, B, &g, NULL), P3O_ERR_GRID);

    if (nprocs >= 2) {
        expect("8 x 1 x 1 on P >= 2 ranks", create(8, 1, 1, 1, D, B, &o, NULL),
               P3O_ERR_TOO_MANY_PROCS);
        g.row = 1, g.col = nprocs;
        expect("grid 1 x P with nz = 1", create(8, 8, 1, 1, D, B, &g, NULL),
               P3O_ERR_TOO_MANY_PROCS);
        g.row = nprocs, g.col = 1;
        expect("grid P x 1 with nx/2+1 = 1 (nx = 1)", create(1, 8, 8, 1, D, B, &g, NULL),
               P3O_ERR_TOO_MANY_PROCS);

        expect("mismatched nx (16 + rank)", create(16 + rank, 8, 8, 1, D, B, &o, NULL),
               P3O_ERR_MISMATCH);
        expect("mismatched nv (1 + rank)", create(16, 8, 8, 1 + rank, D, B, &o, NULL),
               P3O_ERR_MISMATCH);
        expect("mismatched mode", create(16, 8, 8, 1, D, rank % 2, &o, NULL), P3O_ERR_MISMATCH);
        expect("mismatched precision", create(16, 8, 8, 1, rank % 2, B, &o, NULL),
               P3O_ERR_MISMATCH);
        expect("nx = 0 on rank 0 only (agreed)", create(rank ? 16 : 0, 8, 8, 1, D, B, &o, NULL),
               P3O_ERR_SIZE);
        p3o_options_t m = o;
        m.planner = rank % 2 ? P3O_PLANNER_ESTIMATE : P3O_PLANNER_MEASURE;
        expect("mismatched planner option", create(16, 8, 8, 1, D, B, &m, NULL),
               P3O_ERR_MISMATCH);
    }
}

/* Compression (options.codec) only where libnbo does the exchanges. */
static void codec_cases(void)
{
    p3o_options_t o;
    p3o_options_init(&o);
    o.planner = P3O_PLANNER_ESTIMATE;
    const int D = P3O_DOUBLE, N = P3O_PIPELINED_NBO;
    expect("default options: codec none", o.codec == NBO_CODEC_NONE && o.codec_rate == 0 &&
                                              o.compress_row == 0 ? 0 : -1, 0);
    p3o_options_t c = o;
    c.codec = NBO_CODEC_FP32;
    expect("codec fp32 with mode blocking", create(8, 8, 8, 1, D, P3O_BLOCKING, &c, NULL),
           P3O_ERR_CODEC);
    expect("codec fp32 with mode pipelined_mpi", create(8, 8, 8, 1, D, P3O_PIPELINED_MPI, &c, NULL),
           P3O_ERR_CODEC);
    c.device = 1;
    expect("codec fp32 on a GPU plan (options.device = 1)", create(8, 8, 8, 1, D, N, &c, NULL),
           P3O_ERR_CODEC);
    c = o;
    c.codec = (nbo_codec_t)7;
    expect("options codec = 7", create(8, 8, 8, 1, D, N, &c, NULL), P3O_ERR_ARG);
    c = o;
    c.codec = NBO_CODEC_FP32;
    c.compress_row = 2;
    expect("options compress_row = 2", create(8, 8, 8, 1, D, N, &c, NULL), P3O_ERR_ARG);
    const int have_zfp = nbo_codec_available(NBO_CODEC_ZFP, NULL, 0) == NBO_SUCCESS;
    c = o;
    c.codec = NBO_CODEC_ZFP;
    c.codec_rate = 65;
    expect("codec zfp, rate 65", create(8, 8, 8, 1, D, N, &c, NULL), P3O_ERR_CODEC);
    c.codec_rate = -1;
    expect("codec zfp, rate -1", create(8, 8, 8, 1, D, N, &c, NULL), P3O_ERR_CODEC);
    c.codec_rate = 16;
    expect(have_zfp ? "codec zfp (built here)" : "codec zfp in a libnbo without zfp",
           create(8, 8, 8, 1, D, N, &c, NULL), have_zfp ? P3O_SUCCESS : P3O_ERR_CODEC);
    if (have_zfp && nprocs >= 2) {
        /* zfp refuses a block holding NaN (libnbo: NBO_ERR_CODEC from the
         * wait): the transform fails with P3O_ERR_NBO on the ranks that
         * meet it, completes its other exchanges, and the plan still works. */
        p3o_plan_t zp;
        int rc = create(8, 8, 8, 2, D, N, &c, &zp);
        expect("zfp plan for the NaN case", rc, P3O_SUCCESS);
        if (rc == P3O_SUCCESS) {
            p3o_local_t l;
            p3o_local_sizes(zp, &l);
            void *x = fft_alloc_real(&l), *X = fft_alloc_complex(&l);
            fft_fill(&l, x, fft_sine);
            ((double *)x)[0] = NAN;
            rc = p3o_forward(zp, x, X);
            int any, all;
            MPI_Allreduce(&rc, &any, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
            MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
            expect("zfp: forward of a field with a NaN fails on some rank",
                   any == P3O_ERR_NBO && (all == P3O_SUCCESS || all == P3O_ERR_NBO) ? 0 : -1, 0);
            fft_fill(&l, x, fft_sine);
            expect("zfp plan works again after the NaN", p3o_forward(zp, x, X), P3O_SUCCESS);
            fftw_free(x);
            fftw_free(X);
            p3o_plan_destroy(&zp);
        }
    }
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    cfg.codec = NBO_CODEC_FP32;
    c = o;
    c.nbo_config = &cfg;
    expect("options nbo_config codec fp32, options codec none", create(8, 8, 8, 1, D, N, &c, NULL),
           P3O_ERR_CODEC);
    if (nprocs >= 2) {
        c = o;
        c.codec = rank % 2 ? NBO_CODEC_FP32 : NBO_CODEC_NONE;
        expect("mismatched codec", create(16, 8, 8, 1, D, N, &c, NULL), P3O_ERR_MISMATCH);
        c.codec = NBO_CODEC_FP32;
        c.compress_row = rank % 2;
        expect("mismatched compress_row", create(16, 8, 8, 1, D, N, &c, NULL), P3O_ERR_MISMATCH);
    }

    /* The queries. */
    p3o_compression_t q;
    char text[256];
    expect("p3o_compression(NULL plan)", p3o_compression(NULL, &q), P3O_ERR_PLAN);
    expect("p3o_plan_describe(NULL plan)", p3o_plan_describe(NULL, text, sizeof(text)),
           P3O_ERR_PLAN);
    p3o_plan_t plan;
    int rc = create(16, 8, 8, 2, D, P3O_BLOCKING, &o, &plan);
    expect("exact plan for the queries", rc, P3O_SUCCESS);
    if (rc != P3O_SUCCESS)
        return;
    expect("p3o_compression(compression = NULL)", p3o_compression(plan, NULL), P3O_ERR_ARG);
    expect("p3o_plan_describe(buf = NULL)", p3o_plan_describe(plan, NULL, 8), P3O_ERR_ARG);
    rc = p3o_compression(plan, &q);
    expect("exact plan: codec none, k = 0, bounds 0, wire = raw",
           rc == P3O_SUCCESS && q.codec == NBO_CODEC_NONE && q.exchanges == 0 &&
                   q.forward_bound == 0 && q.roundtrip_bound == 0 && q.wire_bytes == q.raw_bytes &&
                   (nprocs == 1) == (q.raw_bytes == 0) ? 0 : -1, 0);
    text[0] = 'x';
    rc = p3o_plan_describe(plan, text, 1);
    expect("p3o_plan_describe(len = 1) gives \"\"", rc == P3O_SUCCESS && text[0] == 0 ? 0 : -1, 0);
    rc = p3o_plan_describe(plan, text, sizeof(text));
    expect("p3o_plan_describe names mode and exactness",
           rc == P3O_SUCCESS && strstr(text, "blocking") && strstr(text, "exchanges exact") ? 0 : -1,
           0);
    p3o_plan_destroy(&plan);
}

static void execution_cases(void)
{
    double in[64], out[64];
    memset(in, 0, sizeof(in));
    p3o_local_t l;
    p3o_timers_t t;
    expect("p3o_forward(NULL plan)", p3o_forward(NULL, in, out), P3O_ERR_PLAN);
    expect("p3o_backward(NULL plan)", p3o_backward(NULL, in, out), P3O_ERR_PLAN);
    p3o_plan_t bogus = (p3o_plan_t)in; /* not a plan: the magic does not match */
    expect("p3o_forward(bogus plan)", p3o_forward(bogus, in, out), P3O_ERR_PLAN);
    expect("p3o_roundtrip(NULL plan)", p3o_roundtrip(NULL, in, out, in, NULL, NULL),
           P3O_ERR_PLAN);
    expect("p3o_local_sizes(NULL plan)", p3o_local_sizes(NULL, &l), P3O_ERR_PLAN);
    expect("p3o_timers(NULL plan)", p3o_timers(NULL, &t), P3O_ERR_PLAN);
    p3o_plan_t none = NULL;
    expect("p3o_plan_destroy(&NULL)", p3o_plan_destroy(&none), P3O_SUCCESS);
    expect("p3o_plan_destroy(NULL)", p3o_plan_destroy(NULL), P3O_SUCCESS);

    /* A good plan after all of the above, used wrongly, then rightly. */
    p3o_options_t o;
    p3o_options_init(&o);
    o.planner = P3O_PLANNER_ESTIMATE;
    p3o_plan_t plan;
    int rc = p3o_plan_create(MPI_COMM_WORLD, 8, 6, 6, 2, P3O_DOUBLE, P3O_PIPELINED_MPI, &o, &plan);
    expect("good plan after bad ones", rc, P3O_SUCCESS);
    if (rc != P3O_SUCCESS)
        return;
    p3o_local_sizes(plan, &l);
    expect("p3o_forward(in = NULL)", p3o_forward(plan, NULL, out), P3O_ERR_ARG);
    expect("p3o_backward(out = NULL)", p3o_backward(plan, in, NULL), P3O_ERR_ARG);
    expect("p3o_roundtrip(in = NULL)", p3o_roundtrip(plan, NULL, out, in, NULL, NULL),
           P3O_ERR_ARG);
    expect("p3o_roundtrip(spec = NULL)", p3o_roundtrip(plan, in, NULL, in, NULL, NULL),
           P3O_ERR_ARG);
    expect("p3o_roundtrip(out = NULL)", p3o_roundtrip(plan, in, out, NULL, NULL, NULL),
           P3O_ERR_ARG);
    expect("p3o_local_sizes(local = NULL)", p3o_local_sizes(plan, NULL), P3O_ERR_ARG);
    expect("p3o_timers(timers = NULL)", p3o_timers(plan, NULL), P3O_ERR_ARG);

    void *x = fft_alloc_real(&l), *c = fft_alloc_complex(&l);
    fft_fill(&l, x, fft_sine);
    rc = p3o_forward(plan, x, c);
    fft_complex_scale(&l, c, 1.0 / (8 * 6 * 6));
    if (rc == P3O_SUCCESS)
        rc = p3o_backward(plan, c, x);
    double err = fft_roundtrip_error(&l, x, fft_sine), all;
    MPI_Allreduce(&err, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    expect("round trip on the good plan", rc == P3O_SUCCESS && all <= 1e-12 ? 0 : -1, 0);
    fftw_free(x);
    fftw_free(c);
    expect("p3o_plan_destroy(good plan)", p3o_plan_destroy(&plan), P3O_SUCCESS);
    expect("destroyed plan handle is NULL", plan == NULL ? 0 : -1, 0);
}

static void name_cases(void)
{
    /* Every code has its own non-empty message; unknown codes say so. */
    int ok = 1;
    for (int a = P3O_ERR_CODEC; a <= 0; a++) {
        const char *m = p3o_strerror(a);
        ok &= m && *m && strcmp(m, "unknown error") != 0;
        for (int b = P3O_ERR_CODEC; b < a; b++)
            ok &= strcmp(m, p3o_strerror(b)) != 0;
    }
    ok &= strcmp(p3o_strerror(-999), "unknown error") == 0;
    p3o_mode_t mode;
    p3o_precision_t prec;
    ok &= p3o_mode_from_name("bogus", &mode) == P3O_ERR_ARG;
    ok &= p3o_precision_from_name("quad", &prec) == P3O_ERR_ARG;
    ok &= p3o_mode_from_name("pipelined_nbo", &mode) == P3O_SUCCESS && mode == P3O_PIPELINED_NBO;
    ok &= strcmp(p3o_mode_name((p3o_mode_t)42), "unknown") == 0;
    expect("error strings and names", ok ? 0 : -1, 0);
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    creation_cases();
    codec_cases();
    execution_cases();
    name_cases();
    if (rank == 0)
        printf("test_fft_bad_input P=%d: %d failure(s)\n", nprocs, failures);
    MPI_Finalize();
    return failures ? 1 : 0;
}
