/* coll.c - the collective every method row runs (-C): MPI's blocking and
 * non-blocking calls, libnbo's, and the data each one must deliver. */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int doubles; /* -z: the all-to-all moves MPI_DOUBLE */

void coll_set_doubles(int on)
{
    doubles = on;
}

double coll_tolerance(nbo_codec_t codec, int rate)
{
    double b = 0;
    if (nbo_codec_bound(codec, rate, MPI_DOUBLE, &b) == NBO_SUCCESS)
        return b;
    return ldexp(1.0, 8 - rate); /* zfp: no a priori bound, the measured envelope */
}

static const char *const mpi_names[][2] = {
    [COLL_ALLTOALL] = {"MPI_Alltoall", "MPI_Ialltoall"},
    [COLL_ALLREDUCE] = {"MPI_Allreduce", "MPI_Iallreduce"},
    [COLL_ALLGATHER] = {"MPI_Allgather", "MPI_Iallgather"},
    [COLL_BCAST] = {"MPI_Bcast", "MPI_Ibcast"},
};

const char *coll_mpi_name(coll_t c, int nonblocking)
{
    return mpi_names[c][nonblocking ? 1 : 0];
}

/* Allreduce sums doubles: -S gives the vector's bytes (so does the
 * all-to-all of doubles, -z). */
static int count_of(coll_t c, size_t size)
{
    return c == COLL_ALLREDUCE || (c == COLL_ALLTOALL && doubles) ? (int)(size / sizeof(double))
                                                                  : (int)size;
}

static MPI_Datatype alltoall_type(void) { return doubles ? MPI_DOUBLE : MPI_BYTE; }

char *coll_block(const buffers_t *b, char *base, int i)
{
    return base + (size_t)i * b->size * (size_t)b->nprocs;
}

int coll_mpi(coll_t c, char *s, char *r, size_t size, MPI_Comm comm, MPI_Request *req)
{
    int n = count_of(c, size);
    switch (c) {
    case COLL_ALLREDUCE:
        return req ? MPI_Iallreduce(s, r, n, MPI_DOUBLE, MPI_SUM, comm, req)
                   : MPI_Allreduce(s, r, n, MPI_DOUBLE, MPI_SUM, comm);
    case COLL_ALLGATHER:
        return req ? MPI_Iallgather(s, n, MPI_BYTE, r, n, MPI_BYTE, comm, req)
                   : MPI_Allgather(s, n, MPI_BYTE, r, n, MPI_BYTE, comm);
    case COLL_BCAST:
        return req ? MPI_Ibcast(r, n, MPI_BYTE, 0, comm, req) : MPI_Bcast(r, n, MPI_BYTE, 0, comm);
    default:
        return req ? MPI_Ialltoall(s, n, alltoall_type(), r, n, alltoall_type(), comm, req)
                   : MPI_Alltoall(s, n, alltoall_type(), r, n, alltoall_type(), comm);
    }
}

int coll_nbo(coll_t c, char *s, char *r, size_t size, nbo_comm_t comm, int persistent,
             nbo_request_t *req)
{
    int n = count_of(c, size);
    switch (c) {
    case COLL_ALLREDUCE:
        return persistent ? nbo_allreduce_init(s, r, n, MPI_DOUBLE, MPI_SUM, comm, req)
                          : nbo_iallreduce(s, r, n, MPI_DOUBLE, MPI_SUM, comm, req);
    case COLL_ALLGATHER:
        return persistent ? nbo_allgather_init(s, n, MPI_BYTE, r, n, MPI_BYTE, comm, req)
                          : nbo_iallgather(s, n, MPI_BYTE, r, n, MPI_BYTE, comm, req);
    case COLL_BCAST:
        return persistent ? nbo_bcast_init(r, n, MPI_BYTE, 0, comm, req)
                          : nbo_ibcast(r, n, MPI_BYTE, 0, comm, req);
    default:
        return persistent ? nbo_alltoall_init(s, n, alltoall_type(), r, n, alltoall_type(), comm, req)
                          : nbo_ialltoall(s, n, alltoall_type(), r, n, alltoall_type(), comm, req);
    }
}

/* ----------------------------------------------------------------- data */

/* Bytes from rank `from` for rank `to` (all-to-all), or from `from` for
 * every rank (allgather: to = 0; bcast: from = to = 0), operation c. */
