#!/usr/bin/env bash
# The installed package, as a user gets it: `cmake --install` into a temp
# prefix, then
#  - an out-of-tree MLIR program configured with find_package(lowertrace),
#    once linking libMLIR.so and once linking MLIR's static components
#    (no libMLIR.so may come along), run untraced and traced: same stdout,
#    and the same bytes as mlir-opt-22 for the same pipeline;
#  - a program using the engine alone, built with pkg-config, untraced and traced;
#  - the installed tools and the LLVM plugin, run from the prefix.
set -u
BUILD=${LT_BUILD_DIR:?}
SRC=${LT_SRC:?}
MLIR_DIR=${LT_MLIR_DIR:-/usr/lib/llvm-22/lib/cmake/mlir}
MLIR_OPT=$(command -v mlir-opt-22 || echo /usr/lib/llvm-22/bin/mlir-opt)
OPT=$(command -v opt-22 || echo /usr/lib/llvm-22/bin/opt)
work=$(mktemp -d)
[ -n "${LT_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

P=$work/prefix
cmake --install "$BUILD" --prefix "$P" >"$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }
for f in include/lowertrace/session.h include/lowertrace/mlir.h include/lowertrace/version.h \
         lib/liblowertrace.a lib/liblowertrace_mlir.a lib/liblowertrace_dump.a \
         lib/liblowertrace-llvm.so bin/lowertrace bin/lowertrace-opt \
         share/lowertrace/web/viewer.js lib/cmake/lowertrace/lowertraceConfig.cmake \
         lib/pkgconfig/lowertrace.pc; do
  [ -e "$P/$f" ] || bad "not installed: $f"
done
# Libraries built as shared objects (the C API) are installed too.
for so in "$BUILD"/lib/liblowertrace_*.so; do
  [ -e "$so" ] && { [ -e "$P/lib/$(basename "$so")" ] || bad "not installed: lib/$(basename "$so")"; }
done
# Nothing installed may point back into the build or source tree.
if grep -rIl -e "$BUILD" -e "$SRC/" "$P/lib/cmake" "$P/lib/pkgconfig" "$P/include" 2>/dev/null; then
  bad "installed package files name the build/source tree"
fi

# --- find_package: an MLIR program, both ways of linking MLIR -------------------
IN=$work/in.mlir
cp "$SRC/tests/data/fixtures/samples/mlir/input.mlir" "$IN"
PIPE='builtin.module(func.func(canonicalize,cse))'
"$MLIR_OPT" "$IN" --pass-pipeline="$PIPE" >"$work/ref.out" || bad "mlir-opt-22 failed"
for how in dylib components; do
  B=$work/mlir-$how
  if ! cmake -S "$SRC/tests/install/mlir_consumer" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_PREFIX_PATH="$P" -DMLIR_DIR="$MLIR_DIR" -DCONSUMER_MLIR=$how >"$B.log" 2>&1 ||
     ! cmake --build "$B" -j2 >>"$B.log" 2>&1; then
    cat "$B.log"; bad "$how: configure/build against the installed package"; continue
  fi
  exe=$B/consumer
  needed=$(readelf -d "$exe" | grep NEEDED)
  if [ $how = dylib ]; then
    echo "$needed" | grep -q 'libMLIR.so' || bad "$how: libMLIR.so not linked"
    # A second copy would define MLIR's own functions in the executable.
    nm -C --defined-only "$exe" | grep -q 'mlir::MLIRContext::MLIRContext' &&
      bad "$how: MLIR compiled into the executable next to libMLIR.so"
  else
    echo "$needed" | grep -q 'libMLIR.so' && bad "$how: libMLIR.so linked next to the static components"
    nm -C --defined-only "$exe" | grep -q 'mlir::MLIRContext::MLIRContext' ||
      bad "$how: MLIR's static components not linked in"
  fi
  env -u TL_LOWER_TRACE -u LOWER_TRACE "$exe" "$IN" "$PIPE" >"$B.plain" 2>"$B.plain.err" ||
    bad "$how: untraced run failed: $(cat "$B.plain.err")"
  TL_LOWER_TRACE=both TL_LOWER_TRACE_DIR="$work/trace-$how" "$exe" "$IN" "$PIPE" \
    >"$B.traced" 2>"$B.traced.err" || bad "$how: traced run failed"
  cmp -s "$B.plain" "$B.traced" || bad "$how: tracing changed the output"
  cmp -s "$B.plain" "$work/ref.out" || bad "$how: output differs from mlir-opt-22's"
  grep -q '\[lower_trace\]' "$B.traced.err" || bad "$how: no trace lines on stderr"
  [ -s "$(find "$work/trace-$how" -name report.html | head -1)" ] || bad "$how: no report.html"
  grep -q '\[lower_trace\]' "$B.plain.err" && bad "$how: untraced run traced"
done

# --- pkg-config: the engine alone --------------------------------------------
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
flags=$(pkg-config --cflags --libs lowertrace) || bad "pkg-config lowertrace"
case "$flags" in *LLVM*|*MLIR*|*llvm-22*) bad "engine's pkg-config flags name LLVM/MLIR: $flags" ;; esac
E=$work/engine_consumer
if c++ -std=c++20 -O1 "$SRC/tests/install/engine_consumer/main.cpp" -o "$E" $flags 2>"$E.log"; then
  printf 'a\nb\nc\n' >"$work/a.txt"; printf 'a\nB\nc\n' >"$work/b.txt"
  env -u TL_LOWER_TRACE -u LOWER_TRACE "$E" "$work/a.txt" "$work/b.txt" >"$E.plain" 2>/dev/null ||
    bad "engine: untraced run failed"
  TL_LOWER_TRACE=html TL_LOWER_TRACE_DIR="$work/trace-engine" "$E" "$work/a.txt" "$work/b.txt" \
    >"$E.traced" 2>/dev/null || bad "engine: traced run failed"
  cmp -s "$E.plain" "$E.traced" || bad "engine: tracing changed the output"
  grep -qx -- '-b' "$E.plain" && grep -qx -- '+B' "$E.plain" || bad "engine: wrong diff: $(cat "$E.plain")"
  [ -n "$(find "$work/trace-engine" -name trace.json)" ] || bad "engine: no trace.json"
