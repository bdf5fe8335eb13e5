"""``grundy query FILE [POSITION ...]``: answers from a saved solution,
without solving again.
"""
from __future__ import annotations

import argparse
import re
from typing import Any

from grundy.cli.io import InputError, write_output


def cmd_query(args: argparse.Namespace) -> None:
    from grundy import load

    try:
        saved = load(args.file, mmap=True, verify=not args.no_verify)
    except OSError as exc:
        raise InputError(f"cannot read {args.file!r}: {exc.strerror or exc}") from None
    lines = [_answer(saved, text, args.max_memory) for text in args.positions] \
        if args.positions else _summary(saved)
    write_output(("\n".join(lines) + "\n").encode("utf-8", "backslashreplace"))


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
