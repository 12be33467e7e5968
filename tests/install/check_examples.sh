#!/usr/bin/env bash
# The EXAMPLES section of every function page compiles: scripts/gen-api-doc.py
# writes each snippet (--examples), mpicc checks it with -Wall -Wextra
# -Werror against the headers of the source tree, and every function group
# of the headers has one.
#   check_examples.sh PYTHON SOURCE_DIR BUILD_DIR
set -euo pipefail
python=$1 src=$2 build=$3
command -v mpicc >/dev/null || { echo "SKIP: no mpicc"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
for h in include/nbo.h p3dfft_overlap/p3dfft_overlap.h; do
  [ -f "$src/$h" ] || continue
  out=$tmp/$(basename "$h" .h)
  mkdir -p "$out" "$tmp/pages"
  "$python" "$src/scripts/gen-api-doc.py" --examples "$out" "$src/$h"
  # One snippet per function group: per page that is not a .so link.
  "$python" "$src/scripts/gen-api-doc.py" --man "$tmp/pages" "$src/$h"
  for page in $("$python" "$src/scripts/gen-api-doc.py" --man-list "$src/$h"); do
    f=${page%.3}
    [ "$f" = "$(basename "$h" .h)" ] && continue       # the overview page
    grep -q '^\.so ' "$tmp/pages/$page" && continue     # a link to its group
    [ -f "$out/$f.c" ] || { echo "FAIL: no EXAMPLES for $f ($h): add one to EXAMPLES in scripts/gen-api-doc.py"; fail=1; }
  done
  for c in "$out"/*.c; do
    n=$((n + 1))
    if ! mpicc -fsyntax-only -std=gnu11 -Wall -Wextra -Werror -I"$src/include" -I"$build/include" \
         -I"$build" -I"$src/p3dfft_overlap" "$c" 2> "$tmp/cc.txt"; then
      echo "FAIL: the example of $(basename "$c" .c) does not compile:"; cat "$tmp/cc.txt"; fail=1
    fi
  done
done
[ $fail -eq 0 ] || exit 1
echo "PASS: $n man page examples compile"
