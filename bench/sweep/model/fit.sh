#!/usr/bin/env bash
# fit.sh - fit model.gp's parameters to bench/sweep/run.sh logs and print
# docs/model.md's tables (markdown): the parameters, measured against
# predicted, and the predictions on a fat tree.
#
#   bench/sweep/model/fit.sh [-c CORES] [-L MS] [-S BYTES] [-R RHO] [-P LIST] [-m LIST] LOG...
#
#   -c CORES   cores the measured cluster's ranks shared (default 2)
#   -L MS      one-way latency, not fitted (default 0.05, an assumption:
#              docs/model.md)
#   -S BYTES   switch buffer per port (default 262144, run.sh's 256kb)
#   -R RHO     the incast cost rho, not fitted (default: fitted)
#   -P LIST    rank counts to predict (default 64,128,256,512,1024)
#   -m LIST    bytes per peer to predict (default 1024,...,4194304)
# FIT_KEEP=DIR keeps the points, gnuplot's script and its tables in DIR.
# Needs gnuplot (scripts/install-deps.sh).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cores=2
lat=0.05
buffer=262144
plist=64,128,256,512,1024
mlist=1024,4096,16384,65536,262144,1048576,4194304
rho=
while getopts c:L:S:R:P:m:h opt; do
    case $opt in
    c) cores=$OPTARG ;;
    L) lat=$OPTARG ;;
    S) buffer=$OPTARG ;;
    R) rho=$OPTARG ;;
    P) plist=$OPTARG ;;
    m) mlist=$OPTARG ;;
    h) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || { echo "fit.sh: no log given" >&2; exit 2; }
