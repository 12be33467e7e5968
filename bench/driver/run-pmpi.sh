#!/usr/bin/env bash
# run-pmpi.sh - nbo_bench's MPI rows (-a nonblocking: an unmodified MPI
# program's collectives) on the emulated cluster (scripts/emu-cluster), one
# cluster session, three configurations of the same binary side by side
# for each collective: MPI alone, MPI with its own progress thread, and
# libnbo-mpi.so preloaded.  Prints each run's OSU and application-loop
# tables, then one summary table and a verdict per collective and size.
#
#   bench/driver/run-pmpi.sh [-b BUILD] [-o OUTDIR] [-r RATE] [-N HOSTS] [-k PER_HOST]
#                    [-c COLLS] [-m SIZES] [--no-async] [--no-ceiling]
#                    [-- nbo_bench options]
#
#   -b BUILD     meson build dir (default build; built if missing).  A build
#                with -Dmpi=openmpi runs under Open MPI: put its mpiexec first
#                on PATH (PATH=$PWD/build-ompi/mpi-bin:$PATH)
#   -o OUTDIR    logs and CSVs (default out/osu)
#   -r RATE      tbf link rate (default 200mbit)
#   -N, -k       hosts (default 2), ranks per host (default 1)
#   -c COLLS     collectives (default all six: alltoall,allreduce,
#                reduce_scatter_block,allgather,allgatherv,bcast)
#   -m SIZES     sizes (default 64K,1M,4M)
#   --no-async   leave out MPI's own progress thread
#   --no-ceiling leave out the socket ceiling (nbo_bench -a sockets: all-to-all
#                bytes over plain TCP between the same hosts)
#   nbo_bench -a nonblocking -M osu,app -b 0, and by default -i 10 -x 2 -n 5 -r 5 -T 0.25
#
# Configurations (one mpiexec each, per collective, in this order, so that
# a shared machine's drift falls on all three alike):
#   mpich  / ompi     MPI alone
#   async  / ompi-pt  MPICH: MPIR_CVAR_ASYNC_PROGRESS=1; Open MPI:
#                     OMPI_MCA_btl_tcp_progress_thread=1
#   libnbo            env LD_PRELOAD=BUILD/pmpi/libnbo-mpi.so, every
#                     collective served at every size (NBO_PMPI_COLLS=all,
#                     NBO_PMPI_MIN_SIZE=all=0), NBO_PMPI_LOG=1 on the first run
# The last two compute, in the application loop, as long as the first one's
# exchange took (nbo_bench -R), so all three compare at the same compute.
#
# NBO_* variables in the environment reach the ranks.  Needs root; exits 77
# where namespaces cannot be built.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CLUSTER="$ROOT/scripts/emu-cluster/nbo-cluster.sh"

build=build
outdir=out/osu
rate=200mbit
hosts=2
per_host=1
async=1
ceiling=1
colls=alltoall,allreduce,reduce_scatter_block,allgather,allgatherv,bcast
sizes=64K,1M,4M
bench_opts=(-i 10 -x 2 -n 5 -r 5 -T 0.25)
# libnbo-mpi serves every collective at every size in the libnbo
# configuration, whatever its defaults (NBO_OSU_SERVED: another
# NBO_PMPI_COLLS list; NBO_OSU_MIN_SIZE: another NBO_PMPI_MIN_SIZE list).
served_colls=${NBO_OSU_SERVED:-all}
served_min=${NBO_OSU_MIN_SIZE:-all=0}

