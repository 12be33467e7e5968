#!/usr/bin/env bash
# libnbo never re-enters an interposer: the MPI names libnbo.so and
# libp3dfft_overlap.so import (they call MPI by its PMPI_ names,
# util/nbo_mpi.h) are none of those libnbo-mpi.so defines.  A shared one
# would have the interposer serve libnbo's own traffic with libnbo again.
#   check_mpi_imports.sh LIBNBO_MPI LIBRARY...
set -euo pipefail
pmpi=$1; shift
command -v nm >/dev/null || { echo "SKIP: nm missing (binutils)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Dynamic MPI_/MPIX_ symbols (not PMPI_), without their version.
mpi_names() { nm -D "$1" "$2" | awk '{sub(/@.*/, "", $NF); print $NF}' | grep -E '^MPIX?_' | sort -u || true; }
mpi_names --defined-only "$pmpi" > "$tmp/served"
[ -s "$tmp/served" ] || { echo "FAIL: $(basename "$pmpi") defines no MPI_ name"; exit 1; }
fail=0
for lib in "$@"; do
  mpi_names --undefined-only "$lib" > "$tmp/called"
  both=$(comm -12 "$tmp/called" "$tmp/served" | tr "\n" " ")
  if [ -n "$both" ]; then
    echo "FAIL: $(basename "$lib") calls MPI names $(basename "$pmpi") serves" \
         "(call them through util/nbo_mpi.h): $both"
    fail=1
  else
    echo "ok: $(basename "$lib"): $(wc -l < "$tmp/called") MPI_ imports, none of the" \
         "$(wc -l < "$tmp/served") that $(basename "$pmpi") defines"
  fi
done
[ $fail -eq 0 ] || exit 1
echo "PASS: no library of libnbo calls into the interposer"