else
  cat "$E.log"; bad "engine: build with pkg-config flags"
fi
pkg-config --exists lowertrace-dump || bad "pkg-config lowertrace-dump"

# --- the installed tools and plugin ------------------------------------------
"$P/bin/lowertrace" --version | grep -q '^lowertrace [0-9]' || bad "installed lowertrace --version"
"$P/bin/lowertrace-opt" --version >/dev/null 2>&1 || bad "installed lowertrace-opt --version"
"$P/bin/lowertrace-opt" "$IN" --pass-pipeline="$PIPE" >"$work/opt.out" 2>/dev/null &&
  cmp -s "$work/opt.out" "$work/ref.out" || bad "installed lowertrace-opt differs from mlir-opt-22"
cat >"$work/f.ll" <<'LL'
define i32 @f(i32 %a) {
  %b = add i32 %a, 0
  ret i32 %b
}
LL
"$OPT" -S -passes=instcombine "$work/f.ll" -o "$work/ref.ll" &&
TL_LOWER_TRACE=terminal TL_LOWER_TRACE_DIR="$work/trace-plugin" \
  "$OPT" -S -load-pass-plugin="$P/lib/liblowertrace-llvm.so" -passes=instcombine "$work/f.ll" \
  -o "$work/plug.ll" 2>"$work/plug.err" && cmp -s "$work/ref.ll" "$work/plug.ll" &&
  grep -q '\[lower_trace\]' "$work/plug.err" || bad "installed plugin in opt-22: $(head -3 "$work/plug.err")"

[ $fail = 0 ] && echo "installed package: OK"
exit $fail
