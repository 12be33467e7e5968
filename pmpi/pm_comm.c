/*
 * pm_comm.c - one nbo communicator per MPI communicator, made on first use
 * and cached as an attribute whose delete callback frees it.
 *
 * Creation happens inside the first served call on the communicator,
 * which every rank makes in the same order (a call MPI serves for its size
 * does so on every rank, pm_coll.c, and creates nothing), so
 * nbo_comm_create (collective) is safe there.  Freeing is collective too: the delete callback runs in
 * MPI_Comm_free, which every rank calls.  nbo_comm_free agrees across ranks;
 * if any rank still has a persistent request on the communicator it fails
 * everywhere alike, and the state is released at MPI_Finalize instead.
 *
 * MPI_Finalize releases what is left (MPI_COMM_WORLD, MPI_COMM_SELF and
 * communicators the application never freed) before PMPI_Finalize, in
 * creation order: creation itself was a blocking collective on each
 * communicator and it completed, so replaying the same order of blocking
 * collectives cannot deadlock.  The callbacks PMPI_Finalize runs later on
 * MPI_COMM_WORLD/SELF then find `released` and only free memory.
 *
 * A second attribute holds the log's marks (pm_comm_first), local to each
 * rank and nothing to free.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pmpi.h"

static int keyval = MPI_KEYVAL_INVALID;
static pm_comm_t *comms; /* newest first */
static long next_seq;

static void unlink_comm(pm_comm_t *pc)
{
    pthread_mutex_lock(&pm_mutex);
    for (pm_comm_t **p = &comms; *p; p = &(*p)->next)
        if (*p == pc) {
            *p = pc->next;
            break;
        }
    pthread_mutex_unlock(&pm_mutex);
}

/* Free the nbo communicator (collective over its ranks). */
static int release(pm_comm_t *pc)
{
    if (pc->released)
        return NBO_SUCCESS;
    if (pc->nc != NBO_COMM_NULL) {
        /* After a fault nbo_comm_free releases the communicator and still
         * returns the fault: only a handle left set means "not freed". */
        int rc = nbo_comm_free(&pc->nc);
        if (pc->nc != NBO_COMM_NULL)
            return rc;
        atomic_fetch_sub(&pm_live_comms, 1);
        if (rc != NBO_SUCCESS)
            pm_log("communicator released after a fault (%s)", nbo_strerror(rc));
    }
    pc->released = 1;
    return NBO_SUCCESS;
}

static int delete_fn(MPI_Comm comm, int kv, void *attr, void *extra)
{
    (void)comm;
    (void)kv;
    (void)extra;
    pm_comm_t *pc = attr;
    int rc = release(pc);
    if (rc == NBO_SUCCESS) {
        unlink_comm(pc);
        free(pc);
    } else {
        /* Persistent requests still use it: MPI_Finalize releases it. */
        pm_log("communicator freed with live persistent requests (%s): "
               "libnbo state kept until MPI_Finalize", nbo_strerror(rc));
    }
    return MPI_SUCCESS;
}

/* Once, and not under pm_mutex: MPI takes its own lock inside, and MPI
 * calls our free functions with that lock held, which take pm_mutex. */
static pthread_once_t keyval_once = PTHREAD_ONCE_INIT;

static void keyval_make(void)
{
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &keyval, NULL);
}

static int keyval_get(void)
{
    pthread_once(&keyval_once, keyval_make);
    return keyval;
}

const char *pm_comm_name(MPI_Comm comm, char name[MPI_MAX_OBJECT_NAME])
{
    int len = 0;
    name[0] = '\0';
    PMPI_Comm_get_name(comm, name, &len);
    return len ? name : "(unnamed)";
}

static void log_choice(MPI_Comm comm, const pm_comm_t *pc, const char *why, const char *note)
{
    int rank = 0, size = 0;
    char name[MPI_MAX_OBJECT_NAME];
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    if (!pm_cfg.log || rank != 0)
        return;
    if (pc->nc == NBO_COMM_NULL) {
        pm_log("communicator %s (size %d) served by MPI: %s", pm_comm_name(comm, name), size,
               why);
        return;
    }
    nbo_comm_info_t info;
    nbo_comm_query(pc->nc, &info);
    pm_log("communicator %s (size %d) served by libnbo: engine %s, progress %s%s",
           pm_comm_name(comm, name), size, info.engine,
           nbo_progress_name(info.progress), note);
}

/* Marks for the log, kept in the attribute's value itself (no memory to
 * free); a duplicate starts without them (MPI_COMM_NULL_COPY_FN). */
static int mark_keyval = MPI_KEYVAL_INVALID;
static pthread_once_t mark_once = PTHREAD_ONCE_INIT;

