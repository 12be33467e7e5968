/*
 * cuda_gpu.h - the GPU check shared by the CUDA tests and benchmarks: pick
 * this rank's GPU (rank % count, so ranks may share one), or say plainly
 * that there is none.  Header only; the program links libcudart.
 */
#ifndef NBO_CUDA_GPU_H
#define NBO_CUDA_GPU_H

#include <cuda_runtime_api.h>
#include <stdio.h>

/* Exit status for "cannot run here": meson reports SKIP, never a pass. */
#define CUDA_GPU_SKIP 77

/* Returns 1 with the rank's GPU current, or 0 after rank 0 printed
 * "<prefix>no CUDA GPU (<CUDA error>)<suffix>". */
static inline int cuda_gpu_pick(int rank, const char *prefix, const char *suffix)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e == cudaSuccess && n > 0 && cudaSetDevice(rank % n) == cudaSuccess)
        return 1;
    if (rank == 0) {
        printf("%sno CUDA GPU (%s)%s\n", prefix,
               e != cudaSuccess ? cudaGetErrorString(e) : "cudaGetDeviceCount found 0 devices",
               suffix);
        fflush(stdout);
    }
    return 0;
}

#endif
