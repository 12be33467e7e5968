#!/usr/bin/env bash
# run_peer_killed.sh PROGRAM P MODE [cluster]: run the peer-killed test and
# judge it.  With "cluster", on the emulated cluster (scripts/emu-cluster): P
# hosts, one rank per host, UCX over tcp between network namespaces
# (needs root, 77 otherwise); without it, P ranks on this host.
#
# The last rank kills itself mid-operation.  MODE says what must follow:
#   error    every survivor's nbo_wait returns an error within NBO_TIMEOUT,
#            it frees the communicator and writes a PASS verdict file;
#   no-hang  the MPI engine: MPICH (ch4:ucx) terminates a process whose
#            MPI calls touch a dead peer, whatever the error handler, so
#            libnbo cannot always return an error there.  What must hold:
#            no survivor hangs; each one either reports an error (PASS
#            file) or is gone, within the deadline.
# Each rank writes its pid to DIR/pid-N, so a survivor that neither reported
# nor went away is seen while it still runs, before the launcher's own
# teardown (which kills everything) could hide it.
# mpiexec itself exits non-zero as soon as the rank dies: that is expected.
set -u
prog=$1 np=$2 mode=$3 where=${4:-local}
# The survivors must outlive the victim: hydra's -disable-auto-cleanup,
# which Open MPI's mpirun does not have (it ends the job when a rank dies).
if mpiexec --version 2>&1 | grep -q 'OpenRTE\|Open MPI'; then
  echo "SKIP: written for MPICH's hydra (-disable-auto-cleanup); mpiexec here is Open MPI's"
  exit 77
fi
dir=$(mktemp -d)
# At the end: kill the ranks (command lines that start with "$prog $dir",
# not the launcher's, which only contain it), then let the launcher and the
# cluster's teardown finish (bounded).
job=
cleanup() {
  pkill -KILL -f "^$prog $dir" 2>/dev/null
  for _ in $(seq 1 300); do
    [ -n "$job" ] && kill -0 "$job" 2>/dev/null || break
    sleep 0.1
  done
  rm -rf "$dir"
}
trap cleanup EXIT
if [ "$where" = cluster ]; then
  [ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for network namespaces"; exit 77; }
  here=$(cd "$(dirname "$0")" && pwd)
  # The cluster is torn down (every process in its namespaces killed) when
  # the job ends; the victim's parent keeps the job until the reports are in.
  "$here/../../scripts/emu-cluster/nbo-cluster.sh" run -N "$np" -t 120 -- \
    -disable-auto-cleanup "$prog" "$dir" >"$dir/mpiexec.log" 2>&1 &
else
  timeout 120 mpiexec -disable-auto-cleanup -n "$np" "$prog" "$dir" >"$dir/mpiexec.log" 2>&1 &
fi
job=$!

reported() { [ -e "$dir/rank-$1.txt" ]; }
# Alive and not a zombie (a rank MPICH or UCX ended, not yet reaped by the
# launcher's proxy, still answers kill -0).
running() {
  local p st
  p=$(cat "$dir/pid-$1" 2>/dev/null) && kill -0 "$p" 2>/dev/null || return 1
  st=$(ps -o stat= -p "$p" 2>/dev/null | tr -d " ")
  [ -n "$st" ] && [ "${st#Z}" = "$st" ]
}
# Survivors (ranks 0 .. P-2) that have not reported and still run.
unsettled() {
  local r n=0
  for r in $(seq 0 $((np - 2))); do
    reported "$r" || ! running "$r" || n=$((n + 1))
  done
  echo $n
}
# Up to 60 s (NBO_TIMEOUT is a few seconds) for every survivor to report or,
# in no-hang mode, to be gone; a survivor that started late has no pid file
# yet, so nothing is judged in the first seconds.
t0=$SECONDS
while [ $((SECONDS - t0)) -lt 60 ]; do
  [ -e "$dir/skip" ] && { echo "SKIP: engine ${NBO_ENGINE:-auto} not usable here"; exit 77; }
  if ! kill -0 $job 2>/dev/null; then
    wait $job; rc=$?
    [ "$where" = cluster ] && [ $rc -eq 77 ] && { echo "SKIP: no network namespaces here"; exit 77; }
    [ "$(ls "$dir"/pid-* 2>/dev/null | wc -l)" -gt 0 ] || { echo "FAIL: the job ended before any rank started"; tail -20 "$dir/mpiexec.log"; exit 1; }
    break
  fi
  if [ $((SECONDS - t0)) -ge 5 ] && [ "$(ls "$dir"/pid-* 2>/dev/null | wc -l)" -ge $((np - 1)) ]; then
    [ "$(ls "$dir"/rank-*.txt 2>/dev/null | wc -l)" -ge $((np - 1)) ] && break
    [ "$mode" = no-hang ] && [ "$(unsettled)" -eq 0 ] && break
  fi
  sleep 0.5
done
hung=$(unsettled)
cat "$dir"/rank-*.txt 2>/dev/null
if [ "$hung" -gt 0 ]; then
  echo "FAIL: $hung survivor(s) still running without a report after $((SECONDS - t0)) s (hang)"
  tail -n 20 "$dir"/log-*.txt 2>/dev/null
  # Where they hang, for whoever reads the log.
  for r in $(seq 0 $((np - 2))); do
    if ! reported "$r" && running "$r" && command -v gdb >/dev/null; then
      echo "--- rank $r (pid $(cat "$dir/pid-$r")), stacks:"
      timeout 30 gdb -p "$(cat "$dir/pid-$r")" -batch -ex "thread apply all bt 25" 2>/dev/null | grep -E '^(#|Thread)'
    fi
  done
  exit 1
fi
pass=$(cat "$dir"/rank-*.txt 2>/dev/null | grep -c '^PASS')
fail=$(cat "$dir"/rank-*.txt 2>/dev/null | grep -c '^FAIL')
if [ "$mode" = error ]; then
  if [ "$pass" -ne $((np - 1)) ]; then
    echo "FAIL: $pass of $((np - 1)) survivors reported an error within the deadline"
    tail -5 "$dir/mpiexec.log"; tail -n 20 "$dir"/log-*.txt; exit 1
  fi
  echo "all $pass survivors got an error and released the communicator"
else
  [ "$fail" -eq 0 ] || { echo "FAIL: a survivor completed without an error"; exit 1; }
  echo "no hang: $pass survivors reported an error, the others were terminated by MPICH"
fi
