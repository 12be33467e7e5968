/*
 * ofi_trigger.c - task lists run by the provider: libfabric deferred work
 * (fi_trigger(3)), where the domain takes FI_QUEUE_WORK.
 *
 * A second endpoint (the offload endpoint) carries the offloaded parts,
 * with a receive counter and a send counter bound to it, and the CQ of the
 * host path with FI_SELECTIVE_COMPLETION: its operations write no CQ
 * entry, except the one that ends a part.  One part of a list runs at a
 * time per communicator, the others queue in start order (the order of
 * the collective calls, equal on every rank).  ofi_trig_part.c says which
 * part can run here and how it is counted.  A part, with base the
 * counters' values when it starts, S sends and R receives:
 *
 *   1. its R receives posted, and one zero-byte receive per send for the
 *      peer's ready message; COPY tasks done by the host;
 *   2. a zero-byte ready message to the peer of every receive;
 *   3. window k's sends queued as deferred sends, fired once every ready
 *      message and the receives of the WAITs before window k are in;
 *   4. then a deferred zero-byte send to the own rank whose receive, the
 *      only one with FI_COMPLETION, wakes the progress thread; it polls
 *      until the part's last sends are counted too.
 *
 * Sends that read only the send buffer (all-to-all): every task counts on
 * the receive counter, and window k fires at base + S + R + the tasks of
 * the earlier WAITs: as many tasks are in as those WAITs stand for, not
 * necessarily theirs, which changes the pace, never the data.
 *
 * Sends that forward received data (broadcast, allgather): the receives
 * are deferred receives (threshold 0, fired at once) whose completions
 * count on the window counter of their WAIT, wc[w], one per WAIT from a
 * pool opened with the endpoint (NBO_OFI_TRIG_COUNTERS).  wc[w] is reset
 * at the part's start and ends at its receives + 1: the 1 is a deferred
 * counter add fired by the end of wc[w - 1] (for w = 0: by the receive
 * counter reaching base + S, every ready message).  So wc[w]'s end means
 * exactly WAITs 0..w's receives are in; window k + 1's sends and, after
 * the last, the done message fire on it.  A list with more WAITs than
 * counters runs on the host path.
 *
 * Allreduce and reduce-scatter-block run as triggered atomics instead
 * (ofi_trig_atomic.c): a third counter, bound to the endpoint for remote
 * writes, counts the atomics that land in this rank's registered buffer.
 *
 * progress() reads the counters (fi_cntr_read) and reports every task of a
 * part that reached its targets.  A sockets trigger that meets -FI_EAGAIN
 * waits until its counter moves again; progress() nudges the counters of a
 * part whose counts have not moved for OFI_TRIG_NUDGE_MS (an add of 0
 * makes the provider look at its triggers again).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "ofi_stats.h"
#include "ofi_trig.h"

/* ---------------------------------------------------------------- stats */

static atomic_long st_host, st_off, st_runs, st_copies, st_fall, st_prog, st_inflight, st_tail,
    st_nudge;

void ofi_stat_add(int which, long n)
{
    atomic_fetch_add_explicit(which == OFI_STAT_HOST ? &st_host : &st_prog, n,
                              memory_order_relaxed);
}

void ofi_trig_count_copy(void)
{
    atomic_fetch_add_explicit(&st_copies, 1, memory_order_relaxed);
}

void nbo_ofi_stats_read(nbo_ofi_stats_t *o)
{
    o->host_tasks = atomic_load(&st_host);
    o->offload_tasks = atomic_load(&st_off);
    o->offload_runs = atomic_load(&st_runs);
    o->start_copies = atomic_load(&st_copies);
    o->fallbacks = atomic_load(&st_fall);
    o->progress_calls = atomic_load(&st_prog);
    o->inflight_polls = atomic_load(&st_inflight);
    o->tail_polls = atomic_load(&st_tail);
    o->nudges = atomic_load(&st_nudge);
}

/* ------------------------------------------------------------ open, close */

