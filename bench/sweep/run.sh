#!/usr/bin/env bash
# run.sh - nbo_sweep on the emulated cluster (scripts/emu-cluster), one
# rank per host, at each host count asked: the links at RATE behind an
# output-queued switch (nbo-cluster.sh -S) whose ports run at RATE with
# BUFFER bytes each, so that incast at a receiver queues and drops.  On
# 2 cores these runs measure communication, not overlap.
#
#   bench/sweep/run.sh [-b BUILD] [-o OUTDIR] [-N 4,8,16] [-r RATE] [-S BUFFER]
#                      [-- nbo_sweep options]
#
#   -b BUILD   meson build dir (default build; built if missing)
#   -o OUTDIR  one log per host count, sweep-N.log (default out/sweep)
#   -N LIST    host counts (default 16)
#   -r RATE    link and switch-port rate (default 1gbit)
#   -S BUFFER  switch buffer per port (default 256kb)
#   default nbo_sweep options: -m 64K,256K,1M,4M -i 4 -r 7 (about 17 minutes
#   at 16 hosts)
#
# NBO_* variables in the environment reach the ranks (default engine and
# progress: ucx, thread).  Needs root; exits 77 where namespaces cannot be built.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CLUSTER="$ROOT/scripts/emu-cluster/nbo-cluster.sh"

build=build
outdir=out/sweep
counts=16
rate=1gbit
buffer=256kb
opts=(-m 64K,256K,1M,4M -i 4 -r 7)
while [ $# -gt 0 ]; do
    case "$1" in
    -b) build=$2; shift 2 ;;
    -o) outdir=$2; shift 2 ;;
    -N) counts=$2; shift 2 ;;
    -r) rate=$2; shift 2 ;;
    -S) buffer=$2; shift 2 ;;
    --) shift; [ $# -eq 0 ] || opts=("$@"); break ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "sweep/run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ "$(id -u)" -eq 0 ] || { echo "sweep/run.sh: SKIP: needs root (network namespaces)" >&2; exit 77; }

case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
case "$outdir" in /*) ;; *) outdir="$PWD/$outdir" ;; esac
bin="$build/bench/sweep/nbo_sweep"
if [ ! -x "$bin" ]; then
    [ -f "$build/build.ninja" ] || meson setup "$build" "$ROOT" >/dev/null
    meson compile -C "$build" >/dev/null
fi
mkdir -p "$outdir"
export PATH="$build/mpi-bin:$PATH" NBO_ENGINE=${NBO_ENGINE:-ucx} NBO_PROGRESS=${NBO_PROGRESS:-thread}

for n in ${counts//,/ }; do
    echo "# $n hosts, links and switch ports $rate, switch buffer $buffer per port; load $(cut -d' ' -f1-3 /proc/loadavg)"
    # -d: UCX's TCP transport can hang in MPI_Finalize (docs/benchmarks.md).
    "$CLUSTER" run -N "$n" -r "$rate" -S "$rate:$buffer" -t 3600 -d '^# nbo_sweep: done' -g 10 -- \
        "$bin" "${opts[@]}" 2>&1 | tee "$outdir/sweep-$n.log"
done
