"""Build the typed Cython kernels of grundy.

The extension modules are listed by name below (the build never picks up
whatever ``.pyx`` files happen to lie in the tree), and they are cythonized
only when extensions are built, so ``python -m build --sdist`` ships the
``.pyx``/``.pxd`` sources and no generated C.

Compiler directives are set once, here.  ``GRUNDY_DEBUG=1`` turns bounds
checking, wraparound and initialisation checks back on (and compiles with
``-O0 -g``) for a debug test run::

    GRUNDY_DEBUG=1 python -m pip install '.[test]' && python -m pytest

``GRUNDY_BUILD_JOBS`` sets how many modules are cythonized and compiled at
once (default: the number of CPUs).

The kernels that run on several threads (``THREADED``) are compiled with
OpenMP when the compiler has it (``-fopenmp``, ``/openmp``), checked by
compiling a small program first; without it they build and run serially.
``GRUNDY_OPENMP=0`` builds without OpenMP on purpose.
"""
import os
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext as _build_ext

# The compiled kernels, one extension module each (src/grundy/_core/NAME.pyx).
KERNELS = ["blocks", "csr", "explore", "grundy", "loopy", "octal", "police", "retrograde",
           "serial", "source", "textio", "threaded"]
# The ones with prange loops (OpenMP threads when the compiler has them).
THREADED = ["csr", "octal", "retrograde", "threaded"]

DEBUG = os.environ.get("GRUNDY_DEBUG", "") not in ("", "0")
JOBS = int(os.environ.get("GRUNDY_BUILD_JOBS", "0")) or os.cpu_count() or 1

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "embedsignature": True,
}


def _compile_args():
    if os.name == "nt":
        return ["/Od", "/Zi"] if DEBUG else ["/O2"]
    return ["-O0", "-g"] if DEBUG else ["-O3", "-g0"]     # no debug info in wheels


class build_ext(_build_ext):
    """Cythonize the kernels (in parallel) just before they are compiled.

    Not earlier: ``sdist`` asks this command for the sources, which are the
    ``.pyx`` files, and must not generate C on the way."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = JOBS

    def run(self):
        from Cython.Build import cythonize

        generated = cythonize(
            self.extensions,
            compiler_directives=DIRECTIVES,
            include_path=["src"],
            nthreads=JOBS,
        )
        # Keep setuptools' own Extension objects; only their sources change.
        sources = {ext.name: ext.sources for ext in generated}
        for ext in self.extensions:
            ext.sources = sources[ext.name]
        super().run()

    def build_extensions(self):
        # Here the compiler object exists: try OpenMP with it.
        flags = self._openmp_flags()
        for ext in self.extensions:
            if ext.name.rsplit(".", 1)[-1] in THREADED and flags:
                ext.extra_compile_args = list(ext.extra_compile_args) + flags[0]
                ext.extra_link_args = list(ext.extra_link_args) + flags[1]
        super().build_extensions()

    def _openmp_flags(self):
        """(compile, link) flags for OpenMP if a test program builds with them, else None."""
        if os.environ.get("GRUNDY_OPENMP", "1") == "0":
            return None
        kind = self.compiler.compiler_type
        flags = (["/openmp"], []) if kind == "msvc" else (["-fopenmp"], ["-fopenmp"])
        with tempfile.TemporaryDirectory() as tmp:
            source = os.path.join(tmp, "omp.c")
            with open(source, "w") as f:
                f.write("#include <omp.h>\nint main(void) { return omp_get_max_threads() < 1; }\n")
            try:
                objects = self.compiler.compile([source], output_dir=tmp,
                                                extra_postargs=flags[0])
                self.compiler.link_executable(objects, "omp", output_dir=tmp,
                                              extra_postargs=flags[1])
            except Exception:           # CompileError, LinkError: no OpenMP here
                print("grundy: the compiler has no OpenMP; the kernels build single-threaded")
                return None
        return flags


setup(
    ext_modules=[
        Extension(f"grundy._core.{name}", [f"src/grundy/_core/{name}.pyx"],
                  extra_compile_args=_compile_args())
        for name in KERNELS
    ],
    cmdclass={"build_ext": build_ext},
)
