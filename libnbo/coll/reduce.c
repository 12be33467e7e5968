/*
 * reduce.c - the reductions family: allreduce, reduce-scatter(-block),
 * reduce to a root, scan and exscan, their entry points and descriptors (family.h); the tables are
 * reduce_algs.c, the staging of a non-contiguous type reduce_stage.c.
 *
 * The task list addresses whole elements of extent bytes.  A contiguous
 * type runs on the user's buffers.  Any other (MPI_DOUBLE_INT, a derived
 * type with a user op) runs on contiguous scratch laid out as the type:
 * its data is copied in at each start and back at the end (MPI_Pack and
 * MPI_Unpack, so the holes of the user's buffers are never touched), and
 * MPI_Reduce_local applies the op to the scratch as it would to the
 * user's buffer.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reduce.h"

/* Is op defined on type?  MPI's own answer, without a table of ours:
 * MPI_Allreduce of one element on a communicator of one, whose errors
 * return.  (MPI_Reduce_local is no judge: MPICH 4.0 asserts and aborts on
 * some pairs, MPI_LAND on MPI_DOUBLE for one.)  A user op is not called:
 * with one rank the result is a copy. */
static int op_valid(struct nbo_comm *c, MPI_Op op, const nbo_dtype_t *dt)
{
    size_t n = dt->true_extent > 0 ? (size_t)dt->true_extent : 1;
    char *a = calloc(1, n), *b = calloc(1, n);
    int rc = NBO_ERR_NOMEM;
    if (a && b)
        rc = MPI_Allreduce(a - dt->true_lb, b - dt->true_lb, 1, dt->type, op, c->self) ==
                     MPI_SUCCESS
                 ? NBO_SUCCESS
                 : NBO_ERR_OP;
    free(a);
    free(b);
    return rc;
}

/* A side of n elements of elem bytes at buf, as one block at index `at`
 * (uniform: P blocks of n each), for the memory type and the buffer
 * lengths.  elem_type: elem bytes, contiguous. */
static int elem_map(nbo_block_map_t *m, int P, void *buf, int at, int n, int uniform,
                    MPI_Datatype elem_type, MPI_Comm comm)
{
    if (uniform)
        return nbo_block_map_init(m, P, buf, NULL, n, NULL, elem_type, comm);
    int *counts = calloc((size_t)P, sizeof(int)), *displs = calloc((size_t)P, sizeof(int));
    int rc = NBO_ERR_NOMEM;
    if (counts && displs) {
        counts[at] = n;
        rc = nbo_block_map_init(m, P, buf, counts, -1, displs, elem_type, comm);
    }
    free(counts);
    free(displs);
    return rc;
}

/* P blocks of counts[i] elements end to end at buf (elem_type: elements
 * as bytes, contiguous). */
static int blocks_map(nbo_block_map_t *m, int P, void *buf, const int *counts,
                      MPI_Datatype elem_type, MPI_Comm comm)
{
    int *displs = calloc((size_t)P, sizeof(int));
    if (!displs)
        return NBO_ERR_NOMEM;
    for (int i = 1; i < P; i++)
        displs[i] = displs[i - 1] + counts[i - 1];
    int rc = nbo_block_map_init(m, P, buf, counts, -1, displs, elem_type, comm);
    free(displs);
    return rc;
}

static int validate(const nbo_coll_call_t *k, const struct nbo_comm *c)
{
    if (k->coll == NBO_COLL_REDUCE_SCATTER) {
        if (!k->rcounts)
            return NBO_ERR_ARG;
        for (int i = 0; i < c->size; i++)
            if (k->rcounts[i] < 0)
                return NBO_ERR_COUNT;
    } else if (k->rcount < 0) {
        return NBO_ERR_COUNT;
    }
    if (k->op == MPI_OP_NULL)
        return NBO_ERR_OP;
    if (k->coll == NBO_COLL_REDUCE) {
        if (k->root < 0 || k->root >= c->size)
            return NBO_ERR_ROOT;
        if (k->sendbuf == MPI_IN_PLACE && c->rank != k->root) /* MPI: the root's only */
            return NBO_ERR_BUFFER;
    }
    return NBO_SUCCESS;
}

static void reduce_free(nbo_reduce_t *red) { nbo_reduce_plain_ops.free(red); }

/* The op and type judged, the buffers the tasks address (the user's, or
 * scratch for a staged type) as elements of extent bytes, and the
 * compiler's arrays by schedule.h's conventions. */
