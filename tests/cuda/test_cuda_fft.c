/*
 * test_cuda_fft - the GPU path of p3dfft_overlap (options.device = 1, cuFFT)
 * against the CPU path (FFTW) on the same input: forward and backward, in
 * every mode and both precisions, nv = 3 variables, within rounding.  Also
 * checks that the device input is not modified.  Ranks may share a GPU.
 *
 * Without a usable GPU it prints "skipped: no CUDA GPU (<CUDA error>)" and
 * exits 77 (meson SKIP).
 */
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_gpu.h"
#include "p3dfft_overlap.h"

static int rank, failures;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    failures++;
    fprintf(stderr, "[rank %d] FAIL: ", rank);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
}

#define P3O(call, what)                                                                  \
    do {                                                                                 \
        int rc_ = (call);                                                                \
        if (rc_ != P3O_SUCCESS) {                                                        \
            failures++;                                                                  \
            fprintf(stderr, "[rank %d] FAIL: %s: %s (%s)\n", rank, what,                 \
                    p3o_strerror(rc_), p3o_last_error());                                \
        }                                                                                \
    } while (0)

/* max |a - b| / max |b| over n reals of the precision. */
static double rel_diff(const void *a, const void *b, size_t n, int dbl)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {
        double x = dbl ? ((const double *)a)[i] : ((const float *)a)[i];
        double y = dbl ? ((const double *)b)[i] : ((const float *)b)[i];
        num = fmax(num, fabs(x - y));
        den = fmax(den, fabs(y));
    }
    return den > 0 ? num / den : num;
}

static void count_op(void *spectrum, int v, void *arg)
{
    (void)spectrum;
    (void)v;
    ++*(int *)arg;
}

static void one(p3o_precision_t prec, p3o_mode_t mode)
{
    const int nx = 16, ny = 12, nz = 10, nv = 3, dbl = prec == P3O_DOUBLE;
    const size_t rs = dbl ? sizeof(double) : sizeof(float);
    const double tol = dbl ? 1e-12 : 2e-5;
    p3o_options_t o;
    p3o_options_init(&o);
    o.planner = P3O_PLANNER_ESTIMATE;
    p3o_plan_t cpu = NULL, gpu = NULL;
    P3O(p3o_plan_create(MPI_COMM_WORLD, nx, ny, nz, nv, prec, mode, &o, &cpu), "CPU plan");
    o.device = 1;
    P3O(p3o_plan_create(MPI_COMM_WORLD, nx, ny, nz, nv, prec, mode, &o, &gpu), "GPU plan");
    if (!cpu || !gpu) {
        p3o_plan_destroy(&cpu);
        p3o_plan_destroy(&gpu);
        return;
    }
    p3o_local_t l;
    p3o_local_sizes(gpu, &l);
    const size_t nr = l.real_count * (size_t)nv, nc = 2 * l.complex_count * (size_t)nv;
    char *u = malloc(nr * rs), *U = malloc(nc * rs), *Ug = malloc(nc * rs);
    char *ub = malloc(nr * rs), *ubg = malloc(nr * rs), *u_after = malloc(nr * rs);
    for (int v = 0; v < nv; v++)
        for (int z = 0; z < l.xsize[2]; z++)
            for (int y = 0; y < l.xsize[1]; y++)
                for (int x = 0; x < nx; x++) {
                    size_t i = (size_t)v * l.real_count + ((size_t)z * l.xsize[1] + y) * nx + x;
                    double val = sin(0.3 * x + 0.7 * (y + l.xstart[1]) + 1.1 * (z + l.xstart[2]) +
                                     v) + 0.01 * ((x * 7 + y * 3 + z) % 5);
                    if (dbl)
                        ((double *)u)[i] = val;
                    else
                        ((float *)u)[i] = (float)val;
                }
    void *du = NULL, *dU = NULL;
    cudaMalloc(&du, nr * rs);
    cudaMalloc(&dU, nc * rs);
    cudaMemcpy(du, u, nr * rs, cudaMemcpyHostToDevice);
    P3O(p3o_forward(cpu, u, U), "CPU forward");
    P3O(p3o_forward(gpu, du, dU), "GPU forward");
    cudaMemcpy(Ug, dU, nc * rs, cudaMemcpyDeviceToHost);
    cudaMemcpy(u_after, du, nr * rs, cudaMemcpyDeviceToHost);
    const char *pn = p3o_precision_name(prec), *mn = p3o_mode_name(mode);
    double d = rel_diff(Ug, U, nc, dbl);
    if (!(d <= tol))
        fail("%s %s forward: GPU differs from CPU by %g (tolerance %g)", pn, mn, d, tol);
    if (memcmp(u_after, u, nr * rs) != 0)
        fail("%s %s forward: the device input was modified", pn, mn);
    /* Backward from the CPU's spectrum on both. */
    cudaMemcpy(dU, U, nc * rs, cudaMemcpyHostToDevice);
    P3O(p3o_backward(cpu, U, ub), "CPU backward");
    P3O(p3o_backward(gpu, dU, du), "GPU backward");
    cudaMemcpy(ubg, du, nr * rs, cudaMemcpyDeviceToHost);
    d = rel_diff(ubg, ub, nr, dbl);
    if (!(d <= tol))
        fail("%s %s backward: GPU differs from CPU by %g (tolerance %g)", pn, mn, d, tol);
    /* p3o_roundtrip, in place on the device; its op only counts here (it
     * gets device memory). */
    int calls_cpu = 0, calls_gpu = 0;
    cudaMemcpy(du, u, nr * rs, cudaMemcpyHostToDevice);
    P3O(p3o_roundtrip(cpu, u, U, ub, count_op, &calls_cpu), "CPU roundtrip");
    P3O(p3o_roundtrip(gpu, du, dU, du, count_op, &calls_gpu), "GPU roundtrip");
    cudaMemcpy(ubg, du, nr * rs, cudaMemcpyDeviceToHost);
    d = rel_diff(ubg, ub, nr, dbl);
    if (!(d <= tol))
        fail("%s %s roundtrip: GPU differs from CPU by %g (tolerance %g)", pn, mn, d, tol);
    if (calls_cpu != nv || calls_gpu != nv)
        fail("%s %s roundtrip: op called %d (CPU) and %d (GPU) times, not %d", pn, mn, calls_cpu,
             calls_gpu, nv);
    /* A host pointer given to a device plan is refused, not dereferenced. */
    if (p3o_forward(gpu, u, dU) != P3O_ERR_ARG)
        fail("%s %s: a host input to a device plan was not refused", pn, mn);
    cudaFree(du);
    cudaFree(dU);
    free(u), free(U), free(Ug), free(ub), free(ubg), free(u_after);
    P3O(p3o_plan_destroy(&cpu), "destroy");
    P3O(p3o_plan_destroy(&gpu), "destroy");
}

int main(int argc, char **argv)
{
    int provided, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!cuda_gpu_pick(rank, "skipped: ", "")) {
        MPI_Finalize();
        return CUDA_GPU_SKIP;
    }
    for (int prec = 0; prec < 2; prec++)
        for (int mode = 0; mode < 3; mode++)
            one((p3o_precision_t)prec, (p3o_mode_t)mode);
    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_cuda_fft P=%d: %s (%d failures)\n", size, all ? "FAIL" : "PASS", all);
    MPI_Finalize();
    return all ? 1 : 0;
}
