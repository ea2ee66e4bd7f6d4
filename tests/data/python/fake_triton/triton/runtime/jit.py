import inspect
import textwrap

from ..compiler.compiler import ASTSource, compile


class JITFunction:
    def __init__(self, fn):
        self.fn = fn
        self.__name__ = fn.__name__
        self.arg_names = list(inspect.signature(fn).parameters)
        self.src = textwrap.dedent(inspect.getsource(fn))
        self.cache = {}

    def __getitem__(self, grid):
        return lambda *args, **kw: self.run(*args, **kw)

    def run(self, *args, num_warps=4, num_stages=3, **constexprs):
        sig = {}
        for name, a in zip(self.arg_names, args):
            sig[name] = getattr(a, "dtype", None) or ("i32" if isinstance(a, int) else "fp32")
        for name in constexprs:
            sig[name] = "constexpr"
        key = (tuple(sorted(sig.items())), tuple(sorted(constexprs.items())), num_warps, num_stages)
        if key not in self.cache:
            self.cache[key] = compile(ASTSource(self, sig, constexprs),
                                      options={"num_warps": num_warps, "num_stages": num_stages})
        return self.cache[key].run()


def jit(fn):
    return JITFunction(fn)


class Config:
    def __init__(self, kwargs, num_warps=4, num_stages=3):
        self.kwargs, self.num_warps, self.num_stages = kwargs, num_warps, num_stages


class Autotuner:
    def __init__(self, fn, configs):
        self.fn, self.configs = fn, configs
        self.__name__ = fn.__name__

    def __getitem__(self, grid):
        def launch(*args, **kw):
            # Benchmarks every config once (compiling each), keeps the first.
            ran = [self.fn.run(*args, num_warps=c.num_warps, num_stages=c.num_stages, **c.kwargs, **kw)
                   for c in self.configs]
            return ran[0]
        return launch


def autotune(configs, key=None):
    return lambda fn: Autotuner(fn, configs)
