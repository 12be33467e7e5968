/*
 * ofi_trig_atomic.c - a reduce-scatter-block run by the provider with
 * triggered atomics: MPI_SUM, MPI_MIN or MPI_MAX of a predefined integer,
 * float or double type, not in place, where every rank's provider has the
 * atomic.  A part, with the counters' values at its start as base:
 *
 *   1. the receive buffer registered for remote writes under a key every
 *      rank computes (the call's tag), at offset 0 (no address exchange),
 *      and the own block of the send buffer copied into it by the host;
 *   2. a zero-byte receive per peer for its ready message, then a ready
 *      message to every peer: "my receive buffer holds my own block";
 *   3. the peer's block of the send buffer, as atomics of at most the
 *      provider's count each, queued as deferred work fired once every
 *      ready message is in;
 *   4. once the remote-write counter says every peer's atomics into this
 *      rank's block are in, a deferred zero-byte "applied" message to
 *      every peer;
 *   5. a deferred zero-byte send to the own rank (the part's only CQ
 *      entry), fired once every peer's ready and applied messages are in:
 *      this rank's block is reduced and its atomics are in the peers'.
 *
 * Every trigger counts receives or remote writes, none a send's
 * completion (docs/engine-ofi.md: on sockets that deadlocked).  An
 * applied message cannot come before every ready message is in: the peer
 * sends it only once this rank's atomics, fired by those, are in.
 *
 * The whole list from its first message is taken: its messages and
 * REDUCE tasks are what the atomics do.  Sums land in any order, so a
 * float result may differ from the host path's in its last bits.
 */
#include <stdlib.h>
#include <string.h>

#include "ofi_trig.h"

int ofi_trig_atomic_open(nbo_engine_comm_t *ec, ofi_trig_t *t)
{
    const struct fi_info *fi = ec->info;
    /* Keys the application picks, addressed from offset 0: nothing to
     * exchange per buffer. */
    const int mr_bits = FI_MR_VIRT_ADDR | FI_MR_PROV_KEY | FI_MR_ALLOCATED | FI_MR_ENDPOINT |
                        FI_MR_LOCAL | FI_MR_RAW;
    if ((fi->caps & (FI_ATOMIC | FI_RMA_EVENT)) != (FI_ATOMIC | FI_RMA_EVENT) ||
        (fi->domain_attr->mr_mode & mr_bits) || fi->domain_attr->mr_key_size < 4)
        return 0;
    struct fi_cntr_attr ca = {.events = FI_CNTR_EVENTS_COMP, .wait_obj = FI_WAIT_NONE};
    if (fi_cntr_open(ec->domain, &ca, &t->acntr, NULL) != 0)
        return 0;
    if (fi_ep_bind(t->ep, &t->acntr->fid, FI_REMOTE_WRITE) != 0) {
        fi_close(&t->acntr->fid);
        t->acntr = NULL;
        return 0;
    }
    return 1;
}

/* The provider's name for an MPI predefined type, or -1. */
static int fi_type(MPI_Datatype d)
{
    static const struct {
        MPI_Datatype mpi;
        int is_signed, is_float;
    } kinds[] = {
        {MPI_INT, 1, 0},           {MPI_UNSIGNED, 0, 0},           {MPI_LONG, 1, 0},
        {MPI_UNSIGNED_LONG, 0, 0}, {MPI_LONG_LONG, 1, 0},          {MPI_UNSIGNED_LONG_LONG, 0, 0},
        {MPI_INT32_T, 1, 0},       {MPI_UINT32_T, 0, 0},           {MPI_INT64_T, 1, 0},
        {MPI_UINT64_T, 0, 0},      {MPI_FLOAT, 1, 1},              {MPI_DOUBLE, 1, 1},
    };
    int size = 0;
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
        if (kinds[i].mpi != d)
            continue;
        if (MPI_Type_size(d, &size) != MPI_SUCCESS)
            return -1;
        if (kinds[i].is_float)
            return size == 4 ? FI_FLOAT : size == 8 ? FI_DOUBLE : -1;
        if (size == 4)
            return kinds[i].is_signed ? FI_INT32 : FI_UINT32;
        if (size == 8)
            return kinds[i].is_signed ? FI_INT64 : FI_UINT64;
        return -1;
    }
    return -1;
}

