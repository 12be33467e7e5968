#!/usr/bin/env bash
# The HTML API reference that doxygen built (docs/meson.build): no doxygen
# warning, an entry for every function of the public headers, and
# docs/api.md, the page that leads to it, names every function group (man
# page) of the headers and links only to files that exist.
#   check_api_doc.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
html=$build/docs/html
fail=0
[ -f "$html/index.html" ] || { echo "FAIL: $html/index.html not built"; exit 1; }
if [ -s "$build/docs/doxygen-warnings.txt" ]; then
  echo "FAIL: doxygen warned:"; cat "$build/docs/doxygen-warnings.txt"; fail=1
fi
headers=$src/include/nbo.h
[ -f "$html/group__p3o__forward.html" ] && headers="$headers $src/p3dfft_overlap/p3dfft_overlap.h"
n=0
for h in $headers; do
  for f in $(grep -E '^[a-z][a-z_ ]*[ *](nbo|p3o)_[a-z0-9_]+\(' "$h" | sed -E 's/^[^(]*[ *]((nbo|p3o)_[a-z0-9_]+)\(.*/\1/' | sort -u); do
    n=$((n + 1))
    # A function named as a struct (p3o_compression) is a link there.
    grep -qE "class=\"memname\">.*[ *>]$f( |<)" "$html"/group__*.html ||
      { echo "FAIL: no entry for $f in the HTML reference"; fail=1; }
  done
  for g in $(sed -n 's/^ \* \\defgroup \([a-z0-9_]*\) .*/\1/p' "$h"); do
    grep -q "\b$g\b" "$src/docs/api.md" || { echo "FAIL: docs/api.md does not name $g ($(basename "$h"))"; fail=1; }
  done
done
[ $n -ge 60 ] || { echo "FAIL: only $n functions read from the headers"; exit 1; }
# Relative links of docs/api.md (not URLs, not anchors of the page itself).
for l in $(grep -oE '\]\([^)#]+' "$src/docs/api.md" | sed 's/^](//' | grep -v '://'); do
  [ -e "$src/docs/$l" ] || { echo "FAIL: docs/api.md links to $l, which does not exist"; fail=1; }
done
[ $fail -eq 0 ] || exit 1
echo "PASS: the HTML reference has all $n functions, no doxygen warning; docs/api.md names every group"
