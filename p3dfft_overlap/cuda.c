/*
 * cuda.c - the GPU path of p3dfft_overlap (options.device = 1): device
 * buffers, cuFFT plans, the box kernel's launches, and the staging of the
 * MPI exchanges through pinned host mirrors.  Plain C on the CUDA runtime
 * and cuFFT; the kernel itself is in cuda_kernels.cu.
 *
 * Everything of one plan runs in order on one CUDA stream (p->stream); the
 * stage timers synchronise it, so they measure the GPU work, not its launch.
 * MPICH is not CUDA-aware, so MPI_Alltoallv / MPI_Ialltoallv run on host
 * mirrors of the exchange buffers; PIPELINED_NBO hands the device buffers
 * to libnbo, which stages (and pipelines) them itself.
 *
 * A build without CUDA (P3O_HAVE_CUDA 0) keeps the same functions as
 * refusals: p3o_plan_create answers options.device with P3O_ERR_CUDA
 * ("built without CUDA"), as it does on a machine without a GPU
 * (tests/fft/test_fft_bad_input.c).
 */
#include <stdio.h>
#include <string.h>

#include "p3o_internal.h"

#if P3O_HAVE_CUDA

#include <cuda_runtime_api.h>
#include <cufft.h>

int p3o_cuda_move_box(void *dst, const void *src, const size_t n[3], const size_t dst_stride[3],
                      const size_t src_stride[3], size_t es, void *stream);

static int cuda_fail(const char *what, cudaError_t e)
{
    cudaGetLastError();
    return p3o_fail(P3O_ERR_CUDA, "%s: %s", what, cudaGetErrorString(e));
}
#define CU(what, call)                                                     \
    do {                                                                   \
        cudaError_t e_ = (call);                                           \
        if (e_ != cudaSuccess)                                             \
            return cuda_fail(what, e_);                                    \
    } while (0)

int p3o_cuda_probe(void)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return p3o_fail(P3O_ERR_CUDA, "no CUDA GPU (%s)", cudaGetErrorString(e));
    }
    if (n == 0)
        return p3o_fail(P3O_ERR_CUDA, "no CUDA GPU (cudaGetDeviceCount found 0 devices)");
    return P3O_SUCCESS;
}