static int fi_op(MPI_Op o)
{
    return o == MPI_SUM ? FI_SUM : o == MPI_MIN ? FI_MIN : o == MPI_MAX ? FI_MAX : -1;
}

/* Depends only on the call (its collective, buffers' roles, type, op,
 * block) and the provider: every rank decides alike. */
static int plan(nbo_engine_comm_t *ec, const nbo_exec_t *x, int first, ofi_atomic_plan_t *a)
{
    const ofi_trig_t *t = ec->trig;
    if (!t->atomics || x->coll != NBO_COLL_REDUCE_SCATTER_BLOCK || !x->red_set)
        return 0;
    for (int i = 0; i < first; i++)
        if (x->tasks[i].kind == NBO_TASK_SEND || x->tasks[i].kind == NBO_TASK_RECV)
            return 0;
    const size_t block = x->buf_len[NBO_BUF_RECV];
    if (x->buf_len[NBO_BUF_SEND] == 0 || x->buf[NBO_BUF_SEND] == x->buf[NBO_BUF_RECV] ||
        block == 0 || x->buf_len[NBO_BUF_SEND] < block * (size_t)ec->size)
        return 0;
    int size;
    a->dt = fi_type(x->red_type);
    a->op = fi_op(x->red_op);
    if (a->dt < 0 || a->op < 0 || MPI_Type_size(x->red_type, &size) != MPI_SUCCESS ||
        size <= 0 || block % (size_t)size)
        return 0;
    size_t most = 0;
    if (fi_atomicvalid(t->ep, (enum fi_datatype)a->dt, (enum fi_op)a->op, &most) != 0 || most == 0)
        return 0;
    a->elem = (size_t)size;
    a->count = block / a->elem;
    a->per = most;
    a->nch = (a->count + most - 1) / most;
    return 1;
}

int ofi_trig_atomic_run(nbo_engine_comm_t *ec, nbo_exec_t *x, int first, ofi_run_t **out,
                        const char **why)
{
    *out = NULL;
    ofi_atomic_plan_t a;
    if (!plan(ec, x, first, &a))
        return 0;
    const size_t natomic = a.nch * (size_t)(ec->size - 1);
    if (natomic > OFI_TRIG_MAX_SENDS) {
        *why = "a reduction needs more atomics than the deferred-work budget (4096 per list)";
        return -1;
    }
    ofi_run_t *r = calloc(1, sizeof(*r));
    if (!r)
        return 1;
    r->x = x;
    r->first = first;
    r->n = x->ntasks - first;
    for (int i = first; i < x->ntasks; i++) {
        r->nsend += x->tasks[i].kind == NBO_TASK_SEND;
        r->nrecv += x->tasks[i].kind == NBO_TASK_RECV;
    }
    r->atomic = 1;
    r->natomic = (int)natomic;
    r->nwork = r->natomic + ec->size; /* and the applied and done messages */
    r->nctx = 2 * ec->size - 1; /* a ready and an applied receive per peer, done */
    r->ctx = calloc((size_t)r->nctx, sizeof(*r->ctx));
    r->work = calloc((size_t)r->nwork, sizeof(*r->work));
    r->op = calloc((size_t)r->nwork, sizeof(*r->op));
    r->iov = calloc(1, sizeof(*r->iov));
    r->aop = calloc(natomic ? natomic : 1, sizeof(*r->aop));
    r->aioc = calloc(natomic ? natomic : 1, sizeof(*r->aioc));
    r->arma = calloc(natomic ? natomic : 1, sizeof(*r->arma));
    r->ap = a;
    *out = r;
    return 1;
}

/* Queue atomic j of r: chunk c of the own send buffer's block for peer,
 * into peer's receive buffer, fired once every ready message is in. */