/* Does the domain take deferred work?  A counter add that never fires,
 * queued and flushed. */
static int takes_work(nbo_engine_comm_t *ec, ofi_trig_t *t)
{
    t->probe_op = (struct fi_op_cntr){.cntr = t->rcntr, .value = 0};
    t->probe = (struct fi_deferred_work){.threshold = INT32_MAX,
                                         .triggering_cntr = t->rcntr,
                                         .op_type = FI_OP_CNTR_ADD};
    t->probe.op.cntr = &t->probe_op;
    if (fi_control(&ec->domain->fid, FI_QUEUE_WORK, &t->probe) != 0)
        return 0;
    fi_control(&ec->domain->fid, FI_FLUSH_WORK, NULL);
    return 1;
}

/* Local: the counter and endpoint, where the provider takes deferred work. */
static void trig_free(ofi_trig_t *t)
{
    if (t->ep)
        fi_close(&t->ep->fid);
    for (int i = 0; i < t->nwc; i++)
        fi_close(&t->wc[i]->fid);
    fi_close(&t->rcntr->fid);
    fi_close(&t->scntr->fid);
    if (t->acntr)
        fi_close(&t->acntr->fid);
    free(t->wc);
    free(t->addrs);
    free(t);
}

/* The window counters, as many as the setting asks and the domain has
 * beside the two of the endpoint (fewer is no error: longer lists keep
 * the host path). */
static void open_windows(nbo_engine_comm_t *ec, ofi_trig_t *t)
{
    int want = ec->set.trig_counters;
    const size_t have = ec->info->domain_attr ? ec->info->domain_attr->cntr_cnt : 0;
    if (have && have < (size_t)want + 2)
        want = have > 2 ? (int)have - 2 : 0;
    t->wc = want ? calloc((size_t)want, sizeof(*t->wc)) : NULL;
    /* No wait object: only triggers and fi_cntr_read look at them. */
    struct fi_cntr_attr ca = {.events = FI_CNTR_EVENTS_COMP, .wait_obj = FI_WAIT_NONE};
    while (t->wc && t->nwc < want && fi_cntr_open(ec->domain, &ca, &t->wc[t->nwc], NULL) == 0)
        t->nwc++;
}

/* Atomics where the provider has them (their counter is bound before the
 * endpoint is enabled), then enabled: 1, or 0 if enabling failed. */
static int atomics_then_enable(nbo_engine_comm_t *ec, ofi_trig_t *t)
{
    t->atomics = ofi_trig_atomic_open(ec, t);
    return fi_enable(t->ep) == 0;
}

static ofi_trig_t *trig_local(nbo_engine_comm_t *ec, char *name, size_t *len)
{
    ofi_trig_t *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    struct fi_cntr_attr ca = {.events = FI_CNTR_EVENTS_COMP, .wait_obj = FI_WAIT_UNSPEC};
    if (fi_cntr_open(ec->domain, &ca, &t->rcntr, NULL) != 0) {
        free(t);
        return NULL;
    }
    if (fi_cntr_open(ec->domain, &ca, &t->scntr, NULL) != 0) {
        fi_close(&t->rcntr->fid);
        free(t);
        return NULL;
    }
    if (!takes_work(ec, t) || fi_endpoint(ec->domain, ec->info, &t->ep, NULL) != 0 ||
        fi_ep_bind(t->ep, &ec->cq->fid, FI_TRANSMIT | FI_RECV | FI_SELECTIVE_COMPLETION) != 0 ||
        fi_ep_bind(t->ep, &ec->av->fid, 0) != 0 ||
        fi_ep_bind(t->ep, &t->rcntr->fid, FI_RECV) != 0 ||
        fi_ep_bind(t->ep, &t->scntr->fid, FI_SEND) != 0 ||
        !atomics_then_enable(ec, t) ||
        fi_getname(&t->ep->fid, name, len) != 0) {
        trig_free(t);
        return NULL;
    }
    open_windows(ec, t);
    return t;
}

