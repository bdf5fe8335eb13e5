"""Generalized Sprague-Grundy values: games with cycles, and their sums.

A position of a loopy impartial game has a value gamma that is a finite
nim-value, or infinite with the set K of its successors' finite values,
written inf(K).  Outcomes follow from gamma: 0 is a LOSS, a finite value > 0
a WIN, inf(K) a WIN when 0 is in K (move to the 0) and a DRAW otherwise.
The value of a sum of games follows from its parts' values::

    >>> LoopyValue(3) + LoopyValue(5)
    LoopyValue(6)
    >>> LoopyValue.inf({1}) + LoopyValue(1)
    LoopyValue.inf({0})
    >>> (LoopyValue.inf({1}) + LoopyValue(1)).outcome
    <Outcome.WIN: 1>
    >>> loopy_sum([LoopyValue.inf(), LoopyValue.inf({0})]).outcome
    <Outcome.DRAW: 0>
"""
import numpy as np

from grundy._common import DRAW, LOSS, WIN, is_integer, readonly, shorten, shown_int

__all__ = ["LoopyValue", "loopy_sum", "LoopyGrundy"]


class LoopyValue:
    """A generalized Sprague-Grundy value: finite ``LoopyValue(n)`` or ``LoopyValue.inf(K)``."""

    __slots__ = ("_finite", "_k")

    def __init__(self, value):
        if not is_integer(value):
            raise TypeError(f"a finite loopy value is an integer, got {shorten(value)}")
        if value < 0:
            raise ValueError(f"a finite loopy value is >= 0, got {shown_int(int(value))}")
        self._finite = int(value)
        self._k = None

    @classmethod
    def inf(cls, k=()):
        """The infinite value with the set ``k`` of finite successor values."""
        if isinstance(k, (str, bytes)) or not hasattr(k, "__iter__"):
            raise TypeError(f"K is a set of finite values (integers >= 0), got {shorten(k)}")
        self = cls.__new__(cls)
        self._finite = None
        ks = frozenset(int(LoopyValue(x)._finite) for x in k)
        self._k = ks
        return self

    @property
    def is_finite(self):
        return self._finite is not None

    @property
    def finite(self):
        """The finite value, or None for an infinite value."""
        return self._finite

    @property
    def k(self):
        """K of an infinite value (the empty set for a finite one)."""
        return self._k if self._k is not None else frozenset()

    @property
    def outcome(self):
        """LOSS for 0, WIN for finite > 0 or inf(K) with 0 in K, else DRAW."""
        if self._finite is not None:
            return LOSS if self._finite == 0 else WIN
        return WIN if 0 in self._k else DRAW

    def __add__(self, other):
        if isinstance(other, (int, np.integer)) and not isinstance(other, (bool, np.bool_)):
            other = LoopyValue(other)
        if not isinstance(other, LoopyValue):
            return NotImplemented
        if self._finite is not None and other._finite is not None:
            return LoopyValue(self._finite ^ other._finite)
        if self._finite is None and other._finite is None:
            return LoopyValue.inf()
        inf, fin = (self, other) if self._finite is None else (other, self)
        return LoopyValue.inf({x ^ fin._finite for x in inf._k})

    __radd__ = __add__

    def __eq__(self, other):
        if isinstance(other, (int, np.integer)) and not isinstance(other, (bool, np.bool_)):
            return self._finite == other
        if not isinstance(other, LoopyValue):
            return NotImplemented
        return self._finite == other._finite and self._k == other._k

    def __hash__(self):
        return hash(self._finite) if self._finite is not None else hash(("inf", self._k))

    def __repr__(self):
        if self._finite is not None:
            return f"LoopyValue({self._finite})"
        return f"LoopyValue.inf({{{', '.join(map(str, sorted(self._k)))}}})"


def loopy_sum(values):
    """Value of a sum of games from their values (LoopyValue or int).

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


class LoopyGrundy:
    """Generalized Sprague-Grundy values of every vertex of a game graph.

    ``value`` (int64: the finite value, -1 where infinite), ``infinite``
    (bool), ``outcome`` (int8), ``stages`` (stages the algorithm used);
    ``k(v)`` is K of an infinite vertex, ``lv[v]`` its :class:`LoopyValue`.
    """

    __slots__ = ("graph", "value", "infinite", "outcome", "stages")

    def __init__(self, graph, value, stages):
        self.graph = graph
        self.value = readonly(value)
        self.infinite = readonly(value < 0)
        self.stages = stages
        outcome = np.where(value > 0, WIN, np.where(value == 0, LOSS, DRAW)).astype(np.int8)
        # inf(K) with 0 in K: a WIN (move to the 0).
        indptr, indices = graph.indptr, graph.indices
        zero_succ = value[indices] == 0
        has_zero = np.zeros(len(value), dtype=bool)
        src = np.repeat(np.arange(len(value)), np.diff(indptr))
        has_zero[src[zero_succ]] = True
        outcome[(value < 0) & has_zero] = WIN
        self.outcome = readonly(outcome)

    def __reduce__(self):
        # Through __init__, so the arrays are read-only after pickle or deepcopy.
        return (type(self), (self.graph, np.array(self.value), self.stages))

    def k(self, v):
        """K of vertex (or node name) ``v``: its successors' finite values
        if v is infinite, else the empty set."""
        i = self.graph.vertex(v)
        if self.value[i] >= 0:
            return frozenset()
        succ = self.graph.indices[self.graph.indptr[i]:self.graph.indptr[i + 1]]
        vals = self.value[succ]
        return frozenset(int(x) for x in vals[vals >= 0])

    def __getitem__(self, v):
        i = self.graph.vertex(v)
        g = int(self.value[i])
        return LoopyValue(g) if g >= 0 else LoopyValue.inf(self.k(v))

    def __len__(self):
        return len(self.value)

    def __repr__(self):
        return (f"LoopyGrundy(n={len(self)}, infinite={int(self.infinite.sum())}, "
                f"stages={self.stages})")
