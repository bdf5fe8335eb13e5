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
from grundy.play.face import MAX_MOVES, MAX_POSITIONS, Face, Move, MoveError, Table
from grundy.play.heaps import NimFace, OctalFace, nim_table, octal_table
from grundy.play.loading import load_game
from grundy.play.police import PoliceFace, police_table
from grundy.play.rules import GraphFace, RulesFace, rules_table
from grundy.play.session import Result, play

__all__ = ["play", "Table", "Face", "Move", "MoveError", "nim_table", "octal_table",
           "police_table", "rules_table", "load_game", "MAX_POSITIONS", "MAX_MOVES", "Result",
           "NimFace", "OctalFace", "PoliceFace", "RulesFace", "GraphFace"]
