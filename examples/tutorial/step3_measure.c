/*
 * step3_measure.c - tutorial step 3 (docs/tutorial.md): how much of the
 * exchange a time-step loop hides behind its compute, measured the way
 * docs/benchmarks.md's application loop does.
 *
 *   mpiexec -n 2 ./step3 [KiB per peer, default 256] [rounds, default 5]
 *
 * Blocks of ITERS iterations of three kinds alternate, in rotating order,
 * ROUNDS times: compute only, exchange only (start; wait), overlapped
 * (start; compute; wait).  A block counts as its slowest rank's time per
 * iteration; with the medians over rounds
 *
 *   hidden = 100 * (compute + exchange - overlapped) / exchange
 *
 * 100 %: the loop costs its compute alone; 0 %: compute + exchange.
 * Alternating the kinds makes a shared machine's drift fall on all three.
 */
#include <dirent.h>
#include <nbo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COMPUTE, EXCHANGE, OVERLAPPED, KINDS };
static const char *const kind_name[KINDS] = {"compute", "exchange", "overlapped"};
#define ITERS 10

#define CHECK(call)                                                                  \
    do {                                                                             \
        int rc_ = (call);                                                            \
        if (rc_ != NBO_SUCCESS) {                                                    \
            fprintf(stderr, "%s: %s\n", #call, nbo_strerror(rc_));                   \
            MPI_Abort(MPI_COMM_WORLD, 1);                                            \
        }                                                                            \
    } while (0)

/* Work that touches no memory, so that it does not compete with the
 * exchange for memory bandwidth; the sink keeps the compiler from
 * dropping it. */
static volatile double sink;
static void compute(long steps)
{
    double x = 1.0;
    for (long i = 0; i < steps; i++)
        x = x * 0.999999 + 1e-7;
    sink = x;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Block p of recv is rank p's block `me`: p * 1e9 + me * count + i. */
static long count_wrong(const double *recv, int count, int P, int me)
{
    long wrong = 0;
    for (int p = 0; p < P; p++)
        for (int i = 0; i < count; i++)
            wrong += recv[(size_t)p * count + i] != p * 1e9 + (double)me * count + i;
    return wrong;
}

/* One block of ITERS iterations of a kind: its slowest rank's seconds per
 * iteration.  Adds the wrong values received to *wrong. */
static double run_block(int kind, nbo_request_t *req, long steps, const double *recv,
                        int count, int P, int me, long *wrong)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    for (int it = 0; it < ITERS; it++) {
        if (kind != COMPUTE)
            CHECK(nbo_start(req));
        if (kind != EXCHANGE)
            compute(steps);
        if (kind != COMPUTE)
            CHECK(nbo_wait(req));
    }
    t = (MPI_Wtime() - t) / ITERS;
    if (kind != COMPUTE)
        *wrong += count_wrong(recv, count, P, me);
    double slowest;
    MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
}

/* Where this process's progress thread (named nbo-progress) runs: the
 * core it last ran on, as ps -L -o psr shows, and the cores it may use. */
static void print_progress_thread(int me)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char path[300], comm[32] = "", line[256];
        snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        if (!fgets(comm, sizeof(comm), f) || strncmp(comm, "nbo-progress", 12) != 0) {
            fclose(f);
            continue;
        }
        fclose(f);
        int core = -1;
        snprintf(path, sizeof(path), "/proc/self/task/%s/stat", e->d_name);
        if ((f = fopen(path, "r"))) {
            /* the 39th field; the 2nd, "(comm)", has no spaces here */
            if (fgets(line, sizeof(line), f)) {
                char *s = line;
                for (int field = 1; field < 39 && s; field++)
                    s = strchr(s + 1, ' ');
                if (s)
                    core = atoi(s + 1);
            }
            fclose(f);
        }
        char allowed[128] = "?";
        snprintf(path, sizeof(path), "/proc/self/task/%s/status", e->d_name);
        if ((f = fopen(path, "r"))) {
            while (fgets(line, sizeof(line), f))
                if (sscanf(line, "Cpus_allowed_list: %127s", allowed) == 1)
                    break;
            fclose(f);
        }
        printf("rank %d: progress thread %s on core %d, allowed cores %s\n", me, e->d_name,
               core, allowed);
    }
    if (d)
        closedir(d);
}

