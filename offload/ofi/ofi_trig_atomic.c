/*
 * ofi_trig_atomic.c - reduce-scatter-block and allreduce run by the
 * provider with triggered atomics: MPI_SUM, MPI_MIN or MPI_MAX of a
 * predefined signed integer type (unsigned: MPI_SUM), float or double
 * (with NBO_OFI_OFFLOAD=all), not in place, where every rank's provider
 * has the atomic.  Rank j owns block j: the whole
 * receive buffer of a reduce-scatter, elements [j n / P, (j + 1) n / P)
 * of an allreduce's n.  A part, with the counters' values at its start as
 * base:
 *
 *   1. the receive buffer registered for remote writes under a key every
 *      rank computes (the call's tag), at offset 0 (no address exchange),
 *      and the own block of the send buffer copied into it by the host;
 *   2. a zero-byte receive per peer for its ready message and one for its
 *      block (an allreduce's; a reduce-scatter's is empty), then a ready
 *      message to every peer: "my receive buffer holds my own block";
 *   3. the peer's block of the send buffer, as atomics of at most the
 *      provider's count each, queued as deferred work fired once every
 *      ready message is in;
 *   4. once the remote-write counter says every peer's atomics into the
 *      own block are in, the block (reduced: its final value) sent to
 *      every peer, which also says "your atomics into me are in";
 *   5. a deferred zero-byte send to the own rank (the part's only CQ
 *      entry), fired once every peer's ready message and block are in:
 *      the result is complete and this rank's atomics are in the peers'.
 *
 * Every trigger counts receives or remote writes, none a send's
 * completion (docs/engine-ofi.md: on sockets that deadlocked).  A block
 * cannot come before every ready message is in: the peer sends it only
 * once this rank's atomics, fired by those, are in.
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
    /* Keys the application picks (the call's tag + 1: 33 bits), addressed
     * from offset 0: nothing to exchange per buffer. */
    const int mr_bits = FI_MR_VIRT_ADDR | FI_MR_PROV_KEY | FI_MR_ALLOCATED | FI_MR_ENDPOINT |
                        FI_MR_LOCAL | FI_MR_RAW;
    if ((fi->caps & (FI_ATOMIC | FI_RMA_EVENT)) != (FI_ATOMIC | FI_RMA_EVENT) ||
        (fi->domain_attr->mr_mode & mr_bits) || fi->domain_attr->mr_key_size < 8)
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

/* Block k: its elements, where they are in the send buffer and in the
 * owner's receive buffer (element offsets). */
static size_t block_len(const ofi_atomic_plan_t *a, int P, int k, size_t *src, size_t *dst)
{
    if (!a->all) {
        *src = (size_t)k * a->count;
        *dst = 0;
        return a->count;
    }
    *src = *dst = a->count * (size_t)k / (size_t)P;
    return a->count * (size_t)(k + 1) / (size_t)P - *src;
}

static size_t atomics_of(const ofi_atomic_plan_t *a, size_t len)
{
    return (len + a->per - 1) / a->per;
}

/* Depends only on the call (its collective, buffers' roles, type, op,
 * length) and the provider: every rank decides alike. */
