"""Exploring a game from its rules: every position reachable, each once,
and the CSR graph of its moves (the input of the engine's solve).

Two explorers, both breadth first and iterative (games a million moves deep
are fine), both refusing memory before it is taken:

- :func:`explore`, one position at a time: positions are hashable Python
  values, numbered through a dict (the ``Game`` protocol, impartial games,
  loopy values);
- :func:`explore_batch`, many positions at once: positions are int64 codes,
  the rules numpy functions asked once per batch, the children's codes
  deduplicated by a compiled open-addressing hash table
  (:class:`grundy._core.explore.CodeTable`).  Every array the rules return
  is checked (dtype, shape, offsets, values) and a bad one is refused
  naming the method.

Examples
--------
>>> found = explore([3], lambda n: range(n))         # one Nim heap of 3
>>> found.indptr.tolist(), found.indices.tolist()
([0, 3, 3, 4, 6], [1, 2, 3, 1, 1, 2])
"""
from __future__ import annotations

from array import array
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Any, NamedTuple, NoReturn

import numpy as np
import numpy.typing as npt

from grundy._common import (INT64_MAX, LOSS, TIE, WIN, Int64Array, MemoryLimitError, Outcome,
                            check_int, check_memory, is_hashable, resolve_max_memory, shorten)
from grundy._core.explore import CodeTable
from grundy._progress import Report
from grundy.engine.graph import graph_solve_bytes

__all__ = ["explore", "Explored", "explore_batch"]

BATCH = 1 << 16                 # positions expanded per call of the rules
_VALUES = np.array([0, 1, -1, 2], dtype=np.int8)
_PRIMITIVE: dict[object, int] = {None: 0, WIN: int(WIN), LOSS: int(LOSS), TIE: int(TIE)}


class Explored(NamedTuple):
    """What :func:`explore` found: positions ``first..`` of its position list.

    ``indptr`` (one entry per new position, plus one) ranges over
    ``indices``, the numbers of the positions each moves to; with
    ``sums``, it ranges over options instead, option k being the sum of
    the positions ``indices[component_ptr[k]:component_ptr[k + 1]]``.
    ``labels`` holds each new position's primitive value (0: not over).
    """

    first: int
    indptr: Int64Array
    indices: Int64Array
    labels: npt.NDArray[np.int8]
    component_ptr: Int64Array | None


