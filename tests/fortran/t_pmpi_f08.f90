! An unmodified `use mpi_f08` program: MPI_Ialltoall completed by
! MPI_Wait, by an MPI_Test loop and by MPI_Waitall beside an
! MPI_Iallreduce, which runs in place too; each result checked.  Under libnbo-mpi.so (check_log.sh) the log says who
! served them and how libnbo progresses.
program t_pmpi_f08
  use mpi_f08
  implicit none
  integer, parameter :: n = 1024
  integer :: rank, np, i, j, bad, provided
  logical :: done
  integer, allocatable :: sb(:), rb(:)
  double precision :: x(n), y(n)
  type(MPI_Request) :: req(2)

  call MPI_Init()
  call MPI_Query_thread(provided)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  allocate(sb(n * np), rb(n * np))
  do j = 0, np - 1
    do i = 1, n
      sb(j * n + i) = rank * 1000000 + j * 10000 + i
    end do
  end do
  bad = 0

  rb = -1
  call MPI_Ialltoall(sb, n, MPI_INTEGER, rb, n, MPI_INTEGER, MPI_COMM_WORLD, req(1))
  call MPI_Wait(req(1), MPI_STATUS_IGNORE)
  call check()

  rb = -1
  call MPI_Ialltoall(sb, n, MPI_INTEGER, rb, n, MPI_INTEGER, MPI_COMM_WORLD, req(1))
  done = .false.
  do while (.not. done)
    call MPI_Test(req(1), done, MPI_STATUS_IGNORE)
  end do
  call check()

  x = rank + 1
  rb = -1
  call MPI_Iallreduce(x, y, n, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req(1))
  call MPI_Ialltoall(sb, n, MPI_INTEGER, rb, n, MPI_INTEGER, MPI_COMM_WORLD, req(2))
  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE)
  if (any(y /= np * (np + 1) / 2)) bad = bad + 1
  ! MPI_IN_PLACE, Fortran's, reaches libnbo as C's.
  call MPI_Iallreduce(MPI_IN_PLACE, x, n, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req(1))
  call MPI_Wait(req(1), MPI_STATUS_IGNORE)
  if (any(x /= np * (np + 1) / 2)) bad = bad + 1
  call check()
  if (req(1) /= MPI_REQUEST_NULL .or. req(2) /= MPI_REQUEST_NULL) bad = bad + 1

  call MPI_Allreduce(MPI_IN_PLACE, bad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0) then
    print '(a,i0,a,i0)', 't_pmpi_f08: thread level ', provided, ', failures ', bad
    if (bad == 0) print '(a)', 't_pmpi_f08: PASS'
  end if
  deallocate(sb, rb) ! a main program's are never freed (LeakSanitizer)
  call MPI_Finalize()
  if (bad /= 0) error stop
contains
  subroutine check()
    do j = 0, np - 1
      do i = 1, n
        if (rb(j * n + i) /= j * 1000000 + rank * 10000 + i) then
          bad = bad + 1
          return
        end if
      end do
    end do
  end subroutine
end program
