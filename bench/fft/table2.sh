#!/usr/bin/env bash
# table2.sh - the paper's Table II with p3o_bench: on one host (mpiexec -n 2)
# and, where network namespaces can be built, on the emulated 2-host cluster
# (scripts/emu-cluster/nbo-cluster.sh, one rank per host).  Writes the markdown
# tables and CSV files to OUTDIR.
#
#   bench/fft/table2.sh [-b BUILD] [-o OUTDIR] [-r RATE[,RATE...]] [-G GSO -B BURST]
#                       [--no-cluster] [--no-onehost] [-- p3o_bench options]
#
#   -b BUILD      meson build dir (default: build)
#   -o OUTDIR     output folder (default: out/fft)
#   -r RATES      link rate(s) of the emulated cluster, one cluster run each
#                 (default 1gbit; e.g. 1gbit,200mbit)
#   -G GSO -B BURST  the cluster's GSO packet size and tbf bucket (default
#                 32768 and 36kb: a blocking exchange after compute gets
#                 half the free bytes of nbo-cluster.sh's 65536 / 72kb;
#                 see docs/benchmarks.md, "Known problems of the testbed")
#   --no-cluster  one host only
#   --no-onehost  the cluster only
#   default p3o_bench options: --sizes 64,96,128 --nv 8 --iters 3 --reps 3
#                              --engines mpi,ucx
# Table II with compression (docs/benchmarks.md) passes --codecs, e.g.
#   table2.sh -r 1gbit,200mbit -o out/fft-codec -- --sizes 64,96,128 --nv 8
#       --iters 2 --reps 2 --engines ucx --modes blocking,pipelined_nbo,roundtrip_nbo
#       --codecs none,fp32,zfp:8,zfp:16,zfp:24,zfp:32 --codec-cost
# NBO_* variables in the environment reach the ranks (e.g. NBO_PROGRESS).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
build=build
outdir=out/fft
rate=1gbit
gso=32768
burst=36kb
cluster=1
onehost=1
opts=(--sizes 64,96,128 --nv 8 --iters 3 --reps 3 --engines mpi,ucx)

while [ $# -gt 0 ]; do
    case "$1" in
    -b) build=$2; shift 2 ;;
    -o) outdir=$2; shift 2 ;;
    -r) rate=$2; shift 2 ;;
    -G) gso=$2; shift 2 ;;
    -B) burst=$2; shift 2 ;;
    --no-cluster) cluster=0; shift ;;
    --no-onehost) onehost=0; shift ;;
    --) shift; [ $# -eq 0 ] || opts=("$@"); break ;;
    -h|--help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "table2.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

bench=$(cd "$ROOT" && realpath "$build")/bench/fft/p3o_bench
[ -x "$bench" ] || { echo "table2.sh: $bench not built (meson compile -C $build)" >&2; exit 1; }
mkdir -p "$outdir"
outdir=$(realpath "$outdir")

if [ "$onehost" -eq 1 ]; then
    echo "== one host, mpiexec -n 2" >&2
    timeout 1800 mpiexec -n 2 "$bench" "${opts[@]}" --csv "$outdir/table2-onehost.csv" |
        tee "$outdir/table2-onehost.md"
fi

if [ "$cluster" -eq 1 ]; then
    for r in ${rate//,/ }; do
        echo "== emulated 2-host cluster at $r (GSO $gso, bucket $burst), one rank per host" >&2
        rc=0
        md=$outdir/table2-cluster-$r.md
        echo "# emulated 2-host cluster: $r, GSO $gso, tbf bucket $burst" >"$md"
        # -d/-g: a job that printed its last line is not kept waiting on an
        # MPI_Finalize hang (openucx/ucx#8738); its own verdict is in that line.
        "$ROOT/scripts/emu-cluster/nbo-cluster.sh" run -N 2 -k 1 -r "$r" -G "$gso" -B "$burst" -t 3600 \
            -d '^# p3o_bench: done' -g 20 -- \
            "$bench" "${opts[@]}" --csv "$outdir/table2-cluster-$r.csv" |
            tee -a "$md" || rc=$?
        [ "$rc" -ne 77 ] || { echo "table2.sh: emulated cluster unavailable here (SKIP)" >&2; break; }
        [ "$rc" -eq 0 ] || exit "$rc"
        if grep -q '^# p3o_bench: done, FAILED' "$md"; then
            echo "table2.sh: p3o_bench reported a failure on the cluster at $r" >&2
            exit 1
        fi
    done
fi
echo "tables and CSV in $outdir" >&2