while [ $# -gt 0 ]; do
    case "$1" in
    -b) build=$2; shift 2 ;;
    -o) outdir=$2; shift 2 ;;
    -r) rate=$2; shift 2 ;;
    -N) hosts=$2; shift 2 ;;
    -k) per_host=$2; shift 2 ;;
    -c) colls=$2; shift 2 ;;
    -m) sizes=$2; shift 2 ;;
    --no-async) async=0; shift ;;
    --no-ceiling) ceiling=0; shift ;;
    --) shift; [ $# -eq 0 ] || bench_opts=("$@"); break ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "run-pmpi.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

[ "$(id -u)" -eq 0 ] || { echo "run-pmpi.sh: SKIP: needs root (network namespaces)" >&2; exit 77; }

case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
case "$outdir" in /*) ;; *) outdir="$PWD/$outdir" ;; esac
bin="$build/bench/driver/nbo_bench"
lib="$build/pmpi/libnbo-mpi.so"
if [ ! -x "$bin" ] || [ ! -f "$lib" ]; then
    echo "run-pmpi.sh: building $build" >&2
    [ -f "$build/build.ninja" ] || meson setup "$build" "$ROOT" >/dev/null
    meson compile -C "$build" >/dev/null
fi
[ -x "$bin" ] && [ -f "$lib" ] || { echo "run-pmpi.sh: $bin or $lib not built" >&2; exit 1; }
mkdir -p "$outdir"

if mpiexec --version 2>&1 | grep -q 'OpenRTE\|Open MPI'; then
    mpi=ompi
    labels=(ompi ompi-pt libnbo)
else
    mpi=mpich
    labels=(mpich async libnbo)
fi
[ "$async" = 1 ] || labels=("${labels[0]}" libnbo)

# cluster_env: the configuration's variables (nbo-cluster.sh passes NBO_*,
# MPIR_CVAR_* and, under Open MPI, OMPI_MCA_* on to the ranks).
. "$(dirname "$CLUSTER")/cluster-lock.sh"
cluster_take run-pmpi.sh

"$CLUSTER" up -N "$hosts" -r "$rate"
echo "# emulated cluster: $hosts hosts x $per_host rank(s), tbf $rate, TCP ${NBO_CLUSTER_CC:-cubic}, UCX_TLS=tcp,self; $mpi"
echo "# nbo_bench -a nonblocking -M osu,app -b 0 -m $sizes ${bench_opts[*]}; configurations: ${labels[*]}"
echo "# machine load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# One configuration's run of one collective: its output on stdout and in
# OUTDIR/LABEL-COLL.log, its rows in OUTDIR/LABEL-COLL.csv.
run_config() { # label coll first
    local label=$1 coll=$2 first=$3 csv="$outdir/$1-$2.csv" ref=()
    local cmd=("$bin" -a nonblocking -M "osu,app" -b 0 -c "$coll" -m "$sizes" "${bench_opts[@]}" -L "$label" -o "$csv")
    [ "$label" = "${labels[0]}" ] || ref=(-R "$outdir/${labels[0]}-$coll.csv")
    rm -f "$csv"
    cluster_env=()
    case "$label" in
    async) cluster_env=(MPIR_CVAR_ASYNC_PROGRESS=1) ;;
    ompi-pt) cluster_env=(OMPI_MCA_btl_tcp_progress_thread=1) ;;
    libnbo)
        cluster_env=("NBO_PMPI_COLLS=$served_colls" "NBO_PMPI_MIN_SIZE=$served_min")
        [ "$first" = 1 ] && cluster_env+=(NBO_PMPI_LOG=1)
        # In the ranks only, not in mpiexec and the launcher.
        cmd=(env "LD_PRELOAD=$lib" "${cmd[@]}")
        ;;
    esac
    on_cluster -N "$hosts" -k "$per_host" -t 900 -d '^# nbo_bench: done' -g 10 -- \
        "${cmd[@]}" ${ref[@]+"${ref[@]}"} > >(tee "$outdir/$label-$coll.log") 2>&1 ||
        echo "run-pmpi.sh: $label $coll ended with an error" >&2
    cluster_env=()
    [ -s "$csv" ] || echo "run-pmpi.sh: $label $coll wrote no rows" >&2
}

first=1
for coll in ${colls//,/ }; do
    for label in "${labels[@]}"; do
        echo
        echo "######## $label: $coll"
        run_config "$label" "$coll" "$first"
        [ "$label" != libnbo ] || first=0
    done
done

if [ "$ceiling" = 1 ]; then
    echo
    echo "######## socket ceiling (nbo_bench -a sockets: the same bytes as an all-to-all of each size over plain TCP)"
    on_cluster -N "$hosts" -k "$per_host" -t 600 -d '^# nbo_bench: done' -g 10 -- \
        "$bin" -m "$sizes" -a sockets -M "osu,work" -i 10 -x 2 -b 20 -T 0.25 -V -o "$outdir/ceiling.csv" \
        > >(tee "$outdir/ceiling.log") 2>&1 || echo "run-pmpi.sh: the ceiling run failed" >&2
fi
echo "# machine load after: $(cut -d' ' -f1-3 /proc/loadavg)"

# All rows in one CSV, then the summary.
merged="$outdir/osu.csv"
first_csv=$(ls "$outdir"/*-*.csv 2>/dev/null | grep -v '/ceiling' | head -1 || true)
[ -n "$first_csv" ] || { echo "run-pmpi.sh: no results" >&2; exit 1; }
head -1 "$first_csv" >"$merged"
for coll in ${colls//,/ }; do
    for label in "${labels[@]}"; do
        [ ! -s "$outdir/$label-$coll.csv" ] || tail -n +2 "$outdir/$label-$coll.csv" >>"$merged"
    done
done
echo
"$HERE/summary-pmpi.sh" "$merged" "${labels[@]}"
echo "# wrote $merged and the logs in $outdir"
