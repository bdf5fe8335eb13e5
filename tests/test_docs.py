"""The examples in the docstrings of the installed package run and are right."""
import doctest
import importlib
import pkgutil

import pytest

import grundy
from locations import ROOT

MODULES = sorted(
    name for _, name, _ in pkgutil.walk_packages(grundy.__path__, "grundy.")
    if name != "grundy.__main__"
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_installed_not_source_tree():
    # The tests must exercise the built package, with its compiled kernels.
    from grundy._core import retrograde
    assert retrograde.__file__.endswith((".so", ".pyd"))


def test_readme_python_examples_run(monkeypatch):
    import os
    import re
    root = ROOT
    with open(os.path.join(root, "README.md")) as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    assert blocks
    monkeypatch.chdir(root)
    namespace = {}
    for block in blocks:
        exec(block, namespace)
    assert namespace["sol"].result == "The thief escapes"
    assert namespace["game"].values(range(12)).tolist() == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
