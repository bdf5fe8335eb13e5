"""Play a solved game against the perfect opponent, in a terminal or a script.

One session loop (:func:`play`) serves every game: it shows the position,
whose turn it is and the position's value with perfect play, reads the
player's move or command from a text stream, and answers with an optimal
move of the solution (the winner hurrying, the loser delaying) until the
game is over.  What differs between games is a small :class:`Face`: how a
position is drawn, how its legal moves are listed and named, and how a move
typed in the game's own words is read.  A :class:`Table` puts a solved game,
its face and the starting position together; :func:`nim_table`,
:func:`octal_table`, :func:`police_table` and :func:`rules_table` set one up
(``grundy play nim|octal|police|game`` on the command line).

Input is read a line at a time (``readline``), so a session can be scripted;
what is typed is echoed when the input is not a terminal, so the
transcript reads as a dialogue.  At the prompt ``> `` the player types a
move (its number in the list, or the game's own syntax) or a command:
``hint``, ``undo``, ``moves``, ``help``, ``quit``.  Move counts ("you can win
in 3 moves") count the moves of both players.

Examples
--------
>>> import io
>>> table = nim_table([1, 2])
>>> play(table, input=io.StringIO("2\\n1\\n"), output=io.StringIO())
'won'
>>> out = io.StringIO()
>>> play(table, input=io.StringIO("hint\\n1\\n"), output=out)
'lost'
>>> print(out.getvalue(), end="")  # doctest: +NORMALIZE_WHITESPACE
Nim: take any number of stones from one pile; taking the last stone wins.
You move first.  Type a move, or 'help'.
<BLANKLINE>
pile 1: |   1
pile 2: ||  2
<BLANKLINE>
You are to move: you can win in 3 moves.
Your moves:
  1) take 1 from pile 1  2) take 1 from pile 2  3) take 2 from pile 2
> hint
Hint: 2) take 1 from pile 2 (you win in 3 moves).
> 1
<BLANKLINE>
pile 1:     0
pile 2: ||  2
<BLANKLINE>
The computer is to move: it can win in 1 move.
The computer plays: take 2 from pile 2.
<BLANKLINE>
pile 1:  0
pile 2:  0
<BLANKLINE>
The game is over: no stone is left.  The computer wins.
"""
from __future__ import annotations

import bisect
import contextlib
import functools
import importlib
import importlib.util
import os
import re
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Literal, NamedTuple, TextIO

import numpy as np

from grundy._common import (DRAW, LOSS, NO_MOVE, TIE, WIN, MemoryLimitError, Outcome,
                            check_bool, check_count, shorten)
from grundy.engine.rules import BatchGame, Game, solve_game
from grundy.impartial.octal.game import TakeAndBreakGame, parse_game
from grundy.games.police import PolicePosition, PoliceThief, PoliceThiefSolution
from grundy.engine.solution import Solution

__all__ = ["play", "Table", "Face", "Move", "MoveError", "nim_table", "octal_table",
           "police_table", "rules_table", "load_game", "MAX_POSITIONS", "MAX_MOVES"]

Result = Literal["won", "lost", "tie", "quit", "eof"]
"""How a session ended: the player won or lost, a tie, ``quit``, or the end of input."""

MAX_POSITIONS = 2_000_000
"""The most positions a game set up here may have (more is refused before solving)."""
MAX_MOVES = 5_000_000
"""The most moves a nim or take-and-break game set up here may have (about 4 seconds
of exploring)."""

WIDTH = 78
"""Columns a picture or a line of the session takes at most."""
HEIGHT = 20
"""Rows of a police board shown at most (a larger board is shown through a window)."""


class MoveError(ValueError):
    """A move typed by the player that is malformed or illegal (the message says why).

    Examples
    --------
    >>> face = nim_table([3]).face
    >>> try:
    ...     face.parse("1 5", (3,), face.moves((3,)))
    ... except MoveError as exc:
    ...     print(exc)
    '1 5' is not a legal move: pile 1 has only 3 stones
    """


class Move(NamedTuple):
    """A legal move as the player sees it.

    Attributes
    ----------
    name : str
        How the move is listed (typing it plays it).
    position : object
        The position it leads to (as the face shows positions).

    Examples
    --------
    >>> nim_table([2]).face.moves((2,))[0]
    Move(name='take 1 from pile 1', position=(1,))
    """

    name: str
    position: Any


