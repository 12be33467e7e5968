#!/usr/bin/env python3
"""nbo_info --json: one JSON document (python3 -m json.tool reads it) with
the facts of the text output.

    check_nbo_info_json.py NBO_INFO ENGINE...

ENGINE...: the engines this build has (meson's list, in the order auto
tries them).  Checks: "engines" names them; every variable of
nbo_info --settings-md is in "settings" with its default; what auto
resolves to is a usable engine; an invalid NBO_WINDOW exits 1 with
"valid": false and that variable marked invalid, the document still whole.
"""
import json
import os
import re
import subprocess
import sys

info, engines = sys.argv[1], sys.argv[2:]
failed = []


def check(cond, what):
    if not cond:
        failed.append(what)
        print("FAIL:", what)


def run(extra_env):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NBO_")}
    env.update(extra_env)
    p = subprocess.run([info, "--json"], env=env, capture_output=True, text=True, timeout=60)
    # The document as python3 -m json.tool reads it.
    tool = subprocess.run([sys.executable, "-m", "json.tool"], input=p.stdout,
                          capture_output=True, text=True)
    check(tool.returncode == 0, f"python3 -m json.tool rejects nbo_info --json {extra_env}: "
                                f"{tool.stderr.strip()}")
    return p.returncode, json.loads(p.stdout) if tool.returncode == 0 else {}


rc, doc = run({})
check(rc == 0, f"nbo_info --json exits {rc} in a clean environment")
names = [e["name"] for e in doc.get("engines", [])]
check(names == engines, f"engines {names}, the build has {engines}")
built = {p["name"]: p["built"] for p in doc.get("build", [])}
for e in engines:
    check(built.get(e) is True, f"build: engine {e} not marked built")
for part in ("cuda", "zfp", "libnbo-mpi", "p3dfft_overlap"):
    check(part in built, f"build: no part {part}")
usable = [e["name"] for e in doc.get("engines", []) if e["usable"]]
auto = doc.get("resolution", {}).get("auto", {})
check(auto.get("engine") in usable, f"auto resolves to {auto.get('engine')}, usable: {usable}")
check(doc.get("valid") is True, "valid is not true in a clean environment")

# Every variable of the Markdown tables, with the same default.
md = subprocess.run([info, "--settings-md"], capture_output=True, text=True, check=True).stdout
table = {}
col = None  # the "default" column of the table being read
for line in md.splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if cells[0] == "variable":
        col = cells.index("default")
    elif col is not None and re.fullmatch(r"`NBO_[A-Z0-9_]+`", cells[0]):
        table[cells[0].strip("`")] = cells[col].strip("`")
variables = {v["name"]: v for t in doc.get("settings", []) for v in t["variables"]}
check(len(table) >= 17, f"only {len(table)} variables read from nbo_info --settings-md")
for name, default in table.items():
    v = variables.get(name)
    check(v is not None, f"{name} of --settings-md is not in --json")
    want = None if default == "unset" else default  # no default: null
    if v is not None:
        check(v["default"] == want, f"{name}: default {v['default']!r}, --settings-md {default!r}")

rc, doc = run({"NBO_WINDOW": "not-a-number"})
check(rc == 1, f"an invalid NBO_WINDOW: exit {rc}, not 1")
check(doc.get("valid") is False, "an invalid NBO_WINDOW: valid is not false")
variables = {v["name"]: v for t in doc.get("settings", []) for v in t["variables"]}
window = variables.get("NBO_WINDOW", {})
check(window.get("valid") is False and window.get("set") is True and
      window.get("value") == "not-a-number", f"an invalid NBO_WINDOW: {window}")

if failed:
    sys.exit(1)
print(f"PASS: nbo_info --json: {len(names)} engines, {len(variables)} variables, "
      "an invalid value flagged")
