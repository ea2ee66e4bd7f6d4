"""Run at interpreter start by lowertrace.pth: does nothing unless
TL_LOWER_TRACE (or LOWER_TRACE) is set and on; then it arranges for every
Triton kernel this process compiles to be traced. It never stops Python from
starting: any failure is one warning line."""
import os

_v = os.environ.get("TL_LOWER_TRACE")
if _v is None:
    _v = os.environ.get("LOWER_TRACE")
if _v is not None and _v.strip().lower() not in ("", "0", "off", "false", "no"):
    try:
        from lowertrace import _triton
        _triton.activate_on_import()
    except Exception as _e:  # never break start-up
        try:
            os.write(2, f"  [lower_trace] WARNING: Triton tracing not activated: {type(_e).__name__}: {_e}\n".encode())
        except OSError:
            pass
