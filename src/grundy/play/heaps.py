"""Heap games at the table: Nim and take-and-break games (their faces and
tables), drawn as rows of stones.
"""
from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from grundy._common import (Outcome,
                            check_bool, check_count, shorten)
from grundy.engine.rules import Game
from grundy.impartial.octal.game import TakeAndBreakGame, parse_game
from grundy.play.face import Face, HEIGHT, Limits, MAX_MOVES, MAX_POSITIONS, Move, MoveError, Table, WIDTH, columns, plural

__all__ = ["NimFace", "OctalFace", "nim_table", "octal_table"]


def _heaps_picture(heaps: Sequence[int], word: str) -> str:
    """One line per heap with its tokens, or a compact list for many or big heaps."""
    if not heaps:
        return f"(no {word}s left)"
    biggest = max(heaps)
    number = len(str(len(heaps)))
    size = len(str(biggest))
    if len(heaps) <= HEIGHT and biggest <= WIDTH - 12 - number - size:
        return "\n".join(f"{word} {i:>{number}}: {'|' * h:<{biggest}}  {h:>{size}}"
                         for i, h in enumerate(heaps, 1))
    items = [f"{word} {i}: {h}" for i, h in enumerate(heaps, 1)]
    return "\n".join(columns(items, indent=0))


def _canonical(heaps: Iterable[int]) -> tuple[int, ...]:
    """The heaps sorted, without empty ones: one position for every order."""
    return tuple(sorted(h for h in heaps if h))


def _heap_setup(label: str, word: str, heaps: Iterable[int], misere: bool,
                max_positions: int, max_moves: int, *, keep_empty: bool
                ) -> tuple[tuple[int, ...], bool, Limits]:
    """The checked arguments of nim_table and octal_table: the heaps (the
    empty ones dropped unless ``keep_empty``), misere, and the limits, whose
    message names the game (``label``) and its heaps."""
    if isinstance(heaps, (str, bytes)) or not hasattr(heaps, "__iter__"):
        raise TypeError(f"the {word}s must be a sequence of integers, got {shorten(heaps)}")
    start = tuple(h for h in [check_count(h, f"a {word}") for h in heaps] if h or keep_empty)
    misere = check_bool(misere, "misere")
    max_positions = check_count(max_positions, "max_positions", minimum=1)
    max_moves = check_count(max_moves, "max_moves")
    name = " ".join(map(str, start)) if len(start) <= 10 else f"with {len(start)} {word}s"
    name = name if len(name) <= 50 else name[:47] + "..."
    return start, misere, Limits(f"{label} {name}", max_positions, max_moves,
                                  f"try fewer or smaller {word}s")


class _HeapRules(Game):
    """A heap game on sorted tuples of non-empty heaps: replace one heap by
    one of ``options(heap)`` (the distinct results of each position once)."""

    def __init__(self, start: Iterable[int],
                 options: Callable[[int], Sequence[tuple[int, ...]]], limits: Limits) -> None:
        self._start = _canonical(start)
        self._options = options
        self._limits = limits

    def start(self) -> tuple[int, ...]:
        return self._start

    def moves(self, heaps: tuple[int, ...]) -> list[tuple[int, ...]]:
        out: list[tuple[int, ...]] = []
        previous = -1
        for i, h in enumerate(heaps):
            if h == previous:
                continue
            previous = h
            rest = heaps[:i] + heaps[i + 1:]
            for option in self._options(h):
                if len(option) == 1:
                    j = bisect.bisect_left(rest, option[0])
                    out.append(rest[:j] + option + rest[j:])
                else:
                    out.append(tuple(sorted(rest + option)))
        self._limits.spend(len(out))
        return out


def _nim_size(piles: Sequence[int], limit: int) -> tuple[float, float]:
    """(positions, moves) a nim game reaches, at most: the sorted tuples
    dominated by the sorted piles, and the sum of their piles (the moves of
    a position are at most the stones in it); stops early past ``limit``."""
    s = sorted(piles)
    if not s:
        return 1.0, 0.0
    if s[-1] >= limit:
        return float(s[-1] + 1), float(s[-1])
    # count[v] / stones[v]: the tuples b_1 <= ... <= b_i (b_j <= s_j) with
    # b_i = v, and their stones in all.
    count = np.ones(s[0] + 1)
    stones = np.arange(s[0] + 1, dtype=float)
    for top in s[1:]:
        c, t = np.cumsum(count), np.cumsum(stones)
        count = np.concatenate([c, np.full(top + 1 - len(c), c[-1])])
        stones = np.concatenate([t, np.full(top + 1 - len(t), t[-1])]) + \
            np.arange(top + 1) * count
        if count.sum() > limit:
            break
    return float(count.sum()), float(stones.sum())


