/* families.c - the list of collective families (family.h), and what they
 * share. */
#include <stdlib.h>
#include <string.h>

#include "family.h"

/* The one list: a new collective is a line here and its own files. */
static const nbo_coll_desc_t *const families[NBO_COLL_COUNT] = {
    [NBO_COLL_ALLTOALLV]            = &nbo_alltoallv_desc,
    [NBO_COLL_ALLTOALL]             = &nbo_alltoall_desc,
    [NBO_COLL_ALLGATHER]            = &nbo_allgather_desc,
    [NBO_COLL_ALLGATHERV]           = &nbo_allgatherv_desc,
    [NBO_COLL_BCAST]                = &nbo_bcast_desc,
    [NBO_COLL_ALLREDUCE]            = &nbo_allreduce_desc,
    [NBO_COLL_REDUCE_SCATTER_BLOCK] = &nbo_reduce_scatter_block_desc,
    [NBO_COLL_NEIGHBOR_ALLTOALL]    = &nbo_neighbor_alltoall_desc,
    [NBO_COLL_NEIGHBOR_ALLTOALLV]   = &nbo_neighbor_alltoallv_desc,
    [NBO_COLL_NEIGHBOR_ALLGATHER]   = &nbo_neighbor_allgather_desc,
    [NBO_COLL_NEIGHBOR_ALLGATHERV]  = &nbo_neighbor_allgatherv_desc,
    [NBO_COLL_BARRIER]              = &nbo_barrier_desc,
    [NBO_COLL_REDUCE]               = &nbo_reduce_desc,
    [NBO_COLL_GATHER]               = &nbo_gather_desc,
    [NBO_COLL_GATHERV]              = &nbo_gatherv_desc,
    [NBO_COLL_SCATTER]              = &nbo_scatter_desc,
    [NBO_COLL_SCATTERV]             = &nbo_scatterv_desc,
    [NBO_COLL_SCAN]                 = &nbo_scan_desc,
    [NBO_COLL_EXSCAN]               = &nbo_exscan_desc,
    [NBO_COLL_REDUCE_SCATTER]       = &nbo_reduce_scatter_desc,
    [NBO_COLL_ALLTOALLW]            = &nbo_alltoallw_desc,
};

const nbo_coll_desc_t *nbo_coll_desc(nbo_coll_t coll)
{
    return (unsigned)coll < NBO_COLL_COUNT ? families[coll] : NULL;
}

void nbo_coll_sig_fill(size_t *v, int n, size_t x)
{
    for (int i = 0; i < n; i++)
        v[i] = x;
}

int nbo_coll_one_block(int P, int at, int count, int **counts, int **displs)
{
    *counts = calloc((size_t)P, sizeof(int));
    *displs = calloc((size_t)P, sizeof(int));
    if (!*counts || !*displs)
        return NBO_ERR_NOMEM; /* the caller frees both */
    (*counts)[at] = count;
    return NBO_SUCCESS;
}

int nbo_coll_no_overlap(const nbo_coll_call_t *k, const nbo_block_map_t *smap,
                        const nbo_block_map_t *rmap)
{
    if (smap->hi > smap->lo && rmap->hi > rmap->lo &&
        (const char *)k->sendbuf + smap->lo < (char *)k->recvbuf + rmap->hi &&
        (char *)k->recvbuf + rmap->lo < (const char *)k->sendbuf + smap->hi)
        return NBO_ERR_OVERLAP;
    return NBO_SUCCESS;
}

int nbo_coll_plan_maps(nbo_coll_parts_t *p, int P, const nbo_block_map_t *s)
{
    int rc = nbo_plan_lists(&p->plan, P, P);
    if (rc != NBO_SUCCESS)
        return rc;
    nbo_plan_all_ranks(&p->plan, P);
    size_t *sb = (size_t *)p->plan.args.sbytes, *sd = (size_t *)p->plan.args.sdispl;
    size_t *rb = (size_t *)p->plan.args.rbytes, *rd = (size_t *)p->plan.args.rdispl;
    if (s) {
        memcpy(sb, s->bytes, (size_t)P * sizeof(size_t));
        memcpy(sd, s->boff, (size_t)P * sizeof(size_t));
    }
    memcpy(rb, p->rmap.bytes, (size_t)P * sizeof(size_t));
    memcpy(rd, p->rmap.boff, (size_t)P * sizeof(size_t));
    return NBO_SUCCESS;
}

void nbo_coll_parts_free(nbo_coll_parts_t *p)
{
    nbo_block_map_free(&p->smap);
    nbo_block_map_free(&p->rmap);
    if (p->stage)
        p->stage->free(p->stage_data);
    p->stage = NULL;
    nbo_plan_free(&p->plan);
}

int nbo_coll_maps_done(const nbo_coll_call_t *k, const struct nbo_comm *c, nbo_coll_parts_t *p,
                       int rc, int uniform, int send_lists)
{
    const int ip = k->sendbuf == MPI_IN_PLACE;
    const nbo_block_map_t *s = ip ? &p->rmap : &p->smap, *r = &p->rmap;
    if (rc == NBO_SUCCESS &&
        (s->bytes[c->rank] != r->bytes[c->rank] || (uniform && s->bytes[0] != r->bytes[0])))
        rc = NBO_ERR_MISMATCH;
    if (rc == NBO_SUCCESS && !ip)
        rc = nbo_coll_no_overlap(k, &p->smap, r);
    if (rc == NBO_SUCCESS)
        rc = nbo_coll_plan_maps(p, c->size, send_lists ? s : NULL);
    if (rc != NBO_SUCCESS) {
        nbo_coll_parts_free(p);
        return rc;
    }
    p->plan.args.send_contig = s->dt.contig;
    p->plan.args.recv_contig = r->dt.contig;
    p->plan.args.host_first = (c->caps & NBO_CAP_HW_WAITS) != 0;
    p->sendbuf = ip ? NULL : (void *)k->sendbuf;
    p->recvbuf = k->recvbuf;
    return NBO_SUCCESS;
}
