#!/usr/bin/env python3
"""The original tool's diff engine, for the benchmark: difflib.unified_diff
over lines (SequenceMatcher, autojunk on), n=3, as lower_trace's terminal mode."""
import difflib
import sys

with open(sys.argv[1]) as f:
    a = f.read().splitlines(keepends=True)
with open(sys.argv[2]) as f:
    b = f.read().splitlines(keepends=True)
sys.stdout.writelines(difflib.unified_diff(a, b, sys.argv[1], sys.argv[2], n=3))
