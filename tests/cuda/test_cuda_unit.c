/*
 * test_cuda_unit - the parts of GPU support that run without a GPU, in
 * every build: the chunk arithmetic of the staging pipeline, which task
 * lists it pipelines, the staging extents, NBO_CUDA_CHUNK parsing, the new
 * error codes, nbo_cuda_available; and in a CUDA build on a machine without
 * a GPU, that host memory is treated as host memory and nothing fails.
 * Prints one line per check group; exits 1 on any failure.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libnbo/sched_algs.h" /* the all-to-all's table */
#include "cuda/device.h"
#include "nbo.h"

static int failures;
#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (!(cond)) {                                                        \
            failures++;                                                       \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);   \
            fprintf(stderr, __VA_ARGS__);                                     \
            fprintf(stderr, "\n");                                            \
        }                                                                     \
    } while (0)

static nbo_task_t task(int kind, int buf, size_t len)
{
    nbo_task_t t;
    memset(&t, 0, sizeof(t));
    t.kind = (uint8_t)kind;
    t.buf = (uint8_t)buf;
    t.len = len;
    return t;
}

/* Hand-made task list: sends of known sizes between other tasks. */
static void chunk_arithmetic(void)
{
    const size_t lens[] = {100, 200, 5000, 0, 50, 4000, 4096};
    const int want[] = {0, 0, 1, 2, 2, 2, 3}; /* chunk 4096 */
    nbo_task_t t[32];
    int n = 0, send_at[7];
    t[n++] = task(NBO_TASK_RECV, NBO_BUF_RECV, 4096);
    for (int i = 0; i < 7; i++) {
        send_at[i] = n;
        t[n++] = task(NBO_TASK_SEND, NBO_BUF_SEND, lens[i]);
        if (i == 2)
            t[n++] = task(NBO_TASK_WAIT, 0, 0);
    }
    t[n++] = task(NBO_TASK_SEND, NBO_BUF_TMP, 300); /* not the send buffer */
    int g[32];
    int ng = nbo_stage_group(t, n, 4096, g);
    CHECK(ng == 4, "chunk 4096: %d chunks, expected 4", ng);
    for (int i = 0; i < 7; i++)
        CHECK(g[send_at[i]] == want[i], "send %d (%zu B) in chunk %d, expected %d", i, lens[i],
              g[send_at[i]], want[i]);
    CHECK(g[0] == -1 && g[n - 1] == -1 && g[4] == -1, "non-send tasks must have no chunk");
    /* Every chunk of more than one (non-empty) send stays within the chunk
     * size; zero-byte sends join whatever chunk is open. */
    for (size_t chunk = 1; chunk <= 20000; chunk = chunk * 3 + 7) {
        ng = nbo_stage_group(t, n, chunk, g);
        size_t bytes[32] = {0};
        int sends[32] = {0};
        for (int i = 0; i < n; i++)
            if (g[i] >= 0) {
                CHECK(g[i] < ng, "chunk index %d of %d", g[i], ng);
                bytes[g[i]] += t[i].len;
                sends[g[i]] += t[i].len > 0;
            }
        for (int c = 0; c < ng; c++)
            CHECK(sends[c] <= 1 || bytes[c] <= chunk,
                  "chunk size %zu: chunk %d has %d sends, %zu B", chunk, c, sends[c], bytes[c]);
        for (int i = 1; i < 7; i++) /* in send order */
            CHECK(g[send_at[i]] >= g[send_at[i - 1]], "chunks out of order at chunk size %zu", chunk);
    }
    CHECK(nbo_stage_group(t, n, (size_t)1 << 30, g) == 1, "a huge chunk holds every send");
    CHECK(nbo_stage_group(t, 1, 4096, g) == 0, "no sends, no chunks");
    printf("chunk arithmetic: %s\n", failures ? "FAIL" : "ok");
}

