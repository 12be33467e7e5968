/*
 * p3o_cuda_bench - the GPU pencil FFT (options.device = 1, cuFFT) against
 * the CPU one (FFTW), same grid, modes and variables: time per
 * forward + backward pair and the stage timers of each.  gpu-bench.sh runs
 * it; figures in docs/cuda.md.
 *
 *   mpiexec -n P p3o_cuda_bench [-n NX[xNYxNZ]] [-v NV] [-i ITERS]
 *       [-m blocking|pipelined_mpi|pipelined_nbo] [-p double|single]
 * Defaults: 128^3, nv 4, 5 iterations after one warm-up, pipelined_nbo,
 * double.  The CPU plan uses FFTW_MEASURE.  Rank 0 prints one line per
 * path (times are the maximum over ranks, per forward + backward pair).
 * Without a GPU it says so and exits 77.
 */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda_gpu.h"
#include "p3dfft_overlap.h"

static int rank;

static int bench(int device, int n[3], int nv, int iters, p3o_mode_t mode, p3o_precision_t prec)
{
    p3o_options_t o;
    p3o_options_init(&o);
    o.device = device;
    p3o_plan_t plan = NULL;
    int rc = p3o_plan_create(MPI_COMM_WORLD, n[0], n[1], n[2], nv, prec, mode, &o, &plan);
    if (rc != P3O_SUCCESS) {
        if (rank == 0)
            fprintf(stderr, "%s plan: %s (%s)\n", device ? "GPU" : "CPU", p3o_strerror(rc),
                    p3o_last_error());
        return 1;
    }
    p3o_local_t l;
    p3o_local_sizes(plan, &l);
    const size_t rs = prec == P3O_DOUBLE ? sizeof(double) : sizeof(float);
    const size_t rb = l.real_count * (size_t)nv * rs, cb = 2 * l.complex_count * (size_t)nv * rs;
    void *u = NULL, *U = NULL;
    if (device) {
        cudaMalloc(&u, rb);
        cudaMalloc(&U, cb);
        cudaMemset(u, 0, rb);
    } else {
        u = calloc(1, rb);
        U = malloc(cb);
    }
    for (int i = -1; i < iters && rc == P3O_SUCCESS; i++) {
        if (i == 0)
            p3o_timers_reset(plan);
        rc = p3o_forward(plan, u, U);
        if (rc == P3O_SUCCESS)
            rc = p3o_backward(plan, U, u);
    }
    p3o_timers_t t, m;
    p3o_timers(plan, &t);
    MPI_Allreduce(&t, &m, 8, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rc != P3O_SUCCESS)
        fprintf(stderr, "rank %d: %s\n", rank, p3o_last_error());
    else if (rank == 0)
        printf("%-4s %-14s %10.3f %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f\n",
               device ? "GPU" : "CPU", p3o_mode_name(mode), 1e3 * m.total / iters,
               1e3 * m.fft_x / iters, 1e3 * m.fft_y / iters, 1e3 * m.fft_z / iters,
               1e3 * m.row / iters, 1e3 * m.col_local / iters, 1e3 * m.col_comm / iters,
               1e3 * m.wait / iters);
    if (device) {
        cudaFree(u);
        cudaFree(U);
    } else {
        free(u);
        free(U);
    }
    p3o_plan_destroy(&plan);
    return rc != P3O_SUCCESS;
}

int main(int argc, char **argv)
{
    int n[3] = {128, 128, 128}, nv = 4, iters = 5, opt;
    p3o_mode_t mode = P3O_PIPELINED_NBO;
    p3o_precision_t prec = P3O_DOUBLE;
    int provided, P, bad = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    while ((opt = getopt(argc, argv, "n:v:i:m:p:h")) != -1) {
        if (opt == 'n' && sscanf(optarg, "%dx%dx%d", &n[0], &n[1], &n[2]) != 3)
            n[1] = n[2] = n[0] = atoi(optarg);
        else if (opt == 'v')
            nv = atoi(optarg);
        else if (opt == 'i')
            iters = atoi(optarg);
        else if (opt == 'm')
            bad |= p3o_mode_from_name(optarg, &mode) != P3O_SUCCESS;
        else if (opt == 'p')
            bad |= p3o_precision_from_name(optarg, &prec) != P3O_SUCCESS;
        else if (opt != 'n')
            bad = 1;
    }
    if (bad || iters < 1 || nv < 1) {
        if (rank == 0)
            printf("usage: p3o_cuda_bench [-n NX[xNYxNZ]] [-v NV] [-i ITERS] [-m MODE] [-p PREC]\n");
        MPI_Finalize();
        return 2;
    }
    if (!cuda_gpu_pick(rank, "p3o_cuda_bench: ", ": nothing measured")) {
        MPI_Finalize();
        return CUDA_GPU_SKIP;
    }
    if (rank == 0)
        printf("# p3o_cuda_bench P=%d %dx%dx%d nv=%d %s, ms per forward+backward (max over ranks)\n"
               "# path mode                total    fft_x    fft_y    fft_z      row col_local "
               "col_comm     wait\n",
               P, n[0], n[1], n[2], nv, p3o_precision_name(prec));
    bad = bench(0, n, nv, iters, mode, prec);
    bad |= bench(1, n, nv, iters, mode, prec);
    MPI_Finalize();
    return bad;
}
