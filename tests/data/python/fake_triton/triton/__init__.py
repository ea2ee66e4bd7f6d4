"""A stand-in for Triton 3.6 on machines without a GPU (tests only).

It keeps the parts of Triton 3.6 that lowertrace's Python hooks rely on, with
the same names and call order as the real one (read on the device, see
python/lowertrace/_triton.py): knobs.runtime.add_stages_inspection_hook called
by the backend's add_stages with (backend, stages, options, language,
capability); stage functions called as stage(module, metadata) with
metadata["hash"]; ASTSource.make_ir called by compile() before the stages;
knobs.cache.dir for the cache (a hit runs no stage); MLIR_ENABLE_DUMP and
LLVM_IR_ENABLE_DUMP read at each stage, and dumps written straight to fd 2
in small pieces (as LLVM's unbuffered errs() does), replaying the real
Triton 3.6 dumps recorded on an H200 (tests/data/dumps/triton36_h200_add)
with the kernel's name. A compiled kernel "runs" by printing its PTX marker.
"""
from . import knobs
from .compiler.compiler import ASTSource, CompilationError, compile
from .runtime.jit import jit, Config, autotune

__version__ = "3.6.0-fake"
