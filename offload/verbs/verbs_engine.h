/*
 * verbs_engine.h - the rdma-core verbs engine.  Internal to offload/verbs/.
 *
 * One reliable-connected QP per peer, one CQ and one completion channel per
 * communicator.  SEND tasks are ibv SEND_WITH_IMM work requests, RECV tasks
 * are receives posted straight into the user's (registered) buffer, or into
 * a pre-registered bounce slot for small messages.  A receiver that is not
 * ready yet is handled by the NIC's RNR retry (paper, section IV-A).
 *
 * RC receives match in posting order, so the engine keeps, per peer and
 * direction, the order in which collectives were started: the work requests
 * of a later collective wait in a queue until every task of the earlier ones
 * towards that peer is on the NIC (see README.md).  The immediate carries the
 * collective's tag, and every receive checks it.
 */
#ifndef NBO_VERBS_ENGINE_H
#define NBO_VERBS_ENGINE_H

#include <infiniband/verbs.h>

#include "../engine.h"

#define VERBS_QP_DEPTH   128   /* send and receive WRs in flight per QP */
#define VERBS_POLL_BATCH 32
#define VERBS_BOUNCE_SLOTS 256

/* One SEND/RECV task on its way: deferred, on the NIC, or failed locally. */
typedef struct verbs_op {
    nbo_exec_t      *x;       /* NULL once cancelled: the NIC still owns it */
    int              task;
    int              peer;
    int              is_send;
    int              bounce;  /* bounce slot, or -1 (user buffer) */
    int              status;  /* for ops failed before reaching the NIC */
    struct verbs_op *next;        /* in a queue or the free list */
    LIST_ENTRY(verbs_op) inflight_link; /* in ec->inflight while on the NIC */
} verbs_op_t;

typedef struct verbs_opq {
    verbs_op_t *head, *tail;
} verbs_opq_t;

/* One run of a plan towards one peer in one direction: a node in that
 * peer's queue of started collectives. */
typedef struct verbs_run {
    nbo_exec_t       *x;
    int               total;     /* tasks of the plan towards this peer */
    int               remaining; /* not yet handed to the NIC in this run */
    verbs_opq_t       waiting;   /* posted by the core, not yet on the NIC */
    struct verbs_run *next;
    int               queued;    /* in the peer's run queue */
} verbs_run_t;

/* What plan_attach keeps in x->engine_data. */
typedef struct verbs_plan {
    struct verbs_mr *mr[NBO_BUF_COUNT]; /* registration per named buffer */
    int              first_comm;        /* index of the first SEND/RECV task */
    verbs_run_t     *send_run;          /* [P] */
    verbs_run_t     *recv_run;          /* [P] */
} verbs_plan_t;

/* A registration-cache entry (verbs_memory.c). */
typedef struct verbs_mr {
    char            *addr;
    size_t           len;
    struct ibv_mr   *mr;
    int              refs;
    struct verbs_mr *next;
} verbs_mr_t;

typedef struct verbs_peer {
    struct ibv_qp *qp;
    int            send_busy, recv_busy; /* WRs on the NIC */
    int            broken;               /* 0, or the error that broke it */
    verbs_run_t   *send_q, *recv_q;      /* started runs, oldest first */
} verbs_peer_t;

/* The chosen device, port and address (verbs_device.c). */
typedef struct verbs_device {
    struct ibv_context *ctx;
    char                name[64];
    uint8_t             port;
    int                 gid_index;   /* -1 on InfiniBand (LID routed) */
    union ibv_gid       gid;
    uint16_t            lid;
    enum ibv_mtu        mtu;
    int                 link_ib;     /* link layer InfiniBand, else Ethernet */
    uint32_t            max_msg;
    int                 cross_channel; /* 1: device family has CORE-Direct */
    char                cc_note[48];
    const char         *gdr_note;    /* GPUDirect RDMA, as probed */
} verbs_device_t;

