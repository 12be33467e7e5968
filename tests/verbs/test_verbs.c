/*
 * test_verbs.c - correctness of the verbs engine, run under mpiexec with
 * NBO_ENGINE=verbs inside the Soft-RoCE guest (any P >= 2).
 *
 *   1. the engine query: engine verbs, the expected device
 *      (NBO_VERBS_EXPECT_DEVICE), cross-channel and GPUDirect RDMA reported
 *      "no", HW_WAITS and DEVICE_MEM clear;
 *   2. nbo_ialltoall from 0 B to 1 MiB per peer, pairwise and Bruck,
 *      window 1 and the default, inline and background progress;
 *   3. a persistent request started several times with new contents;
 *   4. concurrent requests of mixed sizes, completed in reverse order, with
 *      one rank late (peers run ahead into later collectives: RNR retry and
 *      per-peer ordering);
 *   5. nbo_ialltoallv with uneven and zero counts;
 *   6. buffers freed and reallocated between calls (registration cache);
 *   7. nbo_comm_free releases every QP, CQ, MR and PD of the process (as the
 *      kernel lists them: `rdma resource show`).
 * Every byte is checked against the pattern its sender wrote.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <nbo.h>

#include "rdma_objects.h"

static int rank, size, failures;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            if (failures++ < 10) {                                         \
                fprintf(stderr, "[test_verbs %d/%d] FAIL: ", rank, size); \
                fprintf(stderr, __VA_ARGS__);                              \
                fputc('\n', stderr);                                       \
            }                                                              \
        }                                                                  \
    } while (0)
#define OK(call)                                                                          \
    do {                                                                                  \
        int rc_ = (call);                                                                 \
        CHECK(rc_ == NBO_SUCCESS, "%s:%d %s -> %s", __FILE__, __LINE__, #call, nbo_strerror(rc_)); \
    } while (0)

static unsigned char pattern(int src, int dst, size_t i, unsigned seed)
{
    unsigned h = (unsigned)src * 2654435761u ^ (unsigned)dst * 40503u ^ seed * 2246822519u;
    h += (unsigned)i * 97u + (unsigned)(i >> 8);
    return (unsigned char)(h ^ (h >> 13));
}

static void fill(unsigned char *p, size_t n, int dst, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = pattern(rank, dst, i, seed);
}

static void verify(const unsigned char *p, size_t n, int src, unsigned seed, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != pattern(src, rank, i, seed)) {
            CHECK(0, "%s: byte %zu of %zu from rank %d differs", what, i, n, src);
            return;
        }
}

/* One uniform all-to-all of `bytes` per peer, started now, checked later. */
typedef struct job {
    unsigned char *s, *r;
    size_t         bytes;
    unsigned       seed;
    nbo_request_t  req;
} job_t;

static void job_start(job_t *j, nbo_comm_t c, size_t bytes, unsigned seed)
{
    j->bytes = bytes;
    j->seed = seed;
    j->s = malloc(bytes * (size_t)size + 1);
    j->r = malloc(bytes * (size_t)size + 1);
    for (int d = 0; d < size; d++)
        fill(j->s + (size_t)d * bytes, bytes, d, seed);
    memset(j->r, 0xee, bytes * (size_t)size);
    j->req = NBO_REQUEST_NULL;
    OK(nbo_ialltoall(j->s, (int)bytes, MPI_BYTE, j->r, (int)bytes, MPI_BYTE, c, &j->req));
}

static void job_finish(job_t *j, const char *what)
{
    OK(nbo_wait(&j->req));
    char w[96];
    for (int s = 0; s < size; s++) {
        snprintf(w, sizeof(w), "%s %zu B", what, j->bytes);
        verify(j->r + (size_t)s * j->bytes, j->bytes, s, j->seed, w);
    }
    free(j->s);
    free(j->r);
}

static nbo_comm_t make_comm(nbo_algorithm_t alg, int window, nbo_progress_mode_t prog)
{
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    nbo_config_from_env(&cfg);
    cfg.algorithm = alg;
    cfg.progress = prog;
    if (window)
        cfg.window = window;
    nbo_comm_t c = NBO_COMM_NULL;
    OK(nbo_comm_create(MPI_COMM_WORLD, &cfg, &c));
    return c;
}

static void check_query(nbo_comm_t c)
{
    nbo_comm_info_t info;
    OK(nbo_comm_query(c, &info));
    const char *dev = getenv("NBO_VERBS_EXPECT_DEVICE");
    CHECK(strcmp(info.engine, "verbs") == 0, "engine is %s, not verbs", info.engine);
    CHECK(!dev || strstr(info.engine_detail, dev), "detail \"%s\" names no %s", info.engine_detail, dev);
    CHECK(strstr(info.engine_detail, "cross-channel: no") != NULL,
          "detail \"%s\" does not report cross-channel: no", info.engine_detail);
    CHECK(strstr(info.engine_detail, "GPUDirect RDMA: no") != NULL,
          "detail \"%s\" does not report GPUDirect RDMA: no (the guest has no GPU driver)",
          info.engine_detail);
    CHECK(!(info.engine_caps & NBO_CAP_DEVICE_MEM), "DEVICE_MEM reported: verbs stages device buffers");
    CHECK(!(info.engine_caps & NBO_CAP_HW_WAITS), "HW_WAITS reported on a device without it");
    CHECK(info.engine_caps & NBO_CAP_EVENT_FD, "no completion fd reported");
    if (rank == 0)
        printf("test_verbs: engine %s, progress %s, caps 0x%x, detail \"%s\"\n",
               info.engine, nbo_progress_name(info.progress), info.engine_caps,
               info.engine_detail);
}