static void mark_keyval_make(void)
{
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &mark_keyval,
                            NULL);
}

int pm_comm_first(MPI_Comm comm, unsigned bit)
{
    pthread_once(&mark_once, mark_keyval_make);
    void *val = NULL;
    int flag = 0;
    if (comm == MPI_COMM_NULL || mark_keyval == MPI_KEYVAL_INVALID ||
        PMPI_Comm_get_attr(comm, mark_keyval, &val, &flag) != MPI_SUCCESS)
        return 0;
    uintptr_t marks = flag ? (uintptr_t)val : 0;
    if (marks & bit)
        return 0;
    PMPI_Comm_set_attr(comm, mark_keyval, (void *)(marks | bit));
    return 1;
}

/* nbo_comm_create with the environment's settings; an explicit thread mode
 * that MPI's thread level does not allow falls back to inline. */
static int create(MPI_Comm comm, nbo_comm_t *nc, const char **note)
{
    nbo_config_t cfg;
    nbo_config_init(&cfg);
    int rc = nbo_config_from_env(&cfg);
    if (rc != NBO_SUCCESS)
        return rc; /* the same environment on every rank: all fall back */
    /* MPI's collectives are exact: an unmodified program never gets a
     * lossy codec, whatever NBO_CODEC says. */
    static atomic_int said;
    if (cfg.codec != NBO_CODEC_NONE && !atomic_exchange(&said, 1))
        pm_log("NBO_CODEC ignored: MPI's all-to-alls stay exact");
    cfg.codec = NBO_CODEC_NONE;
    rc = nbo_comm_create(comm, &cfg, nc);
    if (rc == NBO_ERR_THREAD_LEVEL) {
        cfg.progress = NBO_PROGRESS_INLINE;
        rc = nbo_comm_create(comm, &cfg, nc);
        *note = " (NBO_PROGRESS=thread needs MPI_THREAD_MULTIPLE: inline instead)";
    }
    return rc;
}

pm_comm_t *pm_comm_get(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL || !pm_active())
        return NULL;
    int kv = keyval_get();
    if (kv == MPI_KEYVAL_INVALID)
        return NULL;
    void *val = NULL;
    int flag = 0;
    if (PMPI_Comm_get_attr(comm, kv, &val, &flag) != MPI_SUCCESS)
        return NULL;
    if (flag) {
        pm_comm_t *pc = val;
        return pc->nc != NBO_COMM_NULL && !pc->released ? pc : NULL;
    }

    pm_comm_t *pc = calloc(1, sizeof(*pc));
    if (!pc)
        return NULL; /* nothing collective happened yet: MPI serves this call */
    const char *why = "", *note = "";
    int inter = 0;
    PMPI_Comm_test_inter(comm, &inter);
    if (inter)
        why = "intercommunicator";
    else {
        int rc = create(comm, &pc->nc, &note);
        if (rc != NBO_SUCCESS) {
            pc->nc = NBO_COMM_NULL;
            why = nbo_strerror(rc);
        } else {
            nbo_comm_info_t info;
            nbo_comm_query(pc->nc, &info);
            pc->inline_progress = info.progress == NBO_PROGRESS_INLINE;
            atomic_fetch_add(&pm_live_comms, 1);
        }
    }
    pthread_mutex_lock(&pm_mutex);
    pc->seq = next_seq++;
    pc->next = comms;
    comms = pc;
    pthread_mutex_unlock(&pm_mutex);
    PMPI_Comm_set_attr(comm, kv, pc);
    log_choice(comm, pc, why, note);
    return pc->nc != NBO_COMM_NULL ? pc : NULL;
}

void pm_comm_release_all(void)
{
    /* The list is newest first: walk it oldest first. */
    pthread_mutex_lock(&pm_mutex);
    long n = 0;
    for (pm_comm_t *pc = comms; pc; pc = pc->next)
        n++;
    pm_comm_t **order = n ? malloc((size_t)n * sizeof(*order)) : NULL;
    long i = n;
    if (order)
        for (pm_comm_t *pc = comms; pc; pc = pc->next)
            order[--i] = pc;
    pthread_mutex_unlock(&pm_mutex);
    if (n && !order)
        return; /* out of memory at exit: leave it to the OS */
    for (i = 0; i < n; i++) {
        int rc = release(order[i]);
        if (rc != NBO_SUCCESS) {
            pm_log("MPI_Finalize: an nbo communicator could not be freed (%s)",
                   nbo_strerror(rc));
            order[i]->released = 1; /* give up on it, never retry */
        }
    }
    free(order);
    /* The structs stay: MPI may still call delete_fn on them. */
}
