"""Misère play of take-and-break games: outcomes of sums, and misère quotients.

In misère play (the player who makes the last move loses) Grundy values
stop adding up.  What takes their place is the *misère quotient*
(Plambeck, Siegel): the sums of heaps of a game, up to a heap size n,
modulo indistinguishability (x and y are alike when x + z and y + z have
the same misère outcome for every sum z).  It is a commutative monoid Q
with a set P of its elements (the classes of the second player's wins),
and every heap h maps to an element; the outcome of a sum is then read
from the product of its heaps' elements, as normal play reads it from the
nim-sum of Grundy values.

:func:`misere_quotient` computes it exactly: a candidate is learned from
misère outcomes of sums (computed exhaustively), then *proved* for every
sum of every size by a finite check; a failed check names a sum where the
candidate is wrong, which refines the candidate (see the function's notes).

Examples
--------
>>> from grundy import OctalGame, SubtractionGame
>>> q = misere_quotient(SubtractionGame({1, 2, 3}), 3)   # misère Nim, heaps up to 3
>>> print(q)
heaps 1..3 of SubtractionGame({1, 2, 3}): misère quotient of order 6
Q = < a, b | a^2 = 1, b^3 = b >
P = { a, b^2 }
heaps: 1 -> a, 2 -> b, 3 -> ab
>>> q.outcome([1, 1, 1]), q.outcome([2, 3])
(LOSS, WIN)
"""
from __future__ import annotations

import string
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

from grundy._common import (LOSS, WIN, Outcome, check_count, check_int, check_memory,
                            is_integer, readonly, resolve_max_memory, shorten, shown_int)

if TYPE_CHECKING:
    from grundy.octal import TakeAndBreakGame

__all__ = ["MisereQuotient", "misere_quotient", "QuotientTooLarge"]

Position = tuple[int, ...]          # a sum of heaps: the heaps with a move, sorted


class QuotientTooLarge(ValueError):
    """The misère quotient has more elements than allowed (it may be infinite).

    Examples
    --------
    >>> from grundy import OctalGame
    >>> try:
    ...     misere_quotient(OctalGame("0.77"), 12, max_order=10)
    ... except QuotientTooLarge as exc:
    ...     print(exc)
    the misère quotient of OctalGame('0.77') up to heap 5 has more than 10 elements (it may be infinite): raise max_order, or ask for fewer heaps
    """


