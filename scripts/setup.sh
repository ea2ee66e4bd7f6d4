#!/usr/bin/env bash
# One command for a fresh Debian 12 machine: installs what lowertrace needs
# with apt, builds it, then either runs the demo or runs every test.
#   bash scripts/setup.sh demo   # build + `lowertrace demo` (GPU matmul to PTX)
#   bash scripts/setup.sh test   # build + every test (unit, MLIR, integration, browser,
#                                #   installed package), then the ASan+UBSan suite and
#                                #   a short run of each fuzzer (see README, RELIABILITY)
# LT_CI_SANITIZE=0 skips the sanitizer build and the fuzzers.
set -euo pipefail
what=${1:-demo}
cd "$(dirname "$0")/.."

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
pkgs=(cmake ninja-build g++ pkg-config git python3
      llvm-22-dev libmlir-22-dev mlir-22-tools clang-22
      libfmt-dev libcli11-dev nlohmann-json3-dev libxxhash-dev libdeflate-dev libzstd-dev zlib1g-dev
      libgtest-dev libbenchmark-dev)
if [ "$what" = test ]; then
  # python3-pip: `pip install ./python` in it.python_triton;
  # libclang-rt-22-dev (compiler-rt): ASan/UBSan/TSan and libFuzzer for the sanitizer run
  pkgs+=(chromium diffutils patch strace python3-pip libclang-rt-22-dev)
  command -v node >/dev/null || pkgs+=(nodejs npm)
fi
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cmake --preset default >/dev/null
case "$what" in
  demo)
    cmake --build --preset default --target lowertrace_cli lowertrace-opt
    ./build/bin/lowertrace demo
    ;;
  test)
    cmake --build --preset default
    if [ -f tests/browser/package.json ]; then
      (cd tests/browser && { npm ci --no-audit --no-fund --loglevel=error || npm install --no-audit --no-fund --loglevel=error; })
    fi
    ctest --preset default -j2
    if [ "${LT_CI_SANITIZE:-1}" != 0 ]; then
      # ASan+UBSan (leak detection on) over the unit, MLIR and integration
      # tests. Left to the normal run, for the 30-minute budget: the browser
      # tests (they test the viewer's JS in Chromium) and it.diff_cli (many
      # short lowertrace diff + GNU patch runs over the dump fixtures, the
      # slowest test under ASan, 266 s; the same property is checked here by
      # it.diff_patch_property and fuzz/diff_fuzzer).
      # `ctest --preset asan` alone runs it too. Also left to the normal run:
      # it.python_triton and it.run_tools, which load the instrumented
      # liblowertrace_c.so / plugin into hosts they start themselves
      # (python3, the real clang-22 through `lowertrace run`), where the ASan
      # runtime is missing ("undefined symbol: __asan_option_...").
      cmake --preset asan >/dev/null
      cmake --build --preset asan
      ctest --preset asan -j2 -E '^it[.](diff_cli|python_triton|run_tools)$'
      # Each fuzzer for a bounded time (build-fuzz: engine only, no MLIR).
      bash scripts/fuzz.sh "${LT_CI_FUZZ_SECONDS:-30}"
    fi
    ;;
  *) echo "usage: $0 demo|test" >&2; exit 2 ;;
esac
