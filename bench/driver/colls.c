/* colls.c - the table of collectives: each one's MPI calls (blocking,
 * non-blocking, persistent) and libnbo's, its buffers, and the data it must
 * deliver.  The one place a benchmark row learns what a collective is. */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
    const char *name, *blocking, *nonblocking, *persistent;
} info[COLL_N] = {
    [COLL_ALLTOALL] = {"alltoall", "MPI_Alltoall", "MPI_Ialltoall", "MPI_Alltoall_init"},
    [COLL_ALLREDUCE] = {"allreduce", "MPI_Allreduce", "MPI_Iallreduce", "MPI_Allreduce_init"},
    [COLL_REDUCE_SCATTER_BLOCK] = {"reduce_scatter_block", "MPI_Reduce_scatter_block",
                                   "MPI_Ireduce_scatter_block",
                                   "MPI_Reduce_scatter_block_init"},
    [COLL_ALLGATHER] = {"allgather", "MPI_Allgather", "MPI_Iallgather", "MPI_Allgather_init"},
    [COLL_ALLGATHERV] = {"allgatherv", "MPI_Allgatherv", "MPI_Iallgatherv",
                         "MPI_Allgatherv_init"},
    [COLL_BCAST] = {"bcast", "MPI_Bcast", "MPI_Ibcast", "MPI_Bcast_init"},
    [COLL_BARRIER] = {"barrier", "MPI_Barrier", "MPI_Ibarrier", "MPI_Barrier_init"},
    [COLL_REDUCE] = {"reduce", "MPI_Reduce", "MPI_Ireduce", "MPI_Reduce_init"},
    [COLL_GATHER] = {"gather", "MPI_Gather", "MPI_Igather", "MPI_Gather_init"},
};

const char *coll_name(coll_t c) { return info[c].name; }

const char *coll_mpi_name(coll_t c, coll_form_t form)
{
    return form == FORM_BLOCKING      ? info[c].blocking
           : form == FORM_NONBLOCKING ? info[c].nonblocking
                                      : info[c].persistent;
}

int coll_parse(const char *word, coll_t *c)
{
    for (int i = 0; i < COLL_N; i++)
        if (strcmp(word, info[i].name) == 0) {
            *c = (coll_t)i;
            return 0;
        }
    /* "reduce_scatter" for short. */
    if (strcmp(word, "reduce_scatter") == 0) {
        *c = COLL_REDUCE_SCATTER_BLOCK;
        return 0;
    }
    return -1;
}

int coll_parse_list(const char *list, coll_t out[COLL_N])
{
    int n = 0;
    if (strcmp(list, "all") == 0) {
        for (int c = 0; c < COLL_N; c++)
            out[n++] = (coll_t)c;
        return n;
    }
    char buf[256];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save))
        if (n == COLL_N || coll_parse(w, &out[n++]) != 0)
            return -1;
    return n;
}

static int reduces(coll_t c)
{
    return c == COLL_ALLREDUCE || c == COLL_REDUCE || c == COLL_REDUCE_SCATTER_BLOCK;
}

/* The bytes of one element of a size (reduce_scatter_block: one per rank). */
static size_t unit_of(coll_t c, int nprocs, int doubles)
{
    if (c == COLL_BARRIER)
        return 0;
    if (c == COLL_REDUCE_SCATTER_BLOCK)
        return sizeof(float) * (size_t)nprocs;
    if (reduces(c))
        return sizeof(float);
    return c == COLL_ALLTOALL && doubles ? sizeof(double) : 1;
}

size_t coll_fit_size(coll_t c, size_t size, int nprocs, int doubles)
{
    size_t unit = unit_of(c, nprocs, doubles);
    if (unit == 0)
        return 0;
    size_t fit = size / unit * unit;
    /* Every count and displacement must fit an int. */
    if (fit / unit * (size_t)nprocs > (size_t)0x7fffffff)
        return 0;
    return fit;
}

double coll_tolerance(nbo_codec_t codec, int rate)
{
    double b = 0;
    if (nbo_codec_bound(codec, rate, MPI_DOUBLE, &b) == NBO_SUCCESS)
        return b;
    return ldexp(1.0, 8 - rate); /* zfp: no a priori bound, the measured envelope */
}

/* ------------------------------------------------------------- patterns */

/* Byte j of what rank src sends rank dst (dst 0 for allgather, gather and
 * bcast) in operation k. */
static unsigned char byte_of(int src, int dst, int k, size_t j)
{
    return (unsigned char)(src * 37 + dst * 11 + k * 5 + (int)(j % 251) * 7 + 1);
}

/* Element j of rank r's reduction input: integer-valued floats whose sum
 * over P ranks is exact in any order, ((j + k) % 97 + 1) * P (P + 1) / 2. */
