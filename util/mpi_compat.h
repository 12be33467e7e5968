/*
 * mpi_compat.h - the MPI 4.0 large-count calls libnbo uses, on an MPI 3.1
 * library (Open MPI 4.1) too.  Internal.
 *
 * With MPI 4.0 (MPICH 4) these are the _c calls themselves.  Before it the
 * _x queries stand in for the type calls; pack, unpack and point-to-point
 * calls take an int count there, so a count beyond INT_MAX fails with
 * MPI_ERR_COUNT (one block of one peer is then limited to 2 GiB - 1 bytes
 * on the MPI engine) instead of being truncated.
 */
#ifndef NBO_MPI_COMPAT_H
#define NBO_MPI_COMPAT_H

#include <limits.h>
#include "nbo_mpi.h" /* MPI by its PMPI_ names */

#if MPI_VERSION >= 4

#define nbo_mpi_type_size         MPI_Type_size_c
#define nbo_mpi_type_extent       MPI_Type_get_extent_c
#define nbo_mpi_type_true_extent  MPI_Type_get_true_extent_c
#define nbo_mpi_pack_size         MPI_Pack_size_c
#define nbo_mpi_pack              MPI_Pack_c
#define nbo_mpi_unpack            MPI_Unpack_c
#define nbo_mpi_isend             MPI_Isend_c
#define nbo_mpi_irecv             MPI_Irecv_c

#else

#define nbo_mpi_type_size         MPI_Type_size_x
#define nbo_mpi_type_extent       MPI_Type_get_extent_x
#define nbo_mpi_type_true_extent  MPI_Type_get_true_extent_x

static inline int nbo_mpi_pack_size(MPI_Count n, MPI_Datatype t, MPI_Comm c, MPI_Count *size)
{
    int s = 0, rc = n > INT_MAX ? MPI_ERR_COUNT : MPI_Pack_size((int)n, t, c, &s);
    *size = s;
    return rc;
}

static inline int nbo_mpi_pack(const void *in, MPI_Count n, MPI_Datatype t, void *out,
                               MPI_Count outsize, MPI_Count *pos, MPI_Comm c)
{
    if (n > INT_MAX || outsize > INT_MAX || *pos > INT_MAX)
        return MPI_ERR_COUNT;
    int p = (int)*pos, rc = MPI_Pack(in, (int)n, t, out, (int)outsize, &p, c);
    *pos = p;
    return rc;
}

static inline int nbo_mpi_unpack(const void *in, MPI_Count insize, MPI_Count *pos, void *out,
                                 MPI_Count n, MPI_Datatype t, MPI_Comm c)
{
    if (n > INT_MAX || insize > INT_MAX || *pos > INT_MAX)
        return MPI_ERR_COUNT;
    int p = (int)*pos, rc = MPI_Unpack(in, (int)insize, &p, out, (int)n, t, c);
    *pos = p;
    return rc;
}

static inline int nbo_mpi_isend(const void *b, MPI_Count n, MPI_Datatype t, int peer, int tag,
                                MPI_Comm c, MPI_Request *r)
{
    return n > INT_MAX ? MPI_ERR_COUNT : MPI_Isend(b, (int)n, t, peer, tag, c, r);
}

static inline int nbo_mpi_irecv(void *b, MPI_Count n, MPI_Datatype t, int peer, int tag,
                                MPI_Comm c, MPI_Request *r)
{
    return n > INT_MAX ? MPI_ERR_COUNT : MPI_Irecv(b, (int)n, t, peer, tag, c, r);
}

#endif
#endif
