#!/usr/bin/env python3
"""Checks a trace's machine-pass records (phase mir) against -print-after-all.

Usage: mir_banners.py DUMP TRACE_JSON LABEL

DUMP is the stderr of llc-22 or clang-22 -mllvm -print-after-all: its legacy
pass manager banners ("*** IR Dump After <name> (<arg>) ***", with "# " before
machine-function ones) must be the trace's mir records one to one (IR or MIR,
function, name, argument, order), and each recorded after-text must be the
text printed under its banner. New-PM banners ("; *** IR Dump After") are not
legacy ones and are ignored. Exits non-zero with a diff when they differ.
"""
import json, os, re, sys
dump, trace, label = sys.argv[1:4]
blocks, cur = [], None
for line in open(dump):
    m = re.match(r"^(# )?\*\*\* IR Dump After (.*) \*\*\*:?$", line.rstrip("\n"))
    if m:
        cur = ["mir" if m.group(1) else "ir", m.group(2), []]
        blocks.append(cur)
    elif cur is not None and not line.startswith("BISECT: "):  # opt-bisect writes to the same stream
        cur[2].append(line)
def unit(kind, lines):
    text = "".join(lines)
    if kind == "ir" and re.search(r"^; ModuleID = ", text, re.M):
        return "[module]"
    m = re.search(r"^# Machine code for function ([^:]+):", text, re.M) if kind == "mir" else \
        re.search(r"^define [^@]*@\"?([\w.$]+)\"?\(", text, re.M)
    return m.group(1) if m else "(loop)"  # a loop printer prints the loop's blocks only
d = json.load(open(trace))
run = os.path.dirname(trace)
recs = sorted((r for r in d["records"] if r["phase"] == "mir"), key=lambda r: r["index"])
assert recs, "no mir records"
want = ["%s %s %s" % (k, unit(k, ls), b) for k, b, ls in blocks]
got = []
for r in recs:
    kind = "mir" if r["ir_lang"] == "mir" else "ir"
    anchor = r["anchor"]
    fn = "(loop)" if anchor.startswith("loop %") else anchor
    got.append("%s %s %s (%s)" % (kind, fn, r["name"], r["detail"].split(";")[0]))
if want != got:
    import difflib
    print("\n".join(list(difflib.unified_diff(want, got, "llc-22", "records", lineterm="", n=1))[:40]))
    sys.exit(1)
norm = lambda t: "\n".join(l.rstrip() for l in t.strip("\n").splitlines())
texts = 0
for r, (kind, banner, lines) in zip(recs, blocks):
    if r["anchor"].startswith("loop %") or r["anchor"] == "[module]":
        continue  # llc prints a loop's blocks or the whole module; we keep the function
    ours = open(os.path.join(run, r["after_text"]["file"])).read()
    assert norm(ours) == norm("".join(lines)), (label, r["index"], r["name"], r["anchor"])
    texts += 1
skipped = sum(r["status"] == "skipped" for r in recs)
mir = sum(r["ir_lang"] == "mir" for r in recs)
print(f"{label}: {len(recs)} records ({mir} MIR, {skipped} skipped) match the banners; {texts} texts equal")
cg = [r for r in d["records"] if r["status"] == "codegen"]
assert len(cg) == 1, "one codegen record"
