/*
 * fft1d.c - batched 1-D FFTs over FFTW in double (fftw3) or single
 * (fftw3f) precision: howmany contiguous lines of n points, one after
 * another.  Planned once; executed on any arrays with FFTW's new-array
 * execute functions.
 */
#include <fftw3.h>
#include <stdio.h>

#include "p3o_internal.h"

void *p3o_alloc(p3o_precision_t prec, size_t bytes)
{
    if (bytes == 0)
        bytes = 16;
    return prec == P3O_DOUBLE ? fftw_malloc(bytes) : fftwf_malloc(bytes);
}

void p3o_free(p3o_precision_t prec, void *p)
{
    if (!p)
        return;
    if (prec == P3O_DOUBLE)
        fftw_free(p);
    else
        fftwf_free(p);
}

static int alignment_of(p3o_precision_t prec, const void *p)
{
    return prec == P3O_DOUBLE ? fftw_alignment_of((double *)p) : fftwf_alignment_of((float *)p);
}

/* Real lines are n long, complex ones n/2+1 (r2c/c2r) or n (c2c). */
static void *make(p3o_fft_kind_t kind, p3o_precision_t prec, int n, int howmany, void *in,
                  void *out, unsigned flags)
{
    const int nh = n / 2 + 1;
    if (prec == P3O_DOUBLE) {
        switch (kind) {
        case P3O_FFT_R2C:
            return fftw_plan_many_dft_r2c(1, &n, howmany, in, NULL, 1, n, out, NULL, 1, nh, flags);
        case P3O_FFT_C2R:
            return fftw_plan_many_dft_c2r(1, &n, howmany, in, NULL, 1, nh, out, NULL, 1, n, flags);
        case P3O_FFT_C2C_FWD:
        case P3O_FFT_C2C_BWD:
            return fftw_plan_many_dft(1, &n, howmany, in, NULL, 1, n, out, NULL, 1, n,
                                      kind == P3O_FFT_C2C_FWD ? FFTW_FORWARD : FFTW_BACKWARD,
                                      flags);
        }
    } else {
        switch (kind) {
        case P3O_FFT_R2C:
            return fftwf_plan_many_dft_r2c(1, &n, howmany, in, NULL, 1, n, out, NULL, 1, nh, flags);
        case P3O_FFT_C2R:
            return fftwf_plan_many_dft_c2r(1, &n, howmany, in, NULL, 1, nh, out, NULL, 1, n, flags);
        case P3O_FFT_C2C_FWD:
        case P3O_FFT_C2C_BWD:
            return fftwf_plan_many_dft(1, &n, howmany, in, NULL, 1, n, out, NULL, 1, n,
                                       kind == P3O_FFT_C2C_FWD ? FFTW_FORWARD : FFTW_BACKWARD,
                                       flags);
        }
    }
    return NULL;
}

int p3o_fft_plan(p3o_fft_t *f, p3o_fft_kind_t kind, p3o_precision_t prec, int n, int howmany,
                 void *in, void *out, unsigned flags)
{
    f->kind = kind;
    f->prec = prec;
    f->n = n;
    f->howmany = howmany;
    f->in_place = in == out;
    f->align_in = alignment_of(prec, in);
    f->align_out = alignment_of(prec, out);
    f->plan_unaligned = NULL;
    f->plan = make(kind, prec, n, howmany, in, out, flags);
    if (!f->plan)
        return p3o_fail(P3O_ERR_FFTW, "FFTW could not plan %d lines of a %d-point %s transform",
                        howmany, n, kind == P3O_FFT_R2C ? "r2c" : kind == P3O_FFT_C2R ? "c2r" : "c2c");
    return P3O_SUCCESS;
}

static void run(p3o_precision_t prec, p3o_fft_kind_t kind, void *plan, void *in, void *out)
{
    if (prec == P3O_DOUBLE) {
        if (kind == P3O_FFT_R2C)
            fftw_execute_dft_r2c(plan, in, out);
        else if (kind == P3O_FFT_C2R)
            fftw_execute_dft_c2r(plan, in, out);
        else
            fftw_execute_dft(plan, in, out);
    } else {
        if (kind == P3O_FFT_R2C)
            fftwf_execute_dft_r2c(plan, in, out);
        else if (kind == P3O_FFT_C2R)
            fftwf_execute_dft_c2r(plan, in, out);
        else
            fftwf_execute_dft(plan, in, out);
    }
}

/* in is const for the caller: every plan that reads user memory is
 * out-of-place r2c or c2c, which FFTW never lets overwrite its input. */
int p3o_fft_exec(p3o_fft_t *f, const void *in, void *out)
{
    if (f->gpu)
        return p3o_cufft_exec(f, in, out);
    void *src = (void *)in;
    if ((src == out) != f->in_place)
        return p3o_fail(P3O_ERR_ARG, "FFT executed %s-place on a plan made %s-place",
                        src == out ? "in" : "out-of", f->in_place ? "in" : "out-of");
    void *plan = f->plan;
    if (alignment_of(f->prec, src) != f->align_in || alignment_of(f->prec, out) != f->align_out) {
        if (!f->plan_unaligned)
            f->plan_unaligned = make(f->kind, f->prec, f->n, f->howmany, src, out,
                                     FFTW_ESTIMATE | FFTW_UNALIGNED);
        if (!f->plan_unaligned)
            return p3o_fail(P3O_ERR_FFTW, "FFTW could not plan an unaligned %d-point transform",
                            f->n);
        plan = f->plan_unaligned;
    }
    run(f->prec, f->kind, plan, src, out);
    return P3O_SUCCESS;
}

void p3o_fft_destroy(p3o_fft_t *f)
{
    if (f->gpu) {
        p3o_cufft_destroy(f);
        return;
    }
    void *plans[2] = {f->plan, f->plan_unaligned};
    for (int i = 0; i < 2; i++) {
        if (!plans[i])
            continue;
        if (f->prec == P3O_DOUBLE)
            fftw_destroy_plan(plans[i]);
        else
            fftwf_destroy_plan(plans[i]);
    }
    f->plan = f->plan_unaligned = NULL;
}

int p3o_wisdom_import(p3o_precision_t prec, const char *file)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return P3O_SUCCESS; /* no wisdom yet: it is written after planning */
    fclose(f);
    int ok = prec == P3O_DOUBLE ? fftw_import_wisdom_from_filename(file)
                                : fftwf_import_wisdom_from_filename(file);
    return ok ? P3O_SUCCESS
              : p3o_fail(P3O_ERR_FFTW,
                         "cannot read FFTW wisdom from %s (not wisdom of %s precision? fftw3 and "
                         "fftw3f wisdom differ: use one file per precision)",
                         file, prec == P3O_DOUBLE ? "double" : "single");
}

int p3o_wisdom_export(p3o_precision_t prec, const char *file)
{
    int ok = prec == P3O_DOUBLE ? fftw_export_wisdom_to_filename(file)
                                : fftwf_export_wisdom_to_filename(file);
    return ok ? P3O_SUCCESS : p3o_fail(P3O_ERR_FFTW, "cannot write FFTW wisdom to %s", file);
}

unsigned p3o_fftw_flags(p3o_planner_t planner)
{
    switch (planner) {
    case P3O_PLANNER_ESTIMATE: return FFTW_ESTIMATE;
    case P3O_PLANNER_PATIENT:  return FFTW_PATIENT;
    case P3O_PLANNER_MEASURE:  break;
    }
    return FFTW_MEASURE;
}