static ssize_t queue_atomic(nbo_engine_comm_t *ec, ofi_run_t *r, int j, int peer, size_t c,
                            const ofi_atomic_plan_t *a, uint64_t key, uint64_t threshold)
{
    ofi_trig_t *t = ec->trig;
    const size_t block = a->count * a->elem, at = c * a->per;
    const size_t n = a->count - at < a->per ? a->count - at : a->per;
    r->aioc[j] = (struct fi_ioc){(char *)r->x->buf[NBO_BUF_SEND] + (size_t)peer * block +
                                     at * a->elem,
                                 n};
    r->arma[j] = (struct fi_rma_ioc){.addr = at * a->elem, .count = n, .key = key};
    /* sockets wants the context to be the work's own. */
    r->aop[j] = (struct fi_op_atomic){
        .ep = t->ep,
        .msg = {.msg_iov = &r->aioc[j], .iov_count = 1, .addr = t->addrs[peer],
                .rma_iov = &r->arma[j], .rma_iov_count = 1, .datatype = (enum fi_datatype)a->dt,
                .op = (enum fi_op)a->op, .context = &r->work[j].context}};
    r->work[j] = (struct fi_deferred_work){.threshold = threshold, .triggering_cntr = t->rcntr,
                                           .completion_cntr = t->scntr,
                                           .op_type = FI_OP_ATOMIC};
    r->work[j].op.atomic = &r->aop[j];
    return ofi_trig_queue(ec, &r->work[j]);
}

ssize_t ofi_trig_atomic_start(nbo_engine_comm_t *ec, ofi_run_t *r)
{
    ofi_trig_t *t = ec->trig;
    nbo_exec_t *x = r->x;
    const int P = ec->size, me = ec->rank;
    const ofi_atomic_plan_t a = r->ap;
    const size_t block = a.count * a.elem;
    const uint64_t key = (uint64_t)x->tag + 1;
    const uint64_t ready = t->rbase + (uint64_t)(P - 1);
    r->rtarget = ready + (uint64_t)(P - 1); /* ready and applied messages */
    r->starget = t->sbase + 2 * (uint64_t)(P - 1) + (uint64_t)r->natomic + 1; /* and done */
    r->atarget = t->abase + (uint64_t)(P - 1) * a.nch;
    r->started = 1;
    ssize_t e = fi_mr_reg(ec->domain, x->buf[NBO_BUF_RECV], block, FI_REMOTE_WRITE, 0, key, 0,
                          &r->mr, NULL);
    if (e != 0) {
        r->mr = NULL;
        return e;
    }
    memcpy(x->buf[NBO_BUF_RECV], (char *)x->buf[NBO_BUF_SEND] + (size_t)me * block, block);
    ofi_trig_count_copy();
    const uint64_t ctl = OFI_CTL_BIT | ofi_tag(x->tag, me);
    e = ofi_trig_post_msg(ec, 0, NULL, 0, FI_ADDR_UNSPEC, ctl | OFI_DONE_BIT, &r->ctx[2 * P - 2],
                          FI_COMPLETION);
    for (int k = 1, j = 0; e == 0 && k < P; k++) {
        const uint64_t from = OFI_CTL_BIT | ofi_tag(x->tag, (me + k) % P);
        e = ofi_trig_post_msg(ec, 0, NULL, 0, FI_ADDR_UNSPEC, from, &r->ctx[j++], 0);
        if (e == 0)
            e = ofi_trig_post_msg(ec, 0, NULL, 0, FI_ADDR_UNSPEC, from | OFI_APPLIED_BIT,
                                  &r->ctx[j++], 0);
    }
    for (int k = 1; e == 0 && k < P; k++)
        e = ofi_trig_post_msg(ec, 1, NULL, 0, t->addrs[(me + k) % P], ctl, NULL, 0);
    /* Peers in turn from the next rank, so they are not all written at once. */
    int j = 0;
    for (int k = 1; e == 0 && k < P; k++)
        for (size_t c = 0; e == 0 && c < a.nch; c++)
            e = queue_atomic(ec, r, j++, (me + k) % P, c, &a, key, ready);
    static struct iovec none = {NULL, 0};
    for (int k = 1; e == 0 && k < P; k++)
        e = ofi_trig_queue_tagged(ec, r, j++, 1, &none, (me + k) % P, ctl | OFI_APPLIED_BIT,
                                  t->acntr, r->atarget, t->scntr);
    if (e == 0)
        e = ofi_trig_queue_tagged(ec, r, j, 1, &none, me, ctl | OFI_DONE_BIT, t->rcntr,
                                  r->rtarget, t->scntr);
    return e;
}

void ofi_trig_atomic_end(ofi_run_t *r)
{
    if (r->mr)
        fi_close(&r->mr->fid);
    r->mr = NULL;
}
