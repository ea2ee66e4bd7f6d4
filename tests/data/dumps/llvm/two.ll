define i32 @f(i32 %x) {
entry:
  %a = alloca i32
  store i32 %x, ptr %a
  %v = load i32, ptr %a
  %r = add i32 %v, 0
  ret i32 %r
}

define i32 @g(i32 %x) {
entry:
  ret i32 %x
}
