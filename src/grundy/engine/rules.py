"""Games from their rules: explore every position reachable from the start,
then solve them with the retrograde engine.

Two protocols describe a game:

- :class:`Game`, one position at a time: ``start()``, ``moves(p)``,
  ``primitive(p)`` and optionally ``canonical(p)``; positions are any
  hashable Python values.  Any object with these methods works; deriving
  from :class:`Game` only documents the intent.
- :class:`BatchGame`, many positions at once: positions are int64 codes and
  the rules are numpy functions over arrays of codes; the exploration
  deduplicates codes in compiled code.

:func:`solve_game` explores (iteratively, breadth first: games a million
moves deep are fine), builds the game graph and solves it, ties included.
The result is a :class:`GameSolution`, which speaks the protocol of every
solved game (:mod:`grundy.engine.solution`).

Memory: the per-position protocol keeps each distinct position (your
object, a dict entry and a list slot: about 100 bytes besides the object
itself) and 8 bytes a move; the batch protocol 8 bytes a code, about 32
bytes a position in the code table, and 8 bytes a move, besides the solve's
own 42 bytes a position and 8 a move.

Examples
--------
Take 1 or 2 from a heap of 5; taking the last one ties the game:

>>> from grundy import TIE
>>> class TakeAway(Game):
...     def start(self):
...         return 5
...     def moves(self, n):
...         return [n - k for k in (1, 2) if k <= n]
...     def primitive(self, n):
...         return TIE if n == 0 else None
>>> sol = solve_game(TakeAway())
>>> sol[5], sol.line()
(Evaluation(TIE, remoteness=3, move=4), [5, 4, 2, 0])
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from grundy._common import (Int64Array, Outcome, check_bool, check_count, check_number,
                            check_threads, readonly, shorten)
from grundy._core.explore import CodeTable
from grundy._progress import Progress, check_progress, reporting
from grundy.engine.explore import explore, explore_batch
from grundy.engine.graph import GameGraph, graph_data, saved_graph
from grundy.engine.solution import Solution, checked_array
from grundy.engine.store import positions_data, positions_of, saved_solution

__all__ = ["Game", "BatchGame", "GameSolution", "solve_game"]


class Game:
    """A game given one position at a time (the per-position protocol).

    Subclass it, or write any class with the same methods.

    Examples
    --------
    Nim on one heap of 3: take any number of tokens; no move left loses.

    >>> class OneHeap(Game):
    ...     def start(self):
    ...         return 3
    ...     def moves(self, n):
    ...         return range(n)
    >>> solve_game(OneHeap())[3]
    Evaluation(WIN, remoteness=1, move=0)
    """

    def start(self) -> Hashable:
        """The starting position (any hashable value).

        Returns
        -------
        hashable

        Examples
        --------
        >>> Game().start()
        Traceback (most recent call last):
        ...
        NotImplementedError: a Game needs start(): the position play starts from
        """
        raise NotImplementedError("a Game needs start(): the position play starts from")

    def moves(self, position: Any) -> Iterable[Hashable]:
        """The positions one move from ``position`` leads to.

        Parameters
        ----------
        position
            A position of the game.

        Returns
        -------
        iterable of hashable

        Raises
        ------
        NotImplementedError
            Unless a subclass gives the rules.

        Examples
        --------
        >>> Game().moves(0)
        Traceback (most recent call last):
        ...
        NotImplementedError: a Game needs moves(position): the positions one move leads to
        """
        raise NotImplementedError("a Game needs moves(position): the positions one move "
                                  "leads to")

    def primitive(self, position: Any) -> Outcome | None:
        """WIN, LOSS or TIE for the player to move if the game is over at
        ``position``, else None (the default: the game ends only when there
        is no move, a LOSS, or a WIN with ``misere=True``).

        Parameters
        ----------
        position
            A position of the game.

        Returns
        -------
        Outcome or None

        Raises
        ------
        Exception
            Whatever the rules raise.

        Examples
        --------
        >>> print(Game().primitive(0))
        None
        """
        return None


class BatchGame:
    """A game whose positions are int64 codes, with rules over arrays of codes.

    Methods (``canonical`` is optional):

    - ``start() -> int``: the starting code;
    - ``moves(codes) -> (offsets, children)``: int64 arrays, the successors
      of ``codes[i]`` being ``children[offsets[i]:offsets[i + 1]]``
      (``offsets`` has ``len(codes) + 1`` entries, starting at 0);
    - ``primitive(codes) -> int8 array``: 0 where the game goes on, else
      WIN, LOSS or TIE for the player to move (only positions that are not
      over are asked for their moves);
    - ``canonical(codes) -> int64 array``: one representative code of each
      code's symmetry class.

    Examples
    --------
    One heap of 10: take 1, 2 or 3; no move left loses.

    >>> import numpy as np
    >>> class Subtraction(BatchGame):
    ...     def start(self):
    ...         return 10
    ...     def moves(self, codes):
    ...         children = codes[:, None] - np.arange(1, 4)
    ...         keep = children >= 0
    ...         offsets = np.concatenate([[0], np.cumsum(keep.sum(axis=1))])
    ...         return offsets, children[keep]
    ...     def primitive(self, codes):
    ...         return np.zeros(len(codes), dtype=np.int8)
    >>> sol = solve_game(Subtraction())
    >>> sol[10], sol[8]
    (Evaluation(WIN, remoteness=5, move=8), Evaluation(LOSS, remoteness=4, move=7))
    """

    def start(self) -> int:
        """The starting position's code.

        Returns
        -------
        int

        Examples
        --------
        >>> BatchGame().start()
        Traceback (most recent call last):
        ...
        NotImplementedError: a BatchGame needs start(): the starting code
        """
        raise NotImplementedError("a BatchGame needs start(): the starting code")

    def moves(self, codes: Int64Array) -> tuple[npt.ArrayLike, npt.ArrayLike]:
        """The successors of many positions at once, as CSR arrays.

        Parameters
        ----------
        codes : numpy.ndarray
            int64 codes of positions that are not over.

        Returns
        -------
        (offsets, children) : tuple of int64 arrays

        Raises
        ------
        NotImplementedError
            Unless a subclass gives the rules.

        Examples
        --------
        >>> BatchGame().moves(np.zeros(1, dtype=np.int64))
        Traceback (most recent call last):
        ...
        NotImplementedError: a BatchGame needs moves(codes) -> (offsets, children)
        """
        raise NotImplementedError("a BatchGame needs moves(codes) -> (offsets, children)")

    def primitive(self, codes: Int64Array) -> npt.ArrayLike:
        """0 where the game goes on, else WIN / LOSS / TIE, for many positions.

        Parameters
        ----------
        codes : numpy.ndarray
            int64 codes.

        Returns
        -------
        numpy.ndarray
            int8, one per code (default: all 0).

        Raises
        ------
        Exception
            Whatever the rules raise.

        Examples
        --------
        >>> BatchGame().primitive(np.array([5, 6]))
        array([0, 0], dtype=int8)
        """
        return np.zeros(len(codes), dtype=np.int8)


class GameSolution(Solution):
    """A game solved from its rules: the protocol of :class:`grundy.Solution`.

    Positions are the game's own (canonical ones when the game has
    ``canonical``: ``sol[p]`` accepts any position and answers for its
    representative).  Positions are numbered in the order the exploration
    found them, the start first.  Made by :func:`solve_game`.  A solution
    read back by :func:`grundy.load` no longer has the game's code: ask it
    about representatives, ``sol[game.canonical(p)]``.

    Parameters
    ----------
    graph : GameGraph
        The explored game graph (unnamed: vertex i is position i).
    positions : sequence
        The positions by number (a list, or an int64 array of codes).
    outcome, remoteness, move : numpy.ndarray
        The solve's arrays (int8, int64, int64), kept read-only.
    canonical : callable, optional
        The game's ``canonical`` (one position in, one out).

    Raises
    ------
    TypeError, ValueError
        If the arrays do not fit the graph.

    Examples
    --------
    >>> class Chain(Game):
    ...     def start(self):
    ...         return "a"
    ...     def moves(self, p):
    ...         return {"a": ["b"], "b": ["c"], "c": []}[p]
    >>> sol = solve_game(Chain())
    >>> sol, sol.positions
    (GameSolution(n_positions=3, WIN=1, LOSS=2, DRAW=0), ('a', 'b', 'c'))
    """

    __slots__ = ("graph", "_positions", "_index", "_outcome", "_remoteness", "_move",
                 "_canonical", "_batch_canonical")

    def __init__(self, graph: GameGraph, positions: Sequence[Hashable] | Int64Array,
                 outcome: npt.NDArray[np.int8], remoteness: Int64Array, move: Int64Array, *,
                 canonical: Callable[[Any], Hashable] | None = None) -> None:
        if not isinstance(graph, GameGraph):
            raise TypeError(f"graph must be a GameGraph, got {shorten(graph)}")
        n = graph.n_positions
        if len(positions) != n:
            raise ValueError(f"{len(positions)} positions for a graph of {n}")
        kept, index = _position_index(positions)
        self._setup(graph, kept, index, checked_array(outcome, "outcome", np.int8, n, -1, 2),
                    checked_array(remoteness, "remoteness", np.int64, n, -1, 2 ** 63 - 1),
                    checked_array(move, "move", np.int64, n, -1, n - 1), canonical, None)

    def __reduce__(self) -> tuple[Any, ...]:
        # The code table of a batch game is rebuilt from the codes; the arrays
        # come back read-only.
        return (_restore_game_solution, (type(self), self.graph, self._positions,
                                         self._outcome, self._remoteness, self._move,
                                         self._canonical, self._batch_canonical))

    def _saved(self) -> tuple[str, Any, dict[str, npt.NDArray[Any]]]:
        batch = isinstance(self._positions, np.ndarray)
        names, arrays = positions_data(self._positions, self.n_positions)
        arrays.update(graph_data(self.graph)[1], outcome=self._outcome,
                      remoteness=self._remoteness, move=self._move)
        return "game", {"positions": names, "batch": batch}, arrays

    @classmethod
    def _from_saved(cls, data: Any, arrays: dict[str, npt.NDArray[Any]]) -> GameSolution:
        graph = saved_graph(None, arrays)
        n = graph.n_positions
        positions = positions_of(data["positions"], arrays, n)
        if positions is None:
            raise ValueError("a saved game lacks its positions")
        if isinstance(positions, np.ndarray) and data["batch"] is not True:
            positions = positions.tolist()       # a per-position game's int positions
        kept, index = _position_index(positions)
        outcome, remoteness, move = saved_solution(arrays, n)
        self = cls.__new__(cls)
        self._setup(graph, kept, index, readonly(outcome), readonly(remoteness),
                    readonly(move), None, None)
        return self

    @classmethod
    def _owned(cls, graph: GameGraph, positions: Sequence[Hashable] | Int64Array, index: Any,
               solved: Any, canonical: Callable[[Any], Hashable] | None,
               batch_canonical: Callable[[Int64Array], npt.ArrayLike] | None
               ) -> GameSolution:
        """The solution of an exploration (its arrays and index, not copied)."""
        self = cls.__new__(cls)
        self._setup(graph, positions, index, solved.outcome, solved.remoteness, solved.move,
                    canonical, batch_canonical)
        return self

    def _setup(self, graph: GameGraph, positions: Sequence[Hashable] | Int64Array,
               index: Any, outcome: npt.NDArray[np.int8], remoteness: Int64Array,
               move: Int64Array, canonical: Callable[[Any], Hashable] | None,
               batch_canonical: Callable[[Int64Array], npt.ArrayLike] | None) -> None:
        self.graph = graph
        if not isinstance(positions, np.ndarray):
            positions = tuple(positions)        # read-only, like every array here
        self._positions = positions
        self._index = index
        self._outcome = outcome
        self._remoteness = remoteness
        self._move = move
        self._canonical = canonical
        self._batch_canonical = batch_canonical

    @property
    def outcome(self) -> npt.NDArray[np.int8]:
        """Outcome of every position, int8 (WIN 1, LOSS -1, DRAW 0, TIE 2), read-only.

        Examples
        --------
        >>> class Two(Game):
        ...     def start(self): return 1
        ...     def moves(self, n): return [n - 1] if n else []
        >>> solve_game(Two()).outcome
        array([ 1, -1], dtype=int8)
        """
        return self._outcome

    @property
    def remoteness(self) -> Int64Array:
        """Remoteness of every position, int64 (-1 for draws), read-only.

        Examples
        --------
        >>> class Two(Game):
        ...     def start(self): return 1
        ...     def moves(self, n): return [n - 1] if n else []
        >>> solve_game(Two()).remoteness
        array([1, 0])
        """
        return self._remoteness

    @property
    def move(self) -> Int64Array:
        """Number of the position an optimal move leads to, int64 (-1: none), read-only.

        Examples
        --------
        >>> class Two(Game):
        ...     def start(self): return 1
        ...     def moves(self, n): return [n - 1] if n else []
        >>> solve_game(Two()).move
        array([ 1, -1])
        """
        return self._move

    @property
    def start(self) -> Hashable:
        """The starting position (number 0).

        Examples
        --------
        >>> class Two(Game):
        ...     def start(self): return 1
        ...     def moves(self, n): return [n - 1] if n else []
        >>> solve_game(Two()).start
        1
        """
        return self.position(0) if self.n_positions else None

    @property
    def positions(self) -> Sequence[Hashable]:
        """The positions by number (a tuple, or for a batch game the read-only int64 codes).

        Examples
        --------
        >>> class Two(Game):
        ...     def start(self): return 1
        ...     def moves(self, n): return [n - 1] if n else []
        >>> solve_game(Two()).positions
        (1, 0)
        """
        return self._positions  # type: ignore[return-value]

    def index(self, position: Any) -> int:
        """Number of a position (of its representative, for a game with ``canonical``).

        Parameters
        ----------
        position
            A position of the game (a code, for a batch game).

        Returns
        -------
        int

        Raises
        ------
        TypeError
            If ``position`` is not hashable (not an integer, for a batch game).
        ValueError
            If it is not a position reachable from the start.

        Examples
        --------
        >>> class Two(Game):
        ...     def start(self): return 1
        ...     def moves(self, n): return [n - 1] if n else []
        >>> solve_game(Two()).index(0)
        1
        """
        if isinstance(self._index, dict):
            key = self._canonical(position) if self._canonical is not None else position
            try:
                return int(self._index[key])
            except TypeError:
                raise TypeError(f"positions must be hashable, got {shorten(position)}") from None
            except KeyError:
                raise ValueError(f"{shorten(position)} is not a position reachable from the "
                                 f"start") from None
        code = check_count(position, "position code", minimum=-2 ** 63)
        if self._batch_canonical is not None:
            code = int(np.asarray(self._batch_canonical(np.array([code], dtype=np.int64)))[0])
        elif self._canonical is not None:
            code = check_count(self._canonical(code), "canonical(code)", minimum=-2 ** 63)
        ids = np.empty(1, dtype=np.int64)
        self._index.lookup(np.array([code], dtype=np.int64), ids)
        if ids[0] < 0:
            raise ValueError(f"{code} is not a position reachable from the start")
        return int(ids[0])

    def position(self, i: int) -> Hashable:
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
        >>> class Two(Game):
        ...     def start(self): return 1
        ...     def moves(self, n): return [n - 1] if n else []
        >>> solve_game(Two()).position(1)
        0
        """
        i = check_number(i, self.n_positions)
        if isinstance(self._positions, np.ndarray):
            return int(self._positions[i])
        return self._positions[i]


