#!/usr/bin/env bash
# Install libnbo into a scratch prefix, then build and run an example out of
# tree with nothing but `pkg-config --cflags --libs nbo`, as a user would.
#   test_install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
meson install -C "$build" --destdir "$tmp/stage" --no-rebuild --quiet >/dev/null
# meson installs under DESTDIR + the configured prefix; find the pc file.
pc=$(find "$tmp/stage" -name nbo.pc | head -n 1)
[ -n "$pc" ] || { echo "FAIL: nbo.pc was not installed"; exit 1; }
stage_prefix=$(sed -n 's/^prefix=//p' "$pc")
# Relocate: point the .pc at the staged tree.
mkdir -p "$tmp/pc"
sed "s|^prefix=.*|prefix=$tmp/stage$stage_prefix|" "$pc" > "$tmp/pc/nbo.pc"
export PKG_CONFIG_PATH=$tmp/pc
for f in include/nbo.h; do
  [ -f "$tmp/stage$stage_prefix/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
for tool in nbo_info; do
  [ -x "$tmp/stage$stage_prefix/bin/$tool" ] || { echo "FAIL: bin/$tool not installed"; exit 1; }
done
cflags=$(pkg-config --cflags nbo) libs=$(pkg-config --libs nbo)
libdir=$(pkg-config --variable=libdir nbo)
mpicc "$src/examples/overlap.c" $cflags $libs -Wl,-rpath,"$libdir" -o "$tmp/overlap"
# The program must use the installed library, not the build tree's.
ldd "$tmp/overlap" > "$tmp/ldd.txt"   # not piped into grep -q: pipefail + SIGPIPE
grep -q "$tmp/stage" "$tmp/ldd.txt" || { echo "FAIL: not linked against the installed copy"; cat "$tmp/ldd.txt"; exit 1; }
timeout 120 mpiexec -n 2 "$tmp/overlap"
echo "PASS: installed headers, library, nbo.pc and tools; out-of-tree build ran"
