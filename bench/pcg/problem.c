/* problem.c - the 3-D Poisson problem: z-slab decomposition, the exact
 * solution, the 7-point stencil with its halo exchange, dot products. */
#include "pcg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { TAG_UP = 31, TAG_DOWN = 32 };

/* N planes over P ranks, the first N % P ranks one more. */
int grid_init(grid_t *g, int N, int rank, int P)
{
    if (N < 1 || P > N)
        return -1;
    g->N = N;
    g->rank = rank;
    g->P = P;
    g->nz = N / P + (rank < N % P);
    g->z0 = rank * (N / P) + (rank < N % P ? rank : N % P);
    g->down = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    g->up = rank < P - 1 ? rank + 1 : MPI_PROC_NULL;
    g->row = (size_t)N + 2;
    g->plane = g->row * g->row;
    g->len = ((size_t)g->nz + 2) * g->plane;
    return 0;
}

/* One zeroed block for n vectors: the rings and the halo at the global
 * ends stay zero, since nothing but a halo exchange writes outside the
 * unknowns.  Vector k starts 448 k bytes past a 4 KiB boundary: vectors
 * that all start on the same offset make a loop over seven of them (the
 * pipelined update) stall on 4K aliasing between its loads and stores,
 * 3.5 times slower than staggered. */
double *vec_arena(const grid_t *g, int n, double *v[])
{
    const size_t stride = (g->len + 511) / 512 * 512 + 56; /* doubles */
    double *a = aligned_alloc(4096, ((size_t)n * stride * sizeof(double) + 4095) / 4096 * 4096);
    if (!a)
        return NULL;
    memset(a, 0, (size_t)n * stride * sizeof(double));
    for (int k = 0; k < n; k++)
        v[k] = a + (size_t)k * stride;
    return a;
}

static size_t at(const grid_t *g, int k, int j, int i)
{
    return (size_t)k * g->plane + (size_t)j * g->row + (size_t)i;
}

/* Smooth, not a single eigenvector (CG would stop after one iteration):
 * a product of parabolas tilted by a linear factor, plus one mode of
 * higher frequency. */
void problem_x_true(const grid_t *g, double *x)
{
    const double h = 1.0 / (g->N + 1), pi = 3.14159265358979323846;
    for (int k = 1; k <= g->nz; k++)
        for (int j = 1; j <= g->N; j++)
            for (int i = 1; i <= g->N; i++) {
                double X = i * h, Y = j * h, Z = (g->z0 + k) * h;
                double bump = 64 * X * (1 - X) * Y * (1 - Y) * Z * (1 - Z);
                x[at(g, k, j, i)] = bump * (1 + X + 2 * Y + 3 * Z) +
                                    0.1 * sin(5 * pi * X) * sin(3 * pi * Y) * sin(4 * pi * Z);
            }
}

/* q = A v on plane k: 6 v - the six neighbours (unscaled -Laplacian). */
static void stencil_plane(const grid_t *g, const double *v, double *q, int k)
{
    const size_t R = g->row, Pl = g->plane;
    for (int j = 1; j <= g->N; j++) {
        size_t o = at(g, k, j, 0);
        const double *c = v + o;
        double *out = q + o;
        for (int i = 1; i <= g->N; i++)
            out[i] = 6 * c[i] - c[i - 1] - c[i + 1] - c[i - R] - c[i + R] - c[i - Pl] - c[i + Pl];
    }
}

static void plane_done(plane_poll_fn poll, void *arg)
{
    if (poll)
        poll(arg);
}

int spmv(const grid_t *g, double *v, double *q, plane_poll_fn poll, void *arg)
{
    MPI_Request req[4];
    MPI_Status st[4]; /* not MPI_STATUSES_IGNORE: GCC 12 takes MPICH's for a 0-size array */
    const int n = (int)g->plane; /* a plane with its ring: one contiguous message */
    int rc = MPI_Irecv(v, n, MPI_DOUBLE, g->down, TAG_UP, MPI_COMM_WORLD, &req[0]);
    rc |= MPI_Irecv(v + at(g, g->nz + 1, 0, 0), n, MPI_DOUBLE, g->up, TAG_DOWN, MPI_COMM_WORLD,
                    &req[1]);
    rc |= MPI_Isend(v + at(g, 1, 0, 0), n, MPI_DOUBLE, g->down, TAG_DOWN, MPI_COMM_WORLD, &req[2]);
    rc |= MPI_Isend(v + at(g, g->nz, 0, 0), n, MPI_DOUBLE, g->up, TAG_UP, MPI_COMM_WORLD,
                    &req[3]);
    /* The planes that need no halo while it travels. */
    for (int k = 2; k < g->nz; k++) {
        stencil_plane(g, v, q, k);
        plane_done(poll, arg);
    }
    rc |= MPI_Waitall(4, req, st);
    stencil_plane(g, v, q, 1);
    plane_done(poll, arg);
    if (g->nz > 1) {
        stencil_plane(g, v, q, g->nz);
        plane_done(poll, arg);
    }
    return rc;
}

double dot_local(const grid_t *g, const double *a, const double *b)
{
    const double *x = a + g->plane, *y = b + g->plane;
    double s = 0;
    for (size_t i = 0, n = vec_in_len(g); i < n; i++)
        s += x[i] * y[i];
    return s;
}

double norm2(const grid_t *g, const double *a)
{
    double local = dot_local(g, a, a), global;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return sqrt(global);
}