static float elem_of(int r, int k, size_t j)
{
    return (float)(((j + (size_t)k) % 97) + 1) * (float)(r + 1);
}

/* The all-to-all of doubles (-z): smooth data, as an FFT's field, a scale
 * per block, so that lossy codecs see realistic input. */
static double smooth(int src, int dst, int k, size_t j)
{
    return ldexp(sin(1e-3 * (double)j + 0.37 * src + 1.1 * dst + k), (src + 3 * dst) % 7 - 3);
}

static char *send_of(const coll_op_t *op, int k) { return op->send + (size_t)k * op->send_bytes; }
static char *recv_of(const coll_op_t *op, int k) { return op->recv + (size_t)k * op->recv_bytes; }

void coll_op_fill(coll_op_t *op)
{
    int P = op->nprocs, me = op->rank;
    memset(op->recv, 0, (size_t)op->conc * op->recv_bytes);
    for (int k = 0; k < op->conc; k++) {
        char *s = send_of(op, k);
        switch (op->coll) {
        case COLL_ALLTOALL:
            for (int dst = 0; dst < P; dst++) {
                char *b = s + (size_t)dst * op->size;
                if (op->doubles)
                    for (size_t j = 0; j < op->size / sizeof(double); j++)
                        ((double *)(void *)b)[j] = smooth(me, dst, k, j);
                else
                    for (size_t j = 0; j < op->size; j++)
                        b[j] = (char)byte_of(me, dst, k, j);
            }
            break;
        case COLL_ALLREDUCE:
        case COLL_REDUCE_SCATTER_BLOCK:
        case COLL_REDUCE:
            for (size_t j = 0; j < op->send_bytes / sizeof(float); j++)
                ((float *)(void *)s)[j] = elem_of(me, k, j);
            break;
        case COLL_ALLGATHER:
        case COLL_ALLGATHERV:
        case COLL_GATHER:
            for (size_t j = 0; j < op->size; j++)
                s[j] = (char)byte_of(me, 0, k, j);
            break;
        case COLL_BCAST: /* the message lives in recv; only root 0's is the input */
            if (me == 0)
                for (size_t j = 0; j < op->size; j++)
                    recv_of(op, k)[j] = (char)byte_of(0, 0, k, j);
            break;
        default:
            break;
        }
    }
}

/* Within tol of the block's max-norm (0: exactly). */
static int doubles_ok(const char *p, size_t bytes, int src, int dst, int k, double tol)
{
    const double *d = (const double *)(const void *)p;
    const size_t n = bytes / sizeof(double);
    double max = 0;
    for (size_t j = 0; j < n; j++)
        max = fmax(max, fabs(smooth(src, dst, k, j)));
    for (size_t j = 0; j < n; j++) {
        double want = smooth(src, dst, k, j);
        if (tol == 0 ? d[j] != want : !(fabs(d[j] - want) <= tol * max))
            return 0;
    }
    return 1;
}

static long bytes_bad(const char *p, size_t n, int src, int dst, int k)
{
    long bad = 0;
    for (size_t j = 0; j < n; j++)
        bad += (unsigned char)p[j] != byte_of(src, dst, k, j);
    return bad;
}

long coll_op_verify(const coll_op_t *op, double tol)
{
    int P = op->nprocs, me = op->rank;
    long bad = 0;
    /* The rooted ones deliver to root 0 only. */
    if ((op->coll == COLL_REDUCE || op->coll == COLL_GATHER) && me != 0)
        return 0;
    for (int k = 0; k < op->conc; k++) {
        const char *r = recv_of(op, k);
        switch (op->coll) {
        case COLL_ALLTOALL:
            for (int src = 0; src < P; src++)
                bad += op->doubles ? !doubles_ok(r + (size_t)src * op->size, op->size, src, me, k,
                                                 src == me ? 0 : tol)
                                   : bytes_bad(r + (size_t)src * op->size, op->size, src, me, k);
            break;
        case COLL_ALLREDUCE:
        case COLL_REDUCE_SCATTER_BLOCK:
        case COLL_REDUCE: {
            const float *f = (const float *)(const void *)r;
            size_t n = op->recv_bytes / sizeof(float);
            /* Reduce-scatter: this rank's block of the whole vector. */
            size_t first = op->coll == COLL_REDUCE_SCATTER_BLOCK ? (size_t)me * n : 0;
            for (size_t j = 0; j < n; j++)
                bad += f[j] != elem_of(0, k, first + j) * (float)(P * (P + 1) / 2);
            break;
        }
        case COLL_ALLGATHER:
        case COLL_ALLGATHERV:
        case COLL_GATHER:
            for (int src = 0; src < P; src++)
                bad += bytes_bad(r + (size_t)src * op->size, op->size, src, 0, k);
            break;
        case COLL_BCAST:
            bad += bytes_bad(r, op->size, 0, 0, k);
            break;
        default:
            break;
        }
    }
    return bad;
}

