/* colls.c - each collective of nbo_osu_coll: its MPI calls (blocking,
 * non-blocking, persistent), its buffers, and the data it must deliver. */
#include "osu.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
    const char *name, *blocking, *nonblocking, *title;
} info[OC_N] = {
    [OC_ALLTOALL] = {"alltoall", "MPI_Alltoall", "MPI_Ialltoall", "All-to-All"},
    [OC_ALLREDUCE] = {"allreduce", "MPI_Allreduce", "MPI_Iallreduce", "Allreduce"},
    [OC_REDUCE_SCATTER_BLOCK] = {"reduce_scatter_block", "MPI_Reduce_scatter_block",
                                 "MPI_Ireduce_scatter_block", "Reduce_scatter_block"},
    [OC_ALLGATHER] = {"allgather", "MPI_Allgather", "MPI_Iallgather", "Allgather"},
    [OC_ALLGATHERV] = {"allgatherv", "MPI_Allgatherv", "MPI_Iallgatherv", "Allgatherv"},
    [OC_BCAST] = {"bcast", "MPI_Bcast", "MPI_Ibcast", "Broadcast"},
    [OC_BARRIER] = {"barrier", "MPI_Barrier", "MPI_Ibarrier", "Barrier"},
    [OC_REDUCE] = {"reduce", "MPI_Reduce", "MPI_Ireduce", "Reduce"},
    [OC_GATHER] = {"gather", "MPI_Gather", "MPI_Igather", "Gather"},
};

const char *oc_name(oc_coll_t c) { return info[c].name; }
const char *oc_title(oc_coll_t c) { return info[c].title; }

const char *oc_mpi_name(oc_coll_t c, int nonblocking)
{
    return nonblocking ? info[c].nonblocking : info[c].blocking;
}

int oc_parse(const char *word, oc_coll_t *c)
{
    for (int i = 0; i < OC_N; i++)
        if (strcmp(word, info[i].name) == 0) {
            *c = (oc_coll_t)i;
            return 0;
        }
    /* "reduce_scatter" for short. */
    if (strcmp(word, "reduce_scatter") == 0) {
        *c = OC_REDUCE_SCATTER_BLOCK;
        return 0;
    }
    return -1;
}

size_t oc_min_size(oc_coll_t c, int nprocs)
{
    if (c == OC_BARRIER)
        return 0;
    if (c == OC_ALLREDUCE || c == OC_REDUCE)
        return sizeof(float);
    if (c == OC_REDUCE_SCATTER_BLOCK)
        return sizeof(float) * (size_t)nprocs;
    return 1;
}

size_t oc_fit_size(oc_coll_t c, size_t size, int nprocs)
{
    size_t unit = oc_min_size(c, nprocs);
    if (unit == 0)
        return 0;
    size_t fit = size / unit * unit;
    /* Every count and displacement must fit an int. */
    if (fit / unit * (size_t)nprocs > (size_t)0x7fffffff)
        return 0;
    return fit;
}

/* ------------------------------------------------------------- patterns */

/* Byte i of what rank src sends rank dst (dst 0 for allgather and bcast). */
static unsigned char byte_of(int src, int dst, size_t i)
{
    return (unsigned char)(src * 37 + dst * 11 + (int)(i % 251) * 7 + 1);
}

/* Element j of rank r's reduction input: integer-valued floats whose sum
 * over P ranks is exact, ((j % 97) + 1) * P (P + 1) / 2. */
static float elem_of(int r, size_t j) { return (float)((j % 97) + 1) * (float)(r + 1); }

void oc_fill(oc_op_t *op)
{
    int P = op->nprocs, me = op->rank;
    memset(op->recv, 0, op->recv_bytes);
    switch (op->coll) {
    case OC_ALLTOALL:
        for (int dst = 0; dst < P; dst++)
            for (size_t i = 0; i < op->size; i++)
                op->send[(size_t)dst * op->size + i] = (char)byte_of(me, dst, i);
        break;
    case OC_ALLREDUCE:
    case OC_REDUCE_SCATTER_BLOCK:
    case OC_REDUCE: {
        float *s = (float *)(void *)op->send;
        for (size_t j = 0; j < op->send_bytes / sizeof(float); j++)
            s[j] = elem_of(me, j);
        break;
    }
    case OC_ALLGATHER:
    case OC_ALLGATHERV:
    case OC_GATHER:
        for (size_t i = 0; i < op->size; i++)
            op->send[i] = (char)byte_of(me, 0, i);
        break;
    case OC_BCAST:
        /* The message lives in recv; only root 0's is the input. */
        if (me == 0)
            for (size_t i = 0; i < op->size; i++)
                op->recv[i] = (char)byte_of(0, 0, i);
        break;
    default:
        break;
    }
}

