/*
 * fft_multivar.c - a 3-D FFT of several variables at once, with the column
 * transpose of variable j overlapped with the X/Y work of variable j+1
 * (paper Fig. 4), over libnbo.
 *
 *   mpiexec -n 2 ./fft_multivar
 *
 * Plan once (FFTW and the libnbo persistent all-to-alls are set up here),
 * execute many: forward, normalise, backward, and check the round trip.
 * p3o_roundtrip does the three as one pipeline, the normalisation being
 * its spectral operation (where a solver would differentiate or filter).
 */
#include <math.h>
#include <p3dfft_overlap.h>
#include <stdio.h>
#include <stdlib.h>

/* The spectral operation: called on each variable's spectrum in turn. */
static void normalise(void *spectrum, int v, void *arg)
{
    const p3o_local_t *L = arg;
    double *c = spectrum;
    (void)v;
    for (size_t i = 0; i < 2 * L->complex_count; i++)
        c[i] /= (double)L->nx * L->ny * L->nz;
}

int main(int argc, char **argv)
{
    int provided, me;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    const int nx = 32, ny = 32, nz = 32, nv = 4;

    p3o_options_t opt;
    p3o_options_init(&opt);
    opt.planner = P3O_PLANNER_ESTIMATE; /* quick planning for an example */
    p3o_plan_t plan;
    int rc = p3o_plan_create(MPI_COMM_WORLD, nx, ny, nz, nv, P3O_DOUBLE, P3O_PIPELINED_NBO, &opt,
                             &plan);
    if (rc != P3O_SUCCESS) {
        fprintf(stderr, "p3o_plan_create: %s\n", p3o_strerror(rc));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    p3o_local_t L;
    p3o_local_sizes(plan, &L);
    /* nv real X-pencils in, nv complex Z-pencils out, one after another. */
    double *field = malloc(sizeof(double) * L.real_count * nv);
    double *back = malloc(sizeof(double) * L.real_count * nv);
    double *spec = malloc(sizeof(double) * 2 * L.complex_count * nv);
    for (int v = 0; v < nv; v++)
        for (size_t i = 0; i < L.real_count; i++)
            field[v * L.real_count + i] = sin(0.1 * (double)(i + 1) * (v + 1));

    for (int step = 0; step < 3 && rc == P3O_SUCCESS; step++)
        rc = p3o_roundtrip(plan, field, spec, back, normalise, &L);
    if (rc != P3O_SUCCESS)
        fprintf(stderr, "p3o_roundtrip: %s: %s\n", p3o_strerror(rc), p3o_last_error());
    double err = 0, all;
    for (size_t i = 0; i < L.real_count * nv; i++)
        err = fmax(err, fabs(back[i] - field[i]));
    MPI_Allreduce(&err, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (me == 0)
        printf("%d variables of %dx%dx%d on a %dx%d grid, pipelined over libnbo: "
               "round-trip error %.2e %s\n",
               nv, nx, ny, nz, L.row, L.col, all, all < 1e-12 ? "(ok)" : "(TOO LARGE)");
    free(field);
    free(back);
    free(spec);
    p3o_plan_destroy(&plan);
    MPI_Finalize();
    return all < 1e-12 && rc == P3O_SUCCESS ? 0 : 1;
}
