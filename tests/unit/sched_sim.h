/*
 * sched_sim.h - run the task lists of all P ranks of one call together in
 * one process, as an engine would, and compare with a reference all-to-all.
 *
 * Buffers are plain bytes.  A SEND and a RECV match by (source, destination)
 * in posting order, like MPI messages on one tag; a send completes only when
 * its receive is posted (rendezvous, the case that can deadlock).  PACK and
 * UNPACK of a non-contiguous type are modelled as a byte copy of the block
 * at its displacement.  While a SEND or RECV is in flight (posted, its WAIT
 * not yet passed) no task may write its bytes, nor read a receive's bytes.
 * The k-th SEND from A to B matches the k-th RECV at B from A (FIFO per
 * pair), and their lengths must agree.  REDUCE is modelled on 8-byte
 * elements (sched_sim_op): uint64 add when the call is commutative, else
 * composition of affine maps, which is associative but not commutative,
 * so a result in the wrong rank order shows.
 */
#ifndef TEST_SCHED_SIM_H
#define TEST_SCHED_SIM_H

#include "sched_case.h"

/* One rank of a simulated call: the caller fills a, buf/len of SEND and
 * RECV (malloc'ed, freed by sched_sim_free); the rest is the engine's. */
typedef struct sim_rank {
    nbo_sched_args_t a;
    unsigned char   *buf[NBO_BUF_COUNT];
    size_t           len[NBO_BUF_COUNT];
    nbo_sched_t      s;
    int              cursor;
    int32_t         *pending; /* per WAIT: tasks not yet complete */
    char            *done;    /* per SEND/RECV: matched */
} sim_rank_t;

typedef struct sim_call {
    int         P;
    void      (*name)(const void *ctx, int r, char *buf, size_t len); /* for messages */
    const void *ctx;
} sim_call_t;

/* Compile each rank's list, run all to the end: NULL, or the first broken
 * rule (bounds, in-flight bytes, length mismatch, deadlock, unmatched).
 * The caller then compares the buffers with its reference. */
const char *sched_sim_run(const sim_call_t *c, sim_rank_t *rk);
void sched_sim_free(sim_rank_t *rk, int P);

/* dst = src op dst on 8-byte elements, as the simulator's REDUCE does. */
void sched_sim_op(unsigned char *dst, const unsigned char *src, size_t len, int commutative);

/* All-to-all: compile every rank, run, check.  NULL on success, else a message. */
const char *sched_simulate(const sched_case_t *c);

#endif
