#!/usr/bin/env python3
"""check_doc_blocks.py SOURCE_DIR SCRIPT PAGE... - the marked blocks of
the pages are what the tests run.

  <!-- file: examples/tutorial/step1_start_wait.c -->   the next fenced
      block is that file, byte for byte;
  <!-- commands -->   each command of the next fenced block (lines joined
      at a trailing backslash, comments and blank lines left out) is a
      line of SCRIPT (doc_commands.sh), alone or followed by ' ||', ' &&'.

Every examples/tutorial/*.c must be included by some page.  Exit 1 with
the page, line and what differs."""
import pathlib
import re
import sys

MARK = re.compile(r"^<!--\s*(file:\s*(\S+)|commands)\s*-->\s*$")


def fenced_block(lines, i):
    """The lines of the fenced block that starts at or after line i (blank
    lines between allowed), and the index after it; None if there is none."""
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines) or not lines[i].startswith("```"):
        return None, i
    body = []
    i += 1
    while i < len(lines) and not lines[i].startswith("```"):
        body.append(lines[i])
        i += 1
    return (body, i + 1) if i < len(lines) else (None, i)


def commands(body):
    out, cur = [], ""
    for line in body:
        cur += line.rstrip()
        if cur.endswith("\\"):
            cur = cur[:-1].rstrip() + " "
            continue
        cmd = cur.strip()
        cur = ""
        if cmd and not cmd.startswith("#"):
            out.append(cmd)
    return out


def main():
    src, script, pages = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    script_lines = [l.strip() for l in open(script, encoding="utf-8")]
    errors, included, nfiles, ncmds = [], set(), 0, 0
    for page in pages:
        lines = open(page, encoding="utf-8").read().split("\n")
        for n, line in enumerate(lines):
            m = MARK.match(line)
            if not m:
                continue
            body, _ = fenced_block(lines, n + 1)
            where = f"{page}:{n + 1}"
            if body is None:
                errors.append(f"{where}: a marker with no fenced block after it")
                continue
            if m.group(2):
                path = m.group(2)
                included.add(path)
                nfiles += 1
                try:
                    want = (src / path).read_text(encoding="utf-8").rstrip("\n").split("\n")
                except OSError as e:
                    errors.append(f"{where}: {path}: {e.strerror}")
                    continue
                if body != want:
                    k = next((k for k, (a, b) in enumerate(zip(body, want)) if a != b),
                             min(len(body), len(want)))
                    errors.append(f"{where}: the block differs from {path} at its line {k + 1}:\n"
                                  f"  page: {body[k] if k < len(body) else '(end)'}\n"
                                  f"  file: {want[k] if k < len(want) else '(end)'}")
                continue
            for cmd in commands(body):
                ncmds += 1
                if not any(l == cmd or l.startswith(cmd + " ||") or l.startswith(cmd + " &&")
                           for l in script_lines):
                    errors.append(f"{where}: no test runs '{cmd}' (add it to {script})")
    for c in sorted((src / "examples" / "tutorial").glob("*.c")):
        rel = str(c.relative_to(src))
        if rel not in included:
            errors.append(f"{rel}: no page includes it (<!-- file: {rel} -->)")
    if nfiles == 0 or ncmds == 0:
        errors.append(f"found {nfiles} file blocks and {ncmds} commands: markers lost?")
    for e in errors:
        print("FAIL:", e)
    if errors:
        return 1
    print(f"PASS: {nfiles} code blocks are their files, {ncmds} commands are run by {script}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
