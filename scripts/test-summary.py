#!/usr/bin/env python3
"""Summarise a meson testlog.json: per-suite counts and one closing line.

A skipped test is a test that did not run here (exit 77, with its reason in
the log); it is never counted as passed.
"""
import collections
import json
import sys

counts = collections.Counter()
suites = collections.defaultdict(collections.Counter)
failed = []
skipped = []
import os

lines = []
for path in sys.argv[1:]:
    if not os.path.exists(path):
        print(f"  missing test log {path} (stage did not run)")
        counts["failed"] += 1
        continue
    stage = os.path.basename(os.path.dirname(os.path.dirname(path)))
    lines += [(stage, l) for l in open(path)]
if True:
    for stage, line in lines:
        t = json.loads(line)
        res = t["result"]
        kind = {"OK": "passed", "SKIP": "skipped", "EXPECTEDFAIL": "passed"}.get(res, "failed")
        counts[kind] += 1
        suite = stage + "/" + t["name"].split(" / ")[0].split(":")[-1]
        suites[suite][kind] += 1
        if kind == "failed":
            failed.append(stage + ": " + t["name"])
        elif kind == "skipped":
            why = [l for l in (t.get("stdout") or "").splitlines() if "skip" in l.lower()]
            skipped.append(stage + ": " + t["name"] + (" (" + why[-1].strip()[:120] + ")" if why else ""))
for s in sorted(suites):
    c = suites[s]
    print(f"  {s:22s} {c['passed']:4d} passed {c['failed']:3d} failed {c['skipped']:3d} skipped")
for name in skipped:
    print(f"  SKIPPED: {name}")
for name in failed:
    print(f"  FAILED: {name}")
print(f"tests: {counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
sys.exit(1 if counts["failed"] or not counts["passed"] else 0)
