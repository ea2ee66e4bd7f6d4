#!/usr/bin/env bash
# One command for a fresh Debian 12 machine: installs what lowertrace needs
# with apt, builds it, then either runs the demo or runs every test.
#   bash scripts/setup.sh demo   # build + `lowertrace demo` (GPU matmul to PTX)
#   bash scripts/setup.sh test   # build + every test (unit, MLIR, integration, browser)
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
  pkgs+=(chromium diffutils patch strace python3-pip)  # python3-pip: `pip install ./python` in it.python_triton
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
    ;;
  *) echo "usage: $0 demo|test" >&2; exit 2 ;;
esac
