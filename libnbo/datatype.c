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

    m->counts = malloc((size_t)P * sizeof(int));
    m->displ = malloc((size_t)P * sizeof(MPI_Aint));
    m->bytes = malloc((size_t)P * sizeof(size_t));
    m->boff = malloc((size_t)P * sizeof(size_t));
    if (!m->counts || !m->displ || !m->bytes || !m->boff) {
        nbo_block_map_free(m);
        return NBO_ERR_NOMEM;
    }
    size_t total = 0;
    for (int p = 0; p < P; p++) {
        int64_t cnt = counts ? counts[p] : uniform_count;
        int64_t disp = displs ? displs[p] : (int64_t)p * uniform_count;
        m->counts[p] = (int)cnt;
        if (m->dt.size && (size_t)cnt > SIZE_MAX / 4 / m->dt.size)
            goto overflow;
        m->bytes[p] = (size_t)cnt * m->dt.size;
        if (total > SIZE_MAX / 4 - m->bytes[p])
            goto overflow;
        total += m->bytes[p];
        __int128 off = (__int128)disp * m->dt.extent;
        if (off > INT64_MAX / 4 || off < -(INT64_MAX / 4))
            goto overflow;
        m->displ[p] = (MPI_Aint)off;
        if (cnt > 0) {
            /* first element's data .. last element's data */
            MPI_Aint first = m->displ[p] + m->dt.true_lb;
            MPI_Aint last = first + (MPI_Aint)(cnt - 1) * m->dt.extent + m->dt.true_extent;
            if (m->hi <= m->lo || first < m->lo)
                m->lo = first;
            if (last > m->hi)
                m->hi = last;
        }
        if (m->dt.contig && m->bytes[p]) {
            int64_t b = (int64_t)off + m->dt.true_lb;
            if (b < 0) /* data before the buffer pointer: let MPI handle it */
                m->dt.contig = 0;
            else {
                m->boff[p] = (size_t)b;
                if (m->boff[p] + m->bytes[p] > m->span)
                    m->span = m->boff[p] + m->bytes[p];
            }
        }
    }
    if (total > 0 && buf == NULL) {
        nbo_block_map_free(m);
        return NBO_ERR_BUFFER;
    }
    if (!m->dt.contig && total > 0) {
        /* Keep the type alive: the user may free theirs before we pack. */
        if (MPI_Type_dup(type, &m->owned) != MPI_SUCCESS) {
            nbo_block_map_free(m);
            return NBO_ERR_MPI;
        }
        m->dt.type = m->owned;
        m->span = 0;
    }
    return NBO_SUCCESS;
overflow:
    nbo_block_map_free(m);
    return NBO_ERR_OVERFLOW;
}

void nbo_block_map_free(nbo_block_map_t *m)
{
    if (m->owned != MPI_DATATYPE_NULL)
        MPI_Type_free(&m->owned);
    free(m->counts);
    free(m->displ);
    free(m->bytes);
    free(m->boff);
    memset(m, 0, sizeof(*m));
    m->owned = MPI_DATATYPE_NULL;
}

int nbo_block_pack(const nbo_block_map_t *m, int p, void *dst, size_t len, MPI_Comm comm)
{
    MPI_Count pos = 0;
    if (nbo_mpi_pack(m->base + m->displ[p], m->counts[p], m->dt.type, dst, (MPI_Count)len, &pos,
                   comm) != MPI_SUCCESS || (size_t)pos != len)
        return NBO_ERR_MPI;
    return NBO_SUCCESS;
}

int nbo_block_unpack(const nbo_block_map_t *m, int p, const void *src, size_t len, MPI_Comm comm)
{
    MPI_Count pos = 0;
    if (nbo_mpi_unpack(src, (MPI_Count)len, &pos, m->base + m->displ[p], m->counts[p], m->dt.type,
                     comm) != MPI_SUCCESS || (size_t)pos != len)
        return NBO_ERR_MPI;
    return NBO_SUCCESS;
}
