/*
 * ofi_endpoint.c - probe, open and close: the provider chosen, its
 * objects opened, the endpoint addresses exchanged over the communicator,
 * and one empty message each way with every peer before open returns.
 *
 * Collective steps never depend on a local failure: a rank that failed
 * still takes part, and every rank learns the outcome from an agreement.
 */
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ofi_engine.h"

/* fi_getinfo for settings s, asking caps beyond FI_TAGGED; like (not
 * NULL): the same provider and domain as this info. */
static int getinfo_caps(const ofi_settings_t *s, uint64_t caps, const struct fi_info *like,
                        struct fi_info **out)
{
    *out = NULL;
    struct fi_info *hints = fi_allocinfo();
    if (!hints)
        return -FI_ENOMEM;
    hints->caps = FI_TAGGED | caps;
    hints->mode = FI_CONTEXT | FI_CONTEXT2;
    hints->ep_attr->type = FI_EP_RDM;
    /* Per-pair order: equal tags must match their receives in order. */
    hints->tx_attr->msg_order = FI_ORDER_SAS;
    hints->rx_attr->msg_order = FI_ORDER_SAS;
    hints->domain_attr->threading = FI_THREAD_DOMAIN;
    hints->domain_attr->av_type = FI_AV_TABLE;
    const char *prov = like ? like->fabric_attr->prov_name : s->provider[0] ? s->provider : NULL;
    if (prov && !(hints->fabric_attr->prov_name = strdup(prov))) {
        fi_freeinfo(hints);
        return -FI_ENOMEM;
    }
    if (like && like->domain_attr->name &&
        !(hints->domain_attr->name = strdup(like->domain_attr->name))) {
        fi_freeinfo(hints);
        return -FI_ENOMEM;
    }
    int rc = fi_getinfo(OFI_API_VERSION, NULL, NULL, 0, hints, out);
    fi_freeinfo(hints);
    if (rc == 0 && !*out)
        rc = -FI_ENODATA;
    return rc;
}

int ofi_getinfo(const ofi_settings_t *s, struct fi_info **out)
{
    return getinfo_caps(s, 0, NULL, out);
}

/* With the offload on, the chosen provider again with triggered atomics
 * (the reductions' offload, ofi_trig_atomic.c), where it has them: asked
 * only after the choice, so that it never changes which provider runs. */
static void getinfo_atomics(nbo_engine_comm_t *ec)
{
    struct fi_info *fi;
    if (ec->set.offload &&
        getinfo_caps(&ec->set, FI_ATOMIC | FI_RMA_EVENT | FI_TRIGGER, ec->info, &fi) == 0) {
        fi_freeinfo(ec->info);
        ec->info = fi;
    }
}

void ofi_describe(const struct fi_info *fi, char *detail, size_t len)
{
    snprintf(detail, len, "%s on fabric %s, domain %s", fi->fabric_attr->prov_name,
             fi->fabric_attr->name ? fi->fabric_attr->name : "?",
             fi->domain_attr->name ? fi->domain_attr->name : "?");
}

/* Why no provider fits, said once per process: nbo_comm_create returns
 * only the code. */
static void say_no_provider(const ofi_settings_t *s, int rc)
{
    static atomic_int said;
    if (s->provider[0] && !atomic_exchange(&said, 1))
        fprintf(stderr,
                "libnbo: ofi engine: NBO_OFI_PROVIDER=%s: no such provider with FI_EP_RDM and "
                "FI_TAGGED here (%s; fi_info -l lists the providers)\n",
                s->provider, fi_strerror(-rc));
}

int ofi_engine_probe(const nbo_engine_services_t *sv, char *detail, size_t len)
{
    (void)sv; /* nothing shared: each communicator has its own objects */
    ofi_settings_t s;
    if (ofi_settings_load(&s) != NBO_SUCCESS) {
        snprintf(detail, len, "a bad NBO_OFI_* value (named on stderr)");
        return NBO_ERR_CONFIG;
    }
    struct fi_info *fi;
    int rc = ofi_getinfo(&s, &fi);
    if (rc != 0) {
        snprintf(detail, len, "no provider%s%s with FI_EP_RDM and FI_TAGGED: %s",
                 s.provider[0] ? " " : "", s.provider, fi_strerror(-rc));
        say_no_provider(&s, rc);
        return NBO_ERR_ENGINE;
    }
    ofi_describe(fi, detail, len);
    fi_freeinfo(fi);
    return NBO_SUCCESS;
}

