"""What a game looks like in a play session: a :class:`Face` (how a position
is drawn, how its moves are listed and named, how a typed move is read), a
:class:`Table` (a solved game, its face and the start), and the limits on a
game set up for play.

Examples
--------
>>> Move("take 1 from pile 1", (0,))
Move(name='take 1 from pile 1', position=(0,))
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, TextIO


from grundy._common import (MemoryLimitError, Outcome)
from grundy.engine.rules import solve_game
from grundy.engine.solution import Solution

__all__ = ["Face", "Move", "MoveError", "Table", "Limits", "MAX_POSITIONS", "MAX_MOVES", "WIDTH", "HEIGHT"]


MAX_POSITIONS = 2_000_000
"""The most positions a game set up here may have (more is refused before solving)."""
MAX_MOVES = 5_000_000
"""The most moves a nim or take-and-break game set up here may have (about 4 seconds
of exploring)."""

WIDTH = 78
"""Columns a picture or a line of the session takes at most."""
HEIGHT = 20
"""Rows of a police board shown at most (a larger board is shown through a window)."""


class MoveError(ValueError):
    """A move typed by the player that is malformed or illegal (the message says why).

    Examples
    --------
    >>> from grundy.play import nim_table
    >>> face = nim_table([3]).face
    >>> try:
    ...     face.parse("1 5", (3,), face.moves((3,)))
    ... except MoveError as exc:
    ...     print(exc)
    '1 5' is not a legal move: pile 1 has only 3 stones
    """


class Move(NamedTuple):
    """A legal move as the player sees it.

    Attributes
    ----------
    name : str
        How the move is listed (typing it plays it).
    position : object
        The position it leads to (as the face shows positions).

    Examples
    --------
    >>> from grundy.play import nim_table
    >>> nim_table([2]).face.moves((2,))[0]
    Move(name='take 1 from pile 1', position=(1,))
    """

    name: str
    position: Any


class Face:
    """How a kind of game looks and is played in a terminal (the base class).

    The base class serves any game whose moves a subclass lists: positions
    are drawn with ``str()``, moves are typed by their number or their
    name.  Subclasses override what their game needs; the methods below
    state the contract once, and an override's docstring says only what it
    does differently.  The session catches only the :class:`MoveError` of
    :meth:`parse`: any other exception from a face ends :func:`play` with it.

    Attributes
    ----------
    title : str
        One line naming the game and its rules, printed first.
    syntax : str
        The game's own move syntax, for ``help``: lines of the form typed,
        padded to 11 columns, then what it does ("" if moves are typed by
        number or name only).

    Examples
    --------
    >>> class Countdown(Face):
    ...     title = "Countdown: subtract 1 or 2"
    ...     def moves(self, n):
    ...         return [Move(f"to {m}", m) for m in (n - 1, n - 2) if m >= 0]
    >>> Countdown().moves(1), Countdown().render(1)
    ([Move(name='to 0', position=0)], '1')
    """

    title: str = "A game"
    syntax: str = ""

    def key(self, position: Any) -> Any:
        """The solution's position for a position as shown (default: the same).

        Parameters
        ----------
        position
            A position as the face shows it.

        Returns
        -------
        object
            The position to look up in the solution (a face may show
            positions in another form than the solution keeps them).

        Examples
        --------
        >>> from grundy.play import nim_table
        >>> nim_table([2, 0, 1]).face.key((2, 0, 1))     # piles in any order, no empty ones
        (1, 2)
        """
        return position

    def render(self, position: Any) -> str:
        """The picture of a position (default: ``str(position)``).

        Parameters
        ----------
        position
            A position as the face shows it.

        Returns
        -------
        str
            Lines of at most 78 columns, shown between blank lines.

        Examples
        --------
        >>> from grundy.play import nim_table
        >>> print(nim_table([2, 3]).face.render((2, 3)))
        pile 1: ||   2
        pile 2: |||  3
        """
        return str(position)

    def moves(self, position: Any) -> list[Move]:
        """The legal moves from a position that is not over, in the order listed.

        Parameters
        ----------
        position
            A position as the face shows it.

        Returns
        -------
        list of Move
            Each legal move once, with distinct names: the session numbers
            them from 1 in this order, and the computer plays the first one
            that leads to the position the solution's best move leads to.

        Raises
        ------
        NotImplementedError
            Unless a subclass lists the moves.

        Examples
        --------
        >>> from grundy.play import octal_table
        >>> [m.name for m in octal_table("0.77", [3]).face.moves((3,))]
        ['heap 1 -> 2', 'heap 1 -> 1 1', 'heap 1 -> 1']
        """
        raise NotImplementedError("a Face needs moves(position): the legal moves")

    def parse(self, text: str, position: Any, moves: Sequence[Move]) -> Move | None:
        """Read a move typed in the game's own syntax.

        The session tries this after commands, move numbers and move names.

        Parameters
        ----------
        text : str
            What the player typed (stripped).
        position
            The position, as shown.
        moves : sequence of Move
            Its legal moves, as listed.

        Returns
        -------
        Move or None
            The move, or None if ``text`` is not in the game's syntax.

        Raises
        ------
        MoveError
            If ``text`` is in the game's syntax but malformed or illegal.

        Examples
        --------
        >>> from grundy.play import nim_table
        >>> face = nim_table([3, 4]).face
        >>> face.parse("2 4", (3, 4), face.moves((3, 4)))
        Move(name='take 4 from pile 2', position=(3, 0))
        >>> print(Face().parse("2 4", 0, []))
        None
        """
        return None

    def side(self, position: Any) -> str | None:
        """The name of the side to move (such as ``"police"``), or None.

        Parameters
        ----------
        position
            A position as the face shows it.

        Returns
        -------
        str or None
            Shown after who moves, as in ``You (thief)``.

        Examples
        --------
        >>> print(Face().side(0))
        None
        """
        return None

    def ending(self, position: Any, outcome: Outcome) -> str:
        """What happened when the game is over (before who won is said).

        Parameters
        ----------
        position
            The final position, as shown.
        outcome : Outcome
            Its outcome for the player to move.

        Returns
        -------
        str
            A sentence, such as ``"The thief escapes."``.

        Examples
        --------
        >>> from grundy import LOSS
        >>> Face().ending(0, LOSS)
        'The game is over.'
        """
        return "The game is over."


class Table(NamedTuple):
    """A game ready to play: its solution, its face and the position play starts from.

    Attributes
    ----------
    solution : Solution
        The solved game.
    face : Face
        How it looks and is played.
    start : object
        The starting position, as the face shows positions.

    Examples
    --------
    >>> from grundy.play import nim_table
    >>> table = nim_table([1, 2])
    >>> table.start, table.solution[table.face.key(table.start)]
    ((1, 2), Evaluation(WIN, remoteness=3, move=(1, 1)))
    """

    solution: Solution
    face: Face
    start: Any


# -- the session --------------------------------------------------------------------------


class Limits:
    """How large a game set up for play may be, and the error refusing it.

    ``spend`` counts the moves an exploration generates (refusing past
    ``max_moves``); ``solve`` turns the solver's refusal past
    ``max_positions`` into one naming the game.
    """

    def __init__(self, what: str, max_positions: int, max_moves: int = 0,
                 hint: str = "") -> None:
        self.what = what
        self.hint = hint
        self.max_positions = max_positions
        self.max_moves = max_moves
        self.moves_left = max_moves

    def spend(self, n: int) -> None:
        self.moves_left -= n
        if self.moves_left < 0:
            raise self.refuse(f"more than {self.max_moves:,} moves")

    def refuse(self, size: str) -> MemoryLimitError:
        hint = f"; {self.hint}" if self.hint else ""
        return MemoryLimitError(f"{self.what} is too large to play here: {size}{hint}")

    def solve(self, game: Any, misere: bool) -> Solution:
        try:
            return solve_game(game, misere=misere, max_positions=self.max_positions)
        except MemoryLimitError as exc:
            if exc.needed is None and "max_positions" in str(exc):
                raise self.refuse(f"more than {self.max_positions:,} positions") from None
            if exc.needed is None and self.moves_left < 0:     # spend's, without a note
                raise self.refuse(f"more than {self.max_moves:,} moves") from None
            raise


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def columns(items: Sequence[str], indent: int = 2) -> list[str]:
    """Items in columns, row by row, in lines of at most WIDTH columns."""
    width = max(len(s) for s in items) + 2
    per_line = max(1, (WIDTH - indent) // width)
    lines = []
    for i in range(0, len(items), per_line):
        chunk = items[i:i + per_line]
        lines.append(" " * indent + "".join(s.ljust(width) for s in chunk).rstrip())
    return lines
