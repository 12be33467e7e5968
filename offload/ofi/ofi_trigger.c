/*
 * ofi_trigger.c - task lists run by the provider: libfabric deferred work
 * (fi_trigger(3)), where the domain takes FI_QUEUE_WORK.
 *
 * A second endpoint (the offload endpoint) carries the offloaded parts,
 * with one counter bound to its sends and receives, and the CQ of the
 * host path with FI_SELECTIVE_COMPLETION: its operations write no CQ
 * entry, except the one that ends a part.  One part of a list runs at a
 * time per communicator, the others queue in start order (the order of
 * the collective calls, equal on every rank).  A part, with base the
 * counter's value when it starts, S sends and R receives:
 *
 *   1. its R receives posted (threshold 0), and one zero-byte receive per
 *      send for the peer's ready message; COPY tasks done by the host;
 *   2. a zero-byte ready message to the peer of every receive;
 *   3. window k's sends queued as deferred sends, fired when the counter
 *      reaches base + S + R (every ready message) + the tasks of the WAITs
 *      before window k;
 *   4. at base + 2(S + R), a deferred zero-byte send to the own rank whose
 *      receive, the only one with FI_COMPLETION, wakes the progress thread.
 *
 * progress() reads the counter (fi_cntr_read) and reports every task of a
 * part that reached its target.  The counter counts every operation of the
 * part, so a window fires once as many tasks are done as the earlier WAITs
 * stand for, not necessarily those tasks: only lists whose sends read data
 * no task of the list writes are offloaded (all-to-all(v) out of place),
 * where firing early changes the pace, never the data.
 */
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include <rdma/fi_trigger.h>

#include "ofi_engine.h"
#include "ofi_stats.h"

/* Deferred sends one part may queue: sockets keeps them in a list without
 * a limit of its own; cxi has a trigger budget (FI_CXI_ENABLE_TRIG_OP_LIMIT). */
#define OFI_TRIG_MAX_SENDS 4096
/* How long a post that meets -FI_EAGAIN retries (the provider's own
 * thread frees room) before the part fails. */
#define OFI_TRIG_EAGAIN_MS 2000
/* Tag bit of the message that ends a part (to the own rank). */
#define OFI_DONE_BIT (OFI_CTL_BIT << 1)

typedef struct fi_context2 ofi_tctx_t;

typedef struct ofi_run {
    nbo_exec_t        *x;
    int                first, n;      /* the part: tasks [first, first + n) */
    int                nsend, nrecv;
    uint64_t           rtarget, starget; /* counter values once every task is done */
    int                started;
    int                withdrawn;     /* the provider may hold it until close */
    ofi_tctx_t        *ctx;           /* [n + nsend + 1]: tasks, ready receives, done */
    struct fi_deferred_work *work;    /* [nsend + 1] */
    struct fi_op_tagged *op;          /* [nsend + 1] */
    struct iovec      *iov;           /* [n] */
    struct ofi_run    *next;
} ofi_run_t;

typedef struct ofi_trig {
    struct fid_ep     *ep;
    struct fid_cntr   *rcntr;   /* receives: the triggers' counter */
    struct fid_cntr   *scntr;   /* sends */
    fi_addr_t         *addrs;   /* [size]: each rank's offload endpoint */
    uint64_t           rbase, sbase; /* counter values at the head part's start */
    uint64_t           errs;    /* fi_cntr_readerr seen, both counters */
    ofi_run_t         *head, *tail; /* head runs, the rest wait */
    ofi_run_t         *dead;    /* reported: freed once the counter passes
                                   their end (the provider may read their
                                   deferred work until then), or at close
                                   if withdrawn */
    int                broken;  /* a part failed: counts are lost, offload no
                                   more; -1: a failure progress() reports */
    int                fail_status; /* with -1: the NBO_ERR_* to report */
    struct fi_deferred_work probe;
    struct fi_op_cntr  probe_op;
} ofi_trig_t;

/* ---------------------------------------------------------------- stats */

static atomic_long st_host, st_off, st_runs, st_copies, st_fall, st_prog, st_inflight;

void ofi_stat_add(int which, long n)
{
    atomic_fetch_add_explicit(which == OFI_STAT_HOST ? &st_host : &st_prog, n,
                              memory_order_relaxed);
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
        fi_ep_bind(t->ep, &t->scntr->fid, FI_SEND) != 0 || fi_enable(t->ep) != 0 ||
        fi_getname(&t->ep->fid, name, len) != 0) {
        if (t->ep)
            fi_close(&t->ep->fid);
        fi_close(&t->rcntr->fid);
        fi_close(&t->scntr->fid);
        free(t);
        return NULL;
    }
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
    if (agreed && all > 0) {
        ec->trig = t;
        return NBO_SUCCESS;
    }
    if (t) {
        fi_close(&t->ep->fid);
        fi_close(&t->rcntr->fid);
        fi_close(&t->scntr->fid);
        free(t->addrs);
        free(t);
    }
    return all < 0 ? NBO_ERR_ENGINE : NBO_SUCCESS;
}

