#!/bin/sh
# Run doxygen on the API headers and keep only the man pages named after
# the API: MAN_LINKS also writes a link page for every struct field and
# directory (size.3, log.3, ...) that would shadow the system's pages.
# Doxygen 1.9 copies the backslashes of an included example verbatim into
# the page's .nf block, where groff reads "\n" as an escape: each becomes
# groff's "\e" there (doxygen's own "\&" stays).
#   doxygen-build.sh DOXYGEN DOXYFILE OUTDIR
set -eu
doxygen=$1 doxyfile=$2 out=$3
rm -rf "$out/html" "$out/man3"
"$doxygen" "$doxyfile"
for p in "$out"/man3/*.3; do
  case ${p##*/} in
    nbo*|NBO_*|p3o_*|P3O_*|p3dfft_overlap*) ;;
    *) rm -f "$p"; continue ;;
  esac
  sed -i '/^\.nf$/,/^\.fi$/ s/\\\([^&]\)/\\e\1/g' "$p"
done