int ofi_trig_open(nbo_engine_comm_t *ec)
{
    char name[256];
    size_t len = sizeof(name);
    ofi_trig_t *t = ec->set.offload && ec->size > 1 ? trig_local(ec, name, &len) : NULL;
    /* Every rank offloads, or none: a part's messages go to the peer's
     * offload endpoint. */
    int mine = t != NULL, all = 0;
    if (MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, ec->comm) != MPI_SUCCESS)
        all = -1;
    char *names = all > 0 ? malloc((size_t)ec->size * sizeof(name)) : NULL;
    if (t)
        t->addrs = malloc((size_t)ec->size * sizeof(*t->addrs));
    int ok = all > 0 && names && t->addrs;
    int agreed = 0;
    if (all >= 0 && MPI_Allreduce(&ok, &agreed, 1, MPI_INT, MPI_MIN, ec->comm) != MPI_SUCCESS)
        all = -1;
    if (agreed &&
        MPI_Allgather(name, (int)sizeof(name), MPI_BYTE, names, (int)sizeof(name), MPI_BYTE,
                      ec->comm) != MPI_SUCCESS)
        all = -1;
    for (int r = 0; agreed && all > 0 && r < ec->size; r++)
        if (fi_av_insert(ec->av, names + (size_t)r * sizeof(name), 1, &t->addrs[r], 0, NULL) != 1)
            all = -1;
    free(names);
    /* Window counters: the fewest any rank has, so that a list's path
     * depends on the list alone. */
    int nwc = t ? t->nwc : 0;
    if (agreed &&
        MPI_Allreduce(&t->nwc, &nwc, 1, MPI_INT, MPI_MIN, ec->comm) != MPI_SUCCESS)
        all = -1;
    /* Reductions by atomics where every rank has them. */
    int atomics = t ? t->atomics : 0;
    if (agreed &&
        MPI_Allreduce(&t->atomics, &atomics, 1, MPI_INT, MPI_MIN, ec->comm) != MPI_SUCCESS)
        all = -1;
    if (agreed && all > 0) {
        t->atomics = atomics;
        while (t->nwc > nwc)
            fi_close(&t->wc[--t->nwc]->fid);
        ec->trig = t;
        return NBO_SUCCESS;
    }
    if (t)
        trig_free(t);
    return all < 0 ? NBO_ERR_ENGINE : NBO_SUCCESS;
}

static void run_free(ofi_run_t *r)
{
    ofi_trig_atomic_end(r);
    free(r->aop);
    free(r->aioc);
    free(r->arma);
    free(r->ctx);
    free(r->work);
    free(r->op);
    free(r->cop);
    free(r->iov);
    free(r);
}

void ofi_trig_close(nbo_engine_comm_t *ec)
{
    ofi_trig_t *t = ec->trig;
    if (!t)
        return;
    fi_control(&ec->domain->fid, FI_FLUSH_WORK, NULL);
    fi_close(&t->ep->fid);
    t->ep = NULL;
    for (ofi_run_t **l = &t->head; l; l = l == &t->head ? &t->dead : NULL)
        while (*l) {
            ofi_run_t *r = *l;
            *l = r->next;
            run_free(r);
        }
    trig_free(t);
    ec->trig = NULL;
}

/* Every receive of r is in (the done message may be on its way). */
static int recvs_done(const ofi_trig_t *t, const ofi_run_t *r)
{
    return fi_cntr_read(t->rcntr) >= r->rtarget &&
           (!r->nwait || fi_cntr_read(t->wc[r->nwait - 1]) >= r->wlast) &&
           (!r->atomic || fi_cntr_read(t->acntr) >= r->atarget);
}

/* Report every task of r with status; r leaves the queue (freed, or kept
 * where the provider may still hold its contexts). */
