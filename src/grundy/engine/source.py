"""Compiled games: any ``MoveSource`` plug-in, solved without an edge list.

A game written in Cython subclasses ``MoveSource`` (``from grundy.plugin
cimport MoveSource``; the contract is documented in the installed
``grundy/plugin.pxd``, and ``examples/plugin/`` is a template): it numbers
its positions 0..n-1 and gives each position's predecessors, successors
and primitive value.  :func:`solve_source` runs the one driver
(:mod:`grundy.engine.driver`) over it and returns a :class:`SourceSolution`,
which speaks the protocol of every solved game
(:mod:`grundy.engine.solution`).  Police and thief
(:mod:`grundy.games.police`) is such a plug-in.

Examples
--------
>>> import grundy
>>> from grundy._core.police import PoliceThiefSource
>>> import numpy as np
>>> step = np.array([[1], [-1]])              # two cells: a step from 0 to 1
>>> back = np.array([[-1], [0]])              # cell 1 is entered from 0
>>> src = PoliceThiefSource(step, step, back, back, np.zeros(2, np.uint8), True)
>>> sol = solve_source(src)
>>> sol.n_positions, sol[3], sol.counts()[grundy.WIN]
(8, Evaluation(WIN, remoteness=1, move=6), 3)
"""
from __future__ import annotations

import threading
from typing import Any

import numpy as np
import numpy.typing as npt

from grundy._common import (DRAW, Int64Array, check_bool, check_memory, check_number,
                            check_threads, readonly, shorten)
from grundy._core.source import MoveSource
from grundy._progress import Progress, check_progress
from grundy.engine.driver import Remoteness, best_moves, solve_states, wide_remoteness
from grundy.engine.solution import Solution, checked_array

__all__ = ["SourceSolution", "solve_source"]

def solve_source(source: Any, *, misere: bool = False, max_memory: int | None = None,
                 progress: Progress = None, threads: int | None = None) -> SourceSolution:
    """Solve every state of a compiled game (a ``MoveSource`` plug-in).

    Parameters
    ----------
    source : MoveSource
        The game's rules, compiled.
    misere : bool, default False
        A state with no move (and no primitive value) is a WIN (normally a
        LOSS).
    max_memory : int, optional
        Bytes the solve may take (default: the memory available); refused
        before the state arrays are allocated.
    progress : bool or callable, optional
        True draws a progress bar on a terminal (the ``grundy[progress]``
        extra); a callable is called as ``progress(done, total)`` about
        every quarter second (done: the positions decided).
    threads : int, optional
        Threads for the solve (default: the cores other work leaves free;
        1: the serial pass; at most 4 a core are started).  Any number gives
        the same answers.

    Returns
    -------
    SourceSolution

    Raises
    ------
    TypeError
        If ``source`` is not a MoveSource.
    ValueError
        If the source breaks its contract (a bad primitive value, too many
        moves), naming the state.
    MemoryLimitError
        If the solve would need more than ``max_memory``.

    Examples
    --------
    >>> from grundy._core.police import PoliceThiefSource
    >>> import numpy as np
    >>> step, back = np.array([[1], [-1]]), np.array([[-1], [0]])
    >>> src = PoliceThiefSource(step, step, back, back, np.zeros(2, np.uint8), False)
    >>> solve_source(src).outcome.tolist()
    [-1, 1, -1, 1, -1, -1, -1, 1]
    """
    if not isinstance(source, MoveSource):
        raise TypeError(f"source must be a MoveSource (a compiled game), got {shorten(source)}")
    misere = check_bool(misere, "misere")
    check_progress(progress)
    threads = check_threads(threads)
    outcome, remoteness = solve_states(source, misere=misere, max_memory=max_memory,
                                       what=f"solving a game of {source.n_positions:,} states",
                                       progress=progress, threads=threads)
    solution: SourceSolution = SourceSolution._owned(source, outcome, remoteness, max_memory,
                                                     threads)
    return solution


