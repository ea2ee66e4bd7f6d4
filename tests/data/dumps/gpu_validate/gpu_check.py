# Runs add_kernel exactly as kernels.py does and says which sum it computed.
import torch, triton
from kernels import add_kernel
x = torch.randn(100000, device="cuda"); y = torch.randn_like(x); o = torch.empty_like(x)
add_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, o, x.numel(), BLOCK=1024)
torch.cuda.synchronize()
print("computes x+y:", torch.allclose(o, x + y), " computes x-y:", torch.allclose(o, x - y))