class MisereQuotient:
    """The misère quotient of a take-and-break game's heaps up to ``n``, as
    :func:`misere_quotient` computes it (which is how to get one).

    Parameters
    ----------
    game : TakeAndBreakGame
    n : int
    table : numpy.ndarray
    p_positions : iterable of int
    heap_elements : numpy.ndarray
        As the attributes of the same names.

    Attributes
    ----------
    game : TakeAndBreakGame
    n : int
        The largest heap it covers: every sum of heaps <= n.
    order : int
        How many elements the quotient has.
    table : numpy.ndarray
        ``table[x, y]``: the product of elements x and y (element 0 is the
        identity, the class of the empty sum), read-only.
    p_positions : frozenset of int
        The elements whose sums the player to move loses.
    heap_elements : numpy.ndarray
        ``heap_elements[h]``: the element of one heap of h, h = 0..n
        (0, the identity, for heaps with no move).
    generators : list of int
        Heap sizes whose elements generate the quotient, named a, b, c, ...
        in this order: the smallest heap whose element the earlier ones do
        not generate.
    relations : list of tuple of str
        Defining relations (lhs, rhs) in the generators' names: the monoid is
        the free commutative monoid on the generators modulo these.
    words : list of str
        Each element written in the generators: the least word in degree,
        then in the later generators' exponents ("1" for the identity).

    Examples
    --------
    >>> from grundy import OctalGame
    >>> q = misere_quotient(OctalGame("0.75"), 12)
    >>> q.order, sorted(q.words[x] for x in q.p_positions)
    (8, ['a', 'b^2'])
    >>> q.presentation()
    '< a, b, c | a^2 = 1, bc = ab, c^2 = b^2, b^3 = b >'
    """

    def __init__(self, game: TakeAndBreakGame, n: int, table: npt.NDArray[np.int64],
                 p_positions: Iterable[int], heap_elements: npt.NDArray[np.int64]) -> None:
        self.game = game
        self.n = n
        self.table = readonly(np.array(table, dtype=np.int64))
        self.order = int(table.shape[0])
        self.p_positions = frozenset(int(x) for x in p_positions)
        self.heap_elements = readonly(np.array(heap_elements, dtype=np.int64))
        self.generators, self.words, self.relations = _presentation(table, heap_elements)

    def element(self, heaps: int | Iterable[int]) -> int:
        """The element of a sum of heaps (each 0..n): the product of theirs.

        Parameters
        ----------
        heaps : int or iterable of int
            One heap, or the heaps of the sum.

        Returns
        -------
        int
            The element (a row of ``table``; ``words[x]`` writes it).

        Raises
        ------
        TypeError, ValueError
            For heaps that are not integers 0..n.

        Examples
        --------
        >>> from grundy import SubtractionGame
        >>> q = misere_quotient(SubtractionGame({1, 2, 3}), 3)
        >>> q.words[q.element([2, 2])], q.words[q.element([3, 3, 3])]   # b^3 = b
        ('b^2', 'ab')
        """
        x = 0
        for h in heap_list(heaps):
            if h > self.n:
                raise ValueError(f"heap {shown_int(h)} is beyond the quotient's heaps "
                                 f"(up to {self.n})")
            x = int(self.table[x, self.heap_elements[h]])
        return x

    def outcome(self, heaps: int | Iterable[int]) -> Outcome:
        """The misère outcome of a sum of heaps (each 0..n), for the player
        to move: LOSS exactly when its element is in P.

        Parameters
        ----------
        heaps : int or iterable of int
            One heap, or the heaps of the sum.

        Returns
        -------
        Outcome
            WIN or LOSS.

        Raises
        ------
        TypeError, ValueError
            For heaps that are not integers 0..n.

        Examples
        --------
        >>> from grundy import OctalGame
        >>> q = misere_quotient(OctalGame("0.75"), 12)
        >>> q.outcome([5, 7, 12]) == OctalGame("0.75").outcome([5, 7, 12], misere=True)
        True
        """
        return LOSS if self.element(heaps) in self.p_positions else WIN

    def presentation(self) -> str:
        """The monoid presentation, ``< generators | relations >``.

        Returns
        -------
        str

        Examples
        --------
        >>> from grundy import SubtractionGame
        >>> misere_quotient(SubtractionGame({1, 2}), 2).presentation()   # misère Nim
        '< a, b | a^2 = 1, b^3 = b >'
        """
        names = ", ".join(_name(i) for i in range(len(self.generators)))
        rels = ", ".join(f"{a} = {b}" for a, b in self.relations)
        return f"< {names} | {rels} >" if rels else f"< {names} >" if names else "< >"

    def __repr__(self) -> str:
        return f"<MisereQuotient of {shorten(self.game, 40)}, heaps up to {self.n}: " \
               f"order {self.order}, |P| = {len(self.p_positions)}>"

    def __str__(self) -> str:
        p = ", ".join(sorted((self.words[x] for x in self.p_positions), key=_word_key))
        heaps = ", ".join(f"{h} -> {self.words[int(x)]}"
                          for h, x in enumerate(self.heap_elements) if h)
        return (f"heaps 1..{self.n} of {shorten(self.game, 40)}: misère quotient of order "
                f"{self.order}\nQ = {self.presentation()}\nP = {{ {p} }}\nheaps: {heaps}")


def heap_list(heaps: int | Iterable[int]) -> list[int]:
    """One heap or the heaps of a sum, checked: a list of integers >= 0
    (shared by ``MisereQuotient`` and ``TakeAndBreakGame.outcome``).

    >>> heap_list(3), heap_list((4, 0, 2))
    ([3], [4, 0, 2])
    """
    if isinstance(heaps, (str, bytes)) or not (isinstance(heaps, Iterable) or
                                               is_integer(heaps)):
        raise TypeError(f"heaps must be an integer or integers, got {shorten(heaps)}")
    given = [heaps] if is_integer(heaps) else cast(Iterable[Any], heaps)
    return [check_int(h, "a heap", 0) for h in given]


def _name(i: int) -> str:
    return string.ascii_lowercase[i] if i < 26 else f"g{i + 1}"


def _word_key(word: str) -> tuple[int, str]:
    return (len(word), word)


# -- misère outcomes of sums, by exhaustive search -----------------------------------------

