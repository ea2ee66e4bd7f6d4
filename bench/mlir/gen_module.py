#!/usr/bin/env python3
"""Generates an MLIR module of N functions for the tracing benchmark.

Each function does elementwise work on a memref in an scf.for loop with some
foldable arithmetic, so a CPU lowering pipeline (canonicalize, cse, scf->cf,
memref/arith/func -> llvm) changes it in several passes.
"""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
out = ["module {"]
for i in range(n):
    out.append(f"""  func.func @k{i}(%A: memref<128xf32>, %B: memref<128xf32>, %s: f32) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %z = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    scf.for %i = %c0 to %c128 step %c1 {{
      %a = memref.load %A[%i] : memref<128xf32>
      %t = arith.addf %a, %z : f32
      %u = arith.mulf %t, %s : f32
      %v = arith.mulf %t, %s : f32
      %w = arith.addf %u, %v : f32
      %x = arith.mulf %w, %one : f32
      memref.store %x, %B[%i] : memref<128xf32>
    }}
    return
  }}""")
out.append("}")
print("\n".join(out))
