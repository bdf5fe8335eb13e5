"""The ``grundy`` command line: competitive-programming style stdin/stdout solvers.

Each subcommand reads FILE (or standard input), solves, and prints plain
text.  Bad input prints ``grundy: error: <message>`` on stderr and exits 2.
"""
import argparse
import sys
import time

import numpy as np

from grundy import __version__
from grundy.graph import GameGraph
from grundy.nim import nim_move, nim_outcome
from grundy.octal import parse_game
from grundy.police import DEFAULT_MAX_MEMORY, PoliceThief
from grundy._common import LOSS
from grundy._core import textio


class InputError(ValueError):
    """Malformed command-line input."""


def _read_input(path):
    if path is None or path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise InputError(f"cannot read {path!r}: {exc.strerror or exc}") from None


# -- grundy graph ------------------------------------------------------------

def read_graph(data, one_based=False):
    """Parse ``n m`` then m lines ``u v`` into a GameGraph."""
    tokens = textio.parse_ints(data, 2)
    if len(tokens) == 0:
        raise InputError("empty input: expected 'n m' on the first line")
    n, m = int(tokens[0]), int(tokens[1])
    if n < 0 or m < 0:
        raise InputError(f"first line: n and m must be >= 0, got 'n m' = '{n} {m}'")
    given = (len(tokens) - 2) // 2
    if given != m:
        raise InputError(f"the first line announces m = {m} edges, but {given} edge lines follow")
    edges = tokens[2:].reshape(m, 2)
    if one_based:
        edges = edges - 1
    bad = np.flatnonzero(((edges < 0) | (edges >= n)).any(axis=1))
    if bad.size:
        i = int(bad[0])
        base = 1 if one_based else 0
        u, v = (int(x) + base for x in edges[i])
        valid = f"{base}..{n - 1 + base}" if n else "none (n = 0)"
        raise InputError(f"edge {i + 1} (line {i + 2}) = '{u} {v}': vertices must be in "
                         f"{valid}{' (--one-based)' if one_based else ''}")
    return GameGraph.from_edges(edges, n=n)


def _cmd_graph(args):
    data = _read_input(args.file)
    if args.format == "edges":
        if args.one_based:
            raise InputError("--one-based applies to --format nm only (the vertices of "
                             "an edge list are names)")
        g = GameGraph.parse_edges(data)
    else:
        g = read_graph(data, one_based=args.one_based)
    sol = g.solve(misere=args.misere)
    text = textio.format_outcomes(sol.outcome, sol.remoteness)
    if args.format == "edges":
        # Echo the names: "name WIN r", in order of first appearance.
        names = "\n".join(g.nodes).encode("utf-8").split(b"\n") if len(g.nodes) else []
        text = b"".join(name + b" " + line + b"\n"
                        for name, line in zip(names, text.splitlines()))
    sys.stdout.buffer.write(text)


# -- grundy nim --------------------------------------------------------------

def _cmd_nim(args):
    data = _read_input(args.file)
    answers, big = textio.nim_lines(data, misere=args.misere)
    if big:
        answers = _answer_big_piles(data, answers, big, args.misere)
    sys.stdout.buffer.write(answers)


def _answer_big_piles(data, answers, big, misere):
    """Splice in the answers of the lines with a pile of 2^64 or more
    (already checked: ASCII digits, spaces and tabs), computed exactly with
    Python integers."""
    lines = data.split(b"\n")
    parts, done = [], 0
    for lineno, offset in big:
        piles = [int(token) for token in lines[lineno - 1].split()]
        move = nim_move(piles, misere=misere)
        if move is not None:
            answer = f"WIN {move[0]} {move[1]}\n"
        else:
            answer = "LOSS\n" if nim_outcome(piles, misere=misere) == LOSS else "WIN\n"
        parts.append(answers[done:offset])
        parts.append(answer.encode())
        done = offset
    parts.append(answers[done:])
    return b"".join(parts)


# -- grundy police -----------------------------------------------------------

def _cmd_police(args):
    board = PoliceThief.parse(_read_input(args.file))
    sol = board.solve(max_memory=args.max_memory)
    out = [sol.result]
    if args.explain:
        r = sol.remoteness(board.police, board.thief, True)
        out.append(f"remoteness {r}" if r >= 0 else "remoteness -1 (a draw: play goes on forever)")
        for k, st in enumerate(sol.line()):
            mover = "police" if st.police_to_move else "thief"
            out.append("")
            out.append(f"state {k}: police {st.police}, thief {st.thief}, {mover} to move")
            out.append(board.render(st.police, st.thief))
    sys.stdout.write("\n".join(out) + "\n")


# -- grundy octal -------------------------------------------------------------

class _ProgressBar:
    """A progress bar on stderr, for runs that last more than a second."""

    def __init__(self):
        self.start = time.perf_counter()
        self.shown = False

    def __call__(self, done, total):
        if time.perf_counter() - self.start < 1.0 or not sys.stderr.isatty():
            return
        width = 40
        filled = width * done // max(total, 1)
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done:,}/{total:,}")
        sys.stderr.flush()
        self.shown = True

    def close(self):
        if self.shown:
            sys.stderr.write("\n")