static int plan(nbo_engine_comm_t *ec, const nbo_exec_t *x, int first, ofi_atomic_plan_t *a)
{
    const ofi_trig_t *t = ec->trig;
    const int rs = x->coll == NBO_COLL_REDUCE_SCATTER_BLOCK;
    if (!t->atomics || (!rs && x->coll != NBO_COLL_ALLREDUCE) || !x->red_set)
        return 0;
    for (int i = 0; i < first; i++)
        if (x->tasks[i].kind == NBO_TASK_SEND || x->tasks[i].kind == NBO_TASK_RECV)
            return 0;
    const size_t rlen = x->buf_len[NBO_BUF_RECV];
    if (x->buf_len[NBO_BUF_SEND] == 0 || x->buf[NBO_BUF_SEND] == x->buf[NBO_BUF_RECV] ||
        rlen == 0 || x->buf_len[NBO_BUF_SEND] < rlen * (rs ? (size_t)ec->size : 1))
        return 0;
    int size;
    a->dt = fi_type(x->red_type);
    a->op = fi_op(x->red_op);
    if (a->dt < 0 || a->op < 0 || MPI_Type_size(x->red_type, &size) != MPI_SUCCESS ||
        size <= 0 || rlen % (size_t)size)
        return 0;
    /* Unsigned MIN/MAX on the host: MPICH 4.0 compares them as signed
     * (MPI_Reduce_local), and the host path's result is MPI's. */
    if (a->op != FI_SUM && (a->dt == FI_UINT32 || a->dt == FI_UINT64))
        return 0;
    /* Floats only when asked (NBO_OFI_OFFLOAD=all): atomics land in any
     * order, so a sum is not bitwise reproducible (nor MIN/MAX of -0.0
     * and 0.0, or NaN), where the host path's order is fixed. */
    if ((a->dt == FI_FLOAT || a->dt == FI_DOUBLE) && ec->set.offload < 2)
        return 0;
    size_t most = 0;
    if (fi_atomicvalid(t->ep, (enum fi_datatype)a->dt, (enum fi_op)a->op, &most) != 0 || most == 0)
        return 0;
    a->all = !rs;
    a->elem = (size_t)size;
    a->count = rlen / a->elem;
    a->per = most;
    /* Every block not empty: an empty one's owner would send it at once,
     * before its peers' ready messages, which counts as one of them. */
    return !a->all || a->count >= (size_t)ec->size;
}

