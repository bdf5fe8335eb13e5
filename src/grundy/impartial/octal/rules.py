"""The rules of take-and-break games: which numbers of tokens a move takes,
and how many heaps it leaves; octal and hexadecimal codes.

A game's rules are four sorted arrays of k (``take0``: remove a whole heap
of exactly k; ``take1``: take k and leave one heap; ``take2``: leave two;
``take3``: leave three) and whether the heaps of a split must differ.  A
code "d0.d1d2..." gives them digit by digit: bit 1 of d_k allows take0 of k,
bit 2 take1, bit 4 take2, bit 8 (hexadecimal) take3.

Examples
--------
>>> [r.tolist() for r in parse_code("0.137", 8)]          # Dawson's chess
[[1, 2, 3], [2, 3], [3], []]
>>> parse_code("4.7", 8)[2].tolist()                      # split without taking
[0, 1]
>>> options(parse_code("0.77", 8), False, 4)               # Kayles from 4 pins
[(1, 1), (1, 2), (2,), (3,)]
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np

from grundy._common import Int64Array, check_count, shorten

__all__ = ["Rules", "rule_array", "parse_code", "options"]

Rules = tuple[Int64Array, Int64Array, Int64Array, Int64Array]
"""(take0, take1, take2, take3): the numbers k of tokens each kind of move takes."""


def rule_array(rule: Iterable[int], name: str, minimum: int) -> Int64Array:
    """A move rule (the numbers k of tokens taken) as a sorted int64 array.

    >>> rule_array({3, 1}, "take0", 1).tolist()
    [1, 3]
    """
    if isinstance(rule, (str, bytes)) or not hasattr(rule, "__iter__"):
        raise TypeError(f"{name} must be a collection of integers, got {shorten(rule)}")
    ks = set()
    for k in rule:
        ks.add(check_count(k, f"{name} member", minimum=minimum))
    return np.array(sorted(ks), dtype=np.int64)


def options(rules: Sequence[Int64Array], unequal: bool, n: int) -> list[tuple[int, ...]]:
    """The heaps a move from one heap of ``n`` tokens can leave: sorted
    tuples of non-empty heaps (``()`` when the move takes the whole heap),
    each once, in sorted order (see :meth:`TakeAndBreakGame.options`).

    >>> options(parse_code("4.0", 8), True, 6)      # split in two, unequal ones
    [(1, 5), (2, 4)]
    """
    take0, take1, take2, take3 = (r.tolist() for r in rules)
    found: set[tuple[int, ...]] = set()
    if n in take0:
        found.add(())
    found.update((n - k,) for k in take1 if n > k)
    for k in take2:
        m = n - k
        found.update((a, m - a) for a in range(1, m // 2 + 1)
                     if not (unequal and 2 * a == m))
    for k in take3:
        m = n - k
        found.update((a, b, m - a - b) for a in range(1, m // 3 + 1)
                     for b in range(a, (m - a) // 2 + 1))
    return sorted(found)


_CODE_RE = re.compile(r"^([0-9A-Fa-f]?)\.([0-9A-Fa-f]+)$")


def parse_code(code: str, base: int) -> Rules:
    """(take0, take1, take2, take3) from a code "d0.d1d2..." in base 8 or 16.

    >>> [r.tolist() for r in parse_code("0.3F", 16)]
    [[1, 2], [1, 2], [2], [2]]
    """
    kind = "octal" if base == 8 else "hexadecimal"
    if not isinstance(code, str):
        raise TypeError(f"the {kind} code must be a string such as '0.137', got {shorten(code)}")
    m = _CODE_RE.match(code.strip())
    if not m:
        raise ValueError(f"{shorten(code)} is not a{'n' if base == 8 else ''} {kind} code: expected "
                         f"'d0.d1d2...' such as {'0.137' if base == 8 else '0.3F'}")
    d0, rest = m.group(1) or "0", m.group(2)
    digits = []
    for ch in d0 + rest:
        d = int(ch, 16)
        if d >= base:
            raise ValueError(f"{shorten(code)}: digit {ch!r} is not {kind} (0-{'7' if base == 8 else 'F'})")
        digits.append(d)
    allowed0 = (0, 4) if base == 8 else (0, 4, 8, 12)
    if digits[0] not in allowed0:
        raise ValueError(f"{shorten(code)}: d0 must be {' or '.join(map(str, allowed0))} "
                         f"(split without taking), got {d0!r}")
    while len(digits) > 1 and digits[-1] == 0:
        digits.pop()
    rules: tuple[list[int], list[int], list[int], list[int]] = ([], [], [], [])
    for k, d in enumerate(digits):
        for bit, rule in ((1, 0), (2, 1), (4, 2), (8, 3)):
            if d & bit and not (k == 0 and bit in (1, 2)):
                rules[rule].append(k)
    return tuple(np.array(r, dtype=np.int64) for r in rules)  # type: ignore[return-value]
