#!/usr/bin/env python3
"""Generates repetitive MLIR-like IR for the diff benchmark.

gen_ir.py N OUT_A OUT_B [SEED]

OUT_A: about N lines of functions built from a few op templates (so most
lines repeat hundreds of times across functions, as in unrolled IR).
OUT_B: the same IR with every numbered SSA value shifted by one (%5 -> %6,
what a pass that inserts one op at the top of each function causes) plus a few
real edits: an op changed, a line inserted, a line deleted, every ~2000 lines.
"""
import random
import re
import sys

OPS = [
    "{d} = memref.load %arg0[%arg3] : memref<1024xf32>",
    "{d} = arith.addf {x}, {y} : f32",
    "{d} = arith.mulf {x}, {y} : f32",
    "{d} = arith.subf {x}, {y} : f32",
    "{d} = math.exp {x} : f32",
    "{d} = arith.maximumf {x}, {y} : f32",
    "{d} = arith.cmpf olt, {x}, {y} : f32",
    "{d} = arith.select {x}, {y}, {y} : f32",
]


def function(k, rng):
    body = rng.randint(20, 120)
    lines = [f"  func.func @kernel_{k}(%arg0: memref<1024xf32>, %arg1: memref<1024xf32>, %arg2: index) {{",
             "    %0 = arith.constant 0 : index",
             "    %1 = arith.constant 1 : index",
             "    scf.for %arg3 = %0 to %arg2 step %1 {",
             "      %2 = memref.load %arg0[%arg3] : memref<1024xf32>"]
    n = 3
    for i in range(body):
        t = OPS[(i * 7 + k) % len(OPS)] if i % 5 else OPS[i % len(OPS)]
        x, y = f"%{max(2, n - 1)}", f"%{max(2, n - 1 - (i % 3))}"
        lines.append("      " + t.format(d=f"%{n}", x=x, y=y))
        n += 1
        if i % 17 == 16:
            lines.append("      gpu.barrier")
    lines += [f"      memref.store %{n - 1}, %arg1[%arg3] : memref<1024xf32>", "    }", "    return", "  }"]
    return lines


def main():
    n_lines, out_a, out_b = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    rng = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 1)
    a = ["module {"]
    k = 0
    while len(a) < n_lines - 1:
        a += function(k, rng)
        k += 1
    a.append("}")

    shift = re.compile(r"%(\d+)")
    b = [shift.sub(lambda m: f"%{int(m.group(1)) + 1}", line) for line in a]
    # A few real edits, at fixed strides so the count is predictable.
    out = []
    for i, line in enumerate(b):
        if i and i % 2000 == 700 and "arith.addf" in line:
            line = line.replace("arith.addf", "arith.subf")
        if i and i % 2000 == 1300:
            continue  # delete
        out.append(line)
        if i and i % 2000 == 1900:
            out.append("      gpu.barrier  // inserted")
    with open(out_a, "w") as f:
        f.write("\n".join(a) + "\n")
    with open(out_b, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