/* The provider's objects, bound and enabled (local).  The CQ gets an
 * FI_WAIT_FD wait object where the provider offers one. */
static int open_objects(nbo_engine_comm_t *ec)
{
    int rc = ofi_getinfo(&ec->set, &ec->info);
    if (rc != 0) {
        say_no_provider(&ec->set, rc);
        return NBO_ERR_ENGINE;
    }
    getinfo_atomics(ec);
    if (fi_fabric(ec->info->fabric_attr, &ec->fabric, NULL) != 0 ||
        fi_domain(ec->fabric, ec->info, &ec->domain, NULL) != 0)
        return NBO_ERR_ENGINE;
    struct fi_cq_attr cqa = {.format = FI_CQ_FORMAT_TAGGED,
                             .wait_obj = ec->set.wait_fd ? FI_WAIT_FD : FI_WAIT_NONE};
    rc = fi_cq_open(ec->domain, &cqa, &ec->cq, NULL);
    if (rc != 0 && cqa.wait_obj != FI_WAIT_NONE) {
        cqa.wait_obj = FI_WAIT_NONE; /* the provider has none: poll */
        rc = fi_cq_open(ec->domain, &cqa, &ec->cq, NULL);
    }
    if (rc != 0)
        return NBO_ERR_ENGINE;
    if (cqa.wait_obj == FI_WAIT_FD && fi_control(&ec->cq->fid, FI_GETWAIT, &ec->wait_fd) != 0)
        ec->wait_fd = -1;
    struct fi_av_attr ava = {.type = FI_AV_TABLE, .count = (size_t)ec->size};
    if (fi_av_open(ec->domain, &ava, &ec->av, NULL) != 0 ||
        fi_endpoint(ec->domain, ec->info, &ec->ep, NULL) != 0 ||
        fi_ep_bind(ec->ep, &ec->cq->fid, FI_TRANSMIT | FI_RECV) != 0 ||
        fi_ep_bind(ec->ep, &ec->av->fid, 0) != 0 || fi_enable(ec->ep) != 0)
        return NBO_ERR_ENGINE;
    return NBO_SUCCESS;
}

/* A short fingerprint of the provider and its address format: ranks that
 * picked different providers cannot reach each other. */
static uint64_t provider_key(const struct fi_info *fi, size_t addrlen)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (const char *p = fi->fabric_attr->prov_name; p && *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    return h ^ ((uint64_t)fi->addr_format << 48) ^ addrlen;
}

/* Every rank's address into the AV (collective). */
static int exchange_addresses(nbo_engine_comm_t *ec, int rc)
{
    char mine[256];
    size_t len = sizeof(mine);
    if (rc == NBO_SUCCESS && fi_getname(&ec->ep->fid, mine, &len) != 0)
        rc = NBO_ERR_ENGINE;
    const int P = ec->size;
    uint64_t key = rc == NBO_SUCCESS ? provider_key(ec->info, len) : 0;
    uint64_t *keys = malloc((size_t)P * sizeof(*keys));
    char *all = malloc((size_t)P * sizeof(mine));
    ec->addrs = malloc((size_t)P * sizeof(*ec->addrs));
    if (rc == NBO_SUCCESS && (!keys || !all || !ec->addrs))
        rc = NBO_ERR_NOMEM;
    rc = nbo_agree(ec->comm, rc);
    if (rc == NBO_SUCCESS &&
        (MPI_Allgather(&key, 1, MPI_UINT64_T, keys, 1, MPI_UINT64_T, ec->comm) != MPI_SUCCESS ||
         MPI_Allgather(mine, (int)sizeof(mine), MPI_BYTE, all, (int)sizeof(mine), MPI_BYTE,
                       ec->comm) != MPI_SUCCESS))
        rc = NBO_ERR_MPI;
    for (int r = 0; rc == NBO_SUCCESS && r < P; r++)
        if (keys[r] != key) {
            fprintf(stderr, "libnbo: ofi engine: rank %d uses another provider than rank %d (%s); "
                            "set NBO_OFI_PROVIDER\n", r, ec->rank, ec->info->fabric_attr->prov_name);
            rc = NBO_ERR_ENGINE;
        }
    /* fi_av_insert reads each address at its own length; sizeof(mine)
     * apart. */
    for (int r = 0; rc == NBO_SUCCESS && r < P; r++)
        if (fi_av_insert(ec->av, all + (size_t)r * sizeof(mine), 1, &ec->addrs[r], 0, NULL) != 1)
            rc = NBO_ERR_ENGINE;
    free(keys);
    free(all);
    return rc;
}

