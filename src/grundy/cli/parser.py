"""The command line's arguments: one parser, a subparser a command, the
options shared by several written once.

>>> build_parser().parse_args(["nim", "-"]).file
'-'
"""
from __future__ import annotations

import argparse
from typing import NoReturn

from grundy._version import __version__
from grundy.cli.io import EXIT_INPUT, parse_memory, parse_threads, report_error
from grundy.cli.playing import cmd_play
from grundy.cli.query import cmd_query
from grundy.cli.solvers import cmd_graph, cmd_nim, cmd_octal, cmd_police


def _add_file(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", help="input file (default: standard input)")


def _add_save(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--save", metavar="FILE",
                        help=f"also save {what} to FILE (a .npz archive; 'grundy query "
                             f"FILE ...' answers from it, and so does grundy.load in Python)")


def _add_plot(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--plot", metavar="FILE",
                        help=f"also draw {what} into FILE (png, svg, pdf... by its extension; "
                             f"needs matplotlib: pip install 'grundy[plot]')")


def _add_play_options(parser: argparse.ArgumentParser, misere: str) -> None:
    """The options of 'play nim', 'play octal' and 'play game'."""
    parser.add_argument("--misere", action="store_true", help=misere)
    parser.add_argument("--computer-first", action="store_true",
                        help="the computer moves first (default: you do)")
    parser.set_defaults(run=cmd_play)


def _add_threads(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--threads", type=parse_threads, default=None, metavar="N",
                        help="threads to solve with (default: the cores other work leaves "
                             "free; 1: one); any number gives the same output")


def _add_max_memory(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--max-memory", type=parse_memory, default=None, metavar="SIZE",
                        help="refuse work needing more memory than SIZE, e.g. 512M or 4G "
                             "(default: the memory available)")


class _Parser(argparse.ArgumentParser):
    """argparse, with its usage errors in the one error format."""

    def error(self, message: str) -> NoReturn:
        report_error(f"{message} (see '{self.prog} --help')")
        raise SystemExit(EXIT_INPUT)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="grundy",
        description="Solve two-player games exactly.  graph, nim, police and octal read "
                    "FILE (or standard input) and print plain text; query answers from a "
                    "saved solution; play plays against the perfect opponent.  'grundy "
                    "COMMAND --help' tells more.",
        epilog="Exit status: 0 done, 2 bad input or a computation refused (memory), "
               "1 the output could not be written, 130 interrupted (Ctrl-C).")
    parser.add_argument("--version", action="version", version=f"grundy {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    sub.required = True

    p = sub.add_parser(
        "graph", help="win/loss/draw and remoteness of every position of a game graph",
        description="Read a game graph and print one line per position (vertex): 'WIN r', "
                    "'LOSS r', 'TIE r' or 'DRAW -1' (r = remoteness).  --format nm (the default): 'n m', then "
                    "m lines 'u v' (a move u -> v, vertices 0..n-1).  --format edges: one "
                    "move 'u v' or 'u,v' per line, vertices named by any text without "
                    "spaces or commas ('#' starts a comment line); each output line then "
                    "starts with the position's name, in order of first appearance.")
    _add_file(p)
    p.add_argument("--format", choices=("nm", "edges"), default="nm",
                   help="input format (default: nm)")
    p.add_argument("--misere", action="store_true",
                   help="a position with no move is a WIN (default: LOSS)")
    p.add_argument("--one-based", action="store_true", help="vertices are numbered 1..n")
    p.add_argument("--labels", metavar="LABELS",
                   help="a file of lines 'position WIN|LOSS|TIE' fixing the outcome of "
                        "positions where the game is over (a TIE: it ends without a winner)")
    _add_save(p, "the solution")
    _add_threads(p)
    _add_max_memory(p)
    p.set_defaults(run=cmd_graph)

    p = sub.add_parser(
        "nim", help="who wins a Nim position, and a winning move",
        description="Read one Nim position per line (pile sizes in digits 0-9 separated by "
                    "spaces or tabs; a blank line is the empty position) and print 'LOSS', "
                    "or 'WIN i k' for a winning move that leaves pile i (0-based) with k "
                    "stones ('WIN' alone for the empty position in misère play, won "
                    "already).  Piles may have up to 100,000 digits.")
    _add_file(p)
    p.add_argument("--misere", action="store_true",
                   help="misère play: whoever takes the last stone loses")
    p.set_defaults(run=cmd_nim)

    p = sub.add_parser(
        "police", help="police and thief on a board: who wins from the start",
        description="Read 'n m' then n rows of m cells ('.' free, '*' blocked, 'P' police, "
                    "'T' thief, 'E' exit, any number of them) and print 'Police catches "
                    "the thief', 'The thief escapes' or 'Draw'.  The police moves first, in "
                    "8 directions; the thief in 4; either may pass.")
    _add_file(p)
    p.add_argument("--explain", action="store_true",
                   help="also print the remoteness and the line of play, board by board")
    _add_save(p, "the solution (every position)")
    _add_plot(p, "the board: the outcome for the police from every cell, the thief on its "
                 "start cell, the police to move")
    _add_threads(p)
    _add_max_memory(p)
    p.set_defaults(run=cmd_police)

    p = sub.add_parser(
        "octal", help="nim-values of a take-and-break game",
        description="Print G(0..N) of a take-and-break game on one line.  CODE is an "
                    "octal code such as 0.137, hex:CODE for a hexadecimal code, 'grundy' "
                    "(Grundy's game) or sub:1,3,4 (a subtraction game).")
    p.add_argument("code", metavar="CODE")
    p.add_argument("n", metavar="N")
    p.add_argument("--period", action="store_true",
                   help="also print the proved period: 'period P preperiod E proved-at K'")
    p.add_argument("--misere-quotient", metavar="H",
                   help="also print the misère quotient of the sums of heaps up to H: its "
                        "presentation, its P-positions and each heap's element")
    p.add_argument("--into", metavar="FILE",
                   help="compute the values into FILE (a .npy file, FILE.json beside it "
                        "says how far it got) instead of printing them; saved every 30 s "
                        "and on Ctrl-C, and run again with the same FILE it goes on "
                        "from there")
    _add_save(p, "the game, its values and any proved period")
    _add_plot(p, "the nim-sequence G(0..N), its proved period marked")
    _add_threads(p)
    _add_max_memory(p)
    p.set_defaults(run=cmd_octal)

    p = sub.add_parser(
        "query", help="answer from a saved solution (--save, or sol.save in Python)",
        description="Answer questions from FILE, saved by --save (or by save() in Python), "
                    "without solving again or reading the whole file: one line per POSITION, "
                    "the POSITION as given and then 'OUTCOME remoteness move' (move: the "
                    "position the best move leads to, '-' for none).  POSITION: a vertex "
                    "number or name for a graph; PR,PC/TR,TC/police|thief for police and "
                    "thief (the two cells, row,column from 0, and who is to move); a Python "
                    "literal such as (1,2) for a game from its rules; 'start' for a game's "
                    "start.  For a take-and-break game, N or N+M+... (a sum of heaps): "
                    "'POSITION G WIN|LOSS'; for loopy values 'POSITION VALUE OUTCOME' (VALUE "
                    "a number or inf{K}).  Without POSITION: what the file holds.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("positions", metavar="POSITION", nargs="*")
    p.add_argument("--no-verify", action="store_true",
                   help="skip the CRC check of the file's arrays (instant on a huge file; a "
                        "damaged byte inside them then goes unnoticed)")
    _add_max_memory(p)
    p.set_defaults(run=cmd_query)

    p = sub.add_parser(
        "play", help="play a game against the perfect opponent, in the terminal",
        description="Play against the perfect opponent.  Each turn shows the position, "
                    "whose turn it is and its value with perfect play (move counts include "
                    "both players' moves).  At the prompt '> ' type a move (its number in "
                    "the list, or the game's own syntax: see 'help') or a command: hint, "
                    "undo (your last move and the reply), moves, help, quit.  The computer "
                    "answers with an optimal move: the winner hurries, the loser delays.  "
                    "Moves are read line by line from standard input, so a game can be "
                    "scripted: printf '2\\n1\\n' | grundy play nim 1 2.",
        epilog="Exit status: 0 when the game is over, after 'quit', or at the end of "
               "input (Ctrl-D); 2 bad input or a game too large to play; 130 "
               "interrupted (Ctrl-C).")
    games = p.add_subparsers(dest="game", metavar="GAME", title="games")
    games.required = True
    q = games.add_parser(
        "police", help="police and thief on a board (you choose a side)",
        description="Play police and thief on BOARD (a file: 'n m', then n rows of '.' "
                    "free, '*' blocked, 'P', 'T', 'E' exits).  The police moves first, to "
                    "any of 8 neighbouring cells (n, ne, e, se, s, sw, w, nw), the thief to "
                    "4 (n, e, s, w); either may pass.  A board larger than 78 x 20 is shown "
                    "through a window around the pieces.")
    q.add_argument("board", metavar="BOARD", help="the board file")
    q.add_argument("--as", dest="side", choices=("police", "thief"), default="police",
                   help="your side (default: police, who moves first)")
    _add_max_memory(q)
    q.set_defaults(run=cmd_play)
    q = games.add_parser(
        "nim", help="Nim on the given piles",
        description="Play Nim: take any number of stones from one pile.  Type 'PILE "
                    "COUNT' to take COUNT stones from pile PILE (piles numbered from 1 as "
                    "shown), or a move's number.")
    q.add_argument("piles", metavar="PILE", nargs="+", help="pile sizes")
    _add_play_options(q, "misère play: whoever takes the last stone loses")
    q = games.add_parser(
        "octal", help="a take-and-break game on heaps of N",
        description="Play a take-and-break game (CODE as for 'grundy octal': 0.137, "
                    "hex:CODE, grundy, sub:1,3,4) on heaps of sizes N...  Type 'HEAP "
                    "COUNT' to take COUNT tokens from a heap leaving one heap, 'HEAP -> A "
                    "B' for the heaps it becomes, or a move's number.")
    q.add_argument("code", metavar="CODE")
    q.add_argument("heaps", metavar="N", nargs="+", help="heap sizes")
    _add_play_options(q, "misère play: whoever makes the last move loses")
    q = games.add_parser(
        "game", help="any game with start() and moves(position), from Python",
        description="Play the game MODULE:CLASS (imported with the current directory on "
                    "the path) or FILE.py:CLASS: CLASS() with no arguments must give a "
                    "grundy.Game (start(), moves(position), optionally primitive, canonical "
                    "and render(position) -> str) or a grundy.BatchGame.  Moves are listed "
                    "as the positions they lead to.")
    q.add_argument("spec", metavar="MODULE:CLASS")
    _add_play_options(q, "a position with no move is a win for the player to move")
    return parser
