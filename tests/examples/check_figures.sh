#!/bin/sh
# check_figures.sh FILE - check what examples/tutorial/step3_measure.c
# printed: no wrong values, three positive medians, a hidden figure that
# is the formula of its medians, and medians no run can give.  Not a
# performance test: on a loaded 2-core machine the compute sized to the
# exchange comes out several times off, and a progress thread that finds
# no free core makes the overlapped loop slower than compute + exchange,
# so hidden alone is no check.  What fails: an overlapped loop under half
# its compute alone, or over 10 times compute + exchange.
out=$1
awk '
/^compute /    { c = $2 }
/^exchange /   { e = $2 }
/^overlapped / { o = $2 }
/^hidden /     { h = $2 }
/^0 wrong values$/ { ok = 1 }
END {
    if (!ok) { print "FAIL: wrong values, or no count of them"; exit 1 }
    if (!(c > 0 && e > 0 && o > 0)) { print "FAIL: medians not all positive: " c ", " e ", " o; exit 1 }
    f = 100 * (c + e - o) / e
    d = f - h; if (d < 0) d = -d
    if (d > 0.2 + 20 / e) { print "FAIL: hidden " h " is not 100 * (compute + exchange - overlapped) / exchange = " f; exit 1 }
    if (o < 0.5 * c || o > 10 * (c + e)) { print "FAIL: overlapped " o " us against compute " c " us and exchange " e " us"; exit 1 }
    print "PASS: compute " c " us, exchange " e " us, overlapped " o " us, hidden " h " %"
}' "$out"
