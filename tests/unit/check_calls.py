#!/usr/bin/env python3
"""The layers call only down (DEVELOPERS.md, "Layers"), checked on the built
objects: no object references a symbol (function or data) that an object of
a layer above it, or beside it, defines.  check_layers.sh checks the
#includes; this catches a call through a declaration written by hand, or one
an interface header lets through.  Each object's layer is the top folder of
its source (compile_commands.json): tools/ compiles pmpi/pm_settings.c,
which stays in pmpi.

usage: check_calls.py BUILD_DIR SOURCE_ROOT
"""
import json
import os
import shutil
import subprocess
import sys

# layer -> the layers whose symbols it may reference (its own included).
# tools/ (nbo_info) lists libnbo-mpi's settings table too.
BELOW = "memory offload codec util"
MAY = {
    "util": "util",
    "progress": "progress util",
    "memory": "memory util",
    "codec": "codec util",
    "offload": "offload util",
    "libnbo": "libnbo progress " + BELOW,
    "pmpi": "pmpi libnbo progress " + BELOW,
    "p3dfft_overlap": "p3dfft_overlap libnbo progress " + BELOW,
    "tools": "tools pmpi libnbo progress " + BELOW,
    "fortran": "fortran p3dfft_overlap libnbo progress " + BELOW,
}


def nm(args, objs):
    """(object, symbol) pairs of one nm run over every object (-A names the file)."""
    out = subprocess.run(["nm", "-A", *args, *objs], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        path, _, rest = line.rpartition(":")
        fields = rest.split()
        if fields:
            yield path, fields[-1]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    build, src = (os.path.realpath(a) for a in sys.argv[1:])
    if not shutil.which("nm"):
        print("SKIP: nm missing (binutils)")
        return 77
    db = os.path.join(build, "compile_commands.json")
    if not os.path.isfile(db):
        print(f"FAIL: no {db}")
        return 1

    # The objects of libnbo's layers (tests, benchmarks and examples may
    # call anything they link).
    layer_of, src_of = {}, {}
    for entry in json.load(open(db)):
        path = os.path.join(entry["directory"], entry["file"])
        rel = os.path.relpath(os.path.realpath(path), src)
        layer = rel.split(os.sep)[0]
        if layer not in MAY:
            continue
        obj = os.path.normpath(os.path.join(entry["directory"], entry["output"]))
        if not os.path.isfile(obj):
            print(f"FAIL: {entry['output']} ({rel}) is not built")
            return 1
        layer_of[obj], src_of[obj] = layer, rel
    objs = sorted(layer_of)
    if len(objs) <= 20:
        print(f"FAIL: only {len(objs)} objects of libnbo's layers in {db}")
        return 1

    defined = {}  # symbol -> the object that defines it
    for obj, sym in nm(["-g", "--defined-only"], objs):
        defined[sym] = obj

    fail, n = False, 0
    for obj, sym in nm(["-u"], objs):
        d = defined.get(sym)
        if d is None:
            continue  # a library's (MPI, UCX, libc)
        n += 1
        layer, dlayer = layer_of[obj], layer_of[d]
        if dlayer not in MAY[layer].split():
            print(f"FAIL: {src_of[obj]} ({os.path.relpath(obj, build)}) references {sym},"
                  f" defined in {dlayer}/ ({src_of[d]}): {layer}/ may call only"
                  f" {', '.join(MAY[layer].split())}")
            fail = True
    if not fail:
        print(f"PASS: {len(objs)} objects, {n} references to libnbo's own symbols,"
              " every one down or within its layer")
    return 1 if fail else 0


if __name__ == "__main__":
    sys.exit(main())