class StateSolution(Solution):
    """Base of the solutions whose positions are state numbers 0..n-1, held
    as the solve's outcome array and compact remoteness (0 at draws).

    ``remoteness`` and ``move`` (8 bytes a position each) are built on
    first use, within ``max_memory``, while ``sol[p]``, ``best_move`` and
    ``line`` never need them.  A subclass gives the best moves of a range
    of states (``_moves``); see :class:`SourceSolution`.

    Examples
    --------
    >>> from grundy._core.police import PoliceThiefSource
    >>> import numpy as np
    >>> step, back = np.array([[1], [-1]]), np.array([[-1], [0]])
    >>> src = PoliceThiefSource(step, step, back, back, np.zeros(2, np.uint8), True)
    >>> isinstance(solve_source(src), StateSolution)
    True
    """

    __slots__ = ("_outcome", "_rem", "_remoteness", "_move", "_max_memory", "_lock")
    _position_name = "state number"            # in the errors of index()

    def _setup_states(self, outcome: npt.NDArray[np.int8], remoteness: npt.NDArray[Any],
                      max_memory: int | None) -> None:
        self._outcome = outcome
        self._rem = remoteness                      # compact: 0 at draws
        self._remoteness: Int64Array | None = None
        self._move: Int64Array | None = None
        self._max_memory = max_memory
        self._lock = threading.Lock()               # one build of each lazy array

    def _moves(self, start: int, stop: int) -> Int64Array:
        """The best moves of the states start..stop-1 (-1: none)."""
        raise NotImplementedError

    @property
    def outcome(self) -> npt.NDArray[np.int8]:
        """Outcome of every state, int8 (WIN 1, LOSS -1, DRAW 0, TIE 2), read-only.

        Examples
        --------
        >>> from grundy._core.police import PoliceThiefSource
        >>> import numpy as np
        >>> step, back = np.array([[1], [-1]]), np.array([[-1], [0]])
        >>> src = PoliceThiefSource(step, step, back, back, np.zeros(2, np.uint8), True)
        >>> solve_source(src).outcome.tolist()
        [-1, 1, -1, 1, 0, 0, -1, 1]
        """
        return self._outcome

    @property
    def remoteness(self) -> Int64Array:
        """Remoteness of every state, int64 (-1 for draws), read-only.

        Built on first use (8 bytes a state), within the solve's ``max_memory``.

        Raises
        ------
        MemoryLimitError
            If the array would need more memory than allowed.

        Examples
        --------
        >>> from grundy._core.police import PoliceThiefSource
        >>> import numpy as np
        >>> step, back = np.array([[1], [-1]]), np.array([[-1], [0]])
        >>> src = PoliceThiefSource(step, step, back, back, np.zeros(2, np.uint8), True)
        >>> solve_source(src).remoteness.tolist()
        [0, 0, 2, 1, -1, -1, 0, 0]
        """
        with self._lock:
            if self._remoteness is None:
                check_memory(9 * self._outcome.size, self._max_memory,
                             f"the int64 remoteness of {self._outcome.size:,} positions")
                self._remoteness = wide_remoteness(self._outcome, self._rem)
            return self._remoteness

    @property
    def move(self) -> Int64Array:
        """Number of the state an optimal move leads to, int64 (-1: none), read-only.

        Built on first use (8 bytes a state), within the solve's
        ``max_memory``: the first optimal successor in the game's move order.

        Raises
        ------
        MemoryLimitError
            If the array would need more memory than allowed.

        Examples
        --------
        >>> from grundy._core.police import PoliceThiefSource
        >>> import numpy as np
        >>> step, back = np.array([[1], [-1]]), np.array([[-1], [0]])
        >>> src = PoliceThiefSource(step, step, back, back, np.zeros(2, np.uint8), True)
        >>> solve_source(src).move.tolist()
        [-1, -1, 3, 6, 5, 4, -1, -1]
        """
        with self._lock:
            if self._move is None:
                n = self._outcome.size
                # The moves, and the keys they are found with (8 bytes a position each).
                check_memory(16 * n, self._max_memory, f"the int64 moves of {n:,} positions")
                self._move = readonly(self._moves(0, n))
            return self._move

    def _remoteness_at(self, i: int) -> int:
        return -1 if self._outcome[i] == DRAW else int(self._rem[i])

    def _move_at(self, i: int) -> int:
        if self._move is not None:
            return int(self._move[i])
        return int(self._moves(i, i + 1)[0])

    def index(self, position: Any) -> int:
        """Number of a position: the state number itself.

        Parameters
        ----------
        position : int
            A state number, 0..n_positions-1.

        Returns
        -------
        int

        Raises
        ------
        TypeError
            If it is not an integer.
        ValueError
            If it is out of range.

        Examples
        --------
        >>> from grundy._core.police import PoliceThiefSource
        >>> import numpy as np
        >>> step, back = np.array([[1], [-1]]), np.array([[-1], [0]])
        >>> src = PoliceThiefSource(step, step, back, back, np.zeros(2, np.uint8), True)
        >>> solve_source(src).index(5)
        5
        """
        return check_number(position, self._outcome.size, self._position_name)

    def position(self, i: int) -> Any:
        """The position numbered ``i``: the state number ``i``.

        Parameters
        ----------
        i : int
            A state number.

        Returns
        -------
        int

        Raises
        ------
        TypeError, ValueError
            As for :meth:`index`.

        Examples
        --------
        >>> from grundy._core.police import PoliceThiefSource
        >>> import numpy as np
        >>> step, back = np.array([[1], [-1]]), np.array([[-1], [0]])
        >>> src = PoliceThiefSource(step, step, back, back, np.zeros(2, np.uint8), True)
        >>> solve_source(src).position(5)
        5
        """
        return self.index(i)


