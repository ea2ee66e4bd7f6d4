"""lowertrace for Python: the seed's API over the C++ engine.

    import lowertrace
    lowertrace.enable(mode="html", trace_dir="./traces")   # or TL_LOWER_TRACE=1
    ... compile Triton kernels ...
    run = lowertrace.read_run("./traces/add_kernel")        # newest run of a kernel
    for r in run.records: print(r.index, r.phase, r.name, r.status, r.changed)

Arguments of enable() follow the seed's unset-versus-None rules: an argument
left out falls back to the environment (TL_LOWER_TRACE, TL_LOWER_TRACE_DIR);
None means off (mode), the default directory (trace_dir), never write a
working copy (codegen_output). Every Triton kernel the process compiles is
traced, one run per compiled variant (lowertrace._triton).
"""
import json
import os

from . import _capi

__all__ = ["enable", "disable", "reset", "config", "read_run", "variants", "LowerRecord", "Run",
           "STATUS_COMPLETED", "STATUS_FAILED", "STATUS_SKIPPED", "STATUS_CODEGEN"]

STATUS_COMPLETED = "completed"
STATUS_FAILED = "failed"
STATUS_SKIPPED = "skipped"
STATUS_CODEGEN = "codegen"

_UNSET = object()


def _arg(v):
    if v is _UNSET:
        return _capi.UNSET, None
    if v is None:
        return _capi.NONE, None
    return _capi.VALUE, str(v)


def enable(mode=_UNSET, trace_dir=_UNSET, codegen_output=_UNSET):
    """Turns tracing on for compiles from now on (see the module docstring)."""
    a = []
    for v in (mode, trace_dir, codegen_output):
        a += list(_arg(v))
    _capi.lib().lt_enable(*[x.encode() if isinstance(x, str) else x for x in a])
    from . import _triton
    _triton.activate_on_import()


def disable():
    """Turns tracing off until enable() is called again."""
    _capi.lib().lt_disable()


def reset():
    """Ends the current run of this thread's session, if any, and clears its records."""
    _capi.lib().lt_reset()


def config():
    """What a compile starting now would use: {"mode", "trace_dir", "codegen_output"}."""
    return _capi.call_json("lt_config_json")


class LowerRecord:
    """One pass (or codegen step) of a run; the seed's fields plus extensions.
    before/after texts are read from the run's raw files when first asked for."""

    __slots__ = ("phase", "name", "index", "changed", "add_lines", "del_lines", "status", "error_msg",
                 "before_known", "depth", "parent_index", "wall_ms", "anchor", "ir_lang", "lang", "detail",
                 "_run_dir", "_before_file", "_after_file", "_texts")

    def __init__(self, run_dir, j):
        self._run_dir = run_dir
        for f in ("phase", "name", "anchor", "ir_lang", "lang", "detail", "error_msg"):
            setattr(self, f, j.get(f) or "")
        self.index = j.get("index", 0)
        self.changed = bool(j.get("changed", False))
        self.add_lines = j.get("add_lines", 0)
        self.del_lines = j.get("del_lines", 0)
        self.status = j.get("status", STATUS_COMPLETED)
        self.before_known = j.get("before_known", True)
        self.depth = j.get("depth", 0)
        p = j.get("parent_index")
        self.parent_index = -1 if p is None else p
        self.wall_ms = j.get("wall_ms")
        self._before_file = (j.get("before_text") or {}).get("file")
        self._after_file = (j.get("after_text") or {}).get("file")
        self._texts = {}

    def _text(self, f):
        if not f:
            return ""
        if f not in self._texts:
            with open(os.path.join(self._run_dir, f), encoding="utf-8", errors="replace") as fh:
                self._texts[f] = fh.read()
        return self._texts[f]

    @property
    def before(self):
        return self._text(self._before_file)

    @property
    def after(self):
        return self._text(self._after_file)

    def __repr__(self):
        return f"LowerRecord({self.index}, {self.phase}/{self.name}, {self.status}, changed={self.changed})"


class Run:
    """A run read back: its folder, trace.json facts and records."""

    def __init__(self, j):
        self.run_dir = j["run_dir"]
        t = j["trace"]
        self.script, self.run_id, self.tool = t.get("script", ""), t.get("run_id", ""), t.get("tool", "")
        self.input, self.error = t.get("input", ""), t.get("error", "")
        self.records = [LowerRecord(self.run_dir, r) for r in t.get("records", [])]

    def __repr__(self):
        return f"Run({self.script}, {self.run_id}, {len(self.records)} records)"


def read_run(path):
    """A run folder, its trace.json, or a kernel folder (its newest run)."""
    j = _capi.call_json("lt_read_run_json", os.fspath(path))
    if "error" in j:
        raise FileNotFoundError(j["error"])
    return Run(j)


def variants(kernel_dir):
    """The compiled variants of one kernel (its folder in the trace directory),
    each a dict: variant, describe{hash, constexprs, signature, num_warps, ...},
    run_id, working_copy, records, error, edited; plus "run": the Run."""
    d = os.path.join(os.fspath(kernel_dir), ".variants")
    out = []
    for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if f.endswith(".json"):
            with open(os.path.join(d, f)) as fh:
                v = json.load(fh)
            rd = os.path.join(os.fspath(kernel_dir), ".run_records", v.get("run_id", ""))
            v["run"] = read_run(rd) if os.path.exists(os.path.join(rd, "trace.json")) else None
            out.append(v)
    return out