/* One empty message each way with every peer: a provider that connects
 * on first use (ofi_rxm) connects now, and a peer that cannot be reached
 * fails open rather than the first collective.  Bounded by timeout_ms. */
static int wireup(nbo_engine_comm_t *ec, int timeout_ms)
{
    const int P = ec->size;
    if (P == 1)
        return NBO_SUCCESS;
    static char empty[1];
    struct fi_context2 *ctx = calloc(2 * (size_t)P, sizeof(*ctx));
    int *done = calloc(2 * (size_t)P, sizeof(*done));
    if (!ctx || !done) {
        free(ctx);
        free(done);
        return NBO_ERR_NOMEM;
    }
    int rc = NBO_SUCCESS, left = 0;
    const double until = nbo_now() + (timeout_ms > 0 ? timeout_ms : OFI_WIREUP_MS) * 1e-3;
    /* [2r]: the receive from r, [2r+1]: the send to r. */
    for (int r = 0; r < P && rc == NBO_SUCCESS; r++) {
        if (r == ec->rank) {
            done[2 * r] = done[2 * r + 1] = 1;
            continue;
        }
        for (int k = 0; k < 2 && rc == NBO_SUCCESS; k++) {
            ssize_t e;
            do {
                e = k == 0 ? fi_trecv(ec->ep, empty, 0, NULL, FI_ADDR_UNSPEC,
                                      OFI_CTL_BIT | ofi_tag(0, r), 0, &ctx[2 * r])
                           : fi_tsend(ec->ep, empty, 0, NULL, ec->addrs[r],
                                      OFI_CTL_BIT | ofi_tag(0, ec->rank), &ctx[2 * r + 1]);
                if (e == -FI_EAGAIN) {
                    struct fi_cq_tagged_entry ce;
                    if (fi_cq_read(ec->cq, &ce, 1) == 1)
                        done[(struct fi_context2 *)ce.op_context - ctx] = 1, left--;
                }
            } while (e == -FI_EAGAIN && nbo_now() < until);
            if (e != 0)
                rc = e == -FI_EAGAIN ? NBO_ERR_TIMEOUT : ofi_status((int)-e);
            else
                left++;
        }
    }
    while (rc == NBO_SUCCESS && left > 0) {
        struct fi_cq_tagged_entry ce[OFI_CQ_BATCH];
        ssize_t n = fi_cq_read(ec->cq, ce, OFI_CQ_BATCH);
        if (n > 0) {
            for (ssize_t i = 0; i < n; i++)
                done[(struct fi_context2 *)ce[i].op_context - ctx] = 1;
            left -= (int)n;
        } else if (n == -FI_EAVAIL) {
            struct fi_cq_err_entry err = {0};
            fi_cq_readerr(ec->cq, &err, 0);
            rc = ofi_status(err.err);
        } else if (n != -FI_EAGAIN)
            rc = NBO_ERR_TRANSPORT;
        else if (nbo_now() > until)
            rc = NBO_ERR_TIMEOUT;
        else
            sched_yield();
    }
    /* Failed: withdraw what is left; the endpoint's close releases it. */
    for (int i = 0; rc != NBO_SUCCESS && i < 2 * P; i++)
        if (!done[i])
            fi_cancel(&ec->ep->fid, &ctx[i]);
    free(done);
    if (rc != NBO_SUCCESS)
        ec->wireup_ctx = ctx; /* the provider may hold them until the close */
    else
        free(ctx);
    return rc;
}

