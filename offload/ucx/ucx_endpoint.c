/*
 * ucx_endpoint.c - open and close: a communicator id agreed by all ranks,
 * worker addresses exchanged over MPI, one endpoint per peer, connected
 * before open returns.
 *
 * Collective steps never depend on a local failure: a rank that failed
 * still takes part, and every rank learns the outcome from an allreduce.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "ucx_engine.h"

/* The lowest id free on every rank.  Another thread of this process may
 * take the id between the allreduce and our claim: then all ranks retry. */
static int agree_cid(nbo_engine_comm_t *ec, MPI_Comm comm, unsigned *out)
{
    enum { WORDS = UCX_MAX_COMMS / 64 };
    for (;;) {
        uint64_t mine[WORDS], all[WORDS];
        ec->sv->lock();
        memcpy(mine, ucx_g.cids, sizeof(mine));
        ec->sv->unlock();
        if (MPI_Allreduce(mine, all, WORDS, MPI_UINT64_T, MPI_BOR, comm) != MPI_SUCCESS)
            return NBO_ERR_MPI;
        unsigned cid = UCX_MAX_COMMS;
        for (unsigned i = 0; i < UCX_MAX_COMMS && cid == UCX_MAX_COMMS; i++)
            if (!(all[i / 64] >> (i % 64) & 1))
                cid = i;
        if (cid == UCX_MAX_COMMS)
            return NBO_ERR_ENGINE; /* the same on every rank */
        ec->sv->lock();
        int ok = !(ucx_g.cids[cid / 64] >> (cid % 64) & 1);
        if (ok)
            ucx_g.cids[cid / 64] |= 1ull << (cid % 64);
        ec->sv->unlock();
        int all_ok = ok;
        if (MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm) != MPI_SUCCESS)
            return NBO_ERR_MPI;
        if (all_ok) {
            *out = cid;
            return NBO_SUCCESS;
        }
        if (ok) {
            ec->sv->lock();
            ucx_g.cids[cid / 64] &= ~(1ull << (cid % 64));
            ec->sv->unlock();
        }
    }
}

static void cid_release(unsigned cid)
{
    ucx_g.cids[cid / 64] &= ~(1ull << (cid % 64));
}

/* The peer's endpoint broke (it died, or the link did).  UCX completes what
 * is outstanding on it with errors; later posts to it fail at once. */
static void ep_error(void *arg, ucp_ep_h ep, ucs_status_t status)
{
    (void)ep;
    ucx_peer_t *p = arg;
    ucx_g.faulted = 1;
    if (!p->failed)
        p->failed = ucx_status(status) == NBO_ERR_TRANSPORT ? NBO_ERR_TRANSPORT : NBO_ERR_PEER;
}

/* Create an endpoint to every rank (lock held); keys[r]: rank r's
 * ucx_host_key(). */
static int connect_all(nbo_engine_comm_t *ec, const uint64_t *keys, const char *addrs,
                       const int *displs)
{
    for (int r = 0; r < ec->size; r++) {
        ucx_peer_t *p = &ec->peers[r];
        p->ec = ec;
        p->rank = r;
        /* Error handling PEER makes UCX drop transports that cannot report
         * a dead peer, which shared memory cannot: between processes that
         * could use shared memory we keep it (a dead local peer then shows
         * as NBO_ERR_TIMEOUT), unless NBO_PEER_ERRORS=1.  self has no
         * peer-failure support at all. */
        int same_host = keys[r] == keys[ec->rank];
        p->peer_err = r != ec->rank && (ucx_g.peer_errors || !same_host || !ucx_g.have_shm);
        ucp_ep_params_t ep = {
            .field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE,
            .address = (const ucp_address_t *)(addrs + displs[r]),
            .err_mode = p->peer_err ? UCP_ERR_HANDLING_MODE_PEER : UCP_ERR_HANDLING_MODE_NONE,
        };
        if (p->peer_err) {
            ep.field_mask |= UCP_EP_PARAM_FIELD_ERR_HANDLER;
            ep.err_handler.cb = ep_error;
            ep.err_handler.arg = p;
        }
        if (ucp_ep_create(ucx_g.worker, &ep, &p->ep) != UCS_OK) {
            p->ep = NULL;
            return NBO_ERR_ENGINE;
        }
    }
    return NBO_SUCCESS;
}

