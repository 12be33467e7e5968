/* report.c - nbo_pcg's correctness checks, its table and its CSV. */
#include "pcg.h"

#include <math.h>

/* The same algorithm with the same reduced values: MPI's and libnbo's sums
 * of 3 doubles may round apart only where they add in another order (a
 * rank count that is not a power of two), far below this. */
#define TOL_SAME 1e-10
/* Classic and pipelined CG are equal in exact arithmetic; their rounding
 * drifts apart slowly, so they are compared over the first iterations
 * only, and only while the residual is well above rounding. */
#define TOL_CG 1e-6
#define CG_CMP_ITERS 30
#define CG_CMP_FLOOR 1e-8
/* Rounding floors the error CG can reach (pipelined CG's higher: its
 * extra recurrences drift from the true residual). */
#define ATTAINABLE 1e-6

static double rel_diff(double a, double b)
{
    double m = fmax(fabs(a), fabs(b));
    return m == 0 ? 0 : fabs(a - b) / m; /* NaN stays NaN */
}

/* Largest relative difference of two histories over their first n entries
 * (only while a's residual is above floor * a[0]); NaN if any is NaN. */
static double hist_diff(const double *a, const double *b, int n, double floor)
{
    double worst = 0;
    for (int i = 0; i < n; i++) {
        if (a[i] <= floor * a[0]) /* not when a[i] is NaN: that is compared */
            break;
        double d = rel_diff(a[i], b[i]);
        if (isnan(d))
            return d;
        worst = fmax(worst, d);
    }
    return worst;
}

/* CG's bound on the error after k iterations from x0 = 0, relative in the
 * A-norm: 2 ((sqrt(kappa) - 1) / (sqrt(kappa) + 1))^k, with kappa from the
 * stencil's extreme eigenvalues 6 (1 -+ cos(pi / (N + 1))); not below
 * ATTAINABLE, and below 1 (the A-norm error falls monotonically). */
static double cg_bound(int N, int k)
{
    const double c = cos(3.14159265358979323846 / (N + 1));
    const double sk = sqrt((1 + c) / (1 - c));
    return fmin(1, fmax(2 * pow((sk - 1) / (sk + 1), k), ATTAINABLE));
}

static int check(FILE *out, int ok, const char *what, double value, double limit)
{
    if (out)
        fprintf(out, "# check %-4s %-52s %.3g (limit %.3g)\n", ok ? "ok" : "FAIL", what, value,
                limit);
    return !ok;
}

int report_checks(const pcg_report_t *r, FILE *out)
{
    int failed = 0;
    const int n = r->iters, ncg = n < CG_CMP_ITERS ? n : CG_CMP_ITERS;
    char what[128];
    if (r->failed_calls && out)
        fprintf(out, "# check FAIL an MPI or libnbo call returned an error\n");
    failed += r->failed_calls != 0;
    /* (a) MPI's and libnbo's reduction: the same residual history. */
    for (int s = S_PIPECG_NBO; s < S_N; s++) {
        double d = hist_diff(r->hist[S_PIPECG_MPI], r->hist[s], n, 0);
        snprintf(what, sizeof(what), "%s = pipecg_mpi, all iterations%s", solver_name(s),
                 d == 0 ? " (bitwise)" : "");
        failed += check(out, d <= TOL_SAME, what, d, TOL_SAME);
    }
    /* (b) classic and pipelined CG agree while rounding has not parted them. */
    for (int s = S_PIPECG_MPI; s < S_N; s++) {
        double d = hist_diff(r->hist[S_CG], r->hist[s], ncg, CG_CMP_FLOOR);
        snprintf(what, sizeof(what), "%s = cg, first %d iterations", solver_name(s), ncg);
        failed += check(out, d <= TOL_CG, what, d, TOL_CG);
    }
    /* (c) each converges towards x_true as fast as CG must (its residual
     * need not fall monotonically, the A-norm error does); (d) its
     * repetitions repeat it. */
    const double bound = cg_bound(r->N, n);
    for (int s = 0; s < S_N; s++) {
        snprintf(what, sizeof(what), "%s ||x - x_true||_A / ||x_true||_A", solver_name(s));
        failed += check(out, r->rel_error_a[s] < bound, what, r->rel_error_a[s], bound);
        if (r->reps > 0) {
            snprintf(what, sizeof(what), "%s repetitions = its first solve", solver_name(s));
            failed += check(out, r->rep_dev[s] <= TOL_SAME, what, r->rep_dev[s], TOL_SAME);
        }
    }
    return failed;
}

void report_table(const pcg_report_t *r, FILE *out)
{
    const double cg = r->us_iter[S_CG], mpi = r->us_iter[S_PIPECG_MPI];
    fprintf(out, "%-16s %12s %8s %14s %14s %14s %14s\n", "solver", "us/iteration", "x cg",
            "x pipecg_mpi", "rel. residual", "rel. error", "rel. error A");
    for (int s = 0; s < S_N; s++)
        fprintf(out, "%-16s %12.2f %8.3f %14.3f %14.3e %14.3e %14.3e\n", solver_name(s),
                r->us_iter[s], r->us_iter[s] / cg, r->us_iter[s] / mpi, r->rel_residual[s],
                r->rel_error[s], r->rel_error_a[s]);
    double share = r->allreduce_mpi_us / (r->allreduce_mpi_us + r->spmv_us);
    fprintf(out, "# alone, us per operation: MPI_Iallreduce+MPI_Wait %.2f, nbo_start+nbo_wait "
                 "%.2f (%d doubles); MPI_Allreduce %.2f (1 double); SpMV+halo %.2f\n",
            r->allreduce_mpi_us, r->allreduce_nbo_us, PCG_NDOT, r->allreduce_blocking_us,
            r->spmv_us);
    fprintf(out, "# allreduce share = MPI allreduce / (MPI allreduce + SpMV) = %.1f %%: "
                 "the most that hiding one reduction per iteration can save\n",
            100 * share);
}

int report_csv(const pcg_report_t *r, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return -1;
    }
    fprintf(f, "solver,N,P,iters,reps,engine,progress,us_per_iter,x_cg,x_pipecg_mpi,"
               "rel_residual,rel_error,rel_error_a,allreduce_mpi_us,allreduce_nbo_us,allreduce_blocking_us,spmv_us,"
               "allreduce_share\n");
    double share = r->allreduce_mpi_us / (r->allreduce_mpi_us + r->spmv_us);
    for (int s = 0; s < S_N; s++)
        fprintf(f, "%s,%d,%d,%d,%d,%s,%s,%.3f,%.4f,%.4f,%.6e,%.6e,%.6e,%.3f,%.3f,%.3f,%.3f,%.4f\n",
                solver_name(s), r->N, r->P, r->iters, r->reps, r->engine, r->progress,
                r->us_iter[s], r->us_iter[s] / r->us_iter[S_CG],
                r->us_iter[s] / r->us_iter[S_PIPECG_MPI], r->rel_residual[s], r->rel_error[s],
                r->rel_error_a[s], r->allreduce_mpi_us, r->allreduce_nbo_us, r->allreduce_blocking_us, r->spmv_us,
                share);
    return fclose(f) == 0 ? 0 : -1;
}
