"""The distributions: the sdist holds the sources and no generated C, the
wheel built from it holds the compiled modules and no C or .pyx, and that
wheel installs into a fresh virtual environment with no compiler on PATH,
where the sdist's own CLI tests pass against it.

Slow (it compiles the package once, about a minute on two cores); skipped
only when the ``build`` front end is not installed.
"""
import importlib.util
import os
import subprocess
import sys
import tarfile
import venv
import zipfile

import pytest

import grundy
from locations import ROOT

KERNELS = ["blocks", "csr", "explore", "grundy", "loopy", "octal", "police", "retrograde",
           "serial", "source", "textio", "threaded"]
# What a plug-in cimports: the public contract and the declarations it names.
PLUGIN_PXD = ["grundy/plugin.pxd", "grundy/_core/source.pxd", "grundy/_core/states.pxd",
              "grundy/_core/_typedefs.pxd"]

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(importlib.util.find_spec("build") is None,
                                 reason="the 'build' front end is not installed")]


@pytest.fixture(scope="module")
def dists(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    # sdist first, then the wheel built from the unpacked sdist.
    proc = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), ROOT],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    sdist = next(out.glob("*.tar.gz"))
    wheel = next(out.glob("*.whl"))
    return sdist, wheel


def test_sdist_has_the_sources_and_nothing_generated(dists):
    sdist, _ = dists
    with tarfile.open(sdist) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    for k in KERNELS:
        assert f"src/grundy/_core/{k}.pyx" in names
    for needed in ["src/" + pxd for pxd in PLUGIN_PXD] + [
            "src/grundy/_core/csr.pxd", "tests/conftest.py", "tests/reference.py",
            "examples/police.txt", "examples/graph.txt", "examples/plugin/wythoff.pyx",
            "examples/plugin/setup.py", "LICENSE", "README.md", "pyproject.toml", "setup.py",
            ".ci/run"]:
        assert needed in names, needed
    assert not [n for n in names if n.endswith((".c", ".so", ".pyd", ".o"))]


def test_wheel_has_compiled_modules_only(dists):
    _, wheel = dists
    with zipfile.ZipFile(wheel) as whl:
        names = whl.namelist()
    assert not [n for n in names if n.endswith((".c", ".pyx"))]
    for k in KERNELS:
        assert any(n.startswith(f"grundy/_core/{k}.") and n.endswith((".so", ".pyd"))
                   for n in names), k
    for pxd in PLUGIN_PXD:                                  # for plug-ins to cimport
        assert pxd in names, pxd
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
    with zipfile.ZipFile(wheel) as whl:
        text = whl.read(meta).decode()
    assert "License-Expression: MIT" in text
    assert f"Version: {grundy.__version__}" in text
    assert "Requires-Python: >=3.10" in text and "Classifier: " in text


def test_wheel_installs_without_a_compiler_and_passes_the_cli_tests(dists, tmp_path):
    sdist, wheel = dists
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    bindir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    python = str(bindir / "python")
    # Only the venv on PATH, and compilers that fail: nothing can be compiled.
    env = {**os.environ, "PATH": str(bindir), "CC": "false", "CXX": "false",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    env.pop("PYTHONPATH", None)
    proc = subprocess.run([python, "-m", "pip", "install", "--quiet", "--only-binary=:all:",
                           str(wheel), "pytest"], capture_output=True, text=True, env=env,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    src = tmp_path / "sdist"
    with tarfile.open(sdist) as tar:
        tar.extractall(src, filter="data") if hasattr(tarfile, "data_filter") else tar.extractall(src)
    root = next(src.iterdir())
    proc = subprocess.run([str(bindir / "grundy"), "police", str(root / "examples" / "police.txt")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert (proc.returncode, proc.stdout) == (0, "The thief escapes\n"), proc.stderr
    # The sdist's own command-line tests, run against the installed wheel.
    proc = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests/cli/test_cli.py"], cwd=root, capture_output=True, text=True,
                          env=env, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert " passed" in proc.stdout
