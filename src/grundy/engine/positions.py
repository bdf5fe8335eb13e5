"""Positions beyond single hashable values: sums of games, and positions as JSON.

A position of a game is any hashable Python value (a number, a string, a
tuple...).  One kind of position the engine itself understands: a
:class:`Sum` of positions, independent games played side by side (a move
changes one of them).  The explorer expands a sum's parts separately, the
impartial theory values it by the xor of its parts, and the saved-file
format writes positions (sums included) as JSON values.

Examples
--------
>>> Sum(2, Sum(1, 3)) == Sum(3, 2, 1)
True
>>> saved = encode_positions([(1, "a"), Sum(1, 2), b"x"])
>>> saved
[[1, 'a'], {'sum': [1, 2]}, {'bytes': '78'}]
>>> decode_positions(saved)
[(1, 'a'), Sum(1, 2), b'x']
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Iterator, Sequence
from typing import Any

import numpy as np

from grundy._common import is_hashable, shorten

__all__ = ["Sum", "components", "encode_positions", "decode_positions"]


class Sum:
    """A sum of independent games: ``Sum(p1, p2, ...)``.

    Hashable and order-insensitive (``Sum(1, 2) == Sum(2, 1)``); nested sums
    are flattened; ``Sum()`` is the empty game, worth 0.

    Parameters
    ----------
    *parts : hashable
        The positions (or sums) played side by side.

    Attributes
    ----------
    parts : tuple
        The positions, nested sums flattened.

    Raises
    ------
    TypeError
        If a part is not hashable.

    Examples
    --------
    >>> Sum(1, Sum(2, 3))
    Sum(1, 2, 3)
    >>> Sum(1, 2) == Sum(2, 1), len(Sum())
    (True, 0)
    """

    __slots__ = ("parts", "_key")
    parts: tuple[Hashable, ...]

    def __init__(self, *parts: Hashable) -> None:
        self._key: frozenset[tuple[Hashable, int]] | None = None
        # The common case first (no nested sums): one hash of the tuple checks
        # every part (move functions build millions of sums).
        for p in parts:
            if isinstance(p, Sum):
                parts = tuple(q for part in parts for q in components(part))
                break
        try:
            hash(parts)          # positions must be hashable: fail here, clearly
        except TypeError:
            bad = next(p for p in parts if not is_hashable(p))
            raise TypeError(f"a Sum holds positions, which must be hashable; got "
                            f"{shorten(bad)} (use a tuple, not a list)") from None
        self.parts = parts

    def _counter(self) -> frozenset[tuple[Hashable, int]]:
        if self._key is None:
            self._key = frozenset(Counter(self.parts).items())
        return self._key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sum) and self._counter() == other._counter()

    def __hash__(self) -> int:
        return hash((Sum, self._counter()))

    def __len__(self) -> int:
        return len(self.parts)

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self.parts)

    def __repr__(self) -> str:
        return f"Sum({', '.join(map(repr, self.parts))})"



def components(option: Hashable) -> tuple[Hashable, ...]:
    """The parts of a Sum, or the position itself (a one-part tuple).

    >>> components(Sum(1, 2)), components(3)
    ((1, 2), (3,))
    """
    return option.parts if isinstance(option, Sum) else (option,)


def encode_positions(positions: Sequence[Hashable]) -> list[Any]:
    """Positions as JSON values (tuples as lists, tagged frozensets, bytes, sums).

    Raises TypeError for a position of another type.
    """
    def enc(p: Any) -> Any:
        if p is None or isinstance(p, (bool, str)):
            return p
        if isinstance(p, np.bool_):
            return bool(p)
        if isinstance(p, (int, np.integer)):
            return int(p)
        if isinstance(p, (float, np.floating)):
            if not math.isfinite(p):
                raise TypeError(f"cannot save the position {p!r}: JSON has no {p!r}")
            return float(p)
        if isinstance(p, tuple):
            return [enc(x) for x in p]
        if isinstance(p, frozenset):
            return {"frozenset": [enc(x) for x in p]}
        if isinstance(p, bytes):
            return {"bytes": p.hex()}
        if isinstance(p, Sum):
            return {"sum": [enc(x) for x in p.parts]}
        raise TypeError(f"cannot save the position {shorten(p)} ({type(p).__name__}): saved "
                        f"positions are ints, strings, bools, None, floats, bytes, and "
                        f"tuples, frozensets and Sums of them")

    try:
        return [enc(p) for p in positions]
    except RecursionError:
        raise TypeError("cannot save a position nested this deeply (tuples within tuples "
                        "beyond Python's recursion limit)") from None


def decode_positions(values: Any) -> list[Hashable]:
    """The inverse of :func:`encode_positions`; ValueError for anything else."""
    def dec(v: Any) -> Any:
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        if isinstance(v, list):
            return tuple(dec(x) for x in v)
        if isinstance(v, dict) and len(v) == 1:
            (tag, inner), = v.items()
            if tag == "frozenset" and isinstance(inner, list):
                return frozenset(dec(x) for x in inner)
            if tag == "bytes" and isinstance(inner, str):
                return bytes.fromhex(inner)
            if tag == "sum" and isinstance(inner, list):
                return Sum(*(dec(x) for x in inner))
        raise ValueError(f"a saved position is {shorten(v)}: not one the format writes")

    if not isinstance(values, list):
        raise ValueError(f"the saved positions are {shorten(values)}, not a list")
    return [dec(v) for v in values]
