/* fft_reference.c - fields, exact spectra and serial-FFTW references for the FFT tests. */
#include "fft_reference.h"

#include <fftw3.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

double fft_tolerance(p3o_precision_t prec)
{
    return prec == P3O_DOUBLE ? FFT_TOL_DOUBLE : FFT_TOL_SINGLE;
}

/* ---------------------------------------------------------------- fields */

double fft_sine(const p3o_local_t *l, int v, int x, int y, int z)
{
    const double tau = 2.0 * M_PI;
    return (v + 1) * sin(tau * x / l->nx) * sin(tau * y / l->ny) * sin(tau * z / l->nz);
}

static uint64_t splitmix(uint64_t s)
{
    s += 0x9e3779b97f4a7c15ull;
    s = (s ^ (s >> 30)) * 0xbf58476d1ce4e5b9ull;
    s = (s ^ (s >> 27)) * 0x94d049bb133111ebull;
    return s ^ (s >> 31);
}

double fft_random(const p3o_local_t *l, int v, int x, int y, int z)
{
    uint64_t i = (((uint64_t)v * l->nz + z) * l->ny + y) * l->nx + x;
    return (double)(splitmix(i + 12345) >> 11) * 0x1.0p-52 - 1.0; /* [-1, 1) */
}

/* The 1-D DFT (sign -1) of sin(2 pi j / n): -i n/2 at k = 1, +i n/2 at
 * k = n - 1, zero elsewhere (n >= 3). */
static double complex sine_1d(int n, int k)
{
    if (k == 1)
        return -I * n / 2.0;
    if (k == n - 1)
        return I * n / 2.0;
    return 0;
}

double complex fft_sine_coefficient(const p3o_local_t *l, int v, int kx, int ky, int kz)
{
    return (v + 1) * sine_1d(l->nx, kx) * sine_1d(l->ny, ky) * sine_1d(l->nz, kz);
}

/* --------------------------------------------------------------- buffers */

static size_t rsize(const p3o_local_t *l) { return l->precision == P3O_DOUBLE ? 8 : 4; }

void *fft_alloc_real(const p3o_local_t *l)
{
    return fftw_malloc(l->real_count * (size_t)l->nv * rsize(l) + 16);
}

void *fft_alloc_complex(const p3o_local_t *l)
{
    return fftw_malloc(l->complex_count * (size_t)l->nv * 2 * rsize(l) + 16);
}

static void set_real(const p3o_local_t *l, void *real, size_t at, double x)
{
    if (l->precision == P3O_DOUBLE)
        ((double *)real)[at] = x;
    else
        ((float *)real)[at] = (float)x;
}

double fft_real_at(const p3o_local_t *l, const void *real, int v, size_t i)
{
    size_t at = (size_t)v * l->real_count + i;
    return l->precision == P3O_DOUBLE ? ((const double *)real)[at] : ((const float *)real)[at];
}

double complex fft_complex_at(const p3o_local_t *l, const void *cplx, int v, size_t i)
{
    size_t at = 2 * ((size_t)v * l->complex_count + i);
    if (l->precision == P3O_DOUBLE)
        return ((const double *)cplx)[at] + I * ((const double *)cplx)[at + 1];
    return ((const float *)cplx)[at] + I * ((const float *)cplx)[at + 1];
}

static void scale_n(const p3o_local_t *l, void *cplx, size_t n, double s)
{
    for (size_t i = 0; i < n; i++)
        if (l->precision == P3O_DOUBLE)
            ((double *)cplx)[i] *= s;
        else
            ((float *)cplx)[i] *= (float)s;
}

void fft_complex_scale(const p3o_local_t *l, void *cplx, double s)
{
    scale_n(l, cplx, 2 * l->complex_count * (size_t)l->nv, s);
}

void fft_complex_scale_one(const p3o_local_t *l, void *spectrum, double s)
{
    scale_n(l, spectrum, 2 * l->complex_count, s);
}

/* The X-pencil walk: element i of a variable is global (x, ys+y, zs+z). */
#define FOR_X_PENCIL(l, i, gx, gy, gz)                                           \
    for (int z_ = 0, i = 0; z_ < (l)->xsize[2]; z_++)                             \
        for (int y_ = 0; y_ < (l)->xsize[1]; y_++)                                \
            for (int gx = 0, gy = (l)->xstart[1] + y_, gz = (l)->xstart[2] + z_;  \
                 gx < (l)->nx; gx++, i++)

void fft_fill(const p3o_local_t *l, void *real, fft_field_t f)
{
    for (int v = 0; v < l->nv; v++)
        FOR_X_PENCIL(l, i, x, y, z)
            set_real(l, real, (size_t)v * l->real_count + (size_t)i, f(l, v, x, y, z));
}

