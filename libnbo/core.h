/*
 * core.h - communicators and requests inside libnbo.  Internal.
 *
 * A request owns its compiled schedule (nbo_sched_t) and the execution state
 * of one run of it (nbo_exec_t plus the cursor and per-WAIT counters).  A
 * persistent request keeps the schedule and re-arms the state on each start.
 * All of it is guarded by the progress lock (progress/progress.h); each
 * communicator is a source of the progress service (progress_hooks.c).
 */
#ifndef NBO_CORE_H
#define NBO_CORE_H

#include "../util/list.h"
#include "../util/util.h" /* nbo_now, nbo_agree */
#include <stdint.h>

#include "../memory/memory.h"
#include "../offload/engine.h"
#include "../progress/progress.h"
#include "datatype.h"
#include <nbo.h>
#include "schedule.h"

#define NBO_COMM_MAGIC 0x6e626f63u /* "nboc" */
#define NBO_REQ_MAGIC  0x6e626f72u /* "nbor" */

struct nbo_request;

struct nbo_comm {
    uint32_t                magic;
    MPI_Comm                comm;       /* private duplicate, errors return */
    int                     size, rank;
    nbo_config_t            cfg;        /* resolved: no AUTO left */
    const nbo_engine_ops_t *ops;
    nbo_engine_comm_t      *ec;
    unsigned                caps;       /* the engine's NBO_CAP_*: fixed once open */
    uint32_t                seq;        /* collective calls so far: the wire tag */
    int                     live;       /* requests created and not yet freed */
    int                     broken;     /* a peer or link failed: free is local */
    LIST_HEAD(, nbo_request) active;    /* started, not yet complete */
    nbo_progress_source_t   source;     /* what progress/ polls */
    struct nbo_comm        *next;       /* in the list of all communicators */
};

typedef enum {
    REQ_INACTIVE = 0, /* persistent, not started (or finished)        */
    REQ_ACTIVE,       /* running                                     */
    REQ_DONE          /* finished, waiting to be collected by test/wait */
} req_state_t;

struct nbo_request {
    nbo_exec_t          x;          /* first: engines see only this */
    uint32_t            magic;
    struct nbo_comm    *comm;
    int                 persistent;
    int                 in_place;   /* send data lives in the receive buffer */
    req_state_t         state;
    int                 status;     /* result of the last run */
    nbo_sched_t         sched;
    nbo_block_map_t     send_map, recv_map; /* for PACK / UNPACK */
    void               *tmp;        /* scratch of sched.tmp_bytes */
    int                 attached;   /* plan_attach succeeded */
    nbo_mem_t          *mem;        /* the buffers' memory type (memory/) */
    /* run state */
    int                 cursor;     /* next task to execute */
    int32_t            *pending;    /* [ntasks]: per WAIT, tasks not yet done */
    int                 posted;     /* SEND/RECV posted and not yet done */
    double              last_activity; /* for the timeout */
    LIST_ENTRY(nbo_request) active_link; /* in comm->active while running */
};

/* Look up a live communicator handle: NULL if it is not one. */
struct nbo_comm *nbo_comm_lookup(nbo_comm_t comm);

/* Every field within the range its NBO_* variable allows (config.c). */
int nbo_config_valid(const nbo_config_t *c);

/* Fill c->source from the resolved configuration and engine. */
void nbo_comm_source_init(struct nbo_comm *c);

/* Checks shared by every entry point; return NBO_SUCCESS or an error. */
int nbo_request_check(nbo_request_t *req);

/* Build a request from compile arguments (libnbo/request.c): the memory
 * type of the buffers, the task list, the engine's registration.  sendbuf
 * and recvbuf are what the tasks address (sendbuf NULL in place).  The
 * request takes the block maps, even on error. */
int nbo_request_create(struct nbo_comm *c, const nbo_sched_args_t *args,
                       void *sendbuf, void *recvbuf,
                       nbo_block_map_t *smap, nbo_block_map_t *rmap,
                       int persistent, struct nbo_request **out);

/* Arm and post the first window (lock held). */
int nbo_request_begin(struct nbo_request *r);

/* Run the task list as far as it can go (lock held). */
void nbo_request_advance(struct nbo_request *r);

/* Fail a running request: withdraw its posted tasks (lock held). */
void nbo_request_fail(struct nbo_request *r, int err);

/* NBO_CHECK: agree across ranks that the call matches (check.c): the same
 * collective, persistent or not, and what each rank sends a peer is what
 * the peer expects to receive. */
int nbo_check_call(struct nbo_comm *c, nbo_coll_t coll, int persistent, const size_t *sbytes,
                   const size_t *rbytes);


#endif
