#!/usr/bin/env bash
# nbo_info (tools/nbo_info.c) against the sources of the library:
# - it lists every NBO_* variable that libnbo, its engines and libnbo-mpi
#   read (each quoted "NBO_..." name in libnbo/, offload/, progress/,
#   pmpi/), and the NBO_UCX_* ones; libnbo-mpi's default NBO_PMPI_MIN_SIZE
#   as its settings table has it (and docs/pmpi.md);
# - it says what NBO_ENGINE=auto and NBO_PROGRESS=auto resolve to, and
#   which optional parts were built: every engine of offload/meson.build's
#   list, and a line for each built one;
# - an invalid value of any parsed variable (libnbo's and the engines'
#   tables, nbo_info --settings-md) makes it exit 1, naming the variable on
#   stderr and marking it INVALID; a valid environment exits 0.
#   check_nbo_info.sh BUILD_DIR SOURCE_DIR [NBO_INFO]   (default BUILD_DIR/tools/nbo_info)
set -euo pipefail
build=$1 src=$2
info=${3:-$build/tools/nbo_info}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
# Start from no NBO_* setting at all.
for v in $(env | grep -oE '^NBO_[A-Z0-9_]+' || true); do unset "$v"; done

rc=0; "$info" > "$tmp/out" 2> "$tmp/err" || rc=$?
[ $rc -eq 0 ] || { bad "nbo_info exits $rc in a clean environment:"; cat "$tmp/err"; }
grep -qE '^# MPI built with: (MPICH|Open MPI) [0-9]' "$tmp/out" ||
  bad "no '# MPI built with: MPICH|Open MPI VERSION' line"
# The engines: offload/meson.build's one list; each has a built line, each
# built one an engine line, and auto resolves to a usable one.
engines=$(sed -n "s/^engines = \[\(.*\)\]/\1/p" "$src/offload/meson.build" | tr -d "' " | tr ',' ' ')
[ "$(echo "$engines" | wc -w)" -ge 1 ] || bad "no engines list read from offload/meson.build"
for e in $engines; do
  if grep -qE "^built +$e +yes " "$tmp/out"; then
    grep -qE "^engine $e +(usable|unusable) " "$tmp/out" || bad "engine $e is built, but has no engine line"
  else
    grep -qE "^built +$e +no " "$tmp/out" || bad "no 'built $e yes|no' line"
    ! grep -qE "^engine $e " "$tmp/out" || bad "engine $e is not built, but has an engine line"
  fi
done
usable=$(sed -n 's/^engine \([a-z0-9_]*\) *usable .*/\1/p' "$tmp/out" | tr '\n' '|')
grep -qE "^auto +engine (${usable%|}) +progress (inline|thread) " "$tmp/out" ||
  bad "no 'auto engine ... progress ...' resolution line naming a usable engine (${usable%|})"
for part in cuda libnbo-mpi p3dfft_overlap; do
  grep -qE "^built +$part +(yes|no) " "$tmp/out" || bad "no 'built $part yes|no' line"
done
vars=$(cd "$src" && grep -rhoE '"NBO_[A-Z0-9_]*[A-Z0-9]"' libnbo offload progress pmpi | tr -d '"' | sort -u)
[ "$(echo "$vars" | wc -w)" -ge 20 ] || bad "only $(echo "$vars" | wc -w) variables found in the sources"
for v in $vars; do
  grep -qE "^$v " "$tmp/out" || bad "nbo_info does not list $v"
done
for v in NBO_UCX_TLS NBO_PMPI NBO_PMPI_LOG NBO_PEER_ERRORS NBO_VERBS_DEVICE; do
  grep -qE "^$v " "$tmp/out" || bad "nbo_info does not list $v"
done
# libnbo-mpi's default size thresholds, written once in its settings
# table: nbo_info and docs/pmpi.md show the same string.
min_def=$("$info" --settings-md=libnbo-mpi | grep -F '`NBO_PMPI_MIN_SIZE`' | awk -F'|' '{print $3}' | tr -d ' `')
[ -n "$min_def" ] || bad "no NBO_PMPI_MIN_SIZE default in nbo_info --settings-md=libnbo-mpi"
grep -qE "^NBO_PMPI_MIN_SIZE +$min_def +$min_def " "$tmp/out" ||
  bad "nbo_info's NBO_PMPI_MIN_SIZE default is not its table's $min_def"
grep -qF "\`$min_def\`" "$src/docs/pmpi.md" || bad "docs/pmpi.md does not give NBO_PMPI_MIN_SIZE's default $min_def"

# Every variable that is parsed (not free text): libnbo's and the engines'.
config_vars=$("$info" --settings-md | grep -vE '\| text \|' | grep -oE '^\| `NBO_[A-Z0-9_]+`' | tr -d '|` ')
[ "$(echo "$config_vars" | wc -w)" -ge 17 ] || bad "only $(echo "$config_vars" | wc -w) variables in nbo_info --settings-md"
# All at once: each run spends most of its second waiting in MPI_Init.
for v in $config_vars; do
  (rc=0; env "$v=abc" "$info" -c > "$tmp/$v.out" 2> "$tmp/$v.err" || rc=$?; echo $rc > "$tmp/$v.rc") &
done
wait
for v in $config_vars; do
  rc=$(cat "$tmp/$v.rc")
  [ "$rc" -eq 1 ] || bad "$v=abc nbo_info -c exits $rc, not 1"
  grep -q "$v" "$tmp/$v.err" || { bad "$v=abc: stderr does not name $v:"; cat "$tmp/$v.err"; }
  grep -qE "^$v +abc .*INVALID" "$tmp/$v.out" || bad "$v=abc: not marked INVALID"
done
# The issue's case, every section: exit 1, the variable named.
rc=0; NBO_WINDOW=abc "$info" > "$tmp/out" 2> "$tmp/err" || rc=$?
[ $rc -eq 1 ] || bad "NBO_WINDOW=abc nbo_info exits $rc, not 1"
grep -q 'NBO_WINDOW' "$tmp/err" || bad "NBO_WINDOW=abc: stderr does not name NBO_WINDOW"
rc=0; NBO_WINDOW=abc "$info" -e > "$tmp/out" 2> "$tmp/err" || rc=$?
[ $rc -eq 1 ] || bad "NBO_WINDOW=abc nbo_info -e exits $rc, not 1"

# Valid settings: "env", and what they resolve to.
rc=0; NBO_ENGINE=mpi NBO_PROGRESS=inline NBO_WINDOW=4 NBO_PMPI_LOG=1 NBO_TYPO=1 \
  "$info" > "$tmp/out" 2> "$tmp/err" || rc=$?
[ $rc -eq 0 ] || { bad "a valid environment: exit $rc"; cat "$tmp/err"; }
grep -qE '^NBO_WINDOW +4 +8 +env ' "$tmp/out" || bad "NBO_WINDOW=4 not shown as set"
grep -qE '^NBO_PMPI_LOG +1 +0 +env ' "$tmp/out" || bad "NBO_PMPI_LOG=1 not shown as set"
grep -qE '^configured +engine mpi +progress inline ' "$tmp/out" || bad "no 'configured engine mpi progress inline' line"
grep -q 'NBO_TYPO' "$tmp/out" || bad "NBO_TYPO, read by nobody, not reported"
rc=0; "$info" --bogus > /dev/null 2>&1 || rc=$?
[ $rc -eq 2 ] || bad "an unknown option exits $rc, not 2"
[ $fail -eq 0 ] || { echo "last output:"; cat "$tmp/out"; exit 1; }
echo "PASS: nbo_info lists $(echo "$vars" | wc -w) variables, resolves auto, names invalid values"
