/*
 * sched_coll.h - one call of the collectives beyond the all-to-all (allgather(v), bcast,
 * allreduce, reduce-scatter-block) described for every rank at once, its
 * compiler arguments (as the core fills them, schedule.h), its input data
 * and the reference result, and a run of all ranks in the simulator.
 */
#ifndef TEST_SCHED_COLL_H
#define TEST_SCHED_COLL_H

#include "../../libnbo/schedule.h"

typedef struct coll_case {
    nbo_coll_t      coll;
    int             P;
    size_t          bytes;        /* allgather: block; allgatherv: largest block;
                                     bcast, allreduce: vector; reduce-scatter: block */
    int             root;         /* bcast */
    int             commutative;  /* allreduce, reduce-scatter (elements of 8 bytes) */
    int             send_contig, recv_contig, in_place;
    nbo_algorithm_t algorithm;
    int             window;
    size_t          small_max;
    /* derived */
    size_t        **sb, **sd, **rb, **rd; /* [P][P] per rank */
    size_t         *sspan, *rspan;        /* [P] buffer sizes */
} coll_case_t;

int  coll_case_build(coll_case_t *c);  /* 0, or -1 out of memory */
void coll_case_free(coll_case_t *c);
nbo_sched_args_t coll_case_args(const coll_case_t *c, int r);
const char *coll_case_name(const coll_case_t *c, int r, char *buf, size_t len);

/* Run every rank in the simulator and compare with the reference: the
 * result bytes, gaps and trailing bytes untouched, the send buffer unchanged.
 * NULL on success, else a message. */
const char *coll_simulate(const coll_case_t *c);

#endif