def _cmd_octal(args):
    try:
        n = int(args.n)
    except ValueError:
        raise InputError(f"N must be an integer, got {args.n!r}") from None
    if n < 0:
        raise InputError(f"N must be >= 0, got {n}")
    game = parse_game(args.code)
    bar = _ProgressBar()
    try:
        values = game.values(n, progress=bar)
    finally:
        bar.close()
    out = [" ".join(map(str, values.tolist()))]
    if args.period:
        per = game.periodicity(n)
        out.append(f"period {per.period} preperiod {per.preperiod} proved-at {per.proved_at}"
                   if per is not None else f"no period found up to {n}")
    sys.stdout.write("\n".join(out) + "\n")


def _memory(text):
    """--max-memory: bytes, or with a K/M/G suffix (binary)."""
    units = {"K": 2 ** 10, "M": 2 ** 20, "G": 2 ** 30}
    t = text.strip().upper().removesuffix("B").removesuffix("I")
    scale = units.get(t[-1:], 1)
    try:
        value = float(t[:-1] if t[-1:] in units else t) * scale
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid memory size {text!r} (e.g. 2G, 512M)") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"memory size must be positive, got {text!r}")
    return int(value)


# -- wiring ------------------------------------------------------------------

def _add_file(parser):
    parser.add_argument("file", nargs="?", help="input file (default: standard input)")


def build_parser():
    parser = argparse.ArgumentParser(
        prog="grundy",
        description="Solve two-player games exactly.  Each command reads FILE (or "
                    "standard input) and prints plain text; 'grundy COMMAND --help' "
                    "tells more.")
    parser.add_argument("--version", action="version", version=f"grundy {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    sub.required = True

    p = sub.add_parser(
        "graph", help="win/loss/draw and remoteness of every vertex of a game graph",
        description="Read a game graph and print one line per vertex: 'WIN r', 'LOSS r' "
                    "or 'DRAW -1' (r = remoteness).  --format nm (the default): 'n m', then "
                    "m lines 'u v' (a move u -> v, vertices 0..n-1).  --format edges: one "
                    "move 'u v' or 'u,v' per line, vertices named by any text without "
                    "spaces or commas ('#' starts a comment line); each output line then "
                    "starts with the vertex name, in order of first appearance.")
    _add_file(p)
    p.add_argument("--format", choices=("nm", "edges"), default="nm",
                   help="input format (default: nm)")
    p.add_argument("--misere", action="store_true",
                   help="a position with no move is a WIN (default: LOSS)")
    p.add_argument("--one-based", action="store_true", help="vertices are numbered 1..n")
    p.set_defaults(run=_cmd_graph)

    p = sub.add_parser(
        "nim", help="who wins a Nim position, and a winning move",
        description="Read one Nim position per line (pile sizes separated by spaces; a "
                    "blank line is the empty position) and print 'LOSS', or 'WIN i k' for "
                    "a winning move that leaves pile i (0-based) with k stones ('WIN' alone for the "
                    "empty position in misère play, won already).")
    _add_file(p)
    p.add_argument("--misere", action="store_true",
                   help="misère play: whoever takes the last stone loses")
    p.set_defaults(run=_cmd_nim)

    p = sub.add_parser(
        "police", help="police and thief on a board: who wins from the start",
        description="Read 'n m' then n rows of m cells ('.' free, '*' blocked, 'P' police, "
                    "'T' thief, 'E' exit) and print 'Police catches the thief', 'The thief "
                    "escapes' or 'Draw'.  The police moves first, in 8 directions; the thief "
                    "in 4; either may pass.")
    _add_file(p)
    p.add_argument("--explain", action="store_true",
                   help="also print the remoteness and the line of play, board by board")
    p.add_argument("--max-memory", type=_memory, default=DEFAULT_MAX_MEMORY, metavar="SIZE",
                   help="refuse boards needing more memory than this (default 4G)")
    p.set_defaults(run=_cmd_police)

    p = sub.add_parser(
        "octal", help="nim-values of a take-and-break game",
        description="Print G(0..N) of a take-and-break game on one line.  CODE is an "
                    "octal code such as 0.137, hex:CODE for a hexadecimal code, 'grundy' "
                    "(Grundy's game) or sub:1,3,4 (a subtraction game).")
    p.add_argument("code", metavar="CODE")
    p.add_argument("n", metavar="N")
    p.add_argument("--period", action="store_true",
                   help="also print the proved period: 'period P preperiod E proved-at K'")
    p.set_defaults(run=_cmd_octal)
    return parser


def main(argv=None):
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)        # piles of any size, in and out
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        args.run(args)
    except (ValueError, TypeError, OverflowError) as exc:
        print(f"grundy: error: {exc}", file=sys.stderr)
        return 2
    except MemoryError as exc:
        print(f"grundy: error: out of memory{': ' + str(exc) if str(exc) else ''}",
              file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("grundy: interrupted", file=sys.stderr)
        return 130
    return 0
