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
 */
#ifndef TEST_SCHED_SIM_H
#define TEST_SCHED_SIM_H

#include "sched_case.h"

/* Compile every rank, run, check.  NULL on success, else a message. */
const char *sched_simulate(const sched_case_t *c);

#endif
