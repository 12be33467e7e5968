/*
 * sched_case.h - one all-to-all(v) call described for every rank at once,
 * as the schedule compiler sees it: a P x P byte matrix (bytes[s][d] is what
 * rank s sends to rank d) and, per rank, block displacements with gaps.
 */
#ifndef TEST_SCHED_CASE_H
#define TEST_SCHED_CASE_H

#include "../../libnbo/schedule.h"

typedef enum {
    COUNTS_UNIFORM,   /* alltoall: every block `block` bytes              */
    COUNTS_IRREGULAR, /* alltoallv: varied sizes, some zero               */
    COUNTS_SPARSE     /* alltoallv: mostly zero, a few large blocks        */
} counts_kind_t;

typedef struct sched_case {
    int             P;
    counts_kind_t   counts;
    size_t          block;        /* COUNTS_UNIFORM */
    int             send_contig, recv_contig, in_place;
    nbo_algorithm_t algorithm;
    int             window;
    size_t          bruck_max;
    /* compressed blocks (codec/codec.h): codec_elem != 0 makes every
     * block count and gap whole scalars of that kind (block and the
     * irregular sizes count scalars then) */
    int             codec, codec_rate, codec_elem;
    size_t          codec_chunk;  /* 0: the library's */
    int             alltoallw;    /* as alltoallw: never uniform, whatever the sizes */
    /* derived */
    size_t  *bytes;               /* [P*P] bytes[s*P+d] */
    size_t **sdispl, **rdispl;    /* [P][P] per rank */
    size_t  *sspan, *rspan;       /* [P] buffer sizes per rank */
    size_t **sb, **rb;            /* [P][P] per-rank views for the args */
} sched_case_t;

/* Build the derived arrays (in place: the matrix is made symmetric and the
 * send side is the receive side).  Returns 0, or -1 when out of memory. */
int  sched_case_build(sched_case_t *c);

/* One message through the codec's ops table (codec/codec.h), as the
 * executor runs ENCODE and DECODE: NBO_ERR_CODEC for a codec this build
 * lacks. */
int sched_codec_run(int decode, int codec, int rate, int elem, const void *src,
                    size_t raw_bytes, void *dst);
void sched_case_free(sched_case_t *c);

/* Compiler arguments of rank r. */
nbo_sched_args_t sched_case_args(const sched_case_t *c, int r);

/* "P=5 r=2 pairwise W=3 irregular send_contig=0 ..." for failure messages. */
const char *sched_case_name(const sched_case_t *c, int r, char *buf, size_t len);

#endif