# Bytes a position of the misère search takes (its tuple, its dict entry),
# and a frame of its stack (the frame, the position's generator of moves).
_POSITION_BYTES = 200
_FRAME_BYTES = 1000
# Bytes a pair of the quotient's check takes besides its two copies of N
# (the key's bytes and the queued array): the tuples, the dict entry.
_PAIR_BYTES = 400
# Bytes of one option of a heap kept for misère play (a tuple in a list).
_OPTION_BYTES = 120


def _reach_bound(sizes: list[int], splits: bool) -> int:
    """At most how many positions a sum of heaps can reach: sums of heaps
    of at most the same total (partitions), and, when no move splits a
    heap, the heaps each made smaller."""
    bound = 1 << 80
    total = sum(sizes)
    if total <= 300:                        # p(300) is about 9e15 already
        p = [1] + [0] * total               # partitions of each k <= total
        for part in range(1, total + 1):
            for k in range(part, total + 1):
                p[k] += p[k - part]
        bound = sum(p)
    if not splits:
        product = 1
        for h in sizes:
            product *= h + 1
            if product > bound:
                break
        bound = min(bound, product)
    return bound


def misere_search(game: TakeAndBreakGame, sizes: list[int], max_memory: int | None, *,
                  shortcut: Callable[[Position], bool | None] | None = None,
                  limit: int | None = None) -> Outcome:
    """The misère outcome of a sum of heaps: every position it can reach
    (sorted tuples of heaps with a move), decided by an explicit-stack
    depth-first search that stops at a first losing option; the positions
    decided are kept by the game (``game._misere_wins``) for later searches.

    Without ``shortcut`` the memory is checked first, from a bound on the
    positions the sum can reach (with those kept, and the stack).  With it,
    ``shortcut(position)`` gives the outcome of positions it knows (True
    for a win; None for the others), which are neither searched nor kept;
    the bound says nothing then, and the search counts what it keeps
    instead, refusing to go past ``max_memory`` (``limit``: that limit in
    bytes, resolved once by a caller that searches many times).

    >>> from grundy import OctalGame
    >>> misere_search(OctalGame("0.77"), [1, 1, 1], None)      # Kayles: *1 + *1 + *1
    LOSS
    """
    win: dict[Position, bool] = game._misere_wins

    def what() -> str:
        return f"the misère search of {shorten(game, 30)} from {shorten(sizes)}"

    if shortcut is None:
        bound = _reach_bound(sizes, game.max_heaps > 1)
        # A move takes a token or splits a heap: at most 2 x total deep.
        depth = min(bound, 2 * sum(sizes) + len(sizes) + 1)
        check_memory(_POSITION_BYTES * (bound + len(win)) + _FRAME_BYTES * depth,
                     max_memory, what())
        limit = 0
    elif limit is None:
        limit = resolve_max_memory(max_memory)
    checked = len(win)
    moves = _moves_upto(game, max(sizes, default=0))     # None: a heap with no move

    def children(pos: Position) -> Iterable[Position]:
        # The largest heaps first: their options are the likeliest to be
        # known already (kept, or answered by the shortcut).
        for i in range(len(pos) - 1, -1, -1):
            h = pos[i]
            if i + 1 < len(pos) and pos[i + 1] == h:
                continue                    # the same heap again: the same moves
            rest = pos[:i] + pos[i + 1:]
            for opt in cast(list[Position], moves[h]):
                yield tuple(sorted(rest + opt))

    def lookup(pos: Position) -> bool | None:
        known = win.get(pos)
        if known is None and shortcut is not None:
            known = shortcut(pos)
        return known

    def opened(pos: Position) -> list[Any] | None:
        """A frame for pos, or None when a move to a known losing position
        decides it at once (looked for before searching any option)."""
        if any(lookup(child) is False for child in children(pos)):
            win[pos] = True
            return None
        return [pos, iter(children(pos)), None]

    start = tuple(sorted(h for h in sizes if h and moves[h] is not None))
    known = lookup(start)
    if known is not None:
        return WIN if known else LOSS
    # Frames: a position, its children still to look at, the child being decided.
    first = opened(start)
    stack: list[list[Any]] = [first] if first is not None else []
    while stack and start not in win:
        frame = stack[-1]
        pos, it, pending = frame
        if pending is not None:
            if not win[pending]:
                win[pos] = True             # a move to a losing position
                stack.pop()
                continue
            frame[2] = None
        for child in it:
            known = lookup(child)
            if known is None:
                if limit and len(win) >= checked + 4096:
                    checked = len(win)
                    check_memory(_POSITION_BYTES * checked + _FRAME_BYTES * len(stack),
                                 max_memory, what(), limit=limit)
                nxt = opened(child)
                if nxt is None:             # decided at once: a winning child
                    continue
                frame[2] = child
                stack.append(nxt)
                break
            if not known:
                win[pos] = True
                stack.pop()
                break
        else:
            win[pos] = False                # every move to a winning position
            stack.pop()
    return WIN if win[start] else LOSS


