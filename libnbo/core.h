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

/* Compiled small calls a communicator keeps for reuse (call_cache.c). */
#define NBO_CACHE_SLOTS 8

/* What makes two non-persistent calls the same call (call_cache.c). */
typedef struct nbo_cache_key {
    int          coll;
    const void  *sendbuf;
    void        *recvbuf;
    int          scount, rcount, root;
    MPI_Datatype stype, rtype;
    MPI_Op       op;
} nbo_cache_key_t;

struct nbo_comm {
    uint32_t                magic;
    MPI_Comm                comm;       /* private duplicate, errors return */
    MPI_Comm                self;       /* MPI_COMM_SELF duplicate, errors return:
                                           judges ops (reduce.c) */
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
    struct nbo_request     *cache[NBO_CACHE_SLOTS]; /* kept small calls, or NULL */
    int                     cache_next; /* the entry to replace next */
    struct nbo_tune_classes *tune_classes; /* NBO_TUNE_CALLS' trials (tune.c), or NULL */
    struct nbo_comm        *next;       /* in the list of all communicators */
};

/* A reduction's op and element type, for REDUCE tasks, and the staging of
 * a non-contiguous type through contiguous scratch laid out as the type
 * (the task list runs on the scratch; coll/reduce_stage.c). */
typedef struct nbo_reduce {
    MPI_Datatype type;       /* the user's, or our duplicate of a derived one */
    MPI_Datatype owned;      /* that duplicate, or MPI_DATATYPE_NULL */
    MPI_Op       op;
    int          commutative; /* MPI_Op_commutative: 0 keeps rank order */
    size_t       elem;       /* extent: bytes per element in the task buffers */
    MPI_Aint     shift;      /* true lb: task offset 0 is element 0's data */
    int          staged;     /* 1: user data is copied via the scratch below */
    const void  *user_in;    /* staged: the input (the receive buffer in place) */
    void        *user_out;
    int          n_in, n_out;      /* elements copied in, and back */
    void        *in, *out;   /* scratch the tasks address (in NULL in place) */
    void        *packed;     /* MPI_Pack buffer for the copies */
    size_t       packed_len;
} nbo_reduce_t;

/* What a family does around each run of its requests, and its per-call
 * data: request.c calls these hooks and never a family itself.  in/out
 * NULL: nothing to do at start or end. */
typedef struct nbo_stage_ops {
    int  (*in)(void *data, MPI_Comm comm);  /* at each start, before any task */
    int  (*out)(void *data, MPI_Comm comm); /* at the end, after every task */
    void (*free)(void *data);
} nbo_stage_ops_t;

/* What a call compiled: the compiler's arguments it keeps (with the peer
 * lists and byte arrays they point to, owned here) and the task list.  A
 * persistent request keeps its plan and may rebuild it between two starts
 * with another choice (plan.c). */
typedef struct nbo_plan {
    nbo_sched_args_t args;   /* speers, rpeers, sbytes.. point into the two below */
    int             *peers;  /* [nsend + nrecv]: speers then rpeers */
    size_t          *bytes;  /* [2 * (nsend + nrecv)]: sbytes, sdispl, rbytes, rdispl */
    nbo_sched_t      sched;
    int              agreed; /* persistent: the ranks agreed on its choice */
} nbo_plan_t;

/* Room in p->args for nsend and nrecv peers (their ranks and bytes zeroed):
 * NBO_SUCCESS or NBO_ERR_NOMEM.  all_ranks: both lists every rank 0..P-1. */
int nbo_plan_lists(nbo_plan_t *p, int nsend, int nrecv);
void nbo_plan_all_ranks(nbo_plan_t *p, int P);
/* Free the lists and the task list. */
void nbo_plan_free(nbo_plan_t *p);

/* The choice for a call (select.c): what every rank must agree on. */
typedef struct nbo_choice {
    nbo_algorithm_t algorithm; /* resolved, never AUTO */
    int             window;    /* W >= 1 */
} nbo_choice_t;

/* The choice for the described call (args complete but for algorithm and
 * window), a function only of what every rank shares (select.c). */
nbo_choice_t nbo_select(const nbo_sched_args_t *args, const nbo_config_t *cfg);

