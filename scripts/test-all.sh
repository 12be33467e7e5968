#!/usr/bin/env bash
# The README's test command: set up a bare machine and run every test.
#
#   1. install the Debian packages            scripts/install-deps.sh
#   2. build/       warnings as errors; every suite: unit, mpi, progress,
#                   ucx, pmpi, fft, fuzz, cluster (network namespaces),
#                   verbs (Soft-RoCE guest), valgrind (MPI tests at P = 2)
#   3. build-asan/  ASan + UBSan: the one-host suites again, at P <= 3
#                   and a few at 4 (ASAN_ALSO below)
#   4. build-tsan/  TSan (clang): the progress-thread suites again, and
#                   libnbo-mpi's mixed stress program in the thread modes,
#                   at P <= 3 and a few at 4 (TSAN_ALSO)
#   5. build-ompi/  Open MPI (-Dmpi=openmpi), warnings as errors: the unit,
#                   mpi, progress, ucx, pmpi and fft suites at P = 1-4, and
#                   two 2-host emulated-cluster tests (OMPI_* below)
# Stages 2-4 build against MPICH (-Dmpi=mpich), whatever the default mpicc.
#
# Ends with "tests: N passed, N failed, N skipped" over all stages and exits
# non-zero if anything failed.  NBO_TEST_STAGES="main asan tsan" picks stages;
# extra arguments go to every `meson test` (e.g. --suite mpi).
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh || exit 1

stages=${NBO_TEST_STAGES:-main asan tsan openmpi}
logs=()
status=0

# Tests of the Open MPI stage's suites that it leaves out, by name (an ERE):
# those at P >= 5 (mpi np5/np8, progress P=5, pmpi-mixed np5), which the
# MPICH stages run.  Suites the stage does not run at all: reliability,
# cluster, verbs, valgrind, fuzz, install, bench, examples, cuda,
# pmpi-faults, pmpi-large.  And test_alltoallw at P = 1: Open MPI 4.1's own
# MPI_Alltoallw, the test's reference, writes past its receive buffer there
# (valgrind: ompi_datatype_sndrcv); the MPICH stages run it.
OMPI_LEFT_OUT='P=([5-9]|[1-9][0-9])( |$)|^test_alltoallw .*P=1( |$)'
# And two tests of the cluster suite: 2 emulated hosts, UCX engine and
# progress thread (the mpi suite's programs; an unmodified MPI_Ialltoall
# program under libnbo-mpi that must overlap); and libnbo-mpi's stress
# program at P = 5 on every engine/progress pair and at 10 in the thread
# modes, as on MPICH.
OMPI_ALSO=('cluster-test ucx/thread P=2' 'test_pmpi_overlap auto/thread P=2 cluster')
for pair in mpi/inline mpi/thread ucx/inline ucx/thread; do
  OMPI_ALSO+=("test_pmpi_mixed $pair P=5")
done
OMPI_ALSO+=('test_pmpi_mixed mpi/thread P=10' 'test_pmpi_mixed ucx/thread P=10')
ALSO=()
# The sanitizer stages run each program at P <= 3 (P = 2, a power of two,
# and 3, not), which the main stage runs up to P = 16: ASan makes each rank
# 2-3 times slower, TSan 5-10.  At P = 4 they run what needs it: the 2x2
# FFT grid, the programs that start at 4, and under ASan the reductions'
# two rounds of recursive halving.  ASan runs P = 3 on two engine/progress
# pairs, mpi/inline and ucx/thread (the schedules' code is the engines'
# alike; each pair runs at 2).  (pmpi=off: MPICH alone, no libnbo code.)
ASAN_LEFT_OUT='P=([5-9]|[1-9][0-9])( |$)|^test_\S+ (mpi|ucx|ofi)/(inline|thread) P=4( |$)|^test_\S+ (mpi/thread|ucx/inline) P=3( |$)|pmpi=off$'
ASAN_ALSO=('test_allreduce mpi/inline P=4' 'test_reduce_scatter mpi/inline P=4'
           'test_pmpi_nonblocking mpi/inline P=4 blocking'
           'test_mixed_api ucx/thread P=4'
           'test_pmpi_mixed ucx/inline P=4' 'test_pmpi_mixed ofi/thread P=4')
