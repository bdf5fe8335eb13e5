"""Build the Wythoff plug-in against the installed grundy:

    python setup.py build_ext --inplace

(Cython and a C compiler needed; ``grundy.get_include()`` is where
``grundy/plugin.pxd`` lies.)
"""
import grundy
from Cython.Build import cythonize
from setuptools import Extension, setup

setup(
    name="wythoff",
    ext_modules=cythonize(
        [Extension("wythoff", ["wythoff.pyx"], include_dirs=[grundy.get_include()])],
        include_path=[grundy.get_include()],
    ),
)
