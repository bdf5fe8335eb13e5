"""The solving subcommands: ``graph``, ``nim``, ``police``, ``octal`` read
FILE (or standard input), solve, and print plain text; ``--save`` keeps the
solution and ``--plot`` draws it.

The solvers are imported inside the commands (see :mod:`grundy.cli`).
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from grundy.cli.io import InputError, OutputError, parse_count, read_input, write_output

if TYPE_CHECKING:
    from grundy.engine.graph import GameGraph


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


def cmd_graph(args: argparse.Namespace) -> None:
    from grundy._core import textio
    from grundy.engine.graph import GameGraph

    data = read_input(args.file)
    if args.format == "edges":
        if args.one_based:
            raise InputError("--one-based applies to --format nm only (the vertices of "
                             "an edge list are names)")
        g = GameGraph.parse_edges(data, max_memory=args.max_memory)
    else:
        g = read_graph(data, one_based=args.one_based, max_memory=args.max_memory)
    labels = None if args.labels is None else \
        read_labels(read_input(args.labels), g, named=args.format == "edges",
                    one_based=args.one_based, path=args.labels)
    sol = g.solve(misere=args.misere, labels=labels, max_memory=args.max_memory,
                  progress=progress_option(), threads=args.threads)
    save_to(sol, args.save)
    text = textio.format_outcomes(sol.outcome, sol.remoteness)
    if args.format == "edges":
        # Echo the names: "name WIN r", in order of first appearance.
        text = b"".join(str(name).encode("utf-8") + b" " + line + b"\n"
                        for name, line in zip(g.positions, bytes(text).splitlines()))
    write_output(text)


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
            number = parse_count(fields[0], f"{path}, line {lineno}: the position")
            position = number - 1 if one_based else number
        try:
            index = graph.index(position)
        except ValueError:
            raise InputError(f"{path}, line {lineno}: {shorten(fields[0], 40)} is not a "
                             f"position of the graph") from None
        labels[graph.position(index)] = int(Outcome[fields[1]])
    return labels


# -- grundy nim --------------------------------------------------------------

def cmd_nim(args: argparse.Namespace) -> None:
    from grundy._core import textio

    data = read_input(args.file)
    pos, line = 0, 1
    while True:
        # Chunks of answers, written as they come: memory stays small.
        answers, big, pos, line = textio.nim_lines(data, misere=args.misere, pos=pos,
                                                   first_line=line)
        if big:
            answers = _answer_big_piles(data, answers, big, args.misere)
        write_output(answers)
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
        if isinstance(move, tuple):          # the piles after it: name the pile it reduces
            pile = next(i for i, (x, y) in enumerate(zip(piles, move)) if x != y)
            answer = f"WIN {pile} {move[pile]}\n"
        else:
            answer = "LOSS\n" if nim_outcome(piles, misere=misere) == LOSS else "WIN\n"
        parts.append(answers[done:offset])
        parts.append(answer.encode())
        done = offset
    parts.append(answers[done:])
    return b"".join(parts)


# -- grundy police -----------------------------------------------------------

def cmd_police(args: argparse.Namespace) -> None:
    from grundy.games.police import PoliceThief

    board = PoliceThief.parse(read_input(args.file))
    sol = board.solve(max_memory=args.max_memory, progress=progress_option(), threads=args.threads)
    save_to(sol, args.save)
    if args.plot is not None:
        plot_to(args.plot, "police_board", sol)
    out = [sol.result]
    if args.explain:
        r = sol[sol.start].remoteness
        out.append(f"remoteness {r}" if r >= 0 else "remoteness -1 (a draw: play goes on forever)")
        for k, pos in enumerate(sol.line()):
            mover = "police" if pos.police_to_move else "thief"
            out.append("")
            out.append(f"position {k}: police {pos.police}, thief {pos.thief}, {mover} to move")
            out.append(board.render(police=pos.police, thief=pos.thief))
    write_output(("\n".join(out) + "\n").encode())


# -- grundy octal -------------------------------------------------------------

def cmd_octal(args: argparse.Namespace) -> None:
    from grundy._common import check_memory, shown_int
    from grundy.impartial.octal.game import parse_game

    n = parse_count(args.n, "N")
    quotient_heaps = (None if args.misere_quotient is None else
                      parse_count(args.misere_quotient, "--misere-quotient H"))
    game = parse_game(args.code)
    if args.into is not None:
        try:
            game.compute(n, args.into, progress=progress_option(), threads=args.threads,
                         max_memory=args.max_memory)
        except OSError as exc:
            raise OutputError(f"cannot write {args.into!r}: {exc.strerror or exc}") from None
        write_output(f"G(0..{n}) of {args.code} in {args.into}\n".encode())
    else:
        # The values (4 bytes each, and their copy) and the text of the output.
        check_memory(4 * (n + 1) * 3 + 12 * (n + 1), args.max_memory,
                     f"printing G(0..N) for N = {shown_int(n)}")
        values = game.nim_sequence(n, progress=progress_option(), max_memory=args.max_memory,
                                   threads=args.threads)
        step = 1 << 20              # the text in slices: no list of n ints at once
        for start in range(0, n + 1, step):
            chunk = " ".join(map(str, values[start:start + step].tolist()))
            write_output(((" " if start else "") + chunk).encode())
        write_output(b"\n")
    if args.period:
        per = game.periodicity(n, threads=args.threads)
        write_output((f"period {per.period} preperiod {per.preperiod} proved-at {per.proved_at}"
                if per is not None else f"no period found up to {n}").encode() + b"\n")
    if quotient_heaps is not None:
        from grundy.impartial.octal.game import misere_quotient

        quotient = misere_quotient(game, quotient_heaps, max_memory=args.max_memory)
        write_output(str(quotient).encode() + b"\n")
    save_to(game, args.save)
    if args.plot is not None:
        plot_to(args.plot, "nim_sequence", game, n)


# -- saving, plotting, progress -------------------------------------------------

def progress_option() -> bool | None:
    """progress= for the solvers: a bar (on a terminal only) when tqdm is there."""
    from grundy._progress import available

    return True if available() else None


def save_to(obj: Any, path: str | None) -> None:
    """--save FILE: write what was solved (grundy.load reads it back)."""
    if path is None:
        return
    try:
        obj.save(path)
    except OSError as exc:
        raise OutputError(f"cannot save {path!r}: {exc.strerror or exc}") from None


def plot_to(path: str, picture: str, *args: Any) -> None:
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
