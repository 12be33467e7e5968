#!/bin/sh
# guest-stage2.sh - process 1 of the Soft-RoCE guest, inside the chroot of
# the host's userland (see run-in-guest.sh).  Sets up rxe0 over a veth pair,
# runs /nbo-results/cmd.sh within $1 seconds, writes its exit status to
# /nbo-results/status, and always powers the guest off.
limit=${1:-570}

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
# The port turns ACTIVE once the veth carrier is up.
i=0
while [ $i -lt 50 ] && ! grep -q ACTIVE /sys/class/infiniband/rxe0/ports/1/state 2>/dev/null; do
    sleep 0.2
    i=$((i + 1))
done
echo "softroce: rxe0 port $(cat /sys/class/infiniband/rxe0/ports/1/state 2>/dev/null)"

timeout -k 5 "$limit" /bin/bash /nbo-results/cmd.sh
rc=$?
echo "$rc" > /nbo-results/status
echo "NBO-GUEST-EXIT=$rc"
poweroff_now
