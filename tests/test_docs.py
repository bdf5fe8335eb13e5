"""The examples in the docstrings of the installed package run and are right."""
import doctest
import importlib
import pkgutil

import pytest

import grundy

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
