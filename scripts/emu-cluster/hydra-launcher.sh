#!/usr/bin/env bash
# hydra-launcher.sh - stands in for ssh when MPICH's hydra starts its proxies
# on the emulated hosts: mpiexec -launcher ssh -launcher-exec THIS ...; and
# when Open MPI's mpirun starts its orteds: mpirun --mca plm_rsh_agent THIS
# (same calling convention; no --control-port to rewrite there).
#
# Hydra calls: THIS [ssh options] HOST COMMAND...  The command is written for
# a remote shell (the proxy path comes quoted), so it is run with sh -c, as
# sshd would, inside the host's network namespace.  Hydra names its control
# port with the machine's hostname, which inside a namespace resolves to that
# namespace's own loopback: rewrite it to the launching host's address.
set -euo pipefail

while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do
    shift # ssh options (-x, ...)
done
[ $# -ge 2 ] || { echo "hydra-launcher: usage: $0 [opts] HOST COMMAND..." >&2; exit 2; }
host=$1
shift

addr=${NBO_CLUSTER_CONTROL_ADDR:-192.0.2.11}
args=()
while [ $# -gt 0 ]; do
    if [ "$1" = "--control-port" ] && [ $# -ge 2 ]; then
        args+=("--control-port" "$addr:${2##*:}")
        shift 2
    else
        args+=("$1")
        shift
    fi
done
exec ip netns exec "$host" sh -c "${args[*]}"
