/* datatype.c - MPI datatypes as byte blocks; pack/unpack of the others. */
#include "datatype.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <nbo.h>

#include "../util/mpi_compat.h"

int nbo_dtype_query(MPI_Datatype type, MPI_Comm comm, nbo_dtype_t *out)
{
    memset(out, 0, sizeof(*out));
    if (type == MPI_DATATYPE_NULL)
        return NBO_ERR_DATATYPE;
    /* MPI has no "is committed" query.  MPI_Pack of nothing refuses an
     * uncommitted type in MPICH and Open MPI; MPICH's MPI_Pack_size does
     * too, Open MPI 4.1's crashes on one, so it comes second.  comm returns
     * errors instead of aborting. */
    char probe = 0;
    int ppos = 0;
    MPI_Count psize;
    if (MPI_Pack(&probe, 0, type, &probe, 0, &ppos, comm) != MPI_SUCCESS ||
        nbo_mpi_pack_size(1, type, comm, &psize) != MPI_SUCCESS)
        return NBO_ERR_DATATYPE;
    MPI_Count size, lb, extent, tlb, textent;
    if (nbo_mpi_type_size(type, &size) != MPI_SUCCESS ||
        nbo_mpi_type_extent(type, &lb, &extent) != MPI_SUCCESS ||
        nbo_mpi_type_true_extent(type, &tlb, &textent) != MPI_SUCCESS || size < 0)
        return NBO_ERR_DATATYPE;
    out->type = type;
    out->size = (size_t)size;
    out->extent = (MPI_Aint)extent;
    out->true_lb = (MPI_Aint)tlb;
    out->true_extent = (MPI_Aint)textent;
    /* count elements form one run of size*count bytes exactly when one
     * element has no holes and the next starts where it ends. */
    out->contig = size == 0 || (textent == size && extent == size && tlb >= 0);
    return NBO_SUCCESS;
}

/* The arrays of P blocks. */
static int map_alloc(nbo_block_map_t *m, int P)
{
    m->counts = malloc((size_t)P * sizeof(int));
    m->displ = malloc((size_t)P * sizeof(MPI_Aint));
    m->bytes = malloc((size_t)P * sizeof(size_t));
    m->boff = calloc((size_t)P, sizeof(size_t));
    return m->counts && m->displ && m->bytes && m->boff ? NBO_SUCCESS : NBO_ERR_NOMEM;
}

/* Block p: cnt elements of dt at byte offset off.  Grows the touched
 * range, the total and the span; clears *contig where the block's data
 * is not one run at or after the buffer pointer. */
static int map_place(nbo_block_map_t *m, int p, int64_t cnt, __int128 off, const nbo_dtype_t *dt,
                     int *contig, size_t *total)
{
    m->counts[p] = (int)cnt;
    if (dt->size && (size_t)cnt > SIZE_MAX / 4 / dt->size)
        return NBO_ERR_OVERFLOW;
    m->bytes[p] = (size_t)cnt * dt->size;
    if (*total > SIZE_MAX / 4 - m->bytes[p])
        return NBO_ERR_OVERFLOW;
    *total += m->bytes[p];
    if (off > INT64_MAX / 4 || off < -(INT64_MAX / 4))
        return NBO_ERR_OVERFLOW;
    m->displ[p] = (MPI_Aint)off;
    if (cnt > 0) {
        /* first element's data .. last element's data */
        MPI_Aint first = m->displ[p] + dt->true_lb;
        MPI_Aint last = first + (MPI_Aint)(cnt - 1) * dt->extent + dt->true_extent;
        if (m->hi <= m->lo || first < m->lo)
            m->lo = first;
        if (last > m->hi)
            m->hi = last;
    }
    if (!m->bytes[p])
        return NBO_SUCCESS;
    if (!dt->contig) {
        *contig = 0;
        return NBO_SUCCESS;
    }
    int64_t b = (int64_t)off + dt->true_lb;
    if (b < 0) /* data before the buffer pointer: let MPI handle it */
        *contig = 0;
    else {
        m->boff[p] = (size_t)b;
        if (m->boff[p] + m->bytes[p] > m->span)
            m->span = m->boff[p] + m->bytes[p];
    }
    return NBO_SUCCESS;
}

static int map_fail(nbo_block_map_t *m, int rc)
{
    nbo_block_map_free(m);
    return rc;
}

