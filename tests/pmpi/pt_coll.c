/*
 * pt_coll.c - one collective call of a libnbo-mpi test (pt_coll.h).
 *
 * Data model: an element of the call's datatype carries w logical ints
 * (1 for MPI_INT, 2 for the derived pair) at positions pos(k) in a buffer
 * of ints; logical value k of rank src in round seed is pt_val(src, 0, k,
 * seed).  Receive buffers start as SENTINEL everywhere and -1 on every
 * data position, so a check sees both wrong data and writes into gaps.
 */
#include <stdlib.h>
#include <string.h>

#include "pt_coll.h"

#define SENTINEL (-777)

const char *const pc_kind_name[PC_NKINDS] = {
    "ialltoall", "ialltoallv", "iallreduce", "ireduce_scatter_block", "iallgather",
    "iallgatherv", "ibcast", "ireduce", "iscan"};

/* ints 0 and 2 of a 3-int extent.  (Not resized wider: MPICH 4.0.2's
 * non-commutative reduce-scatter sizes its scratch by true extent.) */
static MPI_Datatype pair;
static MPI_Op op_sum, op_left; /* user ops: commutative sum, left operand */

/* Logical ints per element, ints per element. */
static int width(const pc_call_t *c) { return c->type == pair ? 2 : 1; }
static int extent(const pc_call_t *c) { return c->type == pair ? 3 : 1; }
static size_t pos(const pc_call_t *c, size_t k)
{
    return c->type == pair ? k / 2 * 3 + k % 2 * 2 : k;
}
static int val(int src, long k, int seed) { return pt_val(src, 0, (int)k, seed); }

static void user_fn(void *in, void *inout, int *len, MPI_Datatype *dt, int left)
{
    int *a = in, *b = inout;
    int step = *dt == pair ? 3 : 1, n = *dt == pair ? 2 : 1;
    for (int e = 0; e < *len; e++)
        for (int j = 0; j < n; j++) {
            int i = e * step + j * 2;
            b[i] = left ? a[i] : a[i] + b[i];
        }
}
static void sum_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    user_fn(in, inout, len, dt, 0);
}
static void left_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    user_fn(in, inout, len, dt, 1);
}

