/* backend_sockets.c - the sockets backend, the testbed's ceiling: the
 * all-to-all's bytes over plain TCP sockets (sockets.c), timed alone by
 * the calling thread and overlapped on a thread of its own that sleeps in
 * poll(), as the simplest library would. */
#include "bench.h"

#include <stdio.h>

static int sockets_open(method_t *m, char *why, size_t whylen)
{
    m->mesh = socket_mesh_open(m->world, why, whylen);
    if (!m->mesh)
        return -1;
    snprintf(why, whylen, "plain TCP sockets, the exchange on a thread of its own; "
                          "CPU-bound = 100 * (1 - CPU pure / Pure Comm.)");
    return 0;
}

static void sockets_close(method_t *m)
{
    socket_mesh_close(m->mesh);
    m->mesh = NULL;
}

/* The worker owns the sockets only while an exchange runs: the barrier
 * and the pure phase's exchanges between them may use them. */
static int sockets_prepare(method_t *m, coll_op_t *op)
{
    (void)op;
    m->worker = socket_worker_start(m->mesh);
    return m->worker ? 0 : -1;
}

static void sockets_unprepare(method_t *m, coll_op_t *op)
{
    (void)op;
    socket_worker_stop(m->worker);
    m->worker = NULL;
}

static int sockets_start(method_t *m, coll_op_t *op)
{
    socket_worker_post(m->worker, op);
    return 0;
}

static int sockets_wait(method_t *m, coll_op_t *op)
{
    (void)op;
    return socket_worker_wait(m->worker);
}

static int sockets_once(method_t *m, coll_op_t *op)
{
    return socket_mesh_alltoall(m->mesh, op->send, op->recv, op->size);
}

static int sockets_sync(method_t *m)
{
    return m->own_barrier ? socket_mesh_barrier(m->mesh) : MPI_Barrier(m->world);
}

const backend_t bench_backend_sockets = {
    .api = "sockets", .open = sockets_open, .close = sockets_close,
    .prepare = sockets_prepare, .unprepare = sockets_unprepare, .start = sockets_start,
    .wait = sockets_wait, .once = sockets_once,
    .blocking = sockets_once, .sync = sockets_sync,
};
