#!/usr/bin/env bash
# testbed-test.sh - the emulated cluster is the testbed it says it is.
#
# Checks what nbo-cluster.sh promises about each host, not just that jobs
# run: the TCP congestion control it sets (cubic by default, -C otherwise;
# the machine's own default may differ, e.g. bbr), the tbf shaper on eth0,
# that `down` puts the machine's allowed list back, that an unknown
# algorithm is refused before anything is built, and that the shared
# switch (-S) shapes its ports: two senders into one receiver together get
# at most the port's rate, and its queue drops.
# Exit: 0 passed, 1 a check failed, 77 (SKIP) not root / no netns.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CLUSTER="$HERE/../../scripts/emu-cluster/nbo-cluster.sh"
ALLOWED=/proc/sys/net/ipv4/tcp_allowed_congestion_control

[ "$(id -u)" -eq 0 ] || { echo "SKIP: the emulated cluster needs root" >&2; exit 77; }
. "$(dirname "$CLUSTER")/cluster-lock.sh"
cluster_take testbed-test
export NBO_CLUSTER_QUIET=1
unset NBO_CLUSTER_CC NBO_CLUSTER_SWITCH

failures=0
check() { # check WHAT EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then echo "ok: $1 ($3)"; else echo "FAIL: $1: expected '$2', got '$3'"; failures=$((failures + 1)); fi
}
host_cc() { ip netns exec "nbh$1" cat /proc/sys/net/ipv4/tcp_congestion_control; }

allowed_before=$(cat "$ALLOWED")
echo "machine default: $(cat /proc/sys/net/ipv4/tcp_congestion_control); allowed: $allowed_before"

"$CLUSTER" up -N 2 -r 200mbit
check "host 1 congestion control (default)" cubic "$(host_cc 1)"
check "host 2 congestion control (default)" cubic "$(host_cc 2)"
check "host 2 shaper" "tbf 200Mbit" \
    "$(ip netns exec nbh2 tc qdisc show dev eth0 | awk '{print $2, $8}')"
"$CLUSTER" down
check "allowed list after down" "$allowed_before" "$(cat "$ALLOWED")"

"$CLUSTER" up -N 2 -C reno
check "host 1 congestion control (-C reno)" reno "$(host_cc 1)"
"$CLUSTER" down

rc=0
out=$("$CLUSTER" up -N 2 -C no_such_cc 2>&1) || rc=$?
check "unknown algorithm: exit status" 1 "$rc"
case "$out" in *"'no_such_cc' not available"*) m=said ;; *) m="$out" ;; esac
check "unknown algorithm: message" said "$m"
check "unknown algorithm: no host built" 0 "$(ip netns list | grep -c '^nbh' || true)"

# Incast through the switch: two hosts at 200mbit each into host 1, whose
# port sends 100mbit from 128 KB.  Without the switch they would get
# about 380 Mbit/s together (measured); through it at most 100 (5 % for the first
# bucket and timing), and the port drops what its queue cannot hold.
"$CLUSTER" up -N 3 -r 200mbit -S 100mbit:128kb
check "switch port toward host 1" "tbf 100Mbit" "$(tc qdisc show dev vnbh1 | awk '{print $2, $8}')"
ip netns exec nbh1 python3 "$HERE/incast.py" recv 192.0.2.11 2 >"${TMPDIR:-/tmp}/incast.$$" &
recv=$!
ip netns exec nbh2 python3 "$HERE/incast.py" send 192.0.2.11 2 &
ip netns exec nbh3 python3 "$HERE/incast.py" send 192.0.2.11 2
wait
bps=$(cat "${TMPDIR:-/tmp}/incast.$$"); rm -f "${TMPDIR:-/tmp}/incast.$$"
echo "incast: 2 senders into one 100mbit port: ${bps:-?} bit/s"
check "incast goodput within the port rate" yes "$([ "${bps:-999999999}" -le 105000000 ] && echo yes || echo "no: $bps")"
drops=$(tc -s qdisc show dev vnbh1 | sed -n 's/.*(dropped \([0-9]*\),.*/\1/p')
check "incast drops at the switch port" yes "$([ "${drops:-0}" -gt 0 ] && echo yes || echo "no: ${drops:-none}")"
"$CLUSTER" down

[ $failures -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "testbed: all checks passed"
