! roundtrip.f90 - p3o_roundtrip in Fortran, with the module p3o: nv
! fields go forward, a spectral operation (here the normalisation FFTW's
! unnormalised transforms need) runs on each spectrum while the other
! variables' exchanges fly, and they come back: out equals in.
!
!   mpiexec -n 2 ./roundtrip_f
module roundtrip_op
  use p3o
  implicit none
  integer(c_size_t) :: complex_count ! per variable, from p3o_local_sizes
contains
  ! The spectral operation: p3o_roundtrip calls it once per variable v.
  subroutine normalise(spectrum, v, arg) bind(C)
    type(c_ptr), value :: spectrum, arg
    integer(c_int), value :: v
    complex(c_double_complex), pointer :: s(:)
    real(c_double), pointer :: scale
    call c_f_pointer(spectrum, s, [complex_count])
    call c_f_pointer(arg, scale)
    s = s * scale
    if (v < 0) error stop 'v counts from 0'
  end subroutine
end module

program roundtrip
  use mpi_f08
  use p3o
  use roundtrip_op
  implicit none
  integer, parameter :: nx = 32, ny = 16, nz = 16, nv = 3
  real(c_double), parameter :: pi = 4 * atan(1d0)
  type(p3o_plan) :: plan
  type(p3o_local) :: loc
  real(c_double), allocatable :: u(:), back(:)
  complex(c_double_complex), allocatable :: spec(:)
  real(c_double), target :: scale
  real(c_double) :: err
  integer :: provided, rank, x, y, z, v
  integer(c_size_t) :: k

  ! PIPELINED_NBO: libnbo's progress thread needs MPI_THREAD_MULTIPLE.
  call MPI_Init_thread(MPI_THREAD_MULTIPLE, provided)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call check(p3o_plan_create(MPI_COMM_WORLD, nx, ny, nz, nv, P3O_DOUBLE, P3O_PIPELINED_NBO, &
                             plan, planner=P3O_PLANNER_ESTIMATE), 'p3o_plan_create')
  call check(p3o_local_sizes(plan, loc), 'p3o_local_sizes')
  complex_count = loc%complex_count
  allocate(u(loc%real_count * nv), back(loc%real_count * nv), spec(loc%complex_count * nv))

  ! Variable v of the real X-pencil: x fastest, then y, then z (local).
  k = 0
  do v = 0, nv - 1
    do z = loc%xstart(3), loc%xstart(3) + loc%xsize(3) - 1
      do y = loc%xstart(2), loc%xstart(2) + loc%xsize(2) - 1
        do x = 0, nx - 1
          k = k + 1
          u(k) = sin(2 * pi * x / nx) * cos(2 * pi * y / ny) + (v + 1) * z / dble(nz)
        end do
      end do
    end do
  end do

  scale = 1d0 / (dble(nx) * ny * nz)
  call check(p3o_roundtrip(plan, u, spec, back, c_funloc(normalise), c_loc(scale)), &
             'p3o_roundtrip')
  err = maxval(abs(back - u))
  call MPI_Allreduce(MPI_IN_PLACE, err, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD)
  if (rank == 0) print '(a,i0,a,i0,a,i0,a,i0,a,es9.2)', 'roundtrip_f: ', nx, 'x', ny, 'x', nz, &
                                                       ', nv=', nv, ', max |out - in| ', err
  if (rank == 0 .and. err < 1d-12) print '(a)', 'roundtrip_f: PASS'
  call check(p3o_plan_destroy(plan), 'p3o_plan_destroy')
  deallocate(u, back, spec)
  call MPI_Finalize()
  if (err >= 1d-12) error stop
contains
  subroutine check(rc, what)
    integer, intent(in) :: rc
    character(*), intent(in) :: what
    if (rc /= P3O_SUCCESS) then
      print '(3a)', what, ': ', p3o_strerror(rc)
      call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
  end subroutine
end program
