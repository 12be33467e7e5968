/*
 * comm.c - nbo communicators: bootstrap an engine over an MPI communicator.
 *
 * Every step that can fail on one rank alone is agreed on with an
 * MPI_Allreduce before the next collective step, so a failure returns the
 * same error on every rank instead of leaving some of them in a collective.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core.h"
#include "tune.h"

/* Every live communicator (lock held). */
static struct nbo_comm *comms;

struct nbo_comm *nbo_comm_lookup(nbo_comm_t comm)
{
    if (!comm)
        return NULL;
    for (struct nbo_comm *c = comms; c; c = c->next)
        if (c == comm)
            return c->magic == NBO_COMM_MAGIC ? c : NULL;
    return NULL;
}

/* Pick the engine every rank can use (collective).  An engine asked for by
 * name reports its own reason (NBO_ERR_CONFIG for a value it rejects). */
static int choose_engine(MPI_Comm comm, const char *want, const nbo_engine_ops_t **out)
{
    char detail[128];
    int why = NBO_ERR_ENGINE;
    const int any = strcasecmp(want, "auto") == 0;
    const nbo_engine_ops_t *named = any ? NULL : nbo_engine_find(want);
    for (int i = 0; nbo_engines[i]; i++) {
        const nbo_engine_ops_t *e = nbo_engines[i];
        if (any ? e->by_name_only : e != named)
            continue;
        int rc = nbo_agree(comm, e->probe(&nbo_engine_services, detail, sizeof(detail)));
        if (rc == NBO_ERR_MPI)
            return rc;
        if (rc == NBO_SUCCESS) {
            *out = e;
            return NBO_SUCCESS;
        }
        if (!any && rc == NBO_ERR_CONFIG)
            why = rc;
    }
    return why;
}

/* AUTO: a thread when the host must run the waits and the engine gives a
 * descriptor to sleep on; otherwise inline (a thread would have to poll). */
static int choose_progress(struct nbo_comm *c, nbo_progress_mode_t want)
{
    const unsigned caps = c->caps;
    int provided = MPI_THREAD_SINGLE;
    MPI_Query_thread(&provided);
    if (want == NBO_PROGRESS_AUTO) {
        int thread = !(caps & NBO_CAP_HW_WAITS) && (caps & NBO_CAP_EVENT_FD) &&
                     provided == MPI_THREAD_MULTIPLE;
        want = thread ? NBO_PROGRESS_THREAD : NBO_PROGRESS_INLINE;
    }
    /* The thread packs and unpacks with MPI calls, concurrently with the
     * application's MPI calls. */
    if (want == NBO_PROGRESS_THREAD && provided != MPI_THREAD_MULTIPLE)
        return NBO_ERR_THREAD_LEVEL;
    c->cfg.progress = want;
    return NBO_SUCCESS;
}

static void comms_unlink(struct nbo_comm *c)
{
    for (struct nbo_comm **p = &comms; *p; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            break;
        }
    c->next = NULL;
}

int nbo_comm_create(MPI_Comm comm, const nbo_config_t *config, nbo_comm_t *out)
{
    if (!out)
        return NBO_ERR_ARG;
    *out = NBO_COMM_NULL;
    int inited = 0, finalized = 0;
    MPI_Initialized(&inited);
    MPI_Finalized(&finalized);
    if (!inited || finalized)
        return NBO_ERR_MPI;
    if (comm == MPI_COMM_NULL)
        return NBO_ERR_COMM;
    int inter = 0;
    if (MPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || inter)
        return NBO_ERR_COMM;

    struct nbo_comm *c = calloc(1, sizeof(*c));
    if (!c)
        return NBO_ERR_NOMEM; /* before any collective: we cannot agree */
    if (MPI_Comm_dup(comm, &c->comm) != MPI_SUCCESS) {
        free(c);
        return NBO_ERR_MPI;
    }
    MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_RETURN);
    /* Local (a communicator of one): reduce.c asks MPI through it whether
     * an op is defined on a type, and must get an error code, not abort. */
    if (MPI_Comm_dup(MPI_COMM_SELF, &c->self) != MPI_SUCCESS) {
        MPI_Comm_free(&c->comm);
        free(c);
        return NBO_ERR_MPI;
    }
    MPI_Comm_set_errhandler(c->self, MPI_ERRORS_RETURN);
    MPI_Comm_size(c->comm, &c->size);
    MPI_Comm_rank(c->comm, &c->rank);

    int rc = NBO_SUCCESS;
    if (config)
        c->cfg = *config;
    else {
        nbo_config_init(&c->cfg);
        rc = nbo_config_from_env(&c->cfg);
    }
    if (rc == NBO_SUCCESS && !nbo_config_valid(&c->cfg))
        rc = NBO_ERR_CONFIG;
    /* zfp in a build without libzfp: the same code on every rank. */
    if (rc == NBO_SUCCESS && nbo_codec_available(c->cfg.codec, NULL, 0) != NBO_SUCCESS)
        rc = NBO_ERR_CODEC;
    rc = nbo_agree(c->comm, rc);
    if (rc == NBO_SUCCESS)
        rc = choose_engine(c->comm, c->cfg.engine, &c->ops);
    if (rc == NBO_SUCCESS)
        rc = nbo_agree(c->comm, c->ops->open(c->comm, &c->cfg, &nbo_engine_services, &c->ec));
    if (rc != NBO_SUCCESS) {
        if (c->ec) /* another rank failed to open: it may be gone */
            c->ops->close(c->ec, 1);
        MPI_Comm_free(&c->comm);
        MPI_Comm_free(&c->self);
        free(c);
        return rc;
    }
    snprintf(c->cfg.engine, sizeof(c->cfg.engine), "%s", c->ops->name);
    /* Asked once (fixed once the engine is open): a request on device
     * buffers needs NBO_CAP_DEVICE_MEM without taking the lock. */
    char detail[128];
    c->caps = c->ops->caps(c->ec, detail, sizeof(detail));
    rc = nbo_agree(c->comm, choose_progress(c, c->cfg.progress));
    if (rc == NBO_SUCCESS) {
        c->magic = NBO_COMM_MAGIC;
        nbo_comm_source_init(c);
        nbo_lock();
        rc = nbo_progress_add(&c->source);
        if (rc == NBO_SUCCESS) {
            c->next = comms;
            comms = c;
        }
        nbo_unlock();
        rc = nbo_agree(c->comm, rc);
        if (rc != NBO_SUCCESS) {
            nbo_lock();
            comms_unlink(c);
            nbo_progress_remove(&c->source);
            nbo_unlock();
        }
    }
    if (rc != NBO_SUCCESS) {
        c->ops->close(c->ec, 0);
        MPI_Comm_free(&c->comm);
        MPI_Comm_free(&c->self);
        c->magic = 0;
        free(c);
        return rc;
    }
    *out = c;
    return NBO_SUCCESS;
}

