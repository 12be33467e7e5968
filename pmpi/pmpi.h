/*
 * pmpi.h - libnbo-mpi.so internals: the MPI profiling-interface layer that
 * serves an unmodified application's MPI all-to-all calls with libnbo.
 *
 *   pm_state.c     settings (NBO_PMPI*), MPI_Init/Init_thread/Finalize, log
 *   pm_table.c     handle table: MPI_Request -> what libnbo-mpi owns
 *   pm_comm.c      lazy nbo communicator per MPI communicator (attribute)
 *   pm_greq.c      runs: one libnbo request behind one generalized request
 *   pm_coll.c      what every served collective shares: the switch, the
 *                  fallback to MPI, handing the request over
 *   pm_alltoall.c  MPI_Ialltoall(v), MPI_Alltoall(v)_init, blocking forms
 *   pm_reduce.c    MPI_Iallreduce, MPI_Ireduce_scatter_block, their _init
 *   pm_allgather.c MPI_Iallgather(v), MPI_Allgather(v)_init
 *   pm_bcast.c     MPI_Ibcast, MPI_Bcast_init
 *   pm_requests.c  MPI_Start*, Wait*, Test*, Request_free, Cancel, ...:
 *                  persistent handles swapped for their current run; waits
 *                  that keep both MPI and libnbo progressing; errors
 *   pm_errors.c    libnbo's errors as MPI error codes and strings
 *
 * Locks: pm_mutex guards the table and the communicator list only, for a
 * few instructions at a time; nothing that can call libnbo or wait for MPI
 * runs under it, so it never orders itself against MPI's or libnbo's.
 */
#ifndef NBO_PMPI_H
#define NBO_PMPI_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "nbo.h"

#define PM_EXPORT __attribute__((visibility("default")))

/* ------------------------------------------------------------ settings */

/* The collectives libnbo may serve, one bit each (NBO_PMPI_COLLS names).
 * A bit covers the persistent forms too, and alltoall covers alltoallv. */
typedef enum {
    PM_ALLTOALL             = 1u << 0,
    PM_ALLREDUCE            = 1u << 1,
    PM_REDUCE_SCATTER_BLOCK = 1u << 2,
    PM_ALLGATHER            = 1u << 3,
    PM_BCAST                = 1u << 4,
    PM_ALLGATHERV           = 1u << 5,
    PM_NEIGHBOR             = 1u << 6, /* the four neighbourhood collectives */
    PM_BARRIER              = 1u << 7,
    PM_REDUCE               = 1u << 8,
    PM_GATHER               = 1u << 9, /* gather and gatherv */
    PM_SCATTER              = 1u << 10, /* scatter and scatterv */
    PM_SCAN                 = 1u << 11, /* scan and exscan */
    PM_REDUCE_SCATTER       = 1u << 12, /* with blocks of any size */
    PM_ALLTOALLW            = 1u << 13
} pm_coll_t;
#define PM_NCOLLS 14
/* What NBO_PMPI_COLLS=all names: the collectives the default leaves out
 * too (pm_settings.c). */
#define PM_ALL_COLLS (PM_ALLTOALL | PM_ALLREDUCE | PM_REDUCE_SCATTER_BLOCK | PM_ALLGATHER | \
                      PM_ALLGATHERV | PM_BCAST | PM_NEIGHBOR | PM_BARRIER | PM_REDUCE |   \
                      PM_GATHER | PM_SCATTER | PM_SCAN | PM_REDUCE_SCATTER | PM_ALLTOALLW)

/* A collective's index in pm_settings_t.min_size. */
static inline int pm_coll_index(pm_coll_t coll) { return __builtin_ctz((unsigned)coll); }

/* Its NBO_PMPI_COLLS name ("allreduce"). */
const char *pm_coll_name(pm_coll_t coll);

/* "64K", "1M", "1000": bytes as NBO_PMPI_MIN_SIZE writes them, in buf. */
const char *pm_size_str(long long bytes, char *buf, size_t len);

