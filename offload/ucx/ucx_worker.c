/* ucx_worker.c - the process-wide UCP context and worker, probe and caps. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ucx_engine.h"

ucx_shared_t ucx_g = {.efd = -1};

/* UCX reads UCX_* variables, and NBO_UCX_* ones override them for libnbo's
 * context only (e.g. NBO_UCX_TLS), leaving MPICH's own UCX context alone. */
#define UCX_ENV_PREFIX "NBO"

static uint64_t fnv1a(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* Same key on two processes: same kernel and same network namespace, so
 * UCX may use shared memory between them. */
uint64_t ucx_host_key(void)
{
    char buf[256] = "";
    uint64_t h = 0xcbf29ce484222325ull;
    if (gethostname(buf, sizeof(buf) - 1) == 0)
        h = fnv1a(h, buf);
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (fgets(buf, sizeof(buf), f))
            h = fnv1a(h, buf);
        fclose(f);
    }
    ssize_t n = readlink("/proc/self/ns/net", buf, sizeof(buf) - 1);
    if (n > 0) {
        buf[n] = 0;
        h = fnv1a(h, buf);
    }
    return h;
}

/* The transports of a context, from ucp_context_print_info's resource
 * lines ("# resource 1 : md 1 dev 1 flags -- tcp/eth0"). */
static void scan_transports(ucp_context_h ctx)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    ucx_g.tls[0] = 0;
    ucx_g.have_shm = ucx_g.have_rdma = ucx_g.have_tcp = 0;
    if (!f)
        return;
    ucp_context_print_info(ctx, f);
    fclose(f);
    char *save = NULL; /* strtok_r: the application may be inside its own strtok loop */
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *tl = strstr(line, "-- ");
        if (!strstr(line, "resource") || !tl)
            continue;
        tl += 3;
        char *slash = strchr(tl, '/');
        if (slash)
            *slash = 0;
        if (!strncmp(tl, "sysv", 4) || !strncmp(tl, "posix", 5) || !strncmp(tl, "xpmem", 5))
            ucx_g.have_shm = 1;
        if (!strncmp(tl, "rc", 2) || !strncmp(tl, "dc", 2))
            ucx_g.have_rdma = 1;
        if (!strcmp(tl, "tcp"))
            ucx_g.have_tcp = 1;
        /* one name per transport, not per device */
        char pat[40];
        snprintf(pat, sizeof(pat), ",%s,", tl);
        char have[sizeof(ucx_g.tls) + 2];
        snprintf(have, sizeof(have), ",%s,", ucx_g.tls);
        if (strstr(have, pat))
            continue;
        size_t used = strlen(ucx_g.tls);
        if (used + strlen(tl) + 2 < sizeof(ucx_g.tls))
            snprintf(ucx_g.tls + used, sizeof(ucx_g.tls) - used, "%s%s", used ? "," : "", tl);
    }
    free(text);
}

/* NBO_ERR_CONFIG when UCX rejects a UCX_* / NBO_UCX_* value (it prints
 * which one), NBO_ERR_ENGINE when it cannot start.  set: libnbo's own
 * settings, name/value pairs ending with NULL (or NULL for none). */
static int context_create_with(ucp_context_h *out, const char *const *set)
{
    ucp_config_t *config;
    if (ucp_config_read(UCX_ENV_PREFIX, NULL, &config) != UCS_OK)
        return NBO_ERR_CONFIG;
    ucp_params_t p = {
        .field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED,
        .features = UCP_FEATURE_TAG | UCP_FEATURE_WAKEUP,
        .mt_workers_shared = 0,
    };
    ucs_status_t st = UCS_OK;
    for (; set && set[0] && st == UCS_OK; set += 2)
        st = ucp_config_modify(config, set[0], set[1]);
    int rc = st == UCS_OK ? NBO_SUCCESS : NBO_ERR_CONFIG;
    if (rc == NBO_SUCCESS && ucp_init(&p, config, out) != UCS_OK)
        rc = NBO_ERR_ENGINE;
    ucp_config_release(config);
    return rc;
}

static int user_set(const char *name)
{
    char nbo[64], ucx[64];
    snprintf(nbo, sizeof(nbo), UCX_ENV_PREFIX "_UCX_%s", name);
    snprintf(ucx, sizeof(ucx), "UCX_%s", name);
    return getenv(nbo) || getenv(ucx);
}

/* libnbo's rendezvous threshold for the transports in ucx_g: TCP without
 * RDMA, and the user chose none; NULL leaves UCX's own.  all_remote: no
 * peer of the creating communicator shares this host (ucx_engine.h). */
