/*
 * agree.c - agreements among a communicator's ranks made inside libnbo's
 * calls (nbo_comm_free, the first start of a persistent request, the
 * tuner's trial and drift checks).  Each is
 * bounded by NBO_TIMEOUT, because a peer that died after its last
 * operation leaves no broken mark and a blocking MPI_Allreduce would wait
 * for it forever; and each keeps the process's requests moving while it
 * waits, because in inline mode nothing else drives them and a peer may
 * need our earlier messages before it reaches the agreement.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* An MPI_Iallreduce that timed out or was dropped cannot be cancelled and
 * may still write its result, so its buffers are parked here, reachable,
 * for the life of the process (one small block each).  Its own mutex: a
 * request being destroyed under nbo_lock drops its agreement. */
struct nbo_agreement {
    int                  in[NBO_AGREE_MAX], out[NBO_AGREE_MAX];
    int                  n;
    MPI_Request          req;
    struct nbo_agreement *next;
};
static struct nbo_agreement *parked;
static pthread_mutex_t parked_mutex = PTHREAD_MUTEX_INITIALIZER;

struct nbo_agreement *nbo_agree_begin(struct nbo_comm *c, const int *v, int n)
{
    if (n < 1 || n > NBO_AGREE_MAX)
        return NULL;
    struct nbo_agreement *a = calloc(1, sizeof(*a));
    if (!a)
        return NULL;
    memcpy(a->in, v, (size_t)n * sizeof(int));
    a->n = n;
    if (MPI_Iallreduce(a->in, a->out, n, MPI_INT, MPI_MIN, c->comm, &a->req) != MPI_SUCCESS) {
        free(a);
        return NULL;
    }
    return a;
}

void nbo_agree_drop(struct nbo_agreement *a)
{
    if (!a)
        return;
    pthread_mutex_lock(&parked_mutex);
    a->next = parked;
    parked = a;
    pthread_mutex_unlock(&parked_mutex);
}

int nbo_agree_end(struct nbo_comm *c, struct nbo_agreement *a, int *v)
{
    const double t0 = nbo_now();
    const int timeout_ms = c->cfg.timeout_ms;
    int rc = NBO_ERR_MPI;
    for (;;) {
        int done = 0;
        if (MPI_Test(&a->req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            break; /* the request is in an unknown state: park it */
        if (done) {
            memcpy(v, a->out, (size_t)a->n * sizeof(int));
            free(a);
            return NBO_SUCCESS;
        }
        if (timeout_ms > 0 && (nbo_now() - t0) * 1e3 > timeout_ms) {
            rc = NBO_ERR_TIMEOUT;
            break;
        }
        nbo_lock();
        nbo_progress_poll(c->cfg.progress);
        nbo_unlock();
    }
    nbo_agree_drop(a);
    return rc;
}

int nbo_agree_min(struct nbo_comm *c, int *v, int n)
{
    if (n < 1 || n > NBO_AGREE_MAX)
        return NBO_ERR_INTERNAL;
    struct nbo_agreement *a = nbo_agree_begin(c, v, n);
    return a ? nbo_agree_end(c, a, v) : NBO_ERR_MPI;
}
