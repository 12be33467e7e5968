#!/usr/bin/env python3
"""Generate the API reference from include/nbo.h: docs/api.md, or man pages.

The header is the reference: its overview comment opens the page, and each
of its areas (a `/* --- name --- */` rule) becomes a section that shows the
declarations with the comments that document them, plus an index of the
functions.  tests/install checks that docs/api.md is current.

    scripts/gen-api-doc.py include/nbo.h > docs/api.md

Man pages (built by man/meson.build, never committed):

    scripts/gen-api-doc.py --man OUTDIR [--env docs/configuration.md ...]
                           [--docdir DIR] include/nbo.h
    scripts/gen-api-doc.py --man-list include/nbo.h
    scripts/gen-api-doc.py --man-tool OUTDIR tools/nbo_info.c

--man writes one man3 page per function group of the header (the functions
declared under one comment; the others of the group are `.so` links to the
first), plus nbo(3): overview, functions, NBO_ERR_* codes, and the NBO_*
variables from the `| variable | ... |` tables of the --env Markdown pages.
--man-list prints the names --man writes.  --man-tool writes nbo_info(1)
from the tool's header comment and its `usage` string (its --help).
"""
import argparse
import ast
import os
import re
import sys


def split_header(src):
    """(overview text, [(area name, area text)]) of nbo.h."""
    head = re.match(r"\s*/\*(.*?)\*/", src, re.S)
    overview = "\n".join(re.sub(r"^\s*\* ?", "", l) for l in head.group(1).splitlines()).strip()
    body = src[head.end():]
    body = body[: body.rfind("#ifdef __cplusplus\n}")]
    parts = re.split(r"/\* -+ ([\w ]+?) \*/\n", body)
    return overview, list(zip(parts[1::2], parts[2::2]))


def markdown(src):
    overview, areas = split_header(src)
    out = ["# libnbo API reference", "",
           "Generated from `include/nbo.h` by `scripts/gen-api-doc.py`: edit the header, not this page.", "",
           overview, ""]
    index = []
    for name, text in areas:
        text = text.strip()
        funcs = re.findall(r"\b(nbo_\w+)\s*\(", text)
        for f in funcs:
            if f not in [g for g, _ in index]:
                index.append((f, name))
        out += [f"## {name.strip().capitalize()}", "", "```c", text, "```", ""]
    out += ["## Index", ""]
    out += [f"- `{f}()`: {area.strip()}" for f, area in sorted(index)]
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ man pages

# The NAME line of each function group (keyed by its first function).  A
# function missing here gets the first sentence of its comment.
SUMMARY = {
    "nbo_version": "the libnbo version string",
    "nbo_strerror": "the message for an NBO_ERR_* code",
    "nbo_config_init": "default configuration of a communicator",
    "nbo_config_from_env": "configuration from the NBO_* environment variables",
    "nbo_engine_name": "names of engines, progress modes and algorithms",
    "nbo_comm_create": "bootstrap libnbo on an MPI communicator",
    "nbo_comm_free": "free an nbo communicator",
    "nbo_comm_query": "the engine and configuration a communicator resolved to",
    "nbo_engine_available": "whether an engine is built and usable on this machine",
    "nbo_ialltoall": "start a non-blocking all-to-all",
    "nbo_alltoall_init": "create a persistent all-to-all request",
    "nbo_start": "start a persistent request",
    "nbo_test": "complete a request",
    "nbo_waitall": "complete several requests",
    "nbo_progress": "advance requests progressed inline",
    "nbo_request_free": "free an inactive request",
    "nbo_request_algorithm": "the algorithm the compiler chose for a request",
    "nbo_request_print": "print the task list of a request",
}

PROTO = re.compile(r"^(?!typedef|enum|#|\s)([^;{}#]*?\b(nbo_\w+)\s*\([^;]*\));", re.M)


def comment_lines(c):
    """The lines of a /* ... */ comment, stars stripped, indentation kept."""
    lines = c[2:-2].splitlines()
    out = []
    for i, l in enumerate(lines):
        l = re.sub(r"^\s*\* ?", "", l) if i else l.lstrip()
        out.append(l.rstrip())
    while out and not out[0]:
        out.pop(0)
    while out and not out[-1]:
        out.pop()
    return out


