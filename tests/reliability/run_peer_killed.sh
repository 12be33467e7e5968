#!/usr/bin/env bash
# run_peer_killed.sh PROGRAM P MODE [cluster]: run the peer-killed test and
# judge it.  With "cluster", on the emulated cluster (scripts/cluster): P
# hosts, one rank per host, UCX over tcp between network namespaces
# (needs root, 77 otherwise); without it, P ranks on this host.
#
# The last rank kills itself mid-operation.  MODE says what must follow:
#   error    every survivor's nbo_wait returns an error within NBO_TIMEOUT,
#            it frees the communicator and writes a PASS verdict file;
#   no-hang  the MPI engine: MPICH (ch4:ucx) terminates a process whose
#            MPI calls touch a dead peer, whatever the error handler, so
#            libnbo cannot return an error there.  What must hold: no
#            survivor hangs; each one either reports an error (PASS file)
#            or is gone, within the deadline.
# mpiexec itself exits non-zero as soon as the rank dies: that is expected.
set -u
prog=$1 np=$2 mode=$3 where=${4:-local}
dir=$(mktemp -d)
cleanup() { pkill -KILL -f "$prog $dir" 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
if [ "$where" = cluster ]; then
  [ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for network namespaces"; exit 77; }
  here=$(cd "$(dirname "$0")" && pwd)
  # The cluster is torn down (every process in its namespaces killed) when
  # the job ends; the victim's parent keeps the job until the reports are in.
  # -t 120: past the victim's own 90 s wait for reports (fault_victim.c),
  # which a survivor ended by MPICH never writes.
  "$here/../../scripts/cluster/nbo-cluster.sh" run -N "$np" -t 120 -- \
    -disable-auto-cleanup "$prog" "$dir" >"$dir/mpiexec.log" 2>&1
  rc=$?
  if [ $rc -eq 77 ]; then echo "SKIP: no network namespaces here"; exit 77; fi
  # The teardown kills whatever still runs, so a job that needed the whole
  # limit had a survivor (or the victim's parent) waiting: a hang.
  if [ $rc -eq 124 ]; then
    cat "$dir"/rank-*.txt 2>/dev/null
    tail -n 20 "$dir"/log-*.txt 2>/dev/null
    echo "FAIL: the job ran into its 120 s limit (a survivor hung)"; exit 1
  fi
else
  timeout 90 mpiexec -disable-auto-cleanup -n "$np" "$prog" "$dir" >"$dir/mpiexec.log" 2>&1
fi
deadline=$((SECONDS + 60))
alive() { pgrep -f "$prog $dir" >/dev/null; }
while [ $SECONDS -lt $deadline ]; do
  [ -e "$dir/skip" ] && { echo "SKIP: engine ${NBO_ENGINE:-auto} not usable here"; exit 77; }
  [ "$(ls "$dir"/rank-*.txt 2>/dev/null | wc -l)" -ge $((np - 1)) ] && break
  [ "$mode" = no-hang ] && ! alive && break
  sleep 0.5
done
sleep 0.5
cat "$dir"/rank-*.txt 2>/dev/null
pass=$(cat "$dir"/rank-*.txt 2>/dev/null | grep -c '^PASS')
fail=$(cat "$dir"/rank-*.txt 2>/dev/null | grep -c '^FAIL')
if [ "$mode" = error ]; then
  if [ "$pass" -ne $((np - 1)) ]; then
    echo "FAIL: $pass of $((np - 1)) survivors reported an error within the deadline"
    tail -5 "$dir/mpiexec.log"; tail -n 20 "$dir"/log-*.txt; exit 1
  fi
  echo "all $pass survivors got an error and released the communicator"
else
  if alive; then echo "FAIL: a survivor still runs after the deadline (hang)"; exit 1; fi
  [ "$fail" -eq 0 ] || { echo "FAIL: a survivor completed without an error"; exit 1; }
  echo "no hang: $pass survivors reported an error, the others were terminated by MPICH"
fi
