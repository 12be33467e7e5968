/* neighbor_topo.c - the neighbours of a Cartesian or graph communicator,
 * in the order of MPI-3 section 7.6, as lists a task list can follow. */
#include <stdio.h>
#include <stdlib.h>

#include "neighbor.h"

void nbo_nbrs_free(nbo_nbrs_t *n)
{
    free(n->rpeer);
    free(n->speer);
    n->rpeer = n->rblock = n->speer = n->sblock = NULL;
}

static int alloc(nbo_nbrs_t *n, int indeg, int outdeg)
{
    n->indeg = indeg;
    n->outdeg = outdeg;
    n->nrecv = n->nsend = 0;
    n->rpeer = malloc((2 * (size_t)indeg + 1) * sizeof(int));
    n->speer = malloc((2 * (size_t)outdeg + 1) * sizeof(int));
    if (!n->rpeer || !n->speer) {
        nbo_nbrs_free(n);
        return NBO_ERR_NOMEM;
    }
    n->rblock = n->rpeer + indeg;
    n->sblock = n->speer + outdeg;
    return NBO_SUCCESS;
}

static void add(int *peer, int *block, int *k, int rank, int b)
{
    if (rank == MPI_PROC_NULL)
        return;
    peer[*k] = rank;
    block[*k] = b;
    (*k)++;
}

/* Dimension d has blocks 2d (the -1 neighbour) and 2d+1 (the +1).  A
 * pair's messages match in order, so where both neighbours are one rank
 * (a periodic dimension of 1 or 2 processes) the order says which block
 * lands where: the receives go -1 then +1, the sends +1 then -1, so that
 * what a rank sends its +1 neighbour arrives in that rank's -1 block, as
 * MPI defines (and MPICH and Open MPI deliver). */
static int cart(MPI_Comm comm, nbo_nbrs_t *n)
{
    int nd;
    if (MPI_Cartdim_get(comm, &nd) != MPI_SUCCESS)
        return NBO_ERR_MPI;
    int rc = alloc(n, 2 * nd, 2 * nd);
    for (int d = 0; rc == NBO_SUCCESS && d < nd; d++) {
        int lo, hi;
        if (MPI_Cart_shift(comm, d, 1, &lo, &hi) != MPI_SUCCESS) {
            nbo_nbrs_free(n);
            return NBO_ERR_MPI;
        }
        add(n->rpeer, n->rblock, &n->nrecv, lo, 2 * d);
        add(n->rpeer, n->rblock, &n->nrecv, hi, 2 * d + 1);
        add(n->speer, n->sblock, &n->nsend, hi, 2 * d + 1);
        add(n->speer, n->sblock, &n->nsend, lo, 2 * d);
    }
    return rc;
}

/* Block i to destination i, block j from source j; a neighbour listed
 * twice gets its blocks in list order, as MPI's multigraphs do. */
static int dist_graph(MPI_Comm comm, nbo_nbrs_t *n)
{
    int in, out, weighted;
    if (MPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted) != MPI_SUCCESS)
        return NBO_ERR_MPI;
    int rc = alloc(n, in, out);
    if (rc != NBO_SUCCESS)
        return rc;
    /* Weights the graph may carry are read and left unused. */
    int *w = malloc(((size_t)in + (size_t)out + 1) * sizeof(int));
    if (!w || MPI_Dist_graph_neighbors(comm, in, n->rpeer, weighted ? w : MPI_UNWEIGHTED, out,
                                       n->speer, weighted ? w + in : MPI_UNWEIGHTED) !=
                  MPI_SUCCESS) {
        rc = w ? NBO_ERR_MPI : NBO_ERR_NOMEM;
        free(w);
        nbo_nbrs_free(n);
        return rc;
    }
    free(w);
    for (int i = 0; i < in; i++)
        n->rblock[i] = i;
    for (int i = 0; i < out; i++)
        n->sblock[i] = i;
    n->nrecv = in;
    n->nsend = out;
    return NBO_SUCCESS;
}

/* MPI_Graph_create's graph: the same list both ways. */
static int graph(MPI_Comm comm, nbo_nbrs_t *n)
{
    int rank, deg;
    if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
        MPI_Graph_neighbors_count(comm, rank, &deg) != MPI_SUCCESS)
        return NBO_ERR_MPI;
    int rc = alloc(n, deg, deg);
    if (rc != NBO_SUCCESS)
        return rc;
    if (MPI_Graph_neighbors(comm, rank, deg, n->rpeer) != MPI_SUCCESS) {
        nbo_nbrs_free(n);
        return NBO_ERR_MPI;
    }
    for (int i = 0; i < deg; i++) {
        n->speer[i] = n->rpeer[i];
        n->rblock[i] = n->sblock[i] = i;
    }
    n->nrecv = n->nsend = deg;
    return NBO_SUCCESS;
}

int nbo_nbrs_get(MPI_Comm comm, nbo_nbrs_t *n)
{
    int topo;
    if (MPI_Topo_test(comm, &topo) != MPI_SUCCESS)
        return NBO_ERR_MPI;
    switch (topo) {
    case MPI_CART:
        return cart(comm, n);
    case MPI_DIST_GRAPH:
        return dist_graph(comm, n);
    case MPI_GRAPH:
        return graph(comm, n);
    }
    /* The code alone does not say which of its causes it is. */
    fprintf(stderr, "libnbo: a neighbourhood collective needs a communicator with a Cartesian or "
                    "graph topology; this one has none\n");
    return NBO_ERR_COMM;
}
