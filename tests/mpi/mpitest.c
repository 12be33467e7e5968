/* mpitest.c - shared scaffolding of the MPI correctness programs. */
#include "mpitest.h"

#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mt_rank, mt_size;
static int failures, checks;
static const char *prog;
static char engine[16] = "?", progress[16] = "?";

void mt_init(int *argc, char ***argv, const char *name)
{
    int provided;
    prog = name;
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &mt_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mt_size);
}

void mt_fail(const char *fmt, ...)
{
    if (failures++ < 10) {
        char line[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(line, sizeof(line), fmt, ap);
        va_end(ap);
        fprintf(stderr, "[%s rank %d/%d] FAIL: %s\n", prog, mt_rank, mt_size, line);
        fflush(stderr);
    }
}

int mt_failures(void) { return failures; }

void mt_expect_(int want, int got, const char *text, const char *file, int line)
{
    checks++;
    const char *msg = nbo_strerror(got);
    if (got != want)
        mt_fail("%s:%d: %s returned %d (%s), expected %d (%s)", file, line, text, got, msg, want,
                nbo_strerror(want));
    else if (!msg || !*msg || strstr(msg, "unknown"))
        mt_fail("%s:%d: %s: nbo_strerror(%d) is \"%s\"", file, line, text, got, msg ? msg : "NULL");
}

void mt_config(nbo_config_t *cfg, nbo_algorithm_t alg)
{
    nbo_config_init(cfg);
    MT_OK(nbo_config_from_env(cfg));
    cfg->algorithm = alg;
}

void mt_fill(void *p, size_t n, int src, int dst, unsigned seed)
{
    unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        b[i] = mt_byte(src, dst, i, seed);
}

int mt_compare(const void *got, const void *want, size_t n, const char *what)
{
    checks++;
    if (n == 0 || memcmp(got, want, n) == 0)
        return 1;
    const unsigned char *g = got, *w = want;
    size_t i = 0;
    while (g[i] == w[i])
        i++;
    mt_fail("%s: byte %zu of %zu is 0x%02x, expected 0x%02x", what, i, n, g[i], w[i]);
    return 0;
}

void mt_describe(nbo_comm_t comm)
{
    nbo_comm_info_t info;
    if (nbo_comm_query(comm, &info) == NBO_SUCCESS) {
        snprintf(engine, sizeof(engine), "%s", info.engine);
        snprintf(progress, sizeof(progress), "%s", nbo_progress_name(info.progress));
    }
}

int mt_complete(nbo_request_t *req, int use_test)
{
    if (!use_test)
        return nbo_wait(req);
    int flag = 0, rc;
    /* Yield between polls: ranks oversubscribe the cores, and a spinning
     * rank would only delay the peer it waits for. */
    while ((rc = nbo_test(req, &flag)) == NBO_SUCCESS && !flag)
        sched_yield();
    return rc;
}

int mt_comm_for(nbo_algorithm_t alg, nbo_comm_t *comm)
{
    nbo_config_t cfg;
    mt_config(&cfg, alg);
    MT_OK(nbo_comm_create(MPI_COMM_WORLD, &cfg, comm));
    if (mt_failures())
        return 0;
    mt_describe(*comm);
    return 1;
}

void mt_complete_alternating(nbo_request_t *req)
{
    static int use_test;
    MT_OK(mt_complete(req, use_test));
    use_test = !use_test;
}

void mt_op_matmul2x2(void *invec, void *inoutvec, int *len, MPI_Datatype *type)
{
    (void)type;
    const unsigned *a = invec;
    unsigned *b = inoutvec;
    for (int k = 0; k < *len; k++, a += 4, b += 4) {
        unsigned c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                         a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
        memcpy(b, c, sizeof(c));
    }
}

int mt_finish(void)
{
    int mine = failures, all = 0, nchecks = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce(&checks, &nchecks, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (mt_rank == 0)
        printf("%s P=%d engine=%s progress=%s: %s (%d checks, %d failures over all ranks)\n", prog,
               mt_size, engine, progress, all ? "FAIL" : "PASS", nchecks, all);
    fflush(stdout);
    MPI_Finalize();
    return all ? 1 : 0;
}

int mt_count(int s, int d, unsigned seed, int max, int symmetric)
{
    if (symmetric && d < s) {
        int t = s; s = d; d = t;
    }
    uint32_t h = ((uint32_t)s * 73856093u) ^ ((uint32_t)d * 19349663u) ^ (seed * 83492791u);
    h ^= h >> 11;
    h *= 2654435761u;
    h ^= h >> 15;
    return h % 4 == 0 ? 0 : (int)(1 + (h >> 4) % (uint32_t)max);
}

int mt_layout(int P, const int *counts, int gap, unsigned seed, int *displs)
{
    int off = 0;
    for (int k = 0; k < P; k++) {
        /* reverse order for odd seeds, rotated order otherwise */
        int p = (seed & 1) ? P - 1 - k : (k + (int)seed) % P;
        off += gap ? (int)((unsigned)p * 7u + seed) % (gap + 1) : 0;
        displs[p] = off;
        off += counts[p];
    }
    return off + 1;
}

int mt_in_gap(int P, const int *counts, const int *displs, int e)
{
    for (int p = 0; p < P; p++)
        if (e >= displs[p] && e < displs[p] + counts[p])
            return 0;
    return 1;
}
