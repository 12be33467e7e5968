! t_pmpi_f08.f90 as an unmodified `use mpi` program (mpif.h with
! -DMPIF_H), checked the same way.
program t_pmpi_legacy
#ifdef MPIF_H
  implicit none
  include "mpif.h"
#else
  use mpi
  implicit none
#endif
  integer, parameter :: n = 1024
  integer :: rank, np, i, j, bad, provided
  logical :: done
  integer, allocatable :: sb(:), rb(:)
  double precision :: x(n), y(n)
  integer :: req(2), ierr
  call MPI_Init(ierr)
  call MPI_Query_thread(provided, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  allocate(sb(n * np), rb(n * np))
  do j = 0, np - 1
    do i = 1, n
      sb(j * n + i) = rank * 1000000 + j * 10000 + i
    end do
  end do
  bad = 0
  rb = -1
  call MPI_Ialltoall(sb, n, MPI_INTEGER, rb, n, MPI_INTEGER, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Wait(req(1), MPI_STATUS_IGNORE, ierr)
  call check()
  rb = -1
  call MPI_Ialltoall(sb, n, MPI_INTEGER, rb, n, MPI_INTEGER, MPI_COMM_WORLD, req(1), ierr)
  done = .false.
  do while (.not. done)
    call MPI_Test(req(1), done, MPI_STATUS_IGNORE, ierr)
  end do
  call check()
  x = rank + 1
  rb = -1
  call MPI_Iallreduce(x, y, n, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Ialltoall(sb, n, MPI_INTEGER, rb, n, MPI_INTEGER, MPI_COMM_WORLD, req(2), ierr)
  call MPI_Waitall(2, req, MPI_STATUSES_IGNORE, ierr)
  if (any(y /= np * (np + 1) / 2)) bad = bad + 1
  ! MPI_IN_PLACE, Fortran's, reaches libnbo as C's.
  call MPI_Iallreduce(MPI_IN_PLACE, x, n, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req(1), ierr)
  call MPI_Wait(req(1), MPI_STATUS_IGNORE, ierr)
  if (any(x /= np * (np + 1) / 2)) bad = bad + 1
  call check()
  if (req(1) /= MPI_REQUEST_NULL .or. req(2) /= MPI_REQUEST_NULL) bad = bad + 1
  call MPI_Allreduce(MPI_IN_PLACE, bad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    print '(a,i0,a,i0)', 't_pmpi_legacy: thread level ', provided, ', failures ', bad
    if (bad == 0) print '(a)', 't_pmpi_legacy: PASS'
  end if
  deallocate(sb, rb) ! a main program's are never freed (LeakSanitizer)
  call MPI_Finalize(ierr)
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
