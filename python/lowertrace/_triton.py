"""Traces every Triton compile of this process, one run per compiled variant.

How (Triton 3.6, read on the device; bench/triton/ and the notes say what was
checked):
- knobs.runtime.add_stages_inspection_hook lets us wrap each stage function
  (ttir, ttgir, llir, ptx, cubin) of every compile, on the compiling thread.
  The stage functions receive Triton's metadata (its cache hash, num_warps,
  num_stages, ...); ASTSource.make_ir, which compile() calls just before the
  stages, gives the kernel's name, constexprs and signature. So each compile
  is identified by what Triton knows, not guessed from dump banners.
- Per compile channel: from the first stage to the PTX, the compile holds this
  process's trace lock, its fd 2 goes to a file of its own and
  MLIR_ENABLE_DUMP / LLVM_IR_ENABLE_DUMP are set (Triton reads them at each
  pass manager; MLIR_DUMP_PATH is opened once per process, so it is not used).
  Concurrent compiles on threads (Triton's async compile) therefore run their
  traced stages one at a time; processes (inductor's compile workers, forked
  or started) each have their own fds and files. Nothing interleaves.
- At the end of the PTX stage the capture is imported by the C++ engine
  (liblowertrace_c.so) into <trace_dir>/<kernel>/, and the PTX it returns is
  what Triton compiles: the user's edited working copy
  codegen.<kernel>.<variant>.ptx for that variant only, else Triton's own.
- Triton prints no dumps on a cache hit, and an edited PTX must not end up
  in the user's cache. So the process tree uses a private, fresh Triton cache
  (removed at exit): each distinct variant compiles once per process tree
  (inductor's parent then hits what its workers compiled) and is traced once.
"""
import atexit
import io
import json
import os
import shutil
import sys
import tempfile
import threading
import uuid

PREFIX = "  [lower_trace] "
_ENV_CACHE = "LOWERTRACE_TRITON_CACHE"

_lock = threading.Lock()
_tls = threading.local()
_installed = False
_finder = None
_told_serial = False
_active = None  # the capture holding fd 2, if any (for fork)
_cap_root = None
_counter = 0
_own_cache = None


def _say(line):
    """One line to the user's stderr, also while a compile owns fd 2."""
    data = (PREFIX + line + "\n").encode()
    cap = _active
    for fd in ((cap.saved_fd,) if cap is not None and cap.open else ()) + (2,):
        try:
            os.write(fd, data)
            return
        except OSError:
            continue


def _enabled():
    from . import config
    try:
        return config().get("mode", "off") != "off"
    except Exception:
        return False


def _capture_root():
    global _cap_root
    if _cap_root is None or not _cap_root.endswith(f"-{os.getpid()}"):
        _cap_root = tempfile.mkdtemp(prefix="lowertrace-triton-") + f"-{os.getpid()}"
        os.makedirs(_cap_root, exist_ok=True)
        atexit.register(shutil.rmtree, _cap_root, True)
    return _cap_root


def _private_cache(knobs):
    """One fresh Triton cache for the whole process tree (children inherit the
    variable), removed at exit by the process that made it."""
    global _own_cache
    d = os.environ.get(_ENV_CACHE)
    if not d:
        from . import config
        base = os.path.join(config().get("trace_dir", "."), ".triton_cache")
        os.makedirs(base, exist_ok=True)
        d = tempfile.mkdtemp(prefix=f"{os.getpid()}-", dir=base)
        os.environ[_ENV_CACHE] = d
        _own_cache = (d, os.getpid())
        # LOWERTRACE_KEEP_TRITON_CACHE=1 keeps it (the device validation counts what landed there).
        if os.environ.get("LOWERTRACE_KEEP_TRITON_CACHE") != "1":
            atexit.register(lambda: os.getpid() == _own_cache[1] and shutil.rmtree(_own_cache[0], True))
    knobs.cache.dir = d


