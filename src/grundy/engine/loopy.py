"""Generalized Sprague-Grundy values: games with cycles, and their sums.

A position of a loopy impartial game has a value gamma that is a finite
nim-value, or infinite with the set K of its successors' finite values,
written inf(K).  Outcomes follow from gamma: 0 is a LOSS, a finite value > 0
a WIN, inf(K) a WIN when 0 is in K (move to the 0) and a DRAW otherwise.
The value of a sum of games follows from its parts' values.

Examples
--------
>>> LoopyValue(3) + LoopyValue(5)
LoopyValue(6)
>>> LoopyValue.inf({1}) + LoopyValue(1)
LoopyValue.inf({0})
>>> (LoopyValue.inf({1}) + LoopyValue(1)).outcome
WIN
>>> loopy_sum([LoopyValue.inf(), LoopyValue.inf({0})]).outcome
DRAW
"""
from __future__ import annotations

from collections.abc import Iterable

from grundy._common import DRAW, LOSS, WIN, Outcome, is_integer, shorten, shown_int

__all__ = ["LoopyValue", "loopy_sum"]


class LoopyValue:
    """A generalized Sprague-Grundy value: finite ``LoopyValue(n)`` or ``LoopyValue.inf(K)``.

    Immutable and hashable; ``+`` is the value of the sum of two games (an
    int is read as a finite value).

    Parameters
    ----------
    value : int
        The finite value, >= 0.

    Raises
    ------
    TypeError
        If ``value`` is not an integer.
    ValueError
        If it is negative.

    Examples
    --------
    >>> LoopyValue(2) + 3, LoopyValue(0).outcome
    (LoopyValue(1), LOSS)
    >>> LoopyValue.inf({0, 2}).outcome, LoopyValue.inf({2}).outcome
    (WIN, DRAW)
    """

    __slots__ = ("_finite", "_k")

    def __init__(self, value: int) -> None:
        if not is_integer(value):
            raise TypeError(f"a finite loopy value is an integer, got {shorten(value)}")
        if value < 0:
            raise ValueError(f"a finite loopy value is >= 0, got {shown_int(int(value))}")
        self._finite: int | None = int(value)
        self._k: frozenset[int] | None = None

    @classmethod
    def inf(cls, k: Iterable[int] = ()) -> LoopyValue:
        """The infinite value with the set ``k`` of finite successor values.

        Parameters
        ----------
        k : iterable of int, default ()
            The finite values (>= 0) of the position's successors.

        Returns
        -------
        LoopyValue

        Raises
        ------
        TypeError, ValueError
            If a member of ``k`` is not an integer >= 0.

        Examples
        --------
        >>> LoopyValue.inf([2, 0, 2])
        LoopyValue.inf({0, 2})
        """
        if isinstance(k, (str, bytes)) or not hasattr(k, "__iter__"):
            raise TypeError(f"K is a set of finite values (integers >= 0), got {shorten(k)}")
        self = cls.__new__(cls)
        self._finite = None
        self._k = frozenset(LoopyValue(x).finite for x in k)  # type: ignore[misc]
        return self

    @property
    def is_finite(self) -> bool:
        """True for a finite value.

        Examples
        --------
        >>> LoopyValue(0).is_finite, LoopyValue.inf().is_finite
        (True, False)
        """
        return self._finite is not None

    @property
    def finite(self) -> int | None:
        """The finite value, or None for an infinite value.

        Examples
        --------
        >>> LoopyValue(4).finite, LoopyValue.inf().finite
        (4, None)
        """
        return self._finite

    @property
    def k(self) -> frozenset[int]:
        """K of an infinite value (the empty set for a finite one).

        Examples
        --------
        >>> sorted(LoopyValue.inf({3, 1}).k)
        [1, 3]
        """
        return self._k if self._k is not None else frozenset()

    @property
    def outcome(self) -> Outcome:
        """LOSS for 0, WIN for finite > 0 or inf(K) with 0 in K, else DRAW.

        Examples
        --------
        >>> LoopyValue(0).outcome, LoopyValue(5).outcome, LoopyValue.inf().outcome
        (LOSS, WIN, DRAW)
        """
        if self._finite is not None:
            return LOSS if self._finite == 0 else WIN
        return WIN if 0 in self.k else DRAW

    def __add__(self, other: object) -> LoopyValue:
        if is_integer(other):
            other = LoopyValue(other)  # type: ignore[arg-type]
        if not isinstance(other, LoopyValue):
            return NotImplemented
        if self._finite is not None and other._finite is not None:
            return LoopyValue(self._finite ^ other._finite)
        if self._finite is None and other._finite is None:
            return LoopyValue.inf()
        inf, fin = (self, other) if self._finite is None else (other, self)
        assert fin._finite is not None
        return LoopyValue.inf({x ^ fin._finite for x in inf.k})

    __radd__ = __add__

    def __eq__(self, other: object) -> bool:
        if is_integer(other):
            return self._finite == other
        if not isinstance(other, LoopyValue):
            return NotImplemented
        return self._finite == other._finite and self._k == other._k

    def __hash__(self) -> int:
        return hash(self._finite) if self._finite is not None else hash(("inf", self._k))

    def __repr__(self) -> str:
        if self._finite is not None:
            return f"LoopyValue({self._finite})"
        return f"LoopyValue.inf({{{', '.join(map(str, sorted(self.k)))}}})"


def loopy_sum(values: Iterable[LoopyValue | int]) -> LoopyValue:
    """Value of a sum of games from their values (LoopyValue or int).

    Parameters
    ----------
    values : iterable of LoopyValue or int
        The values of the parts.

    Returns
    -------
    LoopyValue

    Raises
    ------
    TypeError
        If a value is neither a LoopyValue nor an integer.
    ValueError
        If an integer value is negative.

    Examples
    --------
    >>> loopy_sum([1, LoopyValue(2), 3])
    LoopyValue(0)
    >>> loopy_sum([])
    LoopyValue(0)
    """
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f"loopy_sum() takes an iterable of values, got {shorten(values)}")
    total = LoopyValue(0)
    for i, v in enumerate(values):
        if not isinstance(v, LoopyValue):
            if not is_integer(v):
                raise TypeError(f"value {i} is {shorten(v)}: a loopy value is a LoopyValue "
                                f"or an integer >= 0")
            v = LoopyValue(v)
        total = total + v
    return total
