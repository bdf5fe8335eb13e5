"""Nim: the xor rule, winning moves, misère Nim.

A position is a sequence of piles: Python ints of any size, or a 1-d numpy
integer array (one vectorised pass, for millions of piles).  Many positions
at once: a 2-d numpy integer array holds **one position per row**, and every
function then answers each row (arrays of answers, one per row).  A move is
``(pile_index, new_size)``; where there is none the answer is ``NO_MOVE``
(-1 in arrays).

Examples
--------
>>> nim_sum([3, 4, 5])
2
>>> nim_outcome([1, 2, 3])
LOSS
>>> nim_moves([3, 4, 5])
[(0, 1)]
>>> nim_move([1, 1, 1], misere=True)
NO_MOVE
>>> rows = np.array([[3, 4, 5], [1, 2, 3]])
>>> nim_sum(rows).tolist(), nim_outcome(rows).tolist(), nim_move(rows).tolist()
([2, 0], [1, -1], [[0, 1], [-1, -1]])
"""
from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Mapping, Set as AbstractSet
from typing import Any, Union, overload

import numpy as np
import numpy.typing as npt

from grundy._common import (INT64_MAX, LOSS, NO_MOVE, WIN, Int64Array, NoMoveType, Outcome,
                            check_bool, is_integer, shorten, shown_int)

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


def _outcome_rows(piles: IntArray, misere: bool) -> npt.NDArray[np.int8]:
    """int8 outcome of each row of a 2-d pile array."""
    win = _xor(piles) != 0
    if misere:
        small = (piles <= 1).all(axis=1)
        ones_even = np.count_nonzero(piles == 1, axis=1) % 2 == 0
        win = np.where(small, ones_even, win)
    return np.where(win, np.int8(WIN), np.int8(LOSS)).astype(np.int8)


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
    if isinstance(piles, np.ndarray):
        if piles.ndim == 2:
            return _outcome_rows(piles, misere)
        return Outcome(int(_outcome_rows(piles.reshape(1, -1), misere)[0]))
    if misere and all(x <= 1 for x in piles):
        return WIN if sum(1 for x in piles if x == 1) % 2 == 0 else LOSS
    return WIN if _xor(piles) else LOSS


def _winning_mask(piles: IntArray, misere: bool) -> tuple[npt.NDArray[np.bool_], IntArray]:
    """Boolean array [rows, piles]: the pile of each row that a winning move
    reduces, and the int array of the size it leaves (where the mask is set)."""
    s = _xor(piles)
    target = piles ^ s[:, None]               # a xor of the piles fits their dtype
    mask = target < piles
    if misere:
        big = np.count_nonzero(piles > 1, axis=1)
        ones = np.count_nonzero(piles == 1, axis=1)
        # One pile > 1: reduce it to leave an odd number of 1-piles.
        one_big = big == 1
        if one_big.any():
            rows = np.flatnonzero(one_big)
            mask[rows] = piles[rows] > 1
            keep = np.where(ones[rows] % 2 == 0, 1, 0).astype(piles.dtype)
            target[rows] = keep[:, None]
        # Every pile 0 or 1: take a whole 1-pile iff that leaves an odd count.
        no_big = big == 0
        if no_big.any():
            rows = np.flatnonzero(no_big)
            mask[rows] = (piles[rows] == 1) & (ones[rows] % 2 == 0)[:, None]
            target[rows] = 0
    return mask, target


