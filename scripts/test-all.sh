#!/usr/bin/env bash
# The README's test command: set up a bare machine and run every test.
#   1. install the Debian packages (scripts/install-deps.sh)
#   2. build with warnings as errors
#   3. run every meson test suite: unit, mpi, progress, ucx, fft, cluster
#      (network namespaces), verbs (Soft-RoCE guest), ...
# It ends with one line "tests: N passed, N failed, N skipped" and exits
# non-zero if anything failed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
dir=${NBO_BUILD_DIR:-build}
scripts/build.sh "$dir" -Dwerror=true

status=0
meson test -C "$dir" --print-errorlogs "$@" || status=$?
python3 scripts/test-summary.py "$dir/meson-logs/testlog.json" || status=1
exit $status
