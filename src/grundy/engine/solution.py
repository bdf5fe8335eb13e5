"""The one protocol of a solved game, shared by every kind of game.

A solved game (an explicit :class:`~grundy.GameGraph`, a police-and-thief
board, an impartial game explored from a position) numbers its positions
0..n-1 and answers with the same names everywhere:

- arrays indexed by position number, read-only, with fixed dtypes:
  ``outcome`` (int8: WIN 1, LOSS -1, DRAW 0, TIE 2), ``remoteness`` (int64,
  -1 for draws) and ``move`` (int64: the number of the position an optimal move
  leads to, -1 where there is none);
- ``sol[p]``: the :class:`Evaluation` of position ``p`` (outcome,
  remoteness, the position the best move leads to);
- ``sol.best_move(p)``, ``sol.line(p)``, ``sol.counts()``;
- ``sol.index(p)`` / ``sol.position(i)``: position <-> number, and
  ``sol.positions``, ``sol.n_positions``, ``len(sol)``; ``sol.start`` is the
  game's starting position (None for a graph, which has no start).

Examples
--------
>>> import grundy
>>> sol = grundy.GameGraph.from_edges([("a", "b"), ("b", "c")], names=True).solve()
>>> sol["a"]
Evaluation(LOSS, remoteness=2, move='b')
>>> sol.outcome, sol.index("c"), sol.line("a")
(array([-1,  1, -1], dtype=int8), 2, ['a', 'b', 'c'])
"""
from __future__ import annotations

import abc
import os
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple, overload

import numpy as np
import numpy.typing as npt

from grundy._common import (DRAW, LOSS, NO_MOVE, TIE, WIN, Outcome, as_int64_array, check_int,
                            readonly)
from grundy.engine.store import save

__all__ = ["Evaluation", "Solution"]

# The default of line(): the game's start (None can be a position's name).
_START: Any = type("_Start", (), {"__repr__": lambda self: "<the start>"})()


class Evaluation(NamedTuple):
    """What perfect play makes of one position: ``sol[p]`` for any solved game.

    A frozen (named) tuple ``(outcome, remoteness, move)``.

    Attributes
    ----------
    outcome : Outcome
        WIN, LOSS, TIE or DRAW for the player to move.
    remoteness : int
        Moves to the end of the game with perfect play (the winner hurries,
        the loser delays); 0 at a finished position, -1 for a draw.
    move : position or NO_MOVE
        The position an optimal move leads to (in a draw: a move that keeps
        the draw), or :data:`grundy.NO_MOVE` where the game is over.

    Examples
    --------
    >>> import grundy
    >>> e = grundy.GameGraph.from_edges([(0, 1)]).solve()[0]
    >>> e
    Evaluation(WIN, remoteness=1, move=1)
    >>> outcome, remoteness, move = e
    >>> e.outcome is grundy.WIN
    True
    """

    outcome: Outcome
    remoteness: int
    move: Any

    def __repr__(self) -> str:
        try:
            outcome = Outcome(self.outcome).name
        except (TypeError, ValueError):
            outcome = repr(self.outcome)
        return f"Evaluation({outcome}, remoteness={self.remoteness}, move={self.move!r})"


