/*
 * measure.h - one benchmark measurement: a plan in one mode (and libnbo
 * engine), warmed up, then timed over iterations of P3DFFT's test_sine
 * loop (forward, normalise, backward of nv variables): two calls and a
 * normalisation between them, or one p3o_roundtrip whose spectral op
 * normalises each variable.
 */
#ifndef P3O_BENCH_MEASURE_H
#define P3O_BENCH_MEASURE_H

#include "p3dfft_overlap.h"

/* What to run. */
typedef struct variant {
    char              name[48];    /* "blocking", "pipelined_nbo[ucx]", ... */
    p3o_mode_t        mode;
    int               set_engine;  /* 0: libnbo engine from NBO_ENGINE / auto */
    nbo_engine_kind_t engine;
    int               roundtrip;   /* p3o_roundtrip instead of forward + backward */
} variant_t;

typedef struct setup {
    int nx, ny, nz, nv;
    int row, col;            /* 0, 0: automatic */
    p3o_precision_t prec;
    p3o_planner_t planner;
    int warmup, iters, reps; /* reps timed loops of iters iterations */
} setup_t;

/* Results; times are seconds per iteration, max over ranks. */
typedef struct measurement {
    int          ok;
    char         error[256];
    double       time;       /* best (min) over reps of the loop time / iters */
    p3o_timers_t t;          /* the best rep's stage timers / iters, each max over ranks */
    double       err;        /* sine round trip, max |u - u0| / amplitude */
    int          row, col;
    char         engine[32], progress[16]; /* libnbo's, "-" otherwise */
} measurement_t;

/* Collective over comm. */
void measure(MPI_Comm comm, const setup_t *s, const variant_t *v, measurement_t *m);

#endif
