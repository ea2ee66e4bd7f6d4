#!/bin/bash
# The plugin outlives its unloading. opt-22 and clang-22 close their plugins'
# handles while they exit (LLVM's DynamicLibrary destroys its handle set),
# after the trace is complete but while the sinks' writer threads are still
# parked in the plugin's code with timed waits. A thread that woke after the
# unmapping crashed the host with SIGSEGV, rarely, as the window between the
# unload and the process's end is short (seen once in CI, clang -O2 under
# ASan). The shim tests/llvm/slow_unload.c widens that window to a second, so
# without the fix (the plugin is linked -z nodelete) every run here crashed.
# Each run must exit as the plain compiler does, with the same output, and
# leave a complete trace.
set -euo pipefail
: "${LT_BIN:?}" "${LT_SRC:?}"
PLUGIN="${LT_LLVM_PLUGIN:-$LT_BIN/../lib/liblowertrace-llvm.so}"
SHIM="$LT_BIN/../lib/liblt-test-slow-unload.so"
if [ ! -f "$PLUGIN" ]; then
  echo "SKIP: $PLUGIN not built (configure with LOWERTRACE_WITH_MLIR=ON)"; exit 0
fi
OPT=${OPT:-opt-22}
CLANG=${CLANG:-clang-22}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "FAIL: $*" >&2; exit 1; }
[ -f "$SHIM" ] || fail "$SHIM is missing (target lt_test_slow_unload)"

# GCC's build of the plugin was kept mapped anyway (glibc never unloads a
# library with STB_GNU_UNIQUE symbols, which GCC emits); clang's build, the
# sanitizer build among them, has none. The flag keeps both.
readelf -d "$PLUGIN" | grep -q 'Flags:.*NODELETE' || fail "$PLUGIN is not linked -z nodelete"

cp "$LT_SRC/tests/data/llvm/plugin_cxx.cpp" .
"$CLANG" -O0 -Xclang -disable-O0-optnone -S -emit-llvm plugin_cxx.cpp -o in.ll

# slow LABEL MODE HOST ARGS...: the host with the plugin and the shim; its
# status, stdout and stderr beside the plain host's.
n=0
slow() {
  local label=$1 mode=$2; shift 2
  n=$((n + 1))
  local d="r$n"
  mkdir "$d"
  set +e
  "$@" > "$d/plain.out" 2> "$d/plain.err"
  local want=$?
  LD_PRELOAD="$SHIM" LT_SLOW_UNLOAD_MARK="$tmp/$d/unloaded" TL_LOWER_TRACE=$mode \
    TL_LOWER_TRACE_DIR="$tmp/$d/trace" TL_LOWER_TRACE_LOG="$tmp/$d/log" \
    "$@" "${PLUGIN_ARGS[@]}" > "$d/traced.out" 2> "$d/traced.err"
  local got=$?
  set -e
  [ "$got" = "$want" ] || fail "$label: exit status $got with the plugin, $want without: $(tail -3 "$d/traced.err")"
  cmp -s "$d/plain.out" "$d/traced.out" || fail "$label: stdout differs with the plugin"
  cmp -s "$d/plain.err" "$d/traced.err" || fail "$label: stderr differs with the plugin: $(tail -3 "$d/traced.err")"
  [ -e "$d/unloaded" ] || fail "$label: the host did not unload the plugin, so this test tests nothing"
  local t; t=$(find "$d/trace" -name trace.json)
  [ "$(echo "$t" | grep -c .)" = 1 ] || fail "$label: expected one trace.json, found: $t"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["records"], "no records"' "$t" \
    || fail "$label: trace.json has no records"
  if [ "$mode" = html ]; then
    [ -n "$(find "$d/trace" -name report.html)" ] || fail "$label: no report.html"
    [ -z "$(find "$d/trace" -name report_data)" ] || fail "$label: the report was left live"
  fi
  echo "$label: exit $got as without the plugin, trace complete"
}

PLUGIN_ARGS=(-load-pass-plugin="$PLUGIN")
slow "opt default<O2>, html" html "$OPT" -passes='default<O2>' in.ll -S -o -
slow "opt default<O2>, terminal" 1 "$OPT" -passes='default<O2>' in.ll -disable-output
PLUGIN_ARGS=(-fpass-plugin="$PLUGIN")
# The optimiser's trace is finished beside clang's own back end (a thread of
# the plugin's), then clang exits.
slow "clang -O2 -S, back end traced" html "$CLANG" -O2 -S plugin_cxx.cpp -o -
TL_LOWER_TRACE_MIR=0 slow "clang -O2 -c, optimiser only" html "$CLANG" -O2 -c plugin_cxx.cpp -o obj.o
