/*
 * family.h - a collective family: what coll.c's generic driver needs to
 * know of one collective, behind one descriptor.  Internal to libnbo/.
 *
 * A family is one file (entry points, argument validation, block maps,
 * NBO_CHECK signature) and its *_algs.c (the algorithm table, pure: the
 * compiler links it without MPI).  Adding a collective means a file here
 * and one line in families.c.
 */
#ifndef NBO_COLL_FAMILY_H
#define NBO_COLL_FAMILY_H

#include "../core.h"
#include "../sched_algs.h"

/* Descriptor flags. */
enum {
    NBO_COLL_F_UNIFORM  = 1 << 0, /* every block the same size (Bruck may run) */
    NBO_COLL_F_IN_PLACE = 1 << 1, /* one buffer holds the data to send (bcast) */
    NBO_COLL_F_CODEC    = 1 << 2, /* blocks may be compressed (docs/compression.md) */
    NBO_COLL_F_DEVICE   = 1 << 3, /* device buffers staged as whole blocks (memory/) */
};

/* How the members of one family (one file) validate, describe and check
 * their calls. */
typedef struct nbo_coll_family {
    /* What the arguments alone show wrong (each class its own code). */
    int (*validate)(const nbo_coll_call_t *k, const struct nbo_comm *c);
    /* The call in bytes: block maps, the task buffers, the peer lists and
     * their bytes in p->plan.args (nbo_plan_lists), checked locally.  On
     * error nothing is left to free. */
    int (*describe)(const nbo_coll_call_t *k, struct nbo_comm *c, nbo_coll_parts_t *p);
    /* NBO_CHECK: the bytes this rank's arguments say it sends each send
     * peer (sb[nsend]) and expects from each receive peer (rb[nrecv]), in
     * list order; NULL: the compiler's own sbytes and rbytes. */
    void (*signature)(const nbo_coll_call_t *k, const struct nbo_comm *c,
                      const nbo_coll_parts_t *p, size_t *sb, size_t *rb);
    /* The size up to which AUTO takes the latency-bound algorithm (NULL: 0). */
    size_t (*small_max)(const nbo_config_t *cfg);
} nbo_coll_family_t;

/* One collective: its family, its algorithm table and what sets it apart. */
typedef struct nbo_coll_desc {
    nbo_coll_t               coll;
    unsigned                 flags;  /* NBO_COLL_F_* */
    const nbo_sched_alg_t   *algs;   /* AUTO's order; the last entry compiles every call */
    const nbo_coll_family_t *family;
} nbo_coll_desc_t;

/* The descriptor of a collective, or NULL (families.c). */
const nbo_coll_desc_t *nbo_coll_desc(nbo_coll_t coll);

/* The descriptors, each in its family's file. */
extern const nbo_coll_desc_t nbo_alltoall_desc, nbo_alltoallv_desc, nbo_alltoallw_desc;
extern const nbo_coll_desc_t nbo_allgather_desc, nbo_allgatherv_desc;
extern const nbo_coll_desc_t nbo_bcast_desc;
extern const nbo_coll_desc_t nbo_allreduce_desc, nbo_reduce_scatter_block_desc, nbo_reduce_desc;
extern const nbo_coll_desc_t nbo_scan_desc, nbo_exscan_desc, nbo_reduce_scatter_desc;
extern const nbo_coll_desc_t nbo_neighbor_alltoall_desc, nbo_neighbor_alltoallv_desc;
extern const nbo_coll_desc_t nbo_neighbor_allgather_desc, nbo_neighbor_allgatherv_desc;
extern const nbo_coll_desc_t nbo_barrier_desc;
extern const nbo_coll_desc_t nbo_gather_desc, nbo_gatherv_desc, nbo_scatter_desc, nbo_scatterv_desc;

/* Helpers the families share (families.c). */
/* The send data is in the receive buffer. */
static inline int nbo_coll_in_place(const nbo_coll_desc_t *d, const nbo_coll_call_t *k)
{
    return k->sendbuf == MPI_IN_PLACE || (d->flags & NBO_COLL_F_IN_PLACE);
}
/* Counts and displacements of P blocks, all empty but `count` at `at`. */
int nbo_coll_one_block(int P, int at, int count, int **counts, int **displs);
/* MPI forbids aliased buffers outside MPI_IN_PLACE (receives posted up
 * front would overwrite data not yet sent): NBO_ERR_OVERLAP. */
int nbo_coll_no_overlap(const nbo_coll_call_t *k, const nbo_block_map_t *smap,
                        const nbo_block_map_t *rmap);
/* Lists of every rank in p->plan: sbytes/sdispl from s (NULL: all 0),
 * rbytes/rdispl from p->rmap. */
int nbo_coll_plan_maps(nbo_coll_parts_t *p, int P, const nbo_block_map_t *s);
/* v[0..n) = x: the signature of a family whose blocks are all alike. */
void nbo_coll_sig_fill(size_t *v, int n, size_t x);
/* The end of a describe with both block maps made (rc: how that went):
 * the own block must fit (uniform: every block block 0's size) and the
 * buffers must not overlap; then the lists of every rank (send_lists: the
 * send side's bytes, else all 0), the contiguity flags and the task
 * buffers.  On error p is freed. */
int nbo_coll_maps_done(const nbo_coll_call_t *k, const struct nbo_comm *c, nbo_coll_parts_t *p,
                       int rc, int uniform, int send_lists);
/* Undo a describe that failed midway. */
void nbo_coll_parts_free(nbo_coll_parts_t *p);

#endif
