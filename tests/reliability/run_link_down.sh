#!/usr/bin/env bash
# run_link_down.sh PROGRAM: a host's link goes down in the middle of an
# all-to-all on the emulated cluster (2 hosts, 200 Mbit/s).
#
# Rank 0 (host nbh1) marks when its 32 MiB-per-peer operation is in flight;
# then host nbh2's link is set down.  TCP reports nothing for minutes, so
# NBO_TIMEOUT (set by the test) must end rank 0's nbo_wait with an error,
# and nbo_comm_free must still release the communicator.  Rank 1, cut off
# with its launcher, may be ended by hydra instead of reporting; it must not
# report success.  Needs root (77 otherwise).
set -u
prog=$1
here=$(cd "$(dirname "$0")" && pwd)
cluster=$here/../../scripts/emu-cluster/nbo-cluster.sh
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root for network namespaces"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# The cluster tears itself down when the job ends (-t bounds the job).
"$cluster" run -N 2 -r 200mbit -t 20 -- "$prog" "$dir" link >"$dir/run.log" 2>&1 &
runner=$!
for _ in $(seq 1 600); do   # up to 60 s for the cluster and the start
  [ -e "$dir/started" ] && break
  kill -0 $runner 2>/dev/null || break
  sleep 0.1
done
if [ ! -e "$dir/started" ]; then
  wait $runner; rc=$?
  [ $rc -eq 77 ] && { echo "SKIP: no network namespaces here"; exit 77; }
  echo "FAIL: the operation never started"; tail -20 "$dir/run.log"; exit 1
fi
sleep 0.2
ip link set vnbh2 down
echo "link of nbh2 down at $(date +%T.%N)"
for _ in $(seq 1 400); do   # NBO_TIMEOUT plus margin
  [ -s "$dir/rank-0.txt" ] && break
  sleep 0.1
done
# The other rank reports too (an error, or a FAIL below), shortly after.
for _ in $(seq 1 100); do
  [ -s "$dir/rank-1.txt" ] && break
  sleep 0.1
done
# hydra cannot reach the cut-off host and would hold the job until -t:
# the verdicts are in, so end it (the cluster tears itself down on TERM).
kill -TERM $runner 2>/dev/null
wait $runner
cat "$dir"/rank-*.txt 2>/dev/null
grep -q '^PASS' "$dir/rank-0.txt" 2>/dev/null || { echo "FAIL: rank 0 reported no error in time"; tail -20 "$dir/run.log"; exit 1; }
if grep -q '^FAIL' "$dir"/rank-*.txt 2>/dev/null; then echo "FAIL: a rank completed without an error"; exit 1; fi
if ip netns list | grep -q '^nbh'; then echo "FAIL: the cluster was not torn down"; exit 1; fi
echo "link down: rank 0 got an error within NBO_TIMEOUT and released the communicator; no hang"