typedef struct pm_settings {
    int enabled;   /* NBO_PMPI != off                               */
    int log;       /* NBO_PMPI_LOG=1: a line per communicator       */
    int blocking;  /* NBO_PMPI_BLOCKING=1: serve MPI_Alltoall(v) too */
    int want_multiple; /* ask MPI_Init for MPI_THREAD_MULTIPLE       */
    unsigned colls; /* NBO_PMPI_COLLS: the pm_coll_t served          */
    long long min_size[PM_NCOLLS]; /* NBO_PMPI_MIN_SIZE by pm_coll_index:
                                    * a smaller call goes to MPI (bytes) */
} pm_settings_t;

extern pm_settings_t pm_cfg;
extern pthread_mutex_t pm_mutex;

/* Read the environment once (idempotent, thread-safe). */
void pm_settings_load(void);

/* Is the library serving calls now (enabled, MPI initialized, not finalized)? */
int pm_active(void);

/* Counters for tests and the log (read with nbo_pmpi_stats). */
extern atomic_long pm_served;      /* collective calls run on libnbo   */
extern atomic_long pm_live_comms;  /* nbo communicators alive          */
extern atomic_long pm_live_ops;    /* persistent ops + non-persistent runs */

/* ----------------------------------------------------- communicators */

/* libnbo's state for one MPI communicator, cached as an attribute. */
typedef struct pm_comm {
    nbo_comm_t      nc;       /* NBO_COMM_NULL: MPI serves this one      */
    long            seq;      /* creation order (the release order)      */
    int             refs;     /* persistent ops created on it, not freed */
    int             released; /* nc freed (or given up): only the struct left */
    int             inline_progress; /* nc progresses inline (NBO_PROGRESS_INLINE) */
    struct pm_comm *next;     /* every one alive, newest first           */
} pm_comm_t;

/* The state serving comm, created on first use (collective: called inside
 * a collective on comm).  NULL: MPI serves comm. */
pm_comm_t *pm_comm_get(MPI_Comm comm);

/* Mark bit on comm (an attribute of this rank's, nothing collective);
 * 1 the first time, so that the log says a thing once per communicator. */
int pm_comm_first(MPI_Comm comm, unsigned bit);

/* comm's name for the log ("(unnamed)" without one). */
const char *pm_comm_name(MPI_Comm comm, char name[MPI_MAX_OBJECT_NAME]);

/* Release every nbo communicator, in creation order (MPI_Finalize). */
void pm_comm_release_all(void);

/* ----------------------------------------------------------- requests */

struct pm_pop;

/* One run of a libnbo request behind one MPI generalized request. */
typedef struct pm_run {
    nbo_request_t  req;     /* the libnbo request (persistent: the op's)  */
    MPI_Request    greq;    /* what the application (or MPI) holds        */
    atomic_int     done;    /* libnbo finished and greq was completed     */
    int            err;     /* libnbo's result                            */
    struct pm_pop *pop;     /* the persistent op, or NULL                 */
    int            persistent; /* a run of a persistent op (pop may be cut) */
    int            inline_progress; /* its communicator progresses inline */
} pm_run_t;

/* Runs started and not yet done: while any is, blocking completion calls
 * run as test loops (pm_requests.c).  Those on inline communicators need
 * nbo_progress from every completion call. */
extern atomic_int pm_active_runs, pm_inline_runs;

/* Advance libnbo's inline communicators if any run is on one. */
void pm_progress(void);

/* A persistent all-to-all: the application holds `shell`, an inactive MPI
 * persistent request that is never started; each MPI_Start of it makes a
 * new run whose generalized request stands in for the shell. */
typedef struct pm_pop {
    MPI_Request   shell;
    nbo_request_t req;
    pm_comm_t    *comm;
    pm_run_t     *run;        /* active run, or NULL when inactive        */
    struct pm_pop *next;      /* every persistent op alive                */
} pm_pop_t;

/* Make a persistent op around an inactive libnbo persistent request;
 * *handle gets its shell.  MPI_SUCCESS or an MPI error (req then freed). */
int pm_pop_create(nbo_request_t req, pm_comm_t *pc, MPI_Request *handle);

/* MPI_Start of a persistent op. */
int pm_pop_start(pm_pop_t *pop);

/* Wait for a run in the caller's thread (the wait function). */
void pm_run_finish(pm_run_t *run);

/* Start a generalized request for a libnbo request already started on pc;
 * *handle gets it.  pop is NULL for a non-persistent request. */
int pm_run_begin(nbo_request_t req, pm_comm_t *pc, pm_pop_t *pop, MPI_Request *handle);