static void run_free(ofi_run_t *r)
{
    free(r->ctx);
    free(r->work);
    free(r->op);
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
    fi_close(&t->rcntr->fid);
    fi_close(&t->scntr->fid);
    for (ofi_run_t **l = &t->head; l; l = l == &t->head ? &t->dead : NULL)
        while (*l) {
            ofi_run_t *r = *l;
            *l = r->next;
            run_free(r);
        }
    free(t->addrs);
    free(t);
    ec->trig = NULL;
}

/* --------------------------------------------------------------- the part */

static int overlaps(const nbo_task_t *a, const nbo_task_t *b)
{
    return a->buf == b->buf && a->off < b->off + b->len && b->off < a->off + a->len;
}

/* The part of x from first that the provider can run: SEND, RECV and WAIT
 * tasks to the end of the list (local tasks after the last WAIT are the
 * host's), COPY tasks that read the send buffer and write no receive's
 * block (done at the start), sends that read the send buffer only.  0:
 * none (the host path).  Depends only on the list, so every rank of an
 * all-to-all decides alike. */
static int part_len(const nbo_exec_t *x, int first, int *nsend, int *nrecv)
{
    const nbo_task_t *T = x->tasks;
    for (int i = 0; i < first; i++)
        if (T[i].kind == NBO_TASK_SEND || T[i].kind == NBO_TASK_RECV)
            return 0; /* one part per list, from its first message */
    if (x->buf_len[NBO_BUF_SEND] == 0 || x->buf[NBO_BUF_SEND] == x->buf[NBO_BUF_RECV])
        return 0; /* in place: the sends read what receives write */
    int end = first, s = 0, r = 0;
    for (int i = first; i < x->ntasks; i++) {
        const nbo_task_t *t = &T[i];
        switch (t->kind) {
        case NBO_TASK_SEND:
            if (t->buf != NBO_BUF_SEND)
                return 0;
            s++;
            break;
        case NBO_TASK_RECV:
            if (t->buf == NBO_BUF_SEND)
                return 0;
            r++;
            break;
        case NBO_TASK_WAIT:
            end = i + 1;
            break;
        case NBO_TASK_COPY:
            if (t->src_buf != NBO_BUF_SEND || t->buf == NBO_BUF_SEND)
                return 0;
            for (int k = first; k < x->ntasks; k++)
                if (T[k].kind == NBO_TASK_RECV && overlaps(t, &T[k]))
                    return 0;
            break;
        default:
            /* A task the provider cannot run: only after the last WAIT. */
            for (int k = i; k < x->ntasks; k++)
                if (T[k].kind == NBO_TASK_SEND || T[k].kind == NBO_TASK_RECV ||
                    T[k].kind == NBO_TASK_WAIT)
                    return 0;
            i = x->ntasks;
        }
    }
    for (int k = end; k < x->ntasks; k++)
        if (T[k].kind == NBO_TASK_SEND || T[k].kind == NBO_TASK_RECV)
            return 0;
    /* COPY tasks after the last WAIT stay with the host. */
    *nsend = s;
    *nrecv = 0;
    for (int k = first; k < end; k++)
        *nrecv += T[k].kind == NBO_TASK_RECV;
    return s + r > 0 ? end - first : 0;
}

/* Post one operation on the offload endpoint, retrying while the provider
 * has no room (its own thread makes it): 0 or a negative fi_errno. */
static ssize_t retry(nbo_engine_comm_t *ec, ssize_t (*fn)(nbo_engine_comm_t *, void *), void *a)
{
    const double until = nbo_now() + OFI_TRIG_EAGAIN_MS * 1e-3;
    ssize_t e;
    while ((e = fn(ec, a)) == -FI_EAGAIN && nbo_now() < until)
        sched_yield();
    return e;
}

typedef struct {
    ofi_trig_t *t;
    const struct fi_msg_tagged *msg;
    uint64_t flags;
    int send;
} msg_arg_t;

static ssize_t do_msg(nbo_engine_comm_t *ec, void *a)
{
    (void)ec;
    const msg_arg_t *m = a;
    return m->send ? fi_tsendmsg(m->t->ep, m->msg, m->flags) : fi_trecvmsg(m->t->ep, m->msg, m->flags);
}

static ssize_t do_work(nbo_engine_comm_t *ec, void *a)
{
    return fi_control(&ec->domain->fid, FI_QUEUE_WORK, a);
}

