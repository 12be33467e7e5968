! The module nbo beyond examples/overlap.f90: every shape of call (the v
! forms, reductions with Fortran's MPI_IN_PLACE, broadcast), nbo_test and
! nbo_waitall, a persistent reduction started twice, and error codes
! with their message.  Each result checked at any P.
program t_nbo_module
  use mpi_f08
  use nbo
  implicit none
  integer, parameter :: n = 64
  type(nbo_comm) :: comm
  type(nbo_request) :: req(4), null_req
  integer, allocatable, asynchronous :: sb(:), rb(:), counts(:), displs(:), rcounts(:), rdispls(:)
  integer, allocatable, asynchronous :: g(:), gv(:)
  double precision, asynchronous :: x(n)
  integer, asynchronous :: b(n), me(1)
  integer :: rank, np, provided, i, j, k, flag, bad, rc
  character(len=:), allocatable :: msg

  call MPI_Init_thread(MPI_THREAD_MULTIPLE, provided)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  bad = 0
  call ok(nbo_comm_create(MPI_COMM_WORLD, comm))

  ! alltoallv: j + 1 elements to each rank j, the value rank * 1000 + j.
  allocate(sb(np * (np + 1) / 2), rb(np * (rank + 1)), counts(np), displs(np))
  allocate(rcounts(np), rdispls(np))
  do j = 0, np - 1
    counts(j + 1) = j + 1
    displs(j + 1) = j * (j + 1) / 2
    rcounts(j + 1) = rank + 1
    rdispls(j + 1) = (rank + 1) * j
    sb(displs(j + 1) + 1 : displs(j + 1) + j + 1) = rank * 1000 + j
  end do
  rb = -1
  call ok(nbo_ialltoallv(sb, counts, displs, MPI_INTEGER, rb, rcounts, rdispls, MPI_INTEGER, &
                         comm, req(1)))
  flag = 0
  do while (flag == 0)
    call ok(nbo_test(req(1), flag))
  end do
  do j = 0, np - 1
    if (any(rb(j * (rank + 1) + 1 : (j + 1) * (rank + 1)) /= j * 1000 + rank)) bad = bad + 1
  end do

  ! allreduce in place, allgather(v) and broadcast outstanding at once.
  allocate(g(np), gv(np * (np + 1) / 2))
  x = rank + 1
  b = merge(7, 0, rank == 0)
  me = rank
  call ok(nbo_iallreduce(MPI_IN_PLACE, x, n, MPI_DOUBLE_PRECISION, MPI_SUM, comm, req(1)))
  call ok(nbo_iallgather(me, 1, MPI_INTEGER, g, 1, MPI_INTEGER, comm, req(2)))
  call ok(nbo_ibcast(b, n, MPI_INTEGER, 0, comm, req(3)))
  ! rank's rank + 1 elements: its alltoallv row to rank, all rank * 1000 + rank.
  call ok(nbo_iallgatherv(sb(displs(rank + 1) + 1 :), rank + 1, MPI_INTEGER, gv, counts, displs, &
                          MPI_INTEGER, comm, req(4)))
  call ok(nbo_waitall(4, req))
  if (any(nint(x) /= np * (np + 1) / 2)) bad = bad + 1
  if (any(g /= [(j, j = 0, np - 1)])) bad = bad + 1
  if (any(b /= 7)) bad = bad + 1
  do j = 0, np - 1
    if (any(gv(displs(j + 1) + 1 : displs(j + 1) + j + 1) /= j * 1000 + j)) bad = bad + 1
  end do
  do i = 1, 4
    if (c_associated(req(i)%ptr)) bad = bad + 1 ! completed: NBO_REQUEST_NULL
  end do

  ! A persistent reduce_scatter_block, planned once, started twice.
  deallocate(sb, rb)
  allocate(sb(n * np), rb(n))
  call ok(nbo_reduce_scatter_block_init(sb, rb, n, MPI_INTEGER, MPI_SUM, comm, req(1)))
  do k = 1, 2
    sb = [(k * (rank + i), i = 1, n * np)]
    call ok(nbo_start(req(1)))
    call ok(nbo_wait(req(1)))
    ! element i of rank's block: sum over ranks r of k * (r + rank * n + i)
    if (any(rb /= [(k * (np * (rank * n + i) + np * (np - 1) / 2), i = 1, n)])) bad = bad + 1
  end do
  call ok(nbo_request_free(req(1)))

  ! Errors are codes, with a message; waiting on a null request succeeds.
  rc = nbo_ialltoall(sb, -1, MPI_INTEGER, rb, 1, MPI_INTEGER, comm, req(1))
  msg = nbo_strerror(rc)
  if (rc /= NBO_ERR_COUNT .or. len(msg) == 0) bad = bad + 1
  ! A non-contiguous buffer is refused, not copied away.
  rc = nbo_ialltoall(sb(1::2), 1, MPI_INTEGER, rb, 1, MPI_INTEGER, comm, req(1))
  if (rc /= NBO_ERR_BUFFER) bad = bad + 1
  call ok(nbo_wait(null_req))

  call ok(nbo_comm_free(comm))
  if (c_associated(comm%ptr)) bad = bad + 1
  call MPI_Allreduce(MPI_IN_PLACE, bad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0) print '(a,i0,a,i0)', 't_nbo_module: P=', np, ' failures ', bad
  if (rank == 0 .and. bad == 0) print '(a)', 't_nbo_module: PASS'
  deallocate(sb, rb, counts, displs, rcounts, rdispls, g, gv, msg)
  call MPI_Finalize()
  if (bad /= 0) error stop
contains
  subroutine ok(rc)
    integer, intent(in) :: rc
    if (rc /= NBO_SUCCESS) then
      print '(a,i0,2a)', 't_nbo_module: error ', rc, ': ', nbo_strerror(rc)
      bad = bad + 1
    end if
  end subroutine
end program
