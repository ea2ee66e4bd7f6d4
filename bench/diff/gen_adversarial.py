#!/usr/bin/env python3
"""Adversarial inputs for the diff engine's cost bounds (not IR).

gen_adversarial.py KIND N OUT_A OUT_B
  random4  N random lines over 4 symbols on each side: nothing to anchor on,
           the edit distance is huge; exercises Myers' cost bound.
  pairs    every line occurs exactly twice per side, in a permuted order:
           histogram anchors on count-2 lines one at a time; exercises the
           anchoring work budget (plain histogram is quadratic here).
"""
import random
import sys

kind, n, out_a, out_b = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
r = random.Random(2)
if kind == "random4":
    a = [f"x{r.randrange(4)}" for _ in range(n)]
    b = [f"x{r.randrange(4)}" for _ in range(n)]
elif kind == "pairs":
    half = n // 2
    a = [f"l{i // 2}" for i in range(n)]
    b = [f"l{(i // 2) * 7 % half}" for i in range(n)]
else:
    sys.exit(f"unknown kind {kind}")
with open(out_a, "w") as f:
    f.write("\n".join(a) + "\n")
with open(out_b, "w") as f:
    f.write("\n".join(b) + "\n")