def parse(src):
    """Function groups, types, error codes and version of nbo.h."""
    overview, areas = split_header(src)
    groups, types, errors, notes = [], {}, [], {}
    for area, text in areas:
        area = area.strip()
        pending = []          # macro paragraphs waiting for a function group
        last_type = None
        for para in re.split(r"\n\s*\n", text.strip()):
            if re.fullmatch(r"/\*.*?\*/", para, re.S):   # an area's own notes
                notes.setdefault(area, []).append(comment_lines(para))
                continue
            m = re.match(r"/\*.*?\*/\n", para, re.S)
            comment = comment_lines(m.group(0).strip()) if m else []
            code = para[m.end():] if m else para
            protos = PROTO.findall(code)
            if protos:
                groups.append({"area": area, "comment": comment,
                               "protos": [p for p, _ in protos],
                               "funcs": [f for _, f in protos],
                               "extra": pending})
                pending, last_type = [], None
                continue
            names = re.findall(r"}\s*(\w+);", code) + re.findall(r"typedef struct \w+ \*(\w+);", code)
            if names:
                for n in names:
                    types[n] = [para]
                last_type = names[-1]
            elif code.startswith("#define") and last_type:
                types[last_type].append(para)
            elif code.startswith("#define"):
                pending.append(para)
            for name, val, what in re.findall(r"(NBO_ERR_\w+)\s*=\s*(-\d+),?\s*/\*(.*?)\*/", code, re.S):
                errors.append((name, val, " ".join(what.split())))
    version = ".".join(re.search(rf"#define NBO_VERSION_{k} (\d+)", src).group(1)
                       for k in ("MAJOR", "MINOR", "PATCH"))
    return overview, groups, types, errors, notes, version


def esc(s):
    """Escape text for a man page line."""
    s = s.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + s if s[:1] in (".", "'") else s


def prose(lines, funcs=()):
    """Comment lines as man paragraphs; indented lines stay preformatted."""
    out, para, pre = [], [], []

    def flush():
        if para:
            text = esc(" ".join(para))
            for f in funcs:
                text = re.sub(rf"\b{f}\b", rf"\\fB{f}\\fP", text)
            out.extend([".PP", text])
            para.clear()
        if pre:
            out.extend([".PP", ".EX"] + [esc(l) for l in pre] + [".EE"])
            pre.clear()

    for l in lines:
        if not l.strip():
            flush()
        elif l.startswith(" ") or (pre and l.startswith(" ")):
            if para:
                flush()
            pre.append(l)
        else:
            if pre:
                flush()
            para.append(l.strip())
    flush()
    return out


def first_sentence(lines):
    text = " ".join(l.strip() for l in lines if l.strip())
    m = re.match(r"(.+?[.?])(\s|$)", text)
    return (m.group(1) if m else text).rstrip(".") or None


def th(name, section, version):
    return [f'.TH {name.upper()} {section} "" "libnbo {version}" "libnbo manual"']


def see_also(refs):
    refs = sorted(set(refs), key=lambda r: (r[1], r[0]))
    return [".SH SEE ALSO"] + [f".BR {n} ({s}){',' if i < len(refs) - 1 else ''}"
                               for i, (n, s) in enumerate(refs)]