long oc_verify(const oc_op_t *op)
{
    int P = op->nprocs, me = op->rank;
    long bad = 0;
    /* The rooted ones deliver to root 0 only. */
    if ((op->coll == OC_REDUCE || op->coll == OC_GATHER) && me != 0)
        return 0;
    switch (op->coll) {
    case OC_ALLTOALL:
        for (int src = 0; src < P; src++)
            for (size_t i = 0; i < op->size; i++)
                bad += (unsigned char)op->recv[(size_t)src * op->size + i] != byte_of(src, me, i);
        break;
    case OC_ALLREDUCE:
    case OC_REDUCE_SCATTER_BLOCK:
    case OC_REDUCE: {
        const float *r = (const float *)(const void *)op->recv;
        size_t n = op->recv_bytes / sizeof(float);
        /* Reduce-scatter: this rank's block of the whole vector. */
        size_t first = op->coll == OC_REDUCE_SCATTER_BLOCK ? (size_t)me * n : 0;
        for (size_t j = 0; j < n; j++)
            bad += r[j] != (float)(((first + j) % 97) + 1) * (float)(P * (P + 1) / 2);
        break;
    }
    case OC_ALLGATHER:
    case OC_ALLGATHERV:
    case OC_GATHER:
        for (int src = 0; src < P; src++)
            for (size_t i = 0; i < op->size; i++)
                bad += (unsigned char)op->recv[(size_t)src * op->size + i] != byte_of(src, 0, i);
        break;
    case OC_BCAST:
        for (size_t i = 0; i < op->size; i++)
            bad += (unsigned char)op->recv[i] != byte_of(0, 0, i);
        break;
    default:
        break;
    }
    return bad;
}

/* ---------------------------------------------------------------- calls */

static int call(oc_op_t *op, int kind) /* 0 blocking, 1 non-blocking, 2 persistent init */
{
    void *s = op->send, *r = op->recv;
    int n = op->count;
    MPI_Comm comm = op->comm;
    MPI_Request *q = &op->req;
#if !OSU_HAVE_PERSISTENT
    if (kind == 2)
        return MPI_ERR_UNSUPPORTED_OPERATION;
#endif
    switch (op->coll) {
    case OC_ALLTOALL:
        return kind == 0 ? MPI_Alltoall(s, n, MPI_CHAR, r, n, MPI_CHAR, comm)
             : kind == 1 ? MPI_Ialltoall(s, n, MPI_CHAR, r, n, MPI_CHAR, comm, q)
#if OSU_HAVE_PERSISTENT
             : MPI_Alltoall_init(s, n, MPI_CHAR, r, n, MPI_CHAR, comm, MPI_INFO_NULL, q);
#else
             : MPI_ERR_UNSUPPORTED_OPERATION;
#endif
    case OC_ALLREDUCE:
        return kind == 0 ? MPI_Allreduce(s, r, n, MPI_FLOAT, MPI_SUM, comm)
             : kind == 1 ? MPI_Iallreduce(s, r, n, MPI_FLOAT, MPI_SUM, comm, q)
#if OSU_HAVE_PERSISTENT
             : MPI_Allreduce_init(s, r, n, MPI_FLOAT, MPI_SUM, comm, MPI_INFO_NULL, q);
#else
             : MPI_ERR_UNSUPPORTED_OPERATION;
#endif
    case OC_REDUCE_SCATTER_BLOCK:
        return kind == 0 ? MPI_Reduce_scatter_block(s, r, n, MPI_FLOAT, MPI_SUM, comm)
             : kind == 1 ? MPI_Ireduce_scatter_block(s, r, n, MPI_FLOAT, MPI_SUM, comm, q)
#if OSU_HAVE_PERSISTENT
             : MPI_Reduce_scatter_block_init(s, r, n, MPI_FLOAT, MPI_SUM, comm, MPI_INFO_NULL, q);
#else
             : MPI_ERR_UNSUPPORTED_OPERATION;
#endif
    case OC_ALLGATHER:
        return kind == 0 ? MPI_Allgather(s, n, MPI_CHAR, r, n, MPI_CHAR, comm)
             : kind == 1 ? MPI_Iallgather(s, n, MPI_CHAR, r, n, MPI_CHAR, comm, q)
#if OSU_HAVE_PERSISTENT
             : MPI_Allgather_init(s, n, MPI_CHAR, r, n, MPI_CHAR, comm, MPI_INFO_NULL, q);
#else
             : MPI_ERR_UNSUPPORTED_OPERATION;
#endif
    case OC_ALLGATHERV:
        return kind == 0 ? MPI_Allgatherv(s, n, MPI_CHAR, r, op->counts, op->displs, MPI_CHAR, comm)
             : kind == 1 ? MPI_Iallgatherv(s, n, MPI_CHAR, r, op->counts, op->displs, MPI_CHAR,
                                           comm, q)
#if OSU_HAVE_PERSISTENT
             : MPI_Allgatherv_init(s, n, MPI_CHAR, r, op->counts, op->displs, MPI_CHAR, comm,
                                   MPI_INFO_NULL, q);
#else
             : MPI_ERR_UNSUPPORTED_OPERATION;
#endif
    case OC_BCAST:
        return kind == 0 ? MPI_Bcast(r, n, MPI_CHAR, 0, comm)
             : kind == 1 ? MPI_Ibcast(r, n, MPI_CHAR, 0, comm, q)
#if OSU_HAVE_PERSISTENT
             : MPI_Bcast_init(r, n, MPI_CHAR, 0, comm, MPI_INFO_NULL, q);
#else
             : MPI_ERR_UNSUPPORTED_OPERATION;
#endif
    case OC_BARRIER:
        return kind == 0 ? MPI_Barrier(comm)
             : kind == 1 ? MPI_Ibarrier(comm, q)
#if OSU_HAVE_PERSISTENT
             : MPI_Barrier_init(comm, MPI_INFO_NULL, q);
#else
             : MPI_ERR_UNSUPPORTED_OPERATION;
#endif
    case OC_REDUCE:
        return kind == 0 ? MPI_Reduce(s, r, n, MPI_FLOAT, MPI_SUM, 0, comm)
             : kind == 1 ? MPI_Ireduce(s, r, n, MPI_FLOAT, MPI_SUM, 0, comm, q)
#if OSU_HAVE_PERSISTENT
             : MPI_Reduce_init(s, r, n, MPI_FLOAT, MPI_SUM, 0, comm, MPI_INFO_NULL, q);
#else
             : MPI_ERR_UNSUPPORTED_OPERATION;
#endif
    case OC_GATHER:
        return kind == 0 ? MPI_Gather(s, n, MPI_CHAR, r, n, MPI_CHAR, 0, comm)
             : kind == 1 ? MPI_Igather(s, n, MPI_CHAR, r, n, MPI_CHAR, 0, comm, q)
#if OSU_HAVE_PERSISTENT
             : MPI_Gather_init(s, n, MPI_CHAR, r, n, MPI_CHAR, 0, comm, MPI_INFO_NULL, q);
#else
             : MPI_ERR_UNSUPPORTED_OPERATION;
#endif
    default:
        return MPI_ERR_ARG;
    }
}