int ofi_trig_atomic_run(nbo_engine_comm_t *ec, nbo_exec_t *x, int first, ofi_run_t **out,
                        const char **why)
{
    *out = NULL;
    ofi_atomic_plan_t a;
    if (!plan(ec, x, first, &a))
        return 0;
    const int P = ec->size;
    /* The limit by the largest block, so that every rank decides alike. */
    const size_t largest = a.all ? (a.count + (size_t)P - 1) / (size_t)P : a.count;
    /* The atomics fire at once: on sockets, one that met a full transmit
     * queue (-FI_EAGAIN) under load stalled the list for good, so the
     * burst stays within half the queue as well as the deferred-work
     * budget (every rank's provider alike). */
    const size_t txq = ec->info->tx_attr ? ec->info->tx_attr->size : 0;
    const size_t most = txq && txq / 2 < OFI_TRIG_MAX_SENDS ? txq / 2 : OFI_TRIG_MAX_SENDS;
    if (atomics_of(&a, largest) * (size_t)(P - 1) > most) {
        *why = "a reduction needs more atomics at once than half the provider's transmit "
               "queue or the deferred-work budget (4096 per list) allows";
        return -1;
    }
    size_t natomic = 0, src, dst;
    for (int k = 0; k < P; k++)
        if (k != ec->rank)
            natomic += atomics_of(&a, block_len(&a, P, k, &src, &dst));
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
    r->nwork = r->natomic + P; /* and the blocks to the peers, the done message */
    r->nctx = 2 * P - 1;       /* a ready message and a block per peer, done */
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

/* Queue atomic j of r: chunk c of block k of the own send buffer, into
 * rank k's receive buffer, fired once every ready message is in. */
static ssize_t queue_atomic(nbo_engine_comm_t *ec, ofi_run_t *r, int j, int k, size_t c,
                            uint64_t key, uint64_t threshold)
{
    ofi_trig_t *t = ec->trig;
    const ofi_atomic_plan_t *a = &r->ap;
    size_t src, dst;
    const size_t len = block_len(a, ec->size, k, &src, &dst), at = c * a->per;
    const size_t n = len - at < a->per ? len - at : a->per;
    r->aioc[j] = (struct fi_ioc){(char *)r->x->buf[NBO_BUF_SEND] + (src + at) * a->elem, n};
    r->arma[j] = (struct fi_rma_ioc){.addr = (dst + at) * a->elem, .count = n, .key = key};
    /* sockets wants the context to be the work's own. */
    r->aop[j] = (struct fi_op_atomic){
        .ep = t->ep,
        .msg = {.msg_iov = &r->aioc[j], .iov_count = 1, .addr = t->addrs[k],
                .rma_iov = &r->arma[j], .rma_iov_count = 1, .datatype = (enum fi_datatype)a->dt,
                .op = (enum fi_op)a->op, .context = &r->work[j].context}};
    r->work[j] = (struct fi_deferred_work){.threshold = threshold, .triggering_cntr = t->rcntr,
                                           .completion_cntr = t->scntr,
                                           .op_type = FI_OP_ATOMIC};
    r->work[j].op.atomic = &r->aop[j];
    return ofi_trig_queue(ec, &r->work[j]);
}

/* Steps 1-2: the registration, the own block, the receives, the ready
 * messages. */
static ssize_t atomic_post(nbo_engine_comm_t *ec, ofi_run_t *r, uint64_t key, uint64_t ctl)
{
    ofi_trig_t *t = ec->trig;
    nbo_exec_t *x = r->x;
    const ofi_atomic_plan_t *a = &r->ap;
    const int P = ec->size, me = ec->rank;
    char *rbuf = x->buf[NBO_BUF_RECV];
    ssize_t e = fi_mr_reg(ec->domain, rbuf, x->buf_len[NBO_BUF_RECV], FI_REMOTE_WRITE, 0, key, 0,
                          &r->mr, NULL);
    if (e != 0) {
        r->mr = NULL;
        return e;
    }
    size_t src, dst;
    const size_t len = block_len(a, P, me, &src, &dst);
    memcpy(rbuf + dst * a->elem, (char *)x->buf[NBO_BUF_SEND] + src * a->elem, len * a->elem);
    ofi_trig_count_copy();
    /* The block this rank sends each peer in step 4 (empty: reduce-scatter). */
    r->iov[0] = (struct iovec){rbuf + dst * a->elem, a->all ? len * a->elem : 0};
    e = ofi_trig_post_msg(ec, 0, NULL, 0, FI_ADDR_UNSPEC, ctl | OFI_DONE_BIT, &r->ctx[2 * P - 2],
                          FI_COMPLETION);
    for (int i = 1, j = 0; e == 0 && i < P; i++) {
        const int k = (me + i) % P;
        const uint64_t from = OFI_CTL_BIT | ofi_tag(x->tag, k);
        const size_t klen = block_len(a, P, k, &src, &dst);
        e = ofi_trig_post_msg(ec, 0, NULL, 0, FI_ADDR_UNSPEC, from, &r->ctx[j++], 0);
        if (e == 0)
            e = ofi_trig_post_msg(ec, 0, a->all ? rbuf + dst * a->elem : NULL,
                                  a->all ? klen * a->elem : 0, FI_ADDR_UNSPEC,
                                  from | OFI_APPLIED_BIT, &r->ctx[j++], 0);
    }
    for (int i = 1; e == 0 && i < P; i++)
        e = ofi_trig_post_msg(ec, 1, NULL, 0, t->addrs[(me + i) % P], ctl, NULL, 0);
    return e;
}

ssize_t ofi_trig_atomic_start(nbo_engine_comm_t *ec, ofi_run_t *r)
{
    ofi_trig_t *t = ec->trig;
    const int P = ec->size, me = ec->rank;
    const ofi_atomic_plan_t *a = &r->ap;
    const uint64_t key = (uint64_t)r->x->tag + 1;
    const uint64_t ctl = OFI_CTL_BIT | ofi_tag(r->x->tag, me);
    size_t src, dst;
    const uint64_t ready = t->rbase + (uint64_t)(P - 1);
    r->rtarget = ready + (uint64_t)(P - 1); /* ready messages and blocks */
    r->starget = t->sbase + 2 * (uint64_t)(P - 1) + (uint64_t)r->natomic + 1; /* and done */
    r->atarget = t->abase + (uint64_t)(P - 1) * atomics_of(a, block_len(a, P, me, &src, &dst));
    r->started = 1;
    ssize_t e = atomic_post(ec, r, key, ctl);
    /* Peers in turn from the next rank, so they are not all written at once. */
    int j = 0;
    for (int i = 1; e == 0 && i < P; i++) {
        const int k = (me + i) % P;
        const size_t nk = atomics_of(a, block_len(a, P, k, &src, &dst));
        for (size_t c = 0; e == 0 && c < nk; c++)
            e = queue_atomic(ec, r, j++, k, c, key, ready);
    }
    for (int i = 1; e == 0 && i < P; i++)
        e = ofi_trig_queue_tagged(ec, r, j++, 1, &r->iov[0], (me + i) % P, ctl | OFI_APPLIED_BIT,
                                  t->acntr, r->atarget, t->scntr);
    static struct iovec none = {NULL, 0};
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
