/* mpi_progress.c - completions with MPI_Testsome, and cancellation. */
#include "mpi_engine.h"

/* Drop finished slots (reqs[i] == MPI_REQUEST_NULL), keeping order. */
static void compact(nbo_engine_comm_t *ec)
{
    int k = 0;
    for (int i = 0; i < ec->n; i++)
        if (ec->reqs[i] != MPI_REQUEST_NULL) {
            ec->reqs[k] = ec->reqs[i];
            ec->ops[k] = ec->ops[i];
            k++;
        }
    ec->n = k;
}

int mpi_engine_progress(nbo_engine_comm_t *ec)
{
    if (ec->n == 0)
        return 0;
    int out = 0;
    int e = PMPI_Testsome(ec->n, ec->reqs, &out, ec->idx, ec->st);
    if (e != MPI_SUCCESS) {
        /* Which request failed is in the statuses we did not ask for; fail
         * them all rather than guess. */
        for (int i = 0; i < ec->n; i++)
            if (ec->reqs[i] != MPI_REQUEST_NULL) {
                PMPI_Cancel(&ec->reqs[i]);
                PMPI_Request_free(&ec->reqs[i]);
            }
        for (int i = 0; i < ec->n; i++)
            ec->sv->complete(ec->ops[i].x, ec->ops[i].task, NBO_ERR_MPI);
        ec->n = 0;
        return NBO_ERR_MPI;
    }
    if (out == MPI_UNDEFINED || out == 0)
        return 0;
    for (int j = 0; j < out; j++) {
        mpi_op_t *o = &ec->ops[ec->idx[j]];
        ec->sv->complete(o->x, o->task, NBO_SUCCESS);
    }
    compact(ec);
    return out;
}

void mpi_engine_cancel(nbo_engine_comm_t *ec, nbo_exec_t *x)
{
    for (int i = 0; i < ec->n; i++) {
        if (ec->ops[i].x != x || ec->reqs[i] == MPI_REQUEST_NULL)
            continue;
        /* A receive cancels for certain.  A send MPI may refuse to cancel;
         * then it is left to finish on its own (the peer's receive is gone
         * or will match it) and we stop tracking it. */
        PMPI_Cancel(&ec->reqs[i]);
        int done = 0;
        for (int spins = 0; !done && spins < 1000; spins++)
            PMPI_Test(&ec->reqs[i], &done, MPI_STATUS_IGNORE);
        if (!done)
            PMPI_Request_free(&ec->reqs[i]);
        ec->reqs[i] = MPI_REQUEST_NULL;
        ec->sv->complete(x, ec->ops[i].task, NBO_ERR_TIMEOUT);
    }
    compact(ec);
}
