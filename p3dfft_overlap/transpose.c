/*
 * transpose.c - packing before and unpacking after the row and column
 * exchanges.  Every local transposition happens here, so that each 1-D FFT
 * works on contiguous lines (the layouts are listed in p3o_internal.h).
 *
 * One kernel moves a 3-D box of complex elements between two strided
 * layouts; the callers only describe boxes.  Peer blocks in the exchange
 * buffers are contiguous, in the order the receiving side needs, so one
 * side of each exchange copies whole lines (memcpy) and the other
 * transposes (in tiles, to stay in cache).
 */
#include <string.h>

#include "p3o_internal.h"

typedef struct box {
    size_t n[3];      /* extents, outermost first */
    size_t dst[3];    /* destination strides, in elements */
    size_t src[3];    /* source strides, in elements */
} box_t;

enum { TILE = 16 };

/* es is a compile-time constant at both call sites below, so the copies of
 * one element become plain moves. */
static inline __attribute__((always_inline)) void move_box_es(char *d, const char *s,
                                                               const box_t *b, size_t es)
{
    if (b->dst[2] == 1 && b->src[2] == 1) {
        for (size_t i0 = 0; i0 < b->n[0]; i0++)
            for (size_t i1 = 0; i1 < b->n[1]; i1++)
                memcpy(d + (i0 * b->dst[0] + i1 * b->dst[1]) * es,
                       s + (i0 * b->src[0] + i1 * b->src[1]) * es, b->n[2] * es);
        return;
    }
    for (size_t i0 = 0; i0 < b->n[0]; i0++)
        for (size_t t1 = 0; t1 < b->n[1]; t1 += TILE)
            for (size_t t2 = 0; t2 < b->n[2]; t2 += TILE) {
                size_t e1 = t1 + TILE < b->n[1] ? t1 + TILE : b->n[1];
                size_t e2 = t2 + TILE < b->n[2] ? t2 + TILE : b->n[2];
                for (size_t i1 = t1; i1 < e1; i1++)
                    for (size_t i2 = t2; i2 < e2; i2++)
                        memcpy(d + (i0 * b->dst[0] + i1 * b->dst[1] + i2 * b->dst[2]) * es,
                               s + (i0 * b->src[0] + i1 * b->src[1] + i2 * b->src[2]) * es, es);
            }
}

static void move_box(struct p3o_plan *p, void *dst, size_t dst_off, const void *src,
                     size_t src_off, const box_t *b, size_t es)
{
    char *d = (char *)dst + dst_off * es;
    const char *s = (const char *)src + src_off * es;
    if (p->gpu) { /* device buffers: the same box, moved by a kernel (cuda.c) */
        int rc = p3o_cuda_box(p, d, s, b->n, b->dst, b->src);
        if (rc != P3O_SUCCESS && p->gpu_rc == P3O_SUCCESS)
            p->gpu_rc = rc;
        return;
    }
    if (es == 16)
        move_box_es(d, s, b, 16);
    else
        move_box_es(d, s, b, 8);
}

/* A box whose source and destination roles are swapped. */
static box_t reversed(box_t b)
{
    box_t r = b;
    memcpy(r.dst, b.src, sizeof(r.dst));
    memcpy(r.src, b.dst, sizeof(r.src));
    return r;
}

/* ------------------------------------------------------------------ row */

/*
 * Row peer q owns the x block (xs_q, xn_q) of the nxh coefficients in the
 * Y-pencil and the y block (ys_q, yn_q) of ny in the X-pencil.
 *   X side: xc [zc][yr][nxh]  <->  block [zc][xn_q][yr]   (transposition)
 *   Y side: ybuf [zc][xr][ny] <->  block [zc][xr][yn_q]   (lines)
 * Boxes run (z, x, y) with the buffer block as destination.
 */
static box_t row_x_box(const struct p3o_plan *p, int q)
{
    size_t xn = (size_t)p3o_split_size(p->nxh, p->row, q), yr = (size_t)p->yr;
    return (box_t){.n = {(size_t)p->zc, xn, yr},
                   .dst = {xn * yr, yr, 1},
                   .src = {yr * (size_t)p->nxh, 1, (size_t)p->nxh}};
}

static box_t row_y_box(const struct p3o_plan *p, int q)
{
    size_t yn = (size_t)p3o_split_size(p->ny, p->row, q), xr = (size_t)p->xr;
    return (box_t){.n = {(size_t)p->zc, xr, yn},
                   .dst = {xr * yn, yn, 1},
                   .src = {xr * (size_t)p->ny, (size_t)p->ny, 1}};
}

