/*
 * pm_table.c - which MPI_Request handles belong to libnbo-mpi.
 *
 * A small chained hash keyed by the handle's bits.  Every access takes
 * pm_mutex for a few instructions; callers never hold it across MPI or
 * libnbo calls.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmpi.h"

#define NBUCKETS 1024

typedef struct node {
    MPI_Request  h;
    pm_kind_t    kind;
    void        *obj;
    struct node *next;
} node_t;

static node_t *buckets[NBUCKETS];
atomic_int pm_pops;

static unsigned bucket_of(MPI_Request h)
{
    uint64_t k = 0;
    memcpy(&k, &h, sizeof(h) < sizeof(k) ? sizeof(h) : sizeof(k));
    k *= 0x9e3779b97f4a7c15ull;
    return (unsigned)(k >> 54) % NBUCKETS;
}

void pm_table_put(MPI_Request h, pm_kind_t kind, void *obj)
{
    node_t *n = malloc(sizeof(*n));
    if (!n)
        abort(); /* a few bytes: nothing sensible is left to do */
    n->h = h;
    n->kind = kind;
    n->obj = obj;
    unsigned b = bucket_of(h);
    pthread_mutex_lock(&pm_mutex);
    n->next = buckets[b];
    buckets[b] = n;
    if (kind == PM_POP)
        atomic_fetch_add(&pm_pops, 1);
    pthread_mutex_unlock(&pm_mutex);
}

void pm_table_del(MPI_Request h)
{
    unsigned b = bucket_of(h);
    node_t *gone = NULL;
    pthread_mutex_lock(&pm_mutex);
    for (node_t **p = &buckets[b]; *p; p = &(*p)->next)
        if ((*p)->h == h) {
            gone = *p;
            *p = gone->next;
            if (gone->kind == PM_POP)
                atomic_fetch_sub(&pm_pops, 1);
            break;
        }
    pthread_mutex_unlock(&pm_mutex);
    free(gone);
}

pm_kind_t pm_table_get(MPI_Request h, void **obj)
{
    pm_kind_t kind = PM_NONE;
    if (h == MPI_REQUEST_NULL)
        return PM_NONE;
    unsigned b = bucket_of(h);
    pthread_mutex_lock(&pm_mutex);
    for (node_t *n = buckets[b]; n; n = n->next)
        if (n->h == h) {
            kind = n->kind;
            if (obj)
                *obj = n->obj;
            break;
        }
    pthread_mutex_unlock(&pm_mutex);
    return kind;
}
