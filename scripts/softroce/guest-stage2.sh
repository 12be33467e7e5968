#!/bin/sh
# guest-stage2.sh - process 1 of the Soft-RoCE guest, inside the chroot of
# the host's userland (see run-in-guest.sh).  Sets up rxe0 over a veth pair
# (and rxe1 on its other end, routed so the two talk over the veth),
# runs /nbo-results/cmd.sh within $1 seconds, writes its exit status to
# /nbo-results/status, and always powers the guest off.
limit=${1:-570}
. "$(dirname "$0")/port-active.sh"

poweroff_now() {
    sync
    umount /nbo-results 2>/dev/null
    echo o > /proc/sysrq-trigger
    sleep 30 # process 1 must not exit before the power goes
}

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/shm /dev/pts
mount -t tmpfs -o size=512m tmpfs /dev/shm
mount -t devpts devpts /dev/pts
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root
hostname "$(cat /etc/hostname 2>/dev/null || echo nbo-guest)"

ip link set lo up
ip link add nbo0 type veth peer name nbo1 &&
    ip addr add 10.77.0.1/24 dev nbo0 && ip addr add 10.77.0.2/24 dev nbo1 &&
    ip link set nbo0 up && ip link set nbo1 up &&
    rdma link add rxe0 type rxe netdev nbo0 ||
    echo "softroce: rxe0 setup failed"
# A second device, rxe1 on nbo1, for tests that need a link between two
# devices that can be cut (`ip link set nbo1 down`).  rxe in this kernel
# (6.1) works in the initial network namespace only, where 10.77.0.1 and
# .2 are both local addresses and would be delivered over lo (which no rxe
# device listens on).  So: traffic this host sends from one address to the
# other is routed out of the veth (rules before the local table, static
# neighbours), and the receiving end accepts a local source address.  The
# devices' IPv4 GIDs (::ffff:10.77.0.x) then talk over the veth pair; their
# other GIDs, and rxe0 talking to itself, are unchanged.
if [ -e /sys/class/infiniband/rxe0 ]; then
    for k in all nbo0 nbo1; do
        sysctl -qw net.ipv4.conf.$k.accept_local=1 net.ipv4.conf.$k.rp_filter=0
    done
    ip route add 10.77.0.2/32 dev nbo0 src 10.77.0.1 table 101 &&
        ip route add 10.77.0.1/32 dev nbo1 src 10.77.0.2 table 102 &&
        ip rule add pref 100 iif lo from 10.77.0.1 to 10.77.0.2 lookup 101 &&
        ip rule add pref 101 iif lo from 10.77.0.2 to 10.77.0.1 lookup 102 &&
        ip rule add pref 1000 lookup local && ip rule del pref 0 lookup local &&
        ip neigh replace 10.77.0.2 lladdr "$(cat /sys/class/net/nbo1/address)" dev nbo0 nud permanent &&
        ip neigh replace 10.77.0.1 lladdr "$(cat /sys/class/net/nbo0/address)" dev nbo1 nud permanent &&
        rdma link add rxe1 type rxe netdev nbo1 ||
        echo "softroce: rxe1 setup failed"
fi
# A port turns ACTIVE once the veth carrier is up.
for dev in rxe0 rxe1; do
    [ -e /sys/class/infiniband/$dev ] || continue
    wait_port_active $dev
    echo "softroce: $dev port $(cat /sys/class/infiniband/$dev/ports/1/state 2>/dev/null)"
done

timeout -k 5 "$limit" /bin/bash /nbo-results/cmd.sh
rc=$?
echo "$rc" > /nbo-results/status
echo "NBO-GUEST-EXIT=$rc"
poweroff_now
