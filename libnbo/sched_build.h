/*
 * sched_build.h - a growable task array the algorithm compilers append to.
 * Internal to libnbo/: the compilers append tasks, then close each window
 * with sched_build_wait(), which points every open SEND/RECV at it.
 */
#ifndef NBO_SCHED_BUILD_H
#define NBO_SCHED_BUILD_H

#include "schedule.h"

typedef struct sched_build {
    nbo_sched_t *s;
    int          cap;
    int          err;        /* sticky: first allocation failure */
    int         *open;       /* SEND/RECV posted through sched_build_post_*
                                and not yet closed by a WAIT */
    int          nopen, open_cap, open_sends;
} sched_build_t;

void sched_build_start(sched_build_t *b, nbo_sched_t *out);
/* SEND/RECV return the task's index, or -1 when len is 0 (nothing sent). */
int sched_build_recv(sched_build_t *b, int peer, nbo_buf_t buf, size_t off, size_t len);
int sched_build_send(sched_build_t *b, int peer, nbo_buf_t buf, size_t off, size_t len);
void sched_build_copy(sched_build_t *b, nbo_buf_t dst, size_t dst_off,
                      nbo_buf_t src, size_t src_off, size_t len);
void sched_build_pack(sched_build_t *b, int block, nbo_buf_t dst, size_t off, size_t len);
void sched_build_unpack(sched_build_t *b, int block, nbo_buf_t src, size_t off, size_t len);

/* The rank's own block, delivered by local tasks.  When neither side is
 * contiguous it passes through scratch at tmp_off, of the size
 * sched_build_own_tmp() gives (0 when it needs none). */
size_t sched_build_own_tmp(const nbo_sched_args_t *a);
void sched_build_own_block(sched_build_t *b, const nbo_sched_args_t *a, size_t tmp_off);

/* Close a window: a WAIT on the `n` tasks given by index (SEND/RECV tasks
 * appended since the last wait).  Tasks of zero length are never appended,
 * so a window can be empty; then no WAIT is emitted. */
void sched_build_wait(sched_build_t *b, const int *idx, int n);

/* Rounds of the new collectives: receives and sends posted through these
 * stay open until sched_build_flush() closes them all with one WAIT; a send
 * that would be the window+1-th open one first closes the open sends (the
 * open receives stay posted), so at most `window` sends are in flight. */
void sched_build_post_recv(sched_build_t *b, int peer, nbo_buf_t buf, size_t off, size_t len);
void sched_build_post_send(sched_build_t *b, int window, int peer, nbo_buf_t buf, size_t off,
                           size_t len);
void sched_build_flush(sched_build_t *b);

/* Compressed blocks (codec/codec.h): ENCODE the len raw bytes of the block for
 * `peer` at (src, src_off) into the message at (dst, dst_off); DECODE the
 * message from `peer` at (src, src_off) into len raw bytes at (dst,
 * dst_off).  Nothing for an empty block. */
void sched_build_encode(sched_build_t *b, int peer, nbo_buf_t dst, size_t dst_off,
                        nbo_buf_t src, size_t src_off, size_t len);
void sched_build_decode(sched_build_t *b, int peer, nbo_buf_t dst, size_t dst_off,
                        nbo_buf_t src, size_t src_off, size_t len);

/* dst = src op dst over len bytes of whole elements (src: left operand). */
void sched_build_reduce(sched_build_t *b, nbo_buf_t dst, size_t dst_off,
                        nbo_buf_t src, size_t src_off, size_t len);

static inline int sched_is_pow2(int p) { return p > 0 && (p & (p - 1)) == 0; }
/* Largest power of two <= p (p >= 1). */
static inline int sched_pof2(int p) { int q = 1; while (2 * q <= p) q *= 2; return q; }

/* Index the next appended task will get. */
static inline int sched_build_next(const sched_build_t *b) { return b->s->ntasks; }

/* rc (a compiler's result) or else the sticky error.  On any error the
 * tasks built so far are freed and the schedule is left empty. */
int sched_build_finish(sched_build_t *b, int rc);

#endif