class Face:
    """How a kind of game looks and is played in a terminal (the base class).

    The base class serves any game whose moves a subclass lists: positions
    are drawn with ``str()``, moves are typed by their number or their
    name.  Subclasses override what their game needs; the methods below
    state the contract once, and an override's docstring says only what it
    does differently.  The session catches only the :class:`MoveError` of
    :meth:`parse`: any other exception from a face ends :func:`play` with it.

    Attributes
    ----------
    title : str
        One line naming the game and its rules, printed first.
    syntax : str
        The game's own move syntax, for ``help``: lines of the form typed,
        padded to 11 columns, then what it does ("" if moves are typed by
        number or name only).

    Examples
    --------
    >>> class Countdown(Face):
    ...     title = "Countdown: subtract 1 or 2"
    ...     def moves(self, n):
    ...         return [Move(f"to {m}", m) for m in (n - 1, n - 2) if m >= 0]
    >>> Countdown().moves(1), Countdown().render(1)
    ([Move(name='to 0', position=0)], '1')
    """

    title: str = "A game"
    syntax: str = ""

    def key(self, position: Any) -> Any:
        """The solution's position for a position as shown (default: the same).

        Parameters
        ----------
        position
            A position as the face shows it.

        Returns
        -------
        object
            The position to look up in the solution (a face may show
            positions in another form than the solution keeps them).

        Examples
        --------
        >>> nim_table([2, 0, 1]).face.key((2, 0, 1))     # piles in any order, no empty ones
        (1, 2)
        """
        return position

    def render(self, position: Any) -> str:
        """The picture of a position (default: ``str(position)``).

        Parameters
        ----------
        position
            A position as the face shows it.

        Returns
        -------
        str
            Lines of at most 78 columns, shown between blank lines.

        Examples
        --------
        >>> print(nim_table([2, 3]).face.render((2, 3)))
        pile 1: ||   2
        pile 2: |||  3
        """
        return str(position)

    def moves(self, position: Any) -> list[Move]:
        """The legal moves from a position that is not over, in the order listed.

        Parameters
        ----------
        position
            A position as the face shows it.

        Returns
        -------
        list of Move
            Each legal move once, with distinct names: the session numbers
            them from 1 in this order, and the computer plays the first one
            that leads to the position the solution's best move leads to.

        Raises
        ------
        NotImplementedError
            Unless a subclass lists the moves.

        Examples
        --------
        >>> [m.name for m in octal_table("0.77", [3]).face.moves((3,))]
        ['heap 1 -> 2', 'heap 1 -> 1 1', 'heap 1 -> 1']
        """
        raise NotImplementedError("a Face needs moves(position): the legal moves")

    def parse(self, text: str, position: Any, moves: Sequence[Move]) -> Move | None:
        """Read a move typed in the game's own syntax.

        The session tries this after commands, move numbers and move names.

        Parameters
        ----------
        text : str
            What the player typed (stripped).
        position
            The position, as shown.
        moves : sequence of Move
            Its legal moves, as listed.

        Returns
        -------
        Move or None
            The move, or None if ``text`` is not in the game's syntax.

        Raises
        ------
        MoveError
            If ``text`` is in the game's syntax but malformed or illegal.

        Examples
        --------
        >>> face = nim_table([3, 4]).face
        >>> face.parse("2 4", (3, 4), face.moves((3, 4)))
        Move(name='take 4 from pile 2', position=(3, 0))
        >>> print(Face().parse("2 4", 0, []))
        None
        """
        return None

    def side(self, position: Any) -> str | None:
        """The name of the side to move (such as ``"police"``), or None.

        Parameters
        ----------
        position
            A position as the face shows it.

        Returns
        -------
        str or None
            Shown after who moves, as in ``You (thief)``.

        Examples
        --------
        >>> print(Face().side(0))
        None
        """
        return None

    def ending(self, position: Any, outcome: Outcome) -> str:
        """What happened when the game is over (before who won is said).

        Parameters
        ----------
        position
            The final position, as shown.
        outcome : Outcome
            Its outcome for the player to move.

        Returns
        -------
        str
            A sentence, such as ``"The thief escapes."``.

        Examples
        --------
        >>> Face().ending(0, LOSS)
        'The game is over.'
        """
        return "The game is over."


class Table(NamedTuple):
    """A game ready to play: its solution, its face and the position play starts from.

    Attributes
    ----------
    solution : Solution
        The solved game.
    face : Face
        How it looks and is played.
    start : object
        The starting position, as the face shows positions.

    Examples
    --------
    >>> table = nim_table([1, 2])
    >>> table.start, table.solution[table.face.key(table.start)]
    ((1, 2), Evaluation(WIN, remoteness=3, move=(1, 1)))
    """

    solution: Solution
    face: Face
    start: Any


# -- the session --------------------------------------------------------------------------

_HELP = """\
Commands:
  NUMBER     play the move with this number in the list
{syntax}  moves      list your legal moves
  hint       show an optimal move
  undo       take back your last move and the computer's reply
  quit       leave the game (so does the end of input, Ctrl-D)
  help       this text
Move counts include the moves of both players."""

_COMMANDS = {"help": "help", "?": "help", "hint": "hint", "undo": "undo", "quit": "quit",
             "q": "quit", "exit": "quit", "moves": "moves", "list": "moves"}