/* ---------------------------------------------------------------- calls */

#if BENCH_MPI_PERSISTENT
#define MPI_INIT_OR_NONE(call) (call)
#else
#define MPI_INIT_OR_NONE(call) MPI_ERR_UNSUPPORTED_OPERATION
#endif

int coll_op_mpi(coll_op_t *op, int i, coll_form_t form, MPI_Request *q)
{
    void *s = send_of(op, i), *r = recv_of(op, i);
    int n = op->count;
    MPI_Datatype t = op->type;
    MPI_Comm comm = op->comm;
    const int B = form == FORM_BLOCKING, NB = form == FORM_NONBLOCKING;
    switch (op->coll) {
    case COLL_ALLTOALL:
        return B    ? MPI_Alltoall(s, n, t, r, n, t, comm)
               : NB ? MPI_Ialltoall(s, n, t, r, n, t, comm, q)
                    : MPI_INIT_OR_NONE(MPI_Alltoall_init(s, n, t, r, n, t, comm, MPI_INFO_NULL, q));
    case COLL_ALLREDUCE:
        return B    ? MPI_Allreduce(s, r, n, t, MPI_SUM, comm)
               : NB ? MPI_Iallreduce(s, r, n, t, MPI_SUM, comm, q)
                    : MPI_INIT_OR_NONE(MPI_Allreduce_init(s, r, n, t, MPI_SUM, comm, MPI_INFO_NULL, q));
    case COLL_REDUCE_SCATTER_BLOCK:
        return B    ? MPI_Reduce_scatter_block(s, r, n, t, MPI_SUM, comm)
               : NB ? MPI_Ireduce_scatter_block(s, r, n, t, MPI_SUM, comm, q)
                    : MPI_INIT_OR_NONE(MPI_Reduce_scatter_block_init(s, r, n, t, MPI_SUM, comm,
                                                                     MPI_INFO_NULL, q));
    case COLL_ALLGATHER:
        return B    ? MPI_Allgather(s, n, t, r, n, t, comm)
               : NB ? MPI_Iallgather(s, n, t, r, n, t, comm, q)
                    : MPI_INIT_OR_NONE(MPI_Allgather_init(s, n, t, r, n, t, comm, MPI_INFO_NULL, q));
    case COLL_ALLGATHERV:
        return B    ? MPI_Allgatherv(s, n, t, r, op->counts, op->displs, t, comm)
               : NB ? MPI_Iallgatherv(s, n, t, r, op->counts, op->displs, t, comm, q)
                    : MPI_INIT_OR_NONE(MPI_Allgatherv_init(s, n, t, r, op->counts, op->displs, t,
                                                           comm, MPI_INFO_NULL, q));
    case COLL_BCAST:
        return B    ? MPI_Bcast(r, n, t, 0, comm)
               : NB ? MPI_Ibcast(r, n, t, 0, comm, q)
                    : MPI_INIT_OR_NONE(MPI_Bcast_init(r, n, t, 0, comm, MPI_INFO_NULL, q));
    case COLL_BARRIER:
        return B    ? MPI_Barrier(comm)
               : NB ? MPI_Ibarrier(comm, q)
                    : MPI_INIT_OR_NONE(MPI_Barrier_init(comm, MPI_INFO_NULL, q));
    case COLL_REDUCE:
        return B    ? MPI_Reduce(s, r, n, t, MPI_SUM, 0, comm)
               : NB ? MPI_Ireduce(s, r, n, t, MPI_SUM, 0, comm, q)
                    : MPI_INIT_OR_NONE(MPI_Reduce_init(s, r, n, t, MPI_SUM, 0, comm, MPI_INFO_NULL, q));
    case COLL_GATHER:
        return B    ? MPI_Gather(s, n, t, r, n, t, 0, comm)
               : NB ? MPI_Igather(s, n, t, r, n, t, 0, comm, q)
                    : MPI_INIT_OR_NONE(MPI_Gather_init(s, n, t, r, n, t, 0, comm, MPI_INFO_NULL, q));
    default:
        return MPI_ERR_ARG;
    }
}