/* A call as its family describes it (coll/family.h), what a request is
 * built from: the request takes all of it, even on error. */
typedef struct nbo_coll_parts {
    nbo_plan_t             plan;    /* args (peer lists, bytes, flags) */
    nbo_block_map_t        smap, rmap; /* for PACK/UNPACK and the memory type */
    void                  *sendbuf, *recvbuf; /* what the tasks address
                                                 (sendbuf NULL in place) */
    const nbo_reduce_t    *red;     /* REDUCE tasks' op and type, or NULL */
    const nbo_stage_ops_t *stage;   /* hooks on stage_data, or NULL */
    void                  *stage_data;
    int                    device_ok; /* device buffers may be staged */
} nbo_coll_parts_t;

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
    nbo_plan_t          plan;       /* what the call compiled */
    nbo_block_map_t     send_map, recv_map; /* for PACK / UNPACK */
    const nbo_reduce_t *red;        /* reductions only, else NULL */
    const nbo_stage_ops_t *stage;   /* the family's hooks, or NULL */
    void               *stage_data;
    void               *tmp;        /* scratch of sched.tmp_bytes */
    int                 attached;   /* plan_attach succeeded */
    nbo_mem_t          *mem;        /* the buffers' memory type (memory/) */
    /* run state */
    int                 cursor;     /* next task to execute */
    int32_t            *pending;    /* [ntasks]: per WAIT, tasks not yet done */
    int                 posted;     /* SEND/RECV posted and not yet done */
    int                 offload_wait; /* the WAIT ending the part the engine
                                         took (offload), or -1: passed only
                                         once every task before it is done */
    int                 codec_status; /* NBO_ERR_CODEC once a codec refused a
                                       block: the run goes on to its end (the
                                       peers wait for its messages) and
                                       reports it then */
    double              last_activity; /* for the timeout */
    int                 background; /* needs the progress thread (request.c) */
    double              thread_at;  /* this run needs the thread from then
                                       (nbo_now), if background; set by begin */
    int                 cached;     /* in comm->cache: kept when finished */
    nbo_cache_key_t     key;        /* cached: the call it stands for */
    struct nbo_tune    *tune;       /* NBO_TUNE: the trial of a persistent request (tune.c) */
    struct nbo_tune    *tune_class; /* NBO_TUNE_CALLS: the class this call belongs to */
    LIST_ENTRY(nbo_request) active_link; /* in comm->active while running */
};

/* Look up a live communicator handle: NULL if it is not one. */
struct nbo_comm *nbo_comm_lookup(nbo_comm_t comm);

/* Every field within the range its NBO_* variable allows (config.c). */
int nbo_config_valid(const nbo_config_t *c);

/* The scalar kind (codec/codec.h's nbo_celem_t) of a datatype the codecs
 * apply to: MPI_DOUBLE, MPI_FLOAT and their C complex types; else NONE
 * (codec_api.c). */
int nbo_codec_elem(MPI_Datatype type);

/* Fill c->source from the resolved configuration and engine. */
void nbo_comm_source_init(struct nbo_comm *c);

/* Checks shared by every entry point; return NBO_SUCCESS or an error. */
int nbo_request_check(nbo_request_t *req);

/* Build a request from a described call whose plan's args are complete
 * (libnbo/request.c): the memory type of the buffers, the task list, the
 * engine's registration.  The request takes all of parts, even on error. */
int nbo_request_create(struct nbo_comm *c, nbo_coll_parts_t *parts, int persistent,
                       struct nbo_request **out);

/* Compile r's plan with another choice and re-arm it (plan.c; lock not
 * held, r inactive and persistent, every rank alike between two starts).
 * On a compile error r keeps its plan; if the engine refuses the new
 * list's registration, r may only be freed. */
int nbo_plan_rebuild(struct nbo_request *r, const nbo_choice_t *choice);

/* Before a persistent request's first start (and again once a tuner clears
 * plan.agreed, at a start every rank counts alike): every rank takes rank
 * 0's choice, rebuilding its plan if its own differs (plan.c).  Collective;
 * NBO_SUCCESS on every rank or an error on every rank. */
int nbo_plan_agree(struct nbo_request *r);

