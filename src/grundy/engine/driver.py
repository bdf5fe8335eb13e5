"""The one Python driver around the compiled engine: every solve goes through it.

:func:`solve_states` solves every position of a compiled ``MoveSource``
(an explicit graph's CSR plug-in, police and thief, a user's plug-in): it
estimates the memory and refuses it before anything is allocated, gives the
engine one state byte and a narrow remoteness a position (2 bytes, solved
again with 4 if a remoteness passes 65535), turns the engine's statuses
into exceptions and reports progress.  :func:`best_moves` and
:func:`wide_remoteness` turn its arrays into the int64 ones a solution
shows.

Examples
--------
>>> import numpy as np
>>> from grundy._core.csr import CSRSource
>>> src = CSRSource(np.array([0, 1, 2, 2]), np.array([1, 2]))      # 0 -> 1 -> 2
>>> outcome, rem = solve_states(src)
>>> outcome.tolist(), rem.tolist(), best_moves(src, outcome, rem).tolist()
([-1, 1, -1], [2, 1, 0], [1, 2, -1])
"""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from grundy._common import INT64_MAX, Int64Array, check_memory, queue_limit_error, readonly
from grundy._core import retrograde as _retro
from grundy._progress import Progress, reporting

__all__ = ["solve_states", "solve_bytes", "best_moves", "answers", "wide_remoteness",
           "Remoteness", "NARROW_MAX"]

Remoteness = npt.NDArray[np.uint16] | npt.NDArray[np.int32]
"""The compact remoteness of a solve: uint16, or int32 past 65535 (0 at draws)."""

NARROW_MAX = 65535
"""The largest remoteness the compact uint16 holds; past it, int32."""


def solve_bytes(n: int, remoteness_bytes: int = 2, fixed: int = 0,
                allowance: int | None = None) -> int:
    """Bytes a solve of n positions takes at its peak: a state byte and the
    remoteness a position, the caller's own ``fixed`` bytes, and a queue of
    ``allowance`` ids (default: a sixty-fourth of the positions; a queue
    that outgrows what is left stops the solve with a MemoryLimitError).

    >>> solve_bytes(10 ** 6) > 3 * 10 ** 6
    True
    """
    allowance = n // 64 if allowance is None else allowance
    return n * (1 + remoteness_bytes) + fixed + int(_retro.queue_bytes(allowance))


def solve_states(source: Any, *, misere: bool = False, max_memory: int | None = None,
                 fixed_bytes: int = 0, allowance: int | None = None,
                 what: str = "solving the game", progress: Progress = None,
                 threads: int = 1) -> tuple[npt.NDArray[np.int8], Remoteness]:
    """The outcome (int8) and compact remoteness (0 at draws) of every
    position of a compiled source, both read-only.

    ``fixed_bytes``: what the caller holds (or will allocate) besides the
    solve's own arrays, counted against ``max_memory``; ``what`` names the
    work in a refusal.  Raises MemoryLimitError when the solve would need
    more than ``max_memory`` (before its arrays are allocated, or when its
    queue outgrows what is left), ValueError for a source breaking its
    contract, KeyboardInterrupt on Ctrl-C.

    >>> from grundy._core.csr import CSRSource
    >>> solve_states(CSRSource(np.array([0, 0]), np.array([])), misere=True)[0].tolist()
    [1]
    """
    n = source.n_positions
    limit = check_memory(solve_bytes(n, 2, fixed_bytes, allowance), max_memory, what)
    state = np.empty(n, dtype=np.uint8)
    remoteness: Remoteness
    for dtype, width in ((np.uint16, 2), (np.int32, 4)):
        if width == 4:
            # A remoteness above 65535: solve again with int32 (if it fits).
            check_memory(solve_bytes(n, 4, fixed_bytes, allowance), max_memory,
                         f"{what}, whose remoteness exceeds 65535 and needs 32 bits,")
        remoteness = np.empty(n, dtype=dtype)
        fixed = solve_bytes(n, width, fixed_bytes, 0) - int(_retro.queue_bytes(0))
        with reporting(progress, "solving") as report:
            status = _retro.solve(source, state, remoteness, misere,
                                  max_queue_bytes=min(limit - fixed, INT64_MAX),
                                  progress=report, threads=threads)
            if report is not None and status == "ok":
                report(n, n)                    # done
        if status == "ok":
            break
        if status == "memory limit":
            raise queue_limit_error(what, fixed + int(_retro.queue_bytes(n)), limit, fixed,
                                    max_memory)
        del remoteness
    else:                       # pragma: no cover - needs a remoteness past 2^31
        raise ValueError(f"{what}: a remoteness exceeds 2^31 - 1")
    # The outcome is the state array itself, reinterpreted: both read-only.
    return readonly(state).view(np.int8), readonly(remoteness)


def wide_remoteness(outcome: npt.NDArray[np.int8], remoteness: Remoteness,
                    threads: int = 1) -> Int64Array:
    """The int64 remoteness a solution shows (-1 at draws), read-only.

    >>> wide_remoteness(np.array([1, 0], np.int8), np.array([3, 0], np.uint16)).tolist()
    [3, -1]
    """
    out = np.empty(len(outcome), dtype=np.int64)
    _retro.widen(outcome, remoteness, out, threads)
    return readonly(out)


def best_moves(source: Any, outcome: npt.NDArray[np.int8], remoteness: Remoteness,
               start: int = 0, stop: int | None = None, threads: int = 1) -> Int64Array:
    """The best moves of the positions start..stop-1 (default: all): each
    one's first optimal successor in the source's order (-1 where the game
    is over), from a solve's arrays.

    >>> from grundy._core.csr import CSRSource
    >>> src = CSRSource(np.array([0, 2, 2]), np.array([1, 1]))
    >>> best_moves(src, *solve_states(src)).tolist()
    [1, -1]
    """
    stop = len(outcome) if stop is None else stop
    move = np.empty(stop - start, dtype=np.int64)
    _retro.best_moves(source, outcome, remoteness, start, stop, move, threads=threads)
    return move


def answers(source: Any, outcome: npt.NDArray[np.int8], remoteness: Remoteness,
            threads: int = 1) -> tuple[Int64Array, Int64Array]:
    """The int64 remoteness (-1 at draws) and best moves of every position,
    in one pass (as :func:`wide_remoteness` and :func:`best_moves`), read-only.

    >>> from grundy._core.csr import CSRSource
    >>> src = CSRSource(np.array([0, 1, 1]), np.array([1]))
    >>> [a.tolist() for a in answers(src, *solve_states(src))]
    [[1, 0], [1, -1]]
    """
    n = len(outcome)
    wide = np.empty(n, dtype=np.int64)
    move = np.empty(n, dtype=np.int64)
    _retro.best_moves(source, outcome, remoteness, 0, n, move, threads=threads, wide=wide)
    return readonly(wide), readonly(move)