# -- learning the quotient -------------------------------------------------------------

class _Learner:
    """A candidate quotient learned from misère outcomes (a hypothesis in
    the sense of Angluin's L*): states are the classes of sums under
    'same outcome with each test context', reached from the empty sum by
    adding one heap at a time, breadth first."""

    def __init__(self, name: str, heaps: list[int], wins: Callable[[Position], bool],
                 contexts: list[Position]) -> None:
        self.name = name                    # the game, for messages
        self.heaps = heaps                  # the generators: heaps with a move
        self.index = {h: i for i, h in enumerate(heaps)}
        self.wins = wins                    # misère outcome of a sorted tuple: True = WIN
        self.contexts = contexts            # test sums, the empty one first (grows)

    def signature(self, pos: Position) -> tuple[bool, ...]:
        return tuple(self.wins(tuple(sorted(pos + z))) for z in self.contexts)

    def build(self, max_order: int) -> None:
        """The states and their transitions for the current contexts."""
        reps: list[Position] = [()]
        found = {self.signature(()): 0}
        trans: list[list[int]] = []
        s = 0
        while s < len(reps):
            row = []
            for h in self.heaps:
                pos = tuple(sorted(reps[s] + (h,)))
                sig = self.signature(pos)
                t = found.get(sig)
                if t is None:
                    if len(reps) >= max_order:
                        raise self.too_large(max_order)
                    t = found[sig] = len(reps)
                    reps.append(pos)
                row.append(t)
            trans.append(row)
            s += 1
        self.reps = reps
        self.trans = np.array(trans, dtype=np.int64).reshape(len(reps), len(self.heaps))
        self.lose = np.array([not self.wins(r) for r in reps], dtype=bool)

    def state(self, pos: Sequence[int], start: int = 0) -> int:
        s = start
        for h in pos:
            s = int(self.trans[s, self.index[h]])
        return s

    def split(self, start: int, path: Sequence[int], tail: Position) -> Position | None:
        """A new context from a walk: sums u_i = rep(s_i) + path[i:] + tail along
        the transitions from ``start``.  Where two neighbours differ in
        outcome, the transition between them merged sums that path[i+1:] +
        tail tells apart: that context is returned (the last such i, for the
        shortest context), or None when all outcomes agree."""
        s = start
        outcomes = [self.wins(tuple(sorted(self.reps[s] + tuple(path) + tail)))]
        for i, h in enumerate(path):
            s = int(self.trans[s, self.index[h]])
            outcomes.append(self.wins(tuple(sorted(self.reps[s] + tuple(path[i + 1:]) + tail))))
        for i in range(len(path) - 1, -1, -1):
            if outcomes[i] != outcomes[i + 1]:
                return tuple(sorted(tuple(path[i + 1:]) + tail))
        return None

    def too_large(self, max_order: int) -> QuotientTooLarge:
        return QuotientTooLarge(
            f"the misère quotient of {self.name} up to heap {self.heaps[-1]} has more than "
            f"{shown_int(max_order)} elements (it may be infinite): raise max_order, or ask "
            f"for fewer heaps")

    def refine(self, context: Position, max_order: int) -> None:
        if context in self.contexts:
            raise AssertionError(f"misère quotient: context {context} found twice")
        # Each test sum tells apart two sums that none before did: so many
        # of them mean more than max_order classes.
        if len(self.contexts) >= max_order:
            raise self.too_large(max_order)
        self.contexts.append(context)

    def non_commuting(self) -> Position | None:
        """A new context if two heaps' transitions do not commute somewhere."""
        T = self.trans
        k = len(self.heaps)
        for i in range(k):
            for j in range(i + 1, k):
                ij = T[T[:, i], j]
                ji = T[T[:, j], i]
                bad = np.flatnonzero(ij != ji)
                if len(bad):
                    s = int(bad[0])
                    b, d = int(ij[s]), int(ji[s])
                    # A context that tells the two ends apart.
                    z = next(z for z in self.contexts
                             if self.wins(tuple(sorted(self.reps[b] + z))) !=
                             self.wins(tuple(sorted(self.reps[d] + z))))
                    hi, hj = self.heaps[i], self.heaps[j]
                    found = (self.split(s, [hi, hj], z) or self.split(s, [hj, hi], z))
                    if found is None:
                        raise AssertionError("misère quotient: no context splits "
                                             "non-commuting transitions")
                    return found
        return None

    def table(self, max_memory: int | None, limit: int) -> npt.NDArray[np.int64]:
        """Products of states: x * y = x moved along y's representative."""
        m = len(self.reps)
        check_memory(8 * m * m, max_memory, f"the table of a misère quotient of order {m}",
                     limit=limit)
        table = np.empty((m, m), dtype=np.int64)
        for y, rep in enumerate(self.reps):
            col = np.arange(m, dtype=np.int64)
            for h in rep:
                col = self.trans[col, self.index[h]]
            table[:, y] = col
        return table


