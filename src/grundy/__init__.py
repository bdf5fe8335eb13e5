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
"""
import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# Public name -> the module that defines it.
_EXPORTS = {
    "Outcome": "grundy._common", "WIN": "grundy._common", "LOSS": "grundy._common",
    "DRAW": "grundy._common", "TIE": "grundy._common", "NO_MOVE": "grundy._common", "CycleError": "grundy._common",
    "MemoryLimitError": "grundy._common", "NoMoveType": "grundy._common",
    "Solution": "grundy.solution", "Evaluation": "grundy.solution",
    "GameGraph": "grundy.graph", "GraphSolution": "grundy.graph",
    "Game": "grundy.game", "BatchGame": "grundy.game", "GameSolution": "grundy.game",
    "solve_game": "grundy.game",
    "SourceSolution": "grundy.implicit", "solve_source": "grundy.implicit",
    "ImpartialGame": "grundy.impartial", "Sum": "grundy.impartial",
    "grundy_sum": "grundy.impartial",
    "LoopyValue": "grundy.loopy", "LoopyValues": "grundy.loopy", "loopy_sum": "grundy.loopy",
    "nim_sum": "grundy.nim", "nim_outcome": "grundy.nim", "nim_moves": "grundy.nim",
    "nim_move": "grundy.nim",
    "PoliceThief": "grundy.police", "PoliceThiefSolution": "grundy.police",
    "PolicePosition": "grundy.police", "BoardError": "grundy.police",
    "OctalGame": "grundy.octal", "HexGame": "grundy.octal", "GrundysGame": "grundy.octal",
    "SubtractionGame": "grundy.octal", "TakeAndBreakGame": "grundy.octal",
    "Periodicity": "grundy.octal", "RareCommon": "grundy.octal",
    "MisereQuotient": "grundy.misere", "QuotientTooLarge": "grundy.misere",
    "misere_quotient": "grundy.misere",
    "load": "grundy.store", "FileFormatError": "grundy.store",
}

__all__ = list(_EXPORTS)

if TYPE_CHECKING:                  # what the lazy loading below provides, for type checkers
    # (``X as X``: re-exported, so ``from grundy import X`` type-checks in user code)
    from grundy._common import DRAW as DRAW, LOSS as LOSS, NO_MOVE as NO_MOVE, TIE as TIE
    from grundy._common import WIN as WIN, CycleError as CycleError
    from grundy._common import MemoryLimitError as MemoryLimitError, NoMoveType as NoMoveType
    from grundy._common import Outcome as Outcome
    from grundy.game import BatchGame as BatchGame, Game as Game
    from grundy.game import GameSolution as GameSolution, solve_game as solve_game
    from grundy.graph import GameGraph as GameGraph, GraphSolution as GraphSolution
    from grundy.implicit import SourceSolution as SourceSolution, solve_source as solve_source
    from grundy.impartial import ImpartialGame as ImpartialGame, Sum as Sum
    from grundy.impartial import grundy_sum as grundy_sum
    from grundy.loopy import LoopyValue as LoopyValue, LoopyValues as LoopyValues
    from grundy.loopy import loopy_sum as loopy_sum
    from grundy.nim import nim_move as nim_move, nim_moves as nim_moves
    from grundy.nim import nim_outcome as nim_outcome, nim_sum as nim_sum
    from grundy.misere import MisereQuotient as MisereQuotient
    from grundy.misere import QuotientTooLarge as QuotientTooLarge
    from grundy.misere import misere_quotient as misere_quotient
    from grundy.octal import GrundysGame as GrundysGame, HexGame as HexGame
    from grundy.octal import OctalGame as OctalGame, Periodicity as Periodicity
    from grundy.octal import RareCommon as RareCommon, SubtractionGame as SubtractionGame
    from grundy.octal import TakeAndBreakGame as TakeAndBreakGame
    from grundy.police import BoardError as BoardError, PolicePosition as PolicePosition
    from grundy.police import PoliceThief as PoliceThief
    from grundy.police import PoliceThiefSolution as PoliceThiefSolution
    from grundy.solution import Evaluation as Evaluation, Solution as Solution
    from grundy.store import FileFormatError as FileFormatError, load as load


# Submodules reachable as attributes (``grundy.octal``), imported on first use.
_SUBMODULES = {"cli", "graph", "impartial", "loopy", "misere", "nim", "octal", "police",
               "solution", "game", "batch", "implicit", "store", "plot", "play", "distributed"}


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
