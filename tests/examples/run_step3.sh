#!/bin/sh
# run_step3.sh MPIEXEC PROGRAM ARGS... - run the tutorial's step 3 on 2
# ranks and check its figures (check_figures.sh).
mpiexec=$1
shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
timeout 50 "$mpiexec" -n 2 "$@" > "$out" 2>&1
rc=$?
cat "$out"
[ $rc -eq 0 ] || { echo "FAIL: exit status $rc"; exit 1; }
"$(dirname "$0")/check_figures.sh" "$out"
