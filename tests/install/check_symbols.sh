#!/usr/bin/env bash
# The shared libraries export their public API and nothing else:
#   libnbo.so              exactly the functions declared in include/nbo.h
#   libp3dfft_overlap.so   exactly those of p3dfft_overlap/p3dfft_overlap.h
#   libnbo-mpi.so          MPI_* / PMPI_* names (MPIX_ where an MPI names the
#                          persistent all-to-alls so: Open MPI 4.1), the Fortran
#                          bindings' names it interposes (mpi_wait_f08_, mpi_wait_,
#                          pmpi_test_, ompi_wait_f: docs/fortran.md) and nbo_pmpi_stats
#   check_symbols.sh SOURCE_DIR LIBRARY...
# The names may carry the build's -Dmpi_suffix (NBO_MPI_SUFFIX=_mpich:
# libnbo_mpich.so).
set -euo pipefail
src=$1; shift
sfx=${NBO_MPI_SUFFIX:-}
command -v nm >/dev/null || { echo "SKIP: nm missing (binutils)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# Defined dynamic symbols, without their version (nbo_wait@@NBO_0) and
# without the version definitions themselves (absolute symbols, type A).
exported() { nm -D --defined-only "$1" | awk '$2 != "A" {sub(/@.*/, "", $3); print $3}' | sort -u; }
# Prototypes start in column 0 with their return type (as check_man.sh reads them).
declared() { grep -E "^[a-z][a-z0-9_ ]*[ *]$2[a-z0-9_]+\(" "$1" |
             sed -E "s/^[^(]*[ *]($2[a-z0-9_]+)\(.*/\1/" | sort -u; }
same() { # LIBRARY HEADER PREFIX
  exported "$1" > "$tmp/exp"
  declared "$2" "$3" > "$tmp/decl"
  [ -s "$tmp/decl" ] || { echo "FAIL: no $3 prototypes read from $2"; fail=1; return; }
  local extra missing
  extra=$(comm -23 "$tmp/exp" "$tmp/decl") missing=$(comm -13 "$tmp/exp" "$tmp/decl")
  [ -z "$extra" ] || { echo "FAIL: $(basename "$1") exports names not declared in $(basename "$2"):" $extra; fail=1; }
  [ -z "$missing" ] || { echo "FAIL: $(basename "$1") does not export:" $missing; fail=1; }
  [ -n "$extra$missing" ] || echo "ok: $(basename "$1"): the $(wc -l < "$tmp/exp") functions of $(basename "$2")"
}
for lib in "$@"; do
  case $(basename "$lib") in
    "libnbo$sfx.so"*) same "$lib" "$src/include/nbo.h" nbo_ ;;
    "libp3dfft_overlap$sfx.so"*) same "$lib" "$src/p3dfft_overlap/p3dfft_overlap.h" p3o_ ;;
    "libnbo-mpi$sfx.so"*)
      exported "$lib" > "$tmp/exp"
      other=$(grep -vE '^(P?MPIX?_[A-Za-z0-9_]+|p?mpi_[a-z0-9_]+_|ompi_[a-z0-9_]+_f|nbo_pmpi_stats)$' "$tmp/exp" || true)
      [ -z "$other" ] || { echo "FAIL: libnbo-mpi.so exports other names:" $other; fail=1; }
      grep -qx nbo_pmpi_stats "$tmp/exp" || { echo "FAIL: libnbo-mpi.so does not export nbo_pmpi_stats"; fail=1; }
      [ -n "$other" ] || echo "ok: libnbo-mpi.so: $(wc -l < "$tmp/exp") names, MPI's and nbo_pmpi_stats" ;;
    *) echo "FAIL: no rule for $lib"; fail=1 ;;
  esac
done
[ $fail -eq 0 ] || exit 1
echo "PASS: each library exports its public API only"
