"""Misère outcomes of sums of heaps, by exhaustive search.

In misère play (the player who makes the last move loses) the Grundy values
of the heaps do not add up; the outcome of a sum comes from every position
it can reach.  A :class:`MisereSearch` belongs to one game: it keeps the
options of each heap (with the heaps that have no move dropped: they change
nothing in a sum) and the outcome of every position it has decided, so
later searches (``TakeAndBreakGame.outcome_of``, the misère quotient's many
searches) reuse them.  Positions are sorted tuples of the heaps with a move.

Examples
--------
>>> from grundy import OctalGame
>>> kayles = OctalGame("0.77")
>>> search = MisereSearch(kayles, kayles.options, splits=True)
>>> search.outcome_of([1, 1, 1], None), search.outcome_of([4], None)
(LOSS, LOSS)
>>> search.wins[(1, 1)]                       # decided on the way, kept
True
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

from grundy._common import (LOSS, WIN, Outcome, check_int, check_memory, is_integer,
                            resolve_max_memory, shorten)

__all__ = ["MisereSearch", "heap_list", "Position"]

Position = tuple[int, ...]          # a sum of heaps: the heaps with a move, sorted

# Bytes a position of the misère search takes (its tuple, its dict entry),
# and a frame of its stack (the frame, the position's generator of moves).
POSITION_BYTES = 200
FRAME_BYTES = 1000
# Bytes of one option of a heap kept for misère play (a tuple in a list).
OPTION_BYTES = 120


def heap_list(heaps: int | Iterable[int]) -> list[int]:
    """One heap or the heaps of a sum, checked: a list of integers >= 0
    (shared by ``MisereQuotient`` and ``TakeAndBreakGame.outcome_of``).

    >>> heap_list(3), heap_list((4, 0, 2))
    ([3], [4, 0, 2])
    """
    if isinstance(heaps, (str, bytes)) or not (isinstance(heaps, Iterable) or
                                               is_integer(heaps)):
        raise TypeError(f"heaps must be an integer or integers, got {shorten(heaps)}")
    given = [heaps] if is_integer(heaps) else cast(Iterable[Any], heaps)
    return [check_int(h, "a heap", 0) for h in given]


def reach_bound(sizes: Sequence[int], splits: bool) -> int:
    """At most how many positions a sum of heaps can reach: sums of heaps
    of at most the same total (partitions), and, when no move splits a
    heap, the heaps each made smaller.

    >>> reach_bound([3], splits=True), reach_bound([3], splits=False)
    (7, 4)
    """
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


class MisereSearch:
    """The misère outcomes of one game's sums of heaps, searched and kept.

    Parameters
    ----------
    game : object
        The game, named in messages.
    options : callable
        ``options(h)``: the heaps a move from one heap of h leaves (sorted
        tuples, as ``TakeAndBreakGame.options`` gives them).
    splits : bool
        Whether a move can leave more than one heap (a bound on the
        positions a sum reaches depends on it).

    Attributes
    ----------
    wins : dict
        Each position decided so far -> True when the player to move wins
        (the empty sum: True, no move is left).
    lock : threading.RLock
        Held by whoever searches (the kept positions grow).

    Examples
    --------
    >>> from grundy import SubtractionGame
    >>> nim = SubtractionGame({1, 2, 3})
    >>> MisereSearch(nim, nim.options, splits=False).outcome_of([2, 2], None)
    LOSS
    """

    def __init__(self, game: object, options: Callable[[int], list[Position]],
                 splits: bool) -> None:
        self.game = game
        self.options = options
        self.splits = splits
        self.lock = threading.RLock()
        self.wins: dict[Position, bool] = {(): True}
        # Options of each heap 1.. for misère play (None: the heap has no move).
        self._moves: dict[int, list[Position] | None] = {}

    def moves_upto(self, n: int) -> dict[int, list[Position] | None]:
        """The kept options of heaps 1..n (at least), grown as needed: for
        each heap, its options with the heaps that have no move dropped
        (they change nothing in a sum), or None when it has no move itself.

        >>> from grundy import OctalGame
        >>> MisereSearch("0.07", OctalGame("0.07").options, True).moves_upto(3)
        {1: None, 2: [()], 3: [()]}
        """
        known = self._moves
        for h in range(len(known) + 1, n + 1):  # options are sums of smaller heaps
            opts = self.options(h)
            known[h] = sorted({tuple(x for x in o if known[x] is not None) for o in opts}
                              ) if opts else None
        return known

    def live_moves(self, n: int) -> dict[int, list[Position]]:
        """The heaps 1..n with a move, each with its options (as :meth:`moves_upto`).

        >>> from grundy import OctalGame
        >>> MisereSearch("0.07", OctalGame("0.07").options, True).live_moves(3)
        {2: [()], 3: [()]}
        """
        known = self.moves_upto(n)
        return {h: m for h in range(1, n + 1) if (m := known[h]) is not None}

    def options_bytes(self, n: int, rule_sizes: Sequence[int]) -> int:
        """Bytes the options of heaps up to n take, from how many numbers of
        tokens each kind of move takes (``take0..take3``).

        >>> MisereSearch("x", lambda h: [], False).options_bytes(10, [1, 1, 0, 0])
        2400
        """
        take0, take1, take2, take3 = rule_sizes
        options = (take0 + take1) * n + take2 * n * n // 4 + take3 * n ** 3 // 36
        return OPTION_BYTES * options

    def outcome_of(self, sizes: list[int], max_memory: int | None, *,
                shortcut: Callable[[Position], bool | None] | None = None,
                limit: int | None = None) -> Outcome:
        """The misère outcome of a sum of heaps: every position it can reach,
        decided by an explicit-stack depth-first search that stops at a
        first losing option; the positions decided are kept (:attr:`wins`).

        Without ``shortcut`` the memory is checked first, from a bound on
        the positions the sum can reach (with those kept, and the stack).
        With it, ``shortcut(position)`` gives the outcome of positions it
        knows (True for a win; None for the others), which are neither
        searched nor kept; the bound says nothing then, and the search
        counts what it keeps instead, refusing to go past ``max_memory``
        (``limit``: that limit in bytes, resolved once by a caller that
        searches many times).

        >>> from grundy import OctalGame
        >>> kayles = OctalGame("0.77")
        >>> MisereSearch(kayles, kayles.options, True).outcome_of([1, 1, 1], None)
        LOSS
        """
        with self.lock:
            return self._search(sizes, max_memory, shortcut, limit)

    def _search(self, sizes: list[int], max_memory: int | None,
                shortcut: Callable[[Position], bool | None] | None,
                limit: int | None) -> Outcome:
        win = self.wins

        def what() -> str:
            return f"the misère search of {shorten(self.game, 30)} from {shorten(sizes)}"

        if shortcut is None:
            bound = reach_bound(sizes, self.splits)
            # A move takes a token or splits a heap: at most 2 x total deep.
            depth = min(bound, 2 * sum(sizes) + len(sizes) + 1)
            check_memory(POSITION_BYTES * (bound + len(win)) + FRAME_BYTES * depth,
                         max_memory, what())
            limit = 0
        elif limit is None:
            limit = resolve_max_memory(max_memory)
        checked = len(win)
        moves = self.moves_upto(max(sizes, default=0))     # None: a heap with no move

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
                        check_memory(POSITION_BYTES * checked + FRAME_BYTES * len(stack),
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
