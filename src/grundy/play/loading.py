"""Loading a user's game for ``grundy play game SPEC``: a dotted name
(``package.module:Class``), or a Python file (``path/to/file.py:Class``).
"""
from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import re
import sys
from collections.abc import Iterator
from typing import Any


from grundy._common import (shorten)
from grundy.engine.rules import BatchGame, Game
from grundy.play.rules import has_rules

__all__ = ["load_game"]


_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
"""A dotted Python name (a module's, or a class's in it)."""


def load_game(spec: str) -> Any:
    """The game named ``MODULE:CLASS`` (or ``FILE.py:CLASS``), instantiated with no arguments.

    A module is imported with the current directory first on the import
    path; a file is loaded from its path (its directory first on the path).

    Parameters
    ----------
    spec : str
        ``MODULE:CLASS`` (``MODULE`` dotted, ``CLASS`` possibly dotted too)
        or ``PATH.py:CLASS``.

    Returns
    -------
    object
        ``CLASS()``: a :class:`grundy.Game` or :class:`grundy.BatchGame`, or
        any object with ``start()`` and ``moves(position)``.

    Raises
    ------
    TypeError
        If ``spec`` is not a string.
    ValueError
        If it is malformed, the module or file cannot be found or imported,
        it has no such class, the constructor fails, or what it makes is
        not a game (each message says which).

    Examples
    --------
    >>> load_game("grundy.engine.rules:Game")
    <grundy.engine.rules.Game object at ...>
    >>> load_game("grundy.engine.rules:Nothing")
    Traceback (most recent call last):
    ...
    ValueError: module 'grundy.engine.rules' has no class 'Nothing'
    """
    if not isinstance(spec, str):
        raise TypeError(f"a game is named by a string MODULE:CLASS, got {shorten(spec)}")
    where, _, name = spec.rpartition(":")
    if not where or not _DOTTED.fullmatch(name):
        raise ValueError(f"expected MODULE:CLASS or FILE.py:CLASS, got {shorten(spec)}")
    if where.endswith(".py") or os.sep in where or "/" in where:
        module = _load_file(where)
    else:
        module = _import(where)
    obj: Any = module
    for part in name.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"module {where!r} has no class {name!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise ValueError(f"{name!r} in {where!r} is not a class (it is {shorten(obj, 40)})")
    try:
        game = obj()
    except Exception as exc:
        raise ValueError(f"{name}() failed: {type(exc).__name__}: {exc} (the game's class "
                         f"is made with no arguments)") from None
    if not (isinstance(game, (Game, BatchGame)) or has_rules(game)):
        raise ValueError(f"{spec} is not a game: it needs start() and moves(position) "
                         f"(see grundy.Game)")
    return game


def _import(name: str) -> Any:
    if not _DOTTED.fullmatch(name):
        raise ValueError(f"{shorten(name)} is not a module name (nor a FILE.py)")
    with _on_path(os.getcwd()):
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
                raise ValueError(f"no module named {name!r} (looked in the current "
                                 f"directory and the Python path)") from None
            raise ValueError(f"importing {name!r} failed: {type(exc).__name__}: "
                             f"{exc}") from None
        except Exception as exc:
            raise ValueError(f"importing {name!r} failed: {type(exc).__name__}: "
                             f"{exc}") from None


@contextlib.contextmanager
def _on_path(folder: str) -> Iterator[None]:
    """``folder`` first on the import path while the block runs (unless it is there)."""
    added = folder not in sys.path and not (folder == os.getcwd() and "" in sys.path)
    if added:
        sys.path.insert(0, folder)
    try:
        yield
    finally:
        if added and folder in sys.path:
            sys.path.remove(folder)


def _load_file(path: str) -> Any:
    if not os.path.isfile(path):
        raise ValueError(f"no such file {path!r}")
    stem = os.path.splitext(os.path.basename(path))[0]
    # A name of its own: a file called random.py must not replace the module random.
    name = f"grundy_game_{re.sub(r'[^A-Za-z0-9_]', '_', stem)}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"cannot load {path!r} as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module          # for dataclasses and the like, while it runs
    try:
        with _on_path(os.path.dirname(os.path.abspath(path))):
            spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise ValueError(f"loading {path!r} failed: {type(exc).__name__}: {exc}") from None
    return module