/* Progress until every request of reqs[0..n) (NULL entries skipped) is
 * done, or limit_ms has passed (no limit when <= 0), or, with
 * stop_on_error, one has failed.  Done requests are freed and set to NULL;
 * the caller disposes of the rest.  Returns the first failure (an NBO
 * code), NBO_ERR_TIMEOUT or NBO_SUCCESS.  Lock held; dropped between
 * progress calls so other threads get in. */
static int wait_requests(nbo_engine_comm_t *ec, void **reqs, int n, int limit_ms,
                         int stop_on_error)
{
    const double start = nbo_now();
    int rc = NBO_SUCCESS;
    for (;;) {
        ucx_drain(ec);
        int pending = 0;
        for (int i = 0; i < n; i++) {
            if (!reqs[i])
                continue;
            ucs_status_t st = ucp_request_check_status(reqs[i]);
            if (st == UCS_INPROGRESS) {
                pending++;
                continue;
            }
            ucp_request_free(reqs[i]);
            reqs[i] = NULL;
            if (st != UCS_OK && rc == NBO_SUCCESS)
                rc = ucx_status(st);
        }
        if (pending == 0 || (stop_on_error && rc != NBO_SUCCESS))
            return rc;
        if (limit_ms > 0 && (nbo_now() - start) * 1e3 > limit_ms)
            return rc != NBO_SUCCESS ? rc : NBO_ERR_TIMEOUT;
        ec->sv->unlock();
        sched_yield();
        ec->sv->lock();
    }
}

/* One empty message each way with every peer, so that UCX finishes
 * connecting now rather than during the first operation.  UCX connects in
 * the background, in progress calls; a peer that dies before it answered
 * the connection makes UCX 1.13 retry the connect, and on the refusal it
 * can abort the survivor (an assertion in uct_invoke_completion, seen on
 * the 3-host cluster in 1 run of 30).  Once both directions carried a
 * message, a peer's death is a reset on a connected socket, which UCX
 * reports through ep_error.  Lock held.  Bounded by timeout_ms (none when
 * <= 0). */
static int wireup_all(nbo_engine_comm_t *ec, int timeout_ms)
{
    static const char empty[1];
    const int P = ec->size;
    int rc = NBO_SUCCESS;
    void **reqs = calloc(2 * (size_t)P, sizeof(*reqs)); /* [2r] recv, [2r+1] send */
    if (!reqs)
        return NBO_ERR_NOMEM;
    ucp_request_param_t prm = {.op_attr_mask = 0};
    for (int r = 0; r < P && rc == NBO_SUCCESS; r++) {
        if (r == ec->rank)
            continue;
        void *req[2] = {
            ucp_tag_recv_nbx(ucx_g.worker, (void *)empty, 0, ucx_tag(ec->cid, UCX_WIREUP_TAG, r),
                             UINT64_MAX, &prm),
            ucp_tag_send_nbx(ec->peers[r].ep, empty, 0,
                             ucx_tag(ec->cid, UCX_WIREUP_TAG, ec->rank), &prm),
        };
        for (int k = 0; k < 2; k++) {
            if (UCS_PTR_IS_PTR(req[k]))
                reqs[2 * r + k] = req[k];
            else if (UCS_PTR_STATUS(req[k]) != UCS_OK)
                rc = ucx_status(UCS_PTR_STATUS(req[k]));
        }
    }
    if (rc == NBO_SUCCESS)
        rc = wait_requests(ec, reqs, 2 * P, timeout_ms, 1);
    /* Failed: withdraw the receives; a send left over is released by UCX
     * when its endpoint closes (its buffer is static). */
    for (int i = 0; i < 2 * P; i++) {
        if (!reqs[i])
            continue;
        if (i % 2 == 0)
            ucp_request_cancel(ucx_g.worker, reqs[i]);
        ucp_request_free(reqs[i]);
    }
    free(reqs);
    return rc;
}

