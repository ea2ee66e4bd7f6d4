"""A user's Triton script, run against the stand-in Triton (fake_triton/) in CI.
Nothing in it knows about lowertrace: tracing comes from TL_LOWER_TRACE alone.
Usage: fake_kernels.py variants|autotune|threads|procs|error|passfail
Prints one "ran <kernel>: <variant line of the PTX that ran>" per launch."""
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import triton

T = type("T", (), {})


def tensor(dtype):
    t = T()
    t.dtype = dtype
    return t


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK):
    pass


@triton.jit
def mul_kernel(x_ptr, out_ptr, n, BLOCK):
    pass


@triton.jit
def bad_kernel(x_ptr, n, BLOCK):
    y = tl.undefined(x)


def variants():
    for dt in ("fp32", "fp16"):
        for block in (64, 128):
            x = tensor(dt)
            print(f"ran add_kernel: {add_kernel[(1,)](x, x, x, 100, BLOCK=block)}")


def autotuned():
    tuned = triton.autotune([triton.Config({"BLOCK": 64}, num_warps=4), triton.Config({"BLOCK": 128}, num_warps=8)])(mul_kernel)
    x = tensor("fp32")
    print(f"ran mul_kernel: {tuned[(1,)](x, x, 100)}")


def one(i):
    k = (add_kernel, mul_kernel)[i % 2]
    x = tensor("fp32")
    args = (x, x, x, 10) if k is add_kernel else (x, x, 10)
    return f"ran {k.__name__}: {k[(1,)](*args, BLOCK=32 * (i + 1))}"


def threads():
    sys.stderr.write("user stderr before the pool\n")
    with ThreadPoolExecutor(4) as ex:
        for line in ex.map(one, range(4)):
            print(line)
    sys.stderr.write("user stderr after the pool\n")


def procs():
    # Like inductor: a started worker process, which forks workers of its own.
    if len(sys.argv) > 2 and sys.argv[2] == "worker":
        pids = []
        for i in range(3):
            pid = os.fork()
            if pid == 0:
                print(one(i + 10), flush=True)
                os._exit(0)
            pids.append(pid)
        for p in pids:
            os.waitpid(p, 0)
        return
    w = subprocess.Popen([sys.executable, __file__, "procs", "worker"])
    print(one(0), flush=True)  # the parent compiles at the same time
    w.wait()


def error():
    x = tensor("fp32")
    bad_kernel[(1,)](x, 10, BLOCK=16)


def passfail():
    x = tensor("fp32")
    print(f"ran add_kernel: {add_kernel[(1,)](x, x, x, 10, BLOCK=64)}")
    add_kernel[(1,)](x, x, x, 10, BLOCK="FAIL")


if __name__ == "__main__":
    {"variants": variants, "autotune": autotuned, "threads": threads, "procs": procs, "error": error,
     "passfail": passfail}[sys.argv[1]]()
