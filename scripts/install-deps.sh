#!/usr/bin/env bash
# Install every Debian package libnbo needs to build, test and benchmark.
# Idempotent: packages already present are left alone.  Needs root (or sudo).
set -euo pipefail

pkgs=(
  # build
  build-essential pkg-config meson ninja-build
  # MPI (distributed substrate), engines
  mpich libmpich-dev libucx-dev ucx-utils libibverbs-dev rdma-core ibverbs-providers ibverbs-utils
  # application and tests
  libfftw3-dev libcmocka-dev valgrind clang libclang-rt-14-dev
  # man pages: groff renders them in tests/install, man finds them
  man-db groff-base
  # emulated cluster and plots
  iproute2 gnuplot-nox
  # Soft-RoCE guest
  qemu-system-x86 linux-image-amd64 busybox-static kmod cpio
)

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#pkgs[@]} packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