/* Close every endpoint and wait for it (lock held; dropped between
 * progress calls so other threads get in).  Healthy endpoints are flushed.
 * After a fault (broken) every PEER-mode endpoint is forced closed: a flush
 * towards a peer that died unnoticed makes UCX 1.13's tcp transport try to
 * connect to it again, and that has crashed a survivor
 * (uct_tcp_cm_conn_start). */
static void disconnect_all(nbo_engine_comm_t *ec, int broken)
{
    int n = ec->peers ? ec->size : 0;
    void **reqs = calloc((size_t)n + 1, sizeof(*reqs));
    for (int r = 0; r < n; r++) {
        ucx_peer_t *p = &ec->peers[r];
        if (!p->ep)
            continue;
        ucp_request_param_t prm = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS};
        /* A broken endpoint can only be forced closed; forcing needs PEER
         * mode on both sides. */
        prm.flags = (p->failed || broken) && p->peer_err ? UCP_EP_CLOSE_FLAG_FORCE : 0;
        if (prm.flags)
            ucx_g.faulted = 1;
        void *req = ucp_ep_close_nbx(p->ep, &prm);
        p->ep = NULL;
        if (!UCS_PTR_IS_PTR(req))
            continue;
        if (reqs)
            reqs[r] = req;
        else
            ucp_request_free(req); /* UCX finishes the close by itself */
    }
    if (!reqs)
        return;
    /* A peer that never answers: UCX frees its close with the worker.
     * After a fault the worker is not progressed again, so the closes are
     * not waited for (ucx_shared_release says why); UCX owns the freed
     * requests. */
    if (!ucx_g.faulted)
        wait_requests(ec, reqs, n, UCX_CLOSE_MS, 0);
    for (int r = 0; r < n; r++)
        if (reqs[r])
            ucp_request_free(reqs[r]);
    free(reqs);
}

/* Operations cancel() gave up on still point at ec: detach them. */
static void detach_orphans(nbo_engine_comm_t *ec)
{
    ucx_op_t *op;
    while ((op = LIST_FIRST(&ec->posted))) {
        NBO_LIST_UNLINK(op, link);
        op->ec = NULL;
    }
    for (op = ucx_g.done_head; op; op = op->qnext)
        if (op->ec == ec)
            op->ec = NULL;
}

static void destroy(nbo_engine_comm_t *ec, int have_cid, int broken)
{
    ec->sv->lock();
    if (ec->peers)
        disconnect_all(ec, broken);
    detach_orphans(ec);
    if (have_cid)
        cid_release(ec->cid);
    ucx_shared_release();
    ec->sv->unlock();
    free(ec->peers);
    free(ec);
}

