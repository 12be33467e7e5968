/* verbs_device.c - find the RDMA device, port and GID this engine uses. */
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verbs_engine.h"

#if NBO_VERBS_HAVE_MLX5DV
#include <infiniband/mlx5dv.h>
#endif

/* First ACTIVE port of ctx (or the requested one, if it is active). */
static int pick_port(struct ibv_context *ctx, int want, struct ibv_port_attr *pa)
{
    struct ibv_device_attr da;
    if (ibv_query_device(ctx, &da))
        return -1;
    for (int p = 1; p <= da.phys_port_cnt; p++) {
        if (want > 0 && p != want)
            continue;
        if (ibv_query_port(ctx, (uint8_t)p, pa) == 0 && pa->state == IBV_PORT_ACTIVE)
            return p;
    }
    return -1;
}

static int gid_is_zero(const union ibv_gid *g)
{
    static const union ibv_gid zero;
    return memcmp(g, &zero, sizeof(zero)) == 0;
}

/* GPUDirect RDMA: with the nvidia_peermem kernel module (formerly
 * nv_peer_mem) loaded, ibv_reg_mr accepts CUDA device memory and the NIC
 * reads and writes the GPU directly.  This engine does not use it (device
 * buffers are staged through host memory, memory/cuda): it only says
 * whether the machine has it, for whoever chooses an engine. */
static void probe_gpudirect(verbs_device_t *d)
{
    d->gdr_note = "no";
    if (access("/sys/module/nvidia_peermem", F_OK) == 0 ||
        access("/sys/module/nv_peer_mem", F_OK) == 0)
        d->gdr_note = "peermem loaded, unused";
}

/* Cross-channel (CORE-Direct: SEND_EN, RECV_EN and CQE-WAIT work requests)
 * is a ConnectX feature.  Upstream rdma-core has no verb for it and no
 * capability bit (the old IB_DEVICE_CROSS_CHANNEL bit is retired from the
 * uverbs ABI), so the most we can say from here is whether the device is
 * driven by mlx5, the only provider whose hardware has it. */
static void probe_cross_channel(struct ibv_device *dev, verbs_device_t *d)
{
    d->cross_channel = 0;
    snprintf(d->cc_note, sizeof(d->cc_note), "no");
#if NBO_VERBS_HAVE_MLX5DV
    if (mlx5dv_is_supported(dev)) {
        d->cross_channel = 1;
        snprintf(d->cc_note, sizeof(d->cc_note), "mlx5 hw, unused (needs DEVX WQEs)");
    }
#else
    (void)dev;
#endif
}

static int open_one(struct ibv_device *dev, verbs_device_t *d, char *why, size_t len)
{
    struct ibv_context *ctx = ibv_open_device(dev);
    if (!ctx) {
        snprintf(why, len, "cannot open %s", ibv_get_device_name(dev));
        return NBO_ERR_ENGINE;
    }
    struct ibv_port_attr pa;
    int port = pick_port(ctx, verbs_set.port, &pa);
    if (port < 0) {
        snprintf(why, len, "%s: no active port", ibv_get_device_name(dev));
        ibv_close_device(ctx);
        return NBO_ERR_ENGINE;
    }
    struct ibv_device_attr da;
    if (ibv_query_device(ctx, &da)) {
        ibv_close_device(ctx);
        return NBO_ERR_ENGINE;
    }
    memset(d, 0, sizeof(*d));
    d->ctx = ctx;
    snprintf(d->name, sizeof(d->name), "%s", ibv_get_device_name(dev));
    d->port = (uint8_t)port;
    d->lid = pa.lid;
    d->mtu = pa.active_mtu;
    d->max_msg = pa.max_msg_sz;
    d->link_ib = pa.link_layer != IBV_LINK_LAYER_ETHERNET;
    /* RoCE needs a GID (first non-zero one unless told); IB routes by LID. */
    d->gid_index = verbs_set.gid_index;
    if (d->gid_index < 0 && !d->link_ib)
        for (int i = 0; i < pa.gid_tbl_len; i++) {
            union ibv_gid g;
            if (ibv_query_gid(ctx, d->port, i, &g) == 0 && !gid_is_zero(&g)) {
                d->gid_index = i;
                break;
            }
        }
    if (d->gid_index >= 0 && ibv_query_gid(ctx, d->port, d->gid_index, &d->gid)) {
        snprintf(why, len, "%s: no GID %d", d->name, d->gid_index);
        ibv_close_device(ctx);
        d->ctx = NULL;
        return NBO_ERR_ENGINE;
    }
    if (!d->link_ib && d->gid_index < 0) {
        snprintf(why, len, "%s: RoCE port without a GID", d->name);
        ibv_close_device(ctx);
        d->ctx = NULL;
        return NBO_ERR_ENGINE;
    }
    probe_cross_channel(dev, d);
    probe_gpudirect(d);
    return NBO_SUCCESS;
}

int verbs_device_open(verbs_device_t *d, char *why, size_t len)
{
    int rc = verbs_settings_load(why, len);
    if (rc != NBO_SUCCESS)
        return rc;
    int n = 0;
    struct ibv_device **list = ibv_get_device_list(&n);
    if (!list || n == 0) {
        snprintf(why, len, "no RDMA device");
        if (list)
            ibv_free_device_list(list);
        return NBO_ERR_ENGINE;
    }
    const char *want = verbs_set.device;
    rc = NBO_ERR_ENGINE;
    snprintf(why, len, "no RDMA device named %s", *want ? want : "(any)");
    for (int i = 0; i < n && rc != NBO_SUCCESS; i++) {
        if (*want && strcmp(want, ibv_get_device_name(list[i])) != 0)
            continue;
        rc = open_one(list[i], d, why, len);
    }
    ibv_free_device_list(list);
    return rc;
}

void verbs_device_close(verbs_device_t *d)
{
    if (d->ctx)
        ibv_close_device(d->ctx);
    d->ctx = NULL;
}

void verbs_device_describe(const verbs_device_t *d, char *out, size_t len)
{
    char addr[24];
    if (d->link_ib)
        snprintf(addr, sizeof(addr), "IB lid %u", d->lid);
    else
        snprintf(addr, sizeof(addr), "RoCE gid %d", d->gid_index);
    snprintf(out, len, "%s port %u %s mtu %d, cross-channel: %s, GPUDirect RDMA: %s", d->name,
             d->port, addr, 128 << d->mtu, d->cc_note, d->gdr_note);
}
