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
 *
 * Compression (options.codec, PIPELINED_NBO): the libnbo communicator of
 * the column exchange carries the codec; with compress_row the row
 * exchange runs as a libnbo persistent request on the ROW communicator too
 * (nbo_start + nbo_wait at once: it stays blocking in the pipeline).
 *
 * GPU plans: MPI gets pinned host mirrors (copied from the device after
 * the stream has finished the pack, and back before the unpack) for the
 * other processes' blocks; the own block is copied on the device.  libnbo
 * gets the device buffers and stages them itself.
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

/* ------------------------------------------------------------ GPU plans
 * MPI moves the blocks of the other processes between pinned host mirrors;
 * the own block is copied on the device and never crosses PCIe.  Copies
 * are queued on the plan's stream and waited for once per side. */

/* Counts for MPI in direction dir: the own block 0. */
static void peer_counts(const p3o_xfer_t *x, int dir, const int **sc, const int **rc)
{
    *sc = dir == P3O_FWD ? x->scnt_peers : x->rcnt_peers;
    *rc = dir == P3O_FWD ? x->rcnt_peers : x->scnt_peers;
}

/* Queue the copies of the other processes' blocks of one side between
 * device buffer and host mirror: the blocks before the own one and those
 * after it, two ranges, as displacements are prefix sums. */
static int mirror_peers(struct p3o_plan *p, const p3o_xfer_t *x, const int *cnt, const int *dsp,
                        void *dst, const void *src)
{
    const size_t es = p->es, own = (size_t)dsp[x->me], after = own + (size_t)cnt[x->me];
    const size_t end = (size_t)dsp[x->m - 1] + (size_t)cnt[x->m - 1];
    int r = p3o_cuda_copy(p, dst, src, own * es);
    if (r == P3O_SUCCESS && end > after)
        r = p3o_cuda_copy(p, (char *)dst + after * es, (const char *)src + after * es,
                          (end - after) * es);
    return r;
}

/* Before MPI starts: the own block on the device, the others to the host. */
static int gpu_pre(struct p3o_plan *p, const p3o_xfer_t *x, const int *sc, const int *sd,
                   const int *rd, const void *send, void *recv, void *send_h)
{
    int r = p3o_cuda_copy(p, (char *)recv + (size_t)rd[x->me] * p->es,
                          (const char *)send + (size_t)sd[x->me] * p->es,
                          (size_t)sc[x->me] * p->es);
    if (r == P3O_SUCCESS)
        r = mirror_peers(p, x, sc, sd, send_h, send);
    return r == P3O_SUCCESS ? p3o_cuda_sync(p) : r;
}

/* After MPI is done: the received blocks back to the device. */
static int gpu_post(struct p3o_plan *p, const p3o_xfer_t *x, const int *rc, const int *rd,
                    void *recv, const void *recv_h)
{
    int r = mirror_peers(p, x, rc, rd, recv, recv_h);
    return r == P3O_SUCCESS ? p3o_cuda_sync(p) : r;
}

/* ------------------------------------------------------------ exchanges */

/* Blocking MPI_Alltoallv; GPU plans through the host mirrors. */
static int alltoallv(struct p3o_plan *p, const p3o_xfer_t *x, int dir, void *send, void *recv,
                     void *send_h, void *recv_h, MPI_Comm comm, const char *what)
{
    const int *sc, *sd, *rc, *rd, *msc, *mrc; /* m: what MPI moves */
    sides(x, dir, &sc, &sd, &rc, &rd);
    msc = sc, mrc = rc;
    if (p->gpu) {
        peer_counts(x, dir, &msc, &mrc);
        int r = gpu_pre(p, x, sc, sd, rd, send, recv, send_h);
        if (r != P3O_SUCCESS)
            return r;
    }
    int e = MPI_Alltoallv(p->gpu ? send_h : send, msc, sd, p->ctype, p->gpu ? recv_h : recv, mrc,
                          rd, p->ctype, comm);
    if (e != MPI_SUCCESS)
        return mpi_fail(what, e);
    return p->gpu ? gpu_post(p, x, rc, rd, recv, recv_h) : P3O_SUCCESS;
}

int p3o_row_exchange(struct p3o_plan *p, int dir)
{
    if (p->row == 1)
        return P3O_SUCCESS; /* nothing to move: unpack reads the send buffer */
    if (p->nrow != NBO_COMM_NULL) { /* compressed, through libnbo */
        int rc = nbo_start(&p->rreq[dir]);
        if (rc == NBO_SUCCESS)
            rc = nbo_wait(&p->rreq[dir]);
        return rc == NBO_SUCCESS ? P3O_SUCCESS
                                 : p3o_fail(P3O_ERR_NBO, "row exchange (libnbo): %s",
                                            nbo_strerror(rc));
    }
    return alltoallv(p, &p->rowx, dir, p->row_send, p->row_recv, p->row_send_h, p->row_recv_h,
                     p->row_comm, "row MPI_Alltoallv");
}