static unsigned char pattern(int from, int to, int c, size_t j)
{
    return (unsigned char)(from * 131 + to * 17 + c * 7 + (int)(j * 13));
}

/* Allreduce: rank r contributes (r + 1) * term(c, j); small integers, so
 * the sum in doubles is exact whatever order the ranks are added in. */
static double term(int c, size_t j)
{
    return (double)(j % 1000 + (size_t)c + 1);
}

/* The all-to-all of doubles: smooth data (a field an FFT would move), a
 * scale per block. */
static double smooth(int from, int to, int c, size_t j)
{
    return ldexp(sin(1e-3 * (double)j + 0.37 * from + 1.1 * to + c), (from + 3 * to) % 7 - 3);
}

static void fill_doubles(void *p, size_t bytes, int from, int to, int c)
{
    double *d = p;
    for (size_t j = 0; j < bytes / sizeof(double); j++)
        d[j] = smooth(from, to, c, j);
}

/* Within tol of the block's max-norm (0: exactly). */
static int doubles_ok(const void *p, size_t bytes, int from, int to, int c, double tol)
{
    const double *d = p;
    const size_t n = bytes / sizeof(double);
    double max = 0;
    for (size_t j = 0; j < n; j++)
        max = fmax(max, fabs(smooth(from, to, c, j)));
    for (size_t j = 0; j < n; j++) {
        double want = smooth(from, to, c, j);
        if (tol == 0 ? d[j] != want : !(fabs(d[j] - want) <= tol * max))
            return 0;
    }
    return 1;
}

static void fill_bytes(unsigned char *p, size_t n, int from, int to, int c)
{
    for (size_t j = 0; j < n; j++)
        p[j] = pattern(from, to, c, j);
}

static int bytes_ok(const unsigned char *p, size_t n, int from, int to, int c)
{
    for (size_t j = 0; j < n; j++)
        if (p[j] != pattern(from, to, c, j))
            return 0;
    return 1;
}

void coll_fill(coll_t coll, buffers_t *b, int conc, int rank)
{
    int P = b->nprocs;
    size_t per = b->size * (size_t)P;
    memset(b->recv, 0, (size_t)conc * per);
    for (int c = 0; c < conc; c++) {
        unsigned char *s = (unsigned char *)coll_block(b, b->send, c);
        unsigned char *r = (unsigned char *)coll_block(b, b->recv, c);
        switch (coll) {
        case COLL_ALLREDUCE: {
            double *d = (double *)(void *)s;
            for (size_t j = 0; j < b->size / sizeof(double); j++)
                d[j] = (double)(rank + 1) * term(c, j);
            break;
        }
        case COLL_ALLGATHER:
            fill_bytes(s, b->size, rank, 0, c);
            break;
        case COLL_BCAST:
            if (rank == 0)
                fill_bytes(r, b->size, 0, 0, c);
            break;
        default:
            for (int p = 0; p < P; p++)
                if (doubles)
                    fill_doubles(s + (size_t)p * b->size, b->size, rank, p, c);
                else
                    fill_bytes(s + (size_t)p * b->size, b->size, rank, p, c);
            break;
        }
    }
}

int coll_verify(coll_t coll, const buffers_t *b, int conc, int rank, double tol)
{
    int P = b->nprocs, errors = 0;
    for (int c = 0; c < conc; c++) {
        const unsigned char *r = (const unsigned char *)coll_block(b, b->recv, c);
        switch (coll) {
        case COLL_ALLREDUCE: {
            const double *d = (const double *)(const void *)r;
            double ranks = (double)P * (P + 1) / 2;
            for (size_t j = 0; j < b->size / sizeof(double); j++)
                if (d[j] != ranks * term(c, j)) {
                    errors++;
                    break;
                }
            break;
        }
        case COLL_ALLGATHER:
            for (int p = 0; p < P; p++)
                errors += !bytes_ok(r + (size_t)p * b->size, b->size, p, 0, c);
            break;
        case COLL_BCAST:
            errors += !bytes_ok(r, b->size, 0, 0, c);
            break;
        default:
            for (int p = 0; p < P; p++)
                errors += doubles ? !doubles_ok(r + (size_t)p * b->size, b->size, p, rank, c,
                                                p == rank ? 0 : tol)
                                  : !bytes_ok(r + (size_t)p * b->size, b->size, p, rank, c);
            break;
        }
    }
    return errors;
}
