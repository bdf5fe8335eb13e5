"""Cat and mouse on a graph (the programming-contest problem, LeetCode 913).

An undirected graph is given by its adjacency lists.  The mouse starts on
node 1, the cat on node 2, and the hole is node 0.  They move in turn, the
mouse first, each along an edge (no passing); the cat may not enter the
hole.  The mouse wins by reaching the hole, the cat by stepping on the
mouse; if neither can force that, play goes on forever: a draw.  The
answer is 1 if the mouse wins, 2 if the cat wins, 0 for a draw.

The positions are ``(mouse, cat, mouse_to_move)``.  Endless play needs
nothing special: :func:`grundy.solve_game` finds the draws itself (the
positions neither side can force a result from).

>>> cat_mouse_game([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]])
0
>>> cat_mouse_game([[1, 3], [0], [3], [0, 2]])
1

Run ``python cat_mouse.py`` for the two samples, or
``python cat_mouse.py '[[1, 3], [0], [3], [0, 2]]'`` for a graph of your own.
"""
from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import cast

import grundy

__all__ = ["CatMouse", "cat_mouse_game", "SAMPLES", "main"]

HOLE, MOUSE_START, CAT_START = 0, 1, 2
MOUSE_WINS, CAT_WINS, DRAW = 1, 2, 0

SAMPLES = (
    ([[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]], DRAW),
    ([[1, 3], [0], [3], [0, 2]], MOUSE_WINS),
)
"""The contest's two sample graphs with their expected answers."""

Position = tuple[int, int, bool]


class CatMouse(grundy.Game):
    """The game on one graph; positions are ``(mouse, cat, mouse_to_move)``.

    Parameters
    ----------
    graph : sequence of sequences of int
        ``graph[v]``: the neighbours of node v (nodes 0..n-1, n >= 3).
    """

    def __init__(self, graph: Sequence[Sequence[int]]) -> None:
        n = len(graph)
        if n < 3:
            raise ValueError(f"the graph needs nodes 0, 1 and 2, got {n} nodes")
        self.graph = [list(neighbours) for neighbours in graph]
        for v, neighbours in enumerate(self.graph):
            for u in neighbours:
                if not (isinstance(u, int) and 0 <= u < n):
                    raise ValueError(f"graph[{v}] holds {u!r}: nodes are 0..{n - 1}")
        # The cat never enters the hole: drop it from its moves once.
        self.cat_steps = [[u for u in neighbours if u != HOLE] for neighbours in self.graph]

    def start(self) -> Position:
        return (MOUSE_START, CAT_START, True)

    def moves(self, position: Position) -> list[Position]:
        mouse, cat, mouse_to_move = position
        if mouse_to_move:
            return [(m, cat, False) for m in self.graph[mouse]]
        return [(mouse, c, True) for c in self.cat_steps[cat]]

    def primitive(self, position: Position) -> grundy.Outcome | None:
        mouse, cat, mouse_to_move = position
        if mouse == HOLE:                       # the mouse is safe: it has won
            return grundy.WIN if mouse_to_move else grundy.LOSS
        if mouse == cat:                        # the cat has caught it
            return grundy.LOSS if mouse_to_move else grundy.WIN
        return None


def answer(sol: grundy.GameSolution, position: Position | None = None) -> int:
    """1 (the mouse wins), 2 (the cat wins) or 0 (a draw) from a position of a
    solved :class:`CatMouse` (by default the start)."""
    if position is None:
        position = cast(Position, sol.start)
    outcome = sol[position].outcome
    if outcome == grundy.DRAW:
        return DRAW
    mouse_wins = (outcome == grundy.WIN) == position[2]
    return MOUSE_WINS if mouse_wins else CAT_WINS


def cat_mouse_game(graph: Sequence[Sequence[int]]) -> int:
    """The contest's answer: 1 if the mouse wins, 2 if the cat wins, 0 for a draw."""
    return answer(grundy.solve_game(CatMouse(graph)))


def main(argv: list[str] | None = None) -> int:
    """Solve the graphs given as JSON lists (default: the two samples)."""
    argv = sys.argv[1:] if argv is None else argv
    graphs = [json.loads(arg) for arg in argv] or [graph for graph, _ in SAMPLES]
    names = {MOUSE_WINS: "the mouse wins", CAT_WINS: "the cat wins", DRAW: "a draw"}
    for graph in graphs:
        sol = grundy.solve_game(CatMouse(graph))
        result = answer(sol)
        print(f"{graph}: {result} ({names[result]}; {sol.n_positions} positions)")
        if result != DRAW:
            steps = " -> ".join(f"m{m}/c{c}" for m, c, _ in sol.line())
            print(f"  perfect play: {steps}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
