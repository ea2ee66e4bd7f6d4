"""pip install ./python  (set LOWERTRACE_LIB to the built liblowertrace_c.so, or
build first: the library is taken from ../build/lib/ when present).

Installs the `lowertrace` package, the `_lowertrace_boot` module and
lowertrace.pth in site-packages: the .pth runs one cheap line at every Python
start-up and does nothing unless TL_LOWER_TRACE/LOWER_TRACE is set."""
import glob
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


class BuildPy(build_py):
    def run(self):
        super().run()
        # The .pth goes to the top of site-packages (where site.py reads it).
        shutil.copy(os.path.join(HERE, "lowertrace.pth"), os.path.join(self.build_lib, "lowertrace.pth"))
        lib = os.environ.get("LOWERTRACE_LIB") or os.path.join(HERE, "..", "build", "lib", "liblowertrace_c.so")
        if os.path.exists(lib):
            dst = os.path.join(self.build_lib, "lowertrace", "lib")
            os.makedirs(dst, exist_ok=True)
            shutil.copy(lib, os.path.join(dst, "liblowertrace_c.so"))
            # Debian libraries carried next to it (machines without the packages).
            for extra in glob.glob(os.path.join(os.path.dirname(lib), "lib*.so.*")):
                shutil.copy(extra, dst)
        else:
            print(f"lowertrace: {lib} not found; set LOWERTRACE_LIB at run time")


setup(
    name="lowertrace",
    version="0.1.0",
    description="Per-pass IR traces of Triton kernels (and MLIR/LLVM compiles), backed by the lowertrace engine",
    packages=["lowertrace", "lowertrace._frontend"],
    py_modules=["_lowertrace_boot"],
    python_requires=">=3.8",
    cmdclass={"build_py": BuildPy},
    zip_safe=False,
)
