#!/usr/bin/env bash
# check_bench.sh - the smoke test of nbo_bench's mpi backend, as an
# unmodified MPI program's collectives run (bench/driver): run it briefly
# (or read a saved output) and check that its output is well formed and
# its figures sane and consistent.
#
#   check_bench.sh [--preload LIB] [--served LIST] [--colls LIST] [--sizes LIST]
#                  [--persistent] -- MPIEXEC NBO_BENCH
#   check_bench.sh --parse FILE [--colls LIST] [--sizes LIST] [--served LIST]
#
# Checks, per collective of --colls (default six) and size of --sizes
# (the exact sizes the program prints, default 4096,65536):
#   - an OSU table: header, one row per size, Overall, Compute, Pure Comm.
#     > 0, Overlap in [0, 100] and equal (within rounding) to
#     max(0, 100 - 100 * (Overall - Compute) / Pure Comm.);
#   - an application-loop table: one row per size, N >= 1, every time > 0,
#     Hidden = 100 * (Compute + Exchange - Overlapped) / Exchange and
#     NB/Blocking = Exchange / Blocking (within rounding), Compute/idle > 0;
#   - the line naming who served it: libnbo for those in --served, MPI for
#     the others;
#   - the CSV (run mode): one line per collective and size, no data errors;
#   - the last line: "# nbo_bench: done, 0 data errors", exit status 0.
set -uo pipefail

preload='' served='' colls=alltoall,allreduce,reduce_scatter_block,allgather,allgatherv,bcast
sizes=4096,65536 persistent='' parse=''
while [ $# -gt 0 ]; do
    case "$1" in
    --preload) preload=$2; shift 2 ;;
    --served) served=$2; shift 2 ;;
    --colls) colls=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --persistent) persistent=-p; shift ;;
    --parse) parse=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "check_bench: unknown option $1" >&2; exit 2 ;;
    esac
done