TSAN_LEFT_OUT='P=([4-9]|[1-9][0-9])( |$)'
TSAN_ALSO=('test_tune ucx/thread P=4' 'test_mixed_api ucx/thread P=4' 'test_mixed_api ofi/thread P=4'
           'test_pmpi_mixed mpi/thread P=4' 'test_pmpi_mixed ucx/thread P=4'
           'test_pmpi_mixed ofi/thread P=4')

run_stage() { # name builddir test-setup suites... -- build options...
  # With LEFT_OUT set (an ERE), the tests of those suites whose name it
  # matches are not run; the array ALSO names more tests to run, each of
  # which must exist (a renamed test must not drop out silently).
  local name=$1 dir=$2 setup=$3
  shift 3
  local suites=() opts=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do suites+=(--suite "$1"); shift; done
  [ $# -gt 0 ] && shift
  opts=("$@")
  echo "=== stage $name ($dir)"
  if ! scripts/build.sh "$dir" "${opts[@]}"; then
    echo "stage $name: build FAILED"; status=1; return
  fi
  local setup_arg=()
  [ -n "$setup" ] && setup_arg=(--setup "$setup")
  local which=("${suites[@]}")
  if [ -n "${LEFT_OUT:-}" ]; then
    # meson test takes names, not patterns: list the suites' tests, keep the rest.
    mapfile -t which < <(meson test -C "$dir" --no-rebuild --list "${suites[@]}" 2>/dev/null |
                         sed 's|^[^/]* / ||' | grep -Ev -- "$LEFT_OUT")
    local all t
    all=$(meson test -C "$dir" --no-rebuild --list 2>/dev/null | sed 's|^[^/]* / ||')
    for t in "${ALSO[@]}"; do
      if ! grep -qxF -- "$t" <<<"$all"; then
        echo "stage $name: no test named '$t' (scripts/test-all.sh names it)"; status=1
      fi
      which+=("$t")
    done
    echo "stage $name: ${#which[@]} tests; left out: $LEFT_OUT"
  fi
  meson test -C "$dir" --print-errorlogs "${setup_arg[@]}" "${which[@]}" "${EXTRA[@]}" || status=1
  logs+=("$dir/meson-logs/testlog${setup:+-$setup}.json")
}

EXTRA=("$@")
# Tests that fail intermittently (UCX 1.13's error path when a local peer
# dies; ofi's offloaded broadcasts on sockets) live in the suite
# 'known-failing': not run here, and said so.  `meson test -C build --suite known-failing` runs them.
echo "note: suite 'known-failing' is not run (UCX 1.13 dead-peer paths: tests/reliability/meson.build; ofi's offloaded broadcasts on sockets: tests/ofi/meson.build)"

for s in $stages; do
  case $s in
    main) EXTRA+=(--no-suite known-failing); run_stage main build "" -- -Dwerror=true -Dmpi=mpich ;;
    asan) ALSO=("${ASAN_ALSO[@]}"); LEFT_OUT=$ASAN_LEFT_OUT run_stage asan build-asan asan unit mpi progress ucx pmpi fft cuda -- -Dmpi=mpich \
            -Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug ;;
    tsan) ALSO=("${TSAN_ALSO[@]}"); LEFT_OUT=$TSAN_LEFT_OUT CC=clang run_stage tsan build-tsan tsan progress ucx pmpi-tsan -- -Dmpi=mpich \
            -Db_sanitize=thread -Db_lundef=false -Dbuildtype=debug ;;
    openmpi) ALSO=("${OMPI_ALSO[@]}"); LEFT_OUT=$OMPI_LEFT_OUT run_stage openmpi build-ompi "" unit mpi progress ucx pmpi fft -- \
            -Dwerror=true -Dmpi=openmpi ;;
    *) echo "unknown stage $s"; exit 2 ;;
  esac
done
python3 scripts/test-summary.py "${logs[@]}" || status=1
exit $status