int main(int argc, char **argv)
{
    int provided, P, me;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    const int count = (argc > 1 ? atoi(argv[1]) : 256) * 1024 / (int)sizeof(double);
    const int rounds = argc > 2 ? atoi(argv[2]) : 5;
    if (count <= 0 || rounds <= 0 || rounds > 100) {
        if (me == 0)
            fprintf(stderr, "usage: step3 [KiB per peer] [rounds, 1-100]\n");
        MPI_Finalize();
        return 2;
    }
    nbo_comm_t comm;
    CHECK(nbo_comm_create(MPI_COMM_WORLD, NULL, &comm));
    double *send = malloc(sizeof(double) * count * P);
    double *recv = calloc((size_t)count * P, sizeof(double));
    for (int i = 0; i < count * P; i++)
        send[i] = me * 1e9 + i;
    nbo_request_t req;
    CHECK(nbo_alltoall_init(send, count, MPI_DOUBLE, recv, count, MPI_DOUBLE, comm, &req));

    /* Size the compute to take as long as the exchange: medians of three
     * exchange blocks and of three probes, on rank 0, so that every rank
     * does the same work. */
    long wrong = 0, steps = 0;
    run_block(EXCHANGE, &req, 0, recv, count, P, me, &wrong); /* warm-up: connections */
    double ex[3], pr[3];
    const long probe = 1000000;
    for (int i = 0; i < 3; i++) {
        ex[i] = run_block(EXCHANGE, &req, 0, recv, count, P, me, &wrong);
        pr[i] = MPI_Wtime();
        compute(probe);
        pr[i] = MPI_Wtime() - pr[i];
    }
    if (me == 0)
        steps = (long)(probe * median(ex, 3) / median(pr, 3)) + 1;
    MPI_Bcast(&steps, 1, MPI_LONG, 0, MPI_COMM_WORLD);

    double *times[KINDS];
    for (int k = 0; k < KINDS; k++)
        times[k] = malloc(sizeof(double) * rounds);
    for (int r = 0; r < rounds; r++)
        for (int j = 0; j < KINDS; j++) {
            int k = (r + j) % KINDS; /* rotating order */
            times[k][r] = run_block(k, &req, steps, recv, count, P, me, &wrong);
        }
    double t[KINDS];
    for (int k = 0; k < KINDS; k++)
        t[k] = median(times[k], rounds);
    double hidden = 100 * (t[COMPUTE] + t[EXCHANGE] - t[OVERLAPPED]) / t[EXCHANGE];

    nbo_comm_info_t info;
    nbo_comm_query(comm, &info);
    if (me == 0) {
        printf("%d ranks, %d KiB per peer, engine %s, progress %s, %d rounds of %d iterations\n",
               P, (int)(count * sizeof(double) / 1024), info.engine,
               nbo_progress_name(info.progress), rounds, ITERS);
        for (int k = 0; k < KINDS; k++)
            printf("%-10s %10.1f us per iteration (median)\n", kind_name[k], t[k] * 1e6);
        printf("hidden     %10.1f %% of the exchange\n", hidden);
    }
    for (int p = 0; p < P; p++) { /* one rank at a time */
        MPI_Barrier(MPI_COMM_WORLD);
        if (p == me)
            print_progress_thread(me);
        fflush(stdout);
    }
    long wrong_all = 0;
    MPI_Allreduce(&wrong, &wrong_all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0)
        printf("%ld wrong values\n", wrong_all);
    CHECK(nbo_request_free(&req));
    for (int k = 0; k < KINDS; k++)
        free(times[k]);
    free(send);
    free(recv);
    CHECK(nbo_comm_free(&comm));
    MPI_Finalize();
    return wrong_all != 0;
}