class _HeapFace(Face):
    """What the faces of nim and take-and-break games share: positions are
    tuples of heaps, shown in their order and numbered from 1, and solved as
    the heaps sorted without empty ones; ``HEAP COUNT`` takes tokens."""

    word = "heap"           # what a heap is called,
    token = "token"         # what it holds,
    zero = ""               # what "take at least one token" adds,
    over = "The game is over."      # and what ending() says

    def key(self, position: tuple[int, ...]) -> tuple[int, ...]:
        """The heaps sorted, without empty ones."""
        return _canonical(position)

    def render(self, position: tuple[int, ...]) -> str:
        """One line per heap with its tokens (a compact list for many or big heaps)."""
        return _heaps_picture(position, self.word)

    def ending(self, position: tuple[int, ...], outcome: Outcome) -> str:
        """That no stone (nim) or no move (take-and-break) is left."""
        return self.over

    def _index(self, text: str, position: tuple[int, ...], number: int) -> int:
        """The index of the heap numbered ``number`` (from 1)."""
        if not 1 <= number <= len(position):
            raise MoveError(f"'{text}' is not a legal move: there is no {self.word} {number} "
                            f"(the {self.word}s are 1..{len(position)})")
        return number - 1

    def _take(self, text: str, position: tuple[int, ...], number: int, count: int) -> int:
        """The index of the heap numbered ``number``, if ``count`` tokens can be
        taken from it."""
        i = self._index(text, position, number)
        if count == 0:
            raise MoveError(f"'{text}' is not a legal move: take at least one "
                            f"{self.token}{self.zero}")
        if count > position[i]:
            raise MoveError(f"'{text}' is not a legal move: {self.word} {number} has only "
                            f"{plural(position[i], self.token)}")
        return i


class NimFace(_HeapFace):
    """Nim piles, shown in their order (an emptied pile stays, as 0).

    Positions are tuples of pile sizes; a move is typed ``PILE COUNT``
    (take COUNT stones from pile PILE, piles numbered from 1 as shown) or
    by its number in the list.

    Parameters
    ----------
    misere : bool, default False
        Whoever takes the last stone loses.

    Raises
    ------
    TypeError
        If ``misere`` is not a bool.

    Examples
    --------
    >>> [m.name for m in NimFace().moves((0, 2))]
    ['take 1 from pile 2', 'take 2 from pile 2']
    """

    syntax = "PILE COUNT take COUNT stones from pile PILE (such as '2 3')"
    word, token, over = "pile", "stone", "The game is over: no stone is left."

    def __init__(self, misere: bool = False) -> None:
        self.misere = check_bool(misere, "misere")
        self.title = ("Nim: take any number of stones from one pile; taking the last "
                      f"stone {'loses' if self.misere else 'wins'}.")

    def moves(self, position: tuple[int, ...]) -> list[Move]:
        """Take 1, 2, ... stones from pile 1, then from pile 2, ..."""
        return [self._move(position, i, k) for i, h in enumerate(position)
                for k in range(1, h + 1)]

    @staticmethod
    def _move(position: tuple[int, ...], i: int, k: int) -> Move:
        after = position[:i] + (position[i] - k,) + position[i + 1:]
        return Move(f"take {k} from pile {i + 1}", after)

    def parse(self, text: str, position: tuple[int, ...], moves: Sequence[Move]) -> Move | None:
        """``PILE COUNT``, or ``take COUNT from pile PILE``.

        Examples
        --------
        >>> NimFace().parse("take 2 from pile 1", (3, 4), [])
        Move(name='take 2 from pile 1', position=(1, 4))
        """
        m = re.fullmatch(r"([0-9]+) ([0-9]+)", text, re.ASCII)
        if m:
            pile, count = int(m.group(1)), int(m.group(2))
        else:
            m = re.fullmatch(r"take ([0-9]+) from pile ([0-9]+)", text.lower(), re.ASCII)
            if not m:
                return None
            count, pile = int(m.group(1)), int(m.group(2))
        return self._move(position, self._take(text, position, pile, count), count)