void p3o_row_pack(struct p3o_plan *p, int dir)
{
    const p3o_xfer_t *x = &p->rowx;
    for (int q = 0; q < p->row; q++) {
        if (dir == P3O_FWD) {
            box_t b = row_x_box(p, q);
            move_box(p, p->row_send, (size_t)x->sdsp[q], p->xc,
                     (size_t)p3o_split_start(p->nxh, p->row, q), &b, p->es);
        } else {
            box_t b = row_y_box(p, q);
            move_box(p, p->row_send, (size_t)x->rdsp[q], p->ybuf,
                     (size_t)p3o_split_start(p->ny, p->row, q), &b, p->es);
        }
    }
}

void p3o_row_unpack(struct p3o_plan *p, int dir)
{
    const p3o_xfer_t *x = &p->rowx;
    /* A ROW of one rank exchanges nothing (p3o_row_exchange skips it). */
    const void *recv = p->row == 1 ? p->row_send : p->row_recv;
    for (int q = 0; q < p->row; q++) {
        if (dir == P3O_FWD) {
            box_t b = reversed(row_y_box(p, q));
            move_box(p, p->ybuf, (size_t)p3o_split_start(p->ny, p->row, q), recv,
                     (size_t)x->rdsp[q], &b, p->es);
        } else {
            box_t b = reversed(row_x_box(p, q));
            move_box(p, p->xc, (size_t)p3o_split_start(p->nxh, p->row, q), recv,
                     (size_t)x->sdsp[q], &b, p->es);
        }
    }
}

/* --------------------------------------------------------------- column */

/*
 * Column peer q owns the y block (ys_q, yn_q) of ny in the Z-pencil and the
 * z block (zs_q, zn_q) of nz in the Y-pencil.
 *   Y side: ybuf [zc][xr][ny] <->  block [xr][yn_q][zc]   (transposition)
 *   Z side: Z-pencil [xr][yc][nz] <-> block [xr][yc][zn_q] (lines)
 * Boxes run (x, y, z) with the buffer block as destination.
 */
static box_t col_y_box(const struct p3o_plan *p, int q)
{
    size_t yn = (size_t)p3o_split_size(p->ny, p->col, q), zc = (size_t)p->zc;
    size_t xr = (size_t)p->xr, ny = (size_t)p->ny;
    return (box_t){.n = {xr, yn, zc}, .dst = {yn * zc, zc, 1}, .src = {ny, 1, xr * ny}};
}

static box_t col_z_box(const struct p3o_plan *p, int q)
{
    size_t zn = (size_t)p3o_split_size(p->nz, p->col, q), yc = (size_t)p->yc;
    size_t nz = (size_t)p->nz;
    return (box_t){.n = {(size_t)p->xr, yc, zn}, .dst = {yc * zn, zn, 1}, .src = {yc * nz, nz, 1}};
}

/* FWD: src is the Y-pencil; BWD: src is a Z-pencil. */
void p3o_col_pack(struct p3o_plan *p, int dir, int k, const void *src)
{
    const p3o_xfer_t *x = &p->colx;
    for (int q = 0; q < p->col; q++) {
        if (dir == P3O_FWD) {
            box_t b = col_y_box(p, q);
            move_box(p, p->col_send[k], (size_t)x->sdsp[q], src,
                     (size_t)p3o_split_start(p->ny, p->col, q), &b, p->es);
        } else {
            box_t b = col_z_box(p, q);
            move_box(p, p->col_send[k], (size_t)x->rdsp[q], src,
                     (size_t)p3o_split_start(p->nz, p->col, q), &b, p->es);
        }
    }
}

/* FWD: dst is a Z-pencil; BWD: dst is the Y-pencil. */
void p3o_col_unpack(struct p3o_plan *p, int dir, int k, void *dst)
{
    const p3o_xfer_t *x = &p->colx;
    for (int q = 0; q < p->col; q++) {
        if (dir == P3O_FWD) {
            box_t b = reversed(col_z_box(p, q));
            move_box(p, dst, (size_t)p3o_split_start(p->nz, p->col, q), p->col_recv[k],
                     (size_t)x->rdsp[q], &b, p->es);
        } else {
            box_t b = reversed(col_y_box(p, q));
            move_box(p, dst, (size_t)p3o_split_start(p->ny, p->col, q), p->col_recv[k],
                     (size_t)x->sdsp[q], &b, p->es);
        }
    }
}
