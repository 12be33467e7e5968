/*
 * nbo_pcg.c - a pipelined-CG mini-app: what a solver's one reduction per
 * iteration costs when MPI carries it and when libnbo's progress thread
 * does, the way PETSc's KSPPIPECG, MFEM or Neko use it.
 *
 * The same 3-D Poisson problem is solved by classic CG (two blocking
 * allreduces per iteration), and by pipelined CG whose one reduction runs
 * behind the matrix-vector product: MPI_Iallreduce, a persistent libnbo
 * request (nbo_allreduce_init once, nbo_start / nbo_wait per iteration),
 * and the same with nbo_test after each plane.  A fixed number of
 * iterations each, so that times compare; solves alternate in rotating
 * order, and the figure is the median over repetitions of the slowest
 * rank's time per iteration.  The residual histories are checked against
 * each other (exit 1 if a check fails).
 */
#include "stats.h"
#include "pcg.h"

#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int N, iters, reps, verbose;
    const char *csv;
} options_t;

static void usage(FILE *f)
{
    fprintf(f,
        "usage: nbo_pcg [-N N] [-i ITERS] [-r REPS] [-o FILE.csv] [-v] [-h]\n"
        "  -N  global grid N^3, z slabs over the ranks (default 64; N >= ranks)\n"
        "  -i  iterations per solve, fixed: no stopping test (default 100)\n"
        "  -r  timed solves per solver, alternating, after one warm-up each\n"
        "      (default 5, at most %d; medians over them)\n"
        "  -o  CSV, one line per solver (rank 0)\n"
        "  -v  print every solver's residual history\n"
        "  solvers: cg, pipecg_mpi, pipecg_nbo, pipecg_nbo_test; libnbo's communicator\n"
        "  has the defaults and the environment's NBO_* variables\n",
        PCG_MAX_REPS);
}

static int int_arg(const char *s, int min, int max, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < min || v > max)
        return 1;
    *out = (int)v;
    return 0;
}

/* 0: run; 1: -h done; -1: bad options (usage printed). */
static int parse(int argc, char **argv, options_t *o, int rank)
{
    *o = (options_t){.N = 64, .iters = 100, .reps = 5};
    int ch, bad = 0;
    opterr = rank == 0; /* getopt's complaint once, not once per rank */
    while ((ch = getopt(argc, argv, "N:i:r:o:vh")) != -1) {
        switch (ch) {
        case 'N': bad |= int_arg(optarg, 1, 4096, &o->N); break;
        case 'i': bad |= int_arg(optarg, 1, 1000000, &o->iters); break;
        case 'r': bad |= int_arg(optarg, 1, PCG_MAX_REPS, &o->reps); break;
        case 'o': o->csv = optarg; break;
        case 'v': o->verbose = 1; break;
        case 'h':
            if (rank == 0)
                usage(stdout);
            return 1;
        default: bad = 1;
        }
    }
    bad |= optind < argc;
    if (bad && rank == 0)
        usage(stderr);
    return bad ? -1 : 0;
}

static double max_over_ranks(double t)
{
    double tmax;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return tmax;
}

/* The largest relative deviation of a history from the reference one. */
static double deviation(const double *ref, const double *h, int n)
{
    double worst = 0;
    for (int i = 0; i < n; i++) {
        double d = ref[i] == h[i] ? 0 : fabs(ref[i] - h[i]) / fabs(ref[i]);
        worst = d > worst || isnan(d) ? d : worst; /* NaN sticks */
    }
    return worst;
}

/* One warm-up solve per solver (its history and errors are the checked
 * ones), then reps timed solves each, rotating the order every rep. */
static int time_solvers(pcg_t *c, const options_t *o, pcg_report_t *r, double *scratch)
{
    int err = 0;
    double t, us[S_N][PCG_MAX_REPS];
    for (int s = 0; s < S_N; s++) {
        err |= solve(c, (solver_t)s, o->iters, r->hist[s], &t);
        solve_errors(c, &r->rel_residual[s], &r->rel_error[s], &r->rel_error_a[s]);
    }
    for (int rep = 0; rep < o->reps; rep++)
        for (int m = 0; m < S_N; m++) {
            int s = (m + rep) % S_N;
            err |= solve(c, (solver_t)s, o->iters, scratch, &t);
            us[s][rep] = max_over_ranks(t) / o->iters * 1e6;
            double d = deviation(r->hist[s], scratch, o->iters);
            r->rep_dev[s] = d > r->rep_dev[s] || isnan(d) ? d : r->rep_dev[s];
        }
    for (int s = 0; s < S_N; s++)
        r->us_iter[s] = bench_median(us[s], o->reps);
    return err;
}

/* The parts of an iteration alone: one reduction (MPI's non-blocking
 * one, as pipecg_mpi; libnbo's; MPI's blocking one, as cg, one double)
 * and one matrix-vector product with its halo exchange. */
enum { A_ALLREDUCE_MPI, A_ALLREDUCE_NBO, A_ALLREDUCE_BLOCKING, A_SPMV, A_N };

