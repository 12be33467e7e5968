#!/usr/bin/env bash
# Install every Debian package libnbo needs to build, test and benchmark.
# Idempotent: packages already present are left alone.  Needs root (or sudo).
set -euo pipefail

pkgs=(
  # build
  build-essential pkg-config meson ninja-build
  # MPI (distributed substrate): MPICH, and Open MPI beside it; engines
  mpich libmpich-dev openmpi-bin libopenmpi-dev
  libucx-dev ucx-utils libibverbs-dev rdma-core ibverbs-providers ibverbs-utils
  libfabric-dev libfabric-bin
  # application and tests
  libfftw3-dev libcmocka-dev valgrind clang libclang-rt-14-dev
  # Fortran: the modules nbo and p3o, and the Fortran tests (mpif90 needs it)
  gfortran
  # optional: the zfp codec of compressed all-to-alls (meson -Dzfp=auto
  # builds it where libzfp is found, docs/compression.md)
  libzfp-dev
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
# Debian ranks Open MPI above MPICH for the plain names (mpicc, mpiexec,
# <mpi.h>): installing it would make it the machine's default MPI, and so
# the MPI of -Dmpi=auto and of every script that calls mpiexec.  MPICH stays
# the default where this run installed Open MPI; a choice made otherwise is
# left alone.
if [[ " ${missing[*]} " == *" openmpi-bin "* || " ${missing[*]} " == *" libopenmpi-dev "* ]]; then
  ma=$(gcc -print-multiarch)
  for alt in mpi:/usr/bin/mpicc.mpich mpirun:/usr/bin/mpirun.mpich "mpi-$ma:/usr/include/$ma/mpich"; do
    $SUDO update-alternatives --set "${alt%%:*}" "${alt#*:}" >/dev/null 2>&1 ||
      echo "install-deps: could not make MPICH the default for ${alt%%:*}"
  done
fi
echo "install-deps: done"