int nbo_block_map_init(nbo_block_map_t *m, int P, const void *buf, const int *counts,
                       int uniform_count, const int *displs, MPI_Datatype type, MPI_Comm comm)
{
    memset(m, 0, sizeof(*m));
    m->owned = MPI_DATATYPE_NULL;
    m->base = (char *)buf;
    if (counts == NULL && uniform_count < 0)
        return NBO_ERR_COUNT;
    if (counts)
        for (int p = 0; p < P; p++)
            if (counts[p] < 0 || (displs && displs[p] < 0))
                return NBO_ERR_COUNT;
    int rc = nbo_dtype_query(type, comm, &m->dt);
    if (rc != NBO_SUCCESS)
        return rc;
    if ((rc = map_alloc(m, P)) != NBO_SUCCESS)
        return map_fail(m, rc);
    size_t total = 0;
    int contig = m->dt.contig;
    for (int p = 0; p < P; p++) {
        int64_t cnt = counts ? counts[p] : uniform_count;
        int64_t disp = displs ? displs[p] : (int64_t)p * uniform_count;
        if ((rc = map_place(m, p, cnt, (__int128)disp * m->dt.extent, &m->dt, &contig, &total)))
            return map_fail(m, rc);
    }
    m->dt.contig = contig;
    if (total > 0 && buf == NULL)
        return map_fail(m, NBO_ERR_BUFFER);
    if (!m->dt.contig && total > 0) {
        /* Keep the type alive: the user may free theirs before we pack. */
        if (MPI_Type_dup(type, &m->owned) != MPI_SUCCESS)
            return map_fail(m, NBO_ERR_MPI);
        m->dt.type = m->owned;
        m->span = 0;
    }
    return NBO_SUCCESS;
}

int nbo_block_map_init_w(nbo_block_map_t *m, int P, const void *buf, const int *counts,
                         const int *displs, const MPI_Datatype *types, MPI_Comm comm)
{
    memset(m, 0, sizeof(*m));
    m->owned = MPI_DATATYPE_NULL;
    m->base = (char *)buf;
    for (int p = 0; p < P; p++)
        if (counts[p] < 0 || displs[p] < 0)
            return NBO_ERR_COUNT;
    m->dts = calloc((size_t)P, sizeof(nbo_dtype_t));
    m->owned_w = malloc((size_t)P * sizeof(MPI_Datatype));
    int rc = m->dts && m->owned_w ? map_alloc(m, P) : NBO_ERR_NOMEM;
    if (rc != NBO_SUCCESS)
        return map_fail(m, rc);
    for (int p = 0; p < P; p++)
        m->owned_w[p] = MPI_DATATYPE_NULL;
    m->P_w = P;
    size_t total = 0;
    int contig = 1;
    for (int p = 0; p < P; p++) {
        nbo_dtype_t *dt = &m->dts[p];
        if (counts[p] == 0) /* MPI lets an empty block's type be anything */
            *dt = (nbo_dtype_t){.type = MPI_BYTE, .size = 1, .extent = 1, .true_extent = 1,
                                .contig = 1};
        else if ((rc = nbo_dtype_query(types[p], comm, dt)) != NBO_SUCCESS)
            return map_fail(m, rc);
        if ((rc = map_place(m, p, counts[p], displs[p], dt, &contig, &total)))
            return map_fail(m, rc);
    }
    m->dt = m->dts[0];
    m->dt.contig = contig;
    if (total > 0 && buf == NULL)
        return map_fail(m, NBO_ERR_BUFFER);
    if (!contig) {
        /* Keep the types alive: the user may free theirs before we pack. */
        for (int p = 0; p < P; p++) {
            if (!m->bytes[p])
                continue;
            if (MPI_Type_dup(m->dts[p].type, &m->owned_w[p]) != MPI_SUCCESS)
                return map_fail(m, NBO_ERR_MPI);
            m->dts[p].type = m->owned_w[p];
        }
        m->span = 0;
    }
    return NBO_SUCCESS;
}

void nbo_block_map_free(nbo_block_map_t *m)
{
    if (m->owned != MPI_DATATYPE_NULL)
        MPI_Type_free(&m->owned);
    for (int p = 0; m->owned_w && p < m->P_w; p++)
        if (m->owned_w[p] != MPI_DATATYPE_NULL)
            MPI_Type_free(&m->owned_w[p]);
    free(m->counts);
    free(m->displ);
    free(m->bytes);
    free(m->boff);
    free(m->dts);
    free(m->owned_w);
    memset(m, 0, sizeof(*m));
    m->owned = MPI_DATATYPE_NULL;
}

/* The type of block p. */
static MPI_Datatype block_type(const nbo_block_map_t *m, int p)
{
    return m->dts ? m->dts[p].type : m->dt.type;
}

int nbo_block_pack(const nbo_block_map_t *m, int p, void *dst, size_t len, MPI_Comm comm)
{
    MPI_Count pos = 0;
    if (nbo_mpi_pack(m->base + m->displ[p], m->counts[p], block_type(m, p), dst, (MPI_Count)len, &pos,
                   comm) != MPI_SUCCESS || (size_t)pos != len)
        return NBO_ERR_MPI;
    return NBO_SUCCESS;
}

int nbo_block_unpack(const nbo_block_map_t *m, int p, const void *src, size_t len, MPI_Comm comm)
{
    MPI_Count pos = 0;
    if (nbo_mpi_unpack(src, (MPI_Count)len, &pos, m->base + m->displ[p], m->counts[p], block_type(m, p),
                     comm) != MPI_SUCCESS || (size_t)pos != len)
        return NBO_ERR_MPI;
    return NBO_SUCCESS;
}
