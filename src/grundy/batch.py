"""Exploring a batch game: positions are int64 codes, the rules numpy functions.

The positions are expanded in the order they were found (breadth first),
in batches: the rules are asked once per batch, the children's codes are
deduplicated by a compiled open-addressing hash table
(:class:`grundy._core.explore.CodeTable`), and the CSR graph grows batch by
batch.  Every array the rules return is checked (dtype, shape, offsets,
values) and a bad one is refused naming the method.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from grundy._common import (INT64_MAX, Int64Array, MemoryLimitError, check_int, check_memory,
                            resolve_max_memory, shorten)
from grundy._core.explore import CodeTable
from grundy.graph import solve_bytes

__all__ = ["explore_batch"]

BATCH = 1 << 16                 # positions expanded per call of the rules
_VALUES = np.array([0, 1, -1, 2], dtype=np.int8)


def _int64_array(value: Any, what: str, length: int | None = None) -> Int64Array:
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
        first = _int64_array(canonical(first), f"canonical([{start}])", 1)
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
            offsets = _int64_array(result[0], "moves(codes): offsets", len(open_) + 1)
            children = _int64_array(result[1], "moves(codes): children")
            steps = np.diff(offsets)
            if offsets[0] != 0 or offsets[-1] != len(children) or (steps < 0).any():
                raise ValueError(f"moves(codes): offsets must start at 0, never decrease and "
                                 f"end at len(children) = {len(children)}, got "
                                 f"{shorten(offsets.tolist())}")
            if canonical is not None and len(children):
                children = _int64_array(canonical(children), "canonical(children)",
                                        len(children))
            degree[open_] = steps
            # The table may grow by every child: refuse before it does.  The
            # bound (every child new) is exact enough unless it is over a limit;
            # then the new codes are counted (most children may be known).
            n_moves += len(children)
            grown = table.n + len(children)
            what = f"exploring {shorten(game)} ({table.n:,} positions, {n_moves:,} moves so far)"

            def needed(n: int) -> int:
                return table.bytes_for(n) + solve_bytes(n, n_moves) + 9 * n

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