static ssize_t post_msg(nbo_engine_comm_t *ec, int send, void *buf, size_t len, fi_addr_t to,
                        uint64_t tag, void *ctx, uint64_t flags)
{
    struct iovec iov = {.iov_base = buf, .iov_len = len};
    struct fi_msg_tagged msg = {.msg_iov = &iov, .iov_count = 1, .addr = to, .tag = tag,
                                .context = ctx};
    msg_arg_t a = {ec->trig, &msg, flags, send};
    return retry(ec, do_msg, &a);
}

/* Queue a deferred send of iov to rank peer with tag, fired at threshold. */
static ssize_t queue_send(nbo_engine_comm_t *ec, ofi_run_t *r, int j, struct iovec *iov,
                          int peer, uint64_t tag, uint64_t threshold)
{
    ofi_trig_t *t = ec->trig;
    /* sockets wants the context to be the work's own. */
    r->op[j] = (struct fi_op_tagged){
        .ep = t->ep,
        .msg = {.msg_iov = iov, .iov_count = 1, .addr = t->addrs[peer], .tag = tag,
                .context = &r->work[j].context}};
    /* Its completion counts on completion_cntr (sockets: instead of the
     * endpoint's counter): the send counter. */
    r->work[j] = (struct fi_deferred_work){.threshold = threshold, .triggering_cntr = t->rcntr,
                                           .completion_cntr = t->scntr, .op_type = FI_OP_TSEND};
    r->work[j].op.tagged = &r->op[j];
    return retry(ec, do_work, &r->work[j]);
}

/* Steps 1-4 of the header: 0 or a negative fi_errno (then the caller
 * withdraws what was posted). */
static ssize_t run_start(nbo_engine_comm_t *ec, ofi_run_t *r)
{
    ofi_trig_t *t = ec->trig;
    nbo_exec_t *x = r->x;
    const nbo_task_t *T = x->tasks;
    const uint64_t S = (uint64_t)r->nsend, R = (uint64_t)r->nrecv;
    r->rtarget = t->rbase + S + R;
    r->starget = t->sbase + R + S;
    r->started = 1;
    ofi_tctx_t *ready = r->ctx + r->n, *done = ready + r->nsend;
    const uint64_t ctl = OFI_CTL_BIT | ofi_tag(x->tag, ec->rank);
    ssize_t e = 0;
    int j = 0;
    for (int i = r->first; e == 0 && i < r->first + r->n; i++) {
        const nbo_task_t *k = &T[i];
        r->iov[i - r->first] = (struct iovec){(char *)x->buf[k->buf] + k->off, k->len};
        if (k->kind == NBO_TASK_RECV)
            e = post_msg(ec, 0, r->iov[i - r->first].iov_base, k->len, FI_ADDR_UNSPEC,
                         ofi_tag(x->tag, k->peer), &r->ctx[i - r->first], 0);
        else if (k->kind == NBO_TASK_SEND)
            e = post_msg(ec, 0, NULL, 0, FI_ADDR_UNSPEC, OFI_CTL_BIT | ofi_tag(x->tag, k->peer),
                         &ready[j++], 0);
        else if (k->kind == NBO_TASK_COPY) {
            memcpy(r->iov[i - r->first].iov_base, (char *)x->buf[k->src_buf] + k->src_off, k->len);
            atomic_fetch_add_explicit(&st_copies, 1, memory_order_relaxed);
        }
    }
    if (e == 0)
        e = post_msg(ec, 0, NULL, 0, FI_ADDR_UNSPEC, ctl | OFI_DONE_BIT, done, FI_COMPLETION);
    for (int i = r->first; e == 0 && i < r->first + r->n; i++)
        if (T[i].kind == NBO_TASK_RECV)
            e = post_msg(ec, 1, NULL, 0, t->addrs[T[i].peer], ctl, NULL, 0);
    /* Window k: once the ready messages and the receives of the WAITs
     * before it are in (a WAIT's receives: counted on its slot of iov). */
    for (int i = r->first; i < r->first + r->n; i++)
        if (T[i].kind == NBO_TASK_WAIT)
            r->iov[i - r->first].iov_len = 0;
    for (int i = r->first; i < r->first + r->n; i++)
        if (T[i].kind == NBO_TASK_RECV && T[i].wait >= r->first && T[i].wait < r->first + r->n)
            r->iov[T[i].wait - r->first].iov_len++;
    uint64_t threshold = t->rbase + S;
    j = 0;
    for (int i = r->first; e == 0 && i < r->first + r->n; i++) {
        const nbo_task_t *k = &T[i];
        if (k->kind == NBO_TASK_WAIT)
            threshold += r->iov[i - r->first].iov_len;
        else if (k->kind == NBO_TASK_SEND)
            e = queue_send(ec, r, j++, &r->iov[i - r->first], k->peer, ofi_tag(x->tag, ec->rank),
                           threshold);
    }
    static struct iovec none = {NULL, 0};
    if (e == 0)
        e = queue_send(ec, r, j, &none, ec->rank, ctl | OFI_DONE_BIT, r->rtarget);
    return e;
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
    for (int i = 0; r && r->started && i < r->n + r->nsend + 1; i++)
        fi_cancel(&t->ep->fid, &r->ctx[i]);
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
    ssize_t e = run_start(ec, t->head);
    if (e == 0)
        return 0;
    return fail_all(ec, e == -FI_EMSGSIZE ? NBO_ERR_OVERFLOW : ofi_status((int)-e));
}

