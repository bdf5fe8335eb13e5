"""grundy: exact solvers for two-player games.

Win/loss/draw with remoteness and optimal moves on any directed graph
(cycles allowed), by retrograde analysis in time linear in the edges.

>>> import grundy
>>> g = grundy.GameGraph.from_edges([(0, 1), (1, 2)])
>>> sol = g.solve()
>>> sol.outcome.tolist(), sol[0]
([-1, 1, -1], Evaluation(LOSS, remoteness=2, move=1))

The public names are loaded on first use (``import grundy`` itself imports
nothing heavy), so the command line starts fast and reports Ctrl-C or a
broken installation during its imports like any other failure.

The package is built in layers, each importing only from those below it
(``tests/test_layers.py`` keeps it so)::

    front-ends   grundy.cli, grundy.play, grundy.plot, grundy.distributed (and this module)
    games        grundy.games (police and thief), grundy.impartial (Nim, Grundy values,
                 take-and-break games, misère quotients)
    engine       grundy.engine (solutions, graphs, games from their rules, compiled
                 sources, the saved-file format)
    common       grundy._common, grundy._progress, grundy._version
    kernels      grundy._core (typed Cython; the plug-in contract: grundy/plugin.pxd)
"""
from __future__ import annotations

import importlib
import os
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from grundy._version import __version__

# Public name -> the module that defines it.
_EXPORTS = {
    "Outcome": "grundy._common", "WIN": "grundy._common", "LOSS": "grundy._common",
    "DRAW": "grundy._common", "TIE": "grundy._common", "NO_MOVE": "grundy._common",
    "CycleError": "grundy._common", "MemoryLimitError": "grundy._common",
    "NoMoveType": "grundy._common",
    "Solution": "grundy.engine.solution", "Evaluation": "grundy.engine.solution",
    "GameGraph": "grundy.engine.graph", "GraphSolution": "grundy.engine.graph",
    "LoopyValues": "grundy.engine.graph",
    "Game": "grundy.engine.rules", "BatchGame": "grundy.engine.rules",
    "GameSolution": "grundy.engine.rules", "solve_game": "grundy.engine.rules",
    "SourceSolution": "grundy.engine.source", "solve_source": "grundy.engine.source",
    "Sum": "grundy.engine.positions",
    "LoopyValue": "grundy.engine.loopy", "loopy_sum": "grundy.engine.loopy",
    "FileFormatError": "grundy.engine.store",
    "ImpartialGame": "grundy.impartial.game", "grundy_sum": "grundy.impartial.game",
    "nim_sum": "grundy.impartial.nim", "nim_outcome": "grundy.impartial.nim",
    "nim_moves": "grundy.impartial.nim", "nim_move": "grundy.impartial.nim",
    "OctalGame": "grundy.impartial.octal.game", "HexGame": "grundy.impartial.octal.game",
    "GrundysGame": "grundy.impartial.octal.game",
    "SubtractionGame": "grundy.impartial.octal.game",
    "TakeAndBreakGame": "grundy.impartial.octal.game",
    "misere_quotient": "grundy.impartial.octal.game",
    "Periodicity": "grundy.impartial.octal.period",
    "RareCommon": "grundy.impartial.octal.stats",
    "MisereQuotient": "grundy.impartial.octal.quotient",
    "QuotientTooLarge": "grundy.impartial.octal.quotient",
    "PoliceThief": "grundy.games.police", "PoliceThiefSolution": "grundy.games.police",
    "PolicePosition": "grundy.games.police", "BoardError": "grundy.games.police",
}

__all__ = list(_EXPORTS) + ["load", "get_include"]

if TYPE_CHECKING:                  # what the lazy loading below provides, for type checkers
    # (``X as X``: re-exported, so ``from grundy import X`` type-checks in user code)
    from grundy._common import DRAW as DRAW, LOSS as LOSS, NO_MOVE as NO_MOVE, TIE as TIE
    from grundy._common import WIN as WIN, CycleError as CycleError
    from grundy._common import MemoryLimitError as MemoryLimitError, NoMoveType as NoMoveType
    from grundy._common import Outcome as Outcome
    from grundy.engine.graph import GameGraph as GameGraph, GraphSolution as GraphSolution
    from grundy.engine.graph import LoopyValues as LoopyValues
    from grundy.engine.loopy import LoopyValue as LoopyValue, loopy_sum as loopy_sum
    from grundy.engine.positions import Sum as Sum
    from grundy.engine.rules import BatchGame as BatchGame, Game as Game
    from grundy.engine.rules import GameSolution as GameSolution, solve_game as solve_game
    from grundy.engine.solution import Evaluation as Evaluation, Solution as Solution
    from grundy.engine.source import SourceSolution as SourceSolution
    from grundy.engine.source import solve_source as solve_source
    from grundy.engine.store import FileFormatError as FileFormatError
    from grundy.games.police import BoardError as BoardError, PolicePosition as PolicePosition
    from grundy.games.police import PoliceThief as PoliceThief
    from grundy.games.police import PoliceThiefSolution as PoliceThiefSolution
    from grundy.impartial.game import ImpartialGame as ImpartialGame
    from grundy.impartial.game import grundy_sum as grundy_sum
    from grundy.impartial.nim import nim_move as nim_move, nim_moves as nim_moves
    from grundy.impartial.nim import nim_outcome as nim_outcome, nim_sum as nim_sum
    from grundy.impartial.octal.game import GrundysGame as GrundysGame, HexGame as HexGame
    from grundy.impartial.octal.game import OctalGame as OctalGame
    from grundy.impartial.octal.game import SubtractionGame as SubtractionGame
    from grundy.impartial.octal.game import TakeAndBreakGame as TakeAndBreakGame
    from grundy.impartial.octal.game import misere_quotient as misere_quotient
    from grundy.impartial.octal.period import Periodicity as Periodicity
    from grundy.impartial.octal.quotient import MisereQuotient as MisereQuotient
    from grundy.impartial.octal.quotient import QuotientTooLarge as QuotientTooLarge
    from grundy.impartial.octal.stats import RareCommon as RareCommon

