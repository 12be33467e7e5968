/*
 * report.h - the benchmark's tables (markdown) and CSV.
 *
 * Ideal bound, from the blocking run's own timers (per iteration, max over
 * ranks):
 *   K     = time in the column MPI_Alltoallv calls (communication that the
 *           pipeline can hide)
 *   C     = T_blocking - K (everything else: FFTs, row transposes, packing,
 *           normalisation)
 *   ideal = T_blocking - min(C, K) = max(C, K)
 * i.e. compute and column communication fully overlapped.  The pipeline of
 * Fig. 4 cannot quite reach it (the first variable's X/Y stages and the last
 * one's Z stage have no exchange to hide behind, or, when compute dominates,
 * the last exchange has no compute): a perfect pipeline of nv variables
 * gains about (1 - 1/nv) of the ideal gain, 75 % at nv = 4, so it is an
 * upper bound.
 *   improvement   = (T_blocking - T) / T_blocking
 *   of ideal      = (T_blocking - T) / min(C, K), shown only when min(C, K)
 *                   is at least 1 % of T_blocking (else nothing is hideable)
 */
#ifndef P3O_BENCH_REPORT_H
#define P3O_BENCH_REPORT_H

#include <stdio.h>

#include "measure.h"

typedef struct bench_row {
    setup_t       s;
    variant_t     v;
    measurement_t m;
} bench_row_t;

/* rows: nsizes groups of nvariants rows each, same variant order. */
void report_summary(FILE *f, const bench_row_t *rows, int nsizes, int nvariants, int P);
void report_details(FILE *f, const bench_row_t *rows, int nsizes, int nvariants, int P);
void report_csv(FILE *f, const bench_row_t *rows, int nsizes, int nvariants, int P);

#endif