def _position_index(positions: Sequence[Hashable] | Int64Array
                    ) -> tuple[Sequence[Hashable] | Int64Array, Any]:
    """The positions kept (a tuple, or read-only int64 codes) and their index
    (a dict, or a compiled code table); ValueError unless they are distinct."""
    if isinstance(positions, np.ndarray):
        codes = readonly(np.array(positions, dtype=np.int64))
        table = _code_table(codes)
        if table.n != len(codes):
            raise ValueError("the position codes must be distinct")
        return codes, table
    kept = tuple(positions)
    index = {p: i for i, p in enumerate(kept)}
    if len(index) != len(kept):
        raise ValueError("the positions must be distinct")
    return kept, index


def _restore_game_solution(cls: type[GameSolution], graph: GameGraph,
                           positions: Sequence[Hashable] | Int64Array,
                           outcome: npt.NDArray[np.int8], remoteness: Int64Array,
                           move: Int64Array, canonical: Any, batch_canonical: Any
                           ) -> GameSolution:
    kept, index = _position_index(positions)
    self = cls.__new__(cls)
    self._setup(graph, kept, index, readonly(np.array(outcome)), readonly(np.array(remoteness)),
                readonly(np.array(move)), canonical, batch_canonical)
    return self


def _code_table(codes: Int64Array) -> Any:
    table = CodeTable(max(len(codes), 1))
    ids = np.empty(len(codes), dtype=np.int64)
    table.insert(codes, ids)
    return table


