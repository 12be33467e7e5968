#!/bin/bash
# run-in-guest.sh - run a command inside a QEMU guest that has a Soft-RoCE
# device (rxe0 over a veth pair), on the host's own userland, and exit with
# the command's status.
#
#   scripts/softroce/run-in-guest.sh [-t SECONDS] [-C DIR] -- command [args...]
#
#   -t  limit for the whole guest run (default 600); the command itself gets
#       this limit minus 30 s inside the guest
#   -C  directory the command runs in (default: the current one)
#
# The guest boots Debian's installed kernel (/boot/vmlinuz-*-amd64) under
# plain emulation (TCG: KVM does not work on these hosts), from a busybox
# initramfs built here on the fly, mounts the host's / read-only over 9p
# with a tmpfs overlay on top, chroots into it and runs guest-stage2.sh as
# process 1.  NBO_*, UCX_* and MPIR_CVAR_* variables are passed through.
# Exit status: the command's; 77 when qemu, busybox or a kernel image is
# missing (SKIP); 124 when the guest ran out of time; 125 when the guest
# never reported.  Soft-RoCE under emulation is for correctness, never timing.
set -u

limit=600
workdir=$PWD
while getopts "t:C:" opt; do
    case $opt in
    t) limit=$OPTARG ;;
    C) workdir=$OPTARG ;;
    *) echo "usage: $0 [-t SECONDS] [-C DIR] -- command..." >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ "${1:-}" = "--" ] && shift
[ $# -gt 0 ] || { echo "usage: $0 [-t SECONDS] [-C DIR] -- command..." >&2; exit 2; }

here=$(cd "$(dirname "$0")" && pwd)
qemu=$(command -v qemu-system-x86_64 || true)
kernel=$(ls /boot/vmlinuz-*-amd64 2>/dev/null | sort -V | tail -n 1)
busybox=$(command -v busybox || true)
# modprobe lives in /usr/sbin, which is not on an ordinary user's PATH.
modprobe=$(PATH=$PATH:/usr/sbin:/sbin command -v modprobe || true)
if [ -z "$qemu" ] || [ -z "$kernel" ] || [ -z "$busybox" ] || [ -z "$modprobe" ]; then
    echo "softroce: SKIP: need qemu-system-x86_64, busybox, modprobe and /boot/vmlinuz-*-amd64" \
         "(scripts/install-deps.sh guest installs them)" >&2
    exit 77
fi
if [ ! -r "$kernel" ]; then
    echo "softroce: SKIP: $kernel is readable by root only" >&2
    exit 77
fi
kver=${kernel#/boot/vmlinuz-}
if [ ! -d "/lib/modules/$kver" ]; then
    echo "softroce: SKIP: no modules for $kver" >&2
    exit 77
fi

run=$(mktemp -d "${TMPDIR:-/tmp}/nbo-softroce.XXXXXX")
qemu_pid=
cleanup() {
    [ -n "$qemu_pid" ] && kill "$qemu_pid" 2>/dev/null
    rm -rf "$run"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$run/initramfs" "$run/results"

# ---- the initramfs: busybox, the modules in dependency order, /init -----
ird=$run/initramfs
mkdir -p "$ird/bin" "$ird/proc" "$ird/sys" "$ird/dev" "$ird/lower" "$ird/rw" "$ird/newroot" "$ird/mods"
cp "$busybox" "$ird/bin/busybox"
n=0
: > "$ird/mods/order"
for m in veth virtio_pci 9pnet_virtio 9p overlay rdma_rxe; do
    "$modprobe" -S "$kver" --show-depends "$m" 2>/dev/null | while read -r kind path _; do
        [ "$kind" = insmod ] || continue # builtin: nothing to load
        base=$(basename "$path")
        grep -qx "$base" "$ird/mods/order" && continue
        cp "$path" "$ird/mods/$base"
        echo "$base" >> "$ird/mods/order"
    done
done
grep -q rdma_rxe "$ird/mods/order" || { echo "softroce: SKIP: no rdma_rxe module" >&2; exit 77; }

guest_limit=$((limit > 60 ? limit - 30 : limit))
cat > "$ird/init" <<INIT
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
for m in \$(cat /mods/order); do
    case \$m in *.ko.xz) xz -dc /mods/\$m > /tmp.ko; insmod /tmp.ko ;; *) insmod /mods/\$m ;; esac \
        || echo "softroce: insmod \$m failed"
done
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144 hostroot /lower || echo "softroce: 9p root failed"
mount -t tmpfs -o size=1536m tmpfs /rw
mkdir -p /rw/upper /rw/work
mount -t overlay overlay -o lowerdir=/lower,upperdir=/rw/upper,workdir=/rw/work /newroot
mkdir -p /newroot/nbo-results
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 results /newroot/nbo-results
# exec: the command must run as process 1 (rdma link add fails otherwise)
exec chroot /newroot /bin/sh $here/guest-stage2.sh $guest_limit
echo "softroce: chroot failed"; echo o > /proc/sysrq-trigger
INIT
chmod +x "$ird/init"
(cd "$ird" && find . | "$busybox" cpio -o -H newc 2>/dev/null | gzip -1) > "$run/initrd.gz"

# ---- the command, as the guest will run it -------------------------------
{
    echo "cd $(printf %q "$workdir") || exit 2"
    env | grep -E '^(NBO_|UCX_|MPIR_CVAR_)[A-Za-z0-9_]*=' | while IFS= read -r kv; do
        echo "export $(printf %q "$kv")"
    done
    printf '%q ' "$@"
    echo
} > "$run/results/cmd.sh"

# ---- boot ----------------------------------------------------------------
timeout -k 10 "$limit" "$qemu" -accel tcg,thread=multi -cpu max -smp 2 -m 2048 \
    -display none -monitor none -serial stdio -no-reboot -nic none \
    -kernel "$kernel" -initrd "$run/initrd.gz" \
    -append "console=ttyS0 panic=-1 loglevel=3 quiet" \
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
    -virtfs "local,path=$run/results,mount_tag=results,security_model=none,multidevs=remap" \
    < /dev/null &
qemu_pid=$!
wait "$qemu_pid"
qrc=$?
qemu_pid=

if [ -s "$run/results/status" ]; then
    rc=$(cat "$run/results/status")
    echo "softroce: guest command exited with $rc"
    exit "$rc"
fi
if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
    echo "softroce: guest ran out of time ($limit s)" >&2
    exit 124
fi
echo "softroce: guest never reported a status (qemu exit $qrc)" >&2
exit 125
