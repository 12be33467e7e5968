#!/usr/bin/env bash
# nbo-cluster.sh - an emulated cluster of N hosts on one machine (network
# namespaces: a test and benchmark emulator, not a tool for real clusters).
#
# Each host is a network namespace nbhI (address 192.0.2.(10+I)/24, device
# eth0) with a veth leg on the bridge nbbr0; tc tbf shapes each host's
# egress to a link rate.  mpiexec (MPICH hydra) runs inside nbh1 and starts
# the ranks in the namespaces through hydra-launcher.sh.  Why each step:
# README.md in this folder.
#
#   nbo-cluster.sh up   [-N hosts] [-r rate] [-S rate[:buffer]]
#                                                   build it (stays up)
#   nbo-cluster.sh down                             remove all of it
#   nbo-cluster.sh exec [-N hosts] [-k K] -- CMD... mpiexec on a cluster that is up
#   nbo-cluster.sh run  [-N hosts] [-k K] [-r rate] [-S rate[:buffer]] -- CMD...
#                                                   up + exec + down, always down
#   nbo-cluster.sh status
#
# -N hosts (default 2), -k ranks per host (default 1), -r tbf rate (default
# 200mbit; 1gbit is the second standard point), -B tbf burst (default 72kb,
# or NBO_CLUSTER_BURST), -G the veths' GSO size in bytes (default 65536, or
# NBO_CLUSTER_GSO; see below), -C the hosts' TCP congestion control
# (default cubic, or NBO_CLUSTER_CC; see below), -S RATE[:BUFFER] a
# shared switch (or NBO_CLUSTER_SWITCH; default none): each of its output
# ports toward a host sends at RATE from a BUFFER of bytes (default 256kb),
# so that incast at one receiver queues and drops there, -t seconds: timeout of the
# mpiexec (default 600), -d PATTERN -g SECONDS: a job whose output showed
# PATTERN is ended after SECONDS more and counted as finished (UCX tcp can
# hang in MPI_Finalize, openucx/ucx#8738).  Every NBO_* variable set in the caller's
# environment is passed to the ranks, as are UCX_* and MPIR_CVAR_* ones.
#
# Needs root, ip and tc; exits 77 (the test harness' SKIP) when it cannot
# build namespaces here.  One cluster at a time: a lock serialises users.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BRIDGE=nbbr0
PREFIX=nbh
NET=192.0.2
HOST_BASE=10        # host I has address 192.0.2.(10+I)
HOSTS_TAG="# nbo-cluster"
LOCK=/run/lock/nbo-cluster.lock
MAX_HOSTS=16

hosts=2
per_host=1
rate=200mbit
# The token bucket banks up to `burst` bytes while the link is idle and then
# sends them at the veth's speed, an overlap no real wire gives: a blocking
# all-to-all after a compute phase gets its first packet free
# (docs/benchmarks.md, "Known problems of the testbed").  The bucket must
# hold one whole packet, else tbf segments every packet in software (the
# kernel's work for the link rose from 6 to 88 % of the two cores, iperf3
# --bidir at 1gbit).  A packet here is one TCP GSO packet, 64 KiB by
# default, so 72kb is the smallest bucket.  -G 32768 -B 36kb halves the free
# bytes (the veths' GSO size capped at 32 KiB) at the price of twice the
# packets, i.e. more kernel CPU: the testbed of the FFT benchmark
# (bench/fft/table2.sh), whose blocking baseline idles the link between
# exchanges; the overlap benchmark keeps the default, whose kernel CPU is
# that of a plain 1 Gbit/s link.
burst=${NBO_CLUSTER_BURST:-72kb}
gso=${NBO_CLUSTER_GSO:-65536}
# The hosts' TCP congestion control, set per namespace so that the testbed
# does not inherit whatever this machine's image chose.  Linux's default,
# cubic, is what a cluster node runs.  This VM image defaults to bbr, whose
# window follows the path's minimum RTT (veth: 60 us); in a two-way
# exchange each host's ACKs queue behind its own data in the tbf queue, and
# bbr's sender then stalls for 10-90 ms waiting for them (seen with tcpdump;
# docs/benchmarks.md, "Known problems of the testbed").
cc=${NBO_CLUSTER_CC:-cubic}
# A namespace may only choose an algorithm on the machine's allowed list;
# what it was before `up` is kept here and put back by `down`.
CC_SAVED=/run/nbo-cluster.allowed-cc
# The switch: empty, the bridge forwards at once and each host's own link
# is the only queue (it never sees incast: a sender's queue is its own).
switch=${NBO_CLUSTER_SWITCH:-}
timeout_s=600
mpiexec_pid=
done_pattern=""
grace_s=15