static void close_fid(struct fid *f)
{
    if (f)
        fi_close(f);
}

/* Local: every object, endpoint first; nothing here waits on a peer. */
static void destroy(nbo_engine_comm_t *ec)
{
    ofi_trig_close(ec); /* its endpoint is bound to the CQ and AV below */
    close_fid(ec->ep ? &ec->ep->fid : NULL);
    close_fid(ec->av ? &ec->av->fid : NULL);
    close_fid(ec->cq ? &ec->cq->fid : NULL);
    close_fid(ec->domain ? &ec->domain->fid : NULL);
    close_fid(ec->fabric ? &ec->fabric->fid : NULL);
    if (ec->info)
        fi_freeinfo(ec->info);
    ofi_ops_free(ec);
    free(ec->wireup_ctx);
    free(ec->addrs);
    free(ec);
}

int ofi_engine_open(MPI_Comm comm, const nbo_config_t *cfg, const nbo_engine_services_t *sv,
                    nbo_engine_comm_t **out)
{
    *out = NULL;
    nbo_engine_comm_t *ec = calloc(1, sizeof(*ec));
    int rc = ec ? NBO_SUCCESS : NBO_ERR_NOMEM;
    if (ec) {
        ec->sv = sv;
        ec->comm = comm;
        ec->wait_fd = -1;
        ec->ops.next = ec->ops.prev = &ec->ops;
        MPI_Comm_size(comm, &ec->size);
        MPI_Comm_rank(comm, &ec->rank);
        if (ec->size > OFI_MAX_RANKS)
            rc = NBO_ERR_ENGINE; /* the rank field of the tag is too small */
        if (rc == NBO_SUCCESS)
            rc = ofi_settings_load(&ec->set);
        ec->set.log = cfg->log;
        if (rc == NBO_SUCCESS)
            rc = open_objects(ec);
    }
    rc = nbo_agree(comm, rc);
    if (rc == NBO_SUCCESS)
        rc = nbo_agree(comm, exchange_addresses(ec, rc));
    if (rc == NBO_SUCCESS)
        rc = wireup(ec, cfg->timeout_ms);
    if (rc == NBO_SUCCESS)
        rc = nbo_agree(comm, ofi_trig_open(ec));
    if (rc != NBO_SUCCESS) {
        /* Local: the core agrees on the result. */
        if (ec)
            destroy(ec);
        return rc;
    }
    *out = ec;
    return NBO_SUCCESS;
}

/* Communicators closed after a fault, kept whole (see close). */
static nbo_engine_comm_t *parked;

/* Called without the core lock, with no request live on ec; the core
 * agreed with the peers before a healthy close, so no message of ours is
 * on its way.  After a fault (broken) the objects are parked, never
 * closed: ofi_rxm 1.17 over tcp crashed a survivor in fi_close of an
 * endpoint whose peer had died on another host (the emulated cluster).
 * A parked endpoint is no longer progressed; its descriptors and memory
 * stay until the process exits. */
void ofi_engine_close(nbo_engine_comm_t *ec, int broken)
{
    if (!ec)
        return;
    if (!broken) {
        destroy(ec);
        return;
    }
    ec->sv->lock();
    ec->parked_next = parked;
    parked = ec;
    ec->sv->unlock();
}

unsigned ofi_engine_caps(nbo_engine_comm_t *ec, char *detail, size_t len)
{
    char d[96];
    ofi_describe(ec->info, d, sizeof(d));
    snprintf(detail, len, "%s, %s%s", d, ec->wait_fd >= 0 ? "wait fd" : "polled",
             ec->trig ? ", all-to-all, broadcast and allgather lists offloaded (deferred work)" : "");
    return (ec->wait_fd >= 0 ? NBO_CAP_EVENT_FD : 0u) | (ec->trig ? NBO_CAP_HW_WAITS : 0u);
}
