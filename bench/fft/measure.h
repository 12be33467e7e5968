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
    char              name[64];    /* "blocking", "pipelined_nbo[ucx]", "roundtrip_nbo[ucx,fp32]" */
    p3o_mode_t        mode;
    int               set_engine;  /* 0: libnbo engine from NBO_ENGINE / auto */
    char              engine[NBO_ENGINE_NAME_MAX];
    int               roundtrip;   /* p3o_roundtrip instead of forward + backward */
    nbo_codec_t       codec;       /* options.codec (PIPELINED_NBO only) */
    int               rate;        /* zfp's bits per value */
    int               compress_row;
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
    p3o_compression_t comp;  /* the plan's codec, bounds and bytes (p3o_compression) */
    /* Against the exact result of the same session (reference_t): relative
     * 2-norm error of the output of one iteration, largest over the
     * variables; the sine of the timed loop, and a random field (one more
     * iteration, untimed).  -1: no reference. */
    double       err_sine, err_random;
} measurement_t;

/* The exact outputs of a grid, kept from its first run whose exchanges
 * are exact, for the runs that compress. */
typedef struct reference {
    int    have;
    void  *sine, *random;   /* nv X-pencils each */
} reference_t;

void reference_free(reference_t *ref);

/* Collective over comm.  ref (may be NULL): filled by the first exact run,
 * compared with by the others. */
void measure(MPI_Comm comm, const setup_t *s, const variant_t *v, reference_t *ref,
             measurement_t *m);

#endif