static const char *tcp_rndv_thresh(int all_remote)
{
    if (!ucx_g.have_tcp || ucx_g.have_rdma || user_set("RNDV_THRESH"))
        return NULL;
    return all_remote ? UCX_TCP_RNDV_REMOTE : UCX_TCP_RNDV_THRESH;
}

/* libnbo's copy path over TCP (ucx_engine.h, UCX_TCP_COPY_SEG): 0 off
 * (RDMA, no tcp, or the user set a zero-copy threshold); 1 on, with the
 * segment sizes the user gave tcp; 2 on, with libnbo's segment size. */
static int tcp_copy_path(void)
{
    if (!ucx_g.have_tcp || ucx_g.have_rdma || user_set("ZCOPY_THRESH"))
        return 0;
    return getenv("UCX_TCP_TX_SEG_SIZE") || getenv("UCX_TCP_RX_SEG_SIZE") ? 1 : 2;
}

/* The context as the user configured it (its transports left in ucx_g);
 * made again with libnbo's TCP settings when they apply. */
static int context_create(ucp_context_h *out, int all_remote)
{
    ucx_g.rndv = NULL;
    int rc = context_create_with(out, NULL);
    if (rc != NBO_SUCCESS)
        return rc;
    scan_transports(*out);
    const char *set[8], **s = set;
    const char *thresh = tcp_rndv_thresh(all_remote);
    if (thresh) {
        *s++ = "RNDV_THRESH";
        *s++ = thresh;
    }
    int copy = tcp_copy_path();
    if (copy) {
        *s++ = "ZCOPY_THRESH";
        *s++ = "inf";
    }
    if (copy == 2) {
        *s++ = "TX_SEG_SIZE"; /* a tcp setting: no other transport has it */
        *s++ = UCX_TCP_COPY_SEG;
    }
    *s = NULL;
    if (s == set)
        return rc;
    ucp_cleanup(*out);
    rc = context_create_with(out, set);
    if (rc == NBO_SUCCESS)
        ucx_g.rndv = thresh;
    return rc;
}

/* The first communicator's topology picks the threshold; later ones share
 * the context as it is. */
int ucx_shared_acquire(int all_remote)
{
    if (ucx_g.refs > 0) {
        ucx_g.refs++;
        return NBO_SUCCESS;
    }
    int rc = ucx_settings_load();
    if (rc == NBO_SUCCESS)
        rc = context_create(&ucx_g.ctx, all_remote);
    if (rc != NBO_SUCCESS)
        return rc;
    /* Every op runs under the core's lock, from whichever thread holds it. */
    ucp_worker_params_t wp = {
        .field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
        .thread_mode = UCS_THREAD_MODE_SERIALIZED,
    };

    if (ucp_worker_create(ucx_g.ctx, &wp, &ucx_g.worker) != UCS_OK)
        goto fail_ctx;
    if (ucp_worker_get_efd(ucx_g.worker, &ucx_g.efd) != UCS_OK)
        goto fail_worker;
    if (ucp_worker_get_address(ucx_g.worker, &ucx_g.addr, &ucx_g.addr_len) != UCS_OK)
        goto fail_worker;
    ucx_g.peer_errors = ucx_set.peer_errors;
    ucx_g.armed = 0;
    ucx_g.refs = 1;
    return NBO_SUCCESS;
fail_worker:
    ucp_worker_destroy(ucx_g.worker);
fail_ctx:
    ucp_cleanup(ucx_g.ctx);
    ucx_g.ctx = NULL;
    ucx_g.worker = NULL;
    ucx_g.efd = -1;
    return NBO_ERR_ENGINE;
}

/* Workers that saw a fault, kept until the process exits (see below). */
typedef struct parked_worker {
    ucp_context_h         ctx;
    ucp_worker_h          worker;
    ucp_address_t        *addr;
    struct parked_worker *next;
} parked_worker_t;
static parked_worker_t *parked;

/* After a fault, UCX 1.13 can abort the survivor while it tears down the
 * broken endpoints: ucp_worker_destroy purges a tcp endpoint to the dead
 * peer that still holds a queued wire-up reply, and the purge asserts
 * ("got REP message", ucp_request_send_state_ff; draining first does not
 * always empty that queue).  Such a worker is parked instead: it
 * is never progressed or destroyed again, and its memory (one worker, its
 * endpoints and buffers, still reachable from here) goes with the process.
 * The next communicator gets a new worker.  Healthy workers are destroyed
 * as usual. */
static void park(void)
{
    parked_worker_t *w = malloc(sizeof(*w));
    if (w) {
        *w = (parked_worker_t){ucx_g.ctx, ucx_g.worker, ucx_g.addr, parked};
        parked = w;
    }
    /* Without memory for the record, the worker is simply not destroyed. */
}

