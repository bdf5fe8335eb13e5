"""Nim: the xor rule, winning moves, misère Nim.

A position is a sequence of piles: Python ints of any size, or a 1-d numpy
integer array (one vectorised pass, for millions of piles).  Many positions
at once: a 2-d numpy integer array holds **one position per row**, and every
function then answers each row (arrays of answers, one per row).  A move
is, as everywhere in grundy, the position it leads to (the piles after it);
where there is none the answer is ``NO_MOVE`` (a row of -1 in arrays).

Misère play (whoever takes the last stone loses) follows normal play as
long as a pile of 2 or more remains after the move; when none would, the
player leaves an odd number of 1-piles.  The rule is written once
(:func:`_rule`) and serves every function here; the command line's
streaming reader (``grundy nim``, ``grundy._core.textio``) applies it to
64-bit piles in compiled code, and a test keeps the two answers equal.

Examples
--------
>>> nim_sum([3, 4, 5])
2
>>> nim_outcome([1, 2, 3])
LOSS
>>> nim_moves([3, 4, 5])
[(1, 4, 5)]
>>> nim_move([1, 1, 1], misere=True)
NO_MOVE
>>> rows = np.array([[3, 4, 5], [1, 2, 3]])
>>> nim_sum(rows).tolist(), nim_outcome(rows).tolist(), nim_move(rows).tolist()
([2, 0], [1, -1], [[1, 4, 5], [-1, -1, -1]])
"""
from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Mapping, Set as AbstractSet
from typing import Any, Union, overload

import numpy as np
import numpy.typing as npt

from grundy._common import (INT64_MAX, LOSS, NO_MOVE, WIN, NoMoveType, Outcome,
                            check_bool, check_memory, is_integer, shorten, shown_int)

IntArray = npt.NDArray[np.integer[Any]]
Piles = Union[Iterable[int], IntArray]
"""A Nim position: an iterable of pile sizes, or a numpy integer array
(2-d: one position per row)."""

__all__ = ["nim_sum", "nim_outcome", "nim_moves", "nim_move"]


def _piles(piles: Piles) -> IntArray | list[int]:
    """A validated numpy int array (1-d, or 2-d: one position per row), or
    a list of Python ints."""
    if isinstance(piles, np.ndarray):
        arr = np.asarray(piles)              # np.matrix -> a plain 2-d array
        if arr.dtype.kind not in "iu" or arr.dtype == np.bool_:
            raise TypeError(f"piles must be integers, got an array of dtype {arr.dtype}")
        if arr.ndim == 0 or arr.ndim > 2:
            raise ValueError(f"piles must be a 1-d array (one position) or a 2-d array "
                             f"(one position per row), got shape {arr.shape}")
        if arr.dtype.kind == "i" and arr.size:
            i = int(np.argmin(arr))
            if arr.flat[i] < 0:
                where = np.unravel_index(i, arr.shape)
                place = f"pile {where[0]}" if arr.ndim == 1 else \
                    f"pile {where[1]} of row {where[0]}"
                raise ValueError(f"{place} is {int(arr.flat[i])}: piles must be >= 0")
        return arr
    if isinstance(piles, (str, bytes)) or not hasattr(piles, "__iter__"):
        raise TypeError(f"piles must be an iterable of integers, got {shorten(piles)}")
    if isinstance(piles, (AbstractSet, Mapping)):
        raise TypeError(f"piles must be a sequence (moves name piles by position), got a "
                        f"{type(piles).__name__}: {shorten(piles)}")
    out = []
    for i, x in enumerate(piles):
        if not is_integer(x):
            raise TypeError(f"pile {i} is {shorten(x)}: piles must be integers")
        x = int(x)
        if x < 0:
            raise ValueError(f"pile {i} is {shown_int(x)}: piles must be >= 0")
        out.append(x)
    return out


def _xor(piles: Any) -> Any:
    """Xor of a validated position (Python int), or of each row (an array)."""
    if isinstance(piles, np.ndarray):
        if piles.ndim == 2:
            return np.bitwise_xor.reduce(piles, axis=1) if piles.shape[1] else \
                np.zeros(piles.shape[0], dtype=piles.dtype)
        return int(np.bitwise_xor.reduce(piles)) if piles.size else 0
    return functools.reduce(operator.xor, piles, 0)


@overload
def nim_sum(piles: Iterable[int]) -> int: ...
@overload
def nim_sum(piles: IntArray) -> int | IntArray: ...


