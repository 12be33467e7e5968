/* backend_nbo.c - the nbo backend: libnbo's API on a communicator of its
 * own (one engine, progress mode, window and codec per method). */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>

static void say(const method_t *m, const char *what, int rc)
{
    fprintf(stderr, "nbo_bench: %s %s: %s\n", m->name, what, nbo_strerror(rc));
}

/* The row's barrier: a 1-byte all-to-all completes on a rank only once
 * every peer has started it, and its bytes queue behind the row's own data
 * on the same connections, as MPI_Barrier's do behind those of MPI's own
 * collective. */
static int barrier_open(method_t *m)
{
    int P;
    MPI_Comm_size(m->world, &P);
    m->barrier_buf = calloc(2, (size_t)P);
    if (!m->barrier_buf)
        return NBO_ERR_NOMEM;
    return nbo_alltoall_init(m->barrier_buf, 1, MPI_BYTE, m->barrier_buf + P, 1, MPI_BYTE,
                             m->comm, &m->barrier);
}

static void nbo_close(method_t *m)
{
    if (m->barrier != NBO_REQUEST_NULL)
        nbo_request_free(&m->barrier);
    free(m->barrier_buf);
    m->barrier_buf = NULL;
    if (m->comm != NBO_COMM_NULL) {
        int rc = nbo_comm_free(&m->comm);
        if (rc != NBO_SUCCESS)
            say(m, "nbo_comm_free", rc);
    }
}

/* Says in why what AUTO resolved to, or the engine's detail. */
static void describe(method_t *m, char *why, size_t whylen)
{
    nbo_comm_info_t info;
    if (nbo_comm_query(m->comm, &info) != NBO_SUCCESS)
        return;
    int len;
    if (info.engine != m->config.engine || info.progress != m->config.progress)
        len = snprintf(why, whylen, "resolved to %s/%s", info.engine,
                       nbo_progress_name(info.progress));
    else
        len = snprintf(why, whylen, "%s", info.engine_detail);
    if (info.codec != NBO_CODEC_NONE && len >= 0 && (size_t)len < whylen)
        snprintf(why + len, whylen - (size_t)len, "; codec %s, %d bits per value",
                 nbo_codec_name(info.codec), info.codec == NBO_CODEC_ZFP ? info.codec_rate : 32);
}

static int nbo_open(method_t *m, char *why, size_t whylen)
{
    m->comm = NBO_COMM_NULL;
    m->barrier = NBO_REQUEST_NULL;
    m->barrier_buf = NULL;
    why[0] = '\0';
    for (int i = 0; i < BENCH_MAX_CONC; i++)
        m->nreq[i] = NBO_REQUEST_NULL;
    int rc = nbo_comm_create(m->world, &m->config, &m->comm);
    /* Creation is collective; make the outcome the same everywhere so a
     * rank that succeeded does not go on alone. */
    int worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, m->world);
    if (worst != NBO_SUCCESS) {
        if (rc == NBO_SUCCESS)
            nbo_comm_free(&m->comm);
        m->comm = NBO_COMM_NULL;
        snprintf(why, whylen, "nbo_comm_create: %s", nbo_strerror(worst));
        return worst;
    }
    rc = m->own_barrier ? barrier_open(m) : NBO_SUCCESS;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, m->world);
    if (worst != NBO_SUCCESS) {
        nbo_close(m);
        snprintf(why, whylen, "barrier: %s", nbo_strerror(worst));
        return worst;
    }
    describe(m, why, whylen);
    return 0;
}

static int nbo_prepare(method_t *m, coll_op_t *op)
{
    for (int i = 0; i < m->conc && m->persistent; i++) {
        int rc = coll_op_nbo(op, i, 1, m->comm, &m->nreq[i]);
        if (rc != NBO_SUCCESS) {
            say(m, "persistent init", rc);
            return rc;
        }
    }
    return 0;
}

static void nbo_unprepare(method_t *m, coll_op_t *op)
{
    (void)op;
    for (int i = 0; i < m->conc; i++)
        if (m->nreq[i] != NBO_REQUEST_NULL)
            nbo_request_free(&m->nreq[i]);
}

static int nbo_start_all(method_t *m, coll_op_t *op)
{
    for (int i = 0; i < m->conc; i++) {
        int rc = m->persistent ? nbo_start(&m->nreq[i]) : coll_op_nbo(op, i, 0, m->comm, &m->nreq[i]);
        if (rc != NBO_SUCCESS) {
            say(m, "start", rc);
            return rc;
        }
    }
    return 0;
}

static int nbo_test_all(method_t *m, coll_op_t *op, int *done)
{
    (void)op;
    *done = 1;
    for (int i = 0; i < m->conc; i++) {
        int flag = 1, rc = m->nreq[i] != NBO_REQUEST_NULL ? nbo_test(&m->nreq[i], &flag) : 0;
        if (rc != NBO_SUCCESS)
            return rc;
        *done &= flag;
    }
    return 0;
}

static int nbo_wait_all(method_t *m, coll_op_t *op)
{
    (void)op;
    int rc = nbo_waitall(m->conc, m->nreq);
    if (rc != NBO_SUCCESS)
        say(m, "wait", rc);
    return rc;
}

static int nbo_sync(method_t *m)
{
    if (m->barrier == NBO_REQUEST_NULL)
        return MPI_Barrier(m->world);
    int rc = nbo_start(&m->barrier);
    if (rc == NBO_SUCCESS)
        rc = nbo_wait(&m->barrier);
    if (rc != NBO_SUCCESS)
        say(m, "barrier", rc);
    return rc;
}

const backend_t bench_backend_nbo = {
    .api = "nbo", .open = nbo_open, .close = nbo_close, .prepare = nbo_prepare,
    .unprepare = nbo_unprepare, .start = nbo_start_all, .test = nbo_test_all,
        /* The application loop's blocking form: MPI's, on the same ranks. */
    .wait = nbo_wait_all, .blocking = backend_mpi_blocking, .sync = nbo_sync,
};
