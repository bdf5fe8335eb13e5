"""Impartial games: Grundy values, sums of games, games from a move function.

An impartial game is given by ``moves(position) -> iterable of options``.
An option is a position, or a :class:`Sum` of positions: independent games
played side by side, a move changing one of them.  By the Sprague-Grundy
theorem a sum is worth the xor of its parts' values.

>>> def kayles(n):          # knock down 1 or 2 adjacent pins of a row of n
...     return [Sum(a, n - k - a) for k in (1, 2) for a in range(n - k + 1)]
>>> game = ImpartialGame(kayles)
>>> game.values(range(12)).tolist()
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
>>> game.winning_moves(4)         # knock out the middle two: 1 + 1 = 0
[Sum(1, 1)]
>>> game.solve(4)[4]              # the sum 1 + 1 is then lost in two moves
Evaluation(WIN, remoteness=3, move=Sum(1, 1))
"""
from __future__ import annotations

import functools
import operator
import threading
from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

import numpy as np

from grundy._common import (CycleError, Int64Array, check_bool, check_threads, is_integer,
                            readonly, shorten, shown_int)
from grundy._core import grundy as _grundy
from grundy.engine.explore import explore
from grundy.engine.graph import GameGraph
from grundy.engine.loopy import LoopyValue, loopy_sum
from grundy.engine.positions import Sum
from grundy.engine.positions import components as _components
from grundy.engine.rules import GameSolution

_Method = TypeVar("_Method", bound=Callable[..., Any])

__all__ = ["Sum", "grundy_sum", "ImpartialGame"]


def grundy_sum(values: Iterable[int]) -> int:
    """Grundy value of a sum of games with the given values: their xor.

    Parameters
    ----------
    values : iterable of int
        The Grundy values of the parts (integers >= 0, any size).

    Returns
    -------
    int

    Raises
    ------
    TypeError
        If a value is not an integer.
    ValueError
        If a value is negative.

    Examples
    --------
    >>> grundy_sum([1, 2, 3]), grundy_sum([])
    (0, 0)
    """
    out = 0
    for i, v in enumerate(values):
        if not is_integer(v):
            raise TypeError(f"value {i} is {shorten(v)}: Grundy values are integers")
        if v < 0:
            raise ValueError(f"value {i} is {shown_int(int(v))}: Grundy values are >= 0")
        out ^= int(v)
    return out


