"""Impartial games: Grundy values, sums of games, games from a move function.

An impartial game is given by ``moves(position) -> iterable of options``.
An option is a position, or a :class:`Sum` of positions: independent games
played side by side, a move changing one of them.  By the Sprague-Grundy
theorem a sum is worth the xor of its parts' values.

>>> def kayles(n):          # knock down 1 or 2 adjacent pins of a row of n
...     return [Sum(a, n - k - a) for k in (1, 2) for a in range(n - k + 1)]
>>> game = ImpartialGame(kayles)
>>> game.table(range(12)).tolist()
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
>>> game.winning_moves(4)         # knock out the middle two: 1 + 1 = 0
[Sum(1, 1)]
"""
import functools
import operator
import threading
from collections import Counter

import numpy as np

from grundy._common import LOSS, WIN, CycleError, readonly, shorten, shown_int
from grundy._core import grundy as _grundy
from grundy.loopy import loopy_sum

__all__ = ["Sum", "grundy_sum", "ImpartialGame"]


def grundy_sum(values):
    """Grundy value of a sum of games with the given values: their xor.

    >>> grundy_sum([1, 2, 3]), grundy_sum([])
    (0, 0)
    """
    out = 0
    for i, v in enumerate(values):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"value {i} is {shorten(v)}: Grundy values are integers")
        if v < 0:
            raise ValueError(f"value {i} is {shown_int(int(v))}: Grundy values are >= 0")
        out ^= int(v)
    return out


class Sum:
    """A sum of independent games: ``Sum(p1, p2, ...)``.

    Hashable and order-insensitive (``Sum(1, 2) == Sum(2, 1)``); nested sums
    are flattened; ``Sum()`` is the empty game, worth 0.

    >>> Sum(1, Sum(2, 3))
    Sum(1, 2, 3)
    >>> Sum(1, 2) == Sum(2, 1), len(Sum())
    (True, 0)
    """

    __slots__ = ("parts", "_key")

    def __init__(self, *parts):
        flat = []
        for p in parts:
            if isinstance(p, Sum):
                flat.extend(p.parts)
            else:
                try:
                    hash(p)      # positions must be hashable: fail here, clearly
                except TypeError:
                    raise TypeError(f"a Sum holds positions, which must be hashable; got "
                                    f"{shorten(p)} (use a tuple, not a list)") from None
                flat.append(p)
        self.parts = tuple(flat)
        self._key = None

    def _counter(self):
        if self._key is None:
            self._key = frozenset(Counter(self.parts).items())
        return self._key

    def __eq__(self, other):
        return isinstance(other, Sum) and self._counter() == other._counter()

    def __hash__(self):
        return hash((Sum, self._counter()))

    def __len__(self):
        return len(self.parts)

    def __iter__(self):
        return iter(self.parts)

    def __repr__(self):
        return f"Sum({', '.join(map(repr, self.parts))})"


def _locked(method):
    """Run a method of ImpartialGame under the game's lock (one thread at a
    time reads or extends its cache)."""
    @functools.wraps(method)
    def locked(self, *args, **kwargs):
        with self._lock:
            return method(self, *args, **kwargs)
    return locked


def _check_hashable(position, context):
    try:
        hash(position)
    except TypeError:
        raise TypeError(f"{context} {shorten(position)}, which is not hashable: positions "
                        f"must be hashable (use a tuple, not a list)") from None


def _components(option):
    return option.parts if isinstance(option, Sum) else (option,)


