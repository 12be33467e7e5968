#!/usr/bin/env bash
# cluster-test.sh - run MPI correctness programs across emulated hosts over TCP.
#
#   cluster-test.sh HOSTS RATE PROGRAM...
#
# Builds HOSTS network-namespace hosts (scripts/emu-cluster/nbo-cluster.sh), runs
# each program with one rank per host, and takes the cluster down whatever
# happens.  NBO_ENGINE / NBO_PROGRESS from the environment reach the ranks.
# Exit: 0 all passed, 1 a program failed, 77 (SKIP) not root / no netns.
set -euo pipefail

[ $# -ge 3 ] || { echo "usage: $0 HOSTS RATE PROGRAM..." >&2; exit 2; }
hosts=$1 rate=$2
shift 2
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CLUSTER="$HERE/../../scripts/emu-cluster/nbo-cluster.sh"

[ "$(id -u)" -eq 0 ] || { echo "SKIP: the emulated cluster needs root" >&2; exit 77; }

. "$(dirname "$CLUSTER")/cluster-lock.sh"
cluster_take cluster-test

# `up` exits 77 itself where namespaces cannot be made.
"$CLUSTER" up -N "$hosts" -r "$rate"
failed=()
for prog in "$@"; do
    # Absolute: hydra starts the ranks from its own working directory.
    case "$prog" in /*) ;; *) prog="$PWD/$prog" ;; esac
    start=$(date +%s%N)
    # The programs end with "NAME P=.. ...: PASS (N checks, 0 failures over
    # all ranks)" from rank 0 after a reduction over all ranks.
    if on_cluster -N "$hosts" -t 150 -d ': PASS (' -g 5 -- "$prog"; then
        echo "PASS $(basename "$prog") on $hosts hosts ($((($(date +%s%N) - start) / 1000000)) ms)"
    else
        echo "FAIL $(basename "$prog") on $hosts hosts"
        failed+=("$(basename "$prog")")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "failed on $hosts hosts (${NBO_ENGINE:-auto}/${NBO_PROGRESS:-auto}): ${failed[*]}"
    exit 1
fi
echo "all ${#} programs passed on $hosts hosts (${NBO_ENGINE:-auto}/${NBO_PROGRESS:-auto}, tbf $rate)"
