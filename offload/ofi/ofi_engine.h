/*
 * ofi_engine.h - the libfabric (OFI) engine, host-progressed.  Internal.
 *
 * Each nbo communicator opens its own fabric, domain, completion queue,
 * address vector and reliable datagram endpoint (FI_EP_RDM, FI_TAGGED) on
 * the provider NBO_OFI_PROVIDER names (unset: libfabric's own order).  The
 * endpoint addresses are exchanged over the communicator at open.  SEND and
 * RECV tasks become fi_tsend / fi_trecv; the 64-bit tag carries a control
 * bit, the collective's 32-bit tag and the sender's rank, matched with a
 * full mask, so receives need no directed-receive support:
 *
 *     63   57 56  55                       24 23           0
 *    [ 0    ][ctl][    collective tag 32     ][ src rank 24 ]
 *
 * Per-pair order: the endpoint is asked for FI_ORDER_SAS, so two messages
 * with one tag between one pair match their receives in posting order.
 * Completions come from the CQ; where the provider gives it an FI_WAIT_FD
 * wait object, that descriptor is the one the progress thread sleeps on.
 * Per-communicator state: the domain is used under the core's lock only
 * (FI_THREAD_DOMAIN), open and close touch nobody else's objects.
 */
#ifndef NBO_OFI_ENGINE_H
#define NBO_OFI_ENGINE_H

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_tagged.h>

#include "../engine.h"

/* The libfabric API version asked for: 1.17, the oldest built against. */
#define OFI_API_VERSION FI_VERSION(1, 17)

#define OFI_RANK_BITS 24
#define OFI_TAG_SHIFT OFI_RANK_BITS
#define OFI_CTL_BIT   (1ull << (OFI_TAG_SHIFT + 32))
#define OFI_MAX_RANKS (1 << OFI_RANK_BITS)

/* How long cancel() lets withdrawn operations finish before it reports
 * them and leaves them to the endpoint's close. */
#define OFI_CANCEL_MS 50
/* How long open's wire-up waits without NBO_TIMEOUT. */
#define OFI_WIREUP_MS 30000
/* A post that meets -FI_EAGAIN reads the CQ and retries this many times,
 * then leaves the rest of its window to progress() (the backlog). */
#define OFI_EAGAIN_TRIES 16
/* Completions read per fi_cq_read call, and calls per progress(). */
#define OFI_CQ_BATCH 16
#define OFI_CQ_ROUNDS 64
/* fi_trywait -FI_EAGAIN answers in a row with no completion found before
 * arm() lets the caller sleep anyway (its sleep is bounded). */
#define OFI_BUSY_MAX 16

/* One posted SEND or RECV task.  ctx first: the provider's FI_CONTEXT
 * space, and the op_context a completion hands back. */
typedef struct ofi_op {
    struct fi_context2   ctx;
    nbo_exec_t          *x;      /* NULL once cancel() reported it (orphan) */
    int                  task;
    int                  status; /* done queue: the result to report */
    int                  posted; /* handed to the provider */
    struct ofi_op       *next, *prev; /* ec->ops (posted or backlog) */
    struct ofi_op       *qnext;  /* done queue, backlog or free list */
} ofi_op_t;

/* The engine's NBO_* variables (ofi_settings.c). */
typedef struct ofi_settings {
    char provider[64]; /* fi_info's name: "tcp;ofi_rxm", "sockets", "cxi" */
    int  wait_fd;      /* 0: no FI_WAIT_FD (the thread polls) */
    int  offload;      /* 0: never offload task lists; 1 (auto): all-to-alls
                        * where the provider takes deferred work; 2 (all):
                        * broadcasts and allgathers too */
    int  trig_counters; /* window counters of the offload (lists that
                         * forward received data: one per WAIT) */
    int  log;          /* NBO_LOG (the core's): say once when an
                        * offloadable list keeps the host path */
} ofi_settings_t;
extern const nbo_setting_table_t ofi_settings_table;
/* Read them from the environment into *s: NBO_SUCCESS or NBO_ERR_CONFIG
 * (named on stderr). */
int ofi_settings_load(ofi_settings_t *s);

struct nbo_engine_comm {
    const nbo_engine_services_t *sv; /* the core's, from open */
    MPI_Comm          comm;
    int               size, rank;
    ofi_settings_t    set;
    struct fi_info   *info;
    struct fid_fabric *fabric;
    struct fid_domain *domain;
    struct fid_cq    *cq;
    struct fid_av    *av;
    struct fid_ep    *ep;
    fi_addr_t        *addrs;   /* [size]: each rank's address in the AV */
    int               wait_fd; /* the CQ's descriptor, or -1 */
    int               busy_streak;
    int               failed;  /* NBO_ERR_* once the endpoint broke */
    int               canceling; /* inside cancel(): FI_ECANCELED is ours */
    void             *wireup_ctx; /* a failed wire-up's contexts, freed at close */
    ofi_op_t          ops;     /* list head of every op in flight or queued */
    ofi_op_t         *done_head, *done_tail; /* finished outside progress() */
    ofi_op_t         *back_head, *back_tail; /* not yet accepted (-FI_EAGAIN) */
    ofi_op_t         *free_ops;
    struct nbo_engine_comm *parked_next; /* closed after a fault */
    struct ofi_trig  *trig;    /* offloaded task lists, or NULL (ofi_trigger.c) */
};

