#!/usr/bin/env bash
# Configure (or reconfigure) and compile a build directory.
#   scripts/build.sh [BUILD_DIR] [meson options...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build}
shift || true
if [ -f "$dir/build.ninja" ]; then
  meson setup --reconfigure "$dir" "$@" >/dev/null
else
  meson setup "$dir" "$@" >/dev/null
fi
meson compile -C "$dir" >/dev/null
echo "build: $dir ready"