static void run_report(nbo_engine_comm_t *ec, ofi_run_t *r, int status, int keep)
{
    ofi_trig_t *t = ec->trig;
    for (ofi_run_t **pp = &t->head; *pp; pp = &(*pp)->next)
        if (*pp == r) {
            *pp = r->next;
            break;
        }
    t->tail = NULL;
    for (ofi_run_t *q = t->head; q; q = q->next)
        t->tail = q;
    /* No peer writes into its buffer any more (or may not: failed). */
    ofi_trig_atomic_end(r);
    for (int i = r->first; i < r->first + r->n; i++)
        if (r->x->tasks[i].kind == NBO_TASK_SEND || r->x->tasks[i].kind == NBO_TASK_RECV)
            ec->sv->complete(r->x, i, status);
    if (keep) {
        r->next = t->dead;
        t->dead = r;
    } else
        run_free(r);
}

/* The head part's deferred work and posted receives withdrawn; the
 * counter no longer says where a part stands. */
static void withdraw_head(nbo_engine_comm_t *ec)
{
    ofi_trig_t *t = ec->trig;
    ofi_run_t *r = t->head;
    t->broken = 1;
    fi_control(&ec->domain->fid, FI_FLUSH_WORK, NULL);
    for (int i = 0; r && r->started && i < r->nctx; i++)
        fi_cancel(&t->ep->fid, &r->ctx[i]);
    for (int j = 0; r && r->started && r->nwait && j < r->nrecv; j++)
        fi_cancel(&t->ep->fid, &r->work[r->nsend + 1 + j].context);
    if (r)
        r->withdrawn = 1;
}

/* Fail every part: the head withdrawn, the rest never started. */
static int fail_all(nbo_engine_comm_t *ec, int status)
{
    ofi_trig_t *t = ec->trig;
    int n = 0;
    if (t->head && t->head->started) {
        withdraw_head(ec);
        n += t->head->nsend + t->head->nrecv;
        run_report(ec, t->head, status, 1);
    }
    t->broken = 1;
    while (t->head) {
        n += t->head->nsend + t->head->nrecv;
        run_report(ec, t->head, status, 0);
    }
    return n;
}

/* Start the head part if it waits: 0, or the tasks reported failed. */
static int start_head(nbo_engine_comm_t *ec)
{
    ofi_trig_t *t = ec->trig;
    if (!t->head || t->head->started)
        return 0;
    ssize_t e = ofi_trig_run_start(ec, t->head);
    if (e == 0)
        return 0;
    return fail_all(ec, e == -FI_EMSGSIZE ? NBO_ERR_OVERFLOW : ofi_status((int)-e));
}

static void say_fallback(const nbo_engine_comm_t *ec, const char *why)
{
    static atomic_int said;
    atomic_fetch_add_explicit(&st_fall, 1, memory_order_relaxed);
    if (ec->set.log && !atomic_exchange(&said, 1))
        fprintf(stderr, "libnbo: ofi engine: a task list runs on the host path: %s\n", why);
}

/* Every rank of a call must decide alike, and a broadcast's lists differ
 * in length by rank: compare the most WAITs any rank's broadcast or
 * allgather list has at P ranks (scatter, then a ring: P + 2 measured at
 * P = 3-8, any window), never less than this rank's own. */
static int wait_bound(int P, int own)
{
    int log2p = 0;
    while ((1 << log2p) < P)
        log2p++;
    const int bound = P + log2p + 2;
    return own > bound ? own : bound;
}

/* Queue r behind the parts before it, and start it if it is the head. */
static int run_enqueue(nbo_engine_comm_t *ec, ofi_run_t *r, int *taken)
{
    ofi_trig_t *t = ec->trig;
    if (t->tail)
        t->tail->next = r;
    else
        t->head = r;
    t->tail = r;
    atomic_fetch_add_explicit(&st_off, r->nsend + r->nrecv, memory_order_relaxed);
    atomic_fetch_add_explicit(&st_runs, 1, memory_order_relaxed);
    *taken = r->n;
    /* A start that fails reports the part's tasks at the next progress(). */
    if (t->head == r && ofi_trig_run_start(ec, r) != 0)
        t->broken = -1;
    return NBO_SUCCESS;
}

