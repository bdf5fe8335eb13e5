"""Tic-tac-toe, solved from its rules with the per-position protocol.

A position is a 9-character string, the cells row by row, seen by the
player to move: ``"x"`` marks its own stones, ``"o"`` the opponent's, ``"."``
an empty cell.  A move puts an ``x`` on an empty cell and hands the board
over, colours swapped, so the next player again plays ``x``.  (Who is
"X" in the usual sense follows from the number of stones: an even number
means X is to move.)

The game is over when the opponent (who just moved) has three in a row,
a LOSS for the player to move, or when the board is full, a TIE.

With ``symmetry=True`` the game also gives ``canonical``: the smallest of
the 8 images of the board under the symmetries of the square, so that
:func:`grundy.solve_game` keeps one position per symmetry class.

>>> sol = grundy.solve_game(TicTacToe())
>>> sol.n_positions, sol[sol.start].outcome
(5478, TIE)
>>> sym = grundy.solve_game(TicTacToe(symmetry=True))
>>> sym.n_positions, sym["o........"][:2] == sol["o........"][:2]
(765, True)

Run ``python tictactoe.py`` for a summary.
"""
from __future__ import annotations

import operator
import sys

import grundy

__all__ = ["TicTacToe", "LINES", "SYMMETRIES", "render", "main"]

LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8),
         (0, 4, 8), (2, 4, 6))
"""The 8 lines of three cells (cells numbered 0..8 row by row)."""


def _symmetries() -> tuple[tuple[int, ...], ...]:
    """The 8 symmetries of the square as cell permutations: image[i] is the
    cell whose content lands on cell i."""
    def rotate(p: tuple[int, ...]) -> tuple[int, ...]:      # a quarter turn
        return tuple(p[3 * (2 - c) + r] for r in range(3) for c in range(3))

    def mirror(p: tuple[int, ...]) -> tuple[int, ...]:      # left <-> right
        return tuple(p[3 * r + 2 - c] for r in range(3) for c in range(3))

    out = []
    p = tuple(range(9))
    for _ in range(4):
        out += [p, mirror(p)]
        p = rotate(p)
    assert len(set(out)) == 8
    return tuple(out)


SYMMETRIES = _symmetries()
_IMAGES = [operator.itemgetter(*image) for image in SYMMETRIES]
_SWAP = str.maketrans("xo", "ox")


class TicTacToe(grundy.Game):
    """Tic-tac-toe on boards seen by the player to move (see the module docstring).

    Parameters
    ----------
    symmetry : bool, default False
        Identify boards that are the same under a rotation or reflection
        (``canonical``).
    """

    def __init__(self, *, symmetry: bool = False) -> None:
        self.symmetry = symmetry
        if symmetry:
            # Without this attribute solve_game keeps every board as it is.
            self.canonical = self.smallest_image

    def start(self) -> str:
        return "." * 9

    def moves(self, board: str) -> list[str]:
        # Play x on cell i, then swap the colours: the new stone becomes an o.
        swapped = board.translate(_SWAP)
        return [swapped[:i] + "o" + swapped[i + 1:] for i, cell in enumerate(board)
                if cell == "."]

    def primitive(self, board: str) -> grundy.Outcome | None:
        for a, b, c in LINES:
            if board[a] == board[b] == board[c] == "o":
                return grundy.LOSS
        if "." not in board:
            return grundy.TIE
        return None

    def smallest_image(self, board: str) -> str:
        """The smallest of the 8 images of ``board`` under the symmetries of
        the square: one board per symmetry class (``canonical`` with
        ``symmetry=True``)."""
        return min("".join(image(board)) for image in _IMAGES)


def render(board: str) -> str:
    """The board in the usual colours (X moves first), one line per row."""
    x_to_move = (9 - board.count(".")) % 2 == 0
    table = str.maketrans("xo", "XO" if x_to_move else "OX")
    text = board.translate(table)
    return "\n".join(text[r:r + 3] for r in (0, 3, 6))


def main(argv: list[str] | None = None) -> int:
    """Solve tic-tac-toe with and without symmetry and print a summary."""
    solutions = {}
    for symmetry in (False, True):
        sol = solutions[symmetry] = grundy.solve_game(TicTacToe(symmetry=symmetry))
        counts = ", ".join(f"{o.name} {n}" for o, n in sol.counts().items() if n)
        print(f"symmetry={symmetry}: {sol.n_positions:,} positions ({counts})")
    sol = solutions[False]          # its line shows the boards as played, not their images
    print(f"start: {sol[sol.start]}")
    line = sol.line()
    print(f"a line of perfect play ({len(line) - 1} moves):")
    for row in range(3):
        print("   ".join(render(board).split("\n")[row] for board in line))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