class Solution(abc.ABC):
    """A solved game: every position's outcome, remoteness and best move.

    The base class of the solutions of every kind of game (see the module
    docstring for the protocol).  Subclasses number their positions and
    give the arrays; this class answers the questions.

    Examples
    --------
    >>> import grundy
    >>> sol = grundy.GameGraph.from_edges([(0, 1), (1, 2), (2, 0), (2, 3)]).solve()
    >>> isinstance(sol, grundy.Solution), sol.n_positions
    (True, 4)
    >>> sol.counts()
    {WIN: 2, LOSS: 2, TIE: 0, DRAW: 0}
    """

    __slots__ = ()

    # -- what a subclass provides ----------------------------------------------

    @property
    @abc.abstractmethod
    def outcome(self) -> npt.NDArray[np.int8]:
        """Outcome of every position, int8 (WIN 1, LOSS -1, DRAW 0, TIE 2), read-only.

        Examples
        --------
        >>> import grundy
        >>> grundy.GameGraph.from_edges([(0, 1)]).solve().outcome
        array([ 1, -1], dtype=int8)
        """

    @property
    @abc.abstractmethod
    def remoteness(self) -> npt.NDArray[np.int64]:
        """Remoteness of every position, int64 (-1 for draws), read-only.

        Examples
        --------
        >>> import grundy
        >>> grundy.GameGraph.from_edges([(0, 1), (2, 2)]).solve().remoteness
        array([ 1,  0, -1])
        """

    @property
    @abc.abstractmethod
    def move(self) -> npt.NDArray[np.int64]:
        """Number of the position an optimal move of every position leads to,
        int64 (-1 where there is no move), read-only.

        Examples
        --------
        >>> import grundy
        >>> grundy.GameGraph.from_edges([(0, 1), (2, 2)]).solve().move
        array([ 1, -1,  2])
        """

    @abc.abstractmethod
    def index(self, position: Any) -> int:
        """Number (0..n_positions-1) of a position.

        Parameters
        ----------
        position
            A position of the game.

        Returns
        -------
        int

        Raises
        ------
        ValueError
            If it is not a position of the game.

        Examples
        --------
        >>> import grundy
        >>> grundy.GameGraph.from_edges([("a", "b")], names=True).solve().index("b")
        1
        """

    @abc.abstractmethod
    def position(self, i: int) -> Any:
        """The position numbered ``i``.

        Parameters
        ----------
        i : int
            A position number, 0..n_positions-1.

        Returns
        -------
        position

        Raises
        ------
        ValueError
            If ``i`` is out of range.

        Examples
        --------
        >>> import grundy
        >>> grundy.GameGraph.from_edges([("a", "b")], names=True).solve().position(0)
        'a'
        """

    def _remoteness_at(self, i: int) -> int:
        """Remoteness of position number ``i`` (a subclass may answer
        without building the whole array)."""
        return int(self.remoteness[i])

    def _move_at(self, i: int) -> int:
        """Number of the position the best move of ``i`` leads to, or -1."""
        return int(self.move[i])

    @property
    def start(self) -> Any:
        """The starting position of the game, or None if it has none.

        Examples
        --------
        >>> import grundy
        >>> print(grundy.GameGraph.from_edges([(0, 1)]).solve().start)
        None
        """
        return None

    # -- the answers ----------------------------------------------------------------

    @property
    def n_positions(self) -> int:
        """Number of positions.

        Examples
        --------
        >>> import grundy
        >>> grundy.GameGraph.from_edges([(0, 1)]).solve().n_positions
        2
        """
        return len(self.outcome)

    def __len__(self) -> int:
        return self.n_positions

    @property
    def positions(self) -> Sequence[Any]:
        """The positions in number order (a read-only sequence, built lazily).

        Examples
        --------
        >>> import grundy
        >>> list(grundy.GameGraph.from_edges([("x", "y")], names=True).solve().positions)
        ['x', 'y']
        """
        return _PositionList(self)

    def __getitem__(self, position: Any) -> Evaluation:
        """``sol[p]``: the :class:`Evaluation` of a position.

        Parameters
        ----------
        position
            A position of the game.

        Returns
        -------
        Evaluation
            Outcome, remoteness, and the position the best move leads to.

        Raises
        ------
        TypeError
            If ``position`` is not the kind of thing a position of the game is.
        ValueError
            If it is not a position of the game.

        Examples
        --------
        >>> import grundy
        >>> grundy.GameGraph.from_edges([(0, 1), (1, 2)]).solve()[0]
        Evaluation(LOSS, remoteness=2, move=1)
        """
        return self._evaluation(self.index(position))

    def _evaluation(self, i: int) -> Evaluation:
        outcome = Outcome(int(self.outcome[i]))
        remoteness = -1 if outcome == DRAW else self._remoteness_at(i)
        j = self._move_at(i)
        return Evaluation(outcome, remoteness, NO_MOVE if j < 0 else self.position(j))

    def best_move(self, position: Any) -> Any:
        """The position an optimal move from ``position`` leads to, or NO_MOVE.

        The winner hurries, the loser delays; in a draw the move keeps the
        draw.  NO_MOVE where the game is over (a position with no move, or
        whose outcome is fixed).

        Parameters
        ----------
        position
            A position of the game.

        Returns
        -------
        position or NO_MOVE

        Raises
        ------
        TypeError
            If ``position`` is not the kind of thing a position of the game is.
        ValueError
            If it is not a position of the game.

        Examples
        --------
        >>> import grundy
        >>> sol = grundy.GameGraph.from_edges([(0, 1), (1, 2)]).solve()
        >>> sol.best_move(0), sol.best_move(2)
        (1, NO_MOVE)
        """
        j = self._move_at(self.index(position))
        return NO_MOVE if j < 0 else self.position(j)

    def line(self, position: Any = _START) -> list[Any]:
        """Optimal play from a position (default: the start): the positions visited.

        A WIN or LOSS line ends where the game ends and has ``remoteness + 1``
        positions.  A DRAW line ends at the first repeated position (which
        appears twice: where play starts to cycle).

        Parameters
        ----------
        position
            Where to start; by default the game's start.

        Returns
        -------
        list
            The positions, ``position`` first.

        Raises
        ------
        TypeError
            If no position is given and the game has no start, or
            ``position`` is not the kind of thing a position is.
        ValueError
            If ``position`` is not a position of the game.

        Examples
        --------
        >>> import grundy
        >>> sol = grundy.GameGraph.from_edges([(0, 1), (1, 0), (1, 2)]).solve()
        >>> sol.line(0)
        [0, 1, 2]
        >>> grundy.GameGraph.from_edges([(0, 1), (1, 0)]).solve().line(0)
        [0, 1, 0]
        """
        if position is _START:
            position = self.start
            if position is None:
                raise TypeError(f"{type(self).__name__}.line() needs a position: this game "
                                f"has no start")
        i = self.index(position)
        path = [i]
        seen = {i}
        while True:
            i = self._move_at(i)
            if i < 0:
                break
            path.append(i)
            if i in seen:
                break
            seen.add(i)
        return [self.position(j) for j in path]

    def counts(self) -> dict[Outcome, int]:
        """How many positions have each outcome.

        Returns
        -------
        dict
            ``{WIN: a, LOSS: b, TIE: c, DRAW: d}``.

        Examples
        --------
        >>> import grundy
        >>> grundy.GameGraph.from_edges([(0, 1), (1, 0), (1, 2)]).solve().counts()
        {WIN: 1, LOSS: 2, TIE: 0, DRAW: 0}
        """
        outcome = self.outcome
        win = loss = tie = 0
        step = 1 << 24               # in slices: no n-byte temporaries (a mapped file)
        for start in range(0, len(outcome), step):
            part = outcome[start:start + step]
            win += int(np.count_nonzero(part == WIN))
            loss += int(np.count_nonzero(part == LOSS))
            tie += int(np.count_nonzero(part == TIE))
        return {WIN: win, LOSS: loss, TIE: tie, DRAW: len(outcome) - win - loss - tie}

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the solution to a file that :func:`grundy.load` reads back.

        The file is a numpy ``.npz`` archive of the arrays with a JSON
        header (format: :mod:`grundy.engine.store`), written atomically: it appears
        complete or not at all.  ``grundy.load(path, mmap=True)`` answers
        from it without reading it into memory.

        Parameters
        ----------
        path : str or os.PathLike
            The file to write (replaced if it exists; ``.npz`` by custom).

        Raises
        ------
        TypeError
            If this kind of solution cannot be saved (the solution of a
            compiled plug-in other than police and thief: its rules are
            code), or a position is of a type the format cannot hold.
        OSError
            If the file cannot be written.

        Examples
        --------
        >>> import grundy, os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "g.npz")
        >>> grundy.GameGraph.from_edges([(0, 1), (1, 2)]).solve().save(path)
        >>> grundy.load(path).line(0)
        [0, 1, 2]
        """
        save(self, path)

    def _saved(self) -> tuple[str, Any, dict[str, npt.NDArray[Any]]]:
        """``(kind, data, arrays)`` for :func:`grundy.engine.store.save`."""
        raise TypeError(f"a {type(self).__name__} cannot be saved: only the solutions of "
                        f"graphs, police-and-thief boards and games from rules can")

    def __repr__(self) -> str:
        c = self.counts()
        ties = f", TIE={c[TIE]}" if c[TIE] else ""
        return (f"{type(self).__name__}(n_positions={self.n_positions}, WIN={c[WIN]}, "
                f"LOSS={c[LOSS]}{ties}, DRAW={c[DRAW]})")


def checked_array(data: npt.ArrayLike, name: str, dtype: type[np.integer[Any]], n: int,
                  low: int, high: int) -> npt.NDArray[Any]:
    """A read-only copy, in ``dtype``, of an array given to a solution's
    constructor: n integers in ``low..high``, or a clear error."""
    arr = as_int64_array(data, name, ndim=1)
    if len(arr) != n:
        raise ValueError(f"{name} has {len(arr)} entries, expected one per position ({n})")
    bad = np.flatnonzero((arr < low) | (arr > high))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"{name}[{i}] = {int(arr[i])}: expected {low}..{high}")
    return readonly(arr.astype(dtype))


class _PositionList(Sequence[Any]):
    """The positions of a solution, by number, made on demand."""

    __slots__ = ("_solution",)

    def __init__(self, solution: Solution) -> None:
        self._solution = solution

    def __len__(self) -> int:
        return self._solution.n_positions

    @overload
    def __getitem__(self, i: int) -> Any: ...
    @overload
    def __getitem__(self, i: slice) -> list[Any]: ...

    def __getitem__(self, i: int | slice) -> Any:
        n = len(self)
        if isinstance(i, slice):
            return [self._solution.position(j) for j in range(*i.indices(n))]
        # No negative numbers: -1 is NO_MOVE in move arrays, not the last position.
        j = check_int(i, "position number", 0)
        if j >= n:
            raise IndexError(f"position number {j} is out of range 0..{n - 1}")
        return self._solution.position(j)

    def __iter__(self) -> Iterator[Any]:
        return (self._solution.position(j) for j in range(len(self)))

    def __contains__(self, position: object) -> bool:
        try:                             # by number, not by a scan of every position
            self._solution.index(position)
        except (TypeError, ValueError):
            return False
        return True

    def __repr__(self) -> str:
        return f"<{len(self)} positions of {self._solution!r}>"

