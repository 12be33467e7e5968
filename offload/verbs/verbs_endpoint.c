/*
 * verbs_endpoint.c - open and close the verbs engine: protection domain,
 * completion channel and CQ, and one RC queue pair per peer, connected by
 * exchanging QP numbers, PSNs, LIDs and GIDs over MPI.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verbs_engine.h"

/* What each rank tells each peer about the QP it created for it. */
typedef struct wire_addr {
    uint32_t qpn;
    uint32_t psn;
    uint16_t lid;
    uint8_t  mtu;
    uint8_t  pad;
    uint8_t  gid[16];
} wire_addr_t;

int verbs_engine_probe(const nbo_engine_services_t *sv, char *detail, size_t len)
{
    (void)sv; /* a device of its own: nothing shared to lock */
    verbs_device_t d;
    int rc = verbs_device_open(&d, detail, len);
    if (rc != NBO_SUCCESS)
        return rc;
    verbs_device_describe(&d, detail, len);
    verbs_device_close(&d);
    return NBO_SUCCESS;
}

static uint32_t initial_psn(int from, int to)
{
    return ((uint32_t)from * 7919u + (uint32_t)to * 104729u + 1u) & 0xffffffu;
}

static struct ibv_qp *make_qp(nbo_engine_comm_t *ec)
{
    struct ibv_qp_init_attr ia = {
        .send_cq = ec->cq,
        .recv_cq = ec->cq,
        .qp_type = IBV_QPT_RC,
        .sq_sig_all = 1,
        .cap = {.max_send_wr = VERBS_QP_DEPTH, .max_recv_wr = VERBS_QP_DEPTH,
                .max_send_sge = 1, .max_recv_sge = 1},
    };
    struct ibv_qp *qp = ibv_create_qp(ec->pd, &ia);
    if (!qp)
        return NULL;
    struct ibv_qp_attr a = {
        .qp_state = IBV_QPS_INIT,
        .pkey_index = 0,
        .port_num = ec->dev.port,
        .qp_access_flags = 0, /* send/recv only: no remote access to any memory */
    };
    if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS)) {
        ibv_destroy_qp(qp);
        return NULL;
    }
    return qp;
}

/* Everything that needs no peer: device, PD, channel, CQ, QPs, bounce. */
static int open_local(nbo_engine_comm_t *ec, wire_addr_t *mine)
{
    char why[128];
    int rc = verbs_device_open(&ec->dev, why, sizeof(why));
    if (rc != NBO_SUCCESS)
        return rc;
    struct ibv_device_attr da;
    if (ibv_query_device(ec->dev.ctx, &da))
        return NBO_ERR_ENGINE;
    ec->pd = ibv_alloc_pd(ec->dev.ctx);
    ec->channel = ibv_create_comp_channel(ec->dev.ctx);
    if (!ec->pd || !ec->channel)
        return NBO_ERR_ENGINE;
    int fl = fcntl(ec->channel->fd, F_GETFL);
    if (fl < 0 || fcntl(ec->channel->fd, F_SETFL, fl | O_NONBLOCK) < 0)
        return NBO_ERR_ENGINE;
    long cqe = 2L * VERBS_QP_DEPTH * (ec->size > 1 ? ec->size - 1 : 1);
    if (cqe > da.max_cqe)
        cqe = da.max_cqe;
    ec->cq = ibv_create_cq(ec->dev.ctx, (int)cqe, NULL, ec->channel, 0);
    if (!ec->cq || ibv_req_notify_cq(ec->cq, 0))
        return NBO_ERR_ENGINE;
    rc = verbs_bounce_init(ec);
    if (rc != NBO_SUCCESS)
        return rc;
    for (int p = 0; p < ec->size; p++) {
        if (p == ec->rank)
            continue;
        ec->peers[p].qp = make_qp(ec);
        if (!ec->peers[p].qp)
            return NBO_ERR_ENGINE;
        mine[p].qpn = ec->peers[p].qp->qp_num;
        mine[p].psn = initial_psn(ec->rank, p);
        mine[p].lid = ec->dev.lid;
        mine[p].mtu = (uint8_t)ec->dev.mtu;
        memcpy(mine[p].gid, ec->dev.gid.raw, 16);
    }
    return NBO_SUCCESS;
}