int ucx_engine_open(MPI_Comm comm, const nbo_config_t *cfg, const nbo_engine_services_t *sv,
                    nbo_engine_comm_t **out)
{
    *out = NULL;
    nbo_engine_comm_t *ec = calloc(1, sizeof(*ec));
    int rc = ec ? NBO_SUCCESS : NBO_ERR_NOMEM;
    if (ec) {
        ec->sv = sv;
        ec->comm = comm;
        MPI_Comm_size(comm, &ec->size);
        MPI_Comm_rank(comm, &ec->rank);
        if ((unsigned)ec->size > UCX_MAX_RANKS)
            rc = NBO_ERR_ENGINE; /* the rank field of the tag is too small */
    }
    /* Where every rank runs: the endpoints' error modes, and, for the
     * first communicator, the context's rendezvous threshold. */
    uint64_t *keys = NULL;
    if (rc == NBO_SUCCESS && !(keys = malloc((size_t)ec->size * sizeof(*keys))))
        rc = NBO_ERR_NOMEM;
    rc = nbo_agree(comm, rc);
    int all_remote = 1;
    if (rc == NBO_SUCCESS) {
        uint64_t me = ucx_host_key();
        if (MPI_Allgather(&me, 1, MPI_UINT64_T, keys, 1, MPI_UINT64_T, comm) != MPI_SUCCESS)
            rc = NBO_ERR_MPI;
        for (int r = 0; rc == NBO_SUCCESS && r < ec->size; r++)
            if (r != ec->rank && keys[r] == me)
                all_remote = 0;
    }
    int shared = 0;
    if (rc == NBO_SUCCESS) {
        ec->sv->lock();
        ucx_g.sv = sv;
        rc = ucx_shared_acquire(all_remote);
        ec->sv->unlock();
        shared = rc == NBO_SUCCESS;
    }
    rc = nbo_agree(comm, rc);
    if (rc == NBO_SUCCESS)
        rc = agree_cid(ec, comm, &ec->cid);
    if (rc != NBO_SUCCESS)
        goto fail_early;

    /* Worker addresses: lengths first, then the addresses themselves. */
    int P = ec->size;
    uint64_t mine = ucx_g.addr_len;
    uint64_t *lens = malloc((size_t)P * sizeof(*lens));
    int *counts = malloc((size_t)P * sizeof(int)), *displs = malloc((size_t)P * sizeof(int));
    ec->peers = calloc((size_t)P, sizeof(*ec->peers));
    char *addrs = NULL;
    rc = lens && counts && displs && ec->peers ? NBO_SUCCESS : NBO_ERR_NOMEM;
    rc = nbo_agree(comm, rc);
    if (rc == NBO_SUCCESS &&
        MPI_Allgather(&mine, 1, MPI_UINT64_T, lens, 1, MPI_UINT64_T, comm) != MPI_SUCCESS)
        rc = NBO_ERR_MPI;
    if (rc == NBO_SUCCESS) {
        size_t total = 0;
        for (int r = 0; r < P; r++) {
            if (lens[r] > (uint64_t)(INT32_MAX / 2) || total > (size_t)INT32_MAX / 2)
                rc = NBO_ERR_OVERFLOW;
            counts[r] = (int)lens[r];
            displs[r] = (int)total;
            total += lens[r];
        }
        addrs = malloc(total ? total : 1);
        if (!addrs && rc == NBO_SUCCESS)
            rc = NBO_ERR_NOMEM;
        rc = nbo_agree(comm, rc);
    }
    if (rc == NBO_SUCCESS && MPI_Allgatherv(ucx_g.addr, (int)ucx_g.addr_len, MPI_BYTE, addrs,
                                            counts, displs, MPI_BYTE, comm) != MPI_SUCCESS)
        rc = NBO_ERR_MPI;
    if (rc == NBO_SUCCESS) {
        ec->sv->lock();
        rc = connect_all(ec, keys, addrs, displs);
        if (rc == NBO_SUCCESS)
            rc = wireup_all(ec, cfg->timeout_ms);
        ec->sv->unlock();
    }
    free(keys);
    free(lens);
    free(counts);
    free(displs);
    free(addrs);
    if (rc != NBO_SUCCESS) {
        /* Local: the core agrees on the result and closes the others.  A
         * failed wire-up may mean a dead peer: force. */
        destroy(ec, 1, 1);
        return rc;
    }
    *out = ec;
    return NBO_SUCCESS;

fail_early:
    free(keys);
    if (ec) {
        if (shared) {
            ec->sv->lock();
            ucx_shared_release();
            ec->sv->unlock();
        }
        free(ec);
    }
    return rc;
}

/* Called without the core lock, with no request live on ec. */
void ucx_engine_close(nbo_engine_comm_t *ec, int broken)
{
    if (ec)
        destroy(ec, 1, broken);
}
