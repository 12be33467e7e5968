/*
 * test_cuda_alltoall - all-to-alls on CUDA device buffers, byte for byte
 * against MPI's own all-to-all on host copies of the same data:
 * nbo_ialltoall, nbo_ialltoallv (blocks with gaps, which must stay
 * untouched), the persistent forms started three times with new data,
 * device/host mixes, MPI_IN_PLACE and a non-contiguous type (staged whole),
 * and two chunk sizes (many chunks, the default); the other collectives
 * refuse device buffers (NBO_ERR_DEVICE).  Engine and progress mode
 * from NBO_ENGINE / NBO_PROGRESS.  Ranks may share one GPU.
 *
 * Without a usable GPU it prints "skipped: no CUDA GPU (<CUDA error>)" and
 * exits 77, which meson reports as SKIP.
 */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_gpu.h"
#include "mpitest.h"

enum { HOST = 0, DEV = 1 };
#define FILL 0xEE

static void *cuda_check(cudaError_t e, const char *what, void *p)
{
    if (e != cudaSuccess)
        mt_fail("%s: %s", what, cudaGetErrorString(e));
    return p;
}

/* A buffer of n bytes in `where` holding a copy of src (or FILL bytes). */
static void *make(int where, const void *src, size_t n)
{
    void *p = NULL;
    if (where == HOST) {
        p = malloc(n ? n : 1);
        if (src)
            memcpy(p, src, n);
        else
            memset(p, FILL, n);
        return p;
    }
    cuda_check(cudaMalloc(&p, n ? n : 1), "cudaMalloc", NULL);
    if (src)
        cuda_check(cudaMemcpy(p, src, n, cudaMemcpyHostToDevice), "cudaMemcpy to GPU", NULL);
    else
        cuda_check(cudaMemset(p, FILL, n), "cudaMemset", NULL);
    return p;
}

static void put(int where, void *dst, const void *src, size_t n)
{
    if (where == HOST)
        memcpy(dst, src, n);
    else
        cuda_check(cudaMemcpy(dst, src, n, cudaMemcpyHostToDevice), "cudaMemcpy to GPU", NULL);
}

static void get(int where, void *dst, const void *src, size_t n)
{
    if (where == HOST)
        memcpy(dst, src, n);
    else
        cuda_check(cudaMemcpy(dst, src, n, cudaMemcpyDeviceToHost), "cudaMemcpy from GPU", NULL);
}

static void drop(int where, void *p)
{
    if (where == HOST)
        free(p);
    else
        cudaFree(p);
}

static const char *wname(int w) { return w == DEV ? "device" : "host"; }

/* Uniform blocks of `count` bytes; persistent: init once, start 3 times. */
static void uniform(nbo_comm_t comm, size_t count, int sw, int rw, int persistent)
{
    const int P = mt_size;
    const size_t n = count * (size_t)P;
    unsigned char *hs = malloc(n + 1), *ref = malloc(n + 1), *got = malloc(n + 1);
    void *sb = make(sw, NULL, n), *rb = make(rw, NULL, n);
    nbo_request_t req = NBO_REQUEST_NULL;
    char what[160];
    for (int round = 0; round < (persistent ? 3 : 1); round++) {
        for (int d = 0; d < P; d++)
            mt_fill(hs + (size_t)d * count, count, mt_rank, d, 11u + (unsigned)round);
        MPI_Alltoall(hs, (int)count, MPI_BYTE, ref, (int)count, MPI_BYTE, MPI_COMM_WORLD);
        put(sw, sb, hs, n);
        if (!persistent)
            MT_OK(nbo_ialltoall(sb, (int)count, MPI_BYTE, rb, (int)count, MPI_BYTE, comm, &req));
        else if (round == 0)
            MT_OK(nbo_alltoall_init(sb, (int)count, MPI_BYTE, rb, (int)count, MPI_BYTE, comm, &req));
        if (persistent)
            MT_OK(nbo_start(&req));
        MT_OK(mt_complete(&req, round & 1));
        get(rw, got, rb, n);
        snprintf(what, sizeof(what), "alltoall %zu B/peer %s->%s %s round %d", count, wname(sw),
                 wname(rw), persistent ? "persistent" : "ialltoall", round);
        mt_compare(got, ref, n, what);
    }
    if (persistent)
        MT_OK(nbo_request_free(&req));
    drop(sw, sb);
    drop(rw, rb);
    free(hs), free(ref), free(got);
}