def nim_table(piles: Iterable[int], *, misere: bool = False,
              max_positions: int = MAX_POSITIONS, max_moves: int = MAX_MOVES) -> Table:
    """Nim, solved for play: take any number of stones from one pile.

    Positions are solved as sorted tuples of the non-empty piles; they are
    shown with the piles in their order, numbered from 1.

    Parameters
    ----------
    piles : iterable of int
        The pile sizes (>= 0).
    misere : bool, default False
        Whoever takes the last stone loses.
    max_positions, max_moves : int
        Refuse games larger than this (checked before solving).

    Returns
    -------
    Table

    Raises
    ------
    TypeError, ValueError
        For piles that are not integers >= 0.
    MemoryLimitError
        If the game has more positions or moves than allowed.

    Examples
    --------
    >>> from grundy import MemoryLimitError
    >>> table = nim_table([3, 4, 5])
    >>> table.solution[table.face.key((3, 4, 5))]
    Evaluation(WIN, remoteness=..., move=(1, 4, 5))
    >>> try:
    ...     nim_table([1000, 1000, 1000])
    ... except MemoryLimitError as exc:
    ...     print(exc)
    nim 1000 1000 1000 is too large to play here: more than 2,000,000 positions; try fewer or smaller piles
    """
    start, misere, limits = _heap_setup("nim", "pile", piles, misere, max_positions,
                                        max_moves, keep_empty=True)
    positions, stones = _nim_size(start, limits.max_positions)
    if positions > limits.max_positions:
        raise limits.refuse(f"more than {limits.max_positions:,} positions")
    if stones > limits.max_moves:
        raise limits.refuse(f"about {int(stones):,} moves, more than {limits.max_moves:,}")

    @functools.cache
    def take(h: int) -> list[tuple[int, ...]]:      # leave h - 1, ..., 1 or no stones
        return [(k,) for k in range(h - 1, 0, -1)] + [()]
    rules = _HeapRules(start, take, limits)
    return Table(limits.solve(rules, misere), NimFace(misere), start)


class OctalFace(_HeapFace):
    """The heaps of a take-and-break game, shown in their order.

    A move replaces one heap by the heaps it leaves, in place.  It is typed
    ``HEAP COUNT`` (take COUNT tokens from heap HEAP, leaving one heap or
    none), ``HEAP -> A B`` (heap HEAP becomes heaps A and B; ``HEAP -> 0``:
    none), or by its number in the list.

    Parameters
    ----------
    game : TakeAndBreakGame
        The rules.
    misere : bool, default False
        Whoever makes the last move loses.

    Raises
    ------
    TypeError
        If ``game`` is not a TakeAndBreakGame, or ``misere`` not a bool.

    Examples
    --------
    >>> from grundy import OctalGame
    >>> [m.name for m in OctalFace(OctalGame("0.07")).moves((4,))]
    ['heap 1 -> 2', 'heap 1 -> 1 1']
    """

    syntax = ("HEAP COUNT take COUNT tokens from heap HEAP, leaving one heap (or none)\n"
              "HEAP -> A B  heap HEAP becomes heaps A and B (HEAP -> 0: none left)")
    zero = " (to split a heap without taking, type 'HEAP -> A B')"
    over = "The game is over: no move is left."

    def __init__(self, game: TakeAndBreakGame, misere: bool = False) -> None:
        if not isinstance(game, TakeAndBreakGame):
            raise TypeError(f"game must be a TakeAndBreakGame, got {shorten(game)}")
        self.game = game
        self.misere = check_bool(misere, "misere")
        self._options: dict[int, list[tuple[int, ...]]] = {}
        self.title = (f"Take-and-break game {game.name}: a move takes tokens from a heap "
                      f"and may split what is left; whoever makes the last move "
                      f"{'loses' if self.misere else 'wins'}.")

    def options(self, heap: int) -> list[tuple[int, ...]]:
        """The heaps a move from one heap can leave: most tokens left first, fewest
        heaps first.

        Parameters
        ----------
        heap : int
            A heap size.

        Returns
        -------
        list of tuple of int

        Raises
        ------
        TypeError, ValueError
            If ``heap`` is not an integer >= 0.

        Examples
        --------
        >>> from grundy import OctalGame
        >>> OctalFace(OctalGame("0.77")).options(3)
        [(2,), (1, 1), (1,)]
        """
        found = self._options.get(heap)
        if found is None:
            found = sorted(self.game.options(heap), key=lambda o: (-sum(o), len(o), o))
            self._options[heap] = found
        return found

    def moves(self, position: tuple[int, ...]) -> list[Move]:
        """Heap 1's :meth:`options`, then heap 2's, ... (a heap taken whole disappears)."""
        return [self._move(position, i, o) for i, h in enumerate(position)
                for o in self.options(h)]

    @staticmethod
    def _move(position: tuple[int, ...], i: int, option: tuple[int, ...]) -> Move:
        shown = " ".join(map(str, option)) if option else "0"
        return Move(f"heap {i + 1} -> {shown}", position[:i] + option + position[i + 1:])

    def parse(self, text: str, position: tuple[int, ...], moves: Sequence[Move]) -> Move | None:
        """``HEAP COUNT`` or ``HEAP -> A B ...`` (the word ``heap`` may come first).

        Examples
        --------
        >>> from grundy import OctalGame
        >>> face = OctalFace(OctalGame("0.77"))          # Kayles
        >>> face.parse("1 2", (5,), []), face.parse("heap 1 -> 1 2", (5,), [])
        (Move(name='heap 1 -> 3', position=(3,)), Move(name='heap 1 -> 1 2', position=(1, 2)))
        >>> try:
        ...     face.parse("1 -> 4 1", (5,), [])
        ... except MoveError as exc:
        ...     print(exc)
        '1 -> 4 1' is not a legal move: in 0.77 a heap of 5 cannot become heaps 4 1
        """
        folded = text.lower()
        m = re.fullmatch(r"(?:heap ?)?([0-9]+) ?(?:->|=) ?([0-9 ,]*|none)", folded, re.ASCII)
        if m:
            i = self._index(text, position, int(m.group(1)))
            heaps = tuple(int(x) for x in re.findall(r"[0-9]+", m.group(2)))
            have = position[i]
            if _canonical(heaps) not in self.options(have):
                left = f"heaps {' '.join(map(str, heaps))}" if len(heaps) > 1 else \
                    f"a heap of {heaps[0]}" if heaps and heaps[0] else "nothing"
                raise MoveError(f"'{text}' is not a legal move: in {self.game.name} a heap of "
                                f"{have} cannot become {left}")
            return self._move(position, i, tuple(h for h in heaps if h))
        m = re.fullmatch(r"(?:heap ?)?([0-9]+) ([0-9]+)", folded, re.ASCII)
        if not m:
            return None
        count = int(m.group(2))
        i = self._take(text, position, int(m.group(1)), count)
        have = position[i]
        option = (have - count,) if count < have else ()
        if option not in self.options(have):
            left = f"a heap of {have - count}" if count < have else "nothing"
            raise MoveError(f"'{text}' is not a legal move: in {self.game.name} taking "
                            f"{count} from a heap of {have} cannot leave {left} (type "
                            f"'moves' for the legal moves)")
        return self._move(position, i, option)