static int describe(const nbo_coll_call_t *k, struct nbo_comm *c, nbo_coll_parts_t *p)
{
    /* Reduce is allreduce's layout with a result on the root only; scan
     * and exscan are allreduce's layout. */
    const int P = c->size, reduce = k->coll == NBO_COLL_REDUCE;
    const int allreduce =
        k->coll != NBO_COLL_REDUCE_SCATTER_BLOCK && k->coll != NBO_COLL_REDUCE_SCATTER;
    const int ip = k->sendbuf == MPI_IN_PLACE, no_out = reduce && c->rank != k->root;
    nbo_block_map_t *smap = &p->smap, *rmap = &p->rmap;
    nbo_dtype_t dt;
    int rc = nbo_dtype_query(k->rtype, c->comm, &dt);
    if (rc != NBO_SUCCESS)
        return rc;
    if ((rc = op_valid(c, k->op, &dt)) != NBO_SUCCESS)
        return rc;
    int commutative = 1;
    if (MPI_Op_commutative(k->op, &commutative) != MPI_SUCCESS)
        return NBO_ERR_OP;

    /* Elements in (all blocks) and out (the result), per rank; the
     * reduce-scatters' P blocks of bcount[i]. */
    int *bcount = allreduce ? NULL : calloc((size_t)P, sizeof(int));
    if (!allreduce && !bcount)
        return NBO_ERR_NOMEM;
    int64_t n_blocks = 0;
    for (int i = 0; bcount && i < P; i++) {
        bcount[i] = !dt.size ? 0 : k->rcounts ? k->rcounts[i] : k->rcount;
        n_blocks += bcount[i];
    }
    /* a type of no data moves nothing */
    const int count = !dt.size ? 0 : bcount ? bcount[c->rank] : k->rcount;
    const int64_t n_in = allreduce ? count : n_blocks;
    const int64_t n_out = no_out ? 0 : count;
    free(bcount); /* read again below, once the sizes are known to fit */
    bcount = NULL;
    if (dt.extent <= 0 && n_in > 0)
        return NBO_ERR_DATATYPE;
    const size_t elem = dt.extent > 0 ? (size_t)dt.extent : 1;
    if (elem > INT_MAX || (uint64_t)n_in > SIZE_MAX / 4 / elem || n_in > INT_MAX)
        return NBO_ERR_OVERFLOW;
    if ((!ip && n_in > 0 && !k->sendbuf) || (n_out > 0 && !k->recvbuf))
        return NBO_ERR_BUFFER;
    /* Whole elements must be whole segments: each element's data within
     * its extent. */
    const int staged = !(dt.contig && dt.true_lb == 0);
    if (staged && count > 0 && dt.true_extent > dt.extent)
        return NBO_ERR_DATATYPE;
    /* The bytes each buffer's elements touch, for the aliasing check. */
    if (!ip && n_in > 0 && n_out > 0) {
        const char *s = (const char *)k->sendbuf + dt.true_lb, *r = (char *)k->recvbuf + dt.true_lb;
        const char *s_end = s + (n_in - 1) * dt.extent + dt.true_extent;
        const char *r_end = r + (n_out - 1) * dt.extent + dt.true_extent;
        if (s < r_end && r < s_end)
            return NBO_ERR_OVERLAP;
    }

    nbo_reduce_t *red = calloc(1, sizeof(*red));
    if (!red)
        return NBO_ERR_NOMEM;
    red->owned = MPI_DATATYPE_NULL;
    red->type = k->rtype;
    red->op = k->op;
    red->commutative = commutative;
    red->elem = elem;
    red->staged = staged;
    int ni, nc, na, combiner;
    /* A derived type may be freed by the user while we reduce: keep our
     * own.  Not a predefined one: predefined ops refuse derived types. */
    if (MPI_Type_get_envelope(k->rtype, &ni, &nc, &na, &combiner) != MPI_SUCCESS) {
        reduce_free(red);
        return NBO_ERR_DATATYPE;
    }
    if (combiner != MPI_COMBINER_NAMED) {
        if (MPI_Type_dup(k->rtype, &red->owned) != MPI_SUCCESS) {
            reduce_free(red);
            return NBO_ERR_MPI;
        }
        red->type = red->owned;
    }
    /* A reduce's recvbuf is not significant off the root. */
    void *in_buf = ip ? NULL : (void *)k->sendbuf, *out_buf = no_out ? NULL : k->recvbuf;
    if (staged) {
        red->shift = dt.true_lb;
        red->user_in = ip ? k->recvbuf : k->sendbuf;
        red->user_out = out_buf;
        red->n_in = (int)n_in;
        red->n_out = (int)n_out;
        red->packed_len = (size_t)n_in * dt.size;
        red->in = ip ? NULL : malloc((size_t)n_in * elem + 1);
        red->out = malloc((size_t)(ip ? n_in : n_out) * elem + 1);
        red->packed = malloc(red->packed_len + 1);
        if ((!ip && !red->in) || !red->out || !red->packed) {
            reduce_free(red);
            return NBO_ERR_NOMEM;
        }
        in_buf = red->in;
        out_buf = red->out;
    }

    /* The buffers the tasks address, in whole elements of elem bytes. */
    MPI_Datatype et;
    if (MPI_Type_contiguous((int)elem, MPI_BYTE, &et) != MPI_SUCCESS ||
        MPI_Type_commit(&et) != MPI_SUCCESS) {
        reduce_free(red);
        return NBO_ERR_MPI;
    }
    if (allreduce) {
        rc = elem_map(rmap, P, out_buf, 0, (int)n_out, 0, et, c->comm);
        if (rc == NBO_SUCCESS && !ip)
            rc = elem_map(smap, P, in_buf, 0, (int)n_in, 0, et, c->comm);
    } else {
        bcount = calloc((size_t)P, sizeof(int));
        for (int i = 0; bcount && i < P; i++)
            bcount[i] = !dt.size ? 0 : k->rcounts ? k->rcounts[i] : k->rcount;
        /* In place the receive buffer holds every block of the input. */
        rc = !bcount ? NBO_ERR_NOMEM
             : ip    ? blocks_map(rmap, P, out_buf, bcount, et, c->comm)
                     : elem_map(rmap, P, out_buf, c->rank, count, 0, et, c->comm);
        if (rc == NBO_SUCCESS && !ip)
            rc = blocks_map(smap, P, in_buf, bcount, et, c->comm);
    }
    MPI_Type_free(&et); /* a contiguous map never uses its type again */
    if (rc != NBO_SUCCESS) {
        nbo_block_map_free(smap);
        nbo_block_map_free(rmap);
        reduce_free(red);
        free(bcount);
        return rc;
    }

    p->red = red;
    p->stage = staged ? &nbo_reduce_staged_ops : &nbo_reduce_plain_ops;
    p->stage_data = red;
    if ((rc = nbo_plan_lists(&p->plan, P, P)) != NBO_SUCCESS) {
        nbo_coll_parts_free(p);
        free(bcount);
        return rc;
    }
    nbo_plan_all_ranks(&p->plan, P);
    /* The compiler's arrays (schedule.h): sbytes, sdispl, rbytes, rdispl. */
    nbo_sched_args_t *a = &p->plan.args;
    size_t *sb = (size_t *)a->sbytes, *sd = (size_t *)a->sdispl, *rb = (size_t *)a->rbytes;
    if (allreduce) {
        sb[0] = rb[0] = (size_t)count * elem;
    } else {
        size_t at = 0;
        for (int p = 0; p < P; p++) {
            sb[p] = (size_t)bcount[p] * elem;
            sd[p] = at;
            at += sb[p];
        }
        rb[c->rank] = (size_t)count * elem;
    }
    free(bcount);
    a->elem = elem;
    a->commutative = commutative;
    a->root = reduce ? k->root : 0;
    a->send_contig = (ip ? rmap : smap)->dt.contig;
    a->recv_contig = rmap->dt.contig;
    p->sendbuf = ip ? NULL : in_buf;
    p->recvbuf = out_buf;
    return NBO_SUCCESS;
}