int p3o_col_exchange(struct p3o_plan *p, int dir, int k)
{
    return alltoallv(p, &p->colx, dir, p->col_send[k], p->col_recv[k], p->col_send_h[k],
                     p->col_recv_h[k], p->col_comm, "column MPI_Alltoallv");
}

int p3o_col_start(struct p3o_plan *p, int dir, int k)
{
    if (p->mode == P3O_PIPELINED_NBO) {
        if (p->gpu) { /* libnbo reads the device buffer once it starts */
            int r = p3o_cuda_sync(p);
            if (r != P3O_SUCCESS)
                return r;
        }
        int rc = nbo_start(&p->nreq[dir][k]);
        return rc == NBO_SUCCESS ? P3O_SUCCESS
                                 : p3o_fail(P3O_ERR_NBO, "nbo_start: %s", nbo_strerror(rc));
    }
    const int *sc, *sd, *rc, *rd, *msc, *mrc; /* m: what MPI moves */
    sides(&p->colx, dir, &sc, &sd, &rc, &rd);
    msc = sc, mrc = rc;
    if (p->gpu) {
        peer_counts(&p->colx, dir, &msc, &mrc);
        int r = gpu_pre(p, &p->colx, sc, sd, rd, p->col_send[k], p->col_recv[k],
                        p->col_send_h[k]);
        if (r != P3O_SUCCESS)
            return r;
    }
    int e = MPI_Ialltoallv(p->gpu ? p->col_send_h[k] : p->col_send[k], msc, sd, p->ctype,
                           p->gpu ? p->col_recv_h[k] : p->col_recv[k], mrc, rd, p->ctype,
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
    if (e != MPI_SUCCESS)
        return mpi_fail("column MPI_Wait", e);
    if (!p->gpu)
        return P3O_SUCCESS;
    const int *sc, *sd, *rc, *rd;
    sides(&p->colx, dir, &sc, &sd, &rc, &rd);
    return gpu_post(p, &p->colx, rc, rd, p->col_recv[k], p->col_recv_h[k]);
}

/* ---------------------------------------------------------------- libnbo */

/* The libnbo configuration of the plan's communicators: the caller's (or
 * libnbo's defaults and the NBO_* environment) with the plan's codec. */
int p3o_nbo_config(const struct p3o_plan *p, const nbo_config_t *user, nbo_config_t *cfg)
{
    if (user) {
        *cfg = *user;
    } else {
        nbo_config_init(cfg);
        int rc = nbo_config_from_env(cfg);
        if (rc != NBO_SUCCESS)
            return p3o_fail(P3O_ERR_NBO, "libnbo's NBO_* environment: %s", nbo_strerror(rc));
    }
    cfg->codec = p->codec;
    if (p->codec == NBO_CODEC_ZFP)
        cfg->codec_rate = p->codec_rate;
    return P3O_SUCCESS;
}

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

/* Collective over ROW: the compressed row exchange (compress_row, ROW > 1). */
int p3o_nbo_setup_row(struct p3o_plan *p, const nbo_config_t *cfg)
{
    int rc = nbo_comm_create(p->row_comm, cfg, &p->nrow);
    if (rc != NBO_SUCCESS) {
        p->nrow = NBO_COMM_NULL;
        return p3o_fail(P3O_ERR_NBO, "nbo_comm_create on the row communicator: %s",
                        nbo_strerror(rc));
    }
    for (int dir = 0; dir < 2; dir++) {
        const int *sc, *sd, *rcn, *rd;
        sides(&p->rowx, dir, &sc, &sd, &rcn, &rd);
        rc = nbo_alltoallv_init(p->row_send, sc, sd, p->ctype, p->row_recv, rcn, rd, p->ctype,
                                p->nrow, &p->rreq[dir]);
        if (rc != NBO_SUCCESS)
            return p3o_fail(P3O_ERR_NBO, "nbo_alltoallv_init (row, %s): %s",
                            dir == P3O_FWD ? "forward" : "backward", nbo_strerror(rc));
    }
    return P3O_SUCCESS;
}

/* Collective over the grid. */
void p3o_nbo_teardown(struct p3o_plan *p)
{
    for (int dir = 0; dir < 2; dir++) {
        for (int k = 0; k < 2; k++)
            if (p->nreq[dir][k] != NBO_REQUEST_NULL)
                nbo_request_free(&p->nreq[dir][k]);
        if (p->rreq[dir] != NBO_REQUEST_NULL)
            nbo_request_free(&p->rreq[dir]);
    }
    if (p->nrow != NBO_COMM_NULL)
        nbo_comm_free(&p->nrow);
    if (p->ncomm != NBO_COMM_NULL)
        nbo_comm_free(&p->ncomm);
}
