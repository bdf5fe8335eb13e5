"""The session loop of :func:`play`: one loop for every game.

It shows the position, whose turn it is and the position's value with
perfect play, reads the player's move or command from a text stream, and
answers with an optimal move of the solution (the winner hurrying, the loser
delaying) until the game is over.
"""
from __future__ import annotations

import sys
import textwrap
from collections.abc import Sequence
from typing import Any, Literal, TextIO


from grundy._common import (DRAW, LOSS, NO_MOVE, TIE, WIN, Outcome,
                            check_bool, shorten)
from grundy.engine.rules import BatchGame
from grundy.engine.solution import Solution
from grundy.games.police import PoliceThiefSolution
from grundy.play.face import Face, Move, MoveError, Table, WIDTH, columns, isatty, plural
from grundy.play.police import PoliceFace
from grundy.play.rules import GraphFace, has_rules, rules_table

__all__ = ["play", "Result"]

Result = Literal["won", "lost", "tie", "quit", "eof"]
"""How a session ended: the player won or lost, a tie, ``quit``, or the end of input."""


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
    if isinstance(game, BatchGame) or has_rules(game):
        return rules_table(game)
    raise TypeError(f"play() needs a Table, a Solution or a game with start() and "
                    f"moves(position), got {shorten(game)}")


class _Session:
    """One game: the positions played, and the turn loop."""

    def __init__(self, table: Table, human_first: bool, input: TextIO, output: TextIO) -> None:
        self.sol, self.face, self.start = table
        self.human_first = human_first
        self.input = input
        self.output = output
        self.echo = not isatty(input)
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
        r = plural(ev.remoteness, "move")
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
        for line in columns([f"{i}) {m.name}" for i, m in enumerate(moves, 1)]):
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
        r = plural(ev.remoteness, "move")
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
