#!/bin/sh
# check_figures.sh FILE - check what examples/tutorial/step3_measure.c
# printed: no wrong values, three positive medians, a hidden figure that
# is the formula of its medians, and no median that no run can give.  Not a
# performance test: on a loaded 2-core machine the compute sized to the
# exchange comes out several times off, and a progress thread that finds
# no free core makes the overlapped loop slower than compute + exchange
# (a scheduler tick in an overlapped block of a 50 us exchange makes
# it 10 times compute + exchange), so hidden alone is no check.  What
# fails: an overlapped loop under a quarter of its compute alone.
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
    # the medians are printed to 0.05 us, hidden to 0.05 %
    d = f - h; if (d < 0) d = -d
    af = f < 0 ? -f : f
    if (d > 0.1 + (15 + 0.05 * af) / e) { print "FAIL: hidden " h " is not 100 * (compute + exchange - overlapped) / exchange = " f; exit 1 }
    if (o < 0.25 * c) { print "FAIL: overlapped " o " us, under a quarter of compute alone " c " us"; exit 1 }
    print "PASS: compute " c " us, exchange " e " us, overlapped " o " us, hidden " h " %"
}' "$out"