/* Poll a run once (the generalized request's poll function). */
void pm_run_poll(pm_run_t *run);

/* Poll the runs among the application's handles reqs[0..n-1], where MPI
 * does not poll generalized requests itself (no MPIX_Grequest_class:
 * Open MPI); nothing with MPICH's extended generalized requests. */
void pm_runs_poll(int n, const MPI_Request reqs[]);

/* Free a persistent op (inactive): libnbo request, shell, table entry. */
void pm_pop_destroy(pm_pop_t *pop);

/* Free every inactive persistent op still alive (MPI_Finalize). */
void pm_pop_destroy_all(void);

/* -------------------------------------------------------- collectives */

/* The persistent collectives are MPI 4.0's MPI_<Name>_init; an MPI 3.1
 * library may offer them as an extension that programs call instead: Open
 * MPI 4.1's MPIX_<Name>_init (mpi-ext.h, "pcollreq").  The library serves
 * whichever names this MPI has (meson.build checks). */
#if NBO_PMPI_COLL_INIT
#define PM_HAVE_INIT 1
#define PM_INIT(name)   MPI_##name##_init
#define PMPI_INIT(name) PMPI_##name##_init
#elif NBO_PMPI_MPIX_COLL_INIT
#include <mpi-ext.h>
#define PM_HAVE_INIT 1
#define PM_INIT(name)   MPIX_##name##_init
#define PMPI_INIT(name) PMPIX_##name##_init
#endif

/* The state serving a call of collective coll on comm that moves count
 * elements of type per block; NULL when MPI serves it (coll switched off,
 * the call below coll's NBO_PMPI_MIN_SIZE, library inactive, comm not
 * served).  The size comes from arguments every rank gives alike, so
 * every rank decides alike (pm_coll.c); call names the call for the log. */
pm_comm_t *pm_comm_for(MPI_Comm comm, pm_coll_t coll, long long count, MPI_Datatype type,
                       const char *call);
/* The same with the block the largest of counts[], one per rank of comm
 * (allgatherv's recvcounts). */
pm_comm_t *pm_comm_for_v(MPI_Comm comm, pm_coll_t coll, const int counts[], MPI_Datatype type,
                         const char *call);
/* The same with no size rule: calls whose size differs between ranks
 * (alltoallv). */
pm_comm_t *pm_comm_for_any(MPI_Comm comm, pm_coll_t coll);

/* Does MPI serve the call libnbo answered rc?  Yes without state (pc NULL)
 * and for arguments MPI should judge itself (logged, naming `call`). */
int pm_declined(const pm_comm_t *pc, int rc, const char *call);

/* Hand a libnbo request (started, or persistent and inactive) to the
 * application as *request; a libnbo failure is an MPI error on comm. */
int pm_serve(MPI_Comm comm, pm_comm_t *pc, int rc, nbo_request_t req, int persistent,
             MPI_Request *request);

/* ------------------------------------------------------------- table */

typedef enum { PM_NONE = 0, PM_RUN, PM_POP } pm_kind_t;

/* Handles the library owns: non-persistent runs (by greq) and persistent
 * ops (by shell).  Lookups are cheap when no persistent op exists. */
void pm_table_put(MPI_Request h, pm_kind_t kind, void *obj);
void pm_table_del(MPI_Request h);
pm_kind_t pm_table_get(MPI_Request h, void **obj);

/* Persistent ops alive: zero means no request array needs rewriting. */
extern atomic_int pm_pops;

/* Call an MPI error on comm's handler (as MPI would), return the code. */
int pm_error(MPI_Comm comm, int nbo_err);

/* ------------------------------------------------------------ errors */

/* Add libnbo's MPI error class and codes (after MPI_Init). */
void pm_errors_init(void);
/* The MPI error code for an NBO_ERR_* (MPI_ERR_OTHER before init). */
int pm_errcode(int nbo_err);
/* A failed run's error, kept under its handle until a completion call
 * takes it to report (pm_failed_take: NBO_SUCCESS when none). */
void pm_failed_put(MPI_Request h, int nbo_err);
int pm_failed_take(MPI_Request h);
int pm_failed_pending(void);
void pm_failed_clear(void);

/* Log a line (NBO_PMPI_LOG) with a "libnbo-mpi:" prefix. */
void pm_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