die()  { echo "nbo-cluster: $*" >&2; exit 1; }
skip() { echo "nbo-cluster: SKIP: $*" >&2; exit 77; }
# Never fails: teardown must go on when stderr is a closed pipe.
log()  { [ -n "${NBO_CLUSTER_QUIET:-}" ] || echo "nbo-cluster: $*" >&2 2>/dev/null || true; }

host_name() { echo "${PREFIX}$1"; }
host_addr() { echo "${NET}.$((HOST_BASE + $1))"; }

# ------------------------------------------------------------ preconditions

check_tools() {
    [ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces, tc)"
    local t
    for t in ip tc mpiexec flock timeout; do
        command -v "$t" >/dev/null 2>&1 ||
            skip "'$t' not found (scripts/install-deps.sh installs iproute2, mpich)"
    done
    # Can this kernel/sandbox make a namespace at all?
    local probe="nbprobe$$"
    if ! ip netns add "$probe" 2>/dev/null; then
        skip "network namespaces unavailable here ('ip netns add' failed)"
    fi
    ip netns del "$probe" 2>/dev/null || true
}

# The lock is taken once per process tree: a driver that holds it exports
# NBO_CLUSTER_LOCKED so the commands it runs do not wait on themselves.
take_lock() {
    [ -n "${NBO_CLUSTER_LOCKED:-}" ] && return 0
    mkdir -p "$(dirname "$LOCK")"
    exec 9>"$LOCK"
    flock -w 900 9 || die "another emulated cluster is in use ($LOCK)"
    export NBO_CLUSTER_LOCKED=$$
}

# ------------------------------------------------------------------ up/down

hosts_file_remove() {
    # Rewrite in place (not sed -i): /etc/hosts may be a bind mount.
    grep -q "$HOSTS_TAG\$" /etc/hosts 2>/dev/null || return 0
    local tmp
    tmp=$(mktemp)
    grep -v "$HOSTS_TAG\$" /etc/hosts >"$tmp" || true
    cat "$tmp" >/etc/hosts
    rm -f "$tmp"
}

cluster_down() {
    local ns
    trap '' PIPE
    if [ -n "${mpiexec_pid:-}" ]; then
        kill -TERM "$mpiexec_pid" 2>/dev/null || true
        sleep 0.5
        kill -KILL "$mpiexec_pid" 2>/dev/null || true
    fi
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^${PREFIX}[0-9]+\$" || true); do
        # Processes left in a namespace (a killed rank) would keep it alive.
        local pids
        pids=$(ip netns pids "$ns" 2>/dev/null || true)
        [ -z "$pids" ] || kill -9 $pids 2>/dev/null || true
        ip netns del "$ns" 2>/dev/null || true
    done
    local i
    for i in $(seq 1 $MAX_HOSTS); do
        ip link del "v$(host_name "$i")" 2>/dev/null || true
    done
    ip link del "$BRIDGE" 2>/dev/null || true
    hosts_file_remove
    cc_allow_restore
}

# Let the namespaces choose $cc: load it if it is a module, and add it to
# the machine's allowed list (a namespace other than the first may only
# pick an algorithm on that list).
cc_allow() {
    local avail=/proc/sys/net/ipv4/tcp_available_congestion_control
    local allowed=/proc/sys/net/ipv4/tcp_allowed_congestion_control
    if ! grep -qw -- "$cc" "$avail" 2>/dev/null; then
        modprobe "tcp_$cc" 2>/dev/null || true
        grep -qw -- "$cc" "$avail" 2>/dev/null ||
            die "TCP congestion control '$cc' not available here ($(cat "$avail" 2>/dev/null))"
    fi
    grep -qw -- "$cc" "$allowed" && return 0
    [ -e "$CC_SAVED" ] || cat "$allowed" >"$CC_SAVED"
    echo "$(cat "$allowed") $cc" >"$allowed" || die "cannot allow TCP congestion control '$cc'"
}

cc_allow_restore() {
    [ -e "$CC_SAVED" ] || return 0
    cat "$CC_SAVED" >/proc/sys/net/ipv4/tcp_allowed_congestion_control 2>/dev/null || true
    rm -f "$CC_SAVED"
}

# The switch's output port toward one host: the bridge-side leg of its
# veth sends from a byte-limited queue at the port rate (an output-queued
# switch); a packet that finds the queue full is dropped, as on a real port.
switch_port_add() {
    local port=$1 sw_rate=${switch%%:*} sw_buf=256kb
    case "$switch" in *:*) sw_buf=${switch#*:} ;; esac
    tc qdisc add dev "$port" root tbf rate "$sw_rate" burst "$burst" limit "$sw_buf" ||
        die "cannot shape switch port $port (-S '$switch': RATE[:BUFFER], e.g. 1gbit:256kb)"
}

