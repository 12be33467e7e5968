#!/usr/bin/env bash
# check_pmpi_summary.sh SUMMARY - bench/driver/summary-pmpi.sh's verdicts on a CSV
# made up for each rule: the loop compared at the base's compute, the
# latency limit, the equal band, and the default candidates line.
set -euo pipefail
summary=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
csv=$dir/osu.csv
hdr=label,coll,size,nprocs,persistent,served,osu_iters,overall_us,compute_us,init_us,test_us,wait_us,pure_us,overlap_pct,app_n,app_blocks,app_compute_us,app_exchange_us,app_blocking_us,app_overlapped_us,hidden_pct,nb_vs_blocking,compute_vs_idle,errors
# row LABEL COLL SIZE SERVED COMPUTE EXCHANGE OVERLAPPED NB/BLOCKING
row() { echo "$1,$2,$3,2,0,$4,10,1,1,0,0,0,1000,50,5,5,$5,$6,$6,$7,50,$8,1.0,0"; }
{
    echo "$hdr"
    # allgather: libnbo's compute ran 2.5 % faster, its exposed time is
    # 252 us against 85: plain ratio 1.03 (equal), at the base's compute 1.06.
    row mpich  allgather 65536 mpi    2874.64 2733.90 2959.86 0.9886
    row libnbo allgather 65536 libnbo 2803.58 2716.81 3055.58 0.9826
    # alltoall: libnbo's compute ran 10 % slower, the same exposed time:
    # plain ratio 1.10 (slower), at the base's compute 1.00 (equal).
    row mpich  alltoall 65536 mpi    1000 900 1100 1.0
    row libnbo alltoall 65536 libnbo 1100 900 1200 1.0
    # alltoall 1 MiB: hidden by libnbo, not by MPI: faster.
    row mpich  alltoall 1048576 mpi    40000 40000 80000 1.0
    row libnbo alltoall 1048576 libnbo 40000 40000 41000 1.0
    # bcast: the loop is faster but the exchange 1.2x the blocking form.
    row mpich  bcast 65536 mpi    1000 900 1900 1.0
    row libnbo bcast 65536 libnbo 1000 900 1100 1.2
} > "$csv"
out=$("$summary" "$csv" mpich libnbo)
echo "$out"
fail=0
expect() {
    if ! grep -qF -- "$1" <<<"$out"; then
        echo "check_osu_summary: missing: $1"
        fail=1
    fi
}
expect '| allgather | 64 KiB |'
expect '0.99x, 1.06x | slower (loop 1.06x) |'
expect '1.00x, 1.00x | equal |'
expect '1.00x, 0.51x | faster |'
expect '| slower (latency 1.20x) |'
expect '# alltoall: faster or equal at every size'
expect '# faster or equal everywhere (NBO_PMPI_COLLS default candidates): alltoall'
exit $fail
