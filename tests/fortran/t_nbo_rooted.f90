! The module nbo's barrier, rooted collectives and scans: a barrier, a
! reduce to the last rank and a gather to rank 0 outstanding at once, a
! scatterv, a scan and an exscan in place, a reduce-scatter with blocks of
! any size, a persistent reduce started twice, and an alltoallw with byte
! displacements and gaps.  Each result checked at any P.
program t_nbo_rooted
  use mpi_f08
  use nbo
  implicit none
  integer, parameter :: n = 16
  type(nbo_comm) :: comm
  type(nbo_request) :: req(3)
  integer, allocatable, asynchronous :: all(:), counts(:), displs(:), rsin(:)
  integer, allocatable, asynchronous :: wsb(:), wrb(:), wsc(:), wsd(:), wrc(:), wrd(:)
  type(MPI_Datatype), allocatable, asynchronous :: wt(:)
  integer, asynchronous :: x(n), r(n), me(1), piece(n), s(n), e(n), rs(n)
  integer :: rank, np, provided, i, j, k, bad, root, first

  call MPI_Init_thread(MPI_THREAD_MULTIPLE, provided)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, np)
  bad = 0
  root = np - 1
  call ok(nbo_comm_create(MPI_COMM_WORLD, comm))

  ! Barrier, reduce (sum of rank + i) and gather of the ranks at once.
  allocate(all(np), counts(np), displs(np))
  x = [(rank + i, i = 1, n)]
  r = -1
  me = rank
  all = -1
  call ok(nbo_ibarrier(comm, req(1)))
  call ok(nbo_ireduce(x, r, n, MPI_INTEGER, MPI_SUM, root, comm, req(2)))
  call ok(nbo_igather(me, 1, MPI_INTEGER, all, 1, MPI_INTEGER, 0, comm, req(3)))
  call ok(nbo_waitall(3, req))
  if (rank == root .and. any(r /= [(np * i + np * (np - 1) / 2, i = 1, n)])) bad = bad + 1
  if (rank == 0 .and. any(all /= [(j, j = 0, np - 1)])) bad = bad + 1

  ! Scatterv from rank 0: rank j gets j + 1 elements, all 100 + j.
  deallocate(all)
  allocate(all(np * (np + 1) / 2))
  do j = 0, np - 1
    counts(j + 1) = j + 1
    displs(j + 1) = j * (j + 1) / 2
    all(displs(j + 1) + 1 : displs(j + 1) + j + 1) = 100 + j
  end do
  piece = -1
  call ok(nbo_iscatterv(all, counts, displs, MPI_INTEGER, piece, rank + 1, MPI_INTEGER, 0, &
                        comm, req(1)))
  call ok(nbo_wait(req(1)))
  if (any(piece(1 : rank + 1) /= 100 + rank) .or. any(piece(rank + 2 :) /= -1)) bad = bad + 1

  ! Scan in place and exscan: sums of (rank + 1) over the ranks below.
  s = rank + 1
  e = -1
  call ok(nbo_iscan(MPI_IN_PLACE, s, n, MPI_INTEGER, MPI_SUM, comm, req(1)))
  call ok(nbo_iexscan(x, e, n, MPI_INTEGER, MPI_SUM, comm, req(2)))
  call ok(nbo_waitall(2, req))
  if (any(s /= (rank + 1) * (rank + 2) / 2)) bad = bad + 1
  ! exscan of rank + i: sum over q < rank of (q + i); rank 0's is undefined
  if (rank > 0 .and. any(e /= [(rank * i + rank * (rank - 1) / 2, i = 1, n)])) bad = bad + 1

  ! Reduce-scatter: block j (counts(j + 1) = j + 1 elements) to rank j.
  allocate(rsin(np * (np + 1) / 2))
  rsin = [(rank + i, i = 1, np * (np + 1) / 2)]
  rs = -1
  call ok(nbo_ireduce_scatter(rsin, rs, counts, MPI_INTEGER, MPI_SUM, comm, req(1)))
  call ok(nbo_wait(req(1)))
  first = rank * (rank + 1) / 2
  if (any(rs(1 : rank + 1) /= [(np * (first + i) + np * (np - 1) / 2, i = 1, rank + 1)])) &
    bad = bad + 1

  ! A persistent reduce to rank 0, started twice on new input.
  call ok(nbo_reduce_init(x, r, n, MPI_INTEGER, MPI_MAX, 0, comm, req(1)))
  do k = 1, 2
    x = [(k * (rank + i), i = 1, n)]
    call ok(nbo_start(req(1)))
    call ok(nbo_wait(req(1)))
    if (rank == 0 .and. any(r /= [(k * (np - 1 + i), i = 1, n)])) bad = bad + 1
  end do
  call ok(nbo_request_free(req(1)))

  ! Alltoallw: rank * 10 + j to rank j, received at byte 8 * j (gaps between).
  allocate(wsb(np), wrb(2 * np), wsc(np), wsd(np), wrc(np), wrd(np), wt(np))
  do j = 0, np - 1
    wsb(j + 1) = rank * 10 + j
    wsc(j + 1) = 1
    wsd(j + 1) = 4 * j
    wrc(j + 1) = 1
    wrd(j + 1) = 8 * j
    wt(j + 1) = MPI_INTEGER
  end do
  wrb = -1
  call ok(nbo_ialltoallw(wsb, wsc, wsd, wt, wrb, wrc, wrd, wt, comm, req(1)))
  call ok(nbo_wait(req(1)))
  do j = 0, np - 1
    if (wrb(2 * j + 1) /= j * 10 + rank .or. wrb(2 * j + 2) /= -1) bad = bad + 1
  end do
  deallocate(wsb, wrb, wsc, wsd, wrc, wrd, wt)

  call ok(nbo_comm_free(comm))
  call MPI_Allreduce(MPI_IN_PLACE, bad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (rank == 0) print '(a,i0,a,i0)', 't_nbo_rooted: P=', np, ' failures ', bad
  if (rank == 0 .and. bad == 0) print '(a)', 't_nbo_rooted: PASS'
  deallocate(all, counts, displs, rsin)
  call MPI_Finalize()
  if (bad /= 0) error stop
contains
  subroutine ok(rc)
    integer, intent(in) :: rc
    if (rc /= NBO_SUCCESS) then
      print '(a,i0,2a)', 't_nbo_rooted: error ', rc, ': ', nbo_strerror(rc)
      bad = bad + 1
    end if
  end subroutine
end program
