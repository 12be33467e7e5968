#!/usr/bin/env bash
# The EXAMPLE of every function page is a file of examples/api/ that its
# Doxygen group includes (\include api/NAME.c, NAME the group), every file
# there is included by one group, and each compiles: mpicc with -Wall
# -Wextra -Werror against the headers of the source tree.
#   check_examples.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1 build=$2
command -v mpicc >/dev/null || { echo "SKIP: no mpicc"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
: > "$tmp/included"
for h in include/nbo.h p3dfft_overlap/p3dfft_overlap.h; do
  # Each function group's comment, from its \defgroup to its @{.
  for grp in $(sed -n 's/^ \* \\defgroup \([a-z0-9_]*\) .*/\1/p' "$src/$h"); do
    case $grp in nbo|p3dfft_overlap) continue ;; esac   # the overview pages
    inc=$(sed -n "/\\\\defgroup $grp /,/@{/p" "$src/$h" | sed -n 's/^ \* \\include \(.*\)/\1/p')
    if [ "$inc" != "api/$grp.c" ]; then
      echo "FAIL: the group $grp of $h includes '${inc:-nothing}', not api/$grp.c"; fail=1
    elif [ ! -f "$src/examples/$inc" ]; then
      echo "FAIL: $grp ($h): examples/$inc is missing"; fail=1
    fi
    echo "$grp" >> "$tmp/included"
  done
done
[ "$(wc -l < "$tmp/included")" -ge 40 ] || { echo "FAIL: only $(wc -l < "$tmp/included") function groups read from the headers"; exit 1; }
for c in "$src"/examples/api/*.c; do
  f=$(basename "$c" .c)
  grep -qx "$f" "$tmp/included" || { echo "FAIL: examples/api/$f.c is included by no group of the headers"; fail=1; }
  n=$((n + 1))
done
# One compiler run for all (its diagnostics name each file): a run per
# file cost a second's startup each.
if ! mpicc -fsyntax-only -std=gnu11 -Wall -Wextra -Werror -I"$src/include" -I"$build/include" \
     -I"$build" -I"$src/p3dfft_overlap" "$src"/examples/api/*.c 2> "$tmp/cc.txt"; then
  echo "FAIL: examples/api/ do not all compile:"; cat "$tmp/cc.txt"; fail=1
fi
[ $fail -eq 0 ] || exit 1
echo "PASS: $n examples of the man pages, each included by its group, compile"