cluster_up() {
    [ "$hosts" -ge 1 ] && [ "$hosts" -le $MAX_HOSTS ] || die "-N must be 1..$MAX_HOSTS"
    cluster_down
    cc_allow
    ip link add "$BRIDGE" type bridge
    ip link set "$BRIDGE" up
    local i ns
    for i in $(seq 1 "$hosts"); do
        ns=$(host_name "$i")
        ip netns add "$ns"
        ip netns exec "$ns" sysctl -q -w net.ipv4.tcp_congestion_control="$cc" >/dev/null ||
            die "cannot set TCP congestion control '$cc' in $ns"
        ip link add "v$ns" type veth peer name eth0 netns "$ns"
        ip link set "v$ns" master "$BRIDGE" up
        ip -n "$ns" addr add "$(host_addr "$i")/24" dev eth0
        # Packets no larger than the bucket (see burst above): TCP builds its
        # GSO packets for the sending device, eth0.
        ip -n "$ns" link set eth0 gso_max_size "$gso" ||
            die "cannot set gso_max_size $gso on $ns's eth0"
        ip link set "v$ns" gso_max_size "$gso" || true
        [ -z "$switch" ] || switch_port_add "v$ns"
        ip -n "$ns" link set eth0 up
        ip -n "$ns" link set lo up
        # Egress shaping of the host's link; 50 ms of queue at most.
        ip netns exec "$ns" tc qdisc add dev eth0 root tbf rate "$rate" burst "$burst" latency 50ms
        echo "$(host_addr "$i") $ns $HOSTS_TAG" >>/etc/hosts
    done
    # Wait until the bridge forwards (the veths need a moment to come up);
    # ping is not always installed, so the check is best effort.
    local tries=0
    if [ "$hosts" -ge 2 ] && command -v ping >/dev/null 2>&1; then
        until ip netns exec "$(host_name 1)" ping -c1 -W1 "$(host_addr 2)" >/dev/null 2>&1; do
            tries=$((tries + 1))
            [ $tries -lt 20 ] || die "hosts cannot reach each other over $BRIDGE"
            sleep 0.2
        done
    else
        sleep 0.3
    fi
    log "up: $hosts hosts $(host_name 1)..$(host_name "$hosts") ($(host_addr 1)..$(host_addr "$hosts")), tbf $rate burst $burst, GSO $gso, TCP $cc${switch:+, switch ports $switch}"
}

hosts_up() {
    ip netns list 2>/dev/null | awk '{print $1}' | grep -cE "^${PREFIX}[0-9]+\$" || true
}

# --------------------------------------------------------------------- exec

