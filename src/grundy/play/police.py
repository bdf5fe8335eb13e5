"""Police and thief at the table: the board drawn (through a window when it
is large), moves named by compass directions.
"""
from __future__ import annotations

import textwrap
from collections.abc import Sequence


from grundy._common import (WIN, Outcome,
                            shorten)
from grundy.games.police import PolicePosition, PoliceThief
from grundy.play.face import Face, HEIGHT, Move, MoveError, Table, WIDTH

__all__ = ["PoliceFace", "police_table"]


_COMPASS = {(-1, 0): "n", (-1, 1): "ne", (0, 1): "e", (1, 1): "se", (1, 0): "s",
            (1, -1): "sw", (0, -1): "w", (-1, -1): "nw"}
_WORDS = {"n": "north", "ne": "north-east", "e": "east", "se": "south-east", "s": "south",
          "sw": "south-west", "w": "west", "nw": "north-west"}
_SYNONYMS = {**{w: d for d, w in _WORDS.items()},
             **{w.replace("-", ""): d for d, w in _WORDS.items()},
             **{d: d for d in _WORDS}, "pass": "pass", "p": "pass", "stay": "pass"}


def _window(a: int, b: int, focus: int, size: int, total: int) -> int:
    """First row (or column) of a window of ``size`` showing a and b if it can,
    else centred on ``focus``."""
    lo, hi = min(a, b), max(a, b)
    centre = (lo + hi) // 2 if hi - lo < size else focus
    return max(0, min(total - size, centre - size // 2))


class PoliceFace(Face):
    """A police-and-thief board: the picture, and moves by compass direction.

    The police steps n, ne, e, se, s, sw, w or nw, the thief n, e, s or w
    (the board's move sets); either may ``pass``.  A board larger than
    78 x 20 is shown through a window around the pieces.

    Parameters
    ----------
    board : PoliceThief
        The board and its rules.

    Raises
    ------
    TypeError
        If ``board`` is not a PoliceThief.

    Examples
    --------
    >>> board = PoliceThief.parse("2 3\\nP.E\\n..T")
    >>> [m.name for m in PoliceFace(board).moves(PolicePosition((0, 0), (1, 2), True))]
    ['e to (0, 1)', 's to (1, 0)', 'se to (1, 1)', 'pass']
    """

    syntax = ("DIRECTION  step n, ne, e, se, s, sw, w or nw (the thief: n, e, s or w)\n"
              "pass       stay put")
    title = ("Police and thief: the police (P) steps to any of the 8 neighbouring cells, "
             "the thief (T) to any of the 4 orthogonal ones; either may pass.  The police "
             "wins on the thief's cell (X), the thief on an exit (E).  '*' is a wall.")

    def __init__(self, board: PoliceThief) -> None:
        if not isinstance(board, PoliceThief):
            raise TypeError(f"board must be a PoliceThief, got {shorten(board)}")
        self.board = board

    def render(self, position: PolicePosition) -> str:
        """The board with the pieces (X: the police on the thief), and where they stand.

        A board wider than 78 columns or taller than 20 rows is shown
        through a window of that size around both pieces (around the piece
        to move when they are too far apart), and the text says so.

        Examples
        --------
        >>> wide = PoliceThief(["P" + "." * 98 + "T"])
        >>> print(PoliceFace(wide).render(PolicePosition((0, 0), (0, 99), True)))
        P...
        police (0, 0), thief (0, 99)
        (showing rows 0-0, columns 0-77 of the 1 x 100 board; the thief is outside)
        """
        police, thief, police_to_move = position
        b = self.board
        rows = b.render(police=police, thief=thief).split("\n")
        where = f"police {tuple(police)}, thief {tuple(thief)}"
        if b.n_rows <= HEIGHT and b.n_cols <= WIDTH:
            return "\n".join(rows + [where])
        h, w = min(b.n_rows, HEIGHT), min(b.n_cols, WIDTH)
        mover = police if police_to_move else thief
        top = _window(police[0], thief[0], mover[0], h, b.n_rows)
        left = _window(police[1], thief[1], mover[1], w, b.n_cols)
        shown = [row[left:left + w] for row in rows[top:top + h]]
        outside = [name for name, (r, c) in (("police", police), ("thief", thief))
                   if not (top <= r < top + h and left <= c < left + w)]
        note = (f"(showing rows {top}-{top + h - 1}, columns {left}-{left + w - 1} of the "
                f"{b.n_rows} x {b.n_cols} board")
        if outside:
            note += f"; the {' and the '.join(outside)} {'is' if len(outside) == 1 else 'are'}"
            note += " outside"
        return "\n".join(shown + [where, textwrap.fill(note + ")", WIDTH)])

    def side(self, position: PolicePosition) -> str:
        """``"police"`` or ``"thief"``: who moves."""
        return "police" if position.police_to_move else "thief"

    def moves(self, position: PolicePosition) -> list[Move]:
        """The steps of the side to move, named by direction and cell, in move-set
        order; then ``pass`` if the board allows it."""
        police, thief, police_to_move = position
        mover = police if police_to_move else thief
        out = []
        for cell in self.board.steps(mover, self.side(position)):
            d = (cell[0] - mover[0], cell[1] - mover[1])
            name = _COMPASS.get(d, f"({d[0]:+d},{d[1]:+d})")
            after = PolicePosition(cell, thief, False) if police_to_move else \
                PolicePosition(police, cell, True)
            out.append(Move(f"{name} to {cell}", after))
        if self.board.passing:
            out.append(Move("pass", PolicePosition(police, thief, not police_to_move)))
        return out

    def parse(self, text: str, position: PolicePosition, moves: Sequence[Move]
              ) -> Move | None:
        """A direction (``n``, ``north``, ``ne``, ``north-east``...) or ``pass``;
        the message for an illegal one says why.

        Examples
        --------
        >>> face = PoliceFace(PoliceThief.parse("2 3\\nP.E\\n..T"))
        >>> pos = PolicePosition((0, 0), (1, 2), False)
        >>> face.parse("North", pos, face.moves(pos)).name
        'n to (0, 2)'
        >>> try:
        ...     face.parse("e", pos, face.moves(pos))
        ... except MoveError as exc:
        ...     print(exc)
        'e' is not a legal move: the cell to the east of the thief is off the board
        """
        word = _SYNONYMS.get(text.lower().replace(" ", ""))
        if word is None:
            return None
        for m in moves:
            if m.name.split(" ")[0] == word:
                return m
        who = self.side(position)
        if word == "pass":
            raise MoveError(f"'{text}' is not a legal move: passing is not allowed here")
        offsets = self.board.police_moves if who == "police" else self.board.thief_moves
        step = next((d for d, name in _COMPASS.items() if name == word), (0, 0))
        if step not in offsets:
            names = ", ".join(_COMPASS.get(d, str(d)) for d in offsets)
            or_pass = " (or pass)" if self.board.passing else ""
            raise MoveError(f"'{text}' is not a legal move: the {who} moves only "
                            f"{names}{or_pass}")
        r, c = position.police if who == "police" else position.thief
        r2, c2 = r + step[0], c + step[1]
        if not (0 <= r2 < self.board.n_rows and 0 <= c2 < self.board.n_cols):
            why = "off the board"
        else:
            why = f"a wall, at {(r2, c2)}"
        raise MoveError(f"'{text}' is not a legal move: the cell to the {_WORDS[word]} of "
                        f"the {who} is {why}")

    def ending(self, position: PolicePosition, outcome: Outcome) -> str:
        """``"The police catches the thief."`` or ``"The thief escapes."``"""
        police_won = (outcome == WIN) == position.police_to_move
        if position.police == position.thief or police_won:
            return "The police catches the thief."
        return "The thief escapes."


def police_table(board: PoliceThief | str | bytes, *, max_memory: int | None = None) -> Table:
    """A police-and-thief board, solved for play from its start (the police moves first).

    Parameters
    ----------
    board : PoliceThief, str or bytes
        The board, or its text (``n m`` then the rows).
    max_memory : int, optional
        Bytes the solve may take (default: the memory available).

    Returns
    -------
    Table

    Raises
    ------
    TypeError
        If ``board`` is neither.
    BoardError
        If the text is not a board.
    MemoryLimitError
        If the solve would need more than ``max_memory``.

    Examples
    --------
    >>> table = police_table("1 3\\nP.T")
    >>> table.start, table.solution[table.start].outcome
    (PolicePosition(police=(0, 0), thief=(0, 2), police_to_move=True), WIN)
    """
    if isinstance(board, (str, bytes, bytearray)):
        board = PoliceThief.parse(board)
    if not isinstance(board, PoliceThief):
        raise TypeError(f"board must be a PoliceThief or its text, got {shorten(board)}")
    sol = board.solve(max_memory=max_memory)
    return Table(sol, PoliceFace(board), sol.start)


# -- any game: from its rules, or from its solution's graph -----------------------------
