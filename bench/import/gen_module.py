#!/usr/bin/env python3
"""Writes an LLVM IR module with N functions that -O2 has work to do on
(allocas for SROA, a loop for the loop passes, redundant arithmetic for
InstCombine/GVN, calls for the inliner). Usage: gen_module.py N > big.ll"""
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
print('target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"')
print('target triple = "x86_64-pc-linux-gnu"\n')
for i in range(n):
    callee = f"@f{i-1}" if i % 8 else None  # short call chains: inlining stays linear
    print(f"""define i32 @f{i}(ptr %a, i32 %n, i32 %k) {{
entry:
  %s.addr = alloca i32, align 4
  %i.addr = alloca i32, align 4
  store i32 0, ptr %s.addr, align 4
  store i32 0, ptr %i.addr, align 4
  br label %cond
cond:
  %i = load i32, ptr %i.addr, align 4
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %idx = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %a, i64 %idx
  %v = load i32, ptr %p, align 4
  %m1 = mul nsw i32 %v, {i % 7 + 2}
  %m2 = mul nsw i32 %v, {i % 7 + 2}
  %add = add nsw i32 %m1, %m2
  %z = add nsw i32 %add, 0
  %s = load i32, ptr %s.addr, align 4
  %s2 = add nsw i32 %s, %z
  store i32 %s2, ptr %s.addr, align 4
  %inc = add nsw i32 %i, 1
  store i32 %inc, ptr %i.addr, align 4
  br label %cond
exit:
  %r = load i32, ptr %s.addr, align 4
  %kk = xor i32 %k, %r""")
    if callee:
        print(f"  %cr = call i32 {callee}(ptr %a, i32 %n, i32 %kk)\n  ret i32 %cr\n}}\n")
    else:
        print("  ret i32 %kk\n}\n")