/* INIT -> RTR -> RTS towards the peer that sent `their`. */
static int connect_qp(nbo_engine_comm_t *ec, int p, const wire_addr_t *their)
{
    struct ibv_qp_attr a;
    memset(&a, 0, sizeof(a));
    a.qp_state = IBV_QPS_RTR;
    a.path_mtu = their->mtu < ec->dev.mtu ? (enum ibv_mtu)their->mtu : ec->dev.mtu;
    a.dest_qp_num = their->qpn;
    a.rq_psn = their->psn;
    a.max_dest_rd_atomic = 1;
    a.min_rnr_timer = 12; /* 0.64 ms between RNR retries */
    a.ah_attr.dlid = their->lid;
    a.ah_attr.port_num = ec->dev.port;
    if (ec->dev.gid_index >= 0) {
        a.ah_attr.is_global = 1;
        memcpy(a.ah_attr.grh.dgid.raw, their->gid, 16);
        a.ah_attr.grh.sgid_index = (uint8_t)ec->dev.gid_index;
        a.ah_attr.grh.hop_limit = 64;
    }
    if (ibv_modify_qp(ec->peers[p].qp, &a,
                      IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
                          IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
        return NBO_ERR_ENGINE;
    memset(&a, 0, sizeof(a));
    a.qp_state = IBV_QPS_RTS;
    a.timeout = (uint8_t)verbs_set.ack_timeout; /* 4.096 us * 2^14 = 67 ms */
    a.retry_cnt = 7;
    a.rnr_retry = 7; /* infinite: a receiver that is late is waited for (RNR, paper IV-A) */
    a.sq_psn = initial_psn(ec->rank, p);
    a.max_rd_atomic = 1;
    if (ibv_modify_qp(ec->peers[p].qp, &a,
                      IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
                          IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC))
        return NBO_ERR_ENGINE;
    return NBO_SUCCESS;
}

int verbs_engine_open(MPI_Comm comm, const nbo_config_t *cfg, const nbo_engine_services_t *sv,
                      nbo_engine_comm_t **out)
{
    (void)cfg;
    *out = NULL;
    int size = 0, rank = 0;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    nbo_engine_comm_t *ec = calloc(1, sizeof(*ec));
    wire_addr_t *mine = calloc((size_t)size, sizeof(*mine));
    wire_addr_t *theirs = calloc((size_t)size, sizeof(*theirs));
    int rc = NBO_ERR_NOMEM;
    if (ec && mine && theirs) {
        ec->sv = sv;
        ec->comm = comm;
        ec->size = size;
        ec->rank = rank;
        ec->debug = verbs_set.debug;
        ec->peers = calloc((size_t)size, sizeof(*ec->peers));
        rc = ec->peers ? open_local(ec, mine) : NBO_ERR_NOMEM;
    }
    /* Every rank reaches each collective step, whatever happened locally. */
    rc = nbo_agree(comm, rc);
    if (rc == NBO_SUCCESS &&
        MPI_Alltoall(mine, sizeof(wire_addr_t), MPI_BYTE, theirs, sizeof(wire_addr_t), MPI_BYTE,
                     comm) != MPI_SUCCESS)
        rc = NBO_ERR_MPI;
    if (rc == NBO_SUCCESS)
        for (int p = 0; p < size && rc == NBO_SUCCESS; p++)
            if (p != rank)
                rc = connect_qp(ec, p, &theirs[p]);
    /* No rank sends before every QP it sends to is ready to receive. */
    if (rc != NBO_ERR_MPI)
        rc = nbo_agree(comm, rc);
    free(mine);
    free(theirs);
    if (rc != NBO_SUCCESS) {
        verbs_engine_close(ec, 1);
        return rc;
    }
    *out = ec;
    return NBO_SUCCESS;
}

void verbs_engine_close(nbo_engine_comm_t *ec, int broken)
{
    (void)broken; /* nothing here waits on a peer */
    if (!ec)
        return;
    if (ec->peers)
        for (int p = 0; p < ec->size; p++)
            if (ec->peers[p].qp)
                ibv_destroy_qp(ec->peers[p].qp);
    if (ec->cq) {
        struct ibv_cq *cq;
        void *ctx;
        while (ec->channel && ibv_get_cq_event(ec->channel, &cq, &ctx) == 0)
            ibv_ack_cq_events(cq, 1);
        ibv_destroy_cq(ec->cq);
    }
    if (ec->channel)
        ibv_destroy_comp_channel(ec->channel);
    verbs_bounce_fini(ec);
    verbs_mr_cache_fini(ec);
    if (ec->pd)
        ibv_dealloc_pd(ec->pd);
    verbs_device_close(&ec->dev);
    verbs_ops_fini(ec);
    free(ec->peers);
    free(ec);
}

unsigned verbs_engine_caps(nbo_engine_comm_t *ec, char *detail, size_t len)
{
    verbs_device_describe(&ec->dev, detail, len);
    /* NBO_CAP_HW_WAITS stays clear even on mlx5: this engine posts the
     * windows from the host (see README.md, cross-channel). */
    return NBO_CAP_OFFLOAD | NBO_CAP_EVENT_FD;
}

/* The QP to this peer is unusable: put it in the error state so the NIC
 * flushes everything on it, and fail whatever still waits for it. */
void verbs_peer_break(nbo_engine_comm_t *ec, int peer, int err)
{
    verbs_peer_t *pe = &ec->peers[peer];
    if (pe->broken)
        return;
    pe->broken = err;
    struct ibv_qp_attr a = {.qp_state = IBV_QPS_ERR};
    ibv_modify_qp(pe->qp, &a, IBV_QP_STATE);
    verbs_pump(ec, peer);
}
