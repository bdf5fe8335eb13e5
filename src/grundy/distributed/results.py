"""What a distributed solve returns: the solution of a batch game numbered
0..n-1 (:class:`BatchGameSolution`), and the blocks saved with ``save_to=``
(:class:`SavedBlocks`).  A board or a compiled source comes back as the
single-machine solve's own solution class.
"""
from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import numpy.typing as npt

from grundy._common import (DRAW, Int64Array, as_int64_array, check_memory, check_number,
                            readonly, shorten)
from grundy._core import retrograde as _retro
from grundy.distributed.games import BATCH, BatchRules, game_spec
from grundy.engine.solution import Solution, checked_array
from grundy.engine.source import SourceSolution, StateSolution
from grundy.games.police import PoliceThiefSolution

__all__ = ["BatchGameSolution", "SavedBlocks", "load_blocks", "solution_of"]


def solution_of(kind: str, spec: Any, client_rules: Any, outcome: npt.NDArray[np.int8],
                remoteness: npt.NDArray[Any]) -> Solution:
    """The solution a single-machine solve of the game returns, on the arrays."""
    solution: Solution
    if kind == "police":
        solution = PoliceThiefSolution._of_board(spec, outcome, remoteness, None)
    elif kind == "source":
        solution = SourceSolution._owned(client_rules, readonly(outcome), readonly(remoteness),
                                         None)
    else:
        solution = BatchGameSolution._owned(spec, readonly(outcome), readonly(remoteness))
    return solution


def _batch_moves(rules: BatchRules, outcome: npt.NDArray[np.int8], rem: npt.NDArray[Any],
                 lo: int, hi: int) -> Int64Array:
    """The best moves of the positions lo..hi-1 of a batch game: each one's
    first optimal child in ``moves()`` order (the engine's move rule), -1
    where the game is over."""
    move = np.full(hi - lo, -1, dtype=np.int64)
    for a in range(lo, hi, BATCH):
        b = min(hi, a + BATCH)
        codes = np.arange(a, b, dtype=np.int64)
        open_ = np.flatnonzero(rules.primitive(codes) == 0)
        if not open_.size:
            continue
        offsets, children = rules.moves(codes[open_])
        found = np.empty(len(open_), dtype=np.int64)
        _retro.first_optimal(outcome, rem, codes[open_], offsets, children, found)
        move[open_ + (a - lo)] = found
    return move