def play(game: Table | Solution | Any, *, human_first: bool = True,
         input: TextIO | None = None, output: TextIO | None = None) -> Result:
    """Play a game against the perfect opponent, reading moves from a text stream.

    Each turn shows the position, whose turn it is and the value of the
    position with perfect play.  On the player's turn the legal moves are
    listed and a line is read: a move (its number, its name, or the game's
    own syntax) or a command (``hint``, ``undo``, ``moves``, ``help``,
    ``quit``).  A malformed or illegal move is answered with a message and
    the prompt comes again.  The computer plays the solution's best move:
    the winner hurries, the loser delays, a draw is kept.  Ctrl-C
    (KeyboardInterrupt) ends the session with a new line and goes on up.

    Parameters
    ----------
    game : Table, Solution or Game
        A :class:`Table`; or a solution of a police-and-thief board or of a
        game with a graph (:class:`grundy.GameSolution`,
        :class:`grundy.GraphSolution`), played from its start; or a game
        with ``start()`` and ``moves(position)``, solved by
        :func:`rules_table`.
    human_first : bool, default True
        The player makes the first move (else the computer does).
    input, output : text stream, optional
        Where moves are read and the session is written (default: standard
        input and output).  The lines read are echoed when ``input`` is not
        a terminal.

    Returns
    -------
    {"won", "lost", "tie", "quit", "eof"}
        How the session ended: the player won or lost, a tie, the player
        quit, or the input ended.

    Raises
    ------
    TypeError
        If ``game`` is none of these, or a solution has no start.
    MemoryLimitError
        If a game given by its rules is too large to play.
    KeyboardInterrupt
        On Ctrl-C.

    Examples
    --------
    >>> import io, grundy
    >>> class Countdown(grundy.Game):        # subtract 1 or 2; no move left loses
    ...     def start(self): return 4
    ...     def moves(self, n): return [m for m in (n - 1, n - 2) if m >= 0]
    >>> out = io.StringIO()
    >>> play(Countdown(), human_first=False, input=io.StringIO("1\\n"), output=out)
    'lost'
    >>> print(out.getvalue(), end="")
    Countdown: a game given by its rules.
    The computer moves first.  Type a move, or 'help'.
    <BLANKLINE>
    4
    <BLANKLINE>
    The computer is to move: it can win in 3 moves.
    The computer plays: 3.
    <BLANKLINE>
    3
    <BLANKLINE>
    You are to move: you lose with perfect play (in 2 moves).
    Your moves:
      1) 2  2) 1
    > 1
    <BLANKLINE>
    2
    <BLANKLINE>
    The computer is to move: it can win in 1 move.
    The computer plays: 0.
    <BLANKLINE>
    0
    <BLANKLINE>
    The game is over.  The computer wins.
    """
    table = _as_table(game)
    human_first = check_bool(human_first, "human_first")
    session = _Session(table, human_first, sys.stdin if input is None else input,
                       sys.stdout if output is None else output)
    return session.run()


