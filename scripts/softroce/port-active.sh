# port-active.sh - sourced by guest-stage2.sh and tests/verbs/guest_suite.sh
# (POSIX sh).  wait_port_active DEV: wait up to 10 s for Soft-RoCE device
# DEV's port to turn ACTIVE, which it does once its veth's carrier is up.
wait_port_active() {
    i=0
    while [ $i -lt 50 ] && ! grep -q ACTIVE "/sys/class/infiniband/$1/ports/1/state" 2>/dev/null; do
        sleep 0.2
        i=$((i + 1))
    done
}
