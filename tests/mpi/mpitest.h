/*
 * mpitest.h - shared scaffolding of the MPI correctness programs: start-up,
 * failure bookkeeping agreed on by every rank, data patterns, and the
 * byte-for-byte comparison with MPI's own all-to-all.
 *
 * Every program uses only the public API (nbo.h), honours NBO_ENGINE and
 * NBO_PROGRESS through the environment, prints one summary line on rank 0
 * and exits 0 only if every rank passed.
 */
#ifndef NBO_MPITEST_H
#define NBO_MPITEST_H

#include <stddef.h>
#include <stdint.h>

#include <nbo.h>

extern int mt_rank, mt_size;

/* MPI_Init_thread (MULTIPLE, as thread progress needs), errors return. */
void mt_init(int *argc, char ***argv, const char *name);

/* Record a failure on this rank (printed, the first few only). */
void mt_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Failures so far on this rank. */
int mt_failures(void);

/* Check an nbo call's result: on error record it with the call's text. */
#define MT_OK(call)                                                                    \
    do {                                                                               \
        int mt_rc_ = (call);                                                           \
        if (mt_rc_ != NBO_SUCCESS)                                                     \
            mt_fail("%s:%d: %s returned %d (%s)", __FILE__, __LINE__, #call, mt_rc_,   \
                    nbo_strerror(mt_rc_));                                             \
    } while (0)

/* Check that an nbo call returns exactly `want`, with a real message. */
#define MT_EXPECT(want, call) mt_expect_((want), (call), #call, __FILE__, __LINE__)
void mt_expect_(int want, int got, const char *text, const char *file, int line);

/* The configuration the environment asks for (NBO_*), algorithm set. */
void mt_config(nbo_config_t *cfg, nbo_algorithm_t alg);

/* A communicator on MPI_COMM_WORLD configured by mt_config for alg, its
 * resolution printed (mt_describe).  0 when creating it failed (recorded). */
int mt_comm_for(nbo_algorithm_t alg, nbo_comm_t *comm);

/* Byte i of what rank src sends to rank dst in round `seed`. */
static inline unsigned char mt_byte(int src, int dst, size_t i, unsigned seed)
{
    uint32_t h = (uint32_t)src * 2654435761u ^ (uint32_t)dst * 40503u ^ seed * 2246822519u;
    h += (uint32_t)i * 97u + (uint32_t)(i >> 9);
    return (unsigned char)(h ^ (h >> 13));
}

/* Fill n bytes at p with mt_byte(src, dst, 0.., seed). */
void mt_fill(void *p, size_t n, int src, int dst, unsigned seed);

/* Compare n bytes; on a difference record the first differing offset. */
int mt_compare(const void *got, const void *want, size_t n, const char *what);

/* All ranks agree (MPI_Allreduce of the failure flags), rank 0 prints
 * "name P=.. engine=.. progress=..: PASS|FAIL ..." and MPI is finalized.
 * Returns the exit status. */
int mt_finish(void);

/* Engine and progress mode a default communicator resolves to. */
void mt_describe(nbo_comm_t comm);

/* Complete one request: nbo_wait, or (use_test) an nbo_test loop that
 * yields the core between polls. */
int mt_complete(nbo_request_t *req, int use_test);

/* Complete one request, which must succeed, alternating nbo_wait and the
 * nbo_test loop from one call to the next. */
void mt_complete_alternating(nbo_request_t *req);

/* A non-commutative user op (MPI_Op_create with commute 0): 2x2 unsigned
 * matrices, row major, inout = in x inout (MPI's operand order). */
void mt_op_matmul2x2(void *invec, void *inoutvec, int *len, MPI_Datatype *type);

/* A call that must fail with `want` and leave *reqp NBO_REQUEST_NULL. */
#define MT_REFUSED(reqp, want, call)                                                   \
    do {                                                                               \
        *(reqp) = (nbo_request_t)(void *)(reqp);                                       \
        MT_EXPECT((want), (call));                                                     \
        if (*(reqp) != NBO_REQUEST_NULL)                                               \
            mt_fail("%s:%d: failed call left a request handle: %s", __FILE__, __LINE__, \
                    #call);                                                            \
    } while (0)

/* Irregular all-to-allv counts: elements rank s sends rank d in pattern
 * `seed`, about a quarter of them zero.  symmetric: count(s,d) == count(d,s)
 * (what MPI_IN_PLACE needs). */
int mt_count(int s, int d, unsigned seed, int max, int symmetric);

/* Place P blocks of counts[] elements in a permuted order with gaps of up
 * to `gap` elements between them; displs[] in elements.  Returns the
 * buffer length in elements (plus a trailing gap element). */
int mt_layout(int P, const int *counts, int gap, unsigned seed, int *displs);

/* 1 if element e of a layout lies in no block. */
int mt_in_gap(int P, const int *counts, const int *displs, int e);

#endif