def explore(starts: Iterable[Hashable], moves: Callable[[Any], Iterable[Hashable]],
            primitive: Callable[[Any], Any] | None = None,
            canonical: Callable[[Any], Hashable] | None = None, *,
            sums: type[Any] | None = None,
            index: dict[Hashable, int] | None = None, positions: list[Hashable] | None = None,
            max_positions: int | None = None, max_memory: int | None = None,
            progress: Report | None = None, what: str = "the game") -> Explored:
    """Every position reachable from ``starts``, breadth first, each once:
    the one exploration loop of the library (games from their rules,
    impartial games, loopy values).

    New positions are numbered after those already in ``positions`` (and
    ``index``, their numbers), which the caller may keep from an earlier
    exploration: known positions are not expanded again.  A position whose
    primitive value is not None is not asked for its moves.  With ``sums``
    (a class), each option of a position that is an instance of it is a sum
    of the positions listed by its ``parts`` (impartial games).
    """
    if index is None or positions is None:
        index, positions = {}, []
    first = len(positions)
    known, order = index, positions
    get = known.get

    def new(p: Hashable) -> int:
        j = len(order)
        if max_positions is not None and j >= max_positions:
            raise MemoryLimitError(f"{what} has more than max_positions = {max_positions:,} "
                                   f"positions", needed=None, limit=None)
        known[p] = j
        order.append(p)
        return j

    def unhashable(exc: TypeError, found: Iterable[Any], source: str) -> NoReturn:
        """Name the unhashable position, or re-raise a TypeError of the rules."""
        bad = next((c for c in found if not is_hashable(c)), None)
        if bad is None:
            raise exc
        raise TypeError(f"{source} gave {shorten(bad)}, which is not hashable: positions "
                        f"must be hashable (use a tuple, not a list)") from None

    for p in starts:
        c = canonical(p) if canonical is not None else p
        try:
            if get(c) is None:
                new(c)
        except TypeError as exc:
            unhashable(exc, [c], "start()" if canonical is None else "canonical(start())")
    indices = array("q")
    append = indices.append
    indptr = array("q", [0])
    component_ptr = array("q", [0])
    labels = bytearray()
    limit = resolve_max_memory(max_memory)       # what was there when we began
    i = first
    check_at = (i + (1 << 14), 1 << 16)     # the next memory check: positions, moves
    while i < len(order):
        p = order[i]
        try:
            value = primitive(p) if primitive is not None else None
        except Exception as exc:
            raise _noted(exc, f"primitive({shorten(p)})")
        try:           # None, or an int outcome (True, 1.0 are refused, as everywhere)
            if value is not None and type(value) is not Outcome and not (
                    isinstance(value, int) and not isinstance(value, bool)):
                raise TypeError
            label = _PRIMITIVE[value]
        except (KeyError, TypeError):
            raise TypeError(f"primitive({shorten(p)}) returned {shorten(value)}: expected WIN, "
                            f"LOSS, TIE or None") from None
        labels.append(label & 0xFF)
        if not label:
            try:
                succ: Iterable[Any] = moves(p)
            except Exception as exc:
                raise _noted(exc, f"moves({shorten(p)})")
            if isinstance(succ, (str, bytes)) or not hasattr(succ, "__iter__"):
                raise TypeError(f"moves({shorten(p)}) must return an iterable of positions, "
                                f"got {shorten(succ)}")
            # The hot loops: one dict lookup and one append per move.
            try:
                if sums is not None:
                    for option in succ:
                        for c in (option.parts if isinstance(option, sums) else (option,)):
                            j = get(c)
                            append(new(c) if j is None else j)
                        component_ptr.append(len(indices))
                elif canonical is None:
                    for c in succ:
                        j = get(c)
                        append(new(c) if j is None else j)
                else:
                    for c in succ:
                        c = canonical(c)
                        j = get(c)
                        append(new(c) if j is None else j)
            except TypeError as exc:
                found: Iterable[Any] = moves(p) if isinstance(succ, Iterator) else succ
                if sums is not None:
                    found = [c for o in found
                             for c in (o.parts if isinstance(o, sums) else (o,))]
                elif canonical is not None:
                    found = [canonical(c) for c in found]
                unhashable(exc, found, f"moves({shorten(p)})" if canonical is None else
                           f"canonical() of a move of moves({shorten(p)})")
        indptr.append(len(component_ptr) - 1 if sums is not None else len(indices))
        i += 1
        if i >= check_at[0] or len(indices) >= check_at[1]:
            # What is held (the positions, about 120 bytes each, and 8 bytes a
            # move) and the solve to come, for what is known so far.
            check_at = (i + (1 << 14), len(indices) + (1 << 16))
            check_memory(graph_solve_bytes(len(order), len(indices)) + 120 * len(order)
                         + 8 * len(indices), max_memory,
                         f"exploring {what} ({len(order):,} positions and "
                         f"{len(indices):,} moves so far)", limit=limit)
            if progress is not None:
                progress(i - first, len(order) - first)
    if progress is not None:
        progress(i - first, len(order) - first)
    return Explored(first, _int64(indptr), _int64(indices),
                    np.frombuffer(labels, dtype=np.int8),
                    _int64(component_ptr) if sums is not None else None)


def _noted(exc: Exception, call: str) -> Exception:
    """The rules' own exception, with a note naming the call that raised it
    (Python 3.11+ shows notes under the traceback)."""
    if hasattr(exc, "add_note"):
        exc.add_note(f"grundy: raised by {call} while exploring the game")
    return exc


def _int64(values: array[int]) -> Int64Array:
    """The array's memory as an int64 numpy array (no copy: the array is
    kept alive by it, and never grows again)."""
    return np.frombuffer(values, dtype=np.int64) if len(values) else \
        np.zeros(0, dtype=np.int64)


def int64_array(value: Any, what: str, length: int | None = None) -> Int64Array:
    """``value`` as a 1-d int64 array (integers only), or a clear error."""
    arr = np.asarray(value)
    if arr.dtype.kind not in "iu" or arr.dtype == np.bool_:
        raise TypeError(f"{what} must be an int64 array, got {shorten(value)} "
                        f"(dtype {arr.dtype})")
    if arr.ndim != 1:
        raise ValueError(f"{what} must be 1-dimensional, got shape {arr.shape}")
    if length is not None and len(arr) != length:
        raise ValueError(f"{what} has {len(arr)} entries, expected {length}")
    if arr.dtype == np.uint64 and arr.size and int(arr.max()) > INT64_MAX:
        raise ValueError(f"{what} holds {int(arr.max())}, outside int64")
    return np.ascontiguousarray(arr, dtype=np.int64)


