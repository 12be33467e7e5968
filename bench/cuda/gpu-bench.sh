#!/usr/bin/env bash
# gpu-bench.sh - the GPU figures of docs/cuda.md, on one host with a CUDA GPU
# (ranks share it):
#   1. nbo_cuda_chunk: a persistent all-to-all on device buffers for several
#      NBO_CUDA_CHUNK sizes, next to host buffers.  The chunk sizes are
#      interleaved and repeated (-R), so that drift of a shared machine hits
#      every size alike; the summary gives, per size, the median of the
#      repeats' medians.
#   2. p3o_cuda_bench: the GPU pencil FFT (cuFFT) against the CPU one
#      (FFTW), every mode, per grid size.
#
#   bench/cuda/gpu-bench.sh [-b BUILD] [-o OUTDIR] [-n NP] [-R REPEATS]
#                           [-s SIZES] [-v NV]
#   -b BUILD    meson build dir (default: build)
#   -o OUTDIR   output folder (default: out/gpu)
#   -n NP       ranks for the all-to-all and the 2-D FFT runs (default 2)
#   -R REPEATS  passes over the chunk list (default 4)
#   -s SIZES    FFT grid sizes, comma-separated (default 128,256)
#   -v NV       FFT variables (default 4)
# Engines: NBO_ENGINE=ucx and mpi, progress thread and inline.  Without a GPU
# the programs say so, and so does this script, with exit status 77.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
build=build
outdir=out/gpu
np=2
repeats=4
sizes=128,256
nv=4
while [ $# -gt 0 ]; do
    case "$1" in
    -b) build=$2; shift 2 ;;
    -o) outdir=$2; shift 2 ;;
    -n) np=$2; shift 2 ;;
    -R) repeats=$2; shift 2 ;;
    -s) sizes=$2; shift 2 ;;
    -v) nv=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-bench.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
bdir=$(cd "$ROOT" && realpath "$build")/bench/cuda
for p in nbo_cuda_chunk p3o_cuda_bench; do
    [ -x "$bdir/$p" ] || { echo "gpu-bench.sh: $bdir/$p not built (CUDA, cuFFT and nvcc needed)" >&2; exit 1; }
done
mkdir -p "$outdir"
# The build's own launcher (build/mpi-bin, else mpiexec on PATH): hydra
# with its fork launcher (no ssh needed), or Open MPI's, which starts local
# ranks itself and must be allowed to run as root.
mpx=("$(cd "$ROOT" && realpath "$build")/mpi-bin/mpiexec")
[ -x "${mpx[0]}" ] || mpx=(mpiexec)
if "${mpx[0]}" --version 2>&1 | grep -q 'OpenRTE\|Open MPI'; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
else
    mpx+=(-launcher fork)
fi

# Is there a GPU at all?  The benchmark says "skipped: ..." and exits 77.
set +e
"${mpx[@]}" -n 1 "$bdir/nbo_cuda_chunk" -b 4096 -i 1 -c 4096 >"$outdir/probe.txt" 2>&1
rc=$?
set -e
if [ $rc -eq 77 ]; then
    cat "$outdir/probe.txt"
    exit 77
fi

# 1. The chunk sweep.
chunks=65536,262144,1048576,4194304
list=$chunks
for ((i = 1; i < repeats; i++)); do list=$list,$chunks; done
: >"$outdir/chunk.txt"
for e in ucx:thread mpi:inline mpi:thread; do
    for b in 4194304 1048576; do
        echo "== engine ${e%:*}/${e#*:} P=$np bytes_per_peer=$b" >>"$outdir/chunk.txt"
        NBO_ENGINE=${e%:*} NBO_PROGRESS=${e#*:} "${mpx[@]}" -n "$np" "$bdir/nbo_cuda_chunk" \
            -b "$b" -i 30 -c "$list" >>"$outdir/chunk.txt" 2>&1
    done
done
{
    echo "# chunk sweep: median over $repeats passes of each point's median (us per all-to-all), P=$np"
    echo "| engine/progress | bytes per peer | host buffers | $(echo $chunks | sed 's/,/ | /g') |"
    echo "| --- | --- | --- |$(echo $chunks | sed 's/[0-9]*/ --- /g; s/,/|/g') |"
    awk -v chunks="$chunks" '
        function median(s,   a, n, i, j, t) {
            n = split(s, a, " ")
            for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
                if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
            return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
        }
        function flush(   k, c, line) {
            if (head == "") return
            line = "| " eng " | " bytes " | " sprintf("%.0f", host)
            for (k = 1; k <= nc; k++) line = line " | " sprintf("%.0f", median(v[c_[k]]))
            print line " |"
            delete v
        }
        BEGIN { nc = split(chunks, c_, ",") }
        /^== engine/ { flush(); head = $0; eng = $3; split($5, kv, "="); bytes = kv[2] }
        $1 == "host" { host = $3 }
        $1 == "device" { v[$2] = v[$2] " " $3 }
        END { flush() }' "$outdir/chunk.txt"
} >"$outdir/chunk.md"

# 2. GPU against CPU pencil FFT.  P=1: no exchange, so one mode says it all.
: >"$outdir/fft.txt"
for n in ${sizes//,/ }; do
    for p in 1 "$np"; do
        modes="blocking pipelined_mpi pipelined_nbo"
        [ "$p" -eq 1 ] && modes=blocking
        for m in $modes; do
            echo "== P=$p n=$n nv=$nv mode=$m" >>"$outdir/fft.txt"
            NBO_ENGINE=ucx NBO_PROGRESS=thread "${mpx[@]}" -n "$p" "$bdir/p3o_cuda_bench" \
                -n "$n" -v "$nv" -i 5 -m "$m" >>"$outdir/fft.txt" 2>&1
        done
    done
done
{
    echo "# GPU (cuFFT) against CPU (FFTW) pencil FFT: ms per forward + backward of $nv variables, double"
    echo "| P | grid | mode | CPU total | GPU total | CPU/GPU | GPU col_comm | GPU wait |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
    awk '/^== /{ split($2, a, "="); P = a[2]; split($3, b, "="); n = b[2]; split($5, c, "="); m = c[2] }
         $1 == "CPU" { cpu = $3 }
         $1 == "GPU" { printf "| %s | %s^3 | %s | %.1f | %.1f | %.1fx | %.1f | %.1f |\n", P, n, m, cpu, $3, cpu / $3, $9, $10 }' \
        "$outdir/fft.txt"
} >"$outdir/fft.md"
cat "$outdir/chunk.md" "$outdir/fft.md"