class BatchGameSolution(StateSolution):
    """Every state of a batch game numbered 0..n-1, solved: the protocol of
    :class:`grundy.Solution`.

    Made by :func:`grundy.distributed.solve` for a batch game (one with
    ``n_positions`` and ``predecessors()``).  Positions are the codes
    0..n_positions-1 themselves.
    ``outcome`` is the solve's array; ``remoteness`` and ``move`` (8 bytes a
    position each) are built on first use, ``move`` by asking the game's
    ``moves()`` again: the best move of a state is its first optimal child
    in ``moves()`` order (a draw's: its first drawn child).

    Parameters
    ----------
    game : object
        The batch game (kept as the attribute ``game``): ``primitive(codes)``
        and ``moves(codes)`` are used for the best moves; ``start()``, if it
        has one, gives :attr:`start`.
    outcome : array_like of int
        The outcome of every state (-1..2), copied as int8.
    remoteness : array_like of int
        The remoteness of every state (>= 0; 0 or -1 at draws), copied as
        int32.

    Raises
    ------
    TypeError
        If an array does not hold integers.
    ValueError
        If the arrays have different lengths or a value out of range.

    Examples
    --------
    One heap of 0..5 tokens: take 1 or 2; states are the heap sizes.

    >>> import numpy as np
    >>> class Heap:
    ...     n_positions = 6
    ...     def primitive(self, codes): return np.zeros(len(codes), np.int8)
    ...     def moves(self, codes):
    ...         kids = codes[:, None] - np.array([1, 2])
    ...         ok = kids >= 0
    ...         return np.r_[0, np.cumsum(ok.sum(1))], kids[ok]
    ...     def predecessors(self, codes):
    ...         up = codes[:, None] + np.array([1, 2])
    ...         ok = up < 6
    ...         return np.r_[0, np.cumsum(ok.sum(1))], up[ok]
    >>> sol = BatchGameSolution(Heap(), [-1, 1, 1, -1, 1, 1], [0, 1, 1, 2, 3, 3])
    >>> sol[5], sol.line(5)
    (Evaluation(WIN, remoteness=3, move=3), [5, 3, 2, 0])
    """

    __slots__ = ("game",)
    _position_name = "code"

    def __init__(self, game: Any, outcome: npt.ArrayLike, remoteness: npt.ArrayLike) -> None:
        outcome = as_int64_array(outcome, "outcome", ndim=1)
        checked = checked_array(outcome, "outcome", np.int8, len(outcome), -1, 2)
        n = len(checked)
        rem = checked_array(remoteness, "remoteness", np.int32, n, -1, 2 ** 31 - 1)
        rem = np.where(checked == DRAW, np.int32(0), rem)          # the compact form
        self._setup(game, checked, readonly(rem))

    @classmethod
    def _owned(cls, game: Any, outcome: npt.NDArray[np.int8], remoteness: npt.NDArray[Any]
               ) -> BatchGameSolution:
        """A solution on the arrays of a solve (not copied)."""
        self = cls.__new__(cls)
        self._setup(game, readonly(outcome), readonly(remoteness))
        return self

    def _setup(self, game: Any, outcome: npt.NDArray[np.int8], rem: npt.NDArray[Any]) -> None:
        self.game = game
        self._setup_states(outcome, rem, None)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore_batch_solution, (type(self), self.game, self._outcome, self._rem))

    def _saved(self) -> tuple[str, Any, dict[str, npt.NDArray[Any]]]:
        raise TypeError("a BatchGameSolution cannot be saved (its rules are code, not data): "
                        "keep its outcome, remoteness and move arrays with numpy.save, or "
                        "solve with save_to=")

    def _moves(self, start: int, stop: int) -> Int64Array:
        # Asked of the game's moves(): the first optimal child in moves() order.
        rules = BatchRules(self.game, len(self._outcome))
        return _batch_moves(rules, self._outcome, self._rem, start, stop)

    @property
    def start(self) -> Any:
        """The game's ``start()``, if it has one (else None).

        Examples
        --------
        >>> print(BatchGameSolution(None, [1, -1], [1, 0]).start)
        None
        """
        start = getattr(self.game, "start", None)
        if not callable(start):
            return None
        try:
            return check_number(start(), len(self._outcome), "start()")
        except NotImplementedError:
            return None


def _restore_batch_solution(cls: type[BatchGameSolution], game: Any,
                            outcome: npt.NDArray[np.int8], rem: npt.NDArray[Any]
                            ) -> BatchGameSolution:
    return cls._owned(game, np.array(outcome), np.array(rem))