def nim_sum(piles: Piles) -> int | IntArray:
    """Xor of all piles (0 for no piles); for a 2-d array, of each row.

    Parameters
    ----------
    piles : iterable of int or numpy.ndarray
        One position (Python ints of any size, or a 1-d integer array), or
        a 2-d integer array with one position per row.

    Returns
    -------
    int or numpy.ndarray
        The xor; for a 2-d array, one per row (in the piles' dtype).

    Raises
    ------
    TypeError
        If a pile is not an integer.
    ValueError
        If a pile is negative, or the array has more than 2 dimensions.

    Examples
    --------
    >>> nim_sum([2 ** 100, 2 ** 100 + 1])
    1
    >>> nim_sum(np.array([1, 2, 4]))
    7
    >>> nim_sum(np.array([[1, 2], [3, 3]])).tolist()
    [3, 0]
    """
    result: int | IntArray = _xor(_piles(piles))
    return result


def _rows(piles: IntArray | list[int]) -> Any:
    """A validated position as a 2-d array of rows: the array itself (one
    row for a 1-d array), or one row of Python ints (object dtype: any size)."""
    if isinstance(piles, np.ndarray):
        return piles.reshape(1, -1) if piles.ndim == 1 else piles
    return np.array([piles] if piles else [[]], dtype=object).reshape(1, len(piles))


def _rule(rows: Any, misere: bool) -> tuple[Any, Any, Any]:
    """Nim's rule, the one place it is written: for each row, whether the
    player to move wins; for each pile, whether a winning move reduces it,
    and to what.

    Normal play: a win iff the xor s of the piles is not 0, and a pile x is
    reduced to x ^ s when that is smaller.  Misère play: the same as long
    as another pile of 2 or more remains; where none does, the winning
    move leaves an odd number of 1-piles (and with no pile above 1 at all,
    the player to move wins iff the 1-piles are even in number).
    """
    s = np.bitwise_xor.reduce(rows, axis=1) if rows.shape[1] else \
        np.zeros(rows.shape[0], dtype=rows.dtype)
    target = rows ^ s[:, None]                # a xor of the piles fits their dtype
    reduces = target < rows
    win = s != 0
    if misere:
        big = np.count_nonzero(rows > 1, axis=1)
        ones = np.count_nonzero(rows == 1, axis=1)
        win = np.where(big == 0, ones % 2 == 0, win)
        endgame = (big[:, None] - (rows > 1)) == 0          # no other pile above 1
        leave = ((ones[:, None] - (rows == 1)) % 2 == 0).astype(rows.dtype)   # 1 or 0
        reduces = np.where(endgame, leave < rows, reduces)
        target = np.where(endgame, leave, target)
    return np.asarray(win, dtype=bool), np.asarray(reduces, dtype=bool), target


@overload
def nim_outcome(piles: Iterable[int], *, misere: bool = False) -> Outcome: ...
@overload
def nim_outcome(piles: IntArray, *,
                misere: bool = False) -> Outcome | npt.NDArray[np.int8]: ...


def nim_outcome(piles: Piles, *, misere: bool = False) -> Outcome | npt.NDArray[np.int8]:
    """WIN or LOSS for the player to move; for a 2-d array, of each row.

    Normal play: WIN iff the xor of the piles is non-zero.  Misère play
    (whoever takes the last stone loses): the same while some pile is larger
    than 1; when every pile is 0 or 1, WIN iff the number of 1-piles is even.

    Parameters
    ----------
    piles : iterable of int or numpy.ndarray
        As for :func:`nim_sum`.
    misere : bool, default False
        Misère play.

    Returns
    -------
    Outcome or numpy.ndarray
        For a 2-d array, an int8 array with the outcome of each row.

    Raises
    ------
    TypeError, ValueError
        As for :func:`nim_sum`; TypeError if ``misere`` is not a bool.

    Examples
    --------
    >>> nim_outcome([1, 1, 1]), nim_outcome([1, 1, 1], misere=True)
    (WIN, LOSS)
    >>> nim_outcome(np.array([[1, 1, 1], [2, 2, 0]]), misere=True).tolist()
    [-1, -1]
    """
    piles = _piles(piles)
    misere = check_bool(misere, "misere")
    win = _rule(_rows(piles), misere)[0]
    if isinstance(piles, np.ndarray) and piles.ndim == 2:
        return np.where(win, np.int8(WIN), np.int8(LOSS)).astype(np.int8)
    return WIN if win[0] else LOSS


def _positions(row: Any, piles: Any, sizes: Any) -> Any:
    """The positions after each winning move of one position: ``row``
    with pile ``piles[j]`` left with ``sizes[j]`` stones, for each j; a 2-d
    array (one position per row) for an array, a list of tuples otherwise."""
    if isinstance(row, np.ndarray):
        out = np.repeat(row[None, :], len(piles), axis=0)
        out[np.arange(len(piles)), piles] = sizes
        return out
    return [tuple(row[:i]) + (int(size),) + tuple(row[i + 1:]) for i, size in zip(piles, sizes)]


