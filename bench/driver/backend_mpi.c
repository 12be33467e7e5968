/* backend_mpi.c - the mpi backend: MPI's own calls, as an unmodified MPI
 * program makes them (blocking, non-blocking or persistent, m->form).
 * With libnbo-mpi.so preloaded these are the calls it serves. */
#include "bench.h"

static int mpi_open(method_t *m, char *why, size_t whylen)
{
    (void)whylen;
    why[0] = '\0';
    for (int i = 0; i < BENCH_MAX_CONC; i++)
        m->mreq[i] = MPI_REQUEST_NULL;
    return 0;
}

static void mpi_close(method_t *m) { (void)m; }

static int mpi_prepare(method_t *m, coll_op_t *op)
{
    if (m->form != FORM_PERSISTENT)
        return 0;
    for (int i = 0; i < m->conc; i++) {
        int rc = coll_op_mpi(op, i, FORM_PERSISTENT, &m->mreq[i]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return 0;
}

static void mpi_unprepare(method_t *m, coll_op_t *op)
{
    (void)op;
    for (int i = 0; i < m->conc; i++)
        if (m->mreq[i] != MPI_REQUEST_NULL)
            MPI_Request_free(&m->mreq[i]);
}

static int mpi_start(method_t *m, coll_op_t *op)
{
    for (int i = 0; i < m->conc; i++) {
        int rc = m->form == FORM_PERSISTENT ? MPI_Start(&m->mreq[i])
                 : m->form == FORM_BLOCKING ? coll_op_mpi(op, i, FORM_BLOCKING, NULL)
                                            : coll_op_mpi(op, i, FORM_NONBLOCKING, &m->mreq[i]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return 0;
}

static int mpi_test(method_t *m, coll_op_t *op, int *done)
{
    (void)op;
    *done = 1;
    for (int i = 0; i < m->conc && m->form != FORM_BLOCKING; i++) {
        int flag = 1, rc = MPI_Test(&m->mreq[i], &flag, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        *done &= flag;
    }
    return 0;
}

static int mpi_wait(method_t *m, coll_op_t *op)
{
    (void)op;
    /* One by one: gcc takes MPICH's MPI_STATUSES_IGNORE for an array. */
    for (int i = 0; i < m->conc && m->form != FORM_BLOCKING; i++) {
        int rc = MPI_Wait(&m->mreq[i], MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return 0;
}

int backend_mpi_blocking(method_t *m, coll_op_t *op)
{
    for (int i = 0; i < m->conc; i++) {
        int rc = coll_op_mpi(op, i, FORM_BLOCKING, NULL);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return 0;
}

static int mpi_sync(method_t *m) { return MPI_Barrier(m->world); }

const backend_t bench_backend_mpi = {
    .api = "mpi", .open = mpi_open, .close = mpi_close, .prepare = mpi_prepare,
    .unprepare = mpi_unprepare, .start = mpi_start, .test = mpi_test, .wait = mpi_wait,
    .blocking = backend_mpi_blocking, .sync = mpi_sync,
};
