#!/usr/bin/env python3
"""Compact tables of a Table II run with compression (docs/benchmarks.md,
"Table II with compression") from the CSV files table2.sh wrote:

    bench/fft/codec-summary.py out/fft-codec/table2-cluster-1gbit.csv [...]

One table per CSV: a row per variant, for each grid the seconds per
iteration and the ratio to the session's blocking run (x blk), then the
ratio to the exact run of the same mode at the largest grid (x exact), the
bytes on the wire against raw, and the largest relative 2-norm error of the
output against the session's exact output over the grids (sine, random),
with the plan's a priori round-trip bound.
"""
import csv
import math
import sys
from collections import OrderedDict


def fmt_err(x):
    x = float(x)
    return "-" if x < 0 else f"{x:.1e}"


def lines(path):
    """The CSV's lines, a variant name's commas quoted (p3o_bench quotes
    them since; older files did not)."""
    for line in open(path):
        out, depth = "", 0
        for ch in line:
            depth += ch == "["
            depth -= ch == "]"
            out += ";" if ch == "," and depth > 0 else ch
        yield out


def summary(path):
    rows = list(csv.DictReader(lines(path)))
    for r in rows:
        r["variant"] = r["variant"].replace(";", ",")
    grids = list(OrderedDict.fromkeys((int(r["nx"]), int(r["ny"]), int(r["nz"])) for r in rows))
    variants = list(OrderedDict.fromkeys(r["variant"] for r in rows))
    by = {((int(r["nx"]), int(r["ny"]), int(r["nz"])), r["variant"]): r for r in rows}

    def time(g, v):
        r = by.get((g, v))
        return float(r["time_s"]) if r and r["ok"] == "1" else None

    def exact_twin(v):
        """roundtrip_nbo[ucx,fp32] -> roundtrip_nbo[ucx]; pipelined_nbo[zfp:16] -> pipelined_nbo."""
        if "[" not in v:
            return v
        mode, tag = v[:-1].split("[", 1)
        engine = tag.split(",")[0]
        return f"{mode}[{engine}]" if engine in ("auto", "mpi", "ucx", "verbs") else mode

    names = " | ".join(f"{g[0]}^3 s (x blk)" if g[0] == g[1] == g[2] else
                       f"{g[0]}x{g[1]}x{g[2]} s (x blk)" for g in grids)
    print(f"| variant | wire / raw | {names} | x exact ({grids[-1][0]}^3) | "
          "error sine | error random | bound |")
    print("| --- | --- | " + " | ".join("---" for _ in grids) + " | --- | --- | --- | --- |")
    for v in variants:
        cells = []
        for g in grids:
            t, b = time(g, v), time(g, "blocking")
            cells.append("failed" if t is None else f"{t:.3f} ({t / b:.2f})" if b else f"{t:.3f}")
        last = grids[-1]
        t, te = time(last, v), time(last, exact_twin(v))
        xe = f"{t / te:.2f}" if t and te and exact_twin(v) != v else "-"
        rs = [by[(g, v)] for g in grids if (g, v) in by and by[(g, v)]["ok"] == "1"]
        raw = sum(float(r["raw_bytes_per_leg"]) for r in rs)
        wire = sum(float(r["wire_bytes_per_leg"]) for r in rs)
        ratio = f"{100 * wire / raw:.0f} %" if raw else "-"
        es = max((float(r["error_sine_rel2"]) for r in rs), default=-1)
        er = max((float(r["error_random_rel2"]) for r in rs), default=-1)
        codec = rs[0]["codec"] if rs else "none"
        bound = rs[0]["roundtrip_bound"] if rs else "0"
        bound = "-" if codec == "none" else ("none stated" if math.isinf(float(bound))
                                               else f"{float(bound):.1e}")
        if codec == "none":
            es = er = -1
        print(f"| {v} | {ratio} | " + " | ".join(cells) +
              f" | {xe} | {fmt_err(es)} | {fmt_err(er)} | {bound} |")


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for i, p in enumerate(sys.argv[1:]):
        if i:
            print()
        print(f"{p}:\n")
        summary(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
