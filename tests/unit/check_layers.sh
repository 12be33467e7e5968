#!/usr/bin/env bash
# The layers call only down (docs/architecture.md, "Layers"): every
# #include "..." of libnbo's own code names a header of its own folder or
# one of the interface headers the layer may use.  The build has no global
# include path, so anything else would not even compile; this says which
# arrow broke, in words.  And libnbo's code (p3dfft_overlap's too) gets MPI
# from util/nbo_mpi.h alone, which calls it by its PMPI_ names.
#
# usage: check_layers.sh SOURCE_ROOT
set -u
root=${1:?usage: check_layers.sh SOURCE_ROOT}
cd "$root" || exit 2

# folder -> interface headers (paths from the source root) it may include
declare -A allowed=(
  [util]=""
  [progress]="util/util.h util/list.h util/setting.h util/nbo_mpi.h"
  [offload]="offload/engine.h libnbo/schedule.h util/util.h util/list.h util/mpi_compat.h util/setting.h util/nbo_mpi.h"
  [memory]="memory/memory.h libnbo/schedule.h util/util.h util/list.h util/setting.h util/nbo_mpi.h"
  [codec]="codec/codec.h util/util.h"
  [libnbo]="offload/engine.h progress/progress.h memory/memory.h codec/codec.h util/util.h util/list.h util/mpi_compat.h util/setting.h util/nbo_mpi.h libnbo/core.h libnbo/sched_algs.h"
)
fail=0 n=0
for layer in "${!allowed[@]}"; do
  [ -d "$layer" ] || continue
  while IFS= read -r f; do
    dir=$(dirname "$f")
    while IFS= read -r inc; do
      n=$((n + 1))
      case $inc in nbo.h|nbo_version.h|nbo_engines.h|offload/nbo_engine_list.h) continue ;; esac # public, generated
      target=$(realpath -m --relative-to=. "$dir/$inc")
      if [ ! -f "$target" ]; then
        echo "FAIL: $f includes $inc, which is not beside it: name other folders' headers by a relative path"
        fail=1; continue
      fi
      case $target in
        "$layer"/*)
          # Inside the layer: a sub-folder (an engine, a plug-in) keeps its
          # headers to itself, and reaches its parent only by its interface.
          top=${f#"$layer"/}; top=${top%%/*}
          ttop=${target#"$layer"/}; ttop=${ttop%%/*}
          if [ "$top" != "$ttop" ] && [[ "$f" == */*/* ]] && [[ " ${allowed[$layer]} " != *" $target "* ]]; then
            echo "FAIL: $f includes $inc: another part's internal header"; fail=1
          fi ;;
        include/*) ;;
        *)
          if [[ " ${allowed[$layer]} " != *" $target "* ]]; then
            echo "FAIL: $f includes $inc ($target): $layer/ may include only: ${allowed[$layer]:-nothing outside it}"
            fail=1
          fi ;;
      esac
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
  done < <(find "$layer" -name '*.[ch]')
done

# MPI only through util/nbo_mpi.h, which calls it by its PMPI_ names: an
# interposer (libnbo-mpi.so) must never see libnbo's own MPI traffic.  The
# public headers include <mpi.h> for the programs that include them.
mpi_public="p3dfft_overlap/p3dfft_overlap.h util/nbo_mpi.h"
while IFS=: read -r f line _; do
  [[ " $mpi_public " == *" $f "* ]] && continue
  echo "FAIL: $f:$line includes <mpi.h>: include util/nbo_mpi.h (MPI by its PMPI_ names)"
  fail=1
done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]mpi\.h[>"]' -r \
           --include='*.[ch]' libnbo offload memory codec progress util p3dfft_overlap 2>/dev/null)
[ $fail = 0 ] && echo "PASS: $n includes, every one within its layer or down to an interface header; MPI through util/nbo_mpi.h"
exit $fail
