/*
 * any_failed.h - did any rank fail?  Loops of starts stop on this,
 * together: a rank that stopped alone would leave the others waiting for
 * its part of the next start.
 */
#ifndef NBO_TEST_ANY_FAILED_H
#define NBO_TEST_ANY_FAILED_H

#include <mpi.h>

/* mine: this rank failed (nonzero); 1 if any rank of MPI_COMM_WORLD did. */
static inline int any_rank_failed(int mine)
{
    int any = 0;
    mine = mine != 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any;
}

#endif