static void say_fallback(const char *why)
{
    static atomic_int said;
    atomic_fetch_add_explicit(&st_fall, 1, memory_order_relaxed);
    const char *log = getenv("NBO_LOG");
    if (log && strcmp(log, "0") != 0 && !atomic_exchange(&said, 1))
        fprintf(stderr, "libnbo: ofi engine: a task list runs on the host path: %s\n", why);
}

int ofi_engine_offload(nbo_engine_comm_t *ec, nbo_exec_t *x, int first, int *taken)
{
    *taken = 0;
    ofi_trig_t *t = ec->trig;
    if (!t || ec->failed)
        return NBO_SUCCESS;
    int nsend = 0, nrecv = 0;
    int n = part_len(x, first, &nsend, &nrecv);
    if (n == 0)
        return NBO_SUCCESS;
    if (t->broken) {
        say_fallback("an offloaded list failed on this communicator");
        return NBO_SUCCESS;
    }
    if (nsend > OFI_TRIG_MAX_SENDS) {
        say_fallback("more sends than the deferred-work budget (4096 per list)");
        return NBO_SUCCESS;
    }
    ofi_run_t *r = calloc(1, sizeof(*r));
    if (!r)
        return NBO_ERR_NOMEM;
    r->x = x;
    r->first = first;
    r->n = n;
    r->nsend = nsend;
    r->nrecv = nrecv;
    r->ctx = calloc((size_t)(n + nsend + 1), sizeof(*r->ctx));
    r->work = calloc((size_t)nsend + 1, sizeof(*r->work));
    r->op = calloc((size_t)nsend + 1, sizeof(*r->op));
    r->iov = calloc((size_t)n, sizeof(*r->iov));
    if (!r->ctx || !r->work || !r->op || !r->iov) {
        run_free(r);
        return NBO_ERR_NOMEM;
    }
    if (t->tail)
        t->tail->next = r;
    else
        t->head = r;
    t->tail = r;
    atomic_fetch_add_explicit(&st_off, nsend + nrecv, memory_order_relaxed);
    atomic_fetch_add_explicit(&st_runs, 1, memory_order_relaxed);
    *taken = n;
    /* A start that fails reports the part's tasks at the next progress(). */
    if (t->head == r && run_start(ec, r) != 0)
        t->broken = -1;
    return NBO_SUCCESS;
}

int ofi_trig_head_done(nbo_engine_comm_t *ec)
{
    const ofi_run_t *r = ec->trig->head;
    return fi_cntr_read(ec->trig->rcntr) >= r->rtarget &&
           fi_cntr_read(ec->trig->scntr) >= r->starget;
}

int ofi_trig_sending(nbo_engine_comm_t *ec)
{
    const ofi_trig_t *t = ec->trig;
    return t && t->head && t->head->started && fi_cntr_read(t->rcntr) >= t->head->rtarget;
}

/* Free the reported parts the provider is done with: those before the
 * part that just ended.  Its sends all completed, and the transmit side
 * completes in order, so the done message of every earlier part (which
 * reads its deferred work) has completed too. */
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
    uint64_t errs = fi_cntr_readerr(t->rcntr) + fi_cntr_readerr(t->scntr);
    if (errs != t->errs) {
        t->errs = errs;
        return n + fail_all(ec, NBO_ERR_PEER);
    }
    while (t->head && t->head->started && ofi_trig_head_done(ec)) {
        ofi_run_t *r = t->head;
        /* The next part counts after this one's done message. */
        t->rbase = r->rtarget + 1;
        t->sbase = r->starget + 1;
        n += r->nsend + r->nrecv;
        sweep(t);
        run_report(ec, r, NBO_SUCCESS, 1);
        n += start_head(ec);
    }
    if (t->head)
        atomic_fetch_add_explicit(&st_inflight, 1, memory_order_relaxed);

    return n;
}

static int run_owns(const ofi_run_t *r, const void *p)
{
    const char *c = p;
    return (c >= (const char *)r->ctx && c < (const char *)(r->ctx + r->n + r->nsend + 1)) ||
           (c >= (const char *)r->work && c < (const char *)(r->work + r->nsend + 1));
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
