"""Periods of nim-sequences, *proved* by the periodicity theorem (Guy-Smith).

If G(n + p) = G(n) for e <= n < 2e + p + t (t the largest number of tokens
a move takes), it holds for every n >= e.  Moves leaving three heaps need
e <= n < 3e + 2p + t; subtraction games e <= n < e + t; games whose splits
must be unequal (Grundy's game) 2e + 2p + t.  :func:`search` finds the
period proved with the fewest values, computing values in doubling steps
(the compiled search is linear in the values: for each period, the
preperiod comes from the Z-function of the values read backwards).

Examples
--------
>>> import numpy as np
>>> values = np.array([0, 1, 2] * 10, dtype=np.uint32)     # take 1 or 2
>>> search(lambda size: values[:size], heaps=1, max_take=2, unequal=False, n_max=29)
Periodicity(preperiod=0, period=3, proved_at=4)
"""
from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from grundy._common import check_memory, shown_int
from grundy._core import octal as _octal

__all__ = ["Periodicity", "DEFAULT_SEARCH", "search", "check"]

DEFAULT_SEARCH = 1 << 16
"""Values a period search computes at most unless told otherwise."""


class Periodicity(NamedTuple):
    """G(n + period) = G(n) for every n >= preperiod, proved by the
    periodicity theorem from the values G(0..proved_at).

    Examples
    --------
    >>> from grundy import SubtractionGame
    >>> SubtractionGame({1, 2}).periodicity()
    Periodicity(preperiod=0, period=3, proved_at=4)
    """

    preperiod: int
    period: int
    proved_at: int


def proof_end(preperiod: int, period: int, heaps: int, max_take: int, unequal: bool) -> int:
    """The first n the theorem need not compare: the values G(preperiod..end-1)
    must equal G(preperiod + period..end + period - 1).

    >>> proof_end(0, 3, heaps=1, max_take=2, unequal=False)
    2
    """
    extra = 1 if unequal else 0
    return max(heaps * preperiod + (heaps - 1 + extra) * period + max_take, preperiod + 1)


def check(period: Periodicity, values: npt.NDArray[np.uint32], heaps: int, max_take: int,
          unequal: bool) -> None:
    """ValueError unless the theorem proves ``period`` from ``values`` (the
    range :func:`search` compares, in one pass).

    >>> check(Periodicity(0, 3, 4), np.array([0, 1, 2, 0, 1], np.uint32), 1, 2, False)
    >>> check(Periodicity(0, 2, 3), np.array([0, 1, 2, 0, 1], np.uint32), 1, 2, False)
    Traceback (most recent call last):
    ...
    ValueError: the saved period (0, 2, 3) is not proved by the 5 saved values
    """
    e, p, proved = period
    end = proof_end(e, p, heaps, max_take, unequal)
    if p < 1 or proved != end - 1 + p or proved >= len(values) or \
            not np.array_equal(values[e:end], values[e + p:end + p]):
        raise ValueError(f"the saved period {tuple(period)} is not proved by the "
                         f"{len(values):,} saved values")


def search(values: Callable[[int], npt.NDArray[np.uint32]], *, heaps: int, max_take: int,
           unequal: bool, n_max: int, max_memory: int | None = None, searched_to: int = -1,
           unproved: Callable[[int], object] | None = None) -> Periodicity | None:
    """The period proved from G(0..n_max), or None.

    ``values(size)`` gives G(0..size-1) (computing them); sizes double from
    64, and when the period that would be proved with the fewest values
    needs fewer than the next step, values are computed just up to there.
    ``searched_to``: no period is provable from that many values (an
    earlier search found); they are not searched again.  ``unproved(size)``
    is told each size searched in vain (the caller keeps it as its next
    ``searched_to``).
    """
    extra = 1 if unequal else 0
    size = 64
    while True:
        size = min(size, n_max + 1)
        following = 2 * size
        if size > searched_to:
            known = values(size)
            # The search's scratch: 8 bytes for each period it may try.
            check_memory(16 * size // (heaps + extra) + 8, max_memory,
                         f"the period search over {shown_int(size)} values")
            found = _octal.find_period(known[:size], heaps, max_take, extra)
            if found is not None:
                e, p, need = found
                if need <= size:
                    return Periodicity(e, p, need - 1)
                # The candidate closest to a proof: if it holds up to
                # where it would be proved, stop there, not at twice size.
                following = max(size + size // 8 + 1, min(following, need))
            searched_to = size
            if unproved is not None:
                unproved(size)
        if size >= n_max + 1:
            return None
        size = following