def nim_moves(piles: Piles, *, misere: bool = False,
              max_memory: int | None = None) -> Any:
    """Every winning move, as the position it leads to, in pile order.

    A move leaves the opponent in a LOSS; there is at most one per pile.
    Each move is a whole position, so k moves of n piles take k·n numbers:
    that is estimated first and refused above ``max_memory``.

    Parameters
    ----------
    piles : iterable of int or numpy.ndarray
        As for :func:`nim_sum`.
    misere : bool, default False
        Misère play.
    max_memory : int, optional
        Byte limit for the moves (default: the memory available now).

    Returns
    -------
    list or numpy.ndarray
        For an iterable of ints: a list of tuples, the positions the
        winning moves lead to (empty in a LOSS).  For a 1-d array: a 2-d
        array of those positions, one per row, in the piles' dtype.  For a
        2-d array: a list with that 2-d array for each row.

    Raises
    ------
    TypeError, ValueError
        As for :func:`nim_outcome`.
    MemoryLimitError
        If the moves would need more than ``max_memory`` bytes (one winning
        move, :func:`nim_move`, takes one position's worth).

    Examples
    --------
    >>> nim_moves([1, 2, 4])
    [(1, 2, 3)]
    >>> nim_moves([3, 1], misere=True)
    [(0, 1)]
    >>> nim_moves(np.array([3, 5, 7])).tolist()
    [[2, 5, 7], [3, 4, 7], [3, 5, 6]]
    """
    piles = _piles(piles)
    misere = check_bool(misere, "misere")
    rows = _rows(piles)
    _, reduces, target = _rule(rows, misere)
    n_piles = rows.shape[1]
    item = piles.itemsize if isinstance(piles, np.ndarray) else 8
    n_moves = int(np.count_nonzero(reduces))
    check_memory(n_moves * (n_piles * item + 64), max_memory,
                 f"nim_moves on {rows.shape[0]:,} x {n_piles:,} piles ({n_moves:,} winning "
                 f"moves, each a position of {n_piles:,} piles)")
    out = []
    for r in range(rows.shape[0]):
        where = np.flatnonzero(reduces[r])
        row = rows[r] if isinstance(piles, np.ndarray) else piles
        out.append(_positions(row, where.tolist(), target[r, where]))
    return out if isinstance(piles, np.ndarray) and piles.ndim == 2 else out[0]


@overload
def nim_move(piles: Iterable[int], *, misere: bool = False) -> tuple[int, ...] | NoMoveType: ...
@overload
def nim_move(piles: IntArray, *,
             misere: bool = False) -> IntArray | NoMoveType: ...


def nim_move(piles: Piles, *,
             misere: bool = False) -> tuple[int, ...] | IntArray | NoMoveType:
    """One winning move, as the position it leads to; NO_MOVE in a LOSS.

    In misère play the empty position is a WIN with no move: NO_MOVE too.

    Parameters
    ----------
    piles : iterable of int or numpy.ndarray
        As for :func:`nim_sum`.
    misere : bool, default False
        Misère play.

    Returns
    -------
    tuple of int, numpy.ndarray or NO_MOVE
        The piles after the first winning move in pile order (a 1-d array
        for a 1-d array).  For a 2-d array: an array of the same shape
        holding, for each row, the row after its move (all -1 where there
        is none).

    Raises
    ------
    TypeError, ValueError
        As for :func:`nim_outcome`.

    Examples
    --------
    >>> nim_move([3, 4, 5]), nim_move([1, 2, 3])
    ((1, 4, 5), NO_MOVE)
    >>> nim_move(np.array([[3, 4, 5], [1, 2, 3]])).tolist()
    [[1, 4, 5], [-1, -1, -1]]
    """
    piles = _piles(piles)
    misere = check_bool(misere, "misere")
    if isinstance(piles, np.ndarray) and piles.ndim == 2:
        if piles.dtype == np.uint64 and piles.size and int(piles.max()) > INT64_MAX:
            raise ValueError(f"pile {int(piles.max())} does not fit the int64 array of "
                             f"moves; use nim_moves() for piles of 2^63 or more")
        _, reduces, target = _rule(piles, misere)
        out = piles.astype(np.int64)
        found = reduces.any(axis=1)
        rows = np.flatnonzero(found)
        if rows.size:
            first = np.argmax(reduces[rows], axis=1)
            out[rows, first] = target[rows, first].astype(np.int64)
        out[~found] = -1
        return out
    _, reduces, target = _rule(_rows(piles), misere)
    if not reduces[0].any():
        return NO_MOVE
    first = int(np.argmax(reduces[0]))
    move: tuple[int, ...] | IntArray = _positions(_rows(piles)[0] if isinstance(piles, np.ndarray)
                                                  else piles, [first], target[0, [first]])[0]
    return move