class ImpartialGame:
    """An impartial game given by its move function.

    ``moves(position)`` returns an iterable of options (positions, or
    :class:`Sum` objects).  Positions are hashable Python values.
    Exploration is iterative (no recursion limit), each distinct position is
    visited once per game object (values are cached), and the values are
    computed by the compiled kernel over the explored DAG.

    A subtraction game (take 1, 3 or 4 stones)::

        >>> game = ImpartialGame(lambda n: [n - s for s in (1, 3, 4) if s <= n])
        >>> game.grundy(10), game.outcome(7)
        (1, <Outcome.LOSS: -1>)
        >>> game.winning_moves(10)
        [9, 7]
    """

    def __init__(self, moves):
        if not callable(moves):
            raise TypeError(f"moves must be callable, got {shorten(moves)}")
        self._moves = moves
        # Threads may share a game: one at a time explores (the others wait);
        # a move function calling back into its own game is refused.
        self._lock = threading.RLock()
        self._exploring = False
        self._id = {}               # position -> id
        self._positions = []        # id -> position
        self._options = []          # id -> tuple of options (each a tuple of ids)
        self._value = np.zeros(0, dtype=np.int64)
        self._moves_of = {}         # position -> list of options (each call made once)
        self._loopy_values = {}     # position -> LoopyValue

    def __repr__(self):
        name = getattr(self._moves, "__name__", repr(self._moves))
        return f"ImpartialGame({name}, explored={len(self._positions)})"

    @property
    def n_explored(self):
        """How many distinct positions have been explored so far."""
        return len(self._positions)

    # -- exploration --------------------------------------------------------

    def _call_moves(self, position):
        """``moves(position)`` as a list, called once per position and cached
        (shared by the acyclic and the loopy exploration)."""
        try:
            options = self._moves_of.get(position)
        except TypeError:
            raise TypeError(f"positions must be hashable, got {shorten(position)} "
                            f"(use a tuple, not a list)") from None
        if options is None:
            if self._exploring:
                raise RuntimeError("the move function called back into the ImpartialGame "
                                   "that is exploring it; moves(p) must only list options")
            self._exploring = True
            try:
                options = self._moves(position)
            finally:
                self._exploring = False
            if isinstance(options, (str, bytes)) or not hasattr(options, "__iter__"):
                raise TypeError(f"moves({shorten(position)}) must return an iterable of "
                                f"options, got {shorten(options)}")
            options = list(options)
            for o in options:
                for c in _components(o):
                    _check_hashable(c, f"moves({shorten(position)}) returned the option")
            self._moves_of[position] = options
        return options

    def _register(self, position):
        options = self._call_moves(position)
        i = len(self._positions)
        self._id[position] = i
        self._positions.append(position)
        self._options.append(options)
        return i

    def _explore(self, roots):
        """Explore everything reachable from roots; value every new position.

        On any error (or Ctrl-C) the partial exploration is undone."""
        for root in roots:
            for c in _components(root):
                _check_hashable(c, "got the position")
        with self._lock:
            first_new = len(self._positions)
            try:
                self._explore_from(roots, first_new)
            except BaseException:
                self._rollback(first_new)
                raise

    def _explore_from(self, roots, first_new):
        order = []
        state = {}                  # id -> 1 on the stack (new ids only)
        for root in roots:
            for c in _components(root):
                if c in self._id:
                    continue
                stack = [(self._register(c), 0, 0)]
                state[stack[0][0]] = 1
                while stack:
                    i, k, j = stack[-1]
                    opts = self._options[i]
                    if k == len(opts):
                        stack.pop()
                        state[i] = 2
                        order.append(i)
                        continue
                    comps = _components(opts[k])
                    if j == len(comps):
                        stack[-1] = (i, k + 1, 0)
                        continue
                    stack[-1] = (i, k, j + 1)
                    c2 = comps[j]
                    w = self._id.get(c2)
                    if w is None:
                        w = self._register(c2)
                        state[w] = 1
                        stack.append((w, 0, 0))
                    elif state.get(w) == 1:
                        cycle = [self._positions[e[0]] for e in stack]
                        cycle = cycle[cycle.index(c2):]
                        shown = " -> ".join(map(shorten, cycle[:10])) + \
                            (" -> ..." if len(cycle) > 10 else "")
                        raise CycleError(
                            f"the game has a cycle ({shown} -> {shorten(c2)}): Grundy values need "
                            "an acyclic game; use loopy_grundy() for games with cycles", cycle)
        self._value_new(first_new, order)

    def _rollback(self, first_new):
        for p in self._positions[first_new:]:
            del self._id[p]
        del self._positions[first_new:]
        del self._options[first_new:]

    def _value_new(self, first_new, order):
        """Value the positions explored since first_new (in ``order``), in
        time proportional to them, not to everything explored before."""
        n = len(self._positions)
        if n == first_new:
            return
        new = range(first_new, n)
        option_ptr = np.zeros(len(new) + 1, dtype=np.int64)
        option_ptr[1:] = np.cumsum([len(self._options[i]) for i in new])
        comp_lists = [[self._id[c] for c in _components(o)]
                      for i in new for o in self._options[i]]
        component_ptr = np.zeros(len(comp_lists) + 1, dtype=np.int64)
        component_ptr[1:] = np.cumsum([len(c) for c in comp_lists])
        components = np.fromiter((c for cl in comp_lists for c in cl), dtype=np.int64,
                                 count=int(component_ptr[-1]))
        if len(self._value) < n:
            bigger = np.zeros(max(n, 2 * len(self._value)), dtype=np.int64)
            bigger[:first_new] = self._value[:first_new]
            self._value = bigger
        _grundy.sums_grundy(np.asarray(order, dtype=np.int64), first_new, option_ptr,
                            component_ptr, components, self._value)

    # -- values ---------------------------------------------------------------

    @_locked
    def grundy(self, position):
        """Grundy value of a position (or of a :class:`Sum` of positions)."""
        self._explore([position])
        return functools.reduce(operator.xor,
                                (int(self._value[self._id[c]]) for c in _components(position)), 0)

    @_locked
    def outcome(self, position):
        """WIN or LOSS for the player to move (normal play)."""
        return WIN if self.grundy(position) else LOSS

    @_locked
    def options(self, position):
        """The options of ``position`` as given by the move function
        (for a :class:`Sum`: the sums with one component moved)."""
        if isinstance(position, Sum):
            parts = position.parts
            out = []
            for idx, p in enumerate(parts):
                self._explore([p])
                for o in self._options[self._id[p]]:
                    out.append(Sum(*parts[:idx], *_components(o), *parts[idx + 1:]))
            return out
        self._explore([position])
        return list(self._options[self._id[position]])

    @_locked
    def winning_moves(self, position):
        """The options that leave a position of value 0 (empty in a LOSS)."""
        return [o for o in self.options(position) if self.grundy(o) == 0]

    @_locked
    def table(self, positions):
        """Grundy values of many positions at once, as an int64 array.

        >>> ImpartialGame(lambda n: range(n)).table([0, 5, 3]).tolist()
        [0, 5, 3]
        """
        if isinstance(positions, (str, bytes)) or not hasattr(positions, "__iter__"):
            raise TypeError(f"table() takes an iterable of positions, got {shorten(positions)}")
        positions = list(positions)
        self._explore(positions)
        return readonly(np.array([self.grundy(p) for p in positions], dtype=np.int64))

    # -- games with cycles ----------------------------------------------------

    def _loopy_options(self, node):
        """Options of a node of the explored graph.  A node is a position or a
        Sum of two or more positions (whose moves change one part)."""
        if isinstance(node, Sum):
            out = []
            parts = node.parts
            for i, p in enumerate(parts):
                for o in self._loopy_options(p):
                    out.append(_node(Sum(*parts[:i], o, *parts[i + 1:])))
            return out
        return [_node(o) for o in self._call_moves(node)]

    @_locked
    def loopy_grundy(self, position):
        """Generalized Sprague-Grundy value of a position of a game that may
        have cycles, as a :class:`grundy.LoopyValue`.

        Explores every position reachable from ``position`` (iteratively);
        options that are sums become positions of their own (a move changes
        one part).  The value of a :class:`Sum` is the sum of its parts' values.

        >>> # From n you may go to n - 1, or from 2 back up to 3.
        >>> game = ImpartialGame(lambda n: ([n - 1] if n else []) + ([3] if n == 2 else []))
        >>> [game.loopy_grundy(n) for n in range(4)]
        [LoopyValue(0), LoopyValue(1), LoopyValue.inf({1}), LoopyValue.inf({})]
        >>> game.loopy_grundy(2).outcome, game.loopy_grundy(Sum(2, 1)).outcome
        (<Outcome.DRAW: 0>, <Outcome.WIN: 1>)
        """
        from grundy.graph import GameGraph

        if isinstance(position, Sum) and len(position) != 1:
            return loopy_sum(self.loopy_grundy(p) for p in position.parts)
        root = _node(position)
        if root in self._loopy_values:
            return self._loopy_values[root]
        index = {root: 0}
        nodes = [root]
        adjacency = []
        for node in nodes:              # grows while we walk it: a BFS
            row = []
            for o in self._loopy_options(node):
                j = index.get(o)
                if j is None:
                    j = index[o] = len(nodes)
                    nodes.append(o)
                row.append(j)
            adjacency.append(row)
        lv = GameGraph.from_adjacency(adjacency).loopy_grundy()
        for i, node in enumerate(nodes):
            self._loopy_values[node] = lv[i]
        return self._loopy_values[root]


def _node(option):
    """Normal form of an option as a graph node: a one-part Sum is its part."""
    if isinstance(option, Sum) and len(option) == 1:
        return option.parts[0]
    return option