struct nbo_engine_comm {
    const nbo_engine_services_t *sv;      /* the core's, from open */
    MPI_Comm                 comm;
    int                      size, rank;
    int                      debug;       /* NBO_VERBS_DEBUG: print NIC errors */
    verbs_device_t           dev;
    struct ibv_pd           *pd;
    struct ibv_comp_channel *channel;
    struct ibv_cq           *cq;
    verbs_peer_t            *peers;       /* [size], peers[rank].qp == NULL */
    verbs_mr_t              *mrs;         /* registration cache */
    /* bounce buffers for small messages */
    char                    *bounce;
    struct ibv_mr           *bounce_mr;
    size_t                   bounce_size; /* bytes per slot: the threshold */
    int                     *bounce_free; /* stack of free slots */
    int                      bounce_nfree;
    /* ops */
    verbs_op_t              *op_free;     /* recycled ops */
    void                    *op_chunks;   /* every op allocation, for close */
    LIST_HEAD(, verbs_op)    inflight;    /* ops on the NIC */
    verbs_opq_t              failed;      /* completed locally, reported next */
    struct ibv_wc            stash[VERBS_POLL_BATCH]; /* polled by arm() */
    int                      nstash;
};

/* verbs_device.c */
int  verbs_device_open(verbs_device_t *d, char *why, size_t len);
void verbs_device_close(verbs_device_t *d);
void verbs_device_describe(const verbs_device_t *d, char *out, size_t len);

/* verbs_endpoint.c */
int      verbs_engine_probe(const nbo_engine_services_t *sv, char *detail, size_t len);
int      verbs_engine_open(MPI_Comm comm, const nbo_config_t *cfg, const nbo_engine_services_t *sv,
                          nbo_engine_comm_t **out);
void     verbs_engine_close(nbo_engine_comm_t *ec, int broken);
unsigned verbs_engine_caps(nbo_engine_comm_t *ec, char *detail, size_t len);
void     verbs_peer_break(nbo_engine_comm_t *ec, int peer, int err);

/* verbs_memory.c */
int  verbs_bounce_init(nbo_engine_comm_t *ec);
void verbs_bounce_fini(nbo_engine_comm_t *ec);
int  verbs_bounce_get(nbo_engine_comm_t *ec);
void verbs_bounce_put(nbo_engine_comm_t *ec, int slot);
void verbs_mr_cache_fini(nbo_engine_comm_t *ec);
struct ibv_mr *verbs_plan_mr(nbo_engine_comm_t *ec, nbo_exec_t *x, int b);
int  verbs_plan_attach(nbo_engine_comm_t *ec, nbo_exec_t *x);
void verbs_plan_detach(nbo_engine_comm_t *ec, nbo_exec_t *x);

/* verbs_post.c */
int  verbs_engine_post(nbo_engine_comm_t *ec, nbo_exec_t *x, int first, int n);
void verbs_pump(nbo_engine_comm_t *ec, int peer);
void verbs_pump_all(nbo_engine_comm_t *ec);
void verbs_run_unqueue(verbs_run_t **q, verbs_run_t *run);
void verbs_ops_fini(nbo_engine_comm_t *ec);
verbs_op_t *verbs_op_new(nbo_engine_comm_t *ec);
void verbs_op_free(nbo_engine_comm_t *ec, verbs_op_t *op);
void verbs_opq_push(verbs_opq_t *q, verbs_op_t *op);
verbs_op_t *verbs_opq_pop(verbs_opq_t *q);

/* verbs_progress.c */
int  verbs_engine_progress(nbo_engine_comm_t *ec);
int  verbs_engine_event_fd(nbo_engine_comm_t *ec);
int  verbs_engine_arm(nbo_engine_comm_t *ec);
void verbs_engine_cancel(nbo_engine_comm_t *ec, nbo_exec_t *x);

/* verbs_settings.c: the NBO_VERBS_* variables, read by verbs_device_open
 * (NBO_ERR_CONFIG, with why, for a value outside its range). */
typedef struct verbs_settings {
    char device[64];
    int  port, gid_index, bounce, ack_timeout, debug;
} verbs_settings_t;
extern verbs_settings_t          verbs_set;
extern const nbo_setting_table_t verbs_settings_table;
int verbs_settings_load(char *why, size_t len);

#endif