class SavedBlocks:
    """The answer of a distributed solve saved with ``save_to=``: one file a block.

    The directory holds ``index.json`` (the number of states, the block
    bounds, the file names) and one ``part-K.npz`` a block, with the arrays
    ``outcome`` (int8), ``remoteness`` (uint16 or int32, 0 at draws) and
    ``bounds`` (the block's first and last + 1 state numbers).

    Parameters
    ----------
    directory : str or os.PathLike
        Where the solve saved its blocks.

    Attributes
    ----------
    directory : str
    n_positions : int
    bounds : list of int
        Block k holds the states ``bounds[k]..bounds[k + 1] - 1``.
    files : list of str
        The block files, by block.
    kind : str
        ``"police"``, ``"source"`` or ``"batch"``: what was solved.

    Raises
    ------
    ValueError
        If the directory holds no readable index of saved blocks.

    Examples
    --------
    >>> import tempfile
    >>> SavedBlocks(tempfile.mkdtemp())                     # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: .../index.json: not the index of a distributed solve's saved blocks (...)
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = os.fspath(directory)
        path = os.path.join(self.directory, "index.json")
        try:
            with open(path) as f:
                index = json.load(f)
            assert index["format"] == "grundy-blocks" and index["version"] == 1
            self.n_positions = int(index["n_positions"])
            self.bounds = [int(b) for b in index["bounds"]]
            self.files = [str(name) for name in index["files"]]
            self.kind = str(index["kind"])
            assert len(self.files) == len(self.bounds) - 1
        except (OSError, ValueError, KeyError, TypeError, AssertionError) as exc:
            raise ValueError(f"{path}: not the index of a distributed solve's saved blocks "
                             f"({type(exc).__name__}: {exc})") from None

    def __len__(self) -> int:
        return len(self.files)

    def __repr__(self) -> str:
        return (f"SavedBlocks({self.directory!r}, n_positions={self.n_positions}, "
                f"blocks={len(self.files)})")

    def block(self, k: int) -> tuple[npt.NDArray[np.int8], npt.NDArray[Any]]:
        """The outcome and compact remoteness (0 at draws) of block ``k``.

        Parameters
        ----------
        k : int
            A block number.

        Returns
        -------
        (outcome, remoteness) : tuple of numpy.ndarray

        Raises
        ------
        ValueError
            If ``k`` is out of range or the file does not fit the index.

        Examples
        --------
        >>> saved = solve(board, client, partitions=4, save_to="run")  # doctest: +SKIP
        >>> outcome, remoteness = saved.block(2)                       # doctest: +SKIP
        >>> len(outcome) == saved.bounds[3] - saved.bounds[2]          # doctest: +SKIP
        True
        """
        k = check_number(k, len(self.files), "block")
        path = os.path.join(self.directory, self.files[k])
        with np.load(path) as data:
            outcome, rem = data["outcome"], data["remoteness"]
            bounds = data["bounds"].tolist()
        if bounds != self.bounds[k:k + 2] or len(outcome) != len(rem) or \
                len(outcome) != bounds[1] - bounds[0]:
            raise ValueError(f"{path} holds the states {bounds}, not "
                             f"{self.bounds[k:k + 2]} as the index says")
        return outcome, rem

    def arrays(self) -> tuple[npt.NDArray[np.int8], npt.NDArray[Any]]:
        """The outcome and compact remoteness of every state, read into memory.

        Returns
        -------
        (outcome, remoteness) : tuple of numpy.ndarray

        Raises
        ------
        MemoryLimitError
            If they do not fit the memory available.

        Examples
        --------
        >>> outcome, remoteness = load_blocks("run").arrays()         # doctest: +SKIP
        """
        check_memory(5 * self.n_positions, None, f"reading {self.n_positions:,} saved states")
        parts = [self.block(k) for k in range(len(self.files))]
        rem_type = np.result_type(*[r.dtype for _, r in parts]) if parts else np.uint16
        outcome = np.concatenate([o for o, _ in parts]) if parts else np.zeros(0, np.int8)
        rem = np.concatenate([r.astype(rem_type) for _, r in parts]) if parts else \
            np.zeros(0, np.uint16)
        return outcome, rem

    def solution(self, game: Any) -> Solution:
        """The solution, in memory, as :func:`solve` would have returned it.

        Parameters
        ----------
        game
            The game that was solved (the same argument as for :func:`solve`).

        Returns
        -------
        Solution

        Raises
        ------
        TypeError
            If ``game`` is not of the kind that was solved.
        ValueError
            If it does not have the number of states saved.

        Examples
        --------
        >>> sol = load_blocks("run").solution(board)                  # doctest: +SKIP
        >>> sol.result                                                # doctest: +SKIP
        'The thief escapes'
        """
        kind, spec, n, client_rules = game_spec(game)
        if kind != self.kind or n != self.n_positions:
            raise ValueError(f"the blocks hold a {self.kind} game of {self.n_positions:,} states, "
                             f"not {shorten(game)} ({kind}, {n:,} states)")
        outcome, rem = self.arrays()
        return solution_of(kind, spec, client_rules, outcome, rem)


def load_blocks(directory: str | os.PathLike[str]) -> SavedBlocks:
    """The blocks a distributed solve saved with ``save_to=``.

    Parameters
    ----------
    directory : str or os.PathLike

    Returns
    -------
    SavedBlocks

    Raises
    ------
    ValueError
        If the directory holds no readable index of saved blocks.

    Examples
    --------
    >>> import tempfile
    >>> load_blocks(tempfile.mkdtemp())                     # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ...index.json: not the index of a distributed solve's saved blocks (...)
    """
    return SavedBlocks(directory)
