#!/usr/bin/env bash
# The layers call only down (DEVELOPERS.md, "Layers"), checked on
# the built objects: no object references a symbol (function or data) that
# an object of a layer above it, or beside it, defines.  check_layers.sh
# checks the #includes; this catches a call through a declaration written
# by hand, or one an interface header lets through.  Each object's layer is
# the top folder of its source (compile_commands.json): tools/ compiles
# pmpi/pm_settings.c, which stays in pmpi.
#
# usage: check_calls.sh BUILD_DIR SOURCE_ROOT
set -u
build=${1:?usage: check_calls.sh BUILD_DIR SOURCE_ROOT}
src=${2:?usage: check_calls.sh BUILD_DIR SOURCE_ROOT}
command -v nm >/dev/null || { echo "SKIP: nm missing (binutils)"; exit 77; }
db=$build/compile_commands.json
[ -f "$db" ] || { echo "FAIL: no $db"; exit 1; }

# layer -> the layers whose symbols it may reference (its own included).
# tools/ (nbo_info) lists libnbo-mpi's settings table too.
declare -A may=(
  [util]="util"
  [progress]="progress util"
  [memory]="memory util"
  [codec]="codec util"
  [offload]="offload util"
  [libnbo]="libnbo progress memory offload codec util"
  [pmpi]="pmpi libnbo progress memory offload codec util"
  [p3dfft_overlap]="p3dfft_overlap libnbo progress memory offload codec util"
  [tools]="tools pmpi libnbo progress memory offload codec util"
  [fortran]="fortran p3dfft_overlap libnbo progress memory offload codec util"
)

# "source object" per compiled file of the layers above (tests, benchmarks
# and examples may call anything they link).
pairs=$(paste -d' ' \
  <(sed -n 's/^[[:space:]]*"file": "\(.*\)",\{0,1\}$/\1/p' "$db") \
  <(sed -n 's/^[[:space:]]*"output": "\(.*\)",\{0,1\}$/\1/p' "$db"))
declare -A layer_of obj_src def_layer def_src
objs=()
while read -r file out; do
  [ -n "$file" ] || continue
  case $file in /*) path=$file ;; *) path=$build/$file ;; esac
  rel=$(realpath -m --relative-to="$src" "$path")
  layer=${rel%%/*}
  [ -n "${may[$layer]+x}" ] || continue
  obj=$build/$out
  [ -f "$obj" ] || { echo "FAIL: $out ($rel) is not built"; exit 1; }
  layer_of[$obj]=$layer
  obj_src[$obj]=$rel
  objs+=("$obj")
  while read -r sym; do
    def_layer[$sym]=$layer
    def_src[$sym]=$rel
  done < <(nm -g --defined-only "$obj" | awk 'NF == 3 {print $3}')
done <<< "$pairs"
[ ${#objs[@]} -gt 20 ] || { echo "FAIL: only ${#objs[@]} objects of libnbo's layers in $db"; exit 1; }

fail=0 n=0
for obj in "${objs[@]}"; do
  layer=${layer_of[$obj]}
  while read -r sym; do
    d=${def_layer[$sym]:-}
    [ -n "$d" ] || continue # a library's (MPI, UCX, libc)
    n=$((n + 1))
    if [[ " ${may[$layer]} " != *" $d "* ]]; then
      echo "FAIL: ${obj_src[$obj]} ($(realpath --relative-to="$build" "$obj")) references $sym," \
           "defined in $d/ (${def_src[$sym]}): $layer/ may call only ${may[$layer]// /, }"
      fail=1
    fi
  done < <(nm -u "$obj" | awk '{print $2}')
done
[ $fail = 0 ] && echo "PASS: ${#objs[@]} objects, $n references to libnbo's own symbols, every one down or within its layer"
exit $fail
