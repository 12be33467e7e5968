#!/usr/bin/env bash
# doc_commands.sh BUILD_DIR SOURCE_DIR MPIEXEC - run the shell commands of
# docs/tutorial.md and docs/troubleshooting.md as a user would, against
# libnbo installed into a scratch prefix, and check what they print.
# check_doc_blocks.py fails when a command of those pages' marked blocks
# is not a line of this script, so the pages cannot show a command that
# no test runs.
set -euo pipefail
build=$1 src=$2 mpiexec=$3
here=$(cd "$(dirname "$0")" && pwd)
[ -z "${NBO_MPI_SUFFIX:-}" ] || { echo "SKIP: the pages name nbo.pc, this build nbo$NBO_MPI_SUFFIX.pc"; exit 77; }
command -v mpicc >/dev/null || { echo "SKIP: no mpicc"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The user's setup: libnbo installed (here under a scratch prefix, found
# through PATH, PKG_CONFIG_PATH and LD_LIBRARY_PATH as /usr/local would be
# without them), mpiexec of the MPI it was built with, the tutorial's
# sources in the working directory.
meson install -C "$build" --destdir "$tmp/stage" --no-rebuild --quiet --tags devel,runtime >/dev/null
pc=$(find "$tmp/stage" -name nbo.pc | head -n 1)
prefix=$(sed -n 's/^prefix=//p' "$pc")
mkdir -p "$tmp/pc" "$tmp/bin" "$tmp/work"
sed "s|^prefix=.*|prefix=$tmp/stage$prefix|" "$pc" > "$tmp/pc/nbo.pc"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$mpiexec" > "$tmp/bin/mpiexec"  # hydra finds its proxy by its own path
chmod +x "$tmp/bin/mpiexec"
export PATH=$tmp/bin:$tmp/stage$prefix/bin:$PATH PKG_CONFIG_PATH=$tmp/pc
export LD_LIBRARY_PATH=$(dirname "$(dirname "$pc")")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cp "$src"/examples/tutorial/*.c "$tmp/work"
cd "$tmp/work"

# Everything below goes to a log; expect checks the output since mark.
log=$tmp/log
exec 3>&1 >"$log" 2>&1
trap 'cat "$log" >&3; rm -rf "$tmp"' EXIT
pos=0
mark() { pos=$(stat -c %s "$log"); }
# since copies through a file: its output may go to the log it reads.
since() { tail -c +$((pos + 1)) "$log" > "$tmp/since"; cat "$tmp/since"; }
expect() {
  since | grep -qE -- "$1" || { echo "FAIL: no line matching '$1' in:"; since; exit 1; }
}

# docs/tutorial.md, step 1
mark
mpicc step1_start_wait.c $(pkg-config --cflags --libs nbo) -o step1
mpiexec -n 2 ./step1
expect '^rank 0: engine [a-z]+, progress (thread|inline), 0 wrong values, ok'
expect '^rank 1: engine [a-z]+, progress (thread|inline), 0 wrong values, ok'
mark
NBO_PROGRESS=inline mpiexec -n 2 ./step1
expect '^rank 0: engine [a-z]+, progress inline, 0 wrong values, ok'
mark
nbo_info | grep -e '^# MPI' -e '^auto'
expect '^# MPI: .*thread level multiple'
expect '^auto +engine [a-z]+ +progress (thread|inline)'

# step 2
mark
mpicc step2_persistent.c $(pkg-config --cflags --libs nbo) -o step2
mpiexec -n 2 ./step2
expect '^rank 0: 50 starts of one persistent request, 0 wrong values'

# step 3: the figures are sane (check_figures.sh), not fast
mpicc step3_measure.c $(pkg-config --cflags --libs nbo) -o step3
mark
mpiexec -n 2 ./step3
since > "$tmp/fig"; "$here/check_figures.sh" "$tmp/fig"
# Pinning: each rank's thread on the last core of its mask (here, without
# binding, the whole machine's); ps shows it while the program runs
allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
last=${allowed##*[-,]}
mark
NBO_PROGRESS_CPU=last mpiexec -n 2 ./step3 &
job=$!
# (procps: ps and pgrep, where installed; the program's own report else)
have_ps=$(command -v pgrep >/dev/null && command -v ps >/dev/null && echo yes || true)
if [ -n "$have_ps" ]; then
  for _ in $(seq 100); do pgrep -x step3 >/dev/null && break; sleep 0.02; done
  for _ in $(seq 100); do
    ps -L -o pid,tid,psr,comm -p "$(pgrep -d, -x step3)" | grep nbo-progress && break
    sleep 0.02
  done
fi
wait $job
since | grep -v -e ' nbo-progress$' > "$tmp/fig"; "$here/check_figures.sh" "$tmp/fig"
# ps may miss a run this short (it is shown, not checked): the program's
# own report is the check.
expect "^rank 0: progress thread [0-9]+ on core $last, allowed cores $last\$"
expect "^rank 1: progress thread [0-9]+ on core $last, allowed cores $last\$"
mark
NBO_PROGRESS_CPU=last nbo_info -c | grep -e '^NBO_PROGRESS_CPU'
expect '^NBO_PROGRESS_CPU +last +-1 +env'

# docs/troubleshooting.md: NBO_ERR_CONFIG
mark
rc=0
NBO_WINDOW=abc mpiexec -n 2 ./step1 || rc=$?
[ $rc -ne 0 ] || { echo "FAIL: step1 ran with NBO_WINDOW=abc"; exit 1; }
expect '^libnbo: NBO_WINDOW=abc is not valid \(expected an integer in \[1, 1048576\]\)$'
expect '^nbo_comm_create: invalid configuration value$'
mark
rc=0
NBO_WINDOW=abc nbo_info -c || rc=$?
[ $rc -eq 1 ] || { echo "FAIL: nbo_info exited $rc with NBO_WINDOW=abc, want 1"; exit 1; }
expect '^NBO_WINDOW +abc +8 +INVALID'
expect '^nbo_info: invalid configuration: NBO_WINDOW$'
echo "PASS: the commands of docs/tutorial.md and docs/troubleshooting.md"
