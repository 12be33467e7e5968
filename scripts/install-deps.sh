#!/usr/bin/env bash
# Install the Debian 12 packages of one or more sets (default: all).
#   scripts/install-deps.sh [lib] [test] [cluster] [guest] [all]
#     lib      build the library, its engines, p3dfft_overlap, the Fortran
#              modules, the man pages and the HTML reference (doxygen)
#     test     lib + what the test suites need (CMocka, Open MPI beside
#              MPICH, valgrind, clang for TSan, groff, man and pandoc)
#     cluster  lib + the emulated cluster (network namespaces, tc) and plots
#     guest    lib + the Soft-RoCE guest (QEMU, a kernel image, busybox)
#     all      every set: what scripts/test-all.sh runs
# Idempotent: packages already present are left alone.  Needs root (or
# sudo); without root, docs/running.md builds libnbo into a home prefix.
set -euo pipefail

lib=(
  build-essential pkg-config meson ninja-build
  # MPICH, the default MPI; the engines' libraries
  mpich libmpich-dev
  libucx-dev ucx-utils libibverbs-dev rdma-core ibverbs-providers
  libfabric-dev libfabric-bin
  # p3dfft_overlap
  libfftw3-dev
  # the Fortran modules nbo and p3o (mpif90 needs gfortran)
  gfortran
  # optional: the zfp codec of compressed all-to-alls (meson -Dzfp=auto
  # builds it where libzfp is found, docs/compression.md)
  libzfp-dev
  # the man pages and the HTML API reference from the headers (docs/meson.build);
  # help2man: nbo_info(1) from its --help
  doxygen help2man
)
test=(
  libcmocka-dev valgrind clang libclang-rt-14-dev
  # the Open MPI stage of scripts/test-all.sh
  openmpi-bin libopenmpi-dev
  # man pages: groff renders them in tests/install, man finds them; pandoc
  # writes libnbo-mpi(7) from docs/pmpi.md (optional where building alone)
  man-db groff-base pandoc
  # ps and pgrep: the fault tests and the tutorial's commands
  procps
)
cluster=(iproute2 gnuplot-nox)
guest=(qemu-system-x86 linux-image-amd64 busybox-static kmod cpio ibverbs-utils)

sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=(all)
pkgs=("${lib[@]}")
for s in "${sets[@]}"; do
  case $s in
    lib) ;;
    test) pkgs+=("${test[@]}") ;;
    cluster) pkgs+=("${cluster[@]}") ;;
    guest) pkgs+=("${guest[@]}") ;;
    all) pkgs+=("${test[@]}" "${cluster[@]}" "${guest[@]}") ;;
    *) echo "install-deps: unknown set '$s' (lib, test, cluster, guest, all)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#pkgs[@]} packages present (${sets[*]})"
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