/* Every rank reduces as many bytes per block as every other. */
static void signature(const nbo_coll_call_t *k, const struct nbo_comm *c,
                      const nbo_coll_parts_t *p, size_t *sb, size_t *rb)
{
    const nbo_sched_args_t *a = &p->plan.args;
    if (k->coll == NBO_COLL_REDUCE_SCATTER) { /* block i to rank i */
        memcpy(sb, a->sbytes, (size_t)a->nsend * sizeof(*sb));
        nbo_coll_sig_fill(rb, a->nrecv, a->rbytes[c->rank]);
        return;
    }
    const size_t n = k->coll == NBO_COLL_REDUCE_SCATTER_BLOCK ? a->rbytes[c->rank] : a->rbytes[0];
    nbo_coll_sig_fill(sb, a->nsend, n);
    nbo_coll_sig_fill(rb, a->nrecv, n);
}

static size_t small_max(const nbo_config_t *cfg) { return cfg->allreduce_small; }

static const nbo_coll_family_t family = {
    .validate = validate, .describe = describe, .signature = signature, .small_max = small_max};

const nbo_coll_desc_t nbo_allreduce_desc = {
    .coll = NBO_COLL_ALLREDUCE, .algs = nbo_allreduce_algs, .family = &family};

const nbo_coll_desc_t nbo_reduce_scatter_block_desc = {
    .coll = NBO_COLL_REDUCE_SCATTER_BLOCK, .algs = nbo_reduce_scatter_block_algs,
    .family = &family};

