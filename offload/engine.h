/*
 * engine.h - the interface every engine implements (one ops table each).
 *
 * An engine executes the SEND and RECV tasks of task lists on one transport.
 * The core walks each task list (local copies, pack/unpack, WAIT tasks) and
 * hands the engine one window at a time: a run of consecutive SEND/RECV tasks
 * that the engine may post as one chain.  The engine reports every finished
 * task with its services' complete(); nothing else about requests is its
 * business.  An engine whose network runs waits itself (offload) may take
 * a whole run of windows and their WAITs at once instead.
 *
 * Engines live in offload/<name>/ and export only their ops table; nothing
 * outside the folder knows their internals.  An engine calls nothing of
 * libnbo/, progress/ or memory/: what the core offers it comes in
 * nbo_engine_services_t, at probe and open (util/ is below every layer and
 * free to call).
 *
 * Threading: one lock (progress/ owns it) guards every request,
 * communicator and engine.  The core calls every op with it held, except
 * probe, open and close, which are collective or slow and run without it:
 * an engine whose state is shared by all its communicators (one UCX worker
 * per process, say) takes the lock itself there, with its services'
 * lock()/unlock(), and never waits on a peer while holding it.  event_fd() is the
 * only descriptor the progress thread sleeps on.
 */
#ifndef NBO_ENGINE_H
#define NBO_ENGINE_H

#include "../util/nbo_mpi.h" /* MPI by its PMPI_ names */
#include <stddef.h>
#include <stdint.h>

#include <nbo.h>
#include "../util/list.h"
#include "../util/setting.h"
#include "../util/util.h" /* nbo_now, nbo_agree: services every layer uses */
#include "../libnbo/schedule.h"

/* One running (or armed persistent) task list, as an engine sees it. */
typedef struct nbo_exec {
    const nbo_task_t *tasks;
    int               ntasks;
    void             *buf[NBO_BUF_COUNT];     /* base of each named buffer  */
    size_t            buf_len[NBO_BUF_COUNT]; /* bytes the tasks may touch  */
    uint32_t          tag;          /* equal on every rank for one collective */
    int               coll;         /* nbo_coll_t: the collective the list
                                       implements (ranks' lists differ, this
                                       does not) */
    void             *engine_data;  /* engine's per-plan state (registrations) */
    /* Reductions on the user's buffers (not staged): the REDUCE tasks' op
     * and type, so an engine may run them itself (red_set 0: neither). */
    int               red_set;
    MPI_Datatype      red_type;
    MPI_Op            red_op;
} nbo_exec_t;

/* What the core offers an engine, handed to probe and open; the engine
 * keeps the pointer (valid for the life of the process) where its state
 * is: per communicator, or in a static for state shared by all of them. */
typedef struct nbo_engine_services {
    /* Report one SEND or RECV task of x finished (status NBO_SUCCESS or an
     * NBO_ERR_* code).  From progress() and cancel() only. */
    void (*complete)(nbo_exec_t *x, int task, int status);
    /* The lock of the threading rule above (in probe, open and close only:
     * every other op runs with it held). */
    void (*lock)(void);
    void (*unlock)(void);
} nbo_engine_services_t;

typedef struct nbo_engine_comm nbo_engine_comm_t; /* each engine defines it */

typedef struct nbo_engine_ops {
    const char       *name; /* its folder's name, as NBO_ENGINE selects it */
    /* 1: never chosen by NBO_ENGINE=auto, only when asked for by name (an
     * engine not yet tested on the hardware it targets). */
    int               by_name_only;
    /* The engine's own NBO_* variables (NULL: none), which it reads with
     * util/setting.h's parser; nbo_info lists them under the engine. */
    const nbo_setting_table_t *settings;

    /* Usable on this machine?  Local, no communication.  Returns
     * NBO_SUCCESS or NBO_ERR_ENGINE; writes a one-line detail (device,
     * transports, or why not) into detail. */
    int (*probe)(const nbo_engine_services_t *sv, char *detail, size_t len);

    /* Collective over comm, a private duplicate owned by the core (the
     * engine may use it for bootstrap and for traffic). */
    int (*open)(MPI_Comm comm, const nbo_config_t *cfg, const nbo_engine_services_t *sv,
                nbo_engine_comm_t **out);
    /* Called with no request live on the communicator.  Collective in the
     * normal case.  broken: a request failed on it, or the ranks could not
     * agree to release it; peers may then be dead, and close must not wait
     * on them nor try to reach them again (force-close endpoints).  Never
     * wait on a peer without a bound, broken or not. */
    void (*close)(nbo_engine_comm_t *ec, int broken);

    /* NBO_CAP_* bits of an open communicator; detail as for probe. */
    unsigned (*caps)(nbo_engine_comm_t *ec, char *detail, size_t len);

    /* Optional (NULL: nothing to do).  Called once per compiled plan,
     * before its first post: register buffers, exchange keys.  A persistent
     * request keeps what it set in x->engine_data across starts; detach
     * releases it when the request is freed. */
    int  (*plan_attach)(nbo_engine_comm_t *ec, nbo_exec_t *x);
    void (*plan_detach)(nbo_engine_comm_t *ec, nbo_exec_t *x);

    /* Post tasks [first, first + n) of x: all SEND or RECV, posted in order.
     * An engine that chains work requests posts them as one chain.  An error
     * means none of them is posted. */
    int (*post)(nbo_engine_comm_t *ec, nbo_exec_t *x, int first, int n);

    /* Optional (NULL: windows only).  Take tasks [first, first + *taken)
     * of x to run without the host, ending with a WAIT or at the end of
     * the list, every SEND/RECV of them reported with complete() as
     * post()'s are (the WAITs need no report); the local tasks among them
     * (COPY, and REDUCE with x->red_set) are the engine's to do.  *taken 0: nothing taken, the core posts the windows
     * itself.  Called at a SEND or RECV task whose earlier tasks are all
     * done.  An error means nothing is taken. */
    int (*offload)(nbo_engine_comm_t *ec, nbo_exec_t *x, int first, int *taken);

    /* Poll for finished tasks and report each with complete().
     * Returns how many were reported (>= 0) or an NBO_ERR_* code that fails
     * everything still posted on the communicator. */
    int (*progress)(nbo_engine_comm_t *ec);

    /* A descriptor that becomes readable when progress() may have work, or
     * -1 if the engine has none (then the progress thread must poll). */
    int (*event_fd)(nbo_engine_comm_t *ec);

    /* Prepare the descriptor for sleeping: returns NBO_SUCCESS when it is
     * safe to sleep on it, 1 when events are pending (call progress first),
     * NBO_ARM_QUIET when the engine wants no events for now: sleep, and do
     * not watch the descriptor until arm() answers otherwise.  NULL when
     * event_fd() is -1. */
    int (*arm)(nbo_engine_comm_t *ec);

    /* Withdraw every task of x still posted, reporting each with
     * complete() and an error status.  After it returns the engine
     * holds no reference to x or its buffers. */
    void (*cancel)(nbo_engine_comm_t *ec, nbo_exec_t *x);
} nbo_engine_ops_t;

/* arm(): an engine that will not progress its descriptor's events (the UCX
 * engine after a fault, with nothing in flight). */
#define NBO_ARM_QUIET 2

/* The engines built into this library, most capable first; NULL-terminated. */
extern const nbo_engine_ops_t *const nbo_engines[];

/* The built engine called name, or NULL. */
const nbo_engine_ops_t *nbo_engine_find(const char *name);

#endif /* NBO_ENGINE_H */