# Submodules reachable as attributes (``grundy.plot``), imported on first use.
_SUBMODULES = {"cli", "engine", "games", "impartial", "play", "plot", "distributed"}

# What each kind of saved file is rebuilt as: kind -> (module, class).
_SAVED_KINDS = {
    "graph": ("grundy.engine.graph", "GraphSolution"),
    "police": ("grundy.games.police", "PoliceThiefSolution"),
    "game": ("grundy.engine.rules", "GameSolution"),
    "take-and-break": ("grundy.impartial.octal.game", "TakeAndBreakGame"),
    "loopy": ("grundy.engine.graph", "LoopyValues"),
}


def __getattr__(name: str) -> Any:
    if name in _SUBMODULES:
        return importlib.import_module(f"grundy.{name}")
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'grundy' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value                     # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def load(path: str | os.PathLike[str], *, mmap: bool = False, verify: bool = True,
         max_memory: int | None = None) -> Any:
    """A solution (or value sequence) saved with ``save(path)``.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    mmap : bool, default False
        Map the arrays read-only from the file instead of reading them:
        a solution larger than memory answers queries from the pages it
        touches.  Position names (looked up in a hash table), a
        take-and-break game's values (which grow in place) and a loopy
        solution's derived arrays are read into memory all the same, and
        a graph's structure is checked by one pass over it.  Replacing the
        file by a new one (``save``, ``mv``) is safe while it is mapped;
        overwriting it in place (``cp``, ``numpy.savez``) is not: the
        process then dies of SIGBUS at its next read.
    verify : bool, default True
        With ``mmap=True``: check every member's CRC-32 and every value's
        range in one streaming pass first (reads the file once, keeps none
        of it).  ``False`` opens at once, but a damaged byte inside the
        arrays then goes unnoticed (a wrong answer, or an error at query
        time).  Without ``mmap`` the checks are always made.
    max_memory : int, optional
        Bytes the arrays read into memory may take (default: the memory
        available); a larger file is refused before it is read.

    Returns
    -------
    GraphSolution, PoliceThiefSolution, GameSolution, TakeAndBreakGame or LoopyValues
        What was saved.

    Raises
    ------
    FileNotFoundError, PermissionError, IsADirectoryError
        If the file cannot be opened.
    FileFormatError
        If it is not a saved grundy file, is damaged (truncated, a changed
        byte, an edited header), or was written by a newer format version.
    MemoryLimitError
        If reading it would need more than ``max_memory``.

    Examples
    --------
    >>> import grundy, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "board.npz")
    >>> grundy.PoliceThief.parse("1 4\\nP.ET").solve().save(path)
    >>> sol = grundy.load(path, mmap=True)
    >>> sol.result, sol.board.rows
    ('The thief escapes', ('P.ET',))
    """
    from grundy.engine import store

    return store.load(path, _SavedKinds(), mmap=mmap, verify=verify, max_memory=max_memory)


class _SavedKinds(Mapping[str, Any]):
    """Kind -> the ``_from_saved`` of its class, its module imported when asked."""

    def __getitem__(self, kind: str) -> Any:
        module, cls = _SAVED_KINDS[kind]
        return getattr(importlib.import_module(module), cls)._from_saved

    def __iter__(self) -> Iterator[str]:
        return iter(_SAVED_KINDS)

    def __len__(self) -> int:
        return len(_SAVED_KINDS)


def get_include() -> str:
    """The directory to give a compiled plug-in's build so that it finds
    ``grundy/plugin.pxd`` (``include_path`` of ``cythonize``, and the
    extension's ``include_dirs``).

    Returns
    -------
    str

    Examples
    --------
    >>> import grundy, os
    >>> os.path.isfile(os.path.join(grundy.get_include(), "grundy", "plugin.pxd"))
    True
    """
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