int oc_setup(oc_op_t *op, oc_coll_t c, size_t size, MPI_Comm comm, int persistent)
{
    memset(op, 0, sizeof *op);
    op->coll = c;
    op->comm = comm;
    op->size = size;
    op->req = MPI_REQUEST_NULL;
    MPI_Comm_rank(comm, &op->rank);
    MPI_Comm_size(comm, &op->nprocs);
    size_t P = (size_t)op->nprocs;
    switch (c) {
    case OC_ALLTOALL:
        op->send_bytes = op->recv_bytes = P * size;
        op->count = (int)size;
        break;
    case OC_ALLREDUCE:
    case OC_REDUCE: /* every rank's receive buffer, only the root's filled */
        op->send_bytes = op->recv_bytes = size;
        op->count = (int)(size / sizeof(float));
        break;
    case OC_REDUCE_SCATTER_BLOCK:
        op->send_bytes = size;
        op->recv_bytes = size / P;
        op->count = (int)(op->recv_bytes / sizeof(float));
        break;
    case OC_ALLGATHER:
    case OC_ALLGATHERV:
    case OC_GATHER:
        op->send_bytes = size;
        op->recv_bytes = P * size;
        op->count = (int)size;
        break;
    case OC_BARRIER:
        break;
    default: /* bcast: the message is recv */
        op->send_bytes = 0;
        op->recv_bytes = size;
        op->count = (int)size;
        break;
    }
    long page = sysconf(_SC_PAGESIZE);
    size_t align = page > 0 ? (size_t)page : 4096;
    void *s = NULL, *r = NULL;
    if (posix_memalign(&s, align, op->send_bytes ? op->send_bytes : 1) != 0 ||
        posix_memalign(&r, align, op->recv_bytes ? op->recv_bytes : 1) != 0) {
        free(s);
        return MPI_ERR_NO_MEM;
    }
    op->send = s, op->recv = r;
    if (c == OC_ALLGATHERV) {
        op->counts = malloc(sizeof(int) * P);
        op->displs = malloc(sizeof(int) * P);
        if (!op->counts || !op->displs)
            return MPI_ERR_NO_MEM;
        for (size_t p = 0; p < P; p++)
            op->counts[p] = (int)size, op->displs[p] = (int)(p * size);
    }
    oc_fill(op);
    if (persistent) {
        op->persistent = 1;
        return call(op, 2);
    }
    return MPI_SUCCESS;
}

void oc_teardown(oc_op_t *op)
{
    if (op->persistent && op->req != MPI_REQUEST_NULL)
        MPI_Request_free(&op->req);
    free(op->send);
    free(op->recv);
    free(op->counts);
    free(op->displs);
    op->send = op->recv = NULL;
    op->counts = op->displs = NULL;
}

int oc_blocking(oc_op_t *op) { return call(op, 0); }

int oc_start(oc_op_t *op) { return op->persistent ? MPI_Start(&op->req) : call(op, 1); }

int oc_wait(oc_op_t *op) { return MPI_Wait(&op->req, MPI_STATUS_IGNORE); }

void oc_test(void *arg)
{
    oc_op_t *op = arg;
    int flag;
    MPI_Test(&op->req, &flag, MPI_STATUS_IGNORE);
}
