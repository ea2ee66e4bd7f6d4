import os


class _Runtime:
    add_stages_inspection_hook = None


class _Cache:
    _dir = None

    @property
    def dir(self):
        if self._dir is not None:
            return self._dir
        return os.environ.get("TRITON_CACHE_DIR", os.path.expanduser("~/.triton/cache"))

    @dir.setter
    def dir(self, v):
        self._dir = v


class _Compilation:
    listener = None

    @property
    def always_compile(self):
        return os.environ.get("TRITON_ALWAYS_COMPILE", "0") == "1"


runtime = _Runtime()
cache = _Cache()
compilation = _Compilation()