def man_pages(src, env_md, docdir):
    """{file name: page text} for nbo(3) and every function."""
    overview, groups, types, errors, notes, version = parse(src)
    allfuncs = [f for g in groups for f in g["funcs"]]
    errmeaning = {n: (v, w) for n, v, w in errors}
    pages = {}
    for g in groups:
        first = g["funcs"][0]
        summary = SUMMARY.get(first) or first_sentence(g["comment"]) or f"libnbo {g['area']}"
        out = th(first, 3, version)
        out += [".SH NAME", esc(", ".join(g["funcs"]) + " - " + summary)]
        out += [".SH SYNOPSIS", ".nf", ".B #include <nbo.h>", ".PP"]
        for p in g["protos"]:
            out += [esc(l) for l in (p + ";").splitlines()]
        out += [".fi", ".PP", "Link with", ".BR \"$(pkg\\-config \\-\\-libs nbo)\" ."]
        out += [".SH DESCRIPTION"]
        out += prose(g["comment"], allfuncs) if g["comment"] else [".PP", esc(summary[0].upper() + summary[1:] + ".")]
        used = []
        for t in re.findall(r"\b(nbo_\w+_t)\b", " ".join(g["protos"])):
            if t in types and t not in used:
                used.append(t)
        defs = g["extra"] + [p for t in used for p in types[t]]
        if defs:
            out += [".PP", "From", ".BR <nbo.h> :", ".PP", ".EX"]
            for i, d in enumerate(defs):
                out += (["\\&"] if i else []) + [esc(l) for l in d.splitlines()]
            out += [".EE"]
        rets = [p.split("(")[0].split() for p in g["protos"]]
        if all(r[0] == "int" for r in rets):
            out += [".SH RETURN VALUE",
                    ".B NBO_SUCCESS",
                    "(0) on success, otherwise a negative",
                    ".B NBO_ERR_*",
                    "code (listed in",
                    ".BR nbo (3));",
                    ".BR nbo_strerror (3)",
                    "turns it into a message."]
        named = [e for e in dict.fromkeys(re.findall(r"NBO_ERR_\w+", " ".join(g["comment"])))
                 if e in errmeaning]
        if named:
            out += [".SH ERRORS"]
            for e in named:
                out += [".TP", f".B {e}", esc(errmeaning[e][1])]
        refs = [("nbo", 3)]
        refs += [(h["funcs"][0], 3) for h in groups if h["area"] == g["area"] and h is not g]
        refs += [(f, 3) for f in allfuncs if f not in g["funcs"]
                 and re.search(rf"\b{f}\b", " ".join(g["comment"]))]
        out += see_also(refs)
        pages[first + ".3"] = "\n".join(out) + "\n"
        for f in g["funcs"][1:]:
            pages[f + ".3"] = f".so man3/{first}.3\n"

    # nbo(3): the overview.
    paras = re.split(r"\n\s*\n", overview)
    m = re.match(r"nbo\.h - (?:libnbo, )?(.*?)\.", " ".join(paras[0].split()))
    out = th("nbo", 3, version)
    out += [".SH NAME", esc("nbo - " + (m.group(1) if m else "libnbo"))]
    out += [".SH SYNOPSIS", ".nf", ".B #include <nbo.h>", ".PP",
            esc("mpicc app.c $(pkg-config --cflags --libs nbo)"), ".fi"]
    out += [".SH DESCRIPTION"] + prose(overview.splitlines()[len(paras[0].splitlines()):], allfuncs)
    out += [".SH FUNCTIONS"]
    area = None
    for g in groups:
        if g["area"] != area:
            area = g["area"]
            out += [f".SS {esc(area.capitalize())}"]
            for n in notes.get(area, []):
                out += prose(n, allfuncs)
        first = g["funcs"][0]
        summary = SUMMARY.get(first) or first_sentence(g["comment"]) or ""
        out += [".TP", ", ".join(f"\\fB{f}\\fP(3)" for f in g["funcs"]), esc(summary)]
    out += [".SH ERRORS", ".B NBO_SUCCESS", "is 0; every error is negative."]
    for n, v, w in errors:
        out += [".TP", f".BR {n} \" (\\{v})\"", esc(w)]
    out += [".SH ENVIRONMENT", "Read by", ".BR nbo_comm_create (3)",
            "when its configuration argument is NULL, and by",
            ".BR nbo_config_from_env (3);",
            ".BR nbo_info (1)",
            "prints the values in effect."]
    for path in env_md:
        out += env_section(open(path).read())
    if docdir:
        out += [".SH FILES", ".TP", f".I {esc(docdir)}",
                "the guides: architecture, configuration, engines, running, reliability, benchmarks."]
    out += see_also([(g["funcs"][0], 3) for g in groups] + [("nbo_info", 1)])
    pages["nbo.3"] = "\n".join(out) + "\n"
    return pages


def md_inline(s):
    """Markdown inline code and links to man font changes."""
    s = esc(s)
    s = re.sub(r"\[([^]]*)\]\([^)]*\)", r"\1", s)
    return re.sub(r"`([^`]*)`", r"\\fB\1\\fP", s)


