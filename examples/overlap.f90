! overlap.f90 - overlap.c in Fortran, with the module nbo: start an
! all-to-all, compute while it runs, wait; then the same exchange as a
! persistent request, planned once and started twice.
!
!   mpiexec -n 2 ./overlap_f
!
! With NBO_PROGRESS=thread (or auto on an engine with an event descriptor)
! the exchange advances during compute() without any libnbo call.
program overlap
  use mpi_f08
  use nbo
  implicit none
  integer, parameter :: n = 1024 ! doubles per peer
  double precision, allocatable, asynchronous :: sendbuf(:), recvbuf(:)
  type(nbo_comm) :: comm
  type(nbo_request) :: req
  integer :: rank, np, provided, i, j, k, bad
  double precision :: x

  ! libnbo's progress thread makes MPI calls: MPI_THREAD_MULTIPLE.
  call MPI_Init_thread(MPI_THREAD_MULTIPLE, provided)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  allocate(sendbuf(n * np), recvbuf(n * np))
  do j = 0, np - 1
    do i = 1, n
      sendbuf(j * n + i) = rank + np * (j + np * i) ! from rank to j, element i
    end do
  end do
  call check(nbo_comm_create(MPI_COMM_WORLD, comm), 'nbo_comm_create')

  recvbuf = -1
  call check(nbo_ialltoall(sendbuf, n, MPI_DOUBLE_PRECISION, recvbuf, n, MPI_DOUBLE_PRECISION, &
                           comm, req), 'nbo_ialltoall')
  x = compute(10000000)
  call check(nbo_wait(req), 'nbo_wait')
  bad = wrong()

  call check(nbo_alltoall_init(sendbuf, n, MPI_DOUBLE_PRECISION, recvbuf, n, &
                               MPI_DOUBLE_PRECISION, comm, req), 'nbo_alltoall_init')
  do k = 1, 2
    recvbuf = -1
    call check(nbo_start(req), 'nbo_start')
    x = x + compute(1000000)
    call check(nbo_wait(req), 'nbo_wait')
    bad = bad + wrong()
  end do
  call check(nbo_request_free(req), 'nbo_request_free')
  call check(nbo_comm_free(comm), 'nbo_comm_free')

  call MPI_Allreduce(MPI_IN_PLACE, bad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0) print '(a,i0,a,i0,a,f8.6,a)', 'overlap_f: P=', np, ' wrong elements ', bad, &
                                                ' (computed ', x, ')'
  if (rank == 0 .and. bad == 0) print '(a)', 'overlap_f: PASS'
  deallocate(sendbuf, recvbuf)
  call MPI_Finalize()
  if (bad /= 0) error stop
contains
  double precision function compute(m)
    integer, intent(in) :: m
    integer :: i
    compute = 0
    do i = 1, m
      compute = compute + 1d0 / (dble(i) * i)
    end do
  end function

  ! Elements of recvbuf that are not what rank j sent here.
  integer function wrong()
    integer :: i, j
    wrong = 0
    do j = 0, np - 1
      do i = 1, n
        if (nint(recvbuf(j * n + i)) /= j + np * (rank + np * i)) wrong = wrong + 1
      end do
    end do
  end function

  subroutine check(rc, what)
    integer, intent(in) :: rc
    character(*), intent(in) :: what
    if (rc /= NBO_SUCCESS) then
      print '(3a)', what, ': ', nbo_strerror(rc)
      call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
  end subroutine
end program
