"""The rare/common split of nim-sequences (Gangolli-Plambeck), and the mask
that makes the sparse kernel fastest.

A value v is rare for a mask when popcount(v & mask) is even.  For many
splitting games almost every value is common, and a value's computation
then only needs the splits with a rare part: the sparse kernel's work is
about the number of rare values before it.

Examples
--------
>>> from grundy import GrundysGame
>>> rc = rare_common(GrundysGame().nim_sequence(100).astype(np.uint32), 0xFFFFFFFE)
>>> rc.last_rare, rc.rare_values
(93, (0, 1, 7))
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from grundy._common import Int64Array, readonly, shorten

__all__ = ["RareCommon", "rare", "rare_common", "best_mask"]


class RareCommon(NamedTuple):
    """Rare/common split of G(0..n) for a mask.

    A value v is rare when popcount(v & mask) is even.

    Attributes
    ----------
    mask, n : int
        The mask and the last heap size looked at.
    rare_count : int
        How many G(k), k <= n, are rare.
    rare_positions : numpy.ndarray
        int64: the k with G(k) rare.
    last_rare : int
        The largest of them, or -1.
    rare_values : tuple of int
        The distinct rare values seen.
    max_value, max_at : int
        The largest G(k), first reached at ``max_at``.

    Examples
    --------
    >>> from grundy import GrundysGame
    >>> GrundysGame().rare_common(0xFFFFFFFE, n=100).last_rare
    93
    """

    mask: int
    n: int
    rare_count: int
    rare_positions: Int64Array
    last_rare: int
    rare_values: tuple[int, ...]
    max_value: int
    max_at: int


def rare(values: npt.ArrayLike, mask: int) -> npt.NDArray[np.bool_]:
    """Boolean array: popcount(v & mask) is even (xor-folded parity, any numpy).

    >>> rare([0, 1, 2, 3], 0b11).tolist()
    [True, False, False, True]
    """
    x = np.asarray(values, dtype=np.uint32) & np.uint32(mask)
    for shift in (16, 8, 4, 2, 1):
        x = x ^ (x >> np.uint32(shift))
    even: npt.NDArray[np.bool_] = (x & np.uint32(1)) == 0
    return even


# Masks over the low bits of the values are tried exhaustively (2^12 of
# them); the bits above are then chosen one at a time.
_MASK_LOW_BITS = 12


def _value_counts(values: npt.ArrayLike) -> tuple[npt.NDArray[np.uint32],
                                                 npt.NDArray[np.int64], int]:
    """The distinct values (uint32), how often each occurs, and how many
    values there are, counted in slices (no int64 copy of all of them)."""
    v = values if isinstance(values, np.ndarray) else np.asarray(values)
    if v.ndim != 1:
        raise ValueError(f"values must be one-dimensional, got shape {v.shape}")
    if v.size and not np.issubdtype(v.dtype, np.integer):
        raise TypeError(f"values must be integers, got {v.dtype} values such as "
                        f"{shorten(v[0].item())}")
    counts: dict[int, int] = {}
    step = 1 << 22
    for i in range(0, len(v), step):
        part = np.asarray(v[i:i + step])
        low, high = int(part.min()), int(part.max())
        if low < 0 or high > 0xFFFFFFFF:
            bad = low if low < 0 else high
            raise ValueError(f"values must be 0..2^32-1 (nim-values), got {bad}")
        if high < 1 << 20:
            found = np.bincount(part.astype(np.intp, copy=False))
            where = np.flatnonzero(found)
            pairs = zip(where.tolist(), found[where].tolist())
        else:
            u, c = np.unique(part, return_counts=True)
            pairs = zip(u.tolist(), c.tolist())
        for value, count in pairs:
            counts[value] = counts.get(value, 0) + count
    present = np.array(sorted(counts), dtype=np.uint32)
    weight = np.array([counts[x] for x in present.tolist()], dtype=np.int64)
    return present, weight, len(v)


def best_mask(values: npt.ArrayLike) -> int | None:
    """The mask of the sparse kernel for values like these: the one under
    which fewest of them are rare, or None if every mask leaves more than a
    quarter of them rare (the plain scan is then as fast).

    The sparse kernel's work for a value is about the number of rare values
    before it (it enumerates the splits with a rare part), so the mask that
    makes fewest values rare minimises the expected work.  Values below
    2^12 get the best of every mask; above, the low 12 bits of the mask
    (every choice, the higher bits fixed) and each higher bit (set or not)
    are chosen in turn until neither improves.  The bits above the largest
    value are set (a larger value is then common unless its own lower bits
    make it rare).

    Parameters
    ----------
    values : array_like of int
        Nim-values, 0..2^32-1 (such as G(0..n)), one-dimensional.

    Returns
    -------
    int or None

    Raises
    ------
    TypeError
        For values that are not integers.
    ValueError
        For values out of range, or not one-dimensional.

    Examples
    --------
    >>> from grundy import GrundysGame
    >>> hex(best_mask(GrundysGame().nim_sequence(4096)))      # rare: 0, 1, 6, 7, ...
    '0xfffffffe'
    >>> best_mask([0, 1, 2, 3]) is None                 # half are always rare
    True
    """
    present, weight, size = _value_counts(values)
    if size == 0:
        return None
    bits = max(1, int(present[-1]).bit_length())
    low = min(bits, _MASK_LOW_BITS)
    low_part = present & np.uint32((1 << low) - 1)
    high_bits, low_mask, best = 0, 0, size + 1
    for _ in range(8):
        # Every low mask, the high bits fixed: fold the counts onto the low
        # bits, apart by the parity the high bits give.
        odd_high = ~rare(present, high_bits) if high_bits else np.zeros(len(present), bool)
        folded = [np.bincount(low_part[odd_high == k], weights=weight[odd_high == k],
                              minlength=1 << low) for k in (False, True)]
        lows = np.flatnonzero(folded[0] + folded[1]).astype(np.uint32)
        improved = False
        for first in range(1, 1 << low, 256):
            masks = np.arange(first, min(first + 256, 1 << low), dtype=np.uint32)
            even = rare(masks[:, None] & lows[None, :], 0xFFFFFFFF)
            rare_counts = even @ folded[0][lows] + ~even @ folded[1][lows]
            # Of equally good masks the largest (more bits set).
            i = len(masks) - 1 - int(np.argmin(rare_counts[::-1]))
            if rare_counts[i] < best or (rare_counts[i] == best and masks[i] > low_mask):
                improved |= rare_counts[i] < best
                low_mask, best = int(masks[i]), int(rare_counts[i])
        for bit in range(low, bits):
            other = (low_mask | high_bits) ^ (1 << bit)
            count = int(weight[rare(present, other)].sum())
            if count < best or (count == best and other >> bit & 1):
                improved |= count < best
                high_bits ^= 1 << bit
                best = count
        if not improved or bits == low:
            break
    mask = low_mask | high_bits | ((0xFFFFFFFF << bits) & 0xFFFFFFFF)
    return mask if best * 4 <= size else None


def rare_common(values: npt.NDArray[np.uint32], mask: int) -> RareCommon:
    """The rare/common statistics of the values G(0..n) for ``mask``.

    >>> rare_common(np.array([0, 1, 2, 3], np.uint32), 0b11).rare_positions.tolist()
    [0, 3]
    """
    is_rare = rare(values, mask)
    positions = np.flatnonzero(is_rare)
    return RareCommon(mask=mask, n=len(values) - 1, rare_count=len(positions),
                      rare_positions=readonly(positions.astype(np.int64)),
                      last_rare=int(positions[-1]) if len(positions) else -1,
                      rare_values=tuple(int(v) for v in np.unique(values[is_rare])),
                      max_value=int(values.max()), max_at=int(values.argmax()))