/* ofi_endpoint.c */
int  ofi_engine_probe(const nbo_engine_services_t *sv, char *detail, size_t len);
int  ofi_engine_open(MPI_Comm comm, const nbo_config_t *cfg, const nbo_engine_services_t *sv,
                     nbo_engine_comm_t **out);
void ofi_engine_close(nbo_engine_comm_t *ec, int broken);
unsigned ofi_engine_caps(nbo_engine_comm_t *ec, char *detail, size_t len);
/* fi_getinfo for settings s: 0 or a negative fi_errno; *out to fi_freeinfo. */
int  ofi_getinfo(const ofi_settings_t *s, struct fi_info **out);
/* "tcp;ofi_rxm on fabric 192.0.2.0/24, domain eth0" */
void ofi_describe(const struct fi_info *fi, char *detail, size_t len);

/* ofi_post.c */
int      ofi_engine_post(nbo_engine_comm_t *ec, nbo_exec_t *x, int first, int n);
uint64_t ofi_tag(uint32_t tag, int src);
/* Hand one op to the provider: 0, -FI_EAGAIN, or another -fi_errno. */
ssize_t  ofi_op_issue(nbo_engine_comm_t *ec, ofi_op_t *op);
/* Issue what the backlog holds, in order, until the provider refuses. */
void     ofi_backlog_issue(nbo_engine_comm_t *ec);

/* ofi_trig_part.c: the part of a list the provider can run. */
typedef struct ofi_part {
    int n;            /* tasks [first, first + n) */
    int nsend, nrecv, nwait;
    int forwards;     /* sends read what receives write: a counter per WAIT */
} ofi_part_t;
/* Fill *p for x's part from first: its length n, or 0 (the host path). */
int  ofi_trig_part(const nbo_exec_t *x, int first, ofi_part_t *p);

/* ofi_trigger.c: task lists run by the provider (deferred work). */
/* Collective, at the end of open: the offload endpoint where every rank's
 * provider takes FI_QUEUE_WORK (else ec->trig stays NULL): NBO_SUCCESS or
 * an error of the exchange. */
int  ofi_trig_open(nbo_engine_comm_t *ec);
void ofi_trig_close(nbo_engine_comm_t *ec);
int  ofi_engine_offload(nbo_engine_comm_t *ec, nbo_exec_t *x, int first, int *taken);
/* Finished parts reported with complete(): how many tasks, or an error. */
int  ofi_trig_progress(nbo_engine_comm_t *ec);
/* A CQ entry of the offload endpoint (an error, or the wake-up that ends
 * a part): err 0 or a positive fi_errno. */
void ofi_trig_event(nbo_engine_comm_t *ec, void *ctx, int err);
/* The head part's tasks are all done (its counters say so). */
int  ofi_trig_head_done(nbo_engine_comm_t *ec);
/* 1 while a part has all its receives but not yet all its sends: its done
 * message has woken the thread, which polls until they end. */
int  ofi_trig_sending(nbo_engine_comm_t *ec);
/* 1 if ctx is an offloaded part's operation context. */
int  ofi_trig_owns(nbo_engine_comm_t *ec, const void *ctx);
void ofi_trig_cancel(nbo_engine_comm_t *ec, nbo_exec_t *x);
/* Stats (ofi_stats.h). */
void ofi_stat_add(int which, long n);
enum { OFI_STAT_HOST, OFI_STAT_PROGRESS };

/* ofi_progress.c */
int  ofi_engine_progress(nbo_engine_comm_t *ec);
int  ofi_engine_event_fd(nbo_engine_comm_t *ec);
int  ofi_engine_arm(nbo_engine_comm_t *ec);
void ofi_engine_cancel(nbo_engine_comm_t *ec, nbo_exec_t *x);
/* Read the CQ into the done queue (nothing reported): how many entries, or
 * an NBO_ERR_* code for an error that names no operation. */
int  ofi_cq_drain(nbo_engine_comm_t *ec);
/* An fi_errno (positive) as an NBO_ERR_* code. */
int  ofi_status(int err);
ofi_op_t *ofi_op_get(nbo_engine_comm_t *ec);
void ofi_op_put(nbo_engine_comm_t *ec, ofi_op_t *op);
void ofi_op_done(nbo_engine_comm_t *ec, ofi_op_t *op, int status);
void ofi_ops_free(nbo_engine_comm_t *ec);

#endif
