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
with open(sys.argv[1]) as f:
    for line in f:
        t = json.loads(line)
        res = t["result"]
        kind = {"OK": "passed", "SKIP": "skipped", "EXPECTEDFAIL": "passed"}.get(res, "failed")
        counts[kind] += 1
        suite = (t.get("suite") or ["?"])[0].split(":")[-1]
        suites[suite][kind] += 1
        if kind == "failed":
            failed.append(t["name"])
for s in sorted(suites):
    c = suites[s]
    print(f"  {s:12s} {c['passed']:4d} passed {c['failed']:3d} failed {c['skipped']:3d} skipped")
for name in failed:
    print(f"  FAILED: {name}")
print(f"tests: {counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
sys.exit(1 if counts["failed"] or not counts["passed"] else 0)
