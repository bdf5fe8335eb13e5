"""Connect Four on a small board, solved with the batch protocol.

Every position reachable from the empty board is explored and solved:
its outcome for the player to move, its remoteness (moves to the end with
perfect play) and a best move.  The rules are numpy functions over arrays
of int64 codes (:class:`grundy.BatchGame`), so the exploration calls them
once per batch of many thousand positions, not once per position.

The code of a position is the classic bitboard of Connect Four programs.
Cell (row r, column c), row 0 at the bottom, is bit ``c * (h + 1) + r``:
each column takes h + 1 bits, the top one a spare.  With ``mover`` the
stones of the player to move and ``mask`` all the stones, the code is::

    code = mover + mask + bottom        (bottom: bit 0 of every column)

In each column ``mask + bottom`` is a single bit, just above the column's
stones (the *sentinel*), and ``mover`` lies below it, so the code is
``mover | sentinels``: it names the position uniquely, the empty board is
``bottom``, and a full column has its sentinel on the spare bit.  The
sentinels are the highest bit of each column, found by smearing each
column's bits downwards (a few shifts); then ``mask = sentinels - bottom``
and the opponent's stones are ``mask ^ mover``.

A move in column c puts a stone on the column's sentinel bit and hands the
board over: the new mover is the old opponent, the sentinel of column c
moves up one, so the child's code is ``(code ^ mask) + (sentinels & column c)``.

The game is over when the opponent (who just moved) has four in a row (a
LOSS for the player to move) or the board is full (a TIE).  ``canonical``
is the smaller of a code and its left-right mirror image.

>>> sol = grundy.solve_game(Connect4(4, 4))
>>> sol.n_positions, sol[sol.start].outcome
(161029, TIE)
>>> mirrored = grundy.solve_game(Connect4(4, 4, symmetry=True))
>>> mirrored[sol.start][:2] == sol[sol.start][:2]      # outcome and remoteness
True

Run ``python connect4.py WIDTH HEIGHT`` (default 5 4) to time a board.
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import grundy

__all__ = ["Connect4", "main"]


class Connect4(grundy.BatchGame):
    """Connect Four on a ``width`` x ``height`` board (see the module docstring).

    Parameters
    ----------
    width, height : int
        The board; ``width * (height + 1)`` must be at most 63 (7 x 6, the
        classic board, takes 49 bits).
    symmetry : bool, default False
        Identify each position with its mirror image (``canonical``).
    connect : int, default 4
        How many in a row win.
    """

    def __init__(self, width: int, height: int, *, symmetry: bool = False,
                 connect: int = 4) -> None:
        if width < 1 or height < 1 or width * (height + 1) > 63:
            raise ValueError(f"a {width} x {height} board does not fit an int64 code: "
                             f"need width, height >= 1 and width * (height + 1) <= 63")
        if connect < 2:
            raise ValueError(f"connect must be at least 2, got {connect}")
        self.width, self.height, self.connect = width, height, connect
        self.symmetry = symmetry
        H1 = height + 1
        self._H1 = H1
        col = (1 << H1) - 1
        self.bottom = sum(1 << (c * H1) for c in range(width))
        self.top = self.bottom << height               # the spare bit of every column
        self._columns = np.array([col << (c * H1) for c in range(width)], dtype=np.int64)
        self._tops = np.array([1 << (c * H1 + height) for c in range(width)], dtype=np.int64)
        # Smearing down by d keeps the bits that stay in their column: rows 0..h-d.
        self._smear = [(d, np.int64(sum(((1 << (H1 - d)) - 1) << (c * H1)
                                        for c in range(width))))
                       for d in _powers_below(H1)]
        self._keep1 = np.int64(self.bottom * ((1 << height) - 1))     # rows 0..h-1
        # Lines: the shift from one cell of a line to the next.
        self._directions = [1, H1, H1 - 1, H1 + 1]       # vertical, horizontal, diagonals
        # Mirror: column c goes to column width-1-c, a shift of (width-1-2c) columns.
        self._mirror = [(np.int64(col << (c * H1)), (width - 1 - 2 * c) * H1)
                        for c in range(width)]
        if symmetry:
            self.canonical = self.smaller_image

    # -- decoding -------------------------------------------------------------------

    def _smeared(self, codes: np.ndarray) -> np.ndarray:
        """Each column's bits at and below its sentinel: ``mask | sentinels``."""
        s = codes.copy()
        for d, keep in self._smear:
            s |= (s >> d) & keep
        return s

    def split(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(mover, opponent)``: the stones of each side, as bitboards."""
        codes = np.asarray(codes, dtype=np.int64)
        s = self._smeared(codes)
        mask = (s >> 1) & self._keep1
        return codes & mask, codes ^ s

    def encode(self, mover: int, opponent: int) -> int:
        """The code of the position with these stones (bitboards), mover to play."""
        mask = mover | opponent
        return mover + mask + self.bottom

    def board(self, code: int, marks: str = "xo") -> list[str]:
        """The position as rows of text, top row first: ``marks[0]`` for the
        player to move, ``marks[1]`` for the opponent, ``.`` for empty."""
        mover, opponent = (int(a[0]) for a in self.split(np.array([code])))
        return ["".join(marks[0] if mover >> (c * self._H1 + r) & 1 else
                        marks[1] if opponent >> (c * self._H1 + r) & 1 else "."
                        for c in range(self.width))
                for r in reversed(range(self.height))]

    # -- the rules ------------------------------------------------------------------

    def start(self) -> int:
        return self.bottom

    def primitive(self, codes: np.ndarray) -> np.ndarray:
        opponent = codes ^ self._smeared(codes)
        won = np.zeros_like(codes)
        for d in self._directions:
            won |= _runs(opponent, d, self.connect)
        out = np.where((codes & self.top) == self.top, np.int8(grundy.TIE), np.int8(0))
        out[won != 0] = grundy.LOSS
        return out

    def moves(self, codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        s = self._smeared(codes)
        mask = (s >> 1) & self._keep1
        sentinels = s ^ mask
        base = codes ^ mask                                # the opponent's stones | sentinels
        # One child per column, row by row (a parent's children together), and
        # whether the column has room; numpy works column by column: long loops.
        n = len(codes)
        children = np.empty((n, self.width), dtype=np.int64)
        room = np.empty((n, self.width), dtype=bool)
        for c in range(self.width):
            np.add(base, sentinels & self._columns[c], out=children[:, c])
            np.equal(codes & self._tops[c], 0, out=room[:, c])
        offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(self.width - _popcount(codes & self.top), out=offsets[1:])
        return offsets, np.compress(room.ravel(), children.ravel())

    def mirror(self, codes: np.ndarray) -> np.ndarray:
        """The codes of the mirror images (columns in reverse order)."""
        codes = np.asarray(codes, dtype=np.int64)
        out = np.zeros_like(codes)
        for column, shift in self._mirror:
            part = codes & column
            out |= (part << shift) if shift >= 0 else (part >> -shift)
        return out

    def smaller_image(self, codes: np.ndarray) -> np.ndarray:
        """The smaller of each code and its mirror image (``canonical`` with
        ``symmetry=True``)."""
        smaller: np.ndarray = np.minimum(codes, self.mirror(codes))
        return smaller


def _powers_below(n: int) -> list[int]:
    out, d = [], 1
    while d < n:
        out.append(d)
        d *= 2
    return out


def _popcount(x: np.ndarray) -> np.ndarray:
    """The number of bits set in each int64."""
    count: np.ndarray
    if hasattr(np, "bitwise_count"):                        # numpy >= 2.0
        count = np.bitwise_count(x)
    else:
        as_bytes = np.ascontiguousarray(x, dtype=np.int64).view(np.uint8).reshape(len(x), 8)
        count = _BYTE_BITS[as_bytes].sum(axis=1)
    return count


_BYTE_BITS = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


def _runs(stones: np.ndarray, d: int, k: int) -> np.ndarray:
    """Nonzero where ``stones`` hold k in a row along the shift d."""
    run, length = stones, 1                 # run: the cells starting `length` in a row
    while length < k:
        step = min(length, k - length)
        run = run & (run >> (step * d))
        length += step
    return run


def main(argv: list[str] | None = None) -> int:
    """Solve a board and print its size, the time taken and the first player's result."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("width", type=int, nargs="?", default=5)
    parser.add_argument("height", type=int, nargs="?", default=4)
    parser.add_argument("--symmetry", action="store_true",
                        help="identify mirror images")
    args = parser.parse_args(argv)
    game = Connect4(args.width, args.height, symmetry=args.symmetry)
    t0 = time.perf_counter()
    sol = grundy.solve_game(game)
    seconds = time.perf_counter() - t0
    first = sol[sol.start]
    print(f"Connect Four {args.width} x {args.height}"
          f"{' (mirror images identified)' if args.symmetry else ''}: "
          f"{sol.n_positions:,} positions in {seconds:.2f} s "
          f"({sol.n_positions / seconds:,.0f} positions/s)")
    verdict = {grundy.WIN: "wins", grundy.LOSS: "loses", grundy.TIE: "ties"}[first.outcome]
    print(f"the first player {verdict} in {first.remoteness} moves")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
