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

import os
from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from grundy._common import (DRAW, LOSS, WIN, Int64Array, Outcome, check_count, is_integer,
                            readonly, shorten, shown_int)

if TYPE_CHECKING:
    from grundy.graph import GameGraph

__all__ = ["LoopyValue", "loopy_sum", "LoopyValues"]


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


class LoopyValues:
    """Generalized Sprague-Grundy values of every position of a game graph.

    Returned by :meth:`grundy.GameGraph.loopy_values`.  ``lv[p]`` is the
    :class:`LoopyValue` of position ``p``.

    Parameters
    ----------
    graph : GameGraph
        The graph.
    value : array_like of int
        The finite values, -1 where infinite (copied as int64: ``finite``).
    stages : int
        Stages the algorithm used.

    Raises
    ------
    TypeError
        If ``graph`` is not a GameGraph, or ``value`` does not hold integers.
    ValueError
        If ``value`` has the wrong length or a value below -1.

    Attributes
    ----------
    graph : GameGraph
        The graph.
    finite : numpy.ndarray
        int64: the finite value of each position, -1 where infinite.
    infinite : numpy.ndarray
        bool: where the value is infinite.
    outcome : numpy.ndarray
        int8: WIN 1, LOSS -1, DRAW 0, as in every solution.
    stages : int
        Stages the algorithm used.

    Examples
    --------
    >>> import grundy
    >>> g = grundy.GameGraph.from_edges([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)])
    >>> lv = g.loopy_values()
    >>> lv
    LoopyValues(n_positions=5, infinite=3, stages=2)
    >>> lv[2], lv[3], lv.outcome.tolist()
    (LoopyValue.inf({1}), LoopyValue(1), [0, 0, 0, 1, -1])
    """

    __slots__ = ("graph", "finite", "infinite", "outcome", "stages")

    def __init__(self, graph: GameGraph, value: npt.ArrayLike, stages: int) -> None:
        from grundy.graph import GameGraph
        from grundy.solution import checked_array

        if not isinstance(graph, GameGraph):
            raise TypeError(f"graph must be a GameGraph, got {shorten(graph)}")
        self._setup(graph, checked_array(value, "value", np.int64, graph.n_positions, -1,
                                         2 ** 63 - 1),
                    check_count(stages, "stages"))

    @classmethod
    def _owned(cls, graph: GameGraph, value: Int64Array, stages: int) -> LoopyValues:
        """Values a kernel computed (not copied, made read-only)."""
        self = cls.__new__(cls)
        self._setup(graph, readonly(value), stages)
        return self

    def _setup(self, graph: GameGraph, value: Int64Array, stages: int) -> None:
        self.graph = graph
        self.finite = value
        self.infinite: npt.NDArray[np.bool_] = readonly(value < 0)
        self.stages = stages
        outcome = np.where(value > 0, WIN, np.where(value == 0, LOSS, DRAW)).astype(np.int8)
        # inf(K) with 0 in K: a WIN (move to the 0).
        indptr, indices = graph.indptr, graph.indices
        zero_succ = value[indices] == 0
        has_zero = np.zeros(len(value), dtype=bool)
        src = np.repeat(np.arange(len(value)), np.diff(indptr))
        has_zero[src[zero_succ]] = True
        outcome[(value < 0) & has_zero] = WIN
        self.outcome: npt.NDArray[np.int8] = readonly(outcome)

    def __reduce__(self) -> tuple[Any, ...]:
        # Through __init__, so the arrays are read-only after pickle or deepcopy.
        return (type(self), (self.graph, np.array(self.finite), self.stages))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the values (and their graph) to a file that :func:`grundy.load` reads back.

        The format is that of :mod:`grundy.store`, written atomically.

        Parameters
        ----------
        path : str or os.PathLike
            The file to write (replaced if it exists; ``.npz`` by custom).

        Raises
        ------
        TypeError
            If a position name is of a type the format cannot hold.
        OSError
            If the file cannot be written.

        Examples
        --------
        >>> import grundy, os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "loopy.npz")
        >>> g = grundy.GameGraph.from_edges([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)])
        >>> g.loopy_values().save(path)
        >>> grundy.load(path)[2]
        LoopyValue.inf({1})
        """
        from grundy.store import save

        save(self, path)

    def _saved(self) -> tuple[str, Any, dict[str, npt.NDArray[Any]]]:
        from grundy.store import graph_data

        names, arrays = graph_data(self.graph)
        arrays["finite"] = self.finite
        return "loopy", {"positions": names, "stages": self.stages}, arrays

    @classmethod
    def _from_saved(cls, data: Any, arrays: dict[str, npt.NDArray[Any]]) -> LoopyValues:
        from grundy.store import need, saved_graph

        graph = saved_graph(data["positions"], arrays)
        finite = need(arrays, "finite", np.int64, graph.n_positions, -1, 2 ** 63 - 1)
        return cls._owned(graph, finite, check_count(data["stages"], "stages"))

    @property
    def n_positions(self) -> int:
        """Number of positions.

        Examples
        --------
        >>> import grundy
        >>> grundy.GameGraph.from_edges([(0, 1)]).loopy_values().n_positions
        2
        """
        return len(self.finite)

    @property
    def positions(self) -> Sequence[Hashable]:
        """The graph's positions, in number order.

        Examples
        --------
        >>> import grundy
        >>> grundy.GameGraph.from_edges([("a", "b")], names=True).loopy_values().positions
        ('a', 'b')
        """
        return self.graph.positions

    def index(self, position: Hashable) -> int:
        """Number of a position (see :meth:`grundy.GameGraph.index`).

        Parameters
        ----------
        position
            A position of the graph.

        Returns
        -------
        int

        Raises
        ------
        ValueError
            If it is not a position of the graph.

        Examples
        --------
        >>> import grundy
        >>> grundy.GameGraph.from_edges([("a", "b")], names=True).loopy_values().index("b")
        1
        """
        return self.graph.index(position)

    def k(self, position: Hashable) -> frozenset[int]:
        """K of a position: its successors' finite values if its value is
        infinite, else the empty set.

        Parameters
        ----------
        position
            A position of the graph.

        Returns
        -------
        frozenset of int

        Raises
        ------
        ValueError
            If it is not a position of the graph.

        Examples
        --------
        >>> import grundy
        >>> g = grundy.GameGraph.from_edges([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)])
        >>> g.loopy_values().k(2)
        frozenset({1})
        """
        i = self.graph.index(position)
        if self.finite[i] >= 0:
            return frozenset()
        succ = self.graph.indices[self.graph.indptr[i]:self.graph.indptr[i + 1]]
        vals = self.finite[succ]
        return frozenset(int(x) for x in vals[vals >= 0])

    def __getitem__(self, position: Hashable) -> LoopyValue:
        """``lv[p]``: the :class:`LoopyValue` of a position.

        Parameters
        ----------
        position
            A position of the graph.

        Returns
        -------
        LoopyValue

        Raises
        ------
        TypeError, ValueError
            If it is not a position of the graph.

        Examples
        --------
        >>> import grundy
        >>> lv = grundy.GameGraph.from_edges([(0, 1), (1, 0), (1, 2)]).loopy_values()
        >>> lv[0], lv[1]
        (LoopyValue(0), LoopyValue(1))
        """
        i = self.graph.index(position)
        g = int(self.finite[i])
        return LoopyValue(g) if g >= 0 else LoopyValue.inf(self.k(position))

    def __len__(self) -> int:
        return len(self.finite)

    def __repr__(self) -> str:
        return (f"LoopyValues(n_positions={len(self)}, infinite={int(self.infinite.sum())}, "
                f"stages={self.stages})")
