# cluster-lock.sh - sourced (not run) by the scripts that bring the emulated
# cluster up and run jobs on it.  cluster_take NAME waits for the machine's
# cluster lock (another user may hold it up to 15 minutes), and sets traps
# that end the running job and take the cluster down however the script
# exits.  on_cluster ARGS... is "$CLUSTER exec ARGS", with the variables of
# the array cluster_env (NAME=VALUE) added; it runs in the background and
# is waited for, so that a signal runs the trap at once.  The caller sets
# CLUSTER (nbo-cluster.sh's path) first.
cluster_child=
cluster_env=()

cluster_take() { # NAME: how the script names itself in the busy message
    mkdir -p /run/lock
    exec 9>/run/lock/nbo-cluster.lock
    flock -w 900 9 || { echo "$1: emulated cluster busy" >&2; exit 1; }
    export NBO_CLUSTER_LOCKED=$$
    trap 'rc=$?; trap - EXIT; trap "" PIPE; set +e
          [ -z "$cluster_child" ] || kill -TERM "$cluster_child" 2>/dev/null
          "$CLUSTER" down 2>/dev/null; exit $rc' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
}

on_cluster() {
    env ${cluster_env[@]+"${cluster_env[@]}"} "$CLUSTER" exec "$@" &
    cluster_child=$!
    local rc=0
    wait $cluster_child || rc=$?
    cluster_child=
    return $rc
}
