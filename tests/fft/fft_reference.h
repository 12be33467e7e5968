/*
 * fft_reference.h - what the FFT tests share: input fields defined on the
 * global grid, their exact or serial-FFTW spectra, and helpers that read
 * and write local pencils in either precision as doubles.
 */
#ifndef FFT_REFERENCE_H
#define FFT_REFERENCE_H

#include <complex.h>

#include "p3dfft_overlap.h"

/* Accuracy bounds, relative to the field's amplitude (sine) or to the
 * largest coefficient (random).  Double: the 1e-12.  Single: 1e-5,
 * about 80 float epsilons (6e-8), room for the log2(N) rounding steps of
 * three 1-D FFTs and their normalisation on these small grids. */
#define FFT_TOL_DOUBLE 1e-12
#define FFT_TOL_SINGLE 1e-5

double fft_tolerance(p3o_precision_t prec);

/* Input fields of variable v at global point (x, y, z). */
double fft_sine(const p3o_local_t *l, int v, int x, int y, int z);
double fft_random(const p3o_local_t *l, int v, int x, int y, int z);
typedef double (*fft_field_t)(const p3o_local_t *l, int v, int x, int y, int z);

/* Exact forward coefficient (kx, ky, kz) of fft_sine, variable v. */
double complex fft_sine_coefficient(const p3o_local_t *l, int v, int kx, int ky, int kz);

/* Allocate the nv X-pencils (real) / Z-pencils (complex) of a plan. */
void *fft_alloc_real(const p3o_local_t *l);
void *fft_alloc_complex(const p3o_local_t *l);

/* Fill the local X-pencils of all variables with a field. */
void fft_fill(const p3o_local_t *l, void *real, fft_field_t f);

/* Element i of variable v, as double. */
double fft_real_at(const p3o_local_t *l, const void *real, int v, size_t i);
double complex fft_complex_at(const p3o_local_t *l, const void *cplx, int v, size_t i);
void fft_complex_scale(const p3o_local_t *l, void *cplx, double s);
/* The same on one variable's spectrum (as p3o_roundtrip's op gets it). */
void fft_complex_scale_one(const p3o_local_t *l, void *spectrum, double s);

/* Max over this rank of |real - field| / amplitude (real: the backward
 * transform of the normalised spectrum). */
double fft_roundtrip_error(const p3o_local_t *l, const void *real, fft_field_t f);

/* Max over this rank of |U - exact| / (nx ny nz amplitude) for fft_sine. */
double fft_sine_spectrum_error(const p3o_local_t *l, const void *cplx);
/* The same for variable v alone, spectrum pointing at its Z-pencil. */
double fft_sine_spectrum_error_of(const p3o_local_t *l, const void *spectrum, int v);

/*
 * Collective: gather every rank's Z-pencils of variable v on rank 0,
 * check that they tile the nx/2+1 x ny x nz half spectrum exactly once,
 * and compare them with a serial FFTW 3-D r2c (double) of the field.
 * Returns max |U - ref| / max |ref| on rank 0 (a negative value if the
 * pencils overlap or leave holes), 0 elsewhere.
 */
double fft_serial_error(MPI_Comm comm, const p3o_local_t *l, const void *cplx, int v,
                        fft_field_t f);

/*
 * Collective: relative 2-norm errors of one variable over all ranks, the
 * largest over the variables: max_v ||a_v - b_v||_2 / ||b_v||_2, b the
 * reference (0 where a_v == b_v, infinity where only b_v is 0).  Real
 * X-pencils, complex Z-pencils, and a spectrum against fft_sine's exact one.
 * The measure of the compression bounds (p3o_compression).
 */
double fft_rel2_real(MPI_Comm comm, const p3o_local_t *l, const void *a, const void *b);
double fft_rel2_complex(MPI_Comm comm, const p3o_local_t *l, const void *a, const void *b);
double fft_rel2_sine_spectrum(MPI_Comm comm, const p3o_local_t *l, const void *cplx);
/* Local sums for variable v alone (spectrum at its Z-pencil): d2 = sum
 * |U - exact|^2, r2 = sum |exact|^2; fft_rel2_sums reduces nv of them. */
void fft_sine_spectrum_sums_of(const p3o_local_t *l, const void *spectrum, int v, double *d2,
                               double *r2);
double fft_rel2_sums(MPI_Comm comm, int nv, const double *d2, const double *r2);

#endif
