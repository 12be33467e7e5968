/* mpi_post.c - post a window of SEND/RECV tasks as MPI_Isend/MPI_Irecv. */
#include <stdlib.h>

#include "../../util/mpi_compat.h"
#include "mpi_engine.h"

static int reserve(nbo_engine_comm_t *ec, int n)
{
    if (ec->n + n <= ec->cap)
        return NBO_SUCCESS;
    int cap = ec->cap ? ec->cap : 64;
    while (cap < ec->n + n)
        cap *= 2;
    MPI_Request *r = realloc(ec->reqs, (size_t)cap * sizeof(*r));
    if (r)
        ec->reqs = r;
    mpi_op_t *o = realloc(ec->ops, (size_t)cap * sizeof(*o));
    if (o)
        ec->ops = o;
    int *i = realloc(ec->idx, (size_t)cap * sizeof(*i));
    if (i)
        ec->idx = i;
    MPI_Status *st = realloc(ec->st, (size_t)cap * sizeof(*st));
    if (st)
        ec->st = st;
    if (!r || !o || !i || !st)
        return NBO_ERR_NOMEM;
    ec->cap = cap;
    return NBO_SUCCESS;
}

int mpi_engine_post(nbo_engine_comm_t *ec, nbo_exec_t *x, int first, int n)
{
    int rc = reserve(ec, n);
    if (rc != NBO_SUCCESS)
        return rc;
    const int tag = (int)(x->tag % ((unsigned)ec->tag_ub + 1u));
    int posted = ec->n;
    for (int i = first; i < first + n; i++) {
        const nbo_task_t *t = &x->tasks[i];
        char *p = (char *)x->buf[t->buf] + t->off;
        MPI_Request *mr = &ec->reqs[ec->n];
        int e = t->kind == NBO_TASK_SEND
                    ? nbo_mpi_isend(p, (MPI_Count)t->len, MPI_BYTE, t->peer, tag, ec->comm, mr)
                    : nbo_mpi_irecv(p, (MPI_Count)t->len, MPI_BYTE, t->peer, tag, ec->comm, mr);
        if (e != MPI_SUCCESS) {
            /* Withdraw what this call posted: all or nothing. */
            for (int j = posted; j < ec->n; j++) {
                PMPI_Cancel(&ec->reqs[j]);
                PMPI_Wait(&ec->reqs[j], MPI_STATUS_IGNORE);
            }
            ec->n = posted;
            return NBO_ERR_MPI;
        }
        ec->ops[ec->n].x = x;
        ec->ops[ec->n].task = i;
        ec->n++;
    }
    return NBO_SUCCESS;
}