def explore_batch(game: Any, start: Any, *, max_positions: int | None = None,
                  max_memory: int | None = None,
                  progress: Callable[[int, int], None] | None = None
                  ) -> tuple[CodeTable, Int64Array, Int64Array, npt.NDArray[np.int8]]:
    """Every position reachable from ``start`` in a batch game, each once.

    Returns ``(table, indptr, indices, labels)``: the code table (its codes
    by position number: ``start``, or its canonical code, is 0), the CSR
    graph of the moves, and the primitive value of each position (0: the
    game goes on).
    """
    canonical = getattr(game, "canonical", None)
    start = check_int(start, "start()", -2 ** 63, INT64_MAX)
    first = np.array([start], dtype=np.int64)
    if canonical is not None:
        first = int64_array(canonical(first), f"canonical([{start}])", 1)
    table = CodeTable(1024)
    table.insert(first, np.empty(1, dtype=np.int64))
    degree_parts: list[Int64Array] = []
    index_parts: list[Int64Array] = []
    label_parts: list[npt.NDArray[np.int8]] = []
    n_moves = 0
    lo = 0
    limit = resolve_max_memory(max_memory)       # what was there when we began
    while lo < table.n:
        hi = min(table.n, lo + BATCH)
        codes = np.ascontiguousarray(table.codes()[lo:hi])
        k = hi - lo
        labels = np.asarray(game.primitive(codes))
        if labels.dtype.kind not in "iu" or labels.shape != (k,):
            raise TypeError(f"primitive(codes) must return an int8 array of {k} values, got "
                            f"{shorten(labels)} (dtype {labels.dtype}, shape {labels.shape})")
        bad = np.flatnonzero(~np.isin(labels, _VALUES))
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"primitive(codes) gave {int(labels[i])} for the code "
                             f"{int(codes[i])}: expected 0 (not over), WIN (1), LOSS (-1) or "
                             f"TIE (2)")
        labels = labels.astype(np.int8)
        open_ = np.flatnonzero(labels == 0)
        degree = np.zeros(k, dtype=np.int64)
        if open_.size:
            result = game.moves(codes[open_])
            if not (isinstance(result, tuple) and len(result) == 2):
                raise TypeError(f"moves(codes) must return (offsets, children), got "
                                f"{shorten(result)}")
            offsets = int64_array(result[0], "moves(codes): offsets", len(open_) + 1)
            children = int64_array(result[1], "moves(codes): children")
            steps = np.diff(offsets)
            if offsets[0] != 0 or offsets[-1] != len(children) or (steps < 0).any():
                raise ValueError(f"moves(codes): offsets must start at 0, never decrease and "
                                 f"end at len(children) = {len(children)}, got "
                                 f"{shorten(offsets.tolist())}")
            if canonical is not None and len(children):
                children = int64_array(canonical(children), "canonical(children)",
                                        len(children))
            degree[open_] = steps
            # The table may grow by every child: refuse before it does.  The
            # bound (every child new) is exact enough unless it is over a limit;
            # then the new codes are counted (most children may be known).
            n_moves += len(children)
            grown = table.n + len(children)
            what = f"exploring {shorten(game)} ({table.n:,} positions, {n_moves:,} moves so far)"

            def needed(n: int) -> int:
                return table.bytes_for(n) + graph_solve_bytes(n, n_moves) + 9 * n

            over_positions = max_positions is not None and grown > max_positions
            try:
                if not over_positions:
                    check_memory(needed(grown), max_memory, what, limit=limit)
            except MemoryLimitError:
                over_positions = True
            if over_positions:
                known = np.empty(len(children), dtype=np.int64)
                table.lookup(children, known)
                grown = table.n + len(np.unique(children[known < 0]))
                if max_positions is not None and grown > max_positions:
                    raise MemoryLimitError(
                        f"{shorten(game)} has more than max_positions = {max_positions:,} "
                        f"positions", needed=None, limit=None)
                check_memory(needed(grown), max_memory, what, limit=limit)
            ids = np.empty(len(children), dtype=np.int64)
            table.insert(children, ids)
            index_parts.append(ids)
        degree_parts.append(degree)
        label_parts.append(labels)
        lo = hi
        if progress is not None:
            progress(lo, table.n)
    n = table.n
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.concatenate(degree_parts), out=indptr[1:])
    indices = np.concatenate(index_parts) if index_parts else np.zeros(0, dtype=np.int64)
    return table, indptr, indices, np.concatenate(label_parts)