void ucx_shared_release(void)
{
    if (ucx_g.refs <= 0 || --ucx_g.refs > 0)
        return;
    /* Report the done queue's orphans.  A healthy worker is progressed
     * once more so that UCX sends what its closes left pending (wire-up
     * messages queued there assert on destroy too).  A worker that saw a
     * fault is not progressed again: a peer that was only stopped (past
     * NBO_TIMEOUT, then resumed) reconnects to it, this worker answers
     * with a new endpoint id, and UCX 1.13 then asserts on the resumed
     * peer (ucp_ep.inl, remote_id == remote_ep_id; tests/ucx/test_ucx_fault.c). */
    if (ucx_g.faulted)
        ucx_flush_done();
    else
        ucx_drain(NULL);
    ucx_reg_release_all();
    if (ucx_g.faulted) {
        park();
    } else {
        ucp_worker_release_address(ucx_g.worker, ucx_g.addr);
        ucp_worker_destroy(ucx_g.worker);
        ucp_cleanup(ucx_g.ctx);
    }
    ucx_g.faulted = 0;
    ucx_g.ops_in_use = 0; /* none can be left: the done queue was reported */
    while (ucx_g.free_ops) {
        ucx_op_t *op = ucx_g.free_ops;
        ucx_g.free_ops = op->qnext;
        free(op);
    }
    ucx_g.ctx = NULL;
    ucx_g.worker = NULL;
    ucx_g.addr = NULL;
    ucx_g.efd = -1;
    ucx_g.armed = 0;
}

/* The threshold in the detail: the live context's, or, before one exists,
 * what a communicator would get. */
static void describe(char *detail, size_t len)
{
    if (!detail || !len)
        return;
    const char *rndv = "";
    if (ucx_g.refs > 0 && ucx_g.rndv)
        rndv = strcmp(ucx_g.rndv, UCX_TCP_RNDV_REMOTE) ? ", rndv from " UCX_TCP_RNDV_THRESH
                                                      : ", eager at all sizes (peers remote)";
    else if (ucx_g.refs == 0 && tcp_rndv_thresh(0))
        rndv = ", rndv from " UCX_TCP_RNDV_THRESH " (eager when all peers are remote)";
    int copy = tcp_copy_path(); /* from the transports and the environment */
    snprintf(detail, len, "UCX %s, tl %s%s%s", ucp_get_version_string(),
             ucx_g.tls[0] ? ucx_g.tls : "?", rndv,
             copy == 2 ? ", tcp copy path (" UCX_TCP_COPY_SEG " segments)"
             : copy ? ", tcp copy path" : "");
}

int ucx_engine_probe(const nbo_engine_services_t *sv, char *detail, size_t len)
{
    static int usable; /* once UCX worked here, it keeps working */
    sv->lock();
    int rc = ucx_g.refs == 0 ? ucx_settings_load() : NBO_SUCCESS;
    if (rc == NBO_SUCCESS && ucx_g.refs == 0 && !usable) {
        ucp_context_h ctx; /* usable, and which transports: the threshold
                            * changes neither */
        rc = context_create_with(&ctx, NULL);
        if (rc == NBO_SUCCESS) {
            scan_transports(ctx);
            ucp_cleanup(ctx);
            usable = 1;
        }
    }
    if (rc == NBO_SUCCESS)
        describe(detail, len);
    else if (detail && len)
        snprintf(detail, len, "UCX %s: %s", ucp_get_version_string(),
                 rc == NBO_ERR_CONFIG ? "a UCX_* or NBO_* value is invalid (named on stderr)"
                                      : "cannot create a UCP context");
    sv->unlock();
    return rc;
}

/* Called with or without the lock: reads only what open() fixed. */
unsigned ucx_engine_caps(nbo_engine_comm_t *ec, char *detail, size_t len)
{
    (void)ec;
    describe(detail, len);
    /* rc/dc move rendezvous data by RDMA without the host; shared memory
     * (cma copies) and TCP need a host CPU for every byte. */
    unsigned caps = NBO_CAP_EVENT_FD | (ucx_g.have_rdma ? NBO_CAP_OFFLOAD : 0u);
    /* A UCX built with CUDA (its cuda_copy / cuda_ipc / gdr_copy modules
     * loaded) lists CUDA among the context's memory types and then sends
     * from and receives into device memory itself. */
    ucp_context_attr_t attr = {.field_mask = UCP_ATTR_FIELD_MEMORY_TYPES};
    if (ucx_g.ctx && ucp_context_query(ucx_g.ctx, &attr) == UCS_OK &&
        (attr.memory_types & UCS_BIT(UCS_MEMORY_TYPE_CUDA)))
        caps |= NBO_CAP_DEVICE_MEM;
    return caps;
}
