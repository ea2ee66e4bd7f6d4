"""Cost of tracing a Triton compile, whole process, fresh cache, best of N
(run on the GPU machine; figures go to BENCHMARKS.md):
  untraced      python3 cases.py attention
  triton-dumps  MLIR_ENABLE_DUMP=1 LLVM_IR_ENABLE_DUMP=1 MLIR_DUMP_PATH=<file>, stderr to a file
                (Triton's own dumps written to files)
  dumps-stderr  the same switches without MLIR_DUMP_PATH: every dump on stderr (to a file), which is
                what the traced run has Triton print (without importing it)
  traced        TL_LOWER_TRACE=1 (the lowertrace package's start-up hook), stderr to a file
Usage: python3 bench.py [N] [case]   (default 3 attention)"""
import os
import subprocess
import sys
import tempfile
import time

N = int(sys.argv[1]) if len(sys.argv) > 1 else 3
case = sys.argv[2] if len(sys.argv) > 2 else "attention"
here = os.path.dirname(os.path.abspath(__file__))
work = tempfile.mkdtemp(prefix="lt-bench-")


def one(kind, i):
    env = dict(os.environ)
    for k in ("TL_LOWER_TRACE", "LOWER_TRACE", "MLIR_ENABLE_DUMP", "LLVM_IR_ENABLE_DUMP", "MLIR_DUMP_PATH"):
        env.pop(k, None)
    env["TRITON_CACHE_DIR"] = tempfile.mkdtemp(dir=work)
    if kind == "triton-dumps":
        env.update(MLIR_ENABLE_DUMP="1", LLVM_IR_ENABLE_DUMP="1", MLIR_DUMP_PATH=f"{work}/mlir_{i}.txt")
    elif kind == "dumps-stderr":  # the dumps the traced run makes Triton print: all to fd 2, no import
        env.update(MLIR_ENABLE_DUMP="1", LLVM_IR_ENABLE_DUMP="1")
    elif kind == "traced":
        env.update(TL_LOWER_TRACE="1", TL_LOWER_TRACE_DIR=f"{work}/trace_{i}")
    with open(f"{work}/{kind}_{i}.err", "wb") as err, open(f"{work}/{kind}_{i}.out", "wb") as out:
        t0 = time.perf_counter()
        rc = subprocess.call([sys.executable, os.path.join(here, "cases.py"), case], env=env, stdout=out, stderr=err)
        dt = time.perf_counter() - t0
    assert rc == 0, (kind, rc, open(f"{work}/{kind}_{i}.err").read()[-2000:])
    if kind == "traced":  # a traced run that traced nothing would be a false figure
        idx = [d for d in os.listdir(f"{work}/trace_{i}") if os.path.exists(f"{work}/trace_{i}/{d}/index.html")]
        assert idx, open(f"{work}/{kind}_{i}.err").read()[-2000:]
    inner = open(f"{work}/{kind}_{i}.out").read().strip().splitlines()
    return dt, inner[-1] if inner else ""


kinds = ["untraced", "triton-dumps", "dumps-stderr", "traced"]
best = {k: None for k in kinds}
for i in range(N):
    for k in kinds:  # interleaved, so drift hits all kinds alike
        dt, inner = one(k, i)
        print(f"{k:13s} run {i}: {dt:6.2f} s   ({inner})", flush=True)
        best[k] = dt if best[k] is None else min(best[k], dt)
print(f"\nbest of {N}, whole process, fresh Triton cache, case {case}:")
for k in kinds:
    print(f"  {k:13s} {best[k]:6.2f} s   {best[k] / best['untraced']:.2f}x untraced   "
          f"{best[k] / best['triton-dumps']:.2f}x Triton's own dumps to a file")
sizes = sum(os.path.getsize(os.path.join(work, f)) for f in os.listdir(work) if f.startswith("triton-dumps_0") or f == "mlir_0.txt")
print(f"  Triton's own dump text for one run: {sizes / 1e6:.1f} MB")