const nbo_coll_desc_t nbo_reduce_scatter_desc = {
    .coll = NBO_COLL_REDUCE_SCATTER, .algs = nbo_reduce_scatter_algs, .family = &family};

/* Reduce: the same operations, its own threshold. */
static size_t reduce_large(const nbo_config_t *cfg) { return cfg->reduce_large; }

static const nbo_coll_family_t reduce_family = {
    .validate = validate, .describe = describe, .signature = signature,
    .small_max = reduce_large};

const nbo_coll_desc_t nbo_reduce_desc = {
    .coll = NBO_COLL_REDUCE, .algs = nbo_reduce_algs, .family = &reduce_family};

const nbo_coll_desc_t nbo_scan_desc = {
    .coll = NBO_COLL_SCAN, .algs = nbo_scan_algs, .family = &family};

const nbo_coll_desc_t nbo_exscan_desc = {
    .coll = NBO_COLL_EXSCAN, .algs = nbo_scan_algs, .family = &family};

/* ------------------------------------------------------------ entry points */

static nbo_coll_call_t reduction(nbo_coll_t coll, const void *sendbuf, void *recvbuf, int count,
                                 MPI_Datatype datatype, MPI_Op op, int persistent)
{
    nbo_coll_call_t k = {.coll = coll, .persistent = persistent, .sendbuf = sendbuf,
                         .scount = count, .stype = datatype, .recvbuf = recvbuf,
                         .rcount = count, .rtype = datatype, .op = op};
    return k;
}

int nbo_ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = reduction(NBO_COLL_REDUCE, sendbuf, recvbuf, count, datatype, op, 0);
    k.root = root;
    return nbo_coll_start(&k, comm, req);
}

int nbo_reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, int root, nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = reduction(NBO_COLL_REDUCE, sendbuf, recvbuf, count, datatype, op, 1);
    k.root = root;
    return nbo_coll_start(&k, comm, req);
}

static nbo_coll_call_t reduce_scatter(const void *sendbuf, void *recvbuf, const int *recvcounts,
                                      MPI_Datatype datatype, MPI_Op op, int persistent)
{
    nbo_coll_call_t k = reduction(NBO_COLL_REDUCE_SCATTER, sendbuf, recvbuf, -1, datatype, op,
                                  persistent);
    k.rcounts = recvcounts;
    return k;
}

int nbo_ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, 0);
    return nbo_coll_start(&k, comm, req);
}

int nbo_reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                            MPI_Datatype datatype, MPI_Op op, nbo_comm_t comm,
                            nbo_request_t *req)
{
    nbo_coll_call_t k = reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, 1);
    return nbo_coll_start(&k, comm, req);
}

int nbo_iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = reduction(NBO_COLL_SCAN, sendbuf, recvbuf, count, datatype, op, 0);
    return nbo_coll_start(&k, comm, req);
}

int nbo_scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                  MPI_Op op, nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = reduction(NBO_COLL_SCAN, sendbuf, recvbuf, count, datatype, op, 1);
    return nbo_coll_start(&k, comm, req);
}

int nbo_iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                MPI_Op op, nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = reduction(NBO_COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, 0);
    return nbo_coll_start(&k, comm, req);
}

int nbo_exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k = reduction(NBO_COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, 1);
    return nbo_coll_start(&k, comm, req);
}

int nbo_iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k =
        reduction(NBO_COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, 0);
    return nbo_coll_start(&k, comm, req);
}

int nbo_allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, nbo_comm_t comm, nbo_request_t *req)
{
    nbo_coll_call_t k =
        reduction(NBO_COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, 1);
    return nbo_coll_start(&k, comm, req);
}

int nbo_ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, nbo_comm_t comm,
                              nbo_request_t *req)
{
    nbo_coll_call_t k = reduction(NBO_COLL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount,
                                  datatype, op, 0);
    return nbo_coll_start(&k, comm, req);
}

int nbo_reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                                  MPI_Datatype datatype, MPI_Op op, nbo_comm_t comm,
                                  nbo_request_t *req)
{
    nbo_coll_call_t k = reduction(NBO_COLL_REDUCE_SCATTER_BLOCK, sendbuf, recvbuf, recvcount,
                                  datatype, op, 1);
    return nbo_coll_start(&k, comm, req);
}
