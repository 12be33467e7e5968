#!/usr/bin/env bash
# check_model.sh - bench/sweep/model/fit.sh on the logs checked in beside
# it: the fit converges, its parameters are positive, every measured point
# has its prediction, and the fat tree's predictions are positive and grow
# with P at every size.  No cluster, about a second.
set -euo pipefail
dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../bench/sweep/model" && pwd)
out=$("$dir/fit.sh" "$dir"/logs/*.log)
fail() { echo "check_model: $*" >&2; echo "$out" >&2; exit 1; }

params=$(echo "$out" | awk '/^## Parameters/ { on = 1; next } /^## / { on = 0 } on && /^\| [a-zA-Z]/ && !/parameter/' )
[ "$(echo "$params" | wc -l)" -eq 8 ] || fail "not 8 parameters"
echo "$params" | awk -F'|' '$3 + 0 < 0 { bad = 1 } END { exit bad }' || fail "a negative parameter"

points=$(cat "$dir"/logs/*.log | awk '/^#   bytes/ { n = 0; for (i = 3; i <= NF; i++) n += ($i ~ /^(pair|bruck)\//); next }
    /^ *[0-9]+ / && n { c += n } END { print c }')
rows=$(echo "$out" | grep -c '^| [0-9]* | [0-9]* | \(pair\|bruck\)/')
[ "$rows" -eq "$points" ] || fail "$rows predictions for $points measured points"

echo "$out" | awk '/^## Predicted/ { on = 1; next } /^## / { on = 0 }
    on && /^\| [0-9]/ {
        n = split($0, c, "|")
        for (i = 3; i < n; i++) {
            split(c[i], v, " ")
            if (v[1] + 0 <= 0 || (prev[i] != "" && v[1] + 0 <= prev[i])) bad = 1
            prev[i] = v[1] + 0
        }
        rowsp++
    }
    END { exit bad || rowsp != 5 }' || fail "a fat-tree prediction not positive or not growing with P"
echo "check_model: ok ($rows points, 8 parameters)"