int ofi_engine_offload(nbo_engine_comm_t *ec, nbo_exec_t *x, int first, int *taken)
{
    *taken = 0;
    ofi_trig_t *t = ec->trig;
    if (!t || ec->failed)
        return NBO_SUCCESS;
    const char *why = NULL;
    ofi_run_t *r = NULL;
    const int atomic = t->broken ? 0 : ofi_trig_atomic_run(ec, x, first, &r, &why);
    if (atomic < 0) {
        say_fallback(ec, why);
        return NBO_SUCCESS;
    }
    if (atomic) {
        if (!r || !r->ctx || !r->work || !r->op || !r->iov || !r->aop || !r->aioc || !r->arma) {
            if (r)
                run_free(r);
            return NBO_ERR_NOMEM;
        }
        return run_enqueue(ec, r, taken);
    }
    ofi_part_t p;
    const int n = ofi_trig_part(x, first, &p), nsend = p.nsend, nrecv = p.nrecv;
    if (n == 0)
        return NBO_SUCCESS;
    if (t->broken) {
        say_fallback(ec, "an offloaded list failed on this communicator");
        return NBO_SUCCESS;
    }
    if (nsend > OFI_TRIG_MAX_SENDS) {
        say_fallback(ec, "more sends than the deferred-work budget (4096 per list)");
        return NBO_SUCCESS;
    }
    if (p.forwards && wait_bound(ec->size, p.nwait) > t->nwc) {
        say_fallback(ec, "a list that forwards data has more windows than the offload's counters "
                     "(NBO_OFI_TRIG_COUNTERS)");
        return NBO_SUCCESS;
    }
    r = calloc(1, sizeof(*r));
    if (!r)
        return NBO_ERR_NOMEM;
    r->x = x;
    r->first = first;
    r->n = n;
    r->nsend = nsend;
    r->nrecv = nrecv;
    r->nwait = p.forwards ? p.nwait : 0;
    const int nrw = r->nwait ? nrecv : 0; /* receives posted as deferred work */
    r->nwork = nsend + 1 + nrw + r->nwait + 1; /* the last: an own-block copy */
    r->nctx = n + nsend + 1;
    r->ctx = calloc((size_t)r->nctx, sizeof(*r->ctx));
    r->work = calloc((size_t)r->nwork, sizeof(*r->work));
    r->op = calloc((size_t)(nsend + 2 + nrw), sizeof(*r->op));
    r->cop = calloc((size_t)r->nwait + 1, sizeof(*r->cop));
    r->iov = calloc((size_t)n, sizeof(*r->iov));
    if (!r->ctx || !r->work || !r->op || !r->cop || !r->iov) {
        run_free(r);
        return NBO_ERR_NOMEM;
    }
    return run_enqueue(ec, r, taken);
}

int ofi_trig_head_done(nbo_engine_comm_t *ec)
{
    const ofi_run_t *r = ec->trig->head;
    return recvs_done(ec->trig, r) && fi_cntr_read(ec->trig->scntr) >= r->starget;
}

int ofi_trig_sending(nbo_engine_comm_t *ec)
{
    const ofi_trig_t *t = ec->trig;
    return t && t->head && t->head->started && recvs_done(t, t->head);
}

/* Free the reported parts the provider is done with: those before the
 * part that just ended.  The send counter reached that part's target, which
 * counts every send of every earlier part, their done messages (which read
 * their deferred work) included. */
static void sweep(ofi_trig_t *t)
{
    for (ofi_run_t **pp = &t->dead; *pp;) {
        ofi_run_t *r = *pp;
        if (!r->withdrawn) {
            *pp = r->next;
            run_free(r);
        } else
            pp = &r->next;
    }
}

/* The counters of the running part unmoved since OFI_TRIG_NUDGE_MS: add 0
 * to each, which makes the provider try its waiting triggers again. */
