#!/usr/bin/env bash
# The README's main job, on a bare machine (Debian 12, root):
#   1. install the Debian packages of the library and the emulated cluster
#      (no QEMU: that is the Soft-RoCE guest's, for the tests), build
#      libnbo (build/)
#   2. the overlap benchmark on a 2-host emulated cluster (network
#      namespaces, 200 Mbit/s links): MPI_Alltoall, MPI_Ialltoall (MPICH,
#      also with its async progress) and libnbo side by side, with a verdict
#      line per size; CSV and PNG in out/
#   3. the multi-variable pipelined 3-D FFT demo (p3dfft_overlap, P = 2)
# A few minutes on 2 cores.  Options go to the benchmark script, e.g.
#   scripts/main-job.sh -r 1gbit
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh lib cluster
scripts/build.sh build

echo
echo "=== 1/2: overlap benchmark, 2 emulated hosts (scripts/emu-cluster/bench-overlap.sh)"
scripts/emu-cluster/bench-overlap.sh -b build -o out "$@"

echo
echo "=== 2/2: pipelined multi-variable 3-D FFT demo (P = 2, one host)"
echo "# It checks every variant's round trip.  Its times come from 3 iterations on"
echo "# the 2 cores the ranks share with their progress threads: they swing from run"
echo "# to run.  The FFT's figures come from bench/fft/table2.sh on the emulated cluster."
NBO_PROGRESS=thread timeout 300 mpiexec -n 2 build/bench/fft/p3o_bench --demo

echo
echo "main job done: out/overlap.csv, out/overlap.png"
