#!/usr/bin/env python3
"""Generate docs/api.md from include/nbo.h.

The header is the reference: its overview comment opens the page, and each
of its areas (a `/* --- name --- */` rule) becomes a section that shows the
declarations with the comments that document them, plus an index of the
functions.  tests/install checks that docs/api.md is current.

    scripts/gen-api-doc.py include/nbo.h > docs/api.md
"""
import re
import sys

src = open(sys.argv[1] if len(sys.argv) > 1 else "include/nbo.h").read()
head = re.match(r"\s*/\*(.*?)\*/", src, re.S)
overview = "\n".join(re.sub(r"^\s*\* ?", "", l) for l in head.group(1).splitlines()).strip()
body = src[head.end():]
body = body[: body.rfind("#ifdef __cplusplus\n}")]
parts = re.split(r"/\* -+ ([\w ]+?) \*/\n", body)

out = ["# libnbo API reference", "",
       "Generated from `include/nbo.h` by `scripts/gen-api-doc.py`: edit the header, not this page.", "",
       overview, ""]
index = []
for name, text in zip(parts[1::2], parts[2::2]):
    text = text.strip()
    funcs = re.findall(r"\b(nbo_\w+)\s*\(", text)
    for f in funcs:
        if f not in [g for g, _ in index]:
            index.append((f, name))
    out += [f"## {name.strip().capitalize()}", "", "```c", text, "```", ""]
out += ["## Index", ""]
out += [f"- `{f}()`: {area.strip()}" for f, area in sorted(index)]
print("\n".join(out))
