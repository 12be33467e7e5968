#!/usr/bin/env bash
# bench-overlap.sh - the overlap benchmark (bench/driver/nbo_bench) on an
# emulated 2-host cluster: prints the OSU-layout tables and a verdict per
# size, writes CSV + PNG.  Small by default (a few minutes on 2 cores).
#
#   scripts/emu-cluster/bench-overlap.sh [-b BUILD] [-o OUTDIR] [-r RATE] [-N HOSTS]
#                                    [-k PER_HOST] [-e ENGINES] [-P MODES] [--ofi PROVIDERS]
#                                    [--no-async] [-- nbo_bench options]
#
#   -b BUILD   meson build dir (default: build; set up and compiled if missing)
#   -o OUTDIR  where overlap.csv and overlap.png go (default: out)
#   -r RATE    tbf link rate (default 200mbit; 1gbit is the second standard point)
#   -e, -P     the nbo rows' engines and progress modes (nbo_bench -e / -P:
#              comma lists, e.g. -e ucx -P thread; default: all)
#   --ofi PROVIDERS  a run of the ofi engine's rows per libfabric provider
#              (comma list, e.g. 'sockets,tcp;ofi_rxm'), each with
#              NBO_OFI_PROVIDER set and the provider in the rows' names
#              (nbo:ofi/thread+sockets; ';' becomes '+')
#   --no-async skip the second run of MPICH with MPIR_CVAR_ASYNC_PROGRESS=1
#   default benchmark options: -m 64K,256K,1M,4M -M osu,work -i 8 -x 2 -b 10 -T 0.1
#   (no 16 KiB: its exchange takes less time than one scheduler tick here)
#   (a small run: the benchmark's own -T 0.5 takes about 7 minutes here)
#
# NBO_* variables in the environment reach the ranks (e.g. NBO_SPIN_US).
# Needs root; exits 77 where namespaces cannot be built.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CLUSTER="$HERE/nbo-cluster.sh"

build=build
outdir=out
rate=200mbit
hosts=2
per_host=1
async=1
engines=
modes=
ofi_providers=
# shellcheck disable=SC2054 # the commas belong to -S
bench_opts=(-m 64K,256K,1M,4M -M "osu,work" -i 8 -x 2 -b 10 -T 0.1)