def _check_options(table: npt.NDArray[np.int64], lose: npt.NDArray[np.bool_],
                   heap_elem: dict[int, int], heap_option_elems: dict[int, list[int]],
                   max_memory: int | None, limit: int) -> list[int] | None:
    """The finite check that proves a candidate for every sum, or a sum
    where it fails.

    For a sum x let N(x) be the elements a for which some option x' of x
    has phi(x') * a in P.  Then N(x + y) = {a : a phi(y) in N(x)} or
    {a : a phi(x) in N(y)}, so the pairs (phi(x), N(x)) of all non-empty
    sums are the closure of the heaps' pairs under this product: a finite
    set.  If every pair has phi(x) in P exactly when the identity is not in
    N(x), induction over the game tree shows that x is a P-position exactly
    when phi(x) is in P, for every sum x.  Returns the heaps of a sum
    whose pair fails, or None.  The pairs are counted against the memory
    ``limit`` as they are found.
    """
    m = table.shape[0]
    gens = []
    for h, x in heap_elem.items():
        N = np.zeros(m, dtype=bool)
        for u in heap_option_elems[h]:
            N |= lose[table[:, u]]
        gens.append((h, x, N))
    seen: dict[tuple[int, bytes], tuple[Any, int]] = {}
    queue: deque[tuple[int, npt.NDArray[np.bool_], tuple[int, bytes]]] = deque()

    def add(q: int, N: npt.NDArray[np.bool_], parent: Any, h: int) -> list[int] | None:
        key = (q, N.tobytes())
        if key in seen:
            return None
        seen[key] = (parent, h)
        if len(seen) % 4096 == 0:
            check_memory(len(seen) * (2 * m + _PAIR_BYTES), max_memory,
                         f"checking a misère quotient of order {m}", limit=limit)
        if bool(lose[q]) == bool(N[0]):     # P needs no option into P, and back
            heaps = []
            k: Any = key
            while k is not None:
                k, g = seen[k]
                heaps.append(g)
            return heaps
        queue.append((q, N, key))
        return None

    for h, x, N in gens:
        bad = add(x, N, None, h)
        if bad:
            return bad
    while queue:
        q, N, key = queue.popleft()
        for h, g, Ng in gens:
            bad = add(int(table[q, g]), N[table[:, g]] | Ng[table[:, q]], key, h)
            if bad:
                return bad
    return None