class _Capture:
    """One compile's channel: its stderr file and stage folder."""

    def __init__(self, src, metadata, options):
        global _counter, _told_serial, _active
        self.kernel = getattr(src, "name", None) or "kernel"
        self.hash = str(metadata.get("hash", "nohash"))
        self.variant = self.hash[:10]
        self.describe = _describe(src, metadata, options, self.hash)
        if not _lock.acquire(blocking=False):
            if not _told_serial:
                _told_serial = True
                _say("Triton compiles on several threads: traced compiles run one at a time "
                     "(a compile's dumps go to this process's stderr, which only one can own)")
            _lock.acquire()
        try:
            _counter += 1
            d = os.path.join(_capture_root(), f"{_counter:05d}")
            os.makedirs(os.path.join(d, "stage", self.hash), exist_ok=True)
            self.dir = d
            self.dump_file = os.path.join(d, "dumps.txt")
            self.saved_env = {k: os.environ.get(k) for k in ("MLIR_ENABLE_DUMP", "LLVM_IR_ENABLE_DUMP")}
            os.environ["MLIR_ENABLE_DUMP"] = "1"
            os.environ["LLVM_IR_ENABLE_DUMP"] = "1"
            for s in (sys.stdout, sys.stderr):
                try:
                    s.flush()
                except Exception:
                    pass
            self.saved_fd = os.dup(2)
            from . import _capi
            fd = os.open(self.dump_file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            _capi.lib().lt_stderr_to(self.saved_fd)  # the engine's console lines stay on the terminal
            os.dup2(fd, 2)
            os.close(fd)
            # Python's own writes to sys.stderr still reach the terminal.
            self.saved_stderr = sys.stderr
            sys.stderr = io.TextIOWrapper(io.FileIO(self.saved_fd, "w", closefd=False), write_through=True,
                                          encoding=getattr(sys.stderr, "encoding", None) or "utf-8",
                                          errors="backslashreplace")
            self.open = True
            _active = self
            # The engine follows the file from now on (import overlaps the compile).
            from . import _capi
            req = {"kernel": self.kernel, "variant": self.variant, "dump_file": self.dump_file,
                   "stage_dir": os.path.join(self.dir, "stage"), "describe": self.describe,
                   "input": f"{self.kernel} [{_short(self.describe)}]"}
            try:
                self.handle = _capi.lib().lt_triton_begin(json.dumps(req).encode())
            except Exception as e:
                self.handle = None
                _say(f"WARNING: tracing {self.kernel} not started: {e}")
        except BaseException:
            _lock.release()
            raise

    def stage(self, ext, module):
        try:
            text = module if isinstance(module, str) else None
            if text is None and not isinstance(module, (bytes, bytearray)):
                text = str(module)
            if text is not None:
                with open(os.path.join(self.dir, "stage", self.hash, f"{self.kernel}.{ext}"), "w") as f:
                    f.write(text)
        except Exception as e:  # tracing never breaks the compile
            self.warn = f"could not keep the {ext} of {self.kernel}: {e}"

    def release(self):
        """Gives stderr, the environment and the lock back."""
        global _active
        if not self.open:
            return
        self.open = False
        try:
            sys.stderr.flush()
        except Exception:
            pass
        sys.stderr = self.saved_stderr
        os.dup2(self.saved_fd, 2)
        try:
            from . import _capi
            _capi.lib().lt_stderr_restore()
        except Exception:
            pass
        os.close(self.saved_fd)
        for k, v in self.saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        _active = None
        _lock.release()

    def finish(self, error=""):
        """Ends the capture, imports it; returns the PTX to compile or None."""
        self.release()
        from . import _capi
        if not self.handle:
            shutil.rmtree(self.dir, True)
            return None
        try:
            a = _capi.call_json("lt_triton_end", self.handle, error)
            self.handle = None
        except Exception as e:
            _say(f"WARNING: tracing {self.kernel} failed: {e}")
            return None
        finally:
            shutil.rmtree(self.dir, True)
        if a.get("error"):
            _say("WARNING: " + a["error"])
            return None
        for w in a.get("warnings") or []:
            _say("WARNING: " + w) if not w.startswith("WARNING") else _say(w)
        _say(f"kernel {self.kernel} variant {self.variant} ({_short(self.describe)}): {a.get('records', 0)} passes; "
             f"all variants: {a.get('index', '')}")
        if a.get("edited"):
            _say(f"kernel {self.kernel} variant {self.variant}: compiling your edited PTX "
                 f"{a.get('working_copy', '')}")
        return a.get("source") or None


def _short(d):
    parts = [f"{k}={v}" for k, v in (d.get("constexprs") or {}).items()]
    parts += [f"{k}:{v}" for k, v in (d.get("signature") or {}).items() if v != "constexpr"]
    parts += [f"num_warps={d.get('num_warps')}", f"num_stages={d.get('num_stages')}"]
    return ", ".join(parts)


def _describe(src, metadata, options, hash_):
    d = {"hash": hash_}
    fn = getattr(src, "fn", None)
    names = list(getattr(fn, "arg_names", []) or [])
    try:
        d["constexprs"] = {(names[k[0]] if isinstance(k, tuple) and len(k) == 1 and k[0] < len(names)
                            else str(k)): repr(v) if not isinstance(v, (int, float, str, bool)) else v
                           for k, v in sorted((getattr(src, "constants", None) or {}).items())}
    except Exception:
        d["constexprs"] = {}
    try:
        d["signature"] = {str(k): str(v) for k, v in (getattr(src, "signature", None) or {}).items()}
    except Exception:
        d["signature"] = {}
    try:
        spec = {}
        for k, v in (getattr(src, "attrs", None) or {}).items():
            n = names[k[0]] if isinstance(k, tuple) and len(k) == 1 and k[0] < len(names) else str(k)
            spec[n] = " ".join(f"{a}={b}" for a, b in v)
        if spec:
            d["specialization"] = spec
    except Exception:
        pass
    for k in ("num_warps", "num_stages", "num_ctas", "maxnreg", "arch"):
        v = metadata.get(k, getattr(options, k, None))
        if v is not None:
            d[k] = v if isinstance(v, (int, float, str, bool)) else str(v)
    return d


def _front_end_error(src, e):
    msg = str(e).strip().splitlines() or [type(e).__name__]
    where = msg[0].rstrip(":") if msg[0].startswith("at ") and len(msg) > 1 else ""
    last = next((l for l in reversed(msg) if l.strip()), msg[0]).strip()
    _say(f"kernel {getattr(src, 'name', '?')}: front-end error{' ' + where if where else ''} "
         f"(no pass ran, nothing traced): {last}")


def _wrap_stages(stages):
    keys = list(stages)
    if not keys:
        return
    # The capture runs from the first stage to the assembly (ptx); the binary
    # stage after it (ptxas) needs no dumps.
    asm = "ptx" if "ptx" in stages else keys[-2] if len(keys) > 1 else keys[-1]
    last_traced = keys.index(asm)

    def wrap(i, ext, fn):
        def stage(src, metadata, *a, **kw):
            cap = getattr(_tls, "capture", None)
            if i == 0:
                cap = None
                info = getattr(_tls, "src", None)
                if info is not None and _enabled():
                    cap = _tls.capture = _Capture(info, metadata, getattr(_tls, "options", None))
            if cap is None or i > last_traced:
                return fn(src, metadata, *a, **kw)
            try:
                out = fn(src, metadata, *a, **kw)
            except BaseException as e:
                _tls.capture = None
                cap.finish(error=f"{ext} stage failed: {type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}")
                raise
            cap.stage(ext, out)
            if i == last_traced:
                _tls.capture = None
                edited = cap.finish()
                if edited is not None and isinstance(out, str):
                    return edited
            return out
        stage.__wrapped__ = fn
        return stage

    for i, k in enumerate(keys):
        stages[k] = wrap(i, k, stages[k])


def install():
    """Puts the hooks into an imported triton (idempotent)."""
    global _installed
    if _installed:
        return
    import triton.compiler.compiler as cc
    from triton import knobs
    _installed = True
    prev = knobs.runtime.add_stages_inspection_hook

    def inspect_stages(backend, stages, options, language, capability):
        if prev is not None:
            prev(backend, stages, options, language, capability)
        _tls.options = options
        _wrap_stages(stages)

    knobs.runtime.add_stages_inspection_hook = inspect_stages
    from ._frontend.ast import wrap_make_ir

    def on_source(src):
        _tls.src = src

    def on_error(src, e):
        if _enabled():
            _front_end_error(src, e)

    make_ir = wrap_make_ir(cc.ASTSource.make_ir, on_source, on_error)
    cc.ASTSource.make_ir = make_ir
    # Triton's MLIR_DUMP_PATH stream is opened once per process and shared
    # with forked children; every dump must come through fd 2 instead.
    os.environ.pop("MLIR_DUMP_PATH", None)
    _private_cache(knobs)


def _after_fork_child():
    global _lock, _active, _cap_root, _counter
    _lock = threading.Lock()
    if _active is not None and _active.open:
        # Forked while another thread was compiling: that thread does not
        # exist here; give this process its stderr back.
        try:
            os.dup2(_active.saved_fd, 2)
            sys.stderr = _active.saved_stderr
            from . import _capi
            _capi.lib().lt_stderr_restore()
        except Exception:
            pass
        _active = None
    _tls.__dict__.clear()
    _cap_root = None
    _counter = 0


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_child)


class _Finder:
    """Installs the hooks right after `import triton` finishes."""

    def find_spec(self, name, path=None, target=None):
        if name != "triton" or _installed:
            return None
        import importlib.util
        sys.meta_path.remove(self)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        loader = spec.loader

        class Loader:
            def create_module(self, s):
                return loader.create_module(s)

            def exec_module(self, module):
                loader.exec_module(module)
                try:
                    install()
                except Exception as e:
                    _say(f"WARNING: Triton tracing not installed: {type(e).__name__}: {e}")

        spec.loader = Loader()
        return spec


def activate_on_import():
    """Hooks Triton now if it is imported, else as soon as it is."""
    global _finder
    if "triton" in sys.modules and hasattr(sys.modules["triton"], "knobs"):
        install()
    elif _finder is None:
        _finder = _Finder()
        sys.meta_path.insert(0, _finder)