double fft_roundtrip_error(const p3o_local_t *l, const void *real, fft_field_t f)
{
    double err = 0;
    for (int v = 0; v < l->nv; v++) {
        const double amp = f == fft_sine ? v + 1 : 1;
        FOR_X_PENCIL(l, i, x, y, z) {
            double e = fabs(fft_real_at(l, real, v, (size_t)i) - f(l, v, x, y, z)) / amp;
            err = e > err ? e : err;
        }
    }
    return err;
}

/* The Z-pencil walk: element i of a variable is coefficient (xs+x, ys+y, z). */
#define FOR_Z_PENCIL(l, i, kx, ky, kz)                                           \
    for (int x_ = 0, i = 0; x_ < (l)->zsize[0]; x_++)                             \
        for (int y_ = 0; y_ < (l)->zsize[1]; y_++)                                \
            for (int kz = 0, kx = (l)->zstart[0] + x_, ky = (l)->zstart[1] + y_;  \
                 kz < (l)->nz; kz++, i++)

double fft_sine_spectrum_error_of(const p3o_local_t *l, const void *spectrum, int v)
{
    const double N = (double)l->nx * l->ny * l->nz;
    double err = 0;
    FOR_Z_PENCIL(l, i, kx, ky, kz) {
        double complex want = fft_sine_coefficient(l, v, kx, ky, kz);
        double e = cabs(fft_complex_at(l, spectrum, 0, (size_t)i) - want) / (N * (v + 1));
        err = e > err ? e : err;
    }
    return err;
}

double fft_sine_spectrum_error(const p3o_local_t *l, const void *cplx)
{
    const size_t var_bytes = l->complex_count * 2 * (l->precision == P3O_DOUBLE ? 8 : 4);
    double err = 0;
    for (int v = 0; v < l->nv; v++) {
        double e = fft_sine_spectrum_error_of(l, (const char *)cplx + (size_t)v * var_bytes, v);
        err = e > err ? e : err;
    }
    return err;
}

/* ------------------------------------------------------- serial reference */

static double compare_on_root(const p3o_local_t *l, int P, const int *meta, const int *displs,
                              const double *all, int v, fft_field_t f)
{
    const int nx = l->nx, ny = l->ny, nz = l->nz, nxh = nx / 2 + 1;
    const size_t nreal = (size_t)nx * ny * nz, nspec = (size_t)nxh * ny * nz;
    double *in = fftw_malloc(nreal * sizeof(double));
    fftw_complex *ref = fftw_malloc(nspec * sizeof(fftw_complex));
    int *seen = calloc(nspec, sizeof(int));
    double *got = malloc(2 * nspec * sizeof(double));
    fftw_plan plan = fftw_plan_dft_r2c_3d(nz, ny, nx, in, ref, FFTW_ESTIMATE);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++)
                in[((size_t)z * ny + y) * nx + x] = f(l, v, x, y, z);
    fftw_execute(plan);

    double err = 0, peak = 0;
    for (int r = 0; r < P; r++) {
        const int *m = meta + 6 * r; /* zstart[3], zsize[3] */
        const double *d = all + displs[r];
        size_t i = 0;
        for (int x = 0; x < m[3]; x++)
            for (int y = 0; y < m[4]; y++)
                for (int z = 0; z < m[5]; z++, i++) {
                    size_t g = ((size_t)z * ny + (m[1] + y)) * nxh + (m[0] + x);
                    seen[g]++;
                    got[2 * g] = d[2 * i];
                    got[2 * g + 1] = d[2 * i + 1];
                }
    }
    for (size_t g = 0; g < nspec; g++) {
        if (seen[g] != 1) {
            err = -1; /* a hole or an overlap in the Z-pencils */
            break;
        }
        const double *r = (const double *)&ref[g]; /* re, im (complex.h or not) */
        double complex want = r[0] + I * r[1];
        double e = cabs(got[2 * g] + I * got[2 * g + 1] - want);
        err = e > err ? e : err;
        peak = cabs(want) > peak ? cabs(want) : peak;
    }
    fftw_destroy_plan(plan);
    fftw_free(in);
    fftw_free(ref);
    free(seen);
    free(got);
    return err < 0 ? err : err / (peak > 0 ? peak : 1);
}

