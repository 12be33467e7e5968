#!/usr/bin/env bash
# The README's cluster path without root, run by a new unprivileged user: a
# copy of the source tree in the user's home, `meson setup --prefix
# $HOME/opt/libnbo --libdir lib`, compile, install, then examples/overlap.c
# built out of tree with pkg-config (PKG_CONFIG_PATH) and run under
# `mpiexec -n 2` (LD_LIBRARY_PATH).  The install must write only into the
# prefix.  The user is created here and removed at the end, also on failure.
#   test_install_user.sh SOURCE_DIR
# Exit 77 (SKIP) where not root or a tool is missing.
# shellcheck disable=SC2016 # the README's lines and the user's script expand later, as written
set -euo pipefail
src=$(cd "$1" && pwd)
skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root to create a throwaway user"
for t in useradd userdel setpriv meson ninja mpicc mpiexec pkg-config tar; do
  command -v "$t" >/dev/null || skip "'$t' not found"
done

user=nbo-u$$
getent passwd "$user" >/dev/null && { echo "FAIL: user $user exists already"; exit 1; }
tmp=$(mktemp -d /tmp/nbo-user.XXXXXX)
chmod 755 "$tmp"
home=$tmp/home
cleanup() {
  userdel "$user" 2>/dev/null || echo "test_install_user: could not remove user $user" >&2
  rm -rf "$tmp"
}
trap cleanup EXIT
useradd --no-create-home --home-dir "$home" --user-group --shell /bin/sh "$user"
mkdir -m 700 "$home"

# The source tree as a clone or a release tarball has it: the files git
# knows (tracked and not ignored), or, outside git, all but build folders.
mkdir "$home/libnbo"
if git -c safe.directory='*' -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  git -c safe.directory='*' -C "$src" ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -f "$src/$f" ] && printf '%s\0' "$f"; done |
    tar -C "$src" --null -T - -cf - | tar -C "$home/libnbo" -xf -
else
  for f in "$src"/* "$src"/.[!.]*; do
    [ -e "$f/meson-private" ] || cp -a "$f" "$home/libnbo/"
  done
fi
chown -R "$user:$user" "$home"

as_user() { # a login-like environment: nothing of this test's but PATH
  setpriv --reuid="$user" --regid="$user" --init-groups \
    env -i HOME="$home" USER="$user" LOGNAME="$user" SHELL=/bin/sh \
    PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 "$@"
}
# The test means something only if the default prefix is out of reach.
if as_user test -w /usr/local; then
  echo "FAIL: user $user can write /usr/local"; exit 1
fi

# The README shows the commands this test runs.
section=$(sed -n '/^## On a cluster, without root/,/^## /p' "$src/README.md")
for l in 'meson setup build --prefix=$HOME/opt/libnbo --libdir=lib' 'meson install -C build' \
         'export PKG_CONFIG_PATH=$prefix/lib/pkgconfig' 'export LD_LIBRARY_PATH=$prefix/lib' \
         'mpicc app.c $(pkg-config --cflags --libs nbo)'; do
  grep -qF -- "$l" <<<"$section" ||
    { echo "FAIL: README's section 'On a cluster, without root' lacks: $l"; exit 1; }
done

start=$(date +%s)
# The README's commands (section "On a cluster, without root"), with the
# parts this test does not need turned off so that it builds in seconds.
as_user bash -euc '
cd ~/libnbo
meson setup build --prefix="$HOME/opt/libnbo" --libdir=lib \
  -Dengines=mpi -Dtests=false -Dp3dfft=disabled -Dpmpi=false -Dman=disabled \
  -Dcuda=disabled -Dzfp=disabled >build-setup.log
meson compile -C build >build-compile.log
meson install -C build >build-install.log
export PKG_CONFIG_PATH=$HOME/opt/libnbo/lib/pkgconfig
export LD_LIBRARY_PATH=$HOME/opt/libnbo/lib PATH=$HOME/opt/libnbo/bin:$PATH
mkdir ~/app && cd ~/app
mpicc ~/libnbo/examples/overlap.c $(pkg-config --cflags --libs nbo) -o overlap
ldd ./overlap | grep "libnbo\.so"
nbo_info >nbo_info.txt
timeout -k 5 120 mpiexec -n 2 ./overlap >overlap.out
cat overlap.out
' || { echo "FAIL: the no-root path failed as user $user"
       for f in "$home"/libnbo/build-*.log; do echo "== $f"; tail -n 20 "$f"; done; exit 1; }
echo "no-root path: setup, compile, install, example built and run in $(( $(date +%s) - start )) s"

# Every file the install wrote lies under the prefix (the log also names
# the folders it created: the prefix and ~/opt).
log=$home/libnbo/build/meson-logs/install-log.txt
[ -s "$log" ] || { echo "FAIL: no install log"; exit 1; }
if grep -v '^#' "$log" | grep -v "^$home/opt/libnbo/" |
   grep -vxF -e "$home/opt/libnbo" -e "$home/opt"; then
  echo "FAIL: the install wrote the files above outside $home/opt/libnbo"; exit 1
fi
for f in lib/libnbo.so.0 lib/pkgconfig/nbo.pc include/nbo.h bin/nbo_info; do
  [ -e "$home/opt/libnbo/$f" ] || { echo "FAIL: $f not installed"; exit 1; }
done
# The example loaded the prefix's library, and both ranks exchanged.
grep -q "libnbo\.so\.0 => $home/opt/libnbo/lib/" <(as_user env LD_LIBRARY_PATH="$home/opt/libnbo/lib" ldd "$home/app/overlap") ||
  { echo "FAIL: overlap does not load the prefix's libnbo.so.0"; exit 1; }
n=$(grep -c 'exchange correct' "$home/app/overlap.out" || true)
[ "$n" -eq 2 ] || { echo "FAIL: $n of 2 ranks say 'exchange correct'"; exit 1; }
# Nor did anything else the user ran write into the system's folders.
left=$(find /usr /etc /opt /var -xdev -user "$user" 2>/dev/null | head -n 5)
[ -z "$left" ] || { echo "FAIL: files of $user outside its home:"; echo "$left"; exit 1; }
echo "PASS: built, installed into ~/opt/libnbo and ran examples/overlap.c (mpiexec -n 2) as user $user, without root"
