"""ctypes binding of liblowertrace_c.so (include/lowertrace/lowertrace_c.h).

ctypes over a C ABI rather than a compiled extension: the same shared library
loads into any CPython 3 (3.11 on Debian 12, 3.12 on the GPU machine, later
ones too) without rebuilding, because nothing in it depends on Python's ABI.
"""
import ctypes
import json
import os
import shutil

ABI_VERSION = 1
UNSET, NONE, VALUE = 0, 1, 2
_lib = None


def _candidates():
    env = os.environ.get("LOWERTRACE_LIB")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "lib", "liblowertrace_c.so")
    exe = shutil.which("lowertrace")
    if exe:
        yield os.path.join(os.path.dirname(os.path.realpath(exe)), "..", "lib", "liblowertrace_c.so")


def lib():
    """The loaded library (loaded on first use: importing lowertrace stays cheap)."""
    global _lib
    if _lib is not None:
        return _lib
    tried = []
    for path in _candidates():
        if not os.path.exists(path):
            tried.append(path)
            continue
        l = ctypes.CDLL(path)
        l.lt_abi_version.restype = ctypes.c_int
        if l.lt_abi_version() != ABI_VERSION:
            raise ImportError(f"{path}: C ABI {l.lt_abi_version()}, this package speaks {ABI_VERSION}")
        l.lt_enable.argtypes = [ctypes.c_int, ctypes.c_char_p] * 3
        l.lt_enable.restype = None
        for f in ("lt_disable", "lt_reset"):
            getattr(l, f).restype = None
        for f in ("lt_config_json", "lt_read_run_json", "lt_triton_end", "lt_triton_begin"):
            getattr(l, f).restype = ctypes.c_void_p
        l.lt_read_run_json.argtypes = [ctypes.c_char_p]
        l.lt_triton_begin.argtypes = [ctypes.c_char_p]
        l.lt_triton_end.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
        l.lt_stderr_to.argtypes = [ctypes.c_int]
        l.lt_stderr_to.restype = ctypes.c_int
        l.lt_stderr_restore.restype = None
        l.lt_free.argtypes = [ctypes.c_void_p]
        l.lt_free.restype = None
        _lib = l
        return l
    raise ImportError("liblowertrace_c.so not found (tried: " + ", ".join(tried) +
                      "); set LOWERTRACE_LIB or reinstall with LOWERTRACE_LIB pointing at the built library")


def call_json(name, *args):
    """Calls a C function returning a malloc'ed JSON string; returns the parsed value."""
    l = lib()
    enc = [a.encode() if isinstance(a, str) else a for a in args]
    p = getattr(l, name)(*enc)
    if not p:
        raise MemoryError(name)
    try:
        return json.loads(ctypes.string_at(p).decode("utf-8", "replace"))
    finally:
        l.lt_free(p)
