! p3o.f90 - the Fortran module `p3o`: p3dfft_overlap's plans and
! transforms (p3dfft_overlap.h) for `use mpi_f08` programs.  Arrays are
! contiguous, in the layouts of p3dfft_overlap.h with p3o_local_sizes'
! counts (Fortran index order: u(x, y, z) for the real X-pencil, U(z, y, x)
! for the complex Z-pencil).  Every function returns P3O_SUCCESS (0) or a
! negative P3O_ERR_* code; p3o_strerror says what it means.
! docs/fortran.md.
module p3o
  use, intrinsic :: iso_c_binding
  use mpi_f08, only : MPI_Comm
  implicit none

  ! p3dfft_overlap.h's codes (tests/fortran/check_codes.sh keeps them equal).
  integer(c_int), parameter :: P3O_SUCCESS = 0
  integer(c_int), parameter :: P3O_ERR_ARG = -1
  integer(c_int), parameter :: P3O_ERR_SIZE = -2
  integer(c_int), parameter :: P3O_ERR_NV = -3
  integer(c_int), parameter :: P3O_ERR_GRID = -4
  integer(c_int), parameter :: P3O_ERR_TOO_MANY_PROCS = -5
  integer(c_int), parameter :: P3O_ERR_MISMATCH = -6
  integer(c_int), parameter :: P3O_ERR_TOO_LARGE = -7
  integer(c_int), parameter :: P3O_ERR_NOMEM = -8
  integer(c_int), parameter :: P3O_ERR_FFTW = -9
  integer(c_int), parameter :: P3O_ERR_MPI = -10
  integer(c_int), parameter :: P3O_ERR_NBO = -11
  integer(c_int), parameter :: P3O_ERR_PLAN = -12
  integer(c_int), parameter :: P3O_ERR_COMM = -13
  integer(c_int), parameter :: P3O_ERR_CUDA = -14
  integer(c_int), parameter :: P3O_ERR_CODEC = -15

  ! p3o_precision_t, p3o_mode_t, p3o_planner_t.
  integer(c_int), parameter :: P3O_DOUBLE = 0, P3O_SINGLE = 1
  integer(c_int), parameter :: P3O_BLOCKING = 0, P3O_PIPELINED_MPI = 1, P3O_PIPELINED_NBO = 2
  integer(c_int), parameter :: P3O_PLANNER_MEASURE = 0, P3O_PLANNER_ESTIMATE = 1, &
                               P3O_PLANNER_PATIENT = 2

  ! A plan: null while ptr is c_null_ptr.
  type, bind(C) :: p3o_plan
    type(c_ptr) :: ptr = c_null_ptr
  end type

  ! p3o_local_t: what this rank owns (starts from 0, as in C).
  type, bind(C) :: p3o_local
    integer(c_int) :: nx, ny, nz, nv
    integer(c_int) :: xstart(3), xsize(3)
    integer(c_int) :: zstart(3), zsize(3)
    integer(c_size_t) :: real_count, complex_count
    integer(c_int) :: row, col
    integer(c_int) :: row_rank, col_rank
    integer(c_int) :: precision, mode, device
  end type

  interface
    ! Collective.  row, col: the process grid (both or neither; default
    ! chosen by the library); planner: P3O_PLANNER_* (default MEASURE).
    integer(c_int) function p3o_plan_create(comm, nx, ny, nz, nv, precision, mode, plan, &
                                            row, col, planner) bind(C, name='p3o_f_plan_create')
      import
      type(MPI_Comm), value :: comm
      integer(c_int), value :: nx, ny, nz, nv, precision, mode
      type(p3o_plan), intent(out) :: plan
      integer(c_int), intent(in), optional :: row, col, planner
    end function
    integer(c_int) function p3o_plan_destroy(plan) bind(C, name='p3o_f_plan_destroy')
      import
      type(p3o_plan), intent(inout) :: plan
    end function
    integer(c_int) function p3o_forward(plan, in, out) bind(C, name='p3o_f_forward')
      import
      type(p3o_plan), value :: plan
      type(*), dimension(*), intent(in) :: in
      type(*), dimension(*) :: out
    end function
    integer(c_int) function p3o_backward(plan, in, out) bind(C, name='p3o_f_backward')
      import
      type(p3o_plan), value :: plan
      type(*), dimension(*), intent(in) :: in
      type(*), dimension(*) :: out
    end function
    ! op: c_funloc of a bind(C) subroutine op(spectrum, v, arg) with
    ! type(c_ptr), value :: spectrum, arg and integer(c_int), value :: v
    ! (v from 0), or c_null_funptr; arg is handed to it.
    integer(c_int) function p3o_roundtrip(plan, in, spec, out, op, arg) &
        bind(C, name='p3o_f_roundtrip')
      import
      type(p3o_plan), value :: plan
      type(*), dimension(*), intent(in) :: in
      type(*), dimension(*) :: spec, out
      type(c_funptr), value :: op
      type(c_ptr), value :: arg
    end function
    integer(c_int) function p3o_local_sizes(plan, local) bind(C, name='p3o_f_local_sizes')
      import
      type(p3o_plan), value :: plan
      type(p3o_local), intent(out) :: local
    end function
  end interface

contains

  ! What a p3o error code means (p3o_strerror).
  function p3o_strerror(err) result(msg)
    integer(c_int), intent(in) :: err
    character(len=:), allocatable :: msg
    type(c_ptr) :: p
    character(kind=c_char), pointer :: chars(:)
    integer :: i, n
    interface
      type(c_ptr) function p3o_strerror_c(err) bind(C, name='p3o_strerror')
        import
        integer(c_int), value :: err
      end function
      integer(c_size_t) function c_strlen(s) bind(C, name='strlen')
        import
        type(c_ptr), value :: s
      end function
    end interface
    p = p3o_strerror_c(err)
    n = int(c_strlen(p))
    call c_f_pointer(p, chars, [n])
    allocate(character(len=n) :: msg)
    do i = 1, n
      msg(i:i) = chars(i)
    end do
  end function

end module p3o