class SourceSolution(StateSolution):
    """Every state of a compiled game, solved: the protocol of :class:`grundy.Solution`.

    Positions are the state numbers.  ``outcome`` is the solve's own
    array; ``remoteness`` and ``move`` (8 bytes a position each) are built
    on first use, within the solve's ``max_memory``, while ``sol[p]``,
    ``best_move`` and ``line`` never need them.  The best move of a state is
    its first optimal successor in the source's order.

    Parameters
    ----------
    source : MoveSource
        The game (kept as the attribute ``source``).
    outcome : array_like of int
        The outcome of every state (-1..2), copied as int8.
    remoteness : array_like of int
        The remoteness of every state (>= 0; 0 or -1 at draws), copied as
        int32.
    max_memory : int, optional
        Bytes the arrays built on first use may take.

    Raises
    ------
    TypeError
        If ``source`` is not a MoveSource, or an array does not hold integers.
    ValueError
        If an array has the wrong length or a value out of range.

    Examples
    --------
    >>> from grundy._core.police import PoliceThiefSource
    >>> import numpy as np
    >>> step, back = np.array([[1], [-1]]), np.array([[-1], [0]])
    >>> src = PoliceThiefSource(step, step, back, back, np.zeros(2, np.uint8), True)
    >>> sol = solve_source(src)
    >>> sol.line(3), sol.move.tolist()
    ([3, 6], [-1, -1, 3, 6, 5, 4, -1, -1])
    """

    __slots__ = ("source", "_threads")

    def __init__(self, source: Any, outcome: npt.ArrayLike, remoteness: npt.ArrayLike, *,
                 max_memory: int | None = None) -> None:
        if not isinstance(source, MoveSource):
            raise TypeError(f"source must be a MoveSource, got {shorten(source)}")
        n = source.n_positions
        checked = checked_array(outcome, "outcome", np.int8, n, -1, 2)
        rem = checked_array(remoteness, "remoteness", np.int32, n, -1, 2 ** 31 - 1)
        rem = np.where(checked == DRAW, np.int32(0), rem)      # the compact form
        self._setup(source, checked, readonly(rem), max_memory)

    @classmethod
    def _owned(cls, source: Any, outcome: npt.NDArray[np.int8], remoteness: Remoteness,
               max_memory: int | None, threads: int | None = None) -> Any:
        """A solution on the arrays of a solve (not copied)."""
        self = cls.__new__(cls)
        self._setup(source, readonly(outcome), readonly(remoteness), max_memory, threads)
        return self

    def _setup(self, source: Any, outcome: npt.NDArray[np.int8], remoteness: Remoteness,
               max_memory: int | None, threads: int | None = None) -> None:
        self.source = source
        self._threads = threads                     # for the move array (None: all cores)
        self._setup_states(outcome, remoteness, max_memory)

    def __reduce__(self) -> tuple[Any, ...]:
        raise TypeError(f"a {type(self).__name__} holds a compiled game, which cannot be "
                        f"pickled: keep its outcome and remoteness arrays instead")

    def _saved(self) -> tuple[str, Any, dict[str, npt.NDArray[Any]]]:
        raise TypeError(f"a {type(self).__name__} of a compiled game cannot be saved (its "
                        f"rules are code, not data): keep its outcome, remoteness and move "
                        f"arrays with numpy.save instead")

    def _moves(self, start: int, stop: int) -> Int64Array:
        # The first optimal successor in the source's order.
        return best_moves(self.source, self._outcome, self._rem, start, stop,
                          threads=check_threads(self._threads) if stop - start > 1 else 1)

