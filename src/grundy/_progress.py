"""Progress of long work: the ``progress=`` option every long computation takes.

``progress`` is None or False (silent, the default), True (a progress bar on
standard error drawn by tqdm, the ``grundy[progress]`` extra, shown only on
a terminal and only for work lasting more than a second), or a callable
``progress(done, total)``, called about every quarter second and once at
the end.
"""
from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any, Union

import numpy as np

from grundy._common import shorten

Progress = Union[bool, Callable[[int, int], object], None]
"""The type of the ``progress=`` option."""

Report = Callable[[int, int], None]

_INTERVAL = 0.25        # seconds between two calls of a callback


def check_progress(progress: object) -> Progress:
    """``progress`` if it is None, a bool or a callable; TypeError otherwise."""
    if progress is None or isinstance(progress, bool) or callable(progress):
        return progress
    if isinstance(progress, np.bool_):
        return bool(progress)
    raise TypeError(f"progress must be True, False, None or a callable "
                    f"progress(done, total), got {shorten(progress)}")


@contextlib.contextmanager
def reporting(progress: object, what: str, unit: str = "positions"
              ) -> Iterator[Report | None]:
    """The report function of one piece of work (None: nobody listens).

    A bar is closed when the work ends, however it ends; a callback is
    told the final count (if it changed since its last call) when the work
    completes.
    """
    progress = check_progress(progress)
    if progress is None or progress is False:
        yield None
    elif progress is True:
        bar = _bar(what, unit)
        try:
            yield bar.report
        finally:
            bar.close()
    else:
        throttled = _Throttled(progress)
        yield throttled.report
        throttled.finish()


class _Throttled:
    """A user's callback, called at most every quarter second."""

    def __init__(self, callback: Callable[[int, int], object]) -> None:
        self.callback = callback
        self.next = 0.0
        self.last: tuple[int, int] | None = None
        self.pending: tuple[int, int] | None = None

    def report(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if now >= self.next:
            self.next = now + _INTERVAL
            self.last, self.pending = (done, total), None
            self.callback(done, total)
        else:
            self.pending = (done, total)

    def finish(self) -> None:
        if self.pending is not None and self.pending != self.last:
            self.callback(*self.pending)


class _Bar:
    """A tqdm bar on stderr fed with ``report(done, total)``."""

    def __init__(self, bar: Any) -> None:
        self.bar = bar

    def report(self, done: int, total: int) -> None:
        bar = self.bar
        if bar.total != total:
            bar.total = total
        if done != bar.n:
            bar.update(done - bar.n)

    def close(self) -> None:
        self.bar.close()


def _bar(what: str, unit: str) -> _Bar:
    try:
        from tqdm import tqdm
    except ImportError:
        raise ImportError("progress=True draws a bar with tqdm: pip install "
                          "'grundy[progress]' (or pass a callable progress(done, total))"
                          ) from None
    # disable=None: no bar unless stderr is a terminal; delay: none for
    # work that ends within a second.
    return _Bar(tqdm(desc=what, unit=f" {unit}", unit_scale=True, delay=1.0, disable=None,
                     leave=False, file=sys.stderr, dynamic_ncols=True))


def available() -> bool:
    """Whether progress bars can be drawn (tqdm installed)."""
    try:
        import tqdm  # noqa: F401
    except ImportError:
        return False
    return True
