"""Misère quotients of take-and-break games (Plambeck, Siegel).

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
>>> from grundy import SubtractionGame, misere_quotient
>>> q = misere_quotient(SubtractionGame({1, 2, 3}), 3)   # misère Nim, heaps up to 3
>>> print(q)
heaps 1..3 of SubtractionGame({1, 2, 3}): misère quotient of order 6
Q = < a, b | a^2 = 1, b^3 = b >
P = { a, b^2 }
heaps: 1 -> a, 2 -> b, 3 -> ab
>>> q.outcome_of([1, 1, 1]), q.outcome_of([2, 3])
(LOSS, WIN)
"""
from __future__ import annotations

import string
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from grundy._common import (LOSS, WIN, Outcome, check_memory, readonly, resolve_max_memory,
                            shorten, shown_int)
from grundy.impartial.octal.misere import MisereSearch, Position, heap_list

__all__ = ["MisereQuotient", "QuotientTooLarge", "learn"]

# Bytes a pair of the quotient's check takes besides its two copies of N
# (the key's bytes and the queued array): the tuples, the dict entry.
_PAIR_BYTES = 400


class QuotientTooLarge(ValueError):
    """The misère quotient has more elements than allowed (it may be infinite).

    Examples
    --------
    >>> from grundy import OctalGame, misere_quotient
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
    >>> from grundy import OctalGame, misere_quotient
    >>> q = misere_quotient(OctalGame("0.75"), 12)
    >>> q.order, sorted(q.words[x] for x in q.p_positions)
    (8, ['a', 'b^2'])
    >>> q.presentation()
    '< a, b, c | a^2 = 1, bc = ab, c^2 = b^2, b^3 = b >'
    """

    def __init__(self, game: Any, n: int, table: npt.NDArray[np.int64],
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
        >>> from grundy import SubtractionGame, misere_quotient
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

    def outcome_of(self, heaps: int | Iterable[int]) -> Outcome:
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
        >>> from grundy import OctalGame, misere_quotient
        >>> q = misere_quotient(OctalGame("0.75"), 12)
        >>> q.outcome_of([5, 7, 12]) == OctalGame("0.75").outcome_of([5, 7, 12], misere=True)
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
        >>> from grundy import SubtractionGame, misere_quotient
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


def _name(i: int) -> str:
    return string.ascii_lowercase[i] if i < 26 else f"g{i + 1}"


def _word_key(word: str) -> tuple[int, str]:
    return (len(word), word)


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


def learn(game: Any, search: MisereSearch, rule_sizes: Sequence[int], n: int, max_order: int,
          max_memory: int | None) -> MisereQuotient:
    """The misère quotient of ``game``'s sums of heaps up to ``n``, learned
    from the misère outcomes ``search`` gives, and proved (the work of
    :func:`grundy.misere_quotient`, its arguments checked; ``rule_sizes``:
    how many numbers of tokens each kind of move takes, for the estimate of
    the heaps' options)."""
    check_memory(search.options_bytes(n, rule_sizes), max_memory,
                 f"the misère quotient of {shorten(game, 30)} up to heap {shown_int(n)}")
    with search.lock:                       # the kept positions grow
        return _learn(game, search, n, max_order, max_memory)


def _learn(game: Any, search: MisereSearch, n: int, max_order: int, max_memory: int | None
           ) -> MisereQuotient:
    """learn()'s work (the search locked)."""
    moves = search.live_moves(n)
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
        return search.outcome_of(list(pos), max_memory, shortcut=shortcut, limit=limit) == WIN

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