static void sizes(nbo_comm_t c, const char *name, unsigned *seed)
{
    static const size_t bytes[] = {0, 1, 7, 100, 4096, 4097, 65536, 1u << 20};
    for (size_t i = 0; i < sizeof(bytes) / sizeof(bytes[0]); i++) {
        job_t j;
        job_start(&j, c, bytes[i], (*seed)++);
        job_finish(&j, name);
    }
}

static void persistent(nbo_comm_t c, unsigned *seed)
{
    const size_t bytes = 65536 + 3;
    unsigned char *s = malloc(bytes * (size_t)size), *r = malloc(bytes * (size_t)size);
    nbo_request_t req = NBO_REQUEST_NULL;
    OK(nbo_alltoall_init(s, (int)bytes, MPI_BYTE, r, (int)bytes, MPI_BYTE, c, &req));
    for (int k = 0; k < 4; k++) {
        unsigned sd = (*seed)++;
        for (int d = 0; d < size; d++)
            fill(s + (size_t)d * bytes, bytes, d, sd);
        OK(nbo_start(&req));
        OK(nbo_wait(&req));
        for (int p = 0; p < size; p++)
            verify(r + (size_t)p * bytes, bytes, p, sd, "persistent");
    }
    OK(nbo_request_free(&req));
    free(s);
    free(r);
}

static void concurrent(nbo_comm_t c, unsigned *seed)
{
    static const size_t bytes[] = {8, 300 * 1024, 4096, 0, 1, 70000};
    enum { N = sizeof(bytes) / sizeof(bytes[0]) };
    job_t j[N];
    if (rank == 0)
        usleep(200 * 1000); /* the others run ahead and meet RNR */
    for (int i = 0; i < N; i++)
        job_start(&j[i], c, bytes[i], (*seed)++);
    for (int i = N - 1; i >= 0; i--)
        job_finish(&j[i], "concurrent");
}

static size_t vbytes(int src, int dst) { return (size_t)((src * 3 + dst * 5) % 7) * 1500; }

static void alltoallv(nbo_comm_t c, unsigned seed)
{
    int *sc = calloc((size_t)size, sizeof(int)), *sd = calloc((size_t)size, sizeof(int));
    int *rc = calloc((size_t)size, sizeof(int)), *rd = calloc((size_t)size, sizeof(int));
    size_t st = 0, rt = 0;
    for (int p = size - 1; p >= 0; p--) { /* blocks in reverse order */
        sc[p] = (int)vbytes(rank, p);
        sd[p] = (int)st;
        st += (size_t)sc[p] + 16;
        rc[p] = (int)vbytes(p, rank);
        rd[p] = (int)rt;
        rt += (size_t)rc[p] + 16;
    }
    unsigned char *s = malloc(st + 1), *r = malloc(rt + 1);
    for (int p = 0; p < size; p++)
        fill(s + sd[p], (size_t)sc[p], p, seed);
    nbo_request_t req = NBO_REQUEST_NULL;
    OK(nbo_ialltoallv(s, sc, sd, MPI_BYTE, r, rc, rd, MPI_BYTE, c, &req));
    OK(nbo_wait(&req));
    for (int p = 0; p < size; p++)
        verify(r + rd[p], (size_t)rc[p], p, seed, "alltoallv");
    free(s), free(r), free(sc), free(sd), free(rc), free(rd);
}

static void reuse(nbo_comm_t c, unsigned *seed)
{
    /* Same sizes each time, so malloc likely hands back the same addresses:
     * a stale registration would deliver into the old pages. */
    for (int k = 0; k < 3; k++) {
        job_t j;
        job_start(&j, c, 256 * 1024, (*seed)++);
        job_finish(&j, "reuse");
    }
}

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    unsigned seed = 1;

    nbo_comm_t pw = make_comm(NBO_ALG_PAIRWISE, 0, NBO_PROGRESS_AUTO);
    nbo_comm_t w1 = make_comm(NBO_ALG_PAIRWISE, 1, NBO_PROGRESS_INLINE);
    nbo_comm_t br = make_comm(NBO_ALG_BRUCK, 0, NBO_PROGRESS_INLINE);
    if (pw && w1 && br) {
        check_query(pw);
        sizes(pw, "pairwise", &seed);
        sizes(w1, "pairwise W=1", &seed);
        sizes(br, "bruck", &seed);
        persistent(pw, &seed);
        concurrent(pw, &seed);
        concurrent(br, &seed);
        alltoallv(pw, seed++);
        alltoallv(w1, seed++);
        reuse(pw, &seed);
    }
    int held = rdma_objects_of_self();
    if (pw) OK(nbo_comm_free(&pw));
    if (w1) OK(nbo_comm_free(&w1));
    if (br) OK(nbo_comm_free(&br));
    int left = rdma_objects_of_self();
    CHECK(held > 0, "rdma resource show lists none of this process's objects (%d)", held);
    CHECK(left == 0, "%d RDMA objects left after nbo_comm_free (%d before)", left, held);
    if (rank == 0)
        printf("test_verbs: RDMA objects of rank 0: %d with 3 comms open, %d after freeing\n",
               held, left);

    int all = 0;
    MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("test_verbs P=%d: %s (%d failures)\n", size, all ? "FAIL" : "PASS", all);
    MPI_Finalize();
    return all ? 1 : 0;
}
