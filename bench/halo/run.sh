#!/usr/bin/env bash
# run.sh - nbo_halo on the emulated cluster (scripts/emu-cluster): 4 hosts,
# one rank each, a 2x2x1 grid, twice: MPI and libnbo as the program calls
# them, then the same program under LD_PRELOAD=libnbo-mpi.so serving the
# neighbourhood collectives (NBO_PMPI_COLLS=neighbor), whose mpi-nb column
# is then libnbo-mpi's.  Each run's blocking column is MPI's own, so the
# last table compares the two mpi-nb loops through it (drift between the
# runs cancels).
#
#   bench/halo/run.sh [-b BUILD] [-o OUTDIR] [-r RATE] [-- nbo_halo options]
#
#   -b BUILD   meson build dir (default build; built if missing)
#   -o OUTDIR  the two logs (default out/halo)
#   -r RATE    tbf link rate (default 200mbit)
#   default nbo_halo options: --faces=1K,16K,64K,256K,1M,4M --iters=10 --rounds=5
#
# NBO_* variables in the environment reach the ranks (default engine and
# progress: ucx, thread).  Needs root; exits 77 where namespaces cannot be built.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CLUSTER="$ROOT/scripts/emu-cluster/nbo-cluster.sh"

build=build
outdir=out/halo
rate=200mbit
opts=(--faces=1K,16K,64K,256K,1M,4M --iters=10 --rounds=5)
while [ $# -gt 0 ]; do
    case "$1" in
    -b) build=$2; shift 2 ;;
    -o) outdir=$2; shift 2 ;;
    -r) rate=$2; shift 2 ;;
    --) shift; [ $# -eq 0 ] || opts=("$@"); break ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "halo/run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ "$(id -u)" -eq 0 ] || { echo "halo/run.sh: SKIP: needs root (network namespaces)" >&2; exit 77; }

case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
case "$outdir" in /*) ;; *) outdir="$PWD/$outdir" ;; esac
bin="$build/bench/halo/nbo_halo"
lib="$build/pmpi/libnbo-mpi.so"
if [ ! -x "$bin" ] || [ ! -f "$lib" ]; then
    [ -f "$build/build.ninja" ] || meson setup "$build" "$ROOT" >/dev/null
    meson compile -C "$build" >/dev/null
fi
mkdir -p "$outdir"
export PATH="$build/mpi-bin:$PATH" NBO_ENGINE=${NBO_ENGINE:-ucx} NBO_PROGRESS=${NBO_PROGRESS:-thread}

echo "# machine load before: $(cut -d' ' -f1-3 /proc/loadavg)"
# -d: UCX's TCP transport can hang in MPI_Finalize (docs/benchmarks.md).
on_cluster=("$CLUSTER" run -N 4 -r "$rate" -t 1800 -d '^# nbo_halo: done' -g 10 --)
"${on_cluster[@]}" "$bin" --grid=2x2x1 "${opts[@]}" 2>&1 | tee "$outdir/mpi.log"
"${on_cluster[@]}" env "LD_PRELOAD=$lib" NBO_PMPI_COLLS=neighbor \
    "$bin" --grid=2x2x1 "${opts[@]}" 2>&1 | tee "$outdir/pmpi.log"
echo "# machine load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# face, then the mpi-nb loop over the blocking loop of each run.
echo
echo "# MPI_Ineighbor_alltoallv's loop, MPI's own and under libnbo-mpi.so (each over its run's blocking loop)"
echo "#    face  mpich/blk  pmpi/blk  mpich/pmpi"
join <(awk '!/^#/ && NF == 10 {print $1, $5 / $4}' "$outdir/mpi.log" | sort) \
     <(awk '!/^#/ && NF == 10 {print $1, $5 / $4}' "$outdir/pmpi.log" | sort) |
    sort -n | awk '{printf "%9d %10.2f %9.2f %11.2f\n", $1, $2, $3, $2 / $3}'
