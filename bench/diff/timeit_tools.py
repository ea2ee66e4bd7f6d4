#!/usr/bin/env python3
"""Times diff tools on generated file pairs and prints a table.

timeit_tools.py RUNS LOWERTRACE_BIN DIR CASE1 [CASE2 ...]
For each CASE, DIR/a_CASE.txt and DIR/b_CASE.txt must exist. Cases named
adv-* skip difflib (minutes per run there). Each tool runs RUNS
times as a separate process; the median wall time is reported, with the ratio
to `lowertrace diff` and the number of +/- lines each tool printed (a smaller
count means a diff closer to minimal).
"""
import os
import statistics
import subprocess
import sys
import time

runs, lt, d = int(sys.argv[1]), sys.argv[2], sys.argv[3]
here = os.path.dirname(os.path.abspath(__file__))


def tools(a, b, with_difflib):
    out = [
        ("lowertrace diff", [lt, "diff", a, b]),
        ("git diff --no-index --histogram", ["git", "diff", "--no-index", "--no-color", "--histogram", a, b]),
        ("GNU diff -u", ["diff", "-u", a, b]),
    ]
    if with_difflib:
        out.append(("python difflib.unified_diff",
                    [sys.executable, os.path.join(here, "difflib_unified.py"), a, b]))
    return out


def changed_lines(out):
    lines = out.split(b"\n")
    plus = sum(1 for l in lines if l.startswith(b"+") and not l.startswith(b"+++ "))
    minus = sum(1 for l in lines if l.startswith(b"-") and not l.startswith(b"--- "))
    return plus, minus


print(f"{'case':>12}  {'tool':<32} {'median s':>9} {'x lowertrace':>13} {'+lines':>8} {'-lines':>8}")
for n in sys.argv[4:]:
    a, b = os.path.join(d, f"a_{n}.txt"), os.path.join(d, f"b_{n}.txt")
    base = None
    for name, cmd in tools(a, b, not n.startswith("adv-")):
        times, out = [], b""
        for _ in range(runs):
            t0 = time.perf_counter()
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            times.append(time.perf_counter() - t0)
            if p.returncode not in (0, 1):
                sys.exit(f"{name} failed with exit code {p.returncode}")
            out = p.stdout
        med = statistics.median(times)
        base = base or med
        plus, minus = changed_lines(out)
        print(f"{n:>12}  {name:<32} {med:>9.3f} {med / base:>12.1f}x {plus:>8} {minus:>8}")
