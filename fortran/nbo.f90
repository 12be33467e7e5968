! nbo.f90 - the Fortran module `nbo`: libnbo's API (include/nbo.h) for
! `use mpi_f08` programs.  Handles are mpi_f08's (type(MPI_Comm),
! type(MPI_Datatype), type(MPI_Op)); libnbo's communicators and requests
! are type(nbo_comm) and type(nbo_request).  Every function returns
! NBO_SUCCESS (0) or a negative NBO_ERR_* code, as in C; nbo_strerror
! says what a code means.  Buffers are contiguous arrays or scalars
! (NBO_ERR_BUFFER otherwise), or mpi_f08's MPI_IN_PLACE and MPI_BOTTOM,
! left untouched until the request completes (asynchronous), as MPI's
! non-blocking calls require.  docs/fortran.md.
module nbo
  use, intrinsic :: iso_c_binding
  use mpi_f08, only : MPI_Comm, MPI_Datatype, MPI_Op
  implicit none

  ! nbo.h's codes (tests/fortran/check_codes.sh keeps them equal).
  integer(c_int), parameter :: NBO_SUCCESS = 0
  integer(c_int), parameter :: NBO_ERR_ARG = -1
  integer(c_int), parameter :: NBO_ERR_BUFFER = -2
  integer(c_int), parameter :: NBO_ERR_COUNT = -3
  integer(c_int), parameter :: NBO_ERR_OVERFLOW = -4
  integer(c_int), parameter :: NBO_ERR_DATATYPE = -5
  integer(c_int), parameter :: NBO_ERR_COMM = -6
  integer(c_int), parameter :: NBO_ERR_REQUEST_NULL = -7
  integer(c_int), parameter :: NBO_ERR_REQUEST = -8
  integer(c_int), parameter :: NBO_ERR_ACTIVE = -9
  integer(c_int), parameter :: NBO_ERR_PENDING = -10
  integer(c_int), parameter :: NBO_ERR_NOMEM = -11
  integer(c_int), parameter :: NBO_ERR_MPI = -12
  integer(c_int), parameter :: NBO_ERR_ENGINE = -13
  integer(c_int), parameter :: NBO_ERR_CONFIG = -14
  integer(c_int), parameter :: NBO_ERR_THREAD_LEVEL = -15
  integer(c_int), parameter :: NBO_ERR_TIMEOUT = -16
  integer(c_int), parameter :: NBO_ERR_TRANSPORT = -17
  integer(c_int), parameter :: NBO_ERR_PEER = -18
  integer(c_int), parameter :: NBO_ERR_MISMATCH = -19
  integer(c_int), parameter :: NBO_ERR_INTERNAL = -20
  integer(c_int), parameter :: NBO_ERR_OVERLAP = -21
  integer(c_int), parameter :: NBO_ERR_DEVICE = -22
  integer(c_int), parameter :: NBO_ERR_CUDA = -23
  integer(c_int), parameter :: NBO_ERR_ROOT = -24
  integer(c_int), parameter :: NBO_ERR_OP = -25
  integer(c_int), parameter :: NBO_ERR_CODEC = -26

  ! libnbo's nbo_comm_t: NBO_COMM_NULL while ptr is c_null_ptr.
  type, bind(C) :: nbo_comm
    type(c_ptr) :: ptr = c_null_ptr
  end type
  ! libnbo's nbo_request_t: NBO_REQUEST_NULL while ptr is c_null_ptr.
  type, bind(C) :: nbo_request
    type(c_ptr) :: ptr = c_null_ptr
  end type

  interface
    ! Collective over comm; libnbo's configuration from the environment
    ! (nbo_comm_create with config NULL).
    integer(c_int) function nbo_comm_create(comm, out) bind(C, name='nbo_f_comm_create')
      import
      type(MPI_Comm), value :: comm
      type(nbo_comm), intent(out) :: out
    end function
    integer(c_int) function nbo_comm_free(comm) bind(C, name='nbo_comm_free')
      import
      type(nbo_comm), intent(inout) :: comm
    end function

    integer(c_int) function nbo_ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
          recvtype, comm, req) bind(C, name='nbo_f_ialltoall')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), value :: sendcount
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: recvcount
      type(MPI_Datatype), value :: recvtype
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_alltoall_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
          recvtype, comm, req) bind(C, name='nbo_f_alltoall_init')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), value :: sendcount
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: recvcount
      type(MPI_Datatype), value :: recvtype
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
          recvtype, comm, req) bind(C, name='nbo_f_iallgather')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), value :: sendcount
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: recvcount
      type(MPI_Datatype), value :: recvtype
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_allgather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
          recvtype, comm, req) bind(C, name='nbo_f_allgather_init')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), value :: sendcount
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: recvcount
      type(MPI_Datatype), value :: recvtype
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_ineighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
          recvtype, comm, req) bind(C, name='nbo_f_ineighbor_alltoall')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), value :: sendcount
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: recvcount
      type(MPI_Datatype), value :: recvtype
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_neighbor_alltoall_init(sendbuf, sendcount, sendtype, recvbuf, &
          recvcount, recvtype, comm, req) bind(C, name='nbo_f_neighbor_alltoall_init')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), value :: sendcount
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: recvcount
      type(MPI_Datatype), value :: recvtype
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_ineighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, &
          recvcount, recvtype, comm, req) bind(C, name='nbo_f_ineighbor_allgather')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), value :: sendcount
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: recvcount
      type(MPI_Datatype), value :: recvtype
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_neighbor_allgather_init(sendbuf, sendcount, sendtype, recvbuf, &
          recvcount, recvtype, comm, req) bind(C, name='nbo_f_neighbor_allgather_init')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), value :: sendcount
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: recvcount
      type(MPI_Datatype), value :: recvtype
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, &
          recvcounts, rdispls, recvtype, comm, req) bind(C, name='nbo_f_ialltoallv')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), intent(in), asynchronous :: sendcounts(*), sdispls(*)
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), intent(in), asynchronous :: recvcounts(*), rdispls(*)
      type(MPI_Datatype), value :: recvtype
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, recvbuf, &
          recvcounts, rdispls, recvtype, comm, req) bind(C, name='nbo_f_alltoallv_init')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), intent(in), asynchronous :: sendcounts(*), sdispls(*)
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), intent(in), asynchronous :: recvcounts(*), rdispls(*)
      type(MPI_Datatype), value :: recvtype
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, &
          recvcounts, rdispls, recvtype, comm, req) bind(C, name='nbo_f_ineighbor_alltoallv')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), intent(in), asynchronous :: sendcounts(*), sdispls(*)
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), intent(in), asynchronous :: recvcounts(*), rdispls(*)
      type(MPI_Datatype), value :: recvtype
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_neighbor_alltoallv_init(sendbuf, sendcounts, sdispls, sendtype, &
          recvbuf, recvcounts, rdispls, recvtype, comm, req) bind(C, &
          name='nbo_f_neighbor_alltoallv_init')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), intent(in), asynchronous :: sendcounts(*), sdispls(*)
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), intent(in), asynchronous :: recvcounts(*), rdispls(*)
      type(MPI_Datatype), value :: recvtype
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, &
          displs, recvtype, comm, req) bind(C, name='nbo_f_iallgatherv')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), value :: sendcount
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), intent(in), asynchronous :: recvcounts(*), displs(*)
      type(MPI_Datatype), value :: recvtype
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_allgatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, &
          displs, recvtype, comm, req) bind(C, name='nbo_f_allgatherv_init')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), value :: sendcount
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), intent(in), asynchronous :: recvcounts(*), displs(*)
      type(MPI_Datatype), value :: recvtype
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, &
          recvcounts, displs, recvtype, comm, req) bind(C, name='nbo_f_ineighbor_allgatherv')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), value :: sendcount
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), intent(in), asynchronous :: recvcounts(*), displs(*)
      type(MPI_Datatype), value :: recvtype
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_neighbor_allgatherv_init(sendbuf, sendcount, sendtype, recvbuf, &
          recvcounts, displs, recvtype, comm, req) bind(C, name='nbo_f_neighbor_allgatherv_init')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), value :: sendcount
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), intent(in), asynchronous :: recvcounts(*), displs(*)
      type(MPI_Datatype), value :: recvtype
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_iallreduce(sendbuf, recvbuf, count, datatype, op, comm, req) bind(C, &
          name='nbo_f_iallreduce')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: count
      type(MPI_Datatype), value :: datatype
      type(MPI_Op), value :: op
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_allreduce_init(sendbuf, recvbuf, count, datatype, op, comm, req) &
          bind(C, name='nbo_f_allreduce_init')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: count
      type(MPI_Datatype), value :: datatype
      type(MPI_Op), value :: op
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_ireduce_scatter_block(sendbuf, recvbuf, count, datatype, op, comm, &
          req) bind(C, name='nbo_f_ireduce_scatter_block')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: count
      type(MPI_Datatype), value :: datatype
      type(MPI_Op), value :: op
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_reduce_scatter_block_init(sendbuf, recvbuf, count, datatype, op, &
          comm, req) bind(C, name='nbo_f_reduce_scatter_block_init')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: count
      type(MPI_Datatype), value :: datatype
      type(MPI_Op), value :: op
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_ibcast(buffer, count, datatype, root, comm, req) bind(C, &
          name='nbo_f_ibcast')
      import
      type(*), dimension(..), asynchronous :: buffer
      integer(c_int), value :: count
      type(MPI_Datatype), value :: datatype
      integer(c_int), value :: root
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_bcast_init(buffer, count, datatype, root, comm, req) bind(C, &
          name='nbo_f_bcast_init')
      import
      type(*), dimension(..), asynchronous :: buffer
      integer(c_int), value :: count
      type(MPI_Datatype), value :: datatype
      integer(c_int), value :: root
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function

    ! Alltoallw: displacements in bytes, a type per block (its C function).
    integer(c_int) function nbo_ialltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, &
          recvcounts, rdispls, recvtypes, comm, req) bind(C, name='nbo_f_ialltoallw')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), intent(in), asynchronous :: sendcounts(*), sdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: sendtypes(*)
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), intent(in), asynchronous :: recvcounts(*), rdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: recvtypes(*)
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_alltoallw_init(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, &
          recvcounts, rdispls, recvtypes, comm, req) bind(C, name='nbo_f_alltoallw_init')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), intent(in), asynchronous :: sendcounts(*), sdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: sendtypes(*)
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), intent(in), asynchronous :: recvcounts(*), rdispls(*)
      type(MPI_Datatype), intent(in), asynchronous :: recvtypes(*)
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    ! Barrier, reduce, scan, exscan, reduce-scatter, gather(v), scatter(v):
    ! arguments as their C functions (nbo.h), root and counts as MPI's.
    integer(c_int) function nbo_ibarrier(comm, req) &
          bind(C, name='nbo_f_ibarrier')
      import
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_barrier_init(comm, req) &
          bind(C, name='nbo_f_barrier_init')
      import
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_ireduce(sendbuf, recvbuf, count, datatype, op, root, comm, req) &
          bind(C, name='nbo_f_ireduce')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: count
      type(MPI_Datatype), value :: datatype
      type(MPI_Op), value :: op
      integer(c_int), value :: root
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_reduce_init(sendbuf, recvbuf, count, datatype, op, &
          root, comm, req) &
          bind(C, name='nbo_f_reduce_init')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: count
      type(MPI_Datatype), value :: datatype
      type(MPI_Op), value :: op
      integer(c_int), value :: root
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_iscan(sendbuf, recvbuf, count, datatype, op, comm, req) &
          bind(C, name='nbo_f_iscan')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: count
      type(MPI_Datatype), value :: datatype
      type(MPI_Op), value :: op
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_scan_init(sendbuf, recvbuf, count, datatype, op, comm, req) &
          bind(C, name='nbo_f_scan_init')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: count
      type(MPI_Datatype), value :: datatype
      type(MPI_Op), value :: op
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_iexscan(sendbuf, recvbuf, count, datatype, op, comm, req) &
          bind(C, name='nbo_f_iexscan')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: count
      type(MPI_Datatype), value :: datatype
      type(MPI_Op), value :: op
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_exscan_init(sendbuf, recvbuf, count, datatype, op, comm, req) &
          bind(C, name='nbo_f_exscan_init')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: count
      type(MPI_Datatype), value :: datatype
      type(MPI_Op), value :: op
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, &
          comm, req) &
          bind(C, name='nbo_f_ireduce_scatter')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), intent(in), asynchronous :: recvcounts(*)
      type(MPI_Datatype), value :: datatype
      type(MPI_Op), value :: op
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_reduce_scatter_init(sendbuf, recvbuf, recvcounts, datatype, op, &
          comm, req) &
          bind(C, name='nbo_f_reduce_scatter_init')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), intent(in), asynchronous :: recvcounts(*)
      type(MPI_Datatype), value :: datatype
      type(MPI_Op), value :: op
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
          recvtype, root, comm, req) &
          bind(C, name='nbo_f_igather')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), value :: sendcount
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: recvcount
      type(MPI_Datatype), value :: recvtype
      integer(c_int), value :: root
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_gather_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
          recvtype, root, comm, req) &
          bind(C, name='nbo_f_gather_init')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), value :: sendcount
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: recvcount
      type(MPI_Datatype), value :: recvtype
      integer(c_int), value :: root
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
          recvtype, root, comm, req) &
          bind(C, name='nbo_f_iscatter')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), value :: sendcount
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: recvcount
      type(MPI_Datatype), value :: recvtype
      integer(c_int), value :: root
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_scatter_init(sendbuf, sendcount, sendtype, recvbuf, recvcount, &
          recvtype, root, comm, req) &
          bind(C, name='nbo_f_scatter_init')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), value :: sendcount
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: recvcount
      type(MPI_Datatype), value :: recvtype
      integer(c_int), value :: root
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, &
          displs, recvtype, root, comm, req) &
          bind(C, name='nbo_f_igatherv')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), value :: sendcount
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), intent(in), asynchronous :: recvcounts(*), displs(*)
      type(MPI_Datatype), value :: recvtype
      integer(c_int), value :: root
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_gatherv_init(sendbuf, sendcount, sendtype, recvbuf, recvcounts, &
          displs, recvtype, root, comm, req) &
          bind(C, name='nbo_f_gatherv_init')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), value :: sendcount
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), intent(in), asynchronous :: recvcounts(*), displs(*)
      type(MPI_Datatype), value :: recvtype
      integer(c_int), value :: root
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, &
          recvcount, recvtype, root, comm, req) &
          bind(C, name='nbo_f_iscatterv')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), intent(in), asynchronous :: sendcounts(*), displs(*)
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: recvcount
      type(MPI_Datatype), value :: recvtype
      integer(c_int), value :: root
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function
    integer(c_int) function nbo_scatterv_init(sendbuf, sendcounts, displs, sendtype, recvbuf, &
          recvcount, recvtype, root, comm, req) &
          bind(C, name='nbo_f_scatterv_init')
      import
      type(*), dimension(..), intent(in), asynchronous :: sendbuf
      integer(c_int), intent(in), asynchronous :: sendcounts(*), displs(*)
      type(MPI_Datatype), value :: sendtype
      type(*), dimension(..), asynchronous :: recvbuf
      integer(c_int), value :: recvcount
      type(MPI_Datatype), value :: recvtype
      integer(c_int), value :: root
      type(nbo_comm), value :: comm
      type(nbo_request), intent(out) :: req
    end function

    integer(c_int) function nbo_start(req) bind(C, name='nbo_start')
      import
      type(nbo_request), intent(inout) :: req
    end function
    ! flag: 1 once the request is complete, else 0.
    integer(c_int) function nbo_test(req, flag) bind(C, name='nbo_test')
      import
      type(nbo_request), intent(inout) :: req
      integer(c_int), intent(out) :: flag
    end function
    integer(c_int) function nbo_wait(req) bind(C, name='nbo_wait')
      import
      type(nbo_request), intent(inout) :: req
    end function
    integer(c_int) function nbo_waitall(count, reqs) bind(C, name='nbo_waitall')
      import
      integer(c_int), value :: count
      type(nbo_request), intent(inout) :: reqs(*)
    end function
    integer(c_int) function nbo_request_free(req) bind(C, name='nbo_request_free')
      import
      type(nbo_request), intent(inout) :: req
    end function
    integer(c_int) function nbo_progress() bind(C, name='nbo_progress')
      import
    end function

  end interface

contains

  ! What a libnbo error code means (nbo_strerror).
  function nbo_strerror(err) result(msg)
    integer(c_int), intent(in) :: err
    character(len=:), allocatable :: msg
    type(c_ptr) :: p
    character(kind=c_char), pointer :: chars(:)
    integer :: i, n
    interface
      type(c_ptr) function nbo_strerror_c(err) bind(C, name='nbo_strerror')
        import
        integer(c_int), value :: err
      end function
      integer(c_size_t) function c_strlen(s) bind(C, name='strlen')
        import
        type(c_ptr), value :: s
      end function
    end interface
    p = nbo_strerror_c(err)
    n = int(c_strlen(p))
    call c_f_pointer(p, chars, [n])
    allocate(character(len=n) :: msg)
    do i = 1, n
      msg(i:i) = chars(i)
    end do
  end function

end module nbo