def misere_quotient(game: TakeAndBreakGame, n: int, *, max_order: int = 2000,
                    max_memory: int | None = None) -> MisereQuotient:
    """The misère quotient of ``game`` for the sums of heaps up to ``n``.

    Plambeck and Siegel's quotient: sums of heaps modulo
    indistinguishability.  The answer is exact: it gives the misère outcome
    of every sum of heaps <= n, of any size.

    How: a candidate is learned from misère outcomes of sums (computed by
    exhaustive search, as :meth:`TakeAndBreakGame.outcome` does), in the
    manner of Angluin's L*: sums are told apart by their outcomes when test
    sums are added to them, and the candidate's states are the classes so
    found.  The candidate is then proved by a finite check (the closure of
    (element, elements-with-a-P-option) pairs over every sum; see
    ``_check_options``).  A failed check, or heaps whose products do not
    commute, names a sum where the candidate goes wrong; it yields a new
    test sum and the candidate is learned again.  Elements are told apart
    only by true outcomes, so the result is the quotient itself, not a
    larger monoid that maps onto it.

    Parameters
    ----------
    game : TakeAndBreakGame
    n : int
        The largest heap size, >= 0.
    max_order : int, default 2000
        Refuse quotients with more elements (wild games can have huge or
        infinite quotients).
    max_memory : int, optional
        Bytes it may take (default: the memory available): checked for the
        heaps' options before it starts, and for the searches' positions,
        the table and the check's pairs as each grows (each against the
        whole limit).

    Returns
    -------
    MisereQuotient

    Raises
    ------
    QuotientTooLarge
        If the quotient has more than ``max_order`` elements.
    MemoryLimitError
        If the options, a misère search, the table or the check may need
        more than ``max_memory``.
    TypeError, ValueError
        For a game that is not a take-and-break game, a bad ``n`` or
        ``max_order``.

    Examples
    --------
    >>> from grundy import OctalGame
    >>> q = misere_quotient(OctalGame("0.75"), 12)
    >>> [q.words[x] for x in q.heap_elements]
    ['1', 'a', 'b', 'a', 'b', 'c', 'b', 'c', 'b', 'ab^2', 'b', 'ab^2', 'b']
    """
    from grundy.octal import TakeAndBreakGame      # (grundy.octal imports this module)
    if not isinstance(game, TakeAndBreakGame):
        raise TypeError(f"game must be a TakeAndBreakGame, got {shorten(game)}")
    n = check_count(n, "n")
    max_order = check_count(max_order, "max_order", 1)
    # The heaps' options, kept by the game (the rest is counted as it grows).
    take0, take1, take2, take3 = (len(r) for r in game._rules)
    options = (take0 + take1) * n + take2 * n * n // 4 + take3 * n ** 3 // 36
    check_memory(_OPTION_BYTES * options, max_memory,
                 f"the misère quotient of {shorten(game, 30)} up to heap {shown_int(n)}")
    with game._lock:                        # the game's kept positions grow
        return _learn(game, n, max_order, max_memory)


def _learn(game: TakeAndBreakGame, n: int, max_order: int, max_memory: int | None
           ) -> MisereQuotient:
    """misere_quotient's work (its checks done, the game locked)."""
    moves = _live_moves(game, n)
    # The quotient proved for the heaps below the ones being learned: it
    # gives the outcome of their sums at once, to the searches.
    proved: tuple[int, list[list[int]], list[bool], dict[int, int]] | None = None

    def shortcut(pos: Position) -> bool | None:
        if proved is None or not pos or pos[-1] > proved[0]:
            return None
        _, products, lose, element = proved
        x = 0
        for h in pos:
            x = products[x][element[h]]
        return not lose[x]

    limit = resolve_max_memory(max_memory)

    def wins(pos: Position) -> bool:
        return misere_search(game, list(pos), max_memory, shortcut=shortcut, limit=limit) == WIN

    contexts: list[Position] = [()]
    table = np.zeros((1, 1), dtype=np.int64)
    lose = np.zeros(1, dtype=bool)
    heap_elem: dict[int, int] = {}
    for top in moves:                       # heaps with a move, one more each time
        learner = _Learner(shorten(game, 30), [h for h in moves if h <= top], wins, contexts)
        while True:
            learner.build(max_order)
            context = learner.non_commuting()
            if context is None:
                table = learner.table(max_memory, limit)
                heap_elem = {h: learner.state((h,)) for h in learner.heaps}
                option_elems = {h: sorted({learner.state(o) for o in moves[h]})
                                for h in learner.heaps}
                bad = _check_options(table, learner.lose, heap_elem, option_elems,
                                     max_memory, limit)
                if bad is None:
                    break
                # Walked largest heap first, so that the context is of the smallest.
                context = learner.split(0, _wrong_sum(sorted(bad), moves, learner)[::-1], ())
                if context is None:
                    raise AssertionError("misère quotient: a failed check without a wrong sum")
            learner.refine(context, max_order)
        lose = learner.lose
        proved = (top, table.tolist(), lose.tolist(), heap_elem)
    heap_elements = np.zeros(n + 1, dtype=np.int64)
    for h, x in heap_elem.items():
        heap_elements[h] = x
    return MisereQuotient(game, n, table, np.flatnonzero(lose).tolist(), heap_elements)


