"""Build the typed Cython kernels of grundy.

Compiler directives are set once, here.  ``GRUNDY_DEBUG=1`` turns bounds
checking, wraparound and initialisation checks back on (and compiles with
``-O0 -g``) for a debug test run::

    GRUNDY_DEBUG=1 python -m pip install -e '.[test]' && python -m pytest
"""
import os
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("GRUNDY_DEBUG", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "embedsignature": True,
}

compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]

extensions = [
    Extension(
        f"grundy._core.{path.stem}",
        [str(path)],
        extra_compile_args=compile_args,
    )
    for path in sorted(Path("src/grundy/_core").glob("*.pyx"))
]

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives=directives,
        include_path=["src"],
        nthreads=int(os.environ.get("GRUNDY_BUILD_JOBS", "2")),
    ),
)