while [ $# -gt 0 ]; do
    case "$1" in
    -b) build=$2; shift 2 ;;
    -o) outdir=$2; shift 2 ;;
    -r) rate=$2; shift 2 ;;
    -N) hosts=$2; shift 2 ;;
    -k) per_host=$2; shift 2 ;;
    -e) engines=$2; shift 2 ;;
    -P) modes=$2; shift 2 ;;
    --ofi) ofi_providers=$2; shift 2 ;;
    --no-async) async=0; shift ;;
    --) shift; [ $# -eq 0 ] || bench_opts=("$@"); break ;;
    -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-overlap: unknown option $1" >&2; exit 2 ;;
    esac
done

[ "$(id -u)" -eq 0 ] || { echo "bench-overlap: SKIP: needs root (network namespaces)" >&2; exit 77; }

# Relative paths are the caller's; make them absolute for the namespaces.
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
case "$outdir" in /*) ;; *) outdir="$PWD/$outdir" ;; esac
bin="$build/bench/driver/nbo_bench"
if [ ! -x "$bin" ]; then
    echo "bench-overlap: building $build" >&2
    [ -f "$build/build.ninja" ] || meson setup "$build" "$ROOT" >/dev/null
    meson compile -C "$build" >/dev/null
fi
[ -x "$bin" ] || { echo "bench-overlap: $bin not built" >&2; exit 1; }
mkdir -p "$outdir"
csv="$outdir/overlap.csv"
png="$outdir/overlap.png"

# One cluster for both runs; the lock keeps other cluster users out, and the
# trap takes everything down whatever happens.
. "$(dirname "$CLUSTER")/cluster-lock.sh"
cluster_take bench-overlap

"$CLUSTER" up -N "$hosts" -r "$rate"
echo "# emulated cluster: $hosts hosts x $per_host rank(s), tbf $rate, TCP ${NBO_CLUSTER_CC:-cubic}, UCX_TLS=tcp,self"
rowsel=()
[ -z "$engines" ] || rowsel+=(-e "$engines")
[ -z "$modes" ] || rowsel+=(-P "$modes")
on_cluster -N "$hosts" -k "$per_host" -t 900 -d '^# nbo_bench: done' -g 20 -- \
    "$bin" "${bench_opts[@]}" "${rowsel[@]}" -o "$csv"

# The ofi engine per provider: which one libfabric opens is a process-wide
# choice (NBO_OFI_PROVIDER), so each gets a run of its own.
IFS=, read -ra providers <<<"$ofi_providers"
for prov in "${providers[@]}"; do
    [ -n "$prov" ] || continue
    echo
    echo "# the ofi engine on libfabric's $prov provider (NBO_OFI_PROVIDER), a separate run"
    export NBO_OFI_PROVIDER=$prov
    on_cluster -N "$hosts" -k "$per_host" -t 900 -d '^# nbo_bench: done' -g 20 -- \
        "$bin" "${bench_opts[@]}" ${modes:+-P "$modes"} -a nbo -e ofi -L "${prov//;/+}" \
        -o "$csv.ofi" ||
        echo "bench-overlap: the $prov run ended with an error (rc $?); rows it wrote are kept" >&2
    unset NBO_OFI_PROVIDER
    [ ! -s "$csv.ofi" ] || tail -n +2 "$csv.ofi" >>"$csv"
    rm -f "$csv.ofi"
done

if [ "$async" = 1 ]; then
    echo
    echo "# MPICH with its own progress thread (MPIR_CVAR_ASYNC_PROGRESS=1), a separate run"
    export MPIR_CVAR_ASYNC_PROGRESS=1
    on_cluster -N "$hosts" -k "$per_host" -t 600 -d '^# nbo_bench: done' -g 20 -- \
        "$bin" "${bench_opts[@]}" -a nonblocking -L async -V -o "$csv.async" ||
        echo "bench-overlap: the async-progress run ended with an error (rc $?); rows it wrote are kept" >&2
    unset MPIR_CVAR_ASYNC_PROGRESS
    if [ -s "$csv.async" ]; then
        tail -n +2 "$csv.async" >>"$csv"
        # Its verdict: against this run's blocking row (MPI_Alltoall, or
        # the blocking form of the collective -C names).
        awk -F, 'NR > 1 && $1 ~ /^MPI_[^I][A-Za-z]*$/ { a[$6] = $13; an = $1 }
                 NR > 1 && $1 ~ /^MPI_I[a-z]*\+async$/ { w[$6] = $17; p[$6] = $13; o[$6] = $14; x[$6] = $21; n[n0++] = $6; nn = $1 }
                 END { for (i = 0; i < n0; i++) { s = n[i];
                         printf "%s B: %s %.0f %% work overlap (OSU %.0f %%), latency %.2fx %s",
                                s, nn, w[s], o[s], (a[s] > 0 ? p[s] / a[s] : 0), an
                         # as nbo_bench'"'"'s verdict (ALONE_SLOW in bench.h)
                         if (x[s] > 1.2) printf " [its compute alone took %.2fx an idle core'"'"'s time]", x[s]
                         printf "\n" } }' "$csv"
    fi
    rm -f "$csv.async"
fi

# Every overlapping row side by side (columns: report_csv_header).
echo
echo "# summary: work-based overlap and CPU per operation (us) of the work phase"
printf '%-30s %9s %10s %9s %9s %10s %10s %10s\n' "# method" size pure_us work_ovl osu_ovl \
    cpu_work lib_cpu prov_cpu
awk -F, 'NR > 1 && $14 != "" { printf "%-30s %9s %10.0f %8.1f%% %8.1f%% %10.0f %10.0f %10.0f\n",
                                       $1, $6, $13, $17, $14, $19, $23, $24 }' "$csv"

if command -v gnuplot >/dev/null 2>&1; then
    gnuplot -e "csv='$csv'; png='$png'; title='nbo_bench: $hosts hosts x $per_host, tbf $rate, UCX_TLS=tcp'" \
        "$ROOT/bench/driver/plot.gp"
    echo "# wrote $csv and $png"
else
    echo "# wrote $csv (no gnuplot: no PNG; scripts/install-deps.sh installs gnuplot-nox)"
fi
