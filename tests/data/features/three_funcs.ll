target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define i32 @f0(ptr %a, i32 %n, i32 %k) {
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
  %m1 = mul nsw i32 %v, 2
  %m2 = mul nsw i32 %v, 2
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
  %kk = xor i32 %k, %r
  ret i32 %kk
}

define i32 @f1(ptr %a, i32 %n, i32 %k) {
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
  %m1 = mul nsw i32 %v, 3
  %m2 = mul nsw i32 %v, 3
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
  %kk = xor i32 %k, %r
  %cr = call i32 @f0(ptr %a, i32 %n, i32 %kk)
  ret i32 %cr
}

define i32 @f2(ptr %a, i32 %n, i32 %k) {
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
  %m1 = mul nsw i32 %v, 4
  %m2 = mul nsw i32 %v, 4
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
  %kk = xor i32 %k, %r
  %cr = call i32 @f1(ptr %a, i32 %n, i32 %kk)
  ret i32 %cr
}

