/*
 * agree.c - agreements among a communicator's ranks made inside libnbo's
 * calls (nbo_comm_free, the first start of a persistent request).  Each is
 * bounded by NBO_TIMEOUT, because a peer that died after its last
 * operation leaves no broken mark and a blocking MPI_Allreduce would wait
 * for it forever; and each keeps the process's requests moving while it
 * waits, because in inline mode nothing else drives them and a peer may
 * need our earlier messages before it reaches the agreement.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* A timed-out MPI_Iallreduce cannot be cancelled and may still write its
 * result, so its buffers are parked here, reachable, for the life of the
 * process (one small block per agreement that timed out). */
struct parked_agreement {
    int                      in[NBO_AGREE_MAX], out[NBO_AGREE_MAX];
    MPI_Request              req;
    struct parked_agreement *next;
};
static struct parked_agreement *parked;

int nbo_agree_min(struct nbo_comm *c, int *v, int n)
{
    if (n < 1 || n > NBO_AGREE_MAX)
        return NBO_ERR_INTERNAL;
    struct parked_agreement *a = calloc(1, sizeof(*a));
    if (!a)
        return NBO_ERR_NOMEM;
    memcpy(a->in, v, (size_t)n * sizeof(int));
    if (MPI_Iallreduce(a->in, a->out, n, MPI_INT, MPI_MIN, c->comm, &a->req) != MPI_SUCCESS) {
        free(a);
        return NBO_ERR_MPI;
    }
    const double t0 = nbo_now();
    const int timeout_ms = c->cfg.timeout_ms;
    int rc = NBO_ERR_MPI;
    for (;;) {
        int done = 0;
        if (MPI_Test(&a->req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            break; /* the request is in an unknown state: park it */
        if (done) {
            memcpy(v, a->out, (size_t)n * sizeof(int));
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
    nbo_lock();
    a->next = parked;
    parked = a;
    nbo_unlock();
    return rc;
}
