#!/usr/bin/env bash
# After `meson install`, every function declared in include/nbo.h has a man
# page, as do nbo(3) and nbo_info(1); each renders without a groff warning,
# and man(1) finds them through MANPATH.
#   check_man.sh BUILD_DIR SOURCE_DIR MANDIR   (MANDIR: prefix/mandir, absolute)
set -euo pipefail
build=$1 src=$2 mandir=$3
command -v groff >/dev/null && command -v man >/dev/null ||
  { echo "SKIP: groff or man missing (scripts/install-deps.sh installs man-db)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --destdir "$tmp/stage" --no-rebuild --quiet >/dev/null
man=$tmp/stage$mandir
fail=0
# Prototypes start in column 0 with their return type; read them from the
# header itself, not from the generator that wrote the pages.
funcs=$(grep -E '^[a-z][a-z_ ]*[ *]nbo_[a-z_]+\(' "$src/include/nbo.h" |
        sed -E 's/^[^(]*[ *](nbo_[a-z_]+)\(.*/\1/' | sort -u)
[ "$(echo "$funcs" | wc -l)" -ge 20 ] || { echo "FAIL: only $(echo "$funcs" | wc -w) functions read from nbo.h"; exit 1; }
pages=()
for f in $funcs; do
  if [ -f "$man/man3/$f.3" ]; then pages+=("man3/$f.3"); else echo "FAIL: no man page for $f"; fail=1; fi
done
for p in man3/nbo.3 man1/nbo_info.1; do
  if [ -f "$man/$p" ]; then pages+=("$p"); else echo "FAIL: $p not installed"; fail=1; fi
done
# Render each page (.so links resolve from the man root) with every warning.
cd "$man"
for p in "${pages[@]}"; do
  if ! groff -man -Tutf8 -ww -z "$p" > "$tmp/groff.txt" 2>&1 || [ -s "$tmp/groff.txt" ]; then
    echo "FAIL: $p does not render cleanly:"; cat "$tmp/groff.txt"; fail=1
  fi
  if ! man -l "$p" > /dev/null 2> "$tmp/man.txt" || [ -s "$tmp/man.txt" ]; then
    echo "FAIL: man -l $p:"; cat "$tmp/man.txt"; fail=1
  fi
done
cd - >/dev/null
for name in nbo_wait nbo nbo_info; do
  found=$(MANPATH=$man man -w "$name" 2>/dev/null || true)
  case $found in
    "$man"/*) ;;
    *) echo "FAIL: MANPATH=$man man -w $name gave '$found'"; fail=1 ;;
  esac
done
# nbo(3) lists every error code; nbo_info(1) every option of its --help.
for e in $(grep -oE 'NBO_ERR_[A-Z_]+ *=' "$src/include/nbo.h" | tr -d ' ='); do
  grep -q "$e" "$man/man3/nbo.3" || { echo "FAIL: nbo(3) lacks $e"; fail=1; }
done
"$build/tools/nbo_info" --help > "$tmp/help.txt"
for o in $(grep -oE -- '--[a-z-]+' "$tmp/help.txt"); do
  grep -qF -- "${o//-/\\-}" "$man/man1/nbo_info.1" || { echo "FAIL: nbo_info(1) lacks $o"; fail=1; }
done
[ $fail -eq 0 ] || exit 1
echo "PASS: ${#pages[@]} man pages installed, render cleanly, found by man -w"