int nbo_comm_free(nbo_comm_t *comm)
{
    if (!comm)
        return NBO_ERR_ARG;
    nbo_lock();
    struct nbo_comm *c = nbo_comm_lookup(*comm);
    if (c)
        nbo_cache_clear(c); /* kept calls are no user's requests */
    int rc = !c ? NBO_ERR_COMM : c->live > 0 ? NBO_ERR_PENDING : NBO_SUCCESS;
    int broken = c && c->broken;
    nbo_unlock();
    if (!c)
        return rc;
    /* After a fault the peers may be dead: agreeing would hang, so a broken
     * communicator is released locally.  A whole one agrees, within
     * NBO_TIMEOUT; a peer that does not answer (dead since its last
     * operation) makes it broken too, and it is released all the same, with
     * the error.  NBO_ERR_PENDING leaves it as it was. */
    int fault = NBO_SUCCESS;
    if (!broken) {
        const int local = rc;
        int all = rc;
        const int arc = nbo_agree_min(c, &all, 1);
        rc = arc == NBO_SUCCESS ? all : arc;
        if (local != NBO_SUCCESS) /* live requests here: never released */
            return local;
        if (rc == NBO_ERR_TIMEOUT || rc == NBO_ERR_MPI)
            fault = rc, broken = 1;
        else if (rc != NBO_SUCCESS)
            return rc;
    } else if (rc != NBO_SUCCESS)
        return rc;
    nbo_lock();
    comms_unlink(c);
    nbo_progress_remove(&c->source);
    c->magic = 0;
    nbo_unlock();
    nbo_tune_classes_free(c);
    c->ops->close(c->ec, broken);
    /* After a fault, no MPI call on this communicator: MPICH 4.0 aborts the
     * whole job when its progress engine meets a dead peer, and freeing a
     * communicator runs it.  The duplicate stays with MPI until
     * MPI_Finalize. */
    if (!broken) {
        MPI_Comm_free(&c->comm);
        MPI_Comm_free(&c->self); /* as safe, but a free may run MPI's progress engine */
    }
    free(c);
    *comm = NBO_COMM_NULL;
    return fault;
}

int nbo_comm_query(nbo_comm_t comm, nbo_comm_info_t *info)
{
    if (!info)
        return NBO_ERR_ARG;
    nbo_lock();
    struct nbo_comm *c = nbo_comm_lookup(comm);
    if (c) {
        memset(info, 0, sizeof(*info));
        snprintf(info->engine, sizeof(info->engine), "%s", c->cfg.engine);
        info->progress = c->cfg.progress;
        info->size = c->size;
        info->rank = c->rank;
        info->window = c->cfg.window;
        info->bruck_max = c->cfg.bruck_max;
        info->engine_caps = c->ops->caps(c->ec, info->engine_detail, sizeof(info->engine_detail));
        info->codec = c->cfg.codec;
        info->codec_rate = c->cfg.codec_rate;
    }
    nbo_unlock();
    return c ? NBO_SUCCESS : NBO_ERR_COMM;
}
