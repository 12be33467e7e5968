/*
 * exchange.c - the all-to-all exchanges of the two transposes.
 *
 * The row exchange is always a blocking MPI_Alltoallv on ROW (the paper
 * keeps it blocking: it stays inside a node).  The column exchange of
 * buffer set k is
 *   BLOCKING       MPI_Alltoallv on COL
 *   PIPELINED_MPI  MPI_Ialltoallv ... MPI_Wait
 *   PIPELINED_NBO  nbo_start ... nbo_wait of a persistent request made at
 *                  plan time (nbo_alltoallv_init: compiled once)
 * Backward exchanges swap the forward send and receive descriptions.
 */
#include <stdio.h>

#include "p3o_internal.h"

static int mpi_fail(const char *what, int e)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(e, msg, &len) != MPI_SUCCESS)
        snprintf(msg, sizeof(msg), "MPI error %d", e);
    return p3o_fail(P3O_ERR_MPI, "%s: %s", what, msg);
}

/* The send and receive sides of an exchange in direction dir. */
static void sides(const p3o_xfer_t *x, int dir, const int **sc, const int **sd, const int **rc,
                  const int **rd)
{
    *sc = dir == P3O_FWD ? x->scnt : x->rcnt;
    *sd = dir == P3O_FWD ? x->sdsp : x->rdsp;
    *rc = dir == P3O_FWD ? x->rcnt : x->scnt;
    *rd = dir == P3O_FWD ? x->rdsp : x->sdsp;
}

int p3o_row_exchange(struct p3o_plan *p, int dir)
{
    if (p->row == 1)
        return P3O_SUCCESS; /* nothing to move: unpack reads the send buffer */
    const int *sc, *sd, *rc, *rd;
    sides(&p->rowx, dir, &sc, &sd, &rc, &rd);
    int e = MPI_Alltoallv(p->row_send, sc, sd, p->ctype, p->row_recv, rc, rd, p->ctype,
                          p->row_comm);
    return e == MPI_SUCCESS ? P3O_SUCCESS : mpi_fail("row MPI_Alltoallv", e);
}

int p3o_col_exchange(struct p3o_plan *p, int dir, int k)
{
    const int *sc, *sd, *rc, *rd;
    sides(&p->colx, dir, &sc, &sd, &rc, &rd);
    int e = MPI_Alltoallv(p->col_send[k], sc, sd, p->ctype, p->col_recv[k], rc, rd, p->ctype,
                          p->col_comm);
    return e == MPI_SUCCESS ? P3O_SUCCESS : mpi_fail("column MPI_Alltoallv", e);
}

int p3o_col_start(struct p3o_plan *p, int dir, int k)
{
    if (p->mode == P3O_PIPELINED_NBO) {
        int rc = nbo_start(&p->nreq[dir][k]);
        return rc == NBO_SUCCESS ? P3O_SUCCESS
                                 : p3o_fail(P3O_ERR_NBO, "nbo_start: %s", nbo_strerror(rc));
    }
    const int *sc, *sd, *rc, *rd;
    sides(&p->colx, dir, &sc, &sd, &rc, &rd);
    int e = MPI_Ialltoallv(p->col_send[k], sc, sd, p->ctype, p->col_recv[k], rc, rd, p->ctype,
                           p->col_comm, &p->mreq[k]);
    return e == MPI_SUCCESS ? P3O_SUCCESS : mpi_fail("column MPI_Ialltoallv", e);
}

int p3o_col_wait(struct p3o_plan *p, int dir, int k)
{
    if (p->mode == P3O_PIPELINED_NBO) {
        int rc = nbo_wait(&p->nreq[dir][k]);
        return rc == NBO_SUCCESS ? P3O_SUCCESS
                                 : p3o_fail(P3O_ERR_NBO, "nbo_wait: %s", nbo_strerror(rc));
    }
    int e = MPI_Wait(&p->mreq[k], MPI_STATUS_IGNORE);
    return e == MPI_SUCCESS ? P3O_SUCCESS : mpi_fail("column MPI_Wait", e);
}

/* ---------------------------------------------------------------- libnbo */

/* Collective over COL.  Leaves p->ncomm NULL on failure. */
int p3o_nbo_setup(struct p3o_plan *p, const nbo_config_t *cfg)
{
    int rc = nbo_comm_create(p->col_comm, cfg, &p->ncomm);
    if (rc != NBO_SUCCESS) {
        p->ncomm = NBO_COMM_NULL;
        return p3o_fail(P3O_ERR_NBO, "nbo_comm_create on the column communicator: %s",
                        nbo_strerror(rc));
    }
    for (int dir = 0; dir < 2; dir++)
        for (int k = 0; k < 2; k++) {
            const int *sc, *sd, *rcn, *rd;
            sides(&p->colx, dir, &sc, &sd, &rcn, &rd);
            rc = nbo_alltoallv_init(p->col_send[k], sc, sd, p->ctype, p->col_recv[k], rcn, rd,
                                    p->ctype, p->ncomm, &p->nreq[dir][k]);
            if (rc != NBO_SUCCESS)
                return p3o_fail(P3O_ERR_NBO, "nbo_alltoallv_init (%s, buffer %d): %s",
                                dir == P3O_FWD ? "forward" : "backward", k, nbo_strerror(rc));
        }
    return P3O_SUCCESS;
}

/* Collective over COL. */
void p3o_nbo_teardown(struct p3o_plan *p)
{
    for (int dir = 0; dir < 2; dir++)
        for (int k = 0; k < 2; k++)
            if (p->nreq[dir][k] != NBO_REQUEST_NULL)
                nbo_request_free(&p->nreq[dir][k]);
    if (p->ncomm != NBO_COMM_NULL)
        nbo_comm_free(&p->ncomm);
}
