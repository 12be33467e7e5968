#!/usr/bin/env bash
# After `meson install`, every function declared in include/nbo.h has a man
# page, and so does every function of p3dfft_overlap/p3dfft_overlap.h where
# that library is installed; nbo(3) and p3dfft_overlap(3) are there too, and
# the PAGEs this build makes (nbo_info(1) with help2man, libnbo-mpi(7) with
# pandoc).  Each renders without a groff warning, man(1) finds them through
# MANPATH, and every function page has the sections ERRORS and EXAMPLE (a
# function that shares its group's page is a .so link to it).
#   check_man.sh BUILD_DIR SOURCE_DIR MANDIR NBO_INFO [PAGE...]   (MANDIR:
#   prefix/mandir, absolute; NBO_INFO: the built tool; PAGE: man1/nbo_info.1,
#   man7/libnbo-mpi.7)
set -euo pipefail
build=$1 src=$2 mandir=$3 info=$4
shift 4
command -v groff >/dev/null && command -v man >/dev/null ||
  { echo "SKIP: groff or man missing (scripts/install-deps.sh installs man-db)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --destdir "$tmp/stage" --no-rebuild --quiet >/dev/null
man=$tmp/stage$mandir
fail=0
# Prototypes start in column 0 with their return type; read them from the
# header itself, not from the generator that wrote the pages.
funcs_of() {  # HEADER PREFIX
  grep -E "^[a-z][a-z_ ]*[ *]$2_[a-z0-9_]+\(" "$1" | sed -E "s/^[^(]*[ *]($2_[a-z0-9_]+)\(.*/\1/" | sort -u
}
funcs=$(funcs_of "$src/include/nbo.h" nbo)
[ "$(echo "$funcs" | wc -l)" -ge 20 ] || { echo "FAIL: only $(echo "$funcs" | wc -w) functions read from nbo.h"; exit 1; }
overviews="man3/nbo.3 $*"
# p3dfft_overlap: its pages wherever its header is installed.
if [ -n "$(find "$tmp/stage" -name p3dfft_overlap.h | head -n 1)" ]; then
  p3o=$(funcs_of "$src/p3dfft_overlap/p3dfft_overlap.h" p3o)
  [ "$(echo "$p3o" | wc -l)" -ge 10 ] || { echo "FAIL: only $(echo "$p3o" | wc -w) functions read from p3dfft_overlap.h"; exit 1; }
  funcs="$funcs $p3o"
  overviews="$overviews man3/p3dfft_overlap.3"
fi
# A function's page, or the group page its .so link names.
pages=()
for f in $funcs; do
  p=man3/$f.3
  if [ -f "$man/$p" ] && grep -q '^\.so ' "$man/$p"; then
    p=$(sed -n 's/^\.so //p' "$man/$p")
  fi
  if [ -f "$man/$p" ]; then pages+=("$p"); else echo "FAIL: no man page for $f ($p)"; fail=1; fi
done
mapfile -t pages < <(printf '%s\n' "${pages[@]}" | sort -u)
nfunc=${#pages[@]}
for p in $overviews; do
  if [ -f "$man/$p" ]; then pages+=("$p"); else echo "FAIL: $p not installed"; fail=1; fi
done
# Render each page (.so links resolve from the man root) with every warning.
cd "$man"
for p in "${pages[@]}"; do
  if ! groff -man -Tutf8 -ww -z "$p" > "$tmp/groff.txt" 2>&1 || [ -s "$tmp/groff.txt" ]; then
    echo "FAIL: $p does not render cleanly:"; cat "$tmp/groff.txt"; fail=1
  fi
done
# man(1) itself on the overview pages and one function page (a page costs
# it a fifth of a second; groff above has read every one).
for p in "${pages[@]:$nfunc}" "${pages[0]}"; do
  if ! man -l "$p" > /dev/null 2> "$tmp/man.txt" || [ -s "$tmp/man.txt" ]; then
    echo "FAIL: man -l $p:"; cat "$tmp/man.txt"; fail=1
  fi
done
# Function pages: ERRORS and EXAMPLE, and no C comment delimiters in the
# prose of the overview pages (a declaration rendered as text).
for p in "${pages[@]:0:$nfunc}"; do
  for s in ERRORS EXAMPLE; do
    grep -qE "^\.SH \"?$s\"?\$" "$p" || { echo "FAIL: $p has no $s section"; fail=1; }
  done
done
for p in $overviews; do
  [ -f "$p" ] || continue
  man -l "$p" > "$tmp/page.txt" 2>/dev/null
  if grep -nE '\*/|#define' "$tmp/page.txt" > "$tmp/raw.txt"; then
    echo "FAIL: $p shows C source as text:"; cat "$tmp/raw.txt"; fail=1
  fi
done
cd - >/dev/null
for name in nbo_wait nbo $(case "$*" in *nbo_info*) echo nbo_info;; esac) \
    $(case "$*" in *libnbo-mpi*) echo libnbo-mpi;; esac) $(case $overviews in *p3dfft*) echo p3dfft_overlap p3o_forward;; esac); do
  found=$(MANPATH=$man man -w "$name" 2>/dev/null || true)
  case $found in
    "$man"/*) ;;
    *) echo "FAIL: MANPATH=$man man -w $name gave '$found'"; fail=1 ;;
  esac
done
# nbo(3) lists every error code, p3dfft_overlap(3) every P3O_ERR_* code;
# nbo_info(1) every option of its --help; libnbo-mpi(7) every NBO_PMPI*
# variable libnbo-mpi.so reads.
for e in $(grep -oE 'NBO_ERR_[A-Z_]+ *=' "$src/include/nbo.h" | tr -d ' ='); do
  grep -q "$e" "$man/man3/nbo.3" || { echo "FAIL: nbo(3) lacks $e"; fail=1; }
done
if [ -f "$man/man3/p3dfft_overlap.3" ]; then
  for e in $(grep -oE 'P3O_ERR_[A-Z_]+ *=' "$src/p3dfft_overlap/p3dfft_overlap.h" | tr -d ' ='); do
    grep -q "$e" "$man/man3/p3dfft_overlap.3" || { echo "FAIL: p3dfft_overlap(3) lacks $e"; fail=1; }
  done
fi
if [ -f "$man/man1/nbo_info.1" ]; then
  "$info" --help > "$tmp/help.txt"
  grep -q '^\.SH SYNOPSIS' "$man/man1/nbo_info.1" || { echo "FAIL: nbo_info(1) has no SYNOPSIS"; fail=1; }
  for o in $(grep -oE -- '--[a-z-]+' "$tmp/help.txt"); do
    grep -qF -- "${o//-/\\-}" "$man/man1/nbo_info.1" || { echo "FAIL: nbo_info(1) lacks $o"; fail=1; }
  done
fi
if [ -f "$man/man7/libnbo-mpi.7" ]; then
  for v in $(grep -rhoE '"NBO_PMPI[A-Z_]*"' "$src/pmpi" | tr -d '"' | sort -u); do
    grep -qF "$v" "$man/man7/libnbo-mpi.7" || { echo "FAIL: libnbo-mpi(7) lacks $v"; fail=1; }
  done
fi
[ $fail -eq 0 ] || exit 1
echo "PASS: $(echo $funcs | wc -w) functions on $nfunc pages with ERRORS and EXAMPLE, ${#pages[@]} pages render cleanly, found by man -w"
