"""The ``grundy`` command line: competitive-programming style stdin/stdout solvers.

The solving subcommands (graph, nim, police, octal) read FILE (or standard
input), solve, and print plain text; ``--save`` keeps a solution, ``query``
answers from a saved one, ``--plot`` draws a picture, and ``play`` plays
against the perfect opponent, reading moves from standard input.  A long
solve shows a progress bar when standard error is a terminal (with tqdm,
the ``grundy[progress]`` extra).  Every failure is one line on stderr,
``grundy: error: <message>``, and an exit status: 2 for bad input or a
refused computation (too much memory), 1 when the output cannot be
written, 130 after Ctrl-C.

This module imports only the standard library at import time; the solvers
are imported inside :func:`main`, so that Ctrl-C or a broken installation
during the imports is reported like any other failure.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from grundy._version import __version__

if TYPE_CHECKING:
    from grundy.engine.graph import GameGraph

EXIT_INPUT = 2          # bad input, or a computation refused
EXIT_OUTPUT = 1         # the output could not be written
EXIT_INTERRUPTED = 130  # Ctrl-C


class InputError(ValueError):
    """Malformed command-line input."""


class OutputError(Exception):
    """The output could not be written (a full disk, a closed stream...)."""


def _read_input(path: str | None) -> bytes:
    if path is None or path == "-":
        if sys.stdin is None:
            raise InputError("standard input is closed: give a FILE to read")
        try:
            return sys.stdin.buffer.read()
        except OSError as exc:
            raise InputError(f"cannot read standard input: {exc.strerror or exc}") from None
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise InputError(f"cannot read {path!r}: {exc.strerror or exc}") from None


def _write(data: bytes | bytearray | memoryview) -> None:
    """Write bytes (or a bytes-like object) to standard output."""
    if sys.stdout is None:
        raise OutputError("standard output is closed")
    try:
        sys.stdout.buffer.write(data)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write the output: {exc.strerror or exc}") from None


def _count(text: str, name: str) -> int:
    """A non-negative integer given on the command line (ASCII digits only)."""
    from grundy._common import shorten

    if not re.fullmatch(r"[0-9]+", text, re.ASCII):
        raise InputError(f"{name} must be a non-negative integer (digits 0-9), "
                         f"got {shorten(text, 40)}")
    return int(text)


# -- grundy graph ------------------------------------------------------------

def read_graph(data: bytes, *, one_based: bool = False,
               max_memory: int | None = None) -> GameGraph:
    """Parse ``n m`` then m lines ``u v`` into a GameGraph."""
    from grundy._common import check_memory
    from grundy._core import textio
    from grundy.engine.graph import GameGraph, build_bytes, graph_solve_bytes
    import numpy as np

    count = textio.count_tokens(data)
    check_memory(8 * count, max_memory, f"reading {count:,} numbers")
    tokens = textio.parse_ints(data, 2, tokens=count)
    if len(tokens) == 0:
        raise InputError("empty input: expected 'n m' on the first line")
    n, m = int(tokens[0]), int(tokens[1])
    first_line = textio.token_line(data, 0)                # the line of 'n m'
    if n < 0 or m < 0:
        raise InputError(f"line {first_line}: n and m must be >= 0, got 'n m' = '{n} {m}'")
    given = (len(tokens) - 2) // 2
    if given != m:
        raise InputError(f"the first line announces m = {m} edges, but {given} edge lines follow")
    # The whole run at its peak: the numbers read, the graph and its
    # building, the solve, and the output text (26 bytes a vertex at most).
    check_memory(8 * len(tokens) + build_bytes(n, m) + graph_solve_bytes(n, m) + 26 * n, max_memory,
                 f"a graph with n = {n:,} positions and m = {m:,} moves")
    edges = tokens[2:].reshape(m, 2)
    if one_based:
        edges -= 1
    bad = np.flatnonzero(((edges < 0) | (edges >= n)).any(axis=1))
    if bad.size:
        i = int(bad[0])
        base = 1 if one_based else 0
        u, v = (int(x) + base for x in edges[i])
        valid = f"{base}..{n - 1 + base}" if n else "none (n = 0)"
        line = textio.token_line(data, 2 + 2 * i)
        raise InputError(f"edge {i + 1} (line {line}) = '{u} {v}': vertices must be in "
                         f"{valid}{' (--one-based)' if one_based else ''}")
    return GameGraph.from_edges(edges, n=n, max_memory=max_memory)


def _cmd_graph(args: argparse.Namespace) -> None:
    from grundy._core import textio
    from grundy.engine.graph import GameGraph

    data = _read_input(args.file)
    if args.format == "edges":
        if args.one_based:
            raise InputError("--one-based applies to --format nm only (the vertices of "
                             "an edge list are names)")
        g = GameGraph.parse_edges(data, max_memory=args.max_memory)
    else:
        g = read_graph(data, one_based=args.one_based, max_memory=args.max_memory)
    labels = None if args.labels is None else \
        read_labels(_read_input(args.labels), g, named=args.format == "edges",
                    one_based=args.one_based, path=args.labels)
    sol = g.solve(misere=args.misere, labels=labels, max_memory=args.max_memory,
                  progress=_progress(), threads=args.threads)
    _save(sol, args.save)
    text = textio.format_outcomes(sol.outcome, sol.remoteness)
    if args.format == "edges":
        # Echo the names: "name WIN r", in order of first appearance.
        text = b"".join(str(name).encode("utf-8") + b" " + line + b"\n"
                        for name, line in zip(g.positions, bytes(text).splitlines()))
    _write(text)


def read_labels(data: bytes, graph: GameGraph, *, named: bool, one_based: bool = False,
                path: str = "the labels") -> dict[object, int]:
    """Parse lines ``position OUTCOME`` (WIN, LOSS or TIE) into solve()'s labels.

    Positions are vertex numbers (1-based with ``one_based``), or names
    when ``named``; blank lines and lines starting with ``#`` are skipped.
    """
    from grundy._common import Outcome, shorten

    labels: dict[object, int] = {}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    for lineno, line in enumerate(text.split("\n"), 1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) != 2 or fields[1] not in ("WIN", "LOSS", "TIE"):
            raise InputError(f"{path}, line {lineno}: expected 'position WIN|LOSS|TIE', got "
                             f"{shorten(line.strip(), 40)}")
        position: object = fields[0]
        if not named:
            number = _count(fields[0], f"{path}, line {lineno}: the position")
            position = number - 1 if one_based else number
        try:
            index = graph.index(position)
        except ValueError:
            raise InputError(f"{path}, line {lineno}: {shorten(fields[0], 40)} is not a "
                             f"position of the graph") from None
        labels[graph.position(index)] = int(Outcome[fields[1]])
    return labels


# -- grundy nim --------------------------------------------------------------

def _cmd_nim(args: argparse.Namespace) -> None:
    from grundy._core import textio

    data = _read_input(args.file)
    pos, line = 0, 1
    while True:
        # Chunks of answers, written as they come: memory stays small.
        answers, big, pos, line = textio.nim_lines(data, misere=args.misere, pos=pos,
                                                   first_line=line)
        if big:
            answers = _answer_big_piles(data, answers, big, args.misere)
        _write(answers)
        if pos >= len(data):
            break


# Python converts decimal text to and from ints in time quadratic in the
# digits (before 3.12): a cap keeps one line to well under a second.
MAX_PILE_DIGITS = 100_000


def _answer_big_piles(data: bytes, answers: bytes, big: list[tuple[int, int, int, int]],
                      misere: bool) -> bytes:
    """Splice in the answers of the lines with a pile of 2^64 or more
    (already checked: ASCII digits, spaces and tabs), computed exactly with
    Python integers."""
    from grundy._common import LOSS
    from grundy.impartial.nim import nim_move, nim_outcome

    parts, done = [], 0
    for lineno, offset, start, end in big:
        tokens = data[start:end].split()
        for token in tokens:
            if len(token) > MAX_PILE_DIGITS:
                raise InputError(f"line {lineno}: a pile of {len(token):,} digits; piles have "
                                 f"at most {MAX_PILE_DIGITS:,} digits")
        piles = [int(token) for token in tokens]
        move = nim_move(piles, misere=misere)
        if isinstance(move, tuple):
            answer = f"WIN {move[0]} {move[1]}\n"
        else:
            answer = "LOSS\n" if nim_outcome(piles, misere=misere) == LOSS else "WIN\n"
        parts.append(answers[done:offset])
        parts.append(answer.encode())
        done = offset
    parts.append(answers[done:])
    return b"".join(parts)


# -- grundy police -----------------------------------------------------------

def _cmd_police(args: argparse.Namespace) -> None:
    from grundy.games.police import PoliceThief

    board = PoliceThief.parse(_read_input(args.file))
    sol = board.solve(max_memory=args.max_memory, progress=_progress(), threads=args.threads)
    _save(sol, args.save)
    if args.plot is not None:
        _plot(args.plot, "police_board", sol)
    out = [sol.result]
    if args.explain:
        r = sol[sol.start].remoteness
        out.append(f"remoteness {r}" if r >= 0 else "remoteness -1 (a draw: play goes on forever)")
        for k, pos in enumerate(sol.line()):
            mover = "police" if pos.police_to_move else "thief"
            out.append("")
            out.append(f"position {k}: police {pos.police}, thief {pos.thief}, {mover} to move")
            out.append(board.render(police=pos.police, thief=pos.thief))
    _write(("\n".join(out) + "\n").encode())


# -- grundy octal -------------------------------------------------------------

def _cmd_octal(args: argparse.Namespace) -> None:
    from grundy._common import check_memory, shown_int
    from grundy.impartial.octal.game import parse_game

    n = _count(args.n, "N")
    quotient_heaps = (None if args.misere_quotient is None else
                      _count(args.misere_quotient, "--misere-quotient H"))
    game = parse_game(args.code)
    if args.into is not None:
        try:
            game.compute(n, args.into, progress=_progress(), threads=args.threads,
                         max_memory=args.max_memory)
        except OSError as exc:
            raise OutputError(f"cannot write {args.into!r}: {exc.strerror or exc}") from None
        _write(f"G(0..{n}) of {args.code} in {args.into}\n".encode())
    else:
        # The values (4 bytes each, and their copy) and the text of the output.
        check_memory(4 * (n + 1) * 3 + 12 * (n + 1), args.max_memory,
                     f"printing G(0..N) for N = {shown_int(n)}")
        values = game.values(n, progress=_progress(), max_memory=args.max_memory,
                             threads=args.threads)
        step = 1 << 20              # the text in slices: no list of n ints at once
        for start in range(0, n + 1, step):
            chunk = " ".join(map(str, values[start:start + step].tolist()))
            _write(((" " if start else "") + chunk).encode())
        _write(b"\n")
    if args.period:
        per = game.periodicity(n, threads=args.threads)
        _write((f"period {per.period} preperiod {per.preperiod} proved-at {per.proved_at}"
                if per is not None else f"no period found up to {n}").encode() + b"\n")
    if quotient_heaps is not None:
        from grundy.impartial.octal.game import misere_quotient

        quotient = misere_quotient(game, quotient_heaps, max_memory=args.max_memory)
        _write(str(quotient).encode() + b"\n")
    _save(game, args.save)
    if args.plot is not None:
        _plot(args.plot, "nim_sequence", game, n)


# -- saving, plotting, progress -------------------------------------------------

def _progress() -> bool | None:
    """progress= for the solvers: a bar (on a terminal only) when tqdm is there."""
    from grundy._progress import available

    return True if available() else None


def _save(obj: Any, path: str | None) -> None:
    """--save FILE: write what was solved (grundy.load reads it back)."""
    if path is None:
        return
    try:
        obj.save(path)
    except OSError as exc:
        raise OutputError(f"cannot save {path!r}: {exc.strerror or exc}") from None


def _plot(path: str, picture: str, *args: Any) -> None:
    """--plot FILE: draw a picture of grundy.plot into a file (its format from
    the file's extension: png, svg, pdf...)."""
    try:
        import matplotlib
    except ImportError:
        raise InputError("--plot draws with matplotlib: pip install 'grundy[plot]'") from None
    matplotlib.use("Agg")                  # a file, never a window
    import matplotlib.pyplot as plt

    from grundy import plot

    ax = getattr(plot, picture)(*args)
    try:
        ax.figure.savefig(path)
    except OSError as exc:
        raise OutputError(f"cannot write the picture {path!r}: {exc.strerror or exc}") from None
    finally:
        plt.close(ax.figure)


# -- grundy query ---------------------------------------------------------------

def _cmd_query(args: argparse.Namespace) -> None:
    from grundy import load

    try:
        saved = load(args.file, mmap=True, verify=not args.no_verify)
    except OSError as exc:
        raise InputError(f"cannot read {args.file!r}: {exc.strerror or exc}") from None
    lines = [_answer(saved, text, args.max_memory) for text in args.positions] \
        if args.positions else _summary(saved)
    _write(("\n".join(lines) + "\n").encode("utf-8", "backslashreplace"))


def _summary(saved: Any) -> list[str]:
    """What a saved file holds, when no position is asked about."""
    from grundy.engine.graph import LoopyValues
    from grundy.impartial.octal.game import TakeAndBreakGame
    from grundy.engine.solution import Solution

    if isinstance(saved, TakeAndBreakGame):
        known = saved._n
        out = [f"{saved!r}: G(0..{known - 1}) known" if known else f"{saved!r}: no values"]
        if saved._period is not None:
            p = saved._period
            out.append(f"period {p.period} preperiod {p.preperiod} proved-at {p.proved_at}")
        return out
    if isinstance(saved, LoopyValues):
        return [f"{saved!r}"]
    assert isinstance(saved, Solution)
    out = [f"{saved!r}"]
    if saved.start is not None:
        out.append(f"start {_shown(saved, saved.start)} {_evaluation(saved, saved.start)}")
    return out


def _answer(saved: Any, text: str, max_memory: int | None) -> str:
    """One line: the position as given, then what the saved file says of it."""
    from grundy._common import shorten
    from grundy.engine.graph import LoopyValues
    from grundy.impartial.octal.game import TakeAndBreakGame

    if isinstance(saved, TakeAndBreakGame):
        if not re.fullmatch(r"[0-9]+(\+[0-9]+)*", text, re.ASCII):
            raise InputError(f"{shorten(text, 40)}: a position of a take-and-break game is a "
                             f"heap size N, or heaps N+M+... (digits 0-9)")
        g = 0
        for heap in text.split("+"):
            g ^= saved.value(int(heap), max_memory=max_memory)
        return f"{text} {g} {'WIN' if g else 'LOSS'}"
    position = _position(saved, text)
    if isinstance(saved, LoopyValues):
        value = saved[position]
        shown = str(value.finite) if value.is_finite else \
            "inf{" + ",".join(map(str, sorted(value.k))) + "}"
        return f"{text} {shown} {value.outcome}"
    return f"{text} {_evaluation(saved, position)}"


def _evaluation(sol: Any, position: Any) -> str:
    """'OUTCOME remoteness move' (the move as a position, '-' for none)."""
    from grundy._common import NO_MOVE

    e = sol[position]
    move = "-" if e.move is NO_MOVE else _shown(sol, e.move)
    return f"{e.outcome} {e.remoteness} {move}"


def _shown(sol: Any, position: Any) -> str:
    """A position as 'query' reads it back."""
    from grundy.games.police import PolicePosition

    if isinstance(position, PolicePosition):
        (pr, pc), (tr, tc) = position.police, position.thief
        return f"{pr},{pc}/{tr},{tc}/{'police' if position.police_to_move else 'thief'}"
    return position if isinstance(position, str) else repr(position)


def _position(saved: Any, text: str) -> Any:
    """The position a POSITION argument names (see the query command's help)."""
    import ast

    from grundy._common import shorten
    from grundy.games.police import PolicePosition, PoliceThiefSolution

    if isinstance(saved, PoliceThiefSolution):
        if text == "start":
            return saved.start
        m = re.fullmatch(r"([0-9]+),([0-9]+)/([0-9]+),([0-9]+)/(police|thief)", text, re.ASCII)
        if m is None:
            raise InputError(f"{shorten(text, 40)}: a police position is "
                             f"PR,PC/TR,TC/police|thief (the police's and the thief's "
                             f"cells, row,column from 0, and who is to move), or 'start'")
        pr, pc, tr, tc = (int(x) for x in m.groups()[:4])
        return PolicePosition((pr, pc), (tr, tc), m.group(5) == "police")
    candidates: list[Any] = [text]
    try:
        candidates.append(ast.literal_eval(text))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        pass
    if text == "start" and getattr(saved, "start", None) is not None:
        candidates.append(saved.start)
    for candidate in candidates:
        try:
            saved.index(candidate)
        except (TypeError, ValueError):
            continue
        return candidate
    raise InputError(f"{shorten(text, 40)} is not a position of the saved "
                     f"{type(saved).__name__}")


# -- grundy play --------------------------------------------------------------

def _cmd_play(args: argparse.Namespace) -> None:
    from grundy.play import load_game, nim_table, octal_table, play, police_table, rules_table

    if sys.stdin is None:
        raise InputError("standard input is closed: the moves are read from it")
    if args.game == "police":
        if args.board == "-":
            raise InputError("give the board as a FILE: standard input is where the moves "
                             "are read")
        table = police_table(_read_input(args.board), max_memory=args.max_memory)
        human_first = args.side == "police"          # the police moves first
    elif args.game == "nim":
        table = nim_table([_count(x, "a pile") for x in args.piles], misere=args.misere)
        human_first = not args.computer_first
    elif args.game == "octal":
        table = octal_table(args.code, [_count(x, "a heap N") for x in args.heaps],
                            misere=args.misere)
        human_first = not args.computer_first
    else:
        game = load_game(args.spec)
        try:
            table = rules_table(game, misere=args.misere)
        except TypeError as exc:          # the game breaks the protocol: solve_game says how
            raise InputError(f"{args.spec}: {exc}") from None
        human_first = not args.computer_first
    play(table, human_first=human_first, input=sys.stdin, output=sys.stdout)


def _memory(text: str) -> int:
    """--max-memory: bytes, or with a K/M/G/T suffix (binary)."""
    from grundy._common import parse_size
    try:
        return parse_size(text, "--max-memory")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


# -- wiring ------------------------------------------------------------------

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
    parser.set_defaults(run=_cmd_play)


def _threads(text: str) -> int:
    """--threads: a positive integer (digits only)."""
    from grundy._common import MAX_THREADS, shorten
    if not re.fullmatch(r"[0-9]+", text, re.ASCII) or not 1 <= int(text) <= MAX_THREADS:
        raise argparse.ArgumentTypeError(f"--threads must be an integer 1..{MAX_THREADS}, "
                                         f"got {shorten(text, 40)}")
    return int(text)


def _add_threads(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--threads", type=_threads, default=None, metavar="N",
                        help="threads to solve with (default: the cores other work leaves "
                             "free; 1: one); any number gives the same output")


def _add_max_memory(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--max-memory", type=_memory, default=None, metavar="SIZE",
                        help="refuse work needing more memory than SIZE, e.g. 512M or 4G "
                             "(default: the memory available)")


class _Parser(argparse.ArgumentParser):
    """argparse, with its usage errors in the one error format."""

    def error(self, message: str) -> NoReturn:
        _error(f"{message} (see '{self.prog} --help')")
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
    p.set_defaults(run=_cmd_graph)

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
    p.set_defaults(run=_cmd_nim)

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
    p.set_defaults(run=_cmd_octal)

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
    p.set_defaults(run=_cmd_query)

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
    q.set_defaults(run=_cmd_play)
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


def _error(message: object) -> None:
    if sys.stderr is not None:
        try:
            print(f"grundy: error: {message}", file=sys.stderr)
            sys.stderr.flush()
        except (OSError, ValueError):
            pass


def _silence_stdout() -> None:
    """After an output failure, point stdout at /dev/null so that Python's
    own flush at exit does not fail (and print) a second time."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, AttributeError, ValueError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 done, 2 bad input or refused work, 1 the output could not be
        written, 130 interrupted.

    Examples
    --------
    >>> import subprocess, sys
    >>> run = subprocess.run([sys.executable, "-m", "grundy", "octal", "0.07", "5"],
    ...                      capture_output=True, text=True)
    >>> run.returncode, run.stdout
    (0, '0 0 1 1 2 0\\n')
    """
    # Nim piles of up to MAX_PILE_DIGITS digits, in and out (restored after).
    digits = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else None
    if digits is not None:
        sys.set_int_max_str_digits(0)
    try:
        return _main(argv)
    finally:
        if digits is not None:
            sys.set_int_max_str_digits(digits)


def _main(argv: Sequence[str] | None) -> int:
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:                # --help, --version, or a usage error
            if exc.code == 0 and sys.stdout is not None:
                sys.stdout.flush()               # --help > /dev/full must say so
            return exc.code if isinstance(exc.code, int) else EXIT_INPUT
        # Import the solvers here, inside the error handling (Ctrl-C included).
        import grundy.engine.graph  # noqa: F401
        args.run(args)
        if sys.stdout is not None:
            sys.stdout.flush()
    except OSError as exc:                        # flushing the output (or --help)
        if isinstance(exc, BrokenPipeError):     # the reader went away: not an error
            _silence_stdout()
            return 0
        _silence_stdout()
        _error(f"cannot write the output: {exc.strerror or exc}")
        return EXIT_OUTPUT
    except KeyboardInterrupt:
        _error("interrupted")
        return EXIT_INTERRUPTED
    except OutputError as exc:
        _silence_stdout()
        _error(exc)
        return EXIT_OUTPUT
    except MemoryError as exc:                    # MemoryLimitError: refused beforehand
        _error(str(exc) or "out of memory")
        return EXIT_INPUT
    except ValueError as exc:                     # bad input: InputError, BoardError, ...
        _error(exc)
        return EXIT_INPUT
    return 0