fail() { echo "FAIL: $*"; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out csv=$tmp/rows.csv
if [ -n "$parse" ]; then
    cp "$parse" "$out" || fail "cannot read $parse"
    rc=0
else
    [ $# -eq 2 ] || { echo "check_bench: need -- MPIEXEC NBO_BENCH" >&2; exit 2; }
    mpiexec=$1 prog=$2
    # In the ranks only: hydra's -genv, Open MPI's -x.
    pre=()
    if [ -n "$preload" ]; then
        if "$mpiexec" --version 2>&1 | grep -q 'Open MPI\|OpenRTE'; then
            pre=(-x "LD_PRELOAD=$preload")
        else
            pre=(-genv LD_PRELOAD "$preload")
        fi
    fi
    # shellcheck disable=SC2086 # persistent is one word or none
    timeout 60 "$mpiexec" -n 2 "${pre[@]}" "$prog" -a nonblocking -M osu,app -c "$colls" \
        -m "$sizes" $persistent -i 3 -x 1 -T 0 -b 0 -n 2 -r 3 -o "$csv" >"$out" 2>&1
    rc=$?
fi
cat "$out"
echo "----"
[ $rc -eq 0 ] || fail "nbo_bench exited $rc"
tail -n 1 "$out" | grep -qx '# nbo_bench: done, 0 data errors' ||
    fail "the last line is not '# nbo_bench: done, 0 data errors'"

# The tables of MPI's rows: "# COLL: MPI_Icoll" (or MPI_Coll_init, -p)
# before the OSU table, "# application loop, COLL: ..." before the other.
awk -v colls="$colls" -v sizes="$sizes" -v served=",$served," '
function bad(msg) { print "FAIL: " msg; failed = 1 }
function num(x) { return x ~ /^-?[0-9]+(\.[0-9]+)?$/ }
function near(a, b, tol) { return (a - b <= tol && b - a <= tol) }
BEGIN { nc = split(colls, C, ","); ns = split(sizes, S, ",") }
/^# [a-z_]+: MPI_[A-Za-z_]+( \(.*\))?$/ { cur = $2; sub(/:$/, "", cur); mode = "osu"; next }
/^# application loop, [a-z_]+: / { cur = $4; sub(/:$/, "", cur); mode = "app"; next }
/^# Size/ { hdr[mode, cur] = $0; next }
/^# [a-z_]+: MPI_[A-Za-z_]+ served by / {
    c = $2; sub(/:$/, "", c); who[c] = ($0 ~ /served by libnbo/) ? "libnbo" : "mpi"; mode = ""; next }
/^#/ || /^$/ { next }
mode == "osu" {
    if (NF != 13) { bad(cur " OSU row of " NF " fields: " $0); next }
    for (i = 1; i <= 8; i++) if (!num($i)) bad(cur " OSU row, field " i " not a number: " $0)
    ov = $2; cp = $3; pu = $7; ol = $8
    if (ov <= 0 || cp <= 0 || pu <= 0) bad(cur " " $1 ": a time <= 0: " $0)
    if (ol < 0 || ol > 100) bad(cur " " $1 ": Overlap " ol " outside [0, 100]")
    want = 100 - 100 * (ov - cp) / pu; if (want < 0) want = 0
    # Printed to 0.01: each column is off by up to 0.005, a ratio by as
    # much relatively as its divisor.
    if (pu > 0 && !near(ol, want, 0.02 + (100 * 0.011 + (100 - want) * 0.006) / pu)) bad(cur " " $1 ": Overlap " ol " but the columns give " want)
    osu[cur, $1] = 1; next
}
mode == "app" {
    if (NF != 9) { bad(cur " application row of " NF " fields: " $0); next }
    for (i = 1; i <= NF; i++) if (!num($i)) bad(cur " application row, field " i " not a number: " $0)
    if ($2 < 1) bad(cur " " $1 ": N " $2)
    for (i = 3; i <= 7; i++) if (i != 6 && $i <= 0) bad(cur " " $1 ": a time <= 0: " $0)
    if ($9 <= 0) bad(cur " " $1 ": Compute/idle " $9)
    h = 100 * ($3 + $4 - $5) / $4
    if (!near($6, h, 0.06 + (100 * 0.016 + (h < 0 ? -h : h) * 0.006) / $4)) bad(cur " " $1 ": Hidden " $6 " but the columns give " h)
    if (!near($8, $4 / $7, 0.0006 + 0.006 / $7 + 0.006 * $4 / ($7 * $7))) bad(cur " " $1 ": NB/Blocking " $8 " but the columns give " $4 / $7)
    app[cur, $1] = 1; next
}
END {
    for (i = 1; i <= nc; i++) {
        c = C[i]
        if (!(("osu", c) in hdr)) bad(c ": no OSU table")
        if (!(("app", c) in hdr)) bad(c ": no application-loop table")
        for (j = 1; j <= ns; j++) {
            if (!((c, S[j]) in osu)) bad(c ": no OSU row for size " S[j])
            if (!((c, S[j]) in app)) bad(c ": no application-loop row for size " S[j])
        }
        want = index(served, "," c ",") ? "libnbo" : "mpi"
        if (!(c in who)) bad(c ": no line saying who served it")
        else if (who[c] != want) bad(c ": served by " who[c] ", expected " want)
    }
    exit failed
}' "$out" || fail "the output above is not what nbo_bench must print"

if [ -z "$parse" ]; then
    ncolls=$(tr ',' '\n' <<<"$colls" | grep -c .)
    nsizes=$(tr ',' '\n' <<<"$sizes" | grep -c .)
    # By name: the CSV's columns (report_csv_header).
    awk -F, -v want=$((ncolls * nsizes)) '
        NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i
                  if (!("coll" in k) || !("errors" in k) || !("hidden_pct" in k)) { print "FAIL: CSV header: " $0; exit 1 }
                  next }
        $k["errors"] != 0 { print "FAIL: CSV: a row with data errors: " $0; exit 1 }
        { n++ }
        END { if (n != want) { print "FAIL: CSV: " n " rows, expected " want; exit 1 } }' "$csv" || exit 1
fi
echo "PASS: nbo_bench's tables are well formed, consistent and sane (${colls}; served by libnbo: ${served:-none})"