def _wrong_sum(pos: list[int], moves: dict[int, list[Position]], learner: _Learner
               ) -> list[int]:
    """A sum whose true outcome is not the candidate's, from one that fails
    the check: the sum itself, or else one of its options (its outcome
    being right, the check failed on what its options are claimed to be)."""
    def wrong(x: list[int]) -> bool:
        return bool(learner.wins(tuple(x)) == learner.lose[learner.state(x)])

    if wrong(pos):
        return pos
    for i, h in enumerate(pos):
        rest = pos[:i] + pos[i + 1:]
        for o in moves[h]:
            x = sorted(rest + list(o))
            if wrong(x):
                return x
    raise AssertionError(f"misère quotient: the check failed at {pos}, whose outcome "
                         f"and options' are right")


def _moves_upto(game: TakeAndBreakGame, n: int) -> dict[int, list[Position] | None]:
    """The game's kept options of heaps 1..n (at least), grown as needed:
    for each heap, its options with the heaps that have no move dropped
    (they change nothing in a sum), or None when it has no move itself."""
    known = game._misere_moves
    for h in range(len(known) + 1, n + 1):  # options are sums of smaller heaps
        opts = game.options(h)
        known[h] = sorted({tuple(x for x in o if known[x] is not None) for o in opts}
                          ) if opts else None
    return known


def _live_moves(game: TakeAndBreakGame, n: int) -> dict[int, list[Position]]:
    """The heaps 1..n with a move, each with its options (as _moves_upto)."""
    known = _moves_upto(game, n)
    return {h: m for h in range(1, n + 1) if (m := known[h]) is not None}


# -- the presentation --------------------------------------------------------------------

def _presentation(table: npt.NDArray[np.int64], heap_elements: npt.NDArray[np.int64]
                  ) -> tuple[list[int], list[str], list[tuple[str, str]]]:
    """Generators (heap sizes), each element's least word, and the defining
    relations: word = normal form for each least word that is not a normal
    form while all its divisors are (a complete rewriting system)."""
    m = table.shape[0]
    gens: list[int] = []
    gen_elem: list[int] = []
    reached = {0}
    for h, x in enumerate(heap_elements.tolist()):
        if x in reached:
            continue
        gens.append(h)
        gen_elem.append(x)
        frontier = list(reached)            # close under every generator so far
        while frontier:
            frontier = [z for z in {int(table[y, g]) for y in frontier for g in gen_elem}
                        if z not in reached]
            reached.update(frontier)
    k = len(gens)
    one = (0,) * k
    normal = {0: one}                       # element -> its least exponent vector
    elem_of = {one: 0}                      # normal exponent vector -> element
    relations: list[tuple[tuple[int, ...], int]] = []
    level = [one]
    while level:
        # The next degree's words are normal forms times a generator, taken
        # least first: by the last generator's exponent, then the one before...
        cands = sorted({v[:i] + (v[i] + 1,) + v[i + 1:] for v in level for i in range(k)},
                       key=lambda v: v[::-1])
        level = []
        for v in cands:
            below = [v[:j] + (v[j] - 1,) + v[j + 1:] for j in range(k) if v[j]]
            j, parent = next((j, u) for j, u in zip((j for j in range(k) if v[j]), below)
                             if u in elem_of)
            x = int(table[elem_of[parent], gen_elem[j]])
            if x not in normal:
                normal[x] = v
                elem_of[v] = x
                level.append(v)
            elif all(u in elem_of for u in below):
                relations.append((v, x))    # minimal: every divisor is normal
    if len(normal) != m:
        raise AssertionError("misère quotient: the generators miss elements")
    words = [""] * m
    for x, v in normal.items():
        words[x] = _word(v)
    return gens, words, [(_word(v), words[x]) for v, x in relations]


def _word(v: Sequence[int]) -> str:
    parts = [_name(i) + (f"^{e}" if e > 1 else "") for i, e in enumerate(v) if e]
    return "".join(parts) or "1"