def solve_game(game: Any, *, start: Any = None, misere: bool = False,
               max_positions: int | None = None, max_memory: int | None = None,
               progress: Progress = None, threads: int | None = None) -> GameSolution:
    """Explore a game from its rules and solve every position reachable from the start.

    Parameters
    ----------
    game : Game or BatchGame (or any object with their methods)
        The rules.  A game is taken as a batch game if it derives from
        :class:`BatchGame`.
    start : position, optional
        Where to start (default: ``game.start()``).
    misere : bool, default False
        A position with no move (and no primitive value) is a WIN
        (normally a LOSS).
    max_positions : int, optional
        Refuse games with more positions than this.
    max_memory : int, optional
        Bytes the exploration and the solve may take (default: the memory
        available).
    progress : bool or callable, optional
        While exploring: True draws a progress bar on a terminal (the
        ``grundy[progress]`` extra); a callable is called as
        ``progress(explored, found)`` about every quarter second.
    threads : int, optional
        Threads for the solve once explored (default: the cores other
        work leaves free; 1: the serial pass; at most 4 a core are
        started).  Any number gives the same answers.

    Returns
    -------
    GameSolution

    Raises
    ------
    TypeError
        If a method returns the wrong kind of thing (the message names the
        method and the position), or ``misere`` is not a bool.
    ValueError
        If batch arrays have the wrong shape or offsets.
    MemoryLimitError
        If the game has more than ``max_positions`` positions, or needs more
        than ``max_memory``.

    Examples
    --------
    >>> class Countdown(Game):         # move 1 or 2 down; 0 has no move: a LOSS
    ...     def start(self): return 4
    ...     def moves(self, n): return [m for m in (n - 1, n - 2) if m >= 0]
    >>> sol = solve_game(Countdown())
    >>> sol[4], sol.line()
    (Evaluation(WIN, remoteness=3, move=3), [4, 3, 2, 0])
    >>> solve_game(Countdown(), misere=True)[4].outcome
    LOSS
    """
    misere = check_bool(misere, "misere")
    if max_positions is not None:
        max_positions = check_count(max_positions, "max_positions", minimum=1)
    check_progress(progress)
    threads = check_threads(threads)
    if isinstance(game, BatchGame):
        first = game.start() if start is None else start
        with reporting(progress, f"exploring {shorten(game, 30)}") as report:
            table, indptr, indices, labels = explore_batch(
                game, first, max_positions=max_positions, max_memory=max_memory,
                progress=report)
        sol = _solve(indptr, indices, labels, misere, max_memory, threads)
        return GameSolution._owned(sol.graph, readonly(table.codes()), table, sol, None,
                                   getattr(game, "canonical", None))
    for method in ("moves",) + (("start",) if start is None else ()):
        if not callable(getattr(game, method, None)):
            raise TypeError(f"a game needs a method {method}(); {shorten(game)} has none")
    first = game.start() if start is None else start
    primitive = getattr(game, "primitive", None)
    canonical = getattr(game, "canonical", None)
    index: dict[Hashable, int] = {}
    positions: list[Hashable] = []
    with reporting(progress, f"exploring {shorten(game, 30)}") as report:
        found = explore([first], game.moves, primitive, canonical, index=index,
                        positions=positions, max_positions=max_positions,
                        max_memory=max_memory, progress=report, what=shorten(game))
    sol = _solve(found.indptr, found.indices, found.labels, misere, max_memory, threads)
    return GameSolution._owned(sol.graph, positions, index, sol, canonical, None)


def _solve(indptr: Int64Array, indices: Int64Array, labels: npt.NDArray[np.int8],
           misere: bool, max_memory: int | None, threads: int) -> Any:
    g = GameGraph._owned(indptr, indices, explored=True)
    return g.solve(misere=misere, labels=labels, max_memory=max_memory, threads=threads)
