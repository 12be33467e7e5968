/*
 * nbo_mpi.h - MPI for libnbo's own code: <mpi.h>, with every MPI function
 * libnbo and p3dfft_overlap call mapped to its PMPI_ name.  Internal; the
 * one place libnbo's sources get <mpi.h> from (tests/unit/check_layers.sh).
 *
 * Why: an interposer on MPI's profiling interface (libnbo-mpi.so, a tracer)
 * defines the MPI_ names and serves them, with libnbo among others.  Were
 * libnbo's own traffic (bootstraps, NBO_CHECK's exchanges, agreements) to
 * call MPI_ names, the interposer would serve it again with libnbo, without
 * end.  The PMPI_ names always reach MPI itself.  The suite 'install'
 * checks that libnbo.so imports no name libnbo-mpi.so defines
 * (tests/install/check_mpi_imports.sh): a call added here unmapped fails it.
 */
#ifndef NBO_MPI_H
#define NBO_MPI_H

#include <mpi.h>

/* Collectives. */
#define MPI_Allgather               PMPI_Allgather
#define MPI_Allgatherv              PMPI_Allgatherv
#define MPI_Allreduce               PMPI_Allreduce
#define MPI_Alltoall                PMPI_Alltoall
#define MPI_Alltoallv               PMPI_Alltoallv
#define MPI_Iallreduce              PMPI_Iallreduce
#define MPI_Ialltoallv              PMPI_Ialltoallv
#define MPI_Reduce_local            PMPI_Reduce_local

/* Point-to-point and completion. */
#define MPI_Isend                   PMPI_Isend
#define MPI_Isend_c                 PMPI_Isend_c
#define MPI_Irecv                   PMPI_Irecv
#define MPI_Irecv_c                 PMPI_Irecv_c
#define MPI_Test                    PMPI_Test
#define MPI_Testsome                PMPI_Testsome
#define MPI_Wait                    PMPI_Wait
#define MPI_Cancel                  PMPI_Cancel
#define MPI_Request_free            PMPI_Request_free

/* Communicators and topologies. */
#define MPI_Comm_dup                PMPI_Comm_dup
#define MPI_Comm_free               PMPI_Comm_free
#define MPI_Comm_get_attr           PMPI_Comm_get_attr
#define MPI_Comm_rank               PMPI_Comm_rank
#define MPI_Comm_size               PMPI_Comm_size
#define MPI_Comm_set_errhandler     PMPI_Comm_set_errhandler
#define MPI_Comm_test_inter         PMPI_Comm_test_inter
#define MPI_Cart_coords             PMPI_Cart_coords
#define MPI_Cart_create             PMPI_Cart_create
#define MPI_Cart_shift              PMPI_Cart_shift
#define MPI_Cart_sub                PMPI_Cart_sub
#define MPI_Cartdim_get             PMPI_Cartdim_get
#define MPI_Dist_graph_neighbors    PMPI_Dist_graph_neighbors
#define MPI_Dist_graph_neighbors_count PMPI_Dist_graph_neighbors_count
#define MPI_Graph_neighbors         PMPI_Graph_neighbors
#define MPI_Graph_neighbors_count   PMPI_Graph_neighbors_count
#define MPI_Topo_test               PMPI_Topo_test
#define MPI_Dims_create             PMPI_Dims_create

/* Datatypes, ops, packing; the _c (MPI 4.0) and _x (MPI 3.1) forms are
 * what util/mpi_compat.h names. */
#define MPI_Type_commit             PMPI_Type_commit
#define MPI_Type_contiguous         PMPI_Type_contiguous
#define MPI_Type_dup                PMPI_Type_dup
#define MPI_Type_free               PMPI_Type_free
#define MPI_Type_get_envelope       PMPI_Type_get_envelope
#define MPI_Type_size_c             PMPI_Type_size_c
#define MPI_Type_size_x             PMPI_Type_size_x
#define MPI_Type_get_extent_c       PMPI_Type_get_extent_c
#define MPI_Type_get_extent_x       PMPI_Type_get_extent_x
#define MPI_Type_get_true_extent_c  PMPI_Type_get_true_extent_c
#define MPI_Type_get_true_extent_x  PMPI_Type_get_true_extent_x
#define MPI_Op_commutative          PMPI_Op_commutative
#define MPI_Pack                    PMPI_Pack
#define MPI_Pack_c                  PMPI_Pack_c
#define MPI_Pack_size               PMPI_Pack_size
#define MPI_Pack_size_c             PMPI_Pack_size_c
#define MPI_Unpack                  PMPI_Unpack
#define MPI_Unpack_c                PMPI_Unpack_c

/* Environment. */
#define MPI_Initialized             PMPI_Initialized
#define MPI_Finalized               PMPI_Finalized
#define MPI_Query_thread            PMPI_Query_thread
#define MPI_Get_library_version     PMPI_Get_library_version
#define MPI_Error_string            PMPI_Error_string

/* An MPI may make the clock a macro (no symbol to interpose); keep it. */
#ifndef MPI_Wtime
#define MPI_Wtime                   PMPI_Wtime
#endif
#ifndef MPI_Wtick
#define MPI_Wtick                   PMPI_Wtick
#endif

#endif