int coll_op_nbo(coll_op_t *op, int i, int persistent, nbo_comm_t comm, nbo_request_t *q)
{
    void *s = send_of(op, i), *r = recv_of(op, i);
    int n = op->count, P = persistent;
    MPI_Datatype t = op->type;
    switch (op->coll) {
    case COLL_ALLTOALL:
        return P ? nbo_alltoall_init(s, n, t, r, n, t, comm, q)
                 : nbo_ialltoall(s, n, t, r, n, t, comm, q);
    case COLL_ALLREDUCE:
        return P ? nbo_allreduce_init(s, r, n, t, MPI_SUM, comm, q)
                 : nbo_iallreduce(s, r, n, t, MPI_SUM, comm, q);
    case COLL_REDUCE_SCATTER_BLOCK:
        return P ? nbo_reduce_scatter_block_init(s, r, n, t, MPI_SUM, comm, q)
                 : nbo_ireduce_scatter_block(s, r, n, t, MPI_SUM, comm, q);
    case COLL_ALLGATHER:
        return P ? nbo_allgather_init(s, n, t, r, n, t, comm, q)
                 : nbo_iallgather(s, n, t, r, n, t, comm, q);
    case COLL_ALLGATHERV:
        return P ? nbo_allgatherv_init(s, n, t, r, op->counts, op->displs, t, comm, q)
                 : nbo_iallgatherv(s, n, t, r, op->counts, op->displs, t, comm, q);
    case COLL_BCAST:
        return P ? nbo_bcast_init(r, n, t, 0, comm, q) : nbo_ibcast(r, n, t, 0, comm, q);
    case COLL_BARRIER:
        return P ? nbo_barrier_init(comm, q) : nbo_ibarrier(comm, q);
    case COLL_REDUCE:
        return P ? nbo_reduce_init(s, r, n, t, MPI_SUM, 0, comm, q)
                 : nbo_ireduce(s, r, n, t, MPI_SUM, 0, comm, q);
    case COLL_GATHER:
        return P ? nbo_gather_init(s, n, t, r, n, t, 0, comm, q)
                 : nbo_igather(s, n, t, r, n, t, 0, comm, q);
    default:
        return NBO_ERR_ARG;
    }
}

/* ---------------------------------------------------------------- setup */

int coll_op_setup(coll_op_t *op, coll_t c, size_t size, int conc, int doubles, MPI_Comm comm)
{
    memset(op, 0, sizeof *op);
    op->coll = c;
    op->comm = comm;
    op->size = size;
    op->conc = conc;
    op->doubles = doubles && c == COLL_ALLTOALL;
    MPI_Comm_rank(comm, &op->rank);
    MPI_Comm_size(comm, &op->nprocs);
    size_t P = (size_t)op->nprocs;
    op->type = reduces(c) ? MPI_FLOAT : op->doubles ? MPI_DOUBLE : MPI_CHAR;
    size_t elem = reduces(c) ? sizeof(float) : op->doubles ? sizeof(double) : 1;
    switch (c) {
    case COLL_ALLTOALL:
        op->send_bytes = op->recv_bytes = P * size;
        break;
    case COLL_ALLREDUCE:
    case COLL_REDUCE: /* every rank's receive buffer, only the root's filled */
        op->send_bytes = op->recv_bytes = size;
        break;
    case COLL_REDUCE_SCATTER_BLOCK:
        op->send_bytes = size;
        op->recv_bytes = size / P;
        break;
    case COLL_ALLGATHER:
    case COLL_ALLGATHERV:
    case COLL_GATHER:
        op->send_bytes = size;
        op->recv_bytes = P * size;
        break;
    case COLL_BCAST: /* the message is recv */
        op->recv_bytes = size;
        break;
    default: /* barrier */
        break;
    }
    op->count = (int)((c == COLL_REDUCE_SCATTER_BLOCK ? op->recv_bytes : size) / elem);
    long page = sysconf(_SC_PAGESIZE);
    size_t align = page > 0 ? (size_t)page : 4096;
    void *s = NULL, *r = NULL;
    size_t sb = (size_t)conc * op->send_bytes, rb = (size_t)conc * op->recv_bytes;
    if (posix_memalign(&s, align, sb ? sb : 1) != 0 ||
        posix_memalign(&r, align, rb ? rb : 1) != 0) {
        free(s);
        return MPI_ERR_NO_MEM;
    }
    op->send = s, op->recv = r;
    if (c == COLL_ALLGATHERV) {
        op->counts = malloc(sizeof(int) * P);
        op->displs = malloc(sizeof(int) * P);
        if (!op->counts || !op->displs) {
            coll_op_free(op);
            return MPI_ERR_NO_MEM;
        }
        for (size_t p = 0; p < P; p++)
            op->counts[p] = (int)size, op->displs[p] = (int)(p * size);
    }
    return MPI_SUCCESS;
}

void coll_op_free(coll_op_t *op)
{
    free(op->send);
    free(op->recv);
    free(op->counts);
    free(op->displs);
    op->send = op->recv = NULL;
    op->counts = op->displs = NULL;
}