def octal_table(game: TakeAndBreakGame | str, heaps: Iterable[int], *, misere: bool = False,
                max_positions: int = MAX_POSITIONS, max_moves: int = MAX_MOVES) -> Table:
    """A take-and-break game on some heaps, solved for play.

    Parameters
    ----------
    game : TakeAndBreakGame or str
        The rules, or their name on the command line: an octal code such as
        ``"0.137"``, ``"hex:CODE"``, ``"grundy"`` or ``"sub:1,3,4"``.
    heaps : iterable of int
        The heap sizes (>= 0; empty heaps are dropped).
    misere : bool, default False
        Whoever makes the last move loses.
    max_positions, max_moves : int
        Refuse games larger than this (the solve stops as soon as it knows).

    Returns
    -------
    Table

    Raises
    ------
    TypeError, ValueError
        For a game that is not one, or heaps that are not integers >= 0.
    MemoryLimitError
        If the game has more positions or moves than allowed.

    Examples
    --------
    >>> table = octal_table("0.77", [5])                  # Kayles
    >>> table.solution[table.start], table.face.moves((5,))[2]
    (Evaluation(WIN, remoteness=5, move=(2, 2)), Move(name='heap 1 -> 2 2', position=(2, 2)))
    """
    if isinstance(game, str):
        game = parse_game(game)
    if not isinstance(game, TakeAndBreakGame):
        raise TypeError(f"game must be a TakeAndBreakGame or its code, got {shorten(game)}")
    start, misere, limits = _heap_setup(game.name, "heap", heaps, misere, max_positions,
                                        max_moves, keep_empty=False)
    if start and max(start) > limits.max_moves:
        raise limits.refuse(f"more than {limits.max_moves:,} moves")
    face = OctalFace(game, misere)
    rules = _HeapRules(start, face.options, limits)
    return Table(limits.solve(rules, misere), face, start)


# -- police and thief -------------------------------------------------------------------