tmp=${FIT_KEEP:-$(mktemp -d)}
mkdir -p "$tmp"
[ -n "${FIT_KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT

# One line per measured point: P bytes alg(0 pair, 1 bruck) W ms.
awk '
/^# nbo_sweep P=/ { split($3, a, "="); P = a[2] + 0; next }
/^#   bytes/ { n = NF; for (i = 3; i <= NF; i++) col[i - 1] = $i; next }
P && $1 ~ /^[0-9]+$/ {
    for (i = 2; i <= n - 1 && i <= NF; i++) {
        split(col[i], w, "/")
        if ((w[1] == "pair" || w[1] == "bruck") && $i ~ /^[0-9.]+$/)
            print P, $1, (w[1] == "bruck"), (w[1] == "bruck" ? 1 : w[2]), $i
    }
}' "$@" | sort -n -k1,1 -k2,2 -k3,3 -k4,4 > "$tmp/data"
[ -s "$tmp/data" ] || { echo "fit.sh: no nbo_sweep rows in $*" >&2; exit 1; }

# The fat tree's grid: every power-of-two window below P - 1, and P - 1.
for P in ${plist//,/ }; do
    for m in ${mlist//,/ }; do
        for ((W = 1; W < P - 1; W *= 2)); do echo "$P $m 0 $W"; done
        echo "$P $m 0 $((P - 1))"
        echo "$P $m 1 1"
    done
done > "$tmp/grid"

cd "$tmp"
cat > fit.gp <<GP
load '$HERE/model.gp'
S = $buffer
NC = $cores
L = $lat
# A flow's burst into a port: one GSO segment (nbo-cluster.sh: GSO 65536).
bst = 65536
s = 1; h = 0.3; o = 0.3; B = 0.9; B1 = 0.6; gam = 3; cp = 0.5; srho = 1
# rho >= 0 (an overflow cannot save time): the fit moves its square root.
Tfit(P, m, W, a) = (rho = ${rho:-srho**2}, T(P, m, W, a))
set dummy P, m, W, a
set fit quiet errorvariables prescale maxiter 500 logfile '/dev/null'
# Relative errors: the times span three decades.
fit Tfit(P, m, W, a) 'data' using 1:2:4:3:5:(0.1 * \$5) zerror via s, h, o, B, B1, gam, cp${rho:+ #}, srho
rho_err = ${rho:+0 #}2 * abs(srho) * srho_err
set print '-'
print sprintf('s %.4g %.2g', s, s_err)
print sprintf('h %.4g %.2g', h, h_err)
print sprintf('o %.4g %.2g', o, o_err)
print sprintf('B %.4g %.2g', B, B_err)
print sprintf('B1 %.4g %.2g', B1, B1_err)
print sprintf('gam %.4g %.2g', gam, gam_err)
print sprintf('cp %.4g %.2g', cp, cp_err)
print sprintf('rho %.4g %.2g', rho, rho_err)
print sprintf('rms %.4g %d', FIT_STDFIT, FIT_NDF)
set table 'fitted'
plot 'data' using (T(\$1, \$2, \$4, \$3)) with table
# The fat tree: one rank per host (kap = 1), full bisection, so a rank's
# bounds are its own link and its receiver's port.
NC = 1e12
set table 'pred'
plot 'grid' using (T(\$1, \$2, \$4, \$3)):(hostcost(\$1, \$4, \$3)):(mstar(\$1, \$4)) with table
unset table
GP
# A script file, not stdin: gnuplot stops at its first error.
gnuplot fit.gp > params 2> fit.err || { cat fit.err >&2; exit 1; }
# Side by side with the inputs, whose sizes stay exact (a table prints %g).
paste -d' ' data <(grep -v '^#' fitted | grep .) > fitted.all
paste -d' ' grid <(grep -v '^#' pred | grep .) > pred.all

echo "## Parameters ($(wc -l < data) measured points; $cores cores, L = $lat ms, S = $buffer B${rho:+, rho = $rho set})"
echo
echo "| parameter | value | std. error |"
echo "| --- | --- | --- |"
awk '
BEGIN {
    d["s"] = "s, host cost per operation on a whole core (ms)"
    d["h"] = "h, host cost per window on a whole core (ms)"
    d["o"] = "o, host cost per message on a whole core (ms)"
    d["B"] = "B, link rate (Gbit/s)"
    d["B1"] = "B1, the rate of one flow (Gbit/s)"
    d["gam"] = "gamma, CPU cost per byte on a whole core (ns)"
    d["cp"] = "c, Bruck copy cost per byte on a whole core (ns)"
    d["rho"] = "rho, cost of a byte over the port buffer (x its wire time)"
}
$1 == "rms" { rms = $2; ndf = $3; next }
{ printf "| %s | %.4g | %.2g |\n", d[$1], $2, $3 }
END { printf "\nrms of the residuals over 10 %% of each time: %.3g (%d degrees of freedom)\n", rms, ndf }' params
echo
echo "## Measured against predicted (ms per all-to-all)"
echo
echo "| P | bytes | alg/W | measured | model | error |"
echo "| --- | --- | --- | --- | --- | --- |"
awk '
{
    e = 100 * ($6 - $5) / $5
    if (!($1 in n)) Ps[++np] = $1
    n[$1]++; if (e < 20 && e > -20) ok[$1]++
    k = $1 SUBSEP ($2 >= 262144); nk[k]++; if (e < 20 && e > -20) okk[k]++; ae[k] += e < 0 ? -e : e
    printf "| %d | %d | %s/%d | %.2f | %.2f | %+.0f %% |\n", $1, $2, ($3 ? "bruck" : "pair"), $4, $5, $6, e
}
END {
    printf "\nwithin 20 %%:"
    for (i = 1; i <= np; i++) printf " P = %d, %d of %d;", Ps[i], ok[Ps[i]], n[Ps[i]]
    printf "\n\n| P | from 256 KiB: within 20 %% | mean abs. error | below: within 20 %% | mean abs. error |\n"
    printf "| --- | --- | --- | --- | --- |\n"
    for (i = 1; i <= np; i++) {
        a = Ps[i] SUBSEP 1; b = Ps[i] SUBSEP 0
        printf "| %d | %d of %d | %.0f %% | %d of %d | %.0f %% |\n", Ps[i], okk[a], nk[a], nk[a] ? ae[a] / nk[a] : 0, okk[b], nk[b], nk[b] ? ae[b] / nk[b] : 0
    }
}' fitted.all
echo
echo "## Predicted on a fat tree (one rank per host, full bisection): ms, the best alg/W, and the host costs' share"
echo
awk -v mlist="$mlist" -v plist="$plist" '
BEGIN { nm = split(mlist, M, ","); np = split(plist, Q, ",") }
{
    k = $1 SUBSEP $2
    if (!(k in best) || $5 < best[k]) { best[k] = $5; bw[k] = ($3 ? "bruck" : "pair/" $4); host[k] = $6 }
}
END {
    printf "| P |"; for (i = 1; i <= nm; i++) printf " %d B |", M[i]
    printf "\n| --- |"; for (i = 1; i <= nm; i++) printf " --- |"; printf "\n"
    for (j = 1; j <= np; j++) {
        printf "| %d |", Q[j]
        for (i = 1; i <= nm; i++) {
            k = Q[j] SUBSEP M[i]
            printf " %.4g %s (%.0f %%) |", best[k], bw[k], 100 * host[k] / best[k]
        }
        printf "\n"
    }
}' pred.all
echo
echo "## The default window (W = 8) over the best, fat tree"
echo
awk -v mlist="$mlist" -v plist="$plist" '
BEGIN { nm = split(mlist, M, ","); np = split(plist, Q, ",") }
{ k = $1 SUBSEP $2; if (!(k in best) || $5 < best[k]) best[k] = $5; if (!$3 && $4 == 8) w8[k] = $5 }
END {
    printf "| P |"; for (i = 1; i <= nm; i++) printf " %d B |", M[i]
    printf "\n| --- |"; for (i = 1; i <= nm; i++) printf " --- |"; printf "\n"
    for (j = 1; j <= np; j++) {
        printf "| %d |", Q[j]
        for (i = 1; i <= nm; i++) { k = Q[j] SUBSEP M[i]; printf " %.2f |", w8[k] / best[k] }
        printf "\n"
    }
}' pred.all
echo
echo "## Bytes per peer below which a window's host cost (h + W o) exceeds its wire time, fat tree"
echo
awk '!$3 && !seen[$4]++ && $4 <= 64 { w = $4; while (w % 2 == 0) w /= 2; if (w == 1) printf "- W = %d: %.0f B\n", $4, $7 }' pred.all