static void nudge_if_stalled(ofi_trig_t *t)
{
    struct fid_cntr *c[3] = {t->rcntr, t->scntr, t->acntr};
    uint64_t sum = 0;
    for (int i = 0; i < 3; i++)
        sum += c[i] ? fi_cntr_read(c[i]) : 0;
    for (int w = 0; w < t->head->nwait; w++)
        sum += fi_cntr_read(t->wc[w]);
    const double now = nbo_now();
    if (sum != t->seen || !t->head->started) {
        t->seen = sum;
        t->seen_at = now;
        return;
    }
    if (now - t->seen_at < OFI_TRIG_NUDGE_MS * 1e-3)
        return;
    for (int i = 0; i < 3; i++)
        if (c[i])
            fi_cntr_add(c[i], 0);
    for (int w = 0; w < t->head->nwait; w++)
        fi_cntr_add(t->wc[w], 0);
    t->seen_at = now;
    atomic_fetch_add_explicit(&st_nudge, 1, memory_order_relaxed);
}

int ofi_trig_progress(nbo_engine_comm_t *ec)
{
    ofi_trig_t *t = ec->trig;
    if (!t || !t->head)
        return 0;
    if (t->broken < 0)
        return fail_all(ec, t->fail_status ? t->fail_status : NBO_ERR_TRANSPORT);
    int n = start_head(ec);
    if (!t->head)
        return n;
    uint64_t errs = fi_cntr_readerr(t->rcntr) + fi_cntr_readerr(t->scntr) +
                    (t->acntr ? fi_cntr_readerr(t->acntr) : 0);
    if (errs != t->errs) {
        t->errs = errs;
        return n + fail_all(ec, NBO_ERR_PEER);
    }
    while (t->head && t->head->started && ofi_trig_head_done(ec)) {
        ofi_run_t *r = t->head;
        /* The next part counts after this one's done message (received;
         * its send is in starget: the sends may complete in any order). */
        t->rbase = r->rtarget + 1;
        t->sbase = r->starget;
        if (r->atomic)
            t->abase = r->atarget;
        n += r->nsend + r->nrecv;
        sweep(t);
        run_report(ec, r, NBO_SUCCESS, 1);
        n += start_head(ec);
    }
    if (t->head && ofi_trig_sending(ec))
        atomic_fetch_add_explicit(&st_tail, 1, memory_order_relaxed);
    else if (t->head) {
        atomic_fetch_add_explicit(&st_inflight, 1, memory_order_relaxed);
        nudge_if_stalled(t);
    }
    return n;
}

static int run_owns(const ofi_run_t *r, const void *p)
{
    const char *c = p;
    return (c >= (const char *)r->ctx && c < (const char *)(r->ctx + r->nctx)) ||
           (c >= (const char *)r->work && c < (const char *)(r->work + r->nwork));
}

int ofi_trig_owns(nbo_engine_comm_t *ec, const void *ctx)
{
    if (!ec->trig)
        return 0;
    for (const ofi_run_t *r = ec->trig->head; r; r = r->next)
        if (run_owns(r, ctx))
            return 1;
    for (const ofi_run_t *r = ec->trig->dead; r; r = r->next)
        if (run_owns(r, ctx))
            return 1;
    return 0;
}

void ofi_trig_event(nbo_engine_comm_t *ec, void *ctx, int err)
{
    (void)ctx; /* the done message only wakes progress(), which reads the counter */
    if (err && err != FI_ECANCELED && ec->trig && ec->trig->head) {
        ec->trig->broken = -1; /* reported by the next progress() */
        ec->trig->fail_status = ofi_status(err);
    }
}

void ofi_trig_cancel(nbo_engine_comm_t *ec, nbo_exec_t *x)
{
    ofi_trig_t *t = ec->trig;
    if (!t)
        return;
    if (t->head && t->head->x == x && t->head->started) {
        /* The counts of every later part hang on this one's. */
        fail_all(ec, NBO_ERR_TIMEOUT);
        return;
    }
    for (ofi_run_t *r = t->head; r; r = r->next)
        if (r->x == x) {
            run_report(ec, r, NBO_ERR_TIMEOUT, 0);
            return;
        }
}
