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

/* rows: nsizes groups of nvariants rows each, same variant order.  The
 * summary (Table II) leaves out the compressed variants (options.codec),
 * which report_compression sets against the exact runs of the session:
 *   x blocking      T / T_blocking
 *   x exact         T / T of the same mode, engine and call form, exact
 *   wire MB / iter  bytes this rank sends other ranks per iteration
 *                   (2 nv legs, p3o_compression's wire_bytes), of raw
 *   error           relative 2-norm error of the iteration's output
 *                   against the grid's first exact run, largest variable,
 *                   for the sine and a random field; bound: the plan's
 *                   roundtrip_bound */
void report_summary(FILE *f, const bench_row_t *rows, int nsizes, int nvariants, int P);
void report_details(FILE *f, const bench_row_t *rows, int nsizes, int nvariants, int P);
int  report_has_codecs(const bench_row_t *rows, int n);
void report_compression(FILE *f, const bench_row_t *rows, int nsizes, int nvariants, int P);
void report_csv(FILE *f, const bench_row_t *rows, int nsizes, int nvariants, int P);

#endif