/* The element-wise minimum of v[0..n) over the communicator's ranks, into
 * v (agree.c): within NBO_TIMEOUT (else NBO_ERR_TIMEOUT), progressing the
 * process's requests meanwhile.  n <= NBO_AGREE_MAX. */
#define NBO_AGREE_MAX 16
int nbo_agree_min(struct nbo_comm *c, int *v, int n);
/* The same in two halves, so that nothing waits for it in between:
 * begin (NULL on error), then end, which waits as nbo_agree_min does
 * (within NBO_TIMEOUT) and frees it either way; an agreement never ended
 * is dropped (kept, since MPI may still write it). */
struct nbo_agreement *nbo_agree_begin(struct nbo_comm *c, const int *v, int n);
int nbo_agree_end(struct nbo_comm *c, struct nbo_agreement *a, int *v);
void nbo_agree_drop(struct nbo_agreement *a);

/* One call of a collective, as its entry point received it (coll.c runs
 * every collective through one path: validate, describe in bytes, check,
 * compile, start). */
typedef struct nbo_coll_call {
    nbo_coll_t   coll;
    int          persistent;        /* *_init: started by nbo_start */
    const void  *sendbuf;           /* MPI_IN_PLACE: send data is in recvbuf */
    const int   *scounts, *sdispls; /* per peer (alltoallv), else NULL */
    int          scount;            /* one for every peer, else -1 */
    MPI_Datatype stype;
    void        *recvbuf;
    const int   *rcounts, *rdispls; /* alltoallv, allgatherv */
    int          rcount;            /* also bcast's and allreduce's count */
    MPI_Datatype rtype;             /* also bcast's and the reductions' type */
    const MPI_Datatype *stypes, *rtypes; /* per peer (alltoallw: displs in bytes), else NULL */
    int          root;              /* bcast */
    MPI_Op       op;                /* reductions */
} nbo_coll_call_t;

/* Validate, compile and (unless persistent) start a call. */
int nbo_coll_start(const nbo_coll_call_t *k, nbo_comm_t comm, nbo_request_t *req);

/* Allocate r's run state for its compiled plan (request.c; lock not held). */
int nbo_request_arm(struct nbo_request *r);

/* Free a request that is not running (lock held). */
void nbo_request_destroy(struct nbo_request *r);

/* The cache of compiled small calls (call_cache.c; lock held but for
 * nbo_cache_key).  key: 1 and *key filled if the call may be kept.  take:
 * the kept request of that call, inactive and given the next tag, or
 * NULL.  keep: keep r (just created for key) if it qualifies.  drop: r
 * leaves the cache.  clear: free the inactive entries. */
int  nbo_cache_key(const nbo_coll_call_t *k, const struct nbo_comm *c, nbo_cache_key_t *key);
struct nbo_request *nbo_cache_take(struct nbo_comm *c, const nbo_cache_key_t *key);
void nbo_cache_keep(struct nbo_request *r, const nbo_cache_key_t *key);
void nbo_cache_drop(struct nbo_request *r);
void nbo_cache_clear(struct nbo_comm *c);

/* Arm and post the first window (lock held). */
int nbo_request_begin(struct nbo_request *r);

/* Run the task list as far as it can go (lock held). */
void nbo_request_advance(struct nbo_request *r);

/* Fail a running request: withdraw its posted tasks (lock held). */
void nbo_request_fail(struct nbo_request *r, int err);

/* One SEND or RECV task of x finished (request.c): the engines' complete(). */
void nbo_exec_complete(nbo_exec_t *x, int task, int status);

/* What every engine is handed at probe and open (engine_services.c). */
extern const nbo_engine_services_t nbo_engine_services;

/* NBO_CHECK: agree across ranks that the call matches (check.c): the same
 * collective, persistent or not, the same root and choice, and what each
 * rank sends a peer (sb[i] to speers[i], in list order) is what that peer
 * expects from it (rb[j] from rpeers[j], in its order). */
typedef struct nbo_check_sig {
    nbo_coll_t          coll;
    int                 persistent, root;
    nbo_choice_t        choice;
    int                 nsend, nrecv;
    const int          *speers, *rpeers;
    const size_t       *sb, *rb;
} nbo_check_sig_t;
int nbo_check_call(struct nbo_comm *c, const nbo_check_sig_t *sig);


#endif