def _as_table(game: Any) -> Table:
    if isinstance(game, Table):
        if not isinstance(game.solution, Solution) or not isinstance(game.face, Face):
            raise TypeError(f"a Table holds a Solution and a Face, got {shorten(game)}")
        return game
    if isinstance(game, PoliceThiefSolution):
        return Table(game, PoliceFace(game.board), game.start)
    if isinstance(game, Solution):
        graph = getattr(game, "graph", None)
        if graph is None:
            raise TypeError(f"play() needs a Table for a {type(game).__name__} (its moves "
                            f"cannot be listed)")
        if game.start is None:
            raise TypeError(f"play() needs a start: this {type(game).__name__} has none; "
                            f"give a Table(solution, face, start)")
        return Table(game, GraphFace(game), game.start)
    if isinstance(game, BatchGame) or _has_rules(game):
        return rules_table(game)
    raise TypeError(f"play() needs a Table, a Solution or a game with start() and "
                    f"moves(position), got {shorten(game)}")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _isatty(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _columns(items: Sequence[str], indent: int = 2) -> list[str]:
    """Items in columns, row by row, in lines of at most WIDTH columns."""
    width = max(len(s) for s in items) + 2
    per_line = max(1, (WIDTH - indent) // width)
    lines = []
    for i in range(0, len(items), per_line):
        chunk = items[i:i + per_line]
        lines.append(" " * indent + "".join(s.ljust(width) for s in chunk).rstrip())
    return lines


class _Session:
    """One game: the positions played, and the turn loop."""

    def __init__(self, table: Table, human_first: bool, input: TextIO, output: TextIO) -> None:
        self.sol, self.face, self.start = table
        self.human_first = human_first
        self.input = input
        self.output = output
        self.echo = not _isatty(input)
        self.history: list[Any] = [self.start]

    # -- output --------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.output.write(text + "\n")

    def note(self, text: str) -> None:
        """A sentence or two, wrapped to WIDTH columns."""
        self.say(textwrap.fill(text, WIDTH, break_on_hyphens=False))

    def human_turn(self, ply: int) -> bool:
        return (ply % 2 == 0) == self.human_first

    def who(self, human: bool, position: Any) -> str:
        side = self.face.side(position)
        name = "You" if human else "The computer"
        return f"{name} ({side})" if side else name

    def value(self, human: bool, position: Any) -> str:
        ev = self.sol[self.face.key(position)]
        subject = f"{self.who(human, position)} {'are' if human else 'is'} to move"
        you = "you" if human else "it"
        r = _plural(ev.remoteness, "move")
        if ev.outcome == WIN:
            what = f"{you} can win in {r}"
        elif ev.outcome == LOSS:
            what = f"{you} {'lose' if human else 'loses'} with perfect play (in {r})"
        elif ev.outcome == TIE:
            what = f"a tie with perfect play (in {r})"
        else:
            what = "a draw with perfect play (the game can go on forever)"
        return f"{subject}: {what}."

    def list_moves(self, moves: Sequence[Move], limit: int = 40) -> None:
        if len(moves) > limit:
            self.say(f"You have {len(moves)} legal moves: type 'moves' to list them.")
            return
        self.say("Your moves:")
        for line in _columns([f"{i}) {m.name}" for i, m in enumerate(moves, 1)]):
            self.say(line)

    # -- the game ------------------------------------------------------------

    def best(self, position: Any, moves: Sequence[Move]) -> Move:
        """The listed move the solution plays (the first one leading to its
        best position), or the best listed move by its evaluation."""
        sol, key = self.sol, self.face.key
        target = sol.best_move(key(position))
        if target is not NO_MOVE:
            i = sol.index(target)
            for m in moves:
                if sol.index(key(m.position)) == i:
                    return m
        if not moves:
            raise RuntimeError(f"the face lists no move from {shorten(position)}, which "
                               f"the solution says is not over")

        def rank(m: Move) -> tuple[int, int]:      # the opponent's outcome, best first
            ev = sol[key(m.position)]
            order = {LOSS: 0, TIE: 1, DRAW: 2, WIN: 3}[ev.outcome]
            return (order, -ev.remoteness if ev.outcome == WIN else ev.remoteness)
        return min(moves, key=rank)

    def hint(self, position: Any, moves: Sequence[Move]) -> str:
        ev = self.sol[self.face.key(position)]
        move = self.best(position, moves)
        r = _plural(ev.remoteness, "move")
        why = {WIN: f"you win in {r}", LOSS: f"the longest defence: you lose in {r}",
               TIE: f"a tie in {r}", DRAW: "it keeps the draw"}[ev.outcome]
        return f"Hint: {list(moves).index(move) + 1}) {move.name} ({why})."

    def run(self) -> Result:
        self.note(self.face.title)
        first = self.who(self.human_first, self.start)
        self.say(f"{first} move{'' if self.human_first else 's'} first.  Type a move, "
                 f"or 'help'.")
        try:
            return self._loop()
        except KeyboardInterrupt:
            self.say()                  # the error message goes below the prompt
            raise

    def _loop(self) -> Result:
        while True:
            ply = len(self.history) - 1
            position = self.history[-1]
            human = self.human_turn(ply)
            ev = self.sol[self.face.key(position)]
            self.say()
            self.say(self.face.render(position))
            self.say()
            if ev.move is NO_MOVE:
                return self.finish(position, human, ev.outcome)
            self.note(self.value(human, position))
            if not human:
                move = self.best(position, self.face.moves(position))
                self.note(f"{self.who(False, position)} plays: {move.name}.")
                self.history.append(move.position)
                continue
            moves = self.face.moves(position)
            self.list_moves(moves)
            result = self.turn(position, moves)
            if result is not None:
                return result

    def turn(self, position: Any, moves: Sequence[Move]) -> Result | None:
        """Read lines until a move is played (None), or the session ends."""
        while True:
            self.output.write("> ")
            self.output.flush()
            line = self.input.readline()
            if not line:
                self.say()
                self.say("End of input: the game is left unfinished.")
                return "eof"
            text = " ".join(line.split())
            if self.echo:
                self.output.write(text + "\n")
            if not text:
                self.say("Type a move, or 'help'.")
                continue
            command = _COMMANDS.get(text.lower())
            if command == "quit":
                self.note(f"You quit.  {self.value(True, position)}")
                return "quit"
            if command == "help":
                syntax = "".join(f"  {line}\n" for line in self.face.syntax.splitlines())
                self.say(_HELP.format(syntax=syntax))
                continue
            if command == "moves":
                self.list_moves(moves, limit=len(moves))
                continue
            if command == "hint":
                self.note(self.hint(position, moves))
                continue
            if command == "undo":
                if self.undo():
                    self.say("You take back your last move and the computer's reply.")
                    return None
                self.say("Nothing to undo: you have not moved yet.")
                continue
            try:
                move = self.read_move(text, position, moves)
            except MoveError as exc:
                self.note(str(exc))
                continue
            self.history.append(move.position)
            return None

    def read_move(self, text: str, position: Any, moves: Sequence[Move]) -> Move:
        if text.isdigit() and text.isascii():
            k = int(text)
            if 1 <= k <= len(moves):
                return moves[k - 1]
            raise MoveError(f"'{text}' is not a move number: the moves are numbered "
                            f"1..{len(moves)}")
        folded = text.lower()
        for m in moves:
            if " ".join(m.name.lower().split()) == folded:
                return m
        if len(text) > 60:
            raise MoveError(f"'{text[:40]}...' is too long to be a move or a command: type "
                            f"a move's number (1..{len(moves)}), or 'help'")
        move = self.face.parse(text, position, moves)
        if move is not None:
            return move
        raise MoveError(f"'{text}' is not a move or a command: type a move's number "
                        f"(1..{len(moves)}), or 'help' for the ways to move")

    def undo(self) -> bool:
        """Back to the player's previous turn; False if there is none."""
        for j in range(len(self.history) - 2, -1, -1):
            if self.human_turn(j):
                del self.history[j + 1:]
                return True
        return False

    def finish(self, position: Any, human: bool, outcome: Outcome) -> Result:
        result: Result
        if outcome == TIE:
            result, verdict = "tie", "It is a tie."
        elif (outcome == WIN) == human:
            result, verdict = "won", "You win."
        else:
            result, verdict = "lost", "The computer wins."
        self.note(f"{self.face.ending(position, outcome)}  {verdict}")
        return result


# -- heaps: nim and take-and-break games --------------------------------------------------

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
    return "\n".join(_columns(items, indent=0))


def _canonical(heaps: Iterable[int]) -> tuple[int, ...]:
    """The heaps sorted, without empty ones: one position for every order."""
    return tuple(sorted(h for h in heaps if h))


class _Limits:
    """How large a game set up for play may be, and the error refusing it.

    ``spend`` counts the moves an exploration generates (refusing past
    ``max_moves``); ``solve`` turns the solver's refusal past
    ``max_positions`` into one naming the game.
    """

    def __init__(self, what: str, max_positions: int, max_moves: int = 0,
                 hint: str = "") -> None:
        self.what = what
        self.hint = hint
        self.max_positions = max_positions
        self.max_moves = max_moves
        self.moves_left = max_moves

    def spend(self, n: int) -> None:
        self.moves_left -= n
        if self.moves_left < 0:
            raise self.refuse(f"more than {self.max_moves:,} moves")

    def refuse(self, size: str) -> MemoryLimitError:
        hint = f"; {self.hint}" if self.hint else ""
        return MemoryLimitError(f"{self.what} is too large to play here: {size}{hint}")

    def solve(self, game: Any, misere: bool) -> Solution:
        try:
            return solve_game(game, misere=misere, max_positions=self.max_positions)
        except MemoryLimitError as exc:
            if exc.needed is None and "max_positions" in str(exc):
                raise self.refuse(f"more than {self.max_positions:,} positions") from None
            if exc.needed is None and self.moves_left < 0:     # spend's, without a note
                raise self.refuse(f"more than {self.max_moves:,} moves") from None
            raise


def _heap_setup(label: str, word: str, heaps: Iterable[int], misere: bool,
                max_positions: int, max_moves: int, *, keep_empty: bool
                ) -> tuple[tuple[int, ...], bool, _Limits]:
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
    return start, misere, _Limits(f"{label} {name}", max_positions, max_moves,
                                  f"try fewer or smaller {word}s")


class _HeapRules(Game):
    """A heap game on sorted tuples of non-empty heaps: replace one heap by
    one of ``options(heap)`` (the distinct results of each position once)."""

    def __init__(self, start: Iterable[int],
                 options: Callable[[int], Sequence[tuple[int, ...]]], limits: _Limits) -> None:
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
                            f"{_plural(position[i], self.token)}")
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

_COMPASS = {(-1, 0): "n", (-1, 1): "ne", (0, 1): "e", (1, 1): "se", (1, 0): "s",
            (1, -1): "sw", (0, -1): "w", (-1, -1): "nw"}
_WORDS = {"n": "north", "ne": "north-east", "e": "east", "se": "south-east", "s": "south",
          "sw": "south-west", "w": "west", "nw": "north-west"}
_SYNONYMS = {**{w: d for d, w in _WORDS.items()},
             **{w.replace("-", ""): d for d, w in _WORDS.items()},
             **{d: d for d in _WORDS}, "pass": "pass", "p": "pass", "stay": "pass"}


def _window(a: int, b: int, focus: int, size: int, total: int) -> int:
    """First row (or column) of a window of ``size`` showing a and b if it can,
    else centred on ``focus``."""
    lo, hi = min(a, b), max(a, b)
    centre = (lo + hi) // 2 if hi - lo < size else focus
    return max(0, min(total - size, centre - size // 2))


class PoliceFace(Face):
    """A police-and-thief board: the picture, and moves by compass direction.

    The police steps n, ne, e, se, s, sw, w or nw, the thief n, e, s or w
    (the board's move sets); either may ``pass``.  A board larger than
    78 x 20 is shown through a window around the pieces.

    Parameters
    ----------
    board : PoliceThief
        The board and its rules.

    Raises
    ------
    TypeError
        If ``board`` is not a PoliceThief.

    Examples
    --------
    >>> board = PoliceThief.parse("2 3\\nP.E\\n..T")
    >>> [m.name for m in PoliceFace(board).moves(PolicePosition((0, 0), (1, 2), True))]
    ['e to (0, 1)', 's to (1, 0)', 'se to (1, 1)', 'pass']
    """

    syntax = ("DIRECTION  step n, ne, e, se, s, sw, w or nw (the thief: n, e, s or w)\n"
              "pass       stay put")
    title = ("Police and thief: the police (P) steps to any of the 8 neighbouring cells, "
             "the thief (T) to any of the 4 orthogonal ones; either may pass.  The police "
             "wins on the thief's cell (X), the thief on an exit (E).  '*' is a wall.")

    def __init__(self, board: PoliceThief) -> None:
        if not isinstance(board, PoliceThief):
            raise TypeError(f"board must be a PoliceThief, got {shorten(board)}")
        self.board = board

    def render(self, position: PolicePosition) -> str:
        """The board with the pieces (X: the police on the thief), and where they stand.

        A board wider than 78 columns or taller than 20 rows is shown
        through a window of that size around both pieces (around the piece
        to move when they are too far apart), and the text says so.

        Examples
        --------
        >>> wide = PoliceThief(["P" + "." * 98 + "T"])
        >>> print(PoliceFace(wide).render(PolicePosition((0, 0), (0, 99), True)))
        P...
        police (0, 0), thief (0, 99)
        (showing rows 0-0, columns 0-77 of the 1 x 100 board; the thief is outside)
        """
        police, thief, police_to_move = position
        b = self.board
        rows = b.render(police=police, thief=thief).split("\n")
        where = f"police {tuple(police)}, thief {tuple(thief)}"
        if b.n_rows <= HEIGHT and b.n_cols <= WIDTH:
            return "\n".join(rows + [where])
        h, w = min(b.n_rows, HEIGHT), min(b.n_cols, WIDTH)
        mover = police if police_to_move else thief
        top = _window(police[0], thief[0], mover[0], h, b.n_rows)
        left = _window(police[1], thief[1], mover[1], w, b.n_cols)
        shown = [row[left:left + w] for row in rows[top:top + h]]
        outside = [name for name, (r, c) in (("police", police), ("thief", thief))
                   if not (top <= r < top + h and left <= c < left + w)]
        note = (f"(showing rows {top}-{top + h - 1}, columns {left}-{left + w - 1} of the "
                f"{b.n_rows} x {b.n_cols} board")
        if outside:
            note += f"; the {' and the '.join(outside)} {'is' if len(outside) == 1 else 'are'}"
            note += " outside"
        return "\n".join(shown + [where, textwrap.fill(note + ")", WIDTH)])

    def side(self, position: PolicePosition) -> str:
        """``"police"`` or ``"thief"``: who moves."""
        return "police" if position.police_to_move else "thief"

    def moves(self, position: PolicePosition) -> list[Move]:
        """The steps of the side to move, named by direction and cell, in move-set
        order; then ``pass`` if the board allows it."""
        police, thief, police_to_move = position
        mover = police if police_to_move else thief
        out = []
        for cell in self.board.steps(mover, self.side(position)):
            d = (cell[0] - mover[0], cell[1] - mover[1])
            name = _COMPASS.get(d, f"({d[0]:+d},{d[1]:+d})")
            after = PolicePosition(cell, thief, False) if police_to_move else \
                PolicePosition(police, cell, True)
            out.append(Move(f"{name} to {cell}", after))
        if self.board.passing:
            out.append(Move("pass", PolicePosition(police, thief, not police_to_move)))
        return out

    def parse(self, text: str, position: PolicePosition, moves: Sequence[Move]
              ) -> Move | None:
        """A direction (``n``, ``north``, ``ne``, ``north-east``...) or ``pass``;
        the message for an illegal one says why.

        Examples
        --------
        >>> face = PoliceFace(PoliceThief.parse("2 3\\nP.E\\n..T"))
        >>> pos = PolicePosition((0, 0), (1, 2), False)
        >>> face.parse("North", pos, face.moves(pos)).name
        'n to (0, 2)'
        >>> try:
        ...     face.parse("e", pos, face.moves(pos))
        ... except MoveError as exc:
        ...     print(exc)
        'e' is not a legal move: the cell to the east of the thief is off the board
        """
        word = _SYNONYMS.get(text.lower().replace(" ", ""))
        if word is None:
            return None
        for m in moves:
            if m.name.split(" ")[0] == word:
                return m
        who = self.side(position)
        if word == "pass":
            raise MoveError(f"'{text}' is not a legal move: passing is not allowed here")
        offsets = self.board.police_moves if who == "police" else self.board.thief_moves
        step = next((d for d, name in _COMPASS.items() if name == word), (0, 0))
        if step not in offsets:
            names = ", ".join(_COMPASS.get(d, str(d)) for d in offsets)
            or_pass = " (or pass)" if self.board.passing else ""
            raise MoveError(f"'{text}' is not a legal move: the {who} moves only "
                            f"{names}{or_pass}")
        r, c = position.police if who == "police" else position.thief
        r2, c2 = r + step[0], c + step[1]
        if not (0 <= r2 < self.board.n_rows and 0 <= c2 < self.board.n_cols):
            why = "off the board"
        else:
            why = f"a wall, at {(r2, c2)}"
        raise MoveError(f"'{text}' is not a legal move: the cell to the {_WORDS[word]} of "
                        f"the {who} is {why}")

    def ending(self, position: PolicePosition, outcome: Outcome) -> str:
        """``"The police catches the thief."`` or ``"The thief escapes."``"""
        police_won = (outcome == WIN) == position.police_to_move
        if position.police == position.thief or police_won:
            return "The police catches the thief."
        return "The thief escapes."


def police_table(board: PoliceThief | str | bytes, *, max_memory: int | None = None) -> Table:
    """A police-and-thief board, solved for play from its start (the police moves first).

    Parameters
    ----------
    board : PoliceThief, str or bytes
        The board, or its text (``n m`` then the rows).
    max_memory : int, optional
        Bytes the solve may take (default: the memory available).

    Returns
    -------
    Table

    Raises
    ------
    TypeError
        If ``board`` is neither.
    BoardError
        If the text is not a board.
    MemoryLimitError
        If the solve would need more than ``max_memory``.

    Examples
    --------
    >>> table = police_table("1 3\\nP.T")
    >>> table.start, table.solution[table.start].outcome
    (PolicePosition(police=(0, 0), thief=(0, 2), police_to_move=True), WIN)
    """
    if isinstance(board, (str, bytes, bytearray)):
        board = PoliceThief.parse(board)
    if not isinstance(board, PoliceThief):
        raise TypeError(f"board must be a PoliceThief or its text, got {shorten(board)}")
    sol = board.solve(max_memory=max_memory)
    return Table(sol, PoliceFace(board), sol.start)


# -- any game: from its rules, or from its solution's graph -----------------------------

_POSITION_SYNTAX = "POSITION   the position a move leads to, as listed"


def _has_rules(obj: Any) -> bool:
    """Whether ``obj`` has the methods ``start()`` and ``moves(position)``."""
    return callable(getattr(obj, "start", None)) and callable(getattr(obj, "moves", None))


def _rules_title(game: Any, title: str | None) -> str:
    return title if title is not None else f"{type(game).__name__}: a game given by its rules."


def _moves_to(positions: Iterable[Any]) -> list[Move]:
    """Moves named by the positions they lead to (``str()`` on one line, shortened)."""
    out = []
    for p in positions:
        text = " ".join(str(p).split())
        out.append(Move(text if len(text) <= 36 else text[:33] + "...", p))
    return out


class RulesFace(Face):
    """A game from the per-position protocol: its own moves, shown as the positions
    they lead to.

    Positions are drawn by the game's ``render(position)`` if it has one,
    else with ``str()``; a move is typed by its number or as the position it
    leads to.

    Parameters
    ----------
    game : Game
        Any object with ``moves(position)`` (and optionally ``render``).
    title : str, optional
        The first line of the session (default: the class name).

    Raises
    ------
    TypeError
        If ``game`` has no ``moves``.

    Examples
    --------
    >>> class Countdown(Game):
    ...     def start(self): return 3
    ...     def moves(self, n): return [n - 1, n - 2] if n >= 2 else [0] if n else []
    >>> RulesFace(Countdown()).moves(3)
    [Move(name='2', position=2), Move(name='1', position=1)]
    """

    syntax = _POSITION_SYNTAX

    def __init__(self, game: Any, title: str | None = None) -> None:
        if not callable(getattr(game, "moves", None)):
            raise TypeError(f"a game needs moves(position); {shorten(game)} has none")
        self.game = game
        self.title = _rules_title(game, title)

    def render(self, position: Any) -> str:
        """``game.render(position)`` if the game has it, else ``str(position)``."""
        draw = getattr(self.game, "render", None)
        return str(draw(position)) if callable(draw) else str(position)

    def moves(self, position: Any) -> list[Move]:
        """The game's moves, each once (the first time it lists it)."""
        return _moves_to(dict.fromkeys(self.game.moves(position)))


class GraphFace(Face):
    """Any game solved with a graph (a :class:`grundy.GameSolution` or
    :class:`grundy.GraphSolution`): the moves are the graph's, positions shown
    with ``str()``.

    Parameters
    ----------
    solution : Solution
        A solution with a ``graph`` (vertex i being position i).
    render : callable, optional
        ``render(position) -> str`` (default: ``str``).

    Raises
    ------
    TypeError
        If ``solution`` has no graph.

    Examples
    --------
    >>> import grundy
    >>> sol = grundy.GameGraph.from_edges([("a", "b"), ("a", "c")], names=True).solve()
    >>> GraphFace(sol).moves("a")
    [Move(name='b', position='b'), Move(name='c', position='c')]
    """

    syntax = _POSITION_SYNTAX
    title = "A game on a graph."

    def __init__(self, solution: Solution, render: Callable[[Any], str] | None = None) -> None:
        graph = getattr(solution, "graph", None)
        if graph is None:
            raise TypeError(f"solution must have a graph, got {shorten(solution)}")
        self.solution = solution
        self._indptr, self._indices = graph.indptr, graph.indices
        self._render = render

    def render(self, position: Any) -> str:
        """The position, drawn by ``render`` or ``str()``."""
        return str(self._render(position)) if self._render is not None else str(position)

    def moves(self, position: Any) -> list[Move]:
        """The graph's moves, each once, in edge order."""
        i = self.solution.index(position)
        ends = self._indices[self._indptr[i]:self._indptr[i + 1]].tolist()
        return _moves_to(self.solution.position(j) for j in dict.fromkeys(ends))


_DOTTED = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*")
"""A dotted Python name (a module's, or a class's in it)."""


def load_game(spec: str) -> Any:
    """The game named ``MODULE:CLASS`` (or ``FILE.py:CLASS``), instantiated with no arguments.

    A module is imported with the current directory first on the import
    path; a file is loaded from its path (its directory first on the path).

    Parameters
    ----------
    spec : str
        ``MODULE:CLASS`` (``MODULE`` dotted, ``CLASS`` possibly dotted too)
        or ``PATH.py:CLASS``.

    Returns
    -------
    object
        ``CLASS()``: a :class:`grundy.Game` or :class:`grundy.BatchGame`, or
        any object with ``start()`` and ``moves(position)``.

    Raises
    ------
    TypeError
        If ``spec`` is not a string.
    ValueError
        If it is malformed, the module or file cannot be found or imported,
        it has no such class, the constructor fails, or what it makes is
        not a game (each message says which).

    Examples
    --------
    >>> load_game("grundy.engine.rules:Game")
    <grundy.engine.rules.Game object at ...>
    >>> load_game("grundy.engine.rules:Nothing")
    Traceback (most recent call last):
    ...
    ValueError: module 'grundy.engine.rules' has no class 'Nothing'
    """
    if not isinstance(spec, str):
        raise TypeError(f"a game is named by a string MODULE:CLASS, got {shorten(spec)}")
    where, _, name = spec.rpartition(":")
    if not where or not _DOTTED.fullmatch(name):
        raise ValueError(f"expected MODULE:CLASS or FILE.py:CLASS, got {shorten(spec)}")
    if where.endswith(".py") or os.sep in where or "/" in where:
        module = _load_file(where)
    else:
        module = _import(where)
    obj: Any = module
    for part in name.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"module {where!r} has no class {name!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise ValueError(f"{name!r} in {where!r} is not a class (it is {shorten(obj, 40)})")
    try:
        game = obj()
    except Exception as exc:
        raise ValueError(f"{name}() failed: {type(exc).__name__}: {exc} (the game's class "
                         f"is made with no arguments)") from None
    if not (isinstance(game, (Game, BatchGame)) or _has_rules(game)):
        raise ValueError(f"{spec} is not a game: it needs start() and moves(position) "
                         f"(see grundy.Game)")
    return game


def _import(name: str) -> Any:
    if not _DOTTED.fullmatch(name):
        raise ValueError(f"{shorten(name)} is not a module name (nor a FILE.py)")
    with _on_path(os.getcwd()):
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and (name == exc.name or name.startswith(exc.name + ".")):
                raise ValueError(f"no module named {name!r} (looked in the current "
                                 f"directory and the Python path)") from None
            raise ValueError(f"importing {name!r} failed: {type(exc).__name__}: "
                             f"{exc}") from None
        except Exception as exc:
            raise ValueError(f"importing {name!r} failed: {type(exc).__name__}: "
                             f"{exc}") from None


@contextlib.contextmanager
def _on_path(folder: str) -> Iterator[None]:
    """``folder`` first on the import path while the block runs (unless it is there)."""
    added = folder not in sys.path and not (folder == os.getcwd() and "" in sys.path)
    if added:
        sys.path.insert(0, folder)
    try:
        yield
    finally:
        if added and folder in sys.path:
            sys.path.remove(folder)


def _load_file(path: str) -> Any:
    if not os.path.isfile(path):
        raise ValueError(f"no such file {path!r}")
    stem = os.path.splitext(os.path.basename(path))[0]
    # A name of its own: a file called random.py must not replace the module random.
    name = f"grundy_game_{re.sub(r'[^A-Za-z0-9_]', '_', stem)}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"cannot load {path!r} as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module          # for dataclasses and the like, while it runs
    try:
        with _on_path(os.path.dirname(os.path.abspath(path))):
            spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise ValueError(f"loading {path!r} failed: {type(exc).__name__}: {exc}") from None
    return module


def rules_table(game: Any, *, misere: bool = False, max_positions: int = MAX_POSITIONS,
                title: str | None = None) -> Table:
    """A game given by its rules, solved for play from its start.

    Parameters
    ----------
    game : Game or BatchGame
        The rules (any object with ``start()`` and ``moves(position)``).
        Moves are listed as the positions they lead to, drawn by the
        game's ``render(position)`` if it has one, else with ``str()``.
    misere : bool, default False
        A position with no move is a WIN for the player to move.
    max_positions : int
        Refuse games with more positions (the exploration stops there).
    title : str, optional
        The first line of the session.

    Returns
    -------
    Table

    Raises
    ------
    TypeError
        If ``game`` is not a game, or its methods return the wrong kind of thing.
    MemoryLimitError
        If the game has more than ``max_positions`` positions, or needs more
        memory than is available.

    Examples
    --------
    >>> class Countdown(Game):
    ...     def start(self): return 5
    ...     def moves(self, n): return [m for m in (n - 1, n - 2) if m >= 0]
    >>> table = rules_table(Countdown())
    >>> table.start, table.solution[5]
    (5, Evaluation(WIN, remoteness=..., move=3))
    """
    max_positions = check_count(max_positions, "max_positions", minimum=1)
    sol = _Limits(type(game).__name__, max_positions).solve(game, misere)
    if isinstance(game, BatchGame):
        draw = getattr(game, "render", None)
        face = GraphFace(sol, draw if callable(draw) else None)
        face.title = _rules_title(game, title)
        return Table(sol, face, sol.start)
    start = game.start()
    return Table(sol, RulesFace(game, title), start)