def nim_moves(piles: Piles, *, misere: bool = False
              ) -> list[tuple[int, int]] | list[list[tuple[int, int]]]:
    """Every winning move, as ``(pile_index, new_size)``, in pile order.

    A move leaves the opponent in a LOSS; there is at most one per pile.

    Parameters
    ----------
    piles : iterable of int or numpy.ndarray
        As for :func:`nim_sum`.
    misere : bool, default False
        Misère play.

    Returns
    -------
    list of (int, int)
        Empty in a LOSS.  For a 2-d array: a list with the moves of each row.

    Raises
    ------
    TypeError, ValueError
        As for :func:`nim_outcome`.

    Examples
    --------
    >>> nim_moves([1, 2, 4])
    [(2, 3)]
    >>> nim_moves([3, 1], misere=True)
    [(0, 0)]
    >>> nim_moves(np.array([[1, 2, 4], [1, 1, 0]]))
    [[(2, 3)], []]
    """
    piles = _piles(piles)
    misere = check_bool(misere, "misere")
    if isinstance(piles, np.ndarray):
        rows = piles.reshape(1, -1) if piles.ndim == 1 else piles
        mask, target = _winning_mask(rows, misere)
        row, col = np.nonzero(mask)
        out: list[list[tuple[int, int]]] = [[] for _ in range(rows.shape[0])]
        for r, i, k in zip(row.tolist(), col.tolist(), target[row, col].tolist()):
            out[r].append((i, k))
        return out[0] if piles.ndim == 1 else out
    s = _xor(piles)
    moves: list[tuple[int, int]] = []
    big = sum(1 for x in piles if x > 1)
    ones = sum(1 for x in piles if x == 1)
    for i, x in enumerate(piles):
        if not misere or big - (x > 1):       # normal rule (a pile > 1 remains)
            if x ^ s < x:
                moves.append((i, x ^ s))
        elif x > 0:
            # Every other pile is 0 or 1: leave an odd number of 1-piles.
            k = 1 if (ones - (x == 1)) % 2 == 0 else 0
            if k < x:
                moves.append((i, k))
    return moves


@overload
def nim_move(piles: Iterable[int], *, misere: bool = False) -> tuple[int, int] | NoMoveType: ...
@overload
def nim_move(piles: IntArray, *,
             misere: bool = False) -> tuple[int, int] | NoMoveType | Int64Array: ...


def nim_move(piles: Piles, *,
             misere: bool = False) -> tuple[int, int] | NoMoveType | Int64Array:
    """One winning move ``(pile_index, new_size)``, or NO_MOVE in a LOSS.

    In misère play the empty position is a WIN with no move: NO_MOVE too.

    Parameters
    ----------
    piles : iterable of int or numpy.ndarray
        As for :func:`nim_sum`.
    misere : bool, default False
        Misère play.

    Returns
    -------
    tuple of (int, int), NO_MOVE or numpy.ndarray
        The first winning move in pile order.  For a 2-d array: an int64
        array ``[rows, 2]`` with the move of each row, ``[-1, -1]`` where
        there is none.

    Raises
    ------
    TypeError, ValueError
        As for :func:`nim_outcome`; ValueError for a 2-d array with a pile
        of 2^63 or more (use :func:`nim_moves`).

    Examples
    --------
    >>> nim_move([3, 4, 5]), nim_move([1, 2, 3])
    ((0, 1), NO_MOVE)
    >>> nim_move(np.array([[3, 4, 5], [1, 2, 3]])).tolist()
    [[0, 1], [-1, -1]]
    """
    piles = _piles(piles)
    misere = check_bool(misere, "misere")
    if isinstance(piles, np.ndarray) and piles.ndim == 2:
        if piles.dtype == np.uint64 and piles.size and int(piles.max()) > INT64_MAX:
            raise ValueError(f"pile {int(piles.max())} does not fit the int64 array of "
                             f"moves; use nim_moves() for piles of 2^63 or more")
        mask, target = _winning_mask(piles, misere)
        out = np.full((piles.shape[0], 2), NO_MOVE, dtype=np.int64)
        rows = np.flatnonzero(mask.any(axis=1))
        if rows.size:
            first = np.argmax(mask[rows], axis=1)
            out[rows, 0] = first
            out[rows, 1] = target[rows, first].astype(np.int64)
        return out
    moves = nim_moves(piles, misere=misere)
    return moves[0] if moves else NO_MOVE  # type: ignore[return-value]