double fft_serial_error(MPI_Comm comm, const p3o_local_t *l, const void *cplx, int v,
                        fft_field_t f)
{
    int rank, P;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &P);
    int meta[6] = {l->zstart[0], l->zstart[1], l->zstart[2], l->zsize[0], l->zsize[1], l->zsize[2]};
    int *metas = rank == 0 ? malloc(6 * (size_t)P * sizeof(int)) : NULL;
    MPI_Gather(meta, 6, MPI_INT, metas, 6, MPI_INT, 0, comm);

    const int n = 2 * (int)l->complex_count;
    double *mine = malloc(((size_t)n + 1) * sizeof(double));
    for (size_t i = 0; i < l->complex_count; i++) {
        double complex c = fft_complex_at(l, cplx, v, i);
        mine[2 * i] = creal(c);
        mine[2 * i + 1] = cimag(c);
    }
    int *counts = NULL, *displs = NULL;
    double *all = NULL;
    if (rank == 0) {
        counts = malloc((size_t)P * sizeof(int));
        displs = malloc((size_t)P * sizeof(int));
        int total = 0;
        for (int r = 0; r < P; r++) {
            counts[r] = 2 * metas[6 * r + 3] * metas[6 * r + 4] * metas[6 * r + 5];
            displs[r] = total;
            total += counts[r];
        }
        all = malloc(((size_t)total + 1) * sizeof(double));
    }
    MPI_Gatherv(mine, n, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, 0, comm);
    double err = rank == 0 ? compare_on_root(l, P, metas, displs, all, v, f) : 0;
    free(metas);
    free(mine);
    free(counts);
    free(displs);
    free(all);
    return err;
}

/* ------------------------------------------------ relative 2-norm errors */

/* Over the ranks: max over v of sqrt(d2[v] / r2[v]) (0 where both are 0). */
static double rel2_reduce(MPI_Comm comm, int nv, const double *d2, const double *r2)
{
    double *loc = calloc(2 * (size_t)nv, sizeof(double)), *all = calloc(2 * (size_t)nv, sizeof(double));
    for (int v = 0; v < nv; v++) {
        loc[v] = d2[v];
        loc[nv + v] = r2[v];
    }
    MPI_Allreduce(loc, all, 2 * nv, MPI_DOUBLE, MPI_SUM, comm);
    double worst = 0;
    for (int v = 0; v < nv; v++) {
        double e = all[v] == 0 ? 0 : all[nv + v] == 0 ? INFINITY : sqrt(all[v] / all[nv + v]);
        worst = e > worst ? e : worst;
    }
    free(loc);
    free(all);
    return worst;
}

double fft_rel2_real(MPI_Comm comm, const p3o_local_t *l, const void *a, const void *b)
{
    double *s = calloc(2 * (size_t)l->nv, sizeof(double));
    for (int v = 0; v < l->nv; v++)
        for (size_t i = 0; i < l->real_count; i++) {
            double x = fft_real_at(l, a, v, i), y = fft_real_at(l, b, v, i);
            s[v] += (x - y) * (x - y);
            s[l->nv + v] += y * y;
        }
    double e = rel2_reduce(comm, l->nv, s, s + l->nv);
    free(s);
    return e;
}

double fft_rel2_complex(MPI_Comm comm, const p3o_local_t *l, const void *a, const void *b)
{
    double *s = calloc(2 * (size_t)l->nv, sizeof(double));
    for (int v = 0; v < l->nv; v++)
        for (size_t i = 0; i < l->complex_count; i++) {
            double complex x = fft_complex_at(l, a, v, i), y = fft_complex_at(l, b, v, i);
            s[v] += creal((x - y) * conj(x - y));
            s[l->nv + v] += creal(y * conj(y));
        }
    double e = rel2_reduce(comm, l->nv, s, s + l->nv);
    free(s);
    return e;
}

void fft_sine_spectrum_sums_of(const p3o_local_t *l, const void *spectrum, int v, double *d2,
                               double *r2)
{
    *d2 = *r2 = 0;
    FOR_Z_PENCIL(l, i, kx, ky, kz) {
        double complex want = fft_sine_coefficient(l, v, kx, ky, kz);
        double complex d = fft_complex_at(l, spectrum, 0, (size_t)i) - want;
        *d2 += creal(d * conj(d));
        *r2 += creal(want * conj(want));
    }
}

double fft_rel2_sine_spectrum(MPI_Comm comm, const p3o_local_t *l, const void *cplx)
{
    const size_t var_bytes = l->complex_count * 2 * (l->precision == P3O_DOUBLE ? 8 : 4);
    double *s = calloc(2 * (size_t)l->nv, sizeof(double));
    for (int v = 0; v < l->nv; v++)
        fft_sine_spectrum_sums_of(l, (const char *)cplx + (size_t)v * var_bytes, v, &s[v],
                                  &s[l->nv + v]);
    double e = rel2_reduce(comm, l->nv, s, s + l->nv);
    free(s);
    return e;
}

double fft_rel2_sums(MPI_Comm comm, int nv, const double *d2, const double *r2)
{
    return rel2_reduce(comm, nv, d2, r2);
}
