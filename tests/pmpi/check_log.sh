#!/bin/sh
# check_log.sh MPIEXEC LIBNBO_MPI PROGRAM ARGS -- LINE... - run PROGRAM
# as a user would (LD_PRELOAD=... mpiexec -n 2 ...) with NBO_PMPI_LOG=1
# and check that the log has each LINE (a fixed string); a LINE written
# once:TEXT must be there exactly once (said once, not per call), and one
# written none:TEXT must not be there.
mpiexec=$1 lib=$2
shift 2
prog=
while [ $# -gt 0 ] && [ "$1" != "--" ]; do prog="$prog $1"; shift; done
[ $# -gt 0 ] && shift
# shellcheck disable=SC2086 # the program and its arguments, split on purpose
out=$(LD_PRELOAD=$lib NBO_PMPI_LOG=1 timeout 50 "$mpiexec" -n 2 $prog 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "FAIL: program exited $rc"; exit 1; }
for line in "$@"; do
    case $line in
    once:*)
        n=$(echo "$out" | grep -cF -- "${line#once:}")
        [ "$n" -eq 1 ] || { echo "FAIL: $n log lines with '${line#once:}', want 1"; exit 1; } ;;
    none:*)
        ! echo "$out" | grep -qF -- "${line#none:}" ||
            { echo "FAIL: a log line with '${line#none:}', want none"; exit 1; } ;;
    *)
        echo "$out" | grep -qF -- "$line" || { echo "FAIL: no log line with '$line'"; exit 1; } ;;
    esac
done
echo "PASS: the log says who serves what ($# lines found)"
