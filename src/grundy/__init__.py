"""grundy: exact solvers for two-player games.

Win/loss/draw with remoteness and optimal moves on any directed graph
(cycles allowed), by retrograde analysis in time linear in the edges.

>>> import grundy
>>> g = grundy.GameGraph.from_edges([(0, 1), (1, 2)])
>>> g.solve().outcome.tolist()
[-1, 1, -1]
"""
from grundy._common import DRAW, LOSS, NO_MOVE, WIN, CycleError, Outcome
from grundy.graph import GameGraph, Solution
from grundy.loopy import LoopyGrundy, LoopyValue, loopy_sum
from grundy.impartial import ImpartialGame, Sum, grundy_sum
from grundy.octal import (GrundysGame, HexGame, OctalGame, Periodicity, RareCommon,
                          SubtractionGame, TakeAndBreakGame, crosses_crosses)
from grundy.police import BoardError, PoliceThief, PoliceThiefSolution
from grundy.nim import nim_move, nim_moves, nim_outcome, nim_sum

__version__ = "0.1.0"

__all__ = [
    "Outcome", "WIN", "LOSS", "DRAW", "NO_MOVE", "CycleError",
    "GameGraph", "Solution",
    "ImpartialGame", "Sum", "grundy_sum",
    "LoopyValue", "LoopyGrundy", "loopy_sum",
    "nim_sum", "nim_outcome", "nim_moves", "nim_move",
    "PoliceThief", "PoliceThiefSolution", "BoardError",
    "OctalGame", "HexGame", "GrundysGame", "SubtractionGame", "TakeAndBreakGame",
    "Periodicity", "RareCommon", "crosses_crosses",
]
