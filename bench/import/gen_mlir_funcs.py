#!/usr/bin/env python3
"""Writes an MLIR module of N small functions (constant folding and a
common subexpression each): an after-all dump of it has many tiny records.
Usage: gen_mlir_funcs.py N > m.mlir"""
import sys
n = int(sys.argv[1])
for i in range(n):
    print(f"""func.func @f{i}(%a: i32) -> i32 {{
  %c0 = arith.constant 0 : i32
  %x = arith.addi %a, %c0 : i32
  %y = arith.muli %x, %x : i32
  %z = arith.muli %x, %x : i32
  %r = arith.addi %y, %z : i32
  return %r : i32
}}""")