static int alone_op(pcg_t *c, int a)
{
    if (a == A_ALLREDUCE_BLOCKING)
        return MPI_Allreduce(c->red_send, c->red_recv, 1, MPI_DOUBLE, MPI_SUM,
                             MPI_COMM_WORLD) != MPI_SUCCESS;
    if (a == A_ALLREDUCE_MPI) {
        MPI_Request req;
        return MPI_Iallreduce(c->red_send, c->red_recv, PCG_NDOT, MPI_DOUBLE, MPI_SUM,
                              MPI_COMM_WORLD, &req) != MPI_SUCCESS ||
               MPI_Wait(&req, MPI_STATUS_IGNORE) != MPI_SUCCESS;
    }
    if (a == A_ALLREDUCE_NBO)
        return nbo_start(&c->nbo_req) != NBO_SUCCESS || nbo_wait(&c->nbo_req) != NBO_SUCCESS;
    return spmv(&c->g, c->w, c->q, NULL, NULL) != MPI_SUCCESS;
}

/* n operations back to back: the slowest rank's us per operation. */
static double alone_block(pcg_t *c, int a, int n, int *err)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = now_s();
    for (int i = 0; i < n; i++)
        *err |= alone_op(c, a);
    return max_over_ranks(now_s() - t0) / n * 1e6;
}

static int time_alone(pcg_t *c, const options_t *o, pcg_report_t *r)
{
    int err = 0;
    double us[A_N][PCG_MAX_REPS];
    for (int a = 0; a < A_N; a++) /* warm-up */
        alone_block(c, a, o->iters / 4 + 1, &err);
    for (int rep = 0; rep < o->reps; rep++)
        for (int m = 0; m < A_N; m++) {
            int a = (m + rep) % A_N;
            us[a][rep] = alone_block(c, a, o->iters, &err);
        }
    r->allreduce_mpi_us = bench_median(us[A_ALLREDUCE_MPI], o->reps);
    r->allreduce_nbo_us = bench_median(us[A_ALLREDUCE_NBO], o->reps);
    r->allreduce_blocking_us = bench_median(us[A_ALLREDUCE_BLOCKING], o->reps);
    r->spmv_us = bench_median(us[A_SPMV], o->reps);
    return err;
}

static void print_histories(const pcg_report_t *r)
{
    printf("# residual histories ||r_i|| / ||r_0||\n%6s", "i");
    for (int s = 0; s < S_N; s++)
        printf(" %16s", solver_name(s));
    printf("\n");
    for (int i = 0; i < r->iters; i++) {
        printf("%6d", i);
        for (int s = 0; s < S_N; s++)
            printf(" %16.9e", r->hist[s][i] / r->hist[s][0]);
        printf("\n");
    }
}

static int run(const options_t *o, nbo_comm_t comm, int rank, int P)
{
    pcg_t c;
    pcg_report_t r = {.N = o->N, .P = P, .iters = o->iters, .reps = o->reps};
    nbo_comm_info_t info;
    nbo_comm_query(comm, &info);
    r.engine = info.engine;
    r.progress = nbo_progress_name(info.progress);
    int err = pcg_setup(&c, o->N, comm) != 0;
    double *scratch = malloc((size_t)o->iters * sizeof(double));
    err |= !scratch;
    for (int s = 0; s < S_N; s++)
        err |= !(r.hist[s] = calloc((size_t)o->iters, sizeof(double)));
    int any;
    MPI_Allreduce(&err, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any) {
        if (rank == 0)
            fprintf(stderr, "nbo_pcg: setup failed (memory or nbo_allreduce_init)\n");
    } else {
        if (rank == 0)
            printf("# nbo_pcg: 3-D Poisson %d^3, 7-point stencil, P = %d z slabs of %d-%d "
                   "planes, %d iterations, median of %d solves (slowest rank); libnbo engine "
                   "%s, progress %s\n",
                   o->N, P, o->N / P, (o->N + P - 1) / P, o->iters, o->reps, r.engine,
                   r.progress);
        err |= time_solvers(&c, o, &r, scratch);
        err |= time_alone(&c, o, &r);
        MPI_Allreduce(&err, &r.failed_calls, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (rank == 0) {
            report_table(&r, stdout);
            if (o->verbose)
                print_histories(&r);
        }
        int failed = report_checks(&r, rank == 0 ? stdout : NULL);
        MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        if (rank == 0 && o->csv && report_csv(&r, o->csv) != 0)
            any = 1;
        if (rank == 0)
            printf("# nbo_pcg: done, %s\n", any ? "CHECKS FAILED" : "all checks passed");
    }
    for (int s = 0; s < S_N; s++)
        free(r.hist[s]);
    free(scratch);
    pcg_free(&c);
    return any ? 1 : 0;
}

int main(int argc, char **argv)
{
    int provided, rank, P;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    options_t o;
    int rc = parse(argc, argv, &o, rank);
    if (rc == 0 && o.N < P) {
        if (rank == 0)
            fprintf(stderr, "nbo_pcg: -N %d: each of the %d ranks needs a plane\n", o.N, P);
        rc = -1;
    }
    if (rc == 0 && provided < MPI_THREAD_MULTIPLE) {
        if (rank == 0)
            fprintf(stderr, "nbo_pcg: MPI gives no MPI_THREAD_MULTIPLE (libnbo's progress "
                            "thread needs it)\n");
        rc = -2;
    }
    if (rc != 0) {
        MPI_Finalize();
        return rc == 1 ? 0 : rc == -1 ? 2 : 1;
    }
    nbo_comm_t comm;
    rc = nbo_comm_create(MPI_COMM_WORLD, NULL, &comm);
    if (rc != NBO_SUCCESS) {
        if (rank == 0)
            fprintf(stderr, "nbo_pcg: nbo_comm_create: %s\n", nbo_strerror(rc));
        MPI_Finalize();
        return 1;
    }
    rc = run(&o, comm, rank, P);
    nbo_comm_free(&comm);
    MPI_Finalize();
    return rc;
}