def _locked(method: _Method) -> _Method:
    """Run a method of ImpartialGame under the game's lock (one thread at a
    time reads or extends its cache)."""
    @functools.wraps(method)
    def locked(self: ImpartialGame, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            if self._exploring:
                # The move function called back into the game while it explores:
                # what it would read is not finished.
                raise RuntimeError("the move function called back into the ImpartialGame "
                                   "that is exploring it; moves(p) must only list options")
            return method(self, *args, **kwargs)
    return locked  # type: ignore[return-value]


def _check_hashable(position: object, context: str) -> None:
    try:
        hash(position)
    except TypeError:
        raise TypeError(f"{context} {shorten(position)}, which is not hashable: positions "
                        f"must be hashable (use a tuple, not a list)") from None


class ImpartialGame:
    """An impartial game given by its move function.

    Positions are hashable Python values.  Exploration is iterative (no
    recursion limit), each distinct position is visited once per game
    object (values are cached), and the values are computed by the compiled
    kernel over the explored DAG.  The game may be shared by threads.

    Parameters
    ----------
    moves : callable
        ``moves(position)`` returns an iterable of options: positions, or
        :class:`Sum` objects (games played side by side).

    Raises
    ------
    TypeError
        If ``moves`` is not callable.

    Examples
    --------
    A subtraction game (take 1, 3 or 4 stones):

    >>> game = ImpartialGame(lambda n: [n - s for s in (1, 3, 4) if s <= n])
    >>> game.value(10), game.values([7, 8]).tolist()
    (1, [0, 1])
    >>> game.winning_moves(10)
    [9, 7]
    """

    def __init__(self, moves: Callable[[Any], Iterable[Hashable]]) -> None:
        if not callable(moves):
            raise TypeError(f"moves must be callable, got {shorten(moves)}")
        self._moves = moves
        # Threads may share a game: one at a time explores (the others wait);
        # a move function calling back into its own game is refused.
        self._lock = threading.RLock()
        self._exploring = False
        self._id: dict[Hashable, int] = {}            # position -> id
        self._positions: list[Hashable] = []          # id -> position
        self._value = np.zeros(0, dtype=np.int64)
        self._moves_of: dict[Hashable, list[Hashable]] = {}   # each call made once
        self._loopy_values: dict[Hashable, LoopyValue] = {}

    def __repr__(self) -> str:
        name = getattr(self._moves, "__name__", repr(self._moves))
        return f"ImpartialGame({name}, explored={len(self._positions)})"

    @property
    def n_explored(self) -> int:
        """How many distinct positions have been explored so far.

        Examples
        --------
        >>> game = ImpartialGame(lambda n: range(n))
        >>> _ = game.value(5)
        >>> game.n_explored
        6
        """
        return len(self._positions)

    # -- exploration --------------------------------------------------------

    def _call_moves(self, position: Hashable) -> list[Hashable]:
        """``moves(position)`` as a list, called once per position and cached
        (shared by the acyclic and the loopy exploration)."""
        try:
            options = self._moves_of.get(position)
        except TypeError:
            raise TypeError(f"positions must be hashable, got {shorten(position)} "
                            f"(use a tuple, not a list)") from None
        if options is None:
            self._exploring = True
            try:
                given = self._moves(position)
            finally:
                self._exploring = False
            if isinstance(given, (str, bytes)) or not hasattr(given, "__iter__"):
                raise TypeError(f"moves({shorten(position)}) must return an iterable of "
                                f"options, got {shorten(given)}")
            options = list(given)
            self._moves_of[position] = options
        return options

    def _explore(self, roots: Iterable[Hashable], max_memory: int | None) -> None:
        """Explore everything reachable from roots (the library's one
        explorer, options as sums) and value every new position, in time
        proportional to the new positions and moves.

        On any error (or Ctrl-C) the partial exploration is undone."""

        starts = [c for root in roots for c in _components(root)]
        for c in starts:
            _check_hashable(c, "got the position")
        with self._lock:
            first = len(self._positions)
            try:
                found = explore(starts, self._call_moves, sums=Sum, index=self._id,
                                positions=self._positions, max_memory=max_memory,
                                what=repr(self))
                assert found.component_ptr is not None
                # Each new position after the components of its options.
                order, cycle = _grundy.topological_order(
                    first, found.component_ptr[found.indptr], found.indices)
                if cycle is not None:
                    names = [self._positions[int(v)] for v in cycle]
                    shown = " -> ".join(map(shorten, names[:10])) + \
                        (" -> ..." if len(names) > 10 else "")
                    raise CycleError(
                        f"the game has a cycle ({shown} -> {shorten(names[0])}): Grundy values "
                        f"need an acyclic game; use loopy_value() for games with cycles", names)
                assert order is not None
                n = len(self._positions)
                if len(self._value) < n:
                    bigger = np.zeros(max(n, 2 * len(self._value)), dtype=np.int64)
                    bigger[:first] = self._value[:first]
                    self._value = bigger
                _grundy.sums_grundy(order, first, found.indptr, found.component_ptr,
                                    found.indices, self._value)
            except BaseException:
                for p in self._positions[first:]:
                    del self._id[p]
                del self._positions[first:]
                raise

    # -- values ---------------------------------------------------------------

    @_locked
    def value(self, position: Hashable, *, max_memory: int | None = None) -> int:
        """Grundy value of a position (or of a :class:`Sum` of positions).

        Parameters
        ----------
        position : hashable or Sum
            A position of the game.
        max_memory : int, optional
            Bytes the exploration may take, everything the game keeps
            included (default: the memory available).

        Returns
        -------
        int
            0 exactly when the player to move loses (normal play).

        Raises
        ------
        TypeError
            If a position is not hashable, or ``moves`` returns no iterable.
        CycleError
            If play from ``position`` can cycle (use :meth:`loopy_value`).
        MemoryLimitError
            If exploring would need more than ``max_memory``.

        Examples
        --------
        >>> ImpartialGame(lambda n: range(n)).value(Sum(3, 5))
        6
        """
        self._explore([position], max_memory)
        return self._known_value(position)

    def _known_value(self, position: Hashable) -> int:
        """The value of an explored position: the xor of its components'."""
        return functools.reduce(operator.xor,
                                (int(self._value[self._id[c]]) for c in _components(position)), 0)

    @_locked
    def values(self, positions: Iterable[Hashable], *,
               max_memory: int | None = None) -> Int64Array:
        """Grundy values of many positions at once.

        Parameters
        ----------
        positions : iterable
            Positions (or sums) of the game.
        max_memory : int, optional
            Bytes the exploration may take, everything the game keeps
            included (default: the memory available).

        Returns
        -------
        numpy.ndarray
            int64, read-only, one value per position.

        Raises
        ------
        TypeError, CycleError, MemoryLimitError
            As for :meth:`value`.

        Examples
        --------
        >>> ImpartialGame(lambda n: range(n)).values([0, 5, 3]).tolist()
        [0, 5, 3]
        """
        if isinstance(positions, (str, bytes)) or not hasattr(positions, "__iter__"):
            raise TypeError(f"values() takes an iterable of positions, got {shorten(positions)}")
        positions = list(positions)
        self._explore(positions, max_memory)
        return readonly(np.array([self._known_value(p) for p in positions], dtype=np.int64))

    @_locked
    def moves(self, position: Hashable, *, max_memory: int | None = None) -> list[Hashable]:
        """The options of a position, as the move function gives them.

        For a :class:`Sum`: the sums with one part moved.

        Parameters
        ----------
        position : hashable or Sum
            A position of the game.
        max_memory : int, optional
            Bytes the exploration may take, everything the game keeps
            included (default: the memory available).

        Returns
        -------
        list

        Raises
        ------
        TypeError, CycleError, MemoryLimitError
            As for :meth:`value`.

        Examples
        --------
        >>> ImpartialGame(lambda n: range(n)).moves(Sum(1, 2))
        [Sum(0, 2), Sum(1, 0), Sum(1, 1)]
        """
        if isinstance(position, Sum):
            parts = position.parts
            out: list[Hashable] = []
            for idx, p in enumerate(parts):
                self._explore([p], max_memory)
                for o in self._moves_of[p]:
                    out.append(Sum(*parts[:idx], *_components(o), *parts[idx + 1:]))
            return out
        self._explore([position], max_memory)
        return list(self._moves_of[position])

    @_locked
    def winning_moves(self, position: Hashable, *,
                      max_memory: int | None = None) -> list[Hashable]:
        """The options that leave a position of value 0 (none in a LOSS).

        Parameters
        ----------
        position : hashable or Sum
            A position of the game.
        max_memory : int, optional
            Bytes the exploration may take, everything the game keeps
            included (default: the memory available).

        Returns
        -------
        list

        Raises
        ------
        TypeError, CycleError, MemoryLimitError
            As for :meth:`value`.

        Examples
        --------
        >>> ImpartialGame(lambda n: range(n)).winning_moves(Sum(1, 3))
        [Sum(1, 1)]
        """
        options = self.moves(position, max_memory=max_memory)   # explores every option
        return [o for o in options if self._known_value(o) == 0]

    # -- games with cycles ----------------------------------------------------

    def _loopy_options(self, node: Hashable) -> list[Hashable]:
        """Options of a node of the explored graph.  A node is a position or a
        Sum of two or more positions (whose moves change one part)."""
        if isinstance(node, Sum):
            out: list[Hashable] = []
            parts = node.parts
            for i, p in enumerate(parts):
                for o in self._loopy_options(p):
                    out.append(_node(Sum(*parts[:i], o, *parts[i + 1:])))
            return out
        return [_node(o) for o in self._call_moves(node)]

    def _explored(self, position: Hashable, max_memory: int | None
                  ) -> tuple[GameGraph, list[Hashable], dict[Hashable, int]]:
        """Every position reachable from ``position`` (checked hashable by
        the caller), explored by the library's one explorer: the graph
        (vertex i is position i; ``position`` is 0), the positions and their
        numbers.  Options that are sums become positions of their own (a
        move changes one part); a one-part sum is its part."""
        positions: list[Hashable] = []
        index: dict[Hashable, int] = {}
        found = explore([_node(position)], self._loopy_options, index=index,
                        positions=positions, max_memory=max_memory, what=repr(self))
        return (GameGraph._owned(found.indptr, found.indices, explored=True), positions,
                index)

    @_locked
    def loopy_value(self, position: Hashable, *, max_memory: int | None = None) -> LoopyValue:
        """Generalized Sprague-Grundy value of a position of a game that may
        have cycles.

        Explores every position reachable from ``position`` (iteratively);
        options that are sums become positions of their own (a move changes
        one part).  The value of a :class:`Sum` is the sum of its parts' values.

        Parameters
        ----------
        position : hashable or Sum
            A position of the game.
        max_memory : int, optional
            Bytes the exploration may take (default: the memory available).

        Returns
        -------
        LoopyValue

        Raises
        ------
        TypeError
            If a position is not hashable.
        MemoryLimitError
            If exploring would need more than ``max_memory``.

        Examples
        --------
        From n you may go to n - 1, or from 2 back up to 3:

        >>> game = ImpartialGame(lambda n: ([n - 1] if n else []) + ([3] if n == 2 else []))
        >>> [game.loopy_value(n) for n in range(4)]
        [LoopyValue(0), LoopyValue(1), LoopyValue.inf({1}), LoopyValue.inf({})]
        >>> game.loopy_value(2).outcome, game.loopy_value(Sum(2, 1)).outcome
        (DRAW, WIN)
        """
        if isinstance(position, Sum) and len(position) != 1:
            return loopy_sum(self.loopy_value(p, max_memory=max_memory) for p in position.parts)
        for c in _components(position):
            _check_hashable(c, "got the position")
        root = _node(position)
        if root in self._loopy_values:
            return self._loopy_values[root]
        g, positions, _ = self._explored(root, max_memory)
        lv = g.loopy_values(max_memory=max_memory)
        for i, node in enumerate(positions):
            self._loopy_values[node] = lv[i]
        return self._loopy_values[root]

    @_locked
    def solve(self, position: Hashable, *, misere: bool = False,
              max_memory: int | None = None, threads: int | None = None) -> GameSolution:
        """Outcome, remoteness and best move of every position reachable from one.

        Explores the game from ``position`` (its start) as a graph, sums
        included as positions of their own, and solves it with the
        retrograde engine: exact remoteness, misère play, and games with
        cycles (draws) alike.

        Parameters
        ----------
        position : hashable or Sum
            Where the game starts.
        misere : bool, default False
            A position with no move is a WIN (normally a LOSS).
        max_memory : int, optional
            Bytes the solve may take (default: the memory available).
        threads : int, optional
            Threads for the solve of the explored graph, as in
            :meth:`GameGraph.solve` (the exploration runs in Python, on one).

        Returns
        -------
        GameSolution
            The solution of every game explored from its start (as
            :func:`grundy.solve_game` gives): positions are the game's, in
            the order found; ``start`` is ``position``.

        Raises
        ------
        TypeError
            If a position is not hashable.
        MemoryLimitError
            If the solve would need more than ``max_memory``.

        Examples
        --------
        >>> game = ImpartialGame(lambda n: [n - s for s in (1, 2) if s <= n])
        >>> sol = game.solve(4)
        >>> sol[4], sol.line()
        (Evaluation(WIN, remoteness=3, move=3), [4, 3, 2, 0])
        >>> game.solve(4, misere=True)[4].outcome
        LOSS
        """

        misere = check_bool(misere, "misere")
        threads = check_threads(threads)
        for c in _components(position):
            _check_hashable(c, "got the position")
        g, positions, index = self._explored(position, max_memory)
        sol = g.solve(misere=misere, max_memory=max_memory, threads=threads)
        return GameSolution._owned(g, positions, index, sol, None, None)


def _node(option: Hashable) -> Hashable:
    """Normal form of an option as a graph node: a one-part Sum is its part."""
    if isinstance(option, Sum) and len(option) == 1:
        return option.parts[0]
    return option
