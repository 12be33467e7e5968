#!/usr/bin/env bash
# The README's test command: set up a bare machine and run every test.
#
#   1. install the Debian packages            scripts/install-deps.sh
#   2. build/       warnings as errors; every suite: unit, mpi, progress,
#                   ucx, pmpi, fft, fuzz, cluster (network namespaces),
#                   verbs (Soft-RoCE guest), valgrind (MPI tests at P = 2)
#   3. build-asan/  ASan + UBSan: the one-host suites again
#   4. build-tsan/  TSan (clang): the progress-thread suites again, and
#                   libnbo-mpi's mixed stress program in the thread modes
#
# Ends with "tests: N passed, N failed, N skipped" over all stages and exits
# non-zero if anything failed.  NBO_TEST_STAGES="main asan tsan" picks stages;
# extra arguments go to every `meson test` (e.g. --suite mpi).
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh || exit 1

stages=${NBO_TEST_STAGES:-main asan tsan}
logs=()
status=0

run_stage() { # name builddir test-setup suites... -- build options...
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
  meson test -C "$dir" --print-errorlogs "${setup_arg[@]}" "${suites[@]}" "${EXTRA[@]}" || status=1
  logs+=("$dir/meson-logs/testlog${setup:+-$setup}.json")
}

EXTRA=("$@")
# Tests that fail intermittently for reasons outside libnbo (UCX 1.13's
# error path when a local peer dies) live in the suite 'known-failing': not
# run here, and said so.  `meson test -C build --suite known-failing` runs them.
echo "note: suite 'known-failing' is not run (UCX 1.13 dead-peer paths; see tests/reliability/meson.build)"

for s in $stages; do
  case $s in
    main) EXTRA+=(--no-suite known-failing); run_stage main build "" -- -Dwerror=true ;;
    asan) run_stage asan build-asan asan unit mpi progress ucx pmpi fft cuda -- \
            -Dwerror=true -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug ;;
    tsan) CC=clang run_stage tsan build-tsan tsan progress ucx pmpi-tsan -- \
            -Db_sanitize=thread -Db_lundef=false -Dbuildtype=debug ;;
    *) echo "unknown stage $s"; exit 2 ;;
  esac
done
python3 scripts/test-summary.py "${logs[@]}" || status=1
exit $status
