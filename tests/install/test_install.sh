#!/usr/bin/env bash
# Install libnbo into a scratch prefix, then build and run an example out of
# tree with nothing but `pkg-config --cflags --libs nbo`, as a user would;
# with p3o (p3dfft_overlap built), the FFT example the same way with
# `pkg-config --cflags --libs p3dfft_overlap`.
#   test_install.sh BUILD_DIR SOURCE_DIR [p3o|no-p3o]
# The names may carry the build's -Dmpi_suffix (NBO_MPI_SUFFIX=_mpich:
# nbo_mpich.pc, libnbo_mpich.so, nbo_info_mpich).
set -euo pipefail
build=$1 src=$2 p3o=${3:-no-p3o}
sfx=${NBO_MPI_SUFFIX:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --destdir "$tmp/stage" --no-rebuild --quiet >/dev/null
# meson installs under DESTDIR + the configured prefix; find the pc file.
pc=$(find "$tmp/stage" -name "nbo$sfx.pc" | head -n 1)
[ -n "$pc" ] || { echo "FAIL: nbo$sfx.pc was not installed"; exit 1; }
stage_prefix=$(sed -n 's/^prefix=//p' "$pc")
# Relocate: point the .pc files at the staged tree.
mkdir -p "$tmp/pc"
pcs=nbo$sfx
[ "$p3o" = p3o ] && pcs="nbo$sfx p3dfft_overlap$sfx"
for name in $pcs; do
  f=$(dirname "$pc")/$name.pc
  [ -f "$f" ] || { echo "FAIL: $name.pc was not installed"; exit 1; }
  sed "s|^prefix=.*|prefix=$tmp/stage$stage_prefix|" "$f" > "$tmp/pc/$name.pc"
  # Nothing of this machine's paths but the prefix (no absolute .so path).
  if grep -nE '/[^ ]*\.so([ .]|$)' "$f"; then echo "FAIL: $name.pc names a library by path"; exit 1; fi
done
export PKG_CONFIG_PATH=$tmp/pc
headers="include/nbo.h include/nbo_version.h"
[ "$p3o" = p3o ] && headers="$headers include/p3dfft_overlap.h"
for f in $headers; do
  [ -f "$tmp/stage$stage_prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
for tool in nbo_info$sfx; do
  [ -x "$tmp/stage$stage_prefix/bin/$tool" ] || { echo "FAIL: bin/$tool not installed"; exit 1; }
done
cflags=$(pkg-config --cflags "nbo$sfx") libs=$(pkg-config --libs "nbo$sfx")
libdir=$(pkg-config --variable=libdir "nbo$sfx")
mpicc "$src/examples/overlap.c" $cflags $libs -Wl,-rpath,"$libdir" -o "$tmp/overlap"
# The program must use the installed library, not the build tree's.
ldd "$tmp/overlap" > "$tmp/ldd.txt"   # not piped into grep -q: pipefail + SIGPIPE
grep -q "$tmp/stage" "$tmp/ldd.txt" || { echo "FAIL: not linked against the installed copy"; cat "$tmp/ldd.txt"; exit 1; }
progs=overlap
if [ "$p3o" = p3o ]; then
  # The FFT example with p3dfft_overlap.pc alone (it requires nbo).
  mpicc "$src/examples/fft_multivar.c" $(pkg-config --cflags --libs "p3dfft_overlap$sfx") \
    -o "$tmp/fft_multivar"
  # The installed libp3dfft_overlap.so finds the installed libnbo.so.0 the
  # way it would in any prefix outside the linker's paths: LD_LIBRARY_PATH
  # (a program's rpath does not serve the libraries it loads).
  export LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  ldd "$tmp/fft_multivar" > "$tmp/ldd.txt"
  for l in "libp3dfft_overlap$sfx" "libnbo$sfx"; do
    grep -q "$l\.so.* => $tmp/stage" "$tmp/ldd.txt" ||
      { echo "FAIL: fft_multivar does not load the installed $l"; cat "$tmp/ldd.txt"; exit 1; }
  done
  progs="$progs fft_multivar"
fi
built="installed headers, libraries, .pc files ($pcs) and tools; out-of-tree builds ($progs)"
command -v mpiexec >/dev/null ||
  { echo "SKIP: $built passed, but no mpiexec to run them"; exit 77; }
for p in $progs; do
  timeout 120 mpiexec -n 2 "$tmp/$p"
done
echo "PASS: $built ran"