/* Irregular blocks with gaps between them; the gaps must keep FILL. */
static void irregular(nbo_comm_t comm, int sw, int rw, int persistent, unsigned seed)
{
    const int P = mt_size;
    int *sc = malloc(4 * (size_t)P * sizeof(int)), *sd = sc + P, *rc = sd + P, *rd = rc + P;
    for (int q = 0; q < P; q++) {
        sc[q] = mt_count(mt_rank, q, seed, 70000, 0);
        rc[q] = mt_count(q, mt_rank, seed, 70000, 0);
    }
    size_t sn = (size_t)mt_layout(P, sc, 13, seed, sd) + 1;
    size_t rn = (size_t)mt_layout(P, rc, 7, seed + 1, rd) + 1;
    unsigned char *hs = malloc(sn), *ref = malloc(rn), *got = malloc(rn);
    memset(hs, 0x5A, sn);
    for (int q = 0; q < P; q++)
        mt_fill(hs + sd[q], (size_t)sc[q], mt_rank, q, seed);
    memset(ref, FILL, rn);
    MPI_Alltoallv(hs, sc, sd, MPI_BYTE, ref, rc, rd, MPI_BYTE, MPI_COMM_WORLD);
    void *sb = make(sw, hs, sn), *rb = make(rw, NULL, rn);
    nbo_request_t req = NBO_REQUEST_NULL;
    if (persistent) {
        MT_OK(nbo_alltoallv_init(sb, sc, sd, MPI_BYTE, rb, rc, rd, MPI_BYTE, comm, &req));
        for (int i = 0; i < 2; i++) {
            MT_OK(nbo_start(&req));
            MT_OK(mt_complete(&req, i));
        }
        MT_OK(nbo_request_free(&req));
    } else {
        MT_OK(nbo_ialltoallv(sb, sc, sd, MPI_BYTE, rb, rc, rd, MPI_BYTE, comm, &req));
        MT_OK(mt_complete(&req, 0));
    }
    get(rw, got, rb, rn);
    char what[160];
    snprintf(what, sizeof(what), "alltoallv %s->%s %s (gaps untouched)", wname(sw), wname(rw),
             persistent ? "persistent" : "ialltoallv");
    mt_compare(got, ref, rn, what);
    drop(sw, sb);
    drop(rw, rb);
    free(hs), free(ref), free(got), free(sc);
}

/* MPI_IN_PLACE on a device buffer: staged whole. */
static void in_place(nbo_comm_t comm, size_t count)
{
    const size_t n = count * (size_t)mt_size;
    unsigned char *ref = malloc(n), *got = malloc(n);
    for (int d = 0; d < mt_size; d++)
        mt_fill(ref + (size_t)d * count, count, mt_rank, d, 5);
    void *rb = make(DEV, ref, n);
    MPI_Alltoall(MPI_IN_PLACE, 0, MPI_BYTE, ref, (int)count, MPI_BYTE, MPI_COMM_WORLD);
    nbo_request_t req;
    MT_OK(nbo_ialltoall(MPI_IN_PLACE, 0, MPI_BYTE, rb, (int)count, MPI_BYTE, comm, &req));
    MT_OK(mt_complete(&req, 0));
    get(DEV, got, rb, n);
    mt_compare(got, ref, n, "alltoall MPI_IN_PLACE on the GPU");
    drop(DEV, rb);
    free(ref), free(got);
}

/* A vector type (every other int) on device memory: packed on the host
 * mirrors, staged whole. */