def env_section(md):
    """.SS + .TP entries of every `| variable | ... |` table of a Markdown page."""
    title = re.search(r"^# (.*)", md, re.M)
    out = []
    for table in re.findall(r"^\| variable \|.*\n\|[- |]+\|\n(?:\|.*\n?)+", md, re.M):
        rows = [[c.strip() for c in l.strip().strip("|").split("|")] for l in table.splitlines()]
        head, rows = rows[0], rows[2:]
        out += [f".SS {md_inline(title.group(1))}"] if title else []
        for r in rows:
            middle = [f"{h} {c}" for h, c in zip(head[1:-1], r[1:-1])]
            text = (f"({', '.join(middle)}) " if middle else "") + r[-1]
            out += [".TP", md_inline(r[0]), md_inline(text)]
    return out


def man_tool(c_src, name):
    """nbo_info(1) from the tool's header comment and its usage string."""
    head = comment_lines(re.match(r"\s*/\*.*?\*/", c_src, re.S).group(0).strip())
    paras = [" ".join(p.split()) for p in "\n".join(head).split("\n\n")]
    m = re.match(rf"{name} - (.*?)[,.:]", paras[0])
    summary = m.group(1) if m else name
    output = [p[len("Output:"):].strip() for p in paras if p.startswith("Output:")]
    body = re.search(r"usage\[\]\s*=\s*((?:\s*\"(?:[^\"\\]|\\.)*\")+);", c_src).group(1)
    usage = "".join(ast.literal_eval(s) for s in re.findall(r"\"(?:[^\"\\]|\\.)*\"", body))
    lines = usage.splitlines()
    synopsis = lines[0].split(":", 1)[1].split()
    desc, opts = [], []
    for l in lines[1:]:
        if re.match(r"\s+-", l):
            opts.append([l.strip()])
        elif opts and l.startswith(" "):
            opts[-1].append(l.strip())
        else:
            desc.append(l)
    out = [f'.TH {name.upper()} 1 "" "libnbo" "libnbo manual"',
           ".SH NAME", esc(f"{name} - {summary}"),
           ".SH SYNOPSIS", f".B {esc(synopsis[0])}", esc(" ".join(synopsis[1:])),
           ".SH DESCRIPTION"] + prose(desc)
    out += [".SH OPTIONS"]
    for o in opts:
        flags, text = re.match(r"(-\w(?:, --[\w-]+)?)\s+(.*)", o[0]).groups()
        out += [".TP", ", ".join(f"\\fB{esc(f)}\\fP" for f in flags.split(", ")),
                esc(" ".join([text] + o[1:]))]
    if output:
        out += [".SH OUTPUT"] + prose(output)
    out += [".SH EXIT STATUS", "0, or 2 for an unknown option.",
            ".SH ENVIRONMENT", "The",
            ".B NBO_*",
            "variables of",
            ".BR nbo (3)."]
    out += see_also([("nbo", 3), ("nbo_engine_available", 3), ("nbo_config_from_env", 3)])
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("source", nargs="?", default="include/nbo.h",
                    help="include/nbo.h (tools/nbo_info.c with --man-tool)")
    ap.add_argument("--man", metavar="OUTDIR", help="write the man3 pages into OUTDIR")
    ap.add_argument("--man-list", action="store_true", help="print the man3 page names")
    ap.add_argument("--man-tool", metavar="OUTDIR", help="write the tool's man1 page into OUTDIR")
    ap.add_argument("--env", action="append", default=[], metavar="MD",
                    help="Markdown page whose `| variable |` tables list NBO_* variables")
    ap.add_argument("--docdir", help="where the guides are installed (FILES of nbo(3))")
    a = ap.parse_args()
    src = open(a.source).read()
    if a.man_tool:
        name = os.path.splitext(os.path.basename(a.source))[0]
        with open(os.path.join(a.man_tool, name + ".1"), "w") as f:
            f.write(man_tool(src, name))
    elif a.man or a.man_list:
        pages = man_pages(src, a.env, a.docdir)
        if a.man_list:
            print("\n".join(sorted(pages)))
        if a.man:
            for n, text in pages.items():
                with open(os.path.join(a.man, n), "w") as f:
                    f.write(text)
    else:
        sys.stdout.write(markdown(src))


if __name__ == "__main__":
    main()