/* Which compiled task lists can be pipelined. */
static void pipelinable(void)
{
    int before = failures;
    enum { P = 4 };
    size_t bytes[P], displ[P];
    for (int i = 0; i < P; i++) {
        bytes[i] = 1000;
        displ[i] = 1000 * (size_t)i;
    }
    nbo_sched_args_t a = {.size = P, .rank = 1, .sbytes = bytes, .sdispl = displ, .rbytes = bytes,
                          .rdispl = displ, .send_contig = 1, .recv_contig = 1, .uniform = 1,
                          .coll = NBO_COLL_ALLTOALL, .algs = nbo_alltoall_algs,
                          .algorithm = NBO_ALG_PAIRWISE, .window = 2, .bruck_max = 256};
    struct { const char *name; int send_contig, recv_contig, in_place; nbo_algorithm_t alg; int want; } cases[] = {
        {"pairwise, contiguous", 1, 1, 0, NBO_ALG_PAIRWISE, 1},
        {"pairwise, in place", 1, 1, 1, NBO_ALG_PAIRWISE, 0},
        {"pairwise, packed send", 0, 1, 0, NBO_ALG_PAIRWISE, 0},
        {"pairwise, unpacked receive", 1, 0, 0, NBO_ALG_PAIRWISE, 0},
        {"bruck", 1, 1, 0, NBO_ALG_BRUCK, 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        a.send_contig = cases[i].send_contig;
        a.recv_contig = cases[i].recv_contig;
        a.in_place = cases[i].in_place;
        a.algorithm = cases[i].alg;
        nbo_sched_t s;
        int rc = nbo_sched_compile(&a, &s);
        CHECK(rc == NBO_SUCCESS, "%s: compile returned %d", cases[i].name, rc);
        if (rc != NBO_SUCCESS)
            continue;
        int got = nbo_stage_pipelinable(&s, a.in_place);
        CHECK(got == cases[i].want, "%s: pipelinable %d, expected %d", cases[i].name, got,
              cases[i].want);
        if (cases[i].want) { /* the own block's COPY is not a send: P - 1 sends */
            int *g = malloc((size_t)s.ntasks * sizeof(int)), sends = 0;
            int ng = nbo_stage_group(s.tasks, s.ntasks, 1500, g);
            for (int t = 0; t < s.ntasks; t++)
                sends += g[t] >= 0;
            CHECK(sends == P - 1 && ng == P - 1, "%d sends in %d chunks of 1500 B", sends, ng);
            free(g);
        }
        nbo_sched_destroy(&s);
    }
    MPI_Aint from;
    size_t n;
    nbo_stage_extent(-8, 100, 90, &from, &n);
    CHECK(from == -8 && n == 108, "extent (-8, 100, span 90): %ld + %zu", (long)from, n);
    nbo_stage_extent(16, 64, 64, &from, &n);
    CHECK(from == 0 && n == 64, "extent (16, 64, span 64): %ld + %zu", (long)from, n);
    nbo_stage_extent(0, 0, 0, &from, &n);
    CHECK(from == 0 && n == 0, "empty extent: %ld + %zu", (long)from, n);
    printf("pipelinable task lists, extents: %s\n", failures > before ? "FAIL" : "ok");
}

static void config(void)
{
    int before = failures;
    nbo_config_t c;
    unsetenv("NBO_CUDA_CHUNK");
    nbo_config_init(&c);
    CHECK(c.cuda_chunk == (size_t)1 << 20, "default NBO_CUDA_CHUNK %zu", c.cuda_chunk);
    CHECK(nbo_config_from_env(&c) == NBO_SUCCESS && c.cuda_chunk == (size_t)1 << 20,
          "unset variable changed the chunk");
    setenv("NBO_CUDA_CHUNK", "65536", 1);
    CHECK(nbo_config_from_env(&c) == NBO_SUCCESS && c.cuda_chunk == 65536, "65536: got %zu",
          c.cuda_chunk);
    const char *bad[] = {"4095", "0", "-1", "1k", "1073741825", "abc"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        setenv("NBO_CUDA_CHUNK", bad[i], 1);
        nbo_config_init(&c);
        CHECK(nbo_config_from_env(&c) == NBO_ERR_CONFIG, "NBO_CUDA_CHUNK=%s accepted", bad[i]);
    }
    unsetenv("NBO_CUDA_CHUNK");
    const int codes[] = {NBO_ERR_DEVICE, NBO_ERR_CUDA};
    for (int i = 0; i < 2; i++)
        CHECK(!strstr(nbo_strerror(codes[i]), "unknown"), "no message for %d", codes[i]);
    printf("NBO_CUDA_CHUNK, error codes: %s\n", failures > before ? "FAIL" : "ok");
}

static int driver_in_process(void)
{
    void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (h)
        dlclose(h);
    return h != NULL;
}

static void probing(void)
{
    int before = failures;
    char detail[256] = "";
#if NBO_HAVE_CUDA
    /* Host memory is host memory, without loading the CUDA driver. */
    int loaded = driver_in_process();
    char stack[64];
    void *heap = malloc(1 << 16);
    CHECK(nbo_dev_locate(stack) == -1, "a stack buffer located on a GPU");
    CHECK(nbo_dev_locate(heap) == -1, "a heap buffer located on a GPU");
    CHECK(nbo_dev_locate(NULL) == -1, "NULL located on a GPU");
    CHECK(loaded || !driver_in_process(), "locating host buffers loaded the CUDA driver");
    /* The probe itself: a GPU, or a plain reason; never a crash. */
    int rc = nbo_cuda_available(detail, sizeof(detail));
    int rc2 = nbo_dev_probe(NULL, 0);
    CHECK(rc == rc2, "nbo_cuda_available %d, probe %d", rc, rc2);
    CHECK(rc == NBO_SUCCESS || (rc == NBO_ERR_CUDA && strncmp(detail, "no CUDA GPU (", 13) == 0),
          "rc %d, detail \"%s\"", rc, detail);
    /* After a failed probe (no GPU here) everything is still host memory. */
    CHECK(nbo_dev_locate(heap) == -1, "after the probe, a heap buffer located on a GPU");
    free(heap);
    printf("CUDA build: %s\n", detail);
#else
    int rc = nbo_cuda_available(detail, sizeof(detail));
    CHECK(rc == NBO_ERR_CUDA && strstr(detail, "without CUDA"), "rc %d, detail \"%s\"", rc, detail);
    CHECK(!driver_in_process(), "a build without CUDA loaded the CUDA driver");
    printf("build without CUDA: %s\n", detail);
#endif
    CHECK(nbo_cuda_available(NULL, 0) == rc, "NULL detail changes the answer");
    printf("probing: %s\n", failures > before ? "FAIL" : "ok");
}

int main(void)
{
    chunk_arithmetic();
    pipelinable();
    config();
    probing();
    printf("test_cuda_unit: %s (%d failures)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
