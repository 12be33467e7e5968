/*
 * nbo_cuda_chunk - the chunk-size sweep of the staging pipeline: a
 * persistent all-to-all on device buffers, timed for each NBO_CUDA_CHUNK
 * in a list, next to the same all-to-all on host buffers: the measurement
 * behind the default (docs/cuda.md).  gpu-bench.sh runs it with the sizes
 * interleaved and repeated.
 *
 *   mpiexec -n P nbo_cuda_chunk [-b BYTES_PER_PEER] [-i ITERS] [-c LIST]
 *     -b  bytes per peer (default 4194304)
 *     -i  timed iterations per point (default 20, after 3 warm-ups)
 *     -c  comma-separated chunk sizes in bytes (default 65536,...,16777216)
 * Engine and progress mode from NBO_ENGINE / NBO_PROGRESS.  Rank 0 prints
 * one line per chunk: median and best time per all-to-all, and the
 * bandwidth per rank (bytes sent to other ranks / median).  Without a GPU
 * it says so and exits 77.
 */
#include <cuda_runtime_api.h>
#include <nbo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda_gpu.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median and best of iters timed runs of one persistent request. */
static int run(nbo_request_t *req, int iters, double *med, double *best)
{
    double *t = malloc((size_t)iters * sizeof(double));
    int rc = NBO_SUCCESS;
    for (int i = -3; i < iters && rc == NBO_SUCCESS; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        rc = nbo_start(req);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(req);
        double dt = MPI_Wtime() - t0, worst = dt;
        MPI_Allreduce(&dt, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        if (i >= 0)
            t[i] = worst;
    }
    qsort(t, (size_t)iters, sizeof(double), cmp);
    *med = t[iters / 2];
    *best = t[0];
    free(t);
    return rc;
}

static int sweep_point(size_t chunk, size_t B, int iters, void *sb, void *rb, int rank, int P,
                       const char *label)
{
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    int rc = nbo_config_from_env(&cfg);
    if (chunk)
        cfg.cuda_chunk = chunk;
    nbo_comm_t comm = NBO_COMM_NULL;
    nbo_request_t req = NBO_REQUEST_NULL;
    if (rc == NBO_SUCCESS)
        rc = nbo_comm_create(MPI_COMM_WORLD, &cfg, &comm);
    if (rc == NBO_SUCCESS)
        rc = nbo_alltoall_init(sb, (int)B, MPI_BYTE, rb, (int)B, MPI_BYTE, comm, &req);
    double med = 0, best = 0;
    if (rc == NBO_SUCCESS)
        rc = run(&req, iters, &med, &best);
    if (rc != NBO_SUCCESS) {
        fprintf(stderr, "rank %d: %s: %s\n", rank, label, nbo_strerror(rc));
        return 1;
    }
    if (rank == 0)
        printf("%-8s %12zu %12.1f %12.1f %10.2f\n", label, chunk ? chunk : cfg.cuda_chunk,
               med * 1e6, best * 1e6, (double)B * (P - 1) / med / 1e9);
    nbo_request_free(&req);
    nbo_comm_free(&comm);
    return 0;
}

int main(int argc, char **argv)
{
    size_t B = 4u << 20;
    int iters = 20, opt;
    char list[512] = "65536,262144,1048576,4194304,16777216";
    while ((opt = getopt(argc, argv, "b:i:c:h")) != -1) {
        if (opt == 'b')
            B = strtoull(optarg, NULL, 10);
        else if (opt == 'i')
            iters = atoi(optarg);
        else if (opt == 'c')
            snprintf(list, sizeof(list), "%s", optarg);
        else {
            printf("usage: nbo_cuda_chunk [-b BYTES_PER_PEER] [-i ITERS] [-c CHUNK,CHUNK,...]\n");
            return opt == 'h' ? 0 : 2;
        }
    }
    int provided, rank, P;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    if (iters < 1 || B == 0 || B > (size_t)1 << 30) {
        if (rank == 0)
            printf("nbo_cuda_chunk: bad -b or -i\n");
        MPI_Finalize();
        return 2;
    }
    if (!cuda_gpu_pick(rank, "nbo_cuda_chunk: ", ": nothing measured")) {
        MPI_Finalize();
        return CUDA_GPU_SKIP;
    }
    const size_t n = B * (size_t)P;
    void *ds = NULL, *dr = NULL, *hs = malloc(n), *hr = malloc(n);
    if (cudaMalloc(&ds, n) != cudaSuccess || cudaMalloc(&dr, n) != cudaSuccess || !hs || !hr) {
        fprintf(stderr, "rank %d: no memory for 2 x %zu bytes\n", rank, n);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    cudaMemset(ds, rank & 0xff, n);
    memset(hs, rank & 0xff, n);
    if (rank == 0)
        printf("# nbo_cuda_chunk P=%d, %zu bytes per peer, %d iterations (max over ranks)\n"
               "# buffers    chunk_B   median_us     best_us  GB/s/rank\n", P, B, iters);
    int bad = sweep_point(0, B, iters, hs, hr, rank, P, "host");
    /* strtok_r: a library called in the loop may use strtok itself. */
    char *save = NULL;
    for (char *tok = strtok_r(list, ",", &save); tok && !bad; tok = strtok_r(NULL, ",", &save))
        bad = sweep_point(strtoull(tok, NULL, 10), B, iters, ds, dr, rank, P, "device");
    cudaFree(ds);
    cudaFree(dr);
    free(hs);
    free(hr);
    MPI_Finalize();
    return bad;
}
