"""Police and thief written as a game from its rules (the per-position protocol).

The same game as ``grundy police`` (:class:`grundy.PoliceThief`, a compiled
plug-in), here in a few lines of Python: a check of one against the other,
and a template for board games of your own.

The board: a line ``n m``, then n rows of m cells: ``.`` free, ``*``
blocked, ``P`` the police, ``T`` the thief, ``E`` an exit (any number).
The police moves first, to one of the 8 neighbouring free cells; the thief
to one of the 4 orthogonal ones; either may pass.  The police wins by
stepping on the thief, the thief by reaching an exit (with the police not
on it); if neither can force that, play goes on forever: a draw.

The positions are ``(police cell, thief cell, police_to_move)``, cells as
``(row, col)``: the same as the positions of :class:`grundy.PoliceThief`'s
solution.  Only the positions reachable from the start are explored.

>>> game = PoliceAndThief.parse('''3 4
... P..E
... .**.
... ...T''')
>>> sol = grundy.solve_game(game)
>>> result(sol)
'The thief escapes'

Run ``python police_protocol.py [BOARD_FILE...]`` (default: the bundled
``police*.txt`` boards) to compare with ``grundy.PoliceThief``.
"""
from __future__ import annotations

import glob
import os
import sys
import time
from collections.abc import Sequence

import grundy

__all__ = ["PoliceAndThief", "result", "main"]

Cell = tuple[int, int]
Position = tuple[Cell, Cell, bool]

KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
ROOK = [(-1, 0), (0, -1), (0, 1), (1, 0)]


class PoliceAndThief(grundy.Game):
    """Police and thief on a board given as rows of text (see the module docstring).

    Parameters
    ----------
    rows : sequence of str
        The board, one string per row, without the ``n m`` line (see
        :meth:`parse` for the whole text).
    """

    def __init__(self, rows: Sequence[str]) -> None:
        rows = list(rows)
        if not rows or any(len(row) != len(rows[0]) for row in rows) or not rows[0]:
            raise ValueError(f"the board must be non-empty rows of equal length, got {rows!r}")
        cells = {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row)}
        unknown = {ch for ch in cells.values()} - set(".*PTE")
        if unknown:
            raise ValueError(f"unknown cells {sorted(unknown)} (expected . * P T E)")
        found = {}
        for name in "PT":
            where = [cell for cell, ch in cells.items() if ch == name]
            if len(where) != 1:
                raise ValueError(f"the board must have one {name}, it has {len(where)}")
            found[name] = where[0]
        self.rows = rows
        self.police, self.thief = found["P"], found["T"]
        self.exits = frozenset(cell for cell, ch in cells.items() if ch == "E")
        free = {cell for cell, ch in cells.items() if ch != "*"}
        # Each side's steps from each free cell, computed once.
        self.police_steps = {cell: _steps(cell, KING, free) for cell in free}
        self.thief_steps = {cell: _steps(cell, ROOK, free) for cell in free}

    @classmethod
    def parse(cls, text: str) -> PoliceAndThief:
        """A board from text in the ``grundy police`` format: ``n m``, then n rows."""
        lines = [line.rstrip("\r") for line in text.strip().split("\n")]
        try:
            n, m = (int(x) for x in lines[0].split())
        except ValueError:
            raise ValueError(f"expected 'n m' on the first line, got {lines[0]!r}") from None
        rows = lines[1:]
        if len(rows) != n or any(len(row) != m for row in rows):
            raise ValueError(f"expected {n} rows of {m} cells after the first line")
        return cls(rows)

    def start(self) -> Position:
        return (self.police, self.thief, True)

    def moves(self, position: Position) -> list[Position]:
        police, thief, police_to_move = position
        if police_to_move:                      # a step, or a pass
            return [(p, thief, False) for p in self.police_steps[police]] + \
                [(police, thief, False)]
        return [(police, t, True) for t in self.thief_steps[thief]] + [(police, thief, True)]

    def primitive(self, position: Position) -> grundy.Outcome | None:
        police, thief, police_to_move = position
        if police == thief:                     # caught: the police has won
            return grundy.WIN if police_to_move else grundy.LOSS
        if thief in self.exits:                 # escaped: the thief has won
            return grundy.LOSS if police_to_move else grundy.WIN
        return None


def _steps(cell: Cell, directions: list[Cell], free: set[Cell]) -> list[Cell]:
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in directions if (r + dr, c + dc) in free]


def result(sol: grundy.GameSolution) -> str:
    """The verdict from the start, worded as ``grundy police`` words it."""
    outcome = sol[sol.start].outcome            # for the police, who moves first
    return {grundy.WIN: "Police catches the thief", grundy.LOSS: "The thief escapes",
            grundy.DRAW: "Draw"}[outcome]


def main(argv: list[str] | None = None) -> int:
    """Solve each board both ways and print the verdicts; 1 if they ever differ."""
    argv = sys.argv[1:] if argv is None else argv
    paths = argv or sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "police*.txt")))
    status = 0
    for path in paths:
        with open(path) as f:
            text = f.read()
        t0 = time.perf_counter()
        sol = grundy.solve_game(PoliceAndThief.parse(text))
        seconds = time.perf_counter() - t0
        ours, theirs = result(sol), grundy.PoliceThief.parse(text).solve().result
        agree = "agrees with" if ours == theirs else "DIFFERS from"
        print(f"{os.path.basename(path)}: {ours} (remoteness {sol[sol.start].remoteness}, "
              f"{sol.n_positions:,} positions in {seconds:.2f} s); {agree} grundy police")
        status |= ours != theirs
    return status


if __name__ == "__main__":
    sys.exit(main())