int p3o_cuda_is_device(const void *ptr)
{
    struct cudaPointerAttributes a;
    memset(&a, 0, sizeof(a));
    if (cudaPointerGetAttributes(&a, ptr) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged;
}

int p3o_cuda_setup(struct p3o_plan *p)
{
    cudaStream_t s;
    CU("cudaStreamCreate", cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    p->stream = s;
    return P3O_SUCCESS;
}

void p3o_cuda_teardown(struct p3o_plan *p)
{
    if (p->stream) {
        cudaStreamSynchronize(p->stream);
        cudaStreamDestroy(p->stream);
    }
    p->stream = NULL;
    cudaGetLastError();
}

void *p3o_cuda_alloc(size_t bytes, int pinned_host)
{
    void *ptr = NULL;
    cudaError_t e = pinned_host ? cudaHostAlloc(&ptr, bytes ? bytes : 16, cudaHostAllocPortable)
                                : cudaMalloc(&ptr, bytes ? bytes : 16);
    if (e != cudaSuccess) {
        cudaGetLastError();
        return NULL;
    }
    return ptr;
}

void p3o_cuda_free(void *ptr, int pinned_host)
{
    if (!ptr)
        return;
    if (pinned_host)
        cudaFreeHost(ptr);
    else
        cudaFree(ptr);
}

int p3o_cuda_sync(struct p3o_plan *p)
{
    CU("cudaStreamSynchronize", cudaStreamSynchronize(p->stream));
    return P3O_SUCCESS;
}

int p3o_cuda_copy(struct p3o_plan *p, void *dst, const void *src, size_t bytes)
{
    if (bytes == 0)
        return P3O_SUCCESS;
    CU("cudaMemcpyAsync", cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, p->stream));
    return P3O_SUCCESS;
}

int p3o_cuda_box(struct p3o_plan *p, void *dst, const void *src, const size_t n[3],
                 const size_t dst_stride[3], const size_t src_stride[3])
{
    int e = p3o_cuda_move_box(dst, src, n, dst_stride, src_stride, p->es, p->stream);
    return e == cudaSuccess ? P3O_SUCCESS : cuda_fail("the box kernel", (cudaError_t)e);
}

/* ------------------------------------------------------------- cuFFT */

static const char *cufft_name(cufftResult r)
{
    switch (r) {
    case CUFFT_SUCCESS:        return "success";
    case CUFFT_INVALID_PLAN:   return "invalid plan";
    case CUFFT_ALLOC_FAILED:   return "allocation failed";
    case CUFFT_INVALID_VALUE:  return "invalid value";
    case CUFFT_INTERNAL_ERROR: return "internal error";
    case CUFFT_EXEC_FAILED:    return "execution failed";
    case CUFFT_SETUP_FAILED:   return "setup failed";
    case CUFFT_INVALID_SIZE:   return "invalid size";
    default:                   return "error";
    }
}

static cufftType cufft_type(p3o_fft_kind_t kind, p3o_precision_t prec)
{
    const int dbl = prec == P3O_DOUBLE;
    switch (kind) {
    case P3O_FFT_R2C: return dbl ? CUFFT_D2Z : CUFFT_R2C;
    case P3O_FFT_C2R: return dbl ? CUFFT_Z2D : CUFFT_C2R;
    default:          return dbl ? CUFFT_Z2Z : CUFFT_C2C;
    }
}

/* howmany contiguous lines of n points, as the FFTW plans (fft1d.c). */
int p3o_cufft_plan(struct p3o_plan *p, p3o_fft_t *f, p3o_fft_kind_t kind, int n, int howmany,
                   int in_place)
{
    memset(f, 0, sizeof(*f));
    f->kind = kind;
    f->prec = p->prec;
    f->n = n;
    f->howmany = howmany;
    f->in_place = in_place;
    f->gpu = 1;
    const int nh = n / 2 + 1;
    const int idist = kind == P3O_FFT_C2R ? nh : n, odist = kind == P3O_FFT_R2C ? nh : n;
    cufftHandle h;
    int len = n;
    cufftResult r = cufftPlanMany(&h, 1, &len, NULL, 1, idist, NULL, 1, odist,
                                  cufft_type(kind, p->prec), howmany);
    if (r != CUFFT_SUCCESS)
        return p3o_fail(P3O_ERR_CUDA, "cufftPlanMany (%d lines of %d points): %s", howmany, n,
                        cufft_name(r));
    f->cuplan = (int)h;
    f->have_cuplan = 1;
    r = cufftSetStream(h, (cudaStream_t)p->stream);
    if (r != CUFFT_SUCCESS)
        return p3o_fail(P3O_ERR_CUDA, "cufftSetStream: %s", cufft_name(r));
    return P3O_SUCCESS;
}

/* cuFFT's out-of-place r2c and c2c keep their input; c2r (fx_bwd) reads
 * only the plan's own buffer xc, so the user's input is never modified. */
int p3o_cufft_exec(p3o_fft_t *f, const void *in, void *out)
{
    cufftHandle h = (cufftHandle)f->cuplan;
    void *src = (void *)in;
    const int fwd = f->kind == P3O_FFT_C2C_FWD ? CUFFT_FORWARD : CUFFT_INVERSE;
    cufftResult r;
    if (f->prec == P3O_DOUBLE) {
        switch (f->kind) {
        case P3O_FFT_R2C: r = cufftExecD2Z(h, src, out); break;
        case P3O_FFT_C2R: r = cufftExecZ2D(h, src, out); break;
        default:          r = cufftExecZ2Z(h, src, out, fwd); break;
        }
    } else {
        switch (f->kind) {
        case P3O_FFT_R2C: r = cufftExecR2C(h, src, out); break;
        case P3O_FFT_C2R: r = cufftExecC2R(h, src, out); break;
        default:          r = cufftExecC2C(h, src, out, fwd); break;
        }
    }
    return r == CUFFT_SUCCESS ? P3O_SUCCESS
                              : p3o_fail(P3O_ERR_CUDA, "cuFFT execution: %s", cufft_name(r));
}

void p3o_cufft_destroy(p3o_fft_t *f)
{
    if (f->have_cuplan)
        cufftDestroy((cufftHandle)f->cuplan);
    f->have_cuplan = 0;
}

#else /* !P3O_HAVE_CUDA */

int p3o_cuda_probe(void)
{
    return p3o_fail(P3O_ERR_CUDA, "p3dfft_overlap was built without CUDA (meson -Dcuda)");
}
int p3o_cuda_is_device(const void *ptr) { (void)ptr; return 0; }
int p3o_cuda_setup(struct p3o_plan *p) { (void)p; return p3o_cuda_probe(); }
void p3o_cuda_teardown(struct p3o_plan *p) { (void)p; }
void *p3o_cuda_alloc(size_t bytes, int pinned_host) { (void)bytes, (void)pinned_host; return NULL; }
void p3o_cuda_free(void *ptr, int pinned_host) { (void)ptr, (void)pinned_host; }
int p3o_cuda_sync(struct p3o_plan *p) { (void)p; return P3O_SUCCESS; }
int p3o_cuda_copy(struct p3o_plan *p, void *dst, const void *src, size_t bytes)
{
    (void)p, (void)dst, (void)src, (void)bytes;
    return p3o_cuda_probe();
}
int p3o_cuda_box(struct p3o_plan *p, void *dst, const void *src, const size_t n[3],
                 const size_t dst_stride[3], const size_t src_stride[3])
{
    (void)p, (void)dst, (void)src, (void)n, (void)dst_stride, (void)src_stride;
    return p3o_cuda_probe();
}
int p3o_cufft_plan(struct p3o_plan *p, p3o_fft_t *f, p3o_fft_kind_t kind, int n, int howmany,
                   int in_place)
{
    (void)p, (void)f, (void)kind, (void)n, (void)howmany, (void)in_place;
    return p3o_cuda_probe();
}
int p3o_cufft_exec(p3o_fft_t *f, const void *in, void *out)
{
    (void)f, (void)in, (void)out;
    return p3o_cuda_probe();
}
void p3o_cufft_destroy(p3o_fft_t *f) { (void)f; }

#endif