void pc_init(void)
{
    MPI_Type_vector(2, 1, 2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    MPI_Op_create(sum_fn, 1, &op_sum);
    MPI_Op_create(left_fn, 0, &op_left);
}

void pc_finalize(void)
{
    MPI_Type_free(&pair);
    MPI_Op_free(&op_sum);
    MPI_Op_free(&op_left);
}

static int is_reduction(pc_kind_t k)
{
    return k == PC_ALLREDUCE || k == PC_REDUCE_SCATTER_BLOCK;
}

/* Allgatherv: what src contributes (some ranks nothing), and where it goes
 * (one element of gap after each block). */
static int vcount(int src, int n) { return src % 3 == 2 ? 0 : n + src; }

static int *ints(size_t n) { return malloc((n ? n : 1) * sizeof(int)); }

/* Elements of the send and receive buffers. */
static void sizes(const pc_call_t *c, size_t *ns, size_t *nr)
{
    size_t n = (size_t)c->n, p = (size_t)c->p;
    switch (c->kind) {
    case PC_REDUCE_SCATTER_BLOCK: *ns = n * p; *nr = c->variant & PC_INPLACE ? n * p : n; break;
    case PC_ALLGATHER: *ns = n; *nr = n * p; break;
    case PC_ALLGATHERV:
        *ns = (size_t)vcount(c->me, c->n);
        *nr = 0;
        for (int s = 0; s < c->p; s++)
            *nr += (size_t)vcount(s, c->n) + 1;
        break;
    default: *ns = *nr = n; break;
    }
}

void pc_setup(pc_call_t *c, pc_kind_t kind, MPI_Comm comm, int n, int seed, int variant)
{
    memset(c, 0, sizeof(*c));
    c->kind = kind;
    c->comm = comm;
    c->n = n;
    MPI_Comm_rank(comm, &c->me);
    MPI_Comm_size(comm, &c->p);
    c->root = seed % c->p;
    int allowed = 0;
    if (is_reduction(kind))
        allowed = PC_INPLACE | PC_USEROP | PC_NONCOMM | PC_DERIVED;
    else if (kind == PC_ALLGATHER || kind == PC_ALLGATHERV)
        allowed = PC_INPLACE | PC_DERIVED;
    else if (kind == PC_BCAST)
        allowed = PC_DERIVED;
    c->variant = variant & allowed;
    c->type = c->variant & PC_DERIVED ? pair : MPI_INT;
    c->op = c->variant & PC_NONCOMM ? op_left
          : c->variant & (PC_USEROP | PC_DERIVED) ? op_sum : MPI_SUM;
    if (kind == PC_ALLTOALL) {
        c->s = ints((size_t)n * c->p), c->r = ints((size_t)n * c->p);
    } else if (kind == PC_ALLTOALLV) {
        int st, rt;
        c->sc = ints(c->p), c->sd = ints(c->p), c->rc = ints(c->p), c->rd = ints(c->p);
        pt_vlayout(comm, c->sc, c->sd, c->rc, c->rd, &st, &rt);
        c->s = ints(st), c->r = ints(rt);
    } else {
        size_t ns, nr;
        sizes(c, &ns, &nr);
        c->s = ints(ns * extent(c)), c->r = ints(nr * extent(c));
        if (kind == PC_ALLGATHERV) {
            c->rc = ints(c->p), c->rd = ints(c->p);
            for (int s = 0, at = 0; s < c->p; s++) {
                c->rc[s] = vcount(s, n);
                c->rd[s] = at;
                at += c->rc[s] + 1;
            }
        }
    }
    pc_fill(c, seed);
}

/* Put rank src's logical values 0..count*w-1, from value index first, at
 * element offset at of buf. */
static void put(const pc_call_t *c, int *buf, size_t at, size_t count, int src, long first)
{
    size_t w = (size_t)width(c), base = at * (size_t)extent(c);
    for (size_t k = 0; k < count * w; k++)
        buf[base + pos(c, k)] = val(src, first + (long)k, c->seed);
}

/* Mark count elements at element offset at of buf as not yet received. */
static void poison(const pc_call_t *c, int *buf, size_t at, size_t count)
{
    size_t w = (size_t)width(c), base = at * (size_t)extent(c);
    for (size_t k = 0; k < count * w; k++)
        buf[base + pos(c, k)] = -1;
}

void pc_fill(pc_call_t *c, int seed)
{
    c->seed = seed;
    if (c->kind == PC_ALLTOALL) {
        pt_fill(c->s, c->n, c->comm, seed);
        return;
    }
    if (c->kind == PC_ALLTOALLV) {
        pt_vfill(c->s, c->comm, seed);
        return;
    }
    size_t ns, nr, n = (size_t)c->n;
    sizes(c, &ns, &nr);
    for (size_t i = 0; i < ns * extent(c); i++)
        c->s[i] = SENTINEL;
    for (size_t i = 0; i < nr * extent(c); i++)
        c->r[i] = SENTINEL;
    int inplace = c->variant & PC_INPLACE;
    switch (c->kind) {
    case PC_ALLGATHER:
        put(c, c->s, 0, n, c->me, 0);
        poison(c, c->r, 0, nr);
        if (inplace)
            put(c, c->r, n * c->me, n, c->me, 0);
        break;
    case PC_ALLGATHERV:
        put(c, c->s, 0, ns, c->me, 0);
        for (int s = 0; s < c->p; s++)
            poison(c, c->r, (size_t)c->rd[s], (size_t)c->rc[s]);
        if (inplace)
            put(c, c->r, (size_t)c->rd[c->me], ns, c->me, 0);
        break;
    case PC_BCAST:
        if (c->me == c->root)
            put(c, c->r, 0, n, c->me, 0);
        else
            poison(c, c->r, 0, n);
        break;
    default: /* the reductions */
        put(c, c->s, 0, ns, c->me, 0);
        if (inplace)
            put(c, c->r, 0, nr, c->me, 0);
        else
            poison(c, c->r, 0, nr);
        break;
    }
}

int pc_start(pc_call_t *c, MPI_Request *rq)
{
    const void *s = c->variant & PC_INPLACE ? MPI_IN_PLACE : c->s;
    int n = c->n;
    switch (c->kind) {
    case PC_ALLTOALL:
        return MPI_Ialltoall(c->s, n, MPI_INT, c->r, n, MPI_INT, c->comm, rq);
    case PC_ALLTOALLV:
        return MPI_Ialltoallv(c->s, c->sc, c->sd, MPI_INT, c->r, c->rc, c->rd, MPI_INT, c->comm,
                              rq);
    case PC_ALLREDUCE:
        return MPI_Iallreduce(s, c->r, n, c->type, c->op, c->comm, rq);
    case PC_REDUCE_SCATTER_BLOCK:
        return MPI_Ireduce_scatter_block(s, c->r, n, c->type, c->op, c->comm, rq);
    case PC_ALLGATHER:
        return MPI_Iallgather(s, n, c->type, c->r, n, c->type, c->comm, rq);
    case PC_ALLGATHERV:
        return MPI_Iallgatherv(s, vcount(c->me, n), c->type, c->r, c->rc, c->rd, c->type,
                               c->comm, rq);
    case PC_BCAST:
        return MPI_Ibcast(c->r, n, c->type, c->root, c->comm, rq);
    case PC_REDUCE:
        return MPI_Ireduce(c->s, c->r, n, MPI_INT, MPI_SUM, c->root, c->comm, rq);
    case PC_SCAN:
        return MPI_Iscan(c->s, c->r, n, MPI_INT, MPI_SUM, c->comm, rq);
    default:
        return MPI_ERR_OTHER;
    }
}

int pc_persistent(pc_call_t *c, MPI_Request *rq)
{
    const void *s = c->variant & PC_INPLACE ? MPI_IN_PLACE : c->s;
    int n = c->n;
    MPI_Info in = MPI_INFO_NULL;
    switch (c->kind) {
    case PC_ALLTOALL:
        return MPI_Alltoall_init(c->s, n, MPI_INT, c->r, n, MPI_INT, c->comm, in, rq);
    case PC_ALLTOALLV:
        return MPI_Alltoallv_init(c->s, c->sc, c->sd, MPI_INT, c->r, c->rc, c->rd, MPI_INT,
                                  c->comm, in, rq);
    case PC_ALLREDUCE:
        return MPI_Allreduce_init(s, c->r, n, c->type, c->op, c->comm, in, rq);
    case PC_REDUCE_SCATTER_BLOCK:
        return MPI_Reduce_scatter_block_init(s, c->r, n, c->type, c->op, c->comm, in, rq);
    case PC_ALLGATHER:
        return MPI_Allgather_init(s, n, c->type, c->r, n, c->type, c->comm, in, rq);
    case PC_ALLGATHERV:
        return MPI_Allgatherv_init(s, vcount(c->me, n), c->type, c->r, c->rc, c->rd, c->type,
                                   c->comm, in, rq);
    case PC_BCAST:
        return MPI_Bcast_init(c->r, n, c->type, c->root, c->comm, in, rq);
    default:
        return MPI_ERR_OTHER;
    }
}

int pc_served(const pc_call_t *c)
{
    return c->kind <= PC_BCAST && !(is_reduction(c->kind) && c->type == pair);
}

/* The reduction of logical value k over ranks 0..last. */
static int reduced(const pc_call_t *c, long k, int last)
{
    if (c->op == op_left)
        return val(0, k, c->seed);
    int sum = 0;
    for (int s = 0; s <= last; s++)
        sum += val(s, k, c->seed);
    return sum;
}

void pc_check(const pc_call_t *c, const char *what)
{
    if (c->kind == PC_ALLTOALL) {
        pt_check(c->r, c->n, c->comm, c->seed, what);
        return;
    }
    if (c->kind == PC_ALLTOALLV) {
        pt_vcheck(c->r, c->comm, c->seed, what);
        return;
    }
    if (c->kind == PC_REDUCE && c->me != c->root)
        return; /* nothing received */
    size_t ns, nr, n = (size_t)c->n, w = (size_t)width(c);
    sizes(c, &ns, &nr);
    size_t len = nr * extent(c);
    int *want = ints(len);
    for (size_t i = 0; i < len; i++)
        want[i] = SENTINEL;
    switch (c->kind) {
    case PC_ALLGATHER:
        for (int s = 0; s < c->p; s++)
            put(c, want, n * s, n, s, 0);
        break;
    case PC_ALLGATHERV:
        for (int s = 0; s < c->p; s++)
            put(c, want, (size_t)c->rd[s], (size_t)c->rc[s], s, 0);
        break;
    case PC_BCAST:
        put(c, want, 0, n, c->root, 0);
        break;
    default: { /* reductions: the result's n elements (in place: the first n) */
        long first = c->kind == PC_REDUCE_SCATTER_BLOCK ? (long)(n * w) * c->me : 0;
        int last = c->kind == PC_SCAN ? c->me : c->p - 1;
        for (size_t k = 0; k < n * w; k++)
            want[pos(c, k)] = reduced(c, first + (long)k, last);
        len = n * extent(c);
        break;
    }
    }
    for (size_t i = 0; i < len; i++)
        if (c->r[i] != want[i]) {
            pt_fail("%s: int %zu of the result is %d, want %d%s", what, i, c->r[i], want[i],
                    want[i] == SENTINEL ? " (a gap of the datatype)" : "");
            break;
        }
    free(want);
}

void pc_free(pc_call_t *c)
{
    free(c->s), free(c->r), free(c->sc), free(c->sd), free(c->rc), free(c->rd);
    memset(c, 0, sizeof(*c));
}
