/*
 * pt_coll.h - one collective call of a libnbo-mpi test, whatever the
 * collective: its buffers, its inputs for a round, the MPI call that starts
 * it (non-blocking or persistent), and the check of its outputs against
 * hand-computed values.  Plain MPI, like pt.h.
 *
 * Variants (pc_variant_t bits, where the collective has them):
 *   PC_INPLACE   MPI_IN_PLACE (allreduce, reduce-scatter-block, allgather(v))
 *   PC_USEROP    a user-defined commutative sum instead of MPI_SUM
 *   PC_NONCOMM   a user-defined non-commutative op (the left operand): the
 *                result is rank 0's input, which only rank order gives
 *   PC_DERIVED   a non-contiguous derived datatype (2 ints of a 3-int
 *                extent); reductions then use the user sum, which knows it.
 *                The gaps of every receive buffer must stay untouched.
 */
#ifndef PT_COLL_H
#define PT_COLL_H

#include <mpi.h>

#include "pt.h"

typedef enum {
    PC_ALLTOALL, PC_ALLTOALLV, PC_ALLREDUCE, PC_REDUCE_SCATTER_BLOCK, PC_ALLGATHER,
    PC_ALLGATHERV, PC_BCAST,  /* served by libnbo-mpi */
    PC_REDUCE, PC_SCAN,       /* never served: MPI's own */
    PC_NKINDS
} pc_kind_t;

typedef enum {
    PC_INPLACE = 1, PC_USEROP = 2, PC_NONCOMM = 4, PC_DERIVED = 8
} pc_variant_t;

extern const char *const pc_kind_name[PC_NKINDS];

typedef struct pc_call {
    pc_kind_t kind;
    int variant;      /* pc_variant_t bits the collective supports      */
    MPI_Comm comm;
    int me, p;
    int n;            /* count (per peer, per rank or in all)           */
    int root;         /* bcast, reduce                                  */
    int seed;         /* the round the inputs were made for             */
    MPI_Datatype type;
    MPI_Op op;
    int *s, *r;       /* buffers, in ints                               */
    int *sc, *sd, *rc, *rd; /* v-forms' counts and displacements        */
} pc_call_t;

/* Once after MPI_Init / before MPI_Finalize: the user ops, the derived type. */
void pc_init(void);
void pc_finalize(void);

/* Buffers for a call of kind on comm (root from seed), inputs of round
 * seed.  Variant bits a collective lacks are dropped. */
void pc_setup(pc_call_t *c, pc_kind_t kind, MPI_Comm comm, int n, int seed, int variant);
/* New inputs (round seed) and poisoned outputs: before each MPI_Start. */
void pc_fill(pc_call_t *c, int seed);
/* The MPI_I<coll> call / the persistent MPI_<Coll>_init (kinds served by
 * libnbo-mpi; MPI_ERR_OTHER for the others). */
int pc_start(pc_call_t *c, MPI_Request *req);
int pc_persistent(pc_call_t *c, MPI_Request *req);
/* Does libnbo-mpi serve this call (if it serves the collective)?  Not a
 * reduction on a derived datatype: its user op must see the program's own
 * handle. */
int pc_served(const pc_call_t *c);
/* Compare the outputs with the hand-computed ones (pt_fail on a mismatch). */
void pc_check(const pc_call_t *c, const char *what);
void pc_free(pc_call_t *c);

#endif