static void strided(nbo_comm_t comm)
{
    MPI_Datatype vec;
    MPI_Type_vector(64, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Aint lb, ext;
    MPI_Type_get_extent(vec, &lb, &ext);
    const size_t n = (size_t)ext * (size_t)mt_size;
    unsigned char *hs = malloc(n), *ref = malloc(n), *got = malloc(n);
    mt_fill(hs, n, mt_rank, 0, 9);
    memset(ref, FILL, n);
    MPI_Alltoall(hs, 1, vec, ref, 1, vec, MPI_COMM_WORLD);
    void *sb = make(DEV, hs, n), *rb = make(DEV, NULL, n);
    nbo_request_t req;
    MT_OK(nbo_ialltoall(sb, 1, vec, rb, 1, vec, comm, &req));
    MT_OK(mt_complete(&req, 1));
    get(DEV, got, rb, n);
    mt_compare(got, ref, n, "alltoall of a vector type on the GPU");
    drop(DEV, sb);
    drop(DEV, rb);
    free(hs), free(ref), free(got);
    MPI_Type_free(&vec);
}

/* The other collectives do not run on device buffers yet: each refuses
 * them with NBO_ERR_DEVICE and leaves no request behind. */
static void other_collectives(nbo_comm_t comm)
{
    enum { N = 64 };
    const int P = mt_size;
    void *d = make(DEV, NULL, (size_t)N * P), *h = make(HOST, NULL, (size_t)N * P);
    int *counts = malloc(sizeof(int) * (size_t)P), *displs = malloc(sizeof(int) * (size_t)P);
    for (int p = 0; p < P; p++) {
        counts[p] = N;
        displs[p] = N * p;
    }
    nbo_request_t req = NBO_REQUEST_NULL;
#define REFUSED(call)                                                                      \
    do {                                                                                   \
        MT_EXPECT(NBO_ERR_DEVICE, (call));                                                 \
        if (req != NBO_REQUEST_NULL)                                                       \
            mt_fail("%s:%d: a refused call left a request", __FILE__, __LINE__);            \
    } while (0)
    REFUSED(nbo_iallreduce(d, h, N, MPI_BYTE, MPI_BXOR, comm, &req));
    REFUSED(nbo_allreduce_init(MPI_IN_PLACE, d, N, MPI_BYTE, MPI_BXOR, comm, &req));
    REFUSED(nbo_ireduce_scatter_block(h, d, N, MPI_BYTE, MPI_BXOR, comm, &req));
    REFUSED(nbo_iallgather(d, N, MPI_BYTE, h, N, MPI_BYTE, comm, &req));
    REFUSED(nbo_allgatherv_init(h, N, MPI_BYTE, d, counts, displs, MPI_BYTE, comm, &req));
    REFUSED(nbo_ibcast(d, N, MPI_BYTE, 0, comm, &req));
#undef REFUSED
    drop(DEV, d);
    drop(HOST, h);
    free(counts);
    free(displs);
}

int main(int argc, char **argv)
{
    mt_init(&argc, &argv, "test_cuda_alltoall");
    if (!cuda_gpu_pick(mt_rank, "skipped: ", "")) {
        MPI_Finalize();
        return CUDA_GPU_SKIP;
    }
    char detail[256];
    MT_OK(nbo_cuda_available(detail, sizeof(detail)));

    const size_t chunks[] = {4096, 0}; /* 0: the default */
    for (int c = 0; c < 2; c++) {
        nbo_config_t cfg;
        mt_config(&cfg, NBO_ALG_AUTO);
        if (chunks[c])
            cfg.cuda_chunk = chunks[c];
        nbo_comm_t comm;
        MT_OK(nbo_comm_create(MPI_COMM_WORLD, &cfg, &comm));
        if (c == 0)
            mt_describe(comm);
        nbo_comm_info_t info;
        MT_OK(nbo_comm_query(comm, &info));
        if (strcmp(info.engine, "mpi") == 0 && (info.engine_caps & NBO_CAP_DEVICE_MEM))
            mt_fail("the MPI engine claims to move device memory");
        const int mix[3][2] = {{DEV, DEV}, {DEV, HOST}, {HOST, DEV}};
        for (int m = 0; m < 3; m++)
            for (int persistent = 0; persistent < 2; persistent++) {
                uniform(comm, 3 * 4096 + 17, mix[m][0], mix[m][1], persistent);
                irregular(comm, mix[m][0], mix[m][1], persistent, 3u + (unsigned)m);
            }
        uniform(comm, 100, DEV, DEV, 0); /* Bruck at P > 2: staged whole */
        uniform(comm, 1 << 20, DEV, DEV, 1);
        in_place(comm, 4000);
        strided(comm);
        if (c == 0)
            other_collectives(comm);
        MT_OK(nbo_comm_free(&comm));
    }
    return mt_finish();
}
