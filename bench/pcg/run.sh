#!/usr/bin/env bash
# run.sh - nbo_pcg on one host at P = 2 and 4 (shared memory) and, with
# --cluster, on the emulated cluster (scripts/emu-cluster), one rank per
# host, where the allreduce crosses a rate-shaped TCP link.
#
#   bench/pcg/run.sh [-b BUILD] [-o OUTDIR] [-P LIST] [--cluster HOSTS]
#                    [--rate RATE] [-- nbo_pcg options]
#
#   -b BUILD         meson build dir (default build; built if missing)
#   -o OUTDIR        logs and CSVs (default out/pcg): shm-P2.log, shm-P2.csv,
#                    cluster-4x1gbit.log, ...
#   -P 2,4           rank counts on this host (default 2,4; -P '' for none).
#                    Beyond the cores the ranks take turns on them (MPICH
#                    polls): P = 4 on 2 cores takes about 45 s with the
#                    defaults and its times are the scheduler's
#   --cluster HOSTS  also run on HOSTS emulated hosts (root; nbo-cluster.sh
#                    says SKIP where namespaces cannot be made)
#   --rate RATE      the emulated links' rate (default 1gbit)
#   nbo_pcg options: its defaults (-N 64 -i 100 -r 5) unless given after --
#
# NBO_* variables in the environment reach the ranks (libnbo's
# communicator has the defaults and the environment).  Exits non-zero if a
# run failed or its checks did.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CLUSTER="$ROOT/scripts/emu-cluster/nbo-cluster.sh"

build=build
outdir=out/pcg
ranks=2,4
hosts=
rate=1gbit
opts=()

while [ $# -gt 0 ]; do
    case "$1" in
    -b) build=$2; shift 2 ;;
    -o) outdir=$2; shift 2 ;;
    -P) ranks=$2; shift 2 ;;
    --cluster) hosts=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --) shift; opts=("$@"); break ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "pcg/run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
case "$outdir" in /*) ;; *) outdir="$PWD/$outdir" ;; esac
bin="$build/bench/pcg/nbo_pcg"
if [ ! -x "$bin" ]; then
    echo "pcg/run.sh: building $build" >&2
    [ -f "$build/build.ninja" ] || meson setup "$build" "$ROOT" >/dev/null
    meson compile -C "$build" >/dev/null
fi
mkdir -p "$outdir"

failed=0
for p in ${ranks//,/ }; do
    echo "######## one host, P = $p"
    mpiexec -n "$p" "$bin" ${opts[@]+"${opts[@]}"} -o "$outdir/shm-P$p.csv" |
        tee "$outdir/shm-P$p.log" || failed=1
done

if [ -n "$hosts" ]; then
    name="cluster-${hosts}x$rate"
    echo "######## emulated cluster: $hosts hosts x 1 rank, tbf $rate"
    # run: up, the job, down whatever happens.  UCX over TCP can hang in
    # MPI_Finalize (openucx/ucx#8738): the job counts as finished 10 s
    # after its last line.
    rc=0
    "$CLUSTER" run -N "$hosts" -r "$rate" -t 900 -d '^# nbo_pcg: done' -g 10 -- \
        "$bin" ${opts[@]+"${opts[@]}"} -o "$outdir/$name.csv" > >(tee "$outdir/$name.log") 2>&1 ||
        rc=$?
    # A job ended after its last line exits 0: its verdict is in the log.
    ! grep -q 'CHECKS FAILED' "$outdir/$name.log" || rc=1
    case $rc in
    0) ;;
    77) echo "pcg/run.sh: SKIP: no emulated cluster here (root and network namespaces)" >&2 ;;
    *) failed=1 ;;
    esac
fi

echo "# wrote $outdir"
[ "$failed" = 0 ] || { echo "pcg/run.sh: a run failed (see its log)" >&2; exit 1; }