cluster_exec() {
    [ $# -ge 1 ] || die "exec: no command given"
    local up
    up=$(hosts_up)
    [ "$up" -ge "$hosts" ] || die "exec: $hosts hosts wanted, $up up (run 'up -N $hosts' first)"
    local list="" i
    for i in $(seq 1 "$hosts"); do list="$list${list:+,}$(host_name "$i")"; done

    # The network path for MPICH (ch4:ucx) and for libnbo's own UCX context.
    export UCX_TLS=${UCX_TLS_CLUSTER:-tcp,self}
    export UCX_NET_DEVICES=eth0
    # libfabric's tcp and sockets providers (the ofi engine) on the same link.
    export FI_TCP_IFACE=eth0 FI_SOCKETS_IFACE=eth0
    # hydra-launcher.sh rewrites the control port to the first host.
    export NBO_CLUSTER_CONTROL_ADDR
    NBO_CLUSTER_CONTROL_ADDR=$(host_addr 1)
    # Variables the ranks need, by name (hydra also forwards the rest).
    local names="UCX_TLS,UCX_NET_DEVICES,FI_TCP_IFACE,FI_SOCKETS_IFACE"
    local v
    for v in $(env | sed -n 's/^\(\(NBO\|UCX\|MPIR_CVAR\|OMP\)_[A-Za-z0-9_]*\)=.*/\1/p' | sort -u); do
        case ",$names," in *",$v,"*) ;; *) names="$names,$v" ;; esac
    done
    local rc=0
    # In the background and waited for, so that a signal to this script runs
    # its trap at once instead of after mpiexec returns.
    local out
    out=$(mktemp)
    if mpiexec --version 2>&1 | grep -q 'OpenRTE\|Open MPI'; then
        # Open MPI: its rsh launcher starts an orted per host through the
        # same stand-in for ssh; no tree spawn (each orted would need it
        # too); its own traffic (out-of-band and TCP BTL) on the emulated
        # links only; root and oversubscription allowed as in the tests.
        # Each variable goes to the ranks with -x.
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
        local xs=() hl="" n
        for n in ${names//,/ }; do xs+=(-x "$n"); done
        for i in $(seq 1 "$hosts"); do hl="$hl${hl:+,}$(host_name "$i"):$per_host"; done
        log "exec: mpiexec (Open MPI) -n $((hosts * per_host)) --npernode $per_host on $list: $*"
        timeout -k 10 "$timeout_s" ip netns exec "$(host_name 1)" \
            mpiexec --host "$hl" -n $((hosts * per_host)) --npernode "$per_host" \
            --mca plm_rsh_agent "$HERE/hydra-launcher.sh" --mca plm_rsh_no_tree_spawn 1 \
            --mca oob_tcp_if_include eth0 --mca btl_tcp_if_include eth0 \
            "${xs[@]}" "$@" > >(tee "$out") <&0 &
    else
        log "exec: mpiexec -n $((hosts * per_host)) -ppn $per_host on $list: $*"
        timeout -k 10 "$timeout_s" ip netns exec "$(host_name 1)" \
            mpiexec -launcher ssh -launcher-exec "$HERE/hydra-launcher.sh" \
            -hosts "$list" -n $((hosts * per_host)) -ppn "$per_host" \
            -genvlist "$names" "$@" > >(tee "$out") <&0 &
    fi
    mpiexec_pid=$!
    # UCX's TCP transport can hang in MPI_Finalize after the job is done
    # (openucx/ucx#8738; seen here with plain MPICH programs at P >= 3).
    # With -d PATTERN, a job whose output showed PATTERN (its own "all done"
    # line) gets -g seconds to exit, then is ended and counted as finished.
    local seen="" hung=""
    if [ -n "$done_pattern" ]; then
        while kill -0 "$mpiexec_pid" 2>/dev/null; do
            if [ -z "$seen" ] && grep -q -- "$done_pattern" "$out" 2>/dev/null; then
                seen=$SECONDS
            fi
            if [ -n "$seen" ] && [ $((SECONDS - seen)) -ge "$grace_s" ]; then
                hung=1
                kill -TERM "$mpiexec_pid" 2>/dev/null || true
                break
            fi
            sleep 0.5
        done
    fi
    wait $mpiexec_pid || rc=$?
    mpiexec_pid=
    rm -f "$out"
    if [ -n "$hung" ]; then
        echo "nbo-cluster: NOTE: the job printed '$done_pattern' but did not exit within ${grace_s}s" \
             "(MPI_Finalize over UCX tcp, openucx/ucx#8738); ended it, counted as finished" >&2
        rc=0
    fi
    [ $rc -ne 124 ] || echo "nbo-cluster: mpiexec timed out after ${timeout_s}s" >&2
    return $rc
}

# --------------------------------------------------------------------- main

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit "${1:-2}"; }

[ $# -ge 1 ] || usage
cmd=$1
shift
while [ $# -gt 0 ]; do
    case "$1" in
    -N) hosts=$2; shift 2 ;;
    -k) per_host=$2; shift 2 ;;
    -r) rate=$2; shift 2 ;;
    -B) burst=$2; shift 2 ;;
    -G) gso=$2; shift 2 ;;
    -C) cc=$2; shift 2 ;;
    -S) switch=$2; shift 2 ;;
    -t) timeout_s=$2; shift 2 ;;
    -d) done_pattern=$2; shift 2 ;;
    -g) grace_s=$2; shift 2 ;;
    --) shift; break ;;
    -h|--help) usage 0 ;;
    *) break ;;
    esac
done

case "$cmd" in
up)
    check_tools
    take_lock
    cluster_up
    ;;
down)
    [ "$(id -u)" -eq 0 ] || skip "needs root"
    cluster_down
    log "down"
    ;;
exec)
    check_tools
    # A signal ends the job on the cluster too (the cluster stays up).
    trap 'if [ -n "$mpiexec_pid" ]; then kill -TERM "$mpiexec_pid" 2>/dev/null; fi; exit 143' TERM
    trap 'if [ -n "$mpiexec_pid" ]; then kill -TERM "$mpiexec_pid" 2>/dev/null; fi; exit 130' INT
    cluster_exec "$@"
    ;;
run)
    check_tools
    take_lock
    # Tear down whatever happens: normal exit, failure, Ctrl-C, kill.
    trap 'rc=$?; trap - EXIT; set +e; cluster_down; log "down"; exit $rc' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    cluster_up
    cluster_exec "$@"
    ;;
status)
    echo "hosts up: $(hosts_up)"
    ip netns list 2>/dev/null | grep -E "^${PREFIX}[0-9]+" || true
    grep "$HOSTS_TAG\$" /etc/hosts || true
    ;;
*) usage ;;
esac
