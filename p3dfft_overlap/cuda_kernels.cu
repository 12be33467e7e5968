/*
 * cuda_kernels.cu - the one device kernel of the GPU path: move a 3-D box
 * of complex elements between two strided layouts (transpose.c's move_box,
 * on the GPU).  Compiled by nvcc into an object of libp3dfft_overlap; the
 * rest of the GPU path is plain C on the CUDA runtime and cuFFT (cuda.c).
 *
 * One thread per element, the fastest index of the destination innermost
 * so that the writes coalesce.  Not tiled through shared memory: correct
 * and simple first; on an H100 it takes 2-4 ms of a 95 ms 256^3 run
 * (docs/cuda.md), so tiling has not been worth doing yet.
 */
#include <cuda_runtime.h>
#include <stddef.h>

struct p3o_box3 {
    unsigned long long n[3], dst[3], src[3];
};

template <typename T>
__global__ void move_box_kernel(T *d, const T *s, p3o_box3 b, unsigned long long total)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
         i < total; i += (unsigned long long)gridDim.x * blockDim.x) {
        unsigned long long i2 = i % b.n[2], r = i / b.n[2];
        unsigned long long i1 = r % b.n[1], i0 = r / b.n[1];
        d[i0 * b.dst[0] + i1 * b.dst[1] + i2 * b.dst[2]] =
            s[i0 * b.src[0] + i1 * b.src[1] + i2 * b.src[2]];
    }
}

/* Launch on stream; es is 8 (single complex) or 16 (double complex).
 * Returns a cudaError_t as int. */
extern "C" int p3o_cuda_move_box(void *dst, const void *src, const size_t n[3],
                                 const size_t dst_stride[3], const size_t src_stride[3],
                                 size_t es, void *stream)
{
    p3o_box3 b;
    for (int k = 0; k < 3; k++) {
        b.n[k] = n[k];
        b.dst[k] = dst_stride[k];
        b.src[k] = src_stride[k];
    }
    unsigned long long total = b.n[0] * b.n[1] * b.n[2];
    if (total == 0)
        return (int)cudaSuccess;
    const unsigned threads = 256;
    unsigned long long blocks = (total + threads - 1) / threads;
    if (blocks > 65535ull * 16)
        blocks = 65535ull * 16; /* grid-stride loop covers the rest */
    cudaStream_t st = (cudaStream_t)stream;
    if (es == 16)
        move_box_kernel<double2><<<(unsigned)blocks, threads, 0, st>>>(
            (double2 *)dst, (const double2 *)src, b, total);
    else
        move_box_kernel<float2><<<(unsigned)blocks, threads, 0, st>>>(
            (float2 *)dst, (const float2 *)src, b, total);
    return (int)cudaGetLastError();
}
