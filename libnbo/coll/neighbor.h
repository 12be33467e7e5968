/* neighbor.h - a communicator's neighbourhood as the neighbourhood
 * collectives send and receive along it (neighbor_topo.c).  Internal to
 * libnbo/coll/. */
#ifndef NBO_COLL_NEIGHBOR_H
#define NBO_COLL_NEIGHBOR_H

#include "family.h"

/* MPI's degrees count the blocks of the user's buffers; the lists hold
 * the entries that move data (no MPI_PROC_NULL), in the order the task
 * list posts them, each with the buffer block it reads or fills. */
typedef struct nbo_nbrs {
    int  indeg, outdeg;  /* blocks in the receive and send buffers */
    int  nrecv, nsend;
    int *rpeer, *rblock; /* [nrecv]: source rank, receive block */
    int *speer, *sblock; /* [nsend]: destination rank, send block */
} nbo_nbrs_t;

/* The neighbours of comm's topology: NBO_SUCCESS, NBO_ERR_COMM (no
 * topology), NBO_ERR_MPI or NBO_ERR_NOMEM; on error nothing to free. */
int nbo_nbrs_get(MPI_Comm comm, nbo_nbrs_t *n);
void nbo_nbrs_free(nbo_nbrs_t *n);

#endif
