/* methods.c - start/test/wait of each way of doing the collective (-C). */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The nbo row's barrier: a 1-byte all-to-all completes on a rank only
 * once every peer has started it, and its bytes queue behind the row's
 * own data on the same connections, as MPI_Barrier's do behind those of
 * MPI's own collective. */
static int barrier_open(method_t *m, MPI_Comm comm)
{
    int P;
    MPI_Comm_size(comm, &P);
    m->barrier_buf = calloc(2, (size_t)P);
    if (!m->barrier_buf)
        return NBO_ERR_NOMEM;
    return nbo_alltoall_init(m->barrier_buf, 1, MPI_BYTE, m->barrier_buf + P, 1, MPI_BYTE,
                             m->comm, &m->barrier);
}

int method_open(method_t *m, MPI_Comm comm, char *why, size_t whylen)
{
    m->barrier = NBO_REQUEST_NULL;
    m->barrier_buf = NULL;
    why[0] = '\0';
    for (int i = 0; i < BENCH_MAX_CONC; i++) {
        m->mreq[i] = MPI_REQUEST_NULL;
        m->nreq[i] = NBO_REQUEST_NULL;
    }
    if (m->kind != METHOD_NBO)
        return 0;

    int rc = nbo_comm_create(comm, &m->config, &m->comm);
    /* Creation is collective; make the outcome the same everywhere so a
     * rank that succeeded does not go on alone. */
    int worst = rc;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, comm);
    if (worst != NBO_SUCCESS) {
        if (rc == NBO_SUCCESS)
            nbo_comm_free(&m->comm);
        m->comm = NBO_COMM_NULL;
        snprintf(why, whylen, "%s", nbo_strerror(worst));
        return worst;
    }
    rc = m->own_barrier ? barrier_open(m, comm) : NBO_SUCCESS;
    MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MIN, comm);
    if (worst != NBO_SUCCESS) {
        method_close(m);
        snprintf(why, whylen, "barrier: %s", nbo_strerror(worst));
        return worst;
    }
    nbo_comm_info_t info;
    if (nbo_comm_query(m->comm, &info) == NBO_SUCCESS) {
        /* AUTO resolves to something concrete: say what ran. */
        int len;
        if (info.engine != m->config.engine || info.progress != m->config.progress)
            len = snprintf(why, whylen, "resolved to %s/%s", info.engine,
                           nbo_progress_name(info.progress));
        else
            len = snprintf(why, whylen, "%s", info.engine_detail);
        if (info.codec != NBO_CODEC_NONE && len >= 0 && (size_t)len < whylen)
            snprintf(why + len, whylen - (size_t)len, "; codec %s, %d bits per value",
                     nbo_codec_name(info.codec),
                     info.codec == NBO_CODEC_ZFP ? info.codec_rate : 32);
    }
    return 0;
}

void method_close(method_t *m)
{
    if (m->barrier != NBO_REQUEST_NULL)
        nbo_request_free(&m->barrier);
    free(m->barrier_buf);
    m->barrier_buf = NULL;
    if (m->kind == METHOD_NBO && m->comm != NBO_COMM_NULL) {
        int rc = nbo_comm_free(&m->comm);
        if (rc != NBO_SUCCESS)
            fprintf(stderr, "nbo_overlap: nbo_comm_free(%s): %s\n", m->name, nbo_strerror(rc));
    }
}

int method_prepare(method_t *m, buffers_t *b, MPI_Comm comm)
{
    (void)comm;
    if (m->kind != METHOD_NBO || !m->persistent)
        return 0;
    for (int i = 0; i < m->conc; i++) {
        int rc = coll_nbo(m->coll, coll_block(b, b->send, i), coll_block(b, b->recv, i), b->size,
                          m->comm, 1, &m->nreq[i]);
        if (rc != NBO_SUCCESS) {
            fprintf(stderr, "nbo_overlap: nbo_%s_init: %s\n", coll_name(m->coll),
                    nbo_strerror(rc));
            return rc;
        }
    }
    return 0;
}

void method_unprepare(method_t *m)
{
    if (m->kind != METHOD_NBO || !m->persistent)
        return;
    for (int i = 0; i < m->conc; i++)
        if (m->nreq[i] != NBO_REQUEST_NULL)
            nbo_request_free(&m->nreq[i]);
}

int method_start(method_t *m, buffers_t *b, MPI_Comm comm)
{
    for (int i = 0; i < m->conc; i++) {
        char *s = coll_block(b, b->send, i), *r = coll_block(b, b->recv, i);
        int rc;
        switch (m->kind) {
        case METHOD_BLOCKING:
            rc = coll_mpi(m->coll, s, r, b->size, comm, NULL);
            break;
        case METHOD_MPI_NB:
            rc = coll_mpi(m->coll, s, r, b->size, comm, &m->mreq[i]);
            break;
        default:
            rc = m->persistent ? nbo_start(&m->nreq[i])
                               : coll_nbo(m->coll, s, r, b->size, m->comm, 0, &m->nreq[i]);
            if (rc != NBO_SUCCESS)
                fprintf(stderr, "nbo_overlap: %s start: %s\n", m->name, nbo_strerror(rc));
            break;
        }
        if (rc != 0)
            return rc;
    }
    return 0;
}

int method_test(method_t *m, int *done)
{
    *done = 1;
    for (int i = 0; i < m->conc; i++) {
        int flag = 1, rc = 0;
        if (m->kind == METHOD_MPI_NB)
            rc = MPI_Test(&m->mreq[i], &flag, MPI_STATUS_IGNORE);
        else if (m->kind == METHOD_NBO && m->nreq[i] != NBO_REQUEST_NULL)
            rc = nbo_test(&m->nreq[i], &flag);
        if (rc != 0)
            return rc;
        *done &= flag;
    }
    return 0;
}

int method_wait(method_t *m)
{
    switch (m->kind) {
    case METHOD_BLOCKING:
        return 0;
    case METHOD_MPI_NB:
        /* One by one: gcc takes MPICH's MPI_STATUSES_IGNORE for an array. */
        for (int i = 0; i < m->conc; i++) {
            int rc = MPI_Wait(&m->mreq[i], MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                return rc;
        }
        return 0;
    default: {
        int rc = nbo_waitall(m->conc, m->nreq);
        if (rc != NBO_SUCCESS)
            fprintf(stderr, "nbo_overlap: %s wait: %s\n", m->name, nbo_strerror(rc));
        return rc;
    }
    }
}

int method_barrier(method_t *m, MPI_Comm comm)
{
    if (m->barrier == NBO_REQUEST_NULL)
        return MPI_Barrier(comm);
    int rc = nbo_start(&m->barrier);
    if (rc == NBO_SUCCESS)
        rc = nbo_wait(&m->barrier);
    if (rc != NBO_SUCCESS)
        fprintf(stderr, "nbo_overlap: %s barrier: %s\n", m->name, nbo_strerror(rc));
    return rc;
}
