"""Real Triton kernels for the device validation and the cost benchmark.
Nothing here knows about lowertrace: tracing comes from TL_LOWER_TRACE alone.
Usage: cases.py attention|variants|autotune|model|error"""
import sys
import time

import torch
import triton
import triton.language as tl


@triton.jit
def attn_fwd(Q, K, V, O, sm_scale, N_CTX, HEAD: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    pid = tl.program_id(0)
    base = tl.program_id(1) * N_CTX * HEAD
    offs_m = pid * BM + tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_d = tl.arange(0, HEAD)
    q = tl.load(Q + base + offs_m[:, None] * HEAD + offs_d[None, :])
    m_i = tl.full([BM], -float("inf"), tl.float32)
    l_i = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, HEAD], tl.float32)
    for start in range(0, N_CTX, BN):
        k = tl.load(K + base + (start + offs_n)[None, :] * HEAD + offs_d[:, None])
        qk = tl.dot(q, k) * sm_scale
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp(qk - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + base + (start + offs_n)[:, None] * HEAD + offs_d[None, :])
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    tl.store(O + base + offs_m[:, None] * HEAD + offs_d[None, :], (acc / l_i[:, None]).to(tl.float16))


def attention():
    BH, N, D = 4, 1024, 64
    q, k, v = (torch.randn(BH, N, D, device="cuda", dtype=torch.float16) for _ in range(3))
    o = torch.empty_like(q)
    t0 = time.time()
    attn_fwd[(N // 128, BH)](q, k, v, o, D ** -0.5, N, HEAD=D, BM=128, BN=64, num_warps=4, num_stages=3)
    torch.cuda.synchronize()
    print(f"attention compile+run {time.time() - t0:.2f}s")
    ref = torch.softmax((q.float() @ k.float().transpose(1, 2)) * D ** -0.5, -1) @ v.float()
    assert torch.allclose(o.float(), ref, atol=2e-2), (o.float() - ref).abs().max()


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


def variants():
    """2 dtypes x 2 constexprs = 4 compiled variants; says which computed x+y / x-y."""
    for dt in (torch.float32, torch.float16):
        for block in (256, 512):
            x = torch.randn(10000, device="cuda", dtype=dt)
            y = torch.randn_like(x)
            o = torch.empty_like(x)
            add_kernel[(triton.cdiv(x.numel(), block),)](x, y, o, x.numel(), BLOCK=block)
            torch.cuda.synchronize()
            what = "x+y" if torch.allclose(o, x + y) else "x-y" if torch.allclose(o, x - y) else "other"
            print(f"variant {str(dt).split('.')[-1]} BLOCK={block}: computes {what}")


@triton.autotune(configs=[triton.Config({"BLOCK": 128}, num_warps=4), triton.Config({"BLOCK": 1024}, num_warps=8)],
                 key=["n"])
@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 3.0, mask=mask)


def autotune():
    x = torch.randn(1 << 20, device="cuda")
    o = torch.empty_like(x)
    scale_kernel[lambda m: (triton.cdiv(x.numel(), m["BLOCK"]),)](x, o, x.numel())
    torch.cuda.synchronize()
    print("autotune ok:", torch.allclose(o, x * 3), "best:", scale_kernel.best_config)


def model():
    m = torch.nn.Sequential(torch.nn.Linear(512, 1024), torch.nn.LayerNorm(1024), torch.nn.GELU(),
                            torch.nn.Linear(1024, 256), torch.nn.Softmax(-1)).cuda()
    x = torch.randn(64, 512, device="cuda")
    c = torch.compile(m)
    t0 = time.time()
    y = c(x)
    torch.cuda.synchronize()
    print(f"torch.compile model ran in {time.time() - t0:.1f}s, matches eager:", torch.allclose(y, m(x), atol=1e-5))


@triton.jit
def bad_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, undefined_name(offs))


def error():
    x = torch.zeros(16, device="cuda")
    bad_kernel[(1,)](x, 16, BLOCK=16)


if __name__ == "__main__":
    {"attention": attention, "variants": variants, "autotune": autotune, "model": model, "error": error}[sys.argv[1]]()
