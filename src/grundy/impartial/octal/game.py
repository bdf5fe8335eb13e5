"""Take-and-break games: octal and hexadecimal codes, Grundy's game,
subtraction games; their nim-sequences, and periodicity proved.

``value(n)`` is the Grundy value G(n) of one heap, ``values(heaps)`` those
of many heaps, ``nim_sequence(n)`` the sequence G(0..n) (int64, whatever
the values), ``outcome_of(heaps)`` who wins a sum of heaps.

Examples
--------
>>> dawson = OctalGame("0.137")          # Dawson's chess (crosses-crosses)
>>> dawson.nim_sequence(15).tolist()
[0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5]
>>> dawson.periodicity()
Periodicity(preperiod=52, period=34, proved_at=174)
>>> dawson.value(10 ** 100), dawson.value(10 ** 100 + 1)
(0, 3)
"""
from __future__ import annotations

import functools
import operator
import os
import re
import threading
import time
from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from grundy._common import (LOSS, WIN, Int64Array, Outcome, check_bool, check_count,
                            check_int, check_memory, check_threads, is_integer, readonly,
                            shorten, shown_int, usable_cores)
from grundy._core import octal as _octal
from grundy._progress import Progress, Report, check_progress, reporting
from grundy.engine.store import FileFormatError, check_path, need, save
from grundy.impartial.octal import disk, period, rules, stats
from grundy.impartial.octal.misere import MisereSearch, heap_list
from grundy.impartial.octal.period import Periodicity
from grundy.impartial.octal.quotient import MisereQuotient, learn
from grundy.impartial.octal.stats import RareCommon, best_mask

__all__ = ["OctalGame", "HexGame", "GrundysGame", "SubtractionGame", "TakeAndBreakGame",
           "parse_game", "misere_quotient"]

_AUTO_MASK_SAMPLE = 1 << 13


class TakeAndBreakGame:
    """A heap game given by take-and-break rules (the common base class).

    Values are cached: asking for more extends what is known.  The game may
    be shared by threads (its cache is locked).

    Parameters
    ----------
    name : str
        A name for the game (its code).
    take0, take1, take2, take3 : iterable of int
        The numbers k of tokens a move may take: ``take0`` the whole heap of
        exactly k (k >= 1), ``take1`` leaving one non-empty heap (k >= 1),
        ``take2`` leaving two non-empty heaps, ``take3`` leaving three.
    unequal : bool, default False
        The two heaps of a split must differ.

    Raises
    ------
    TypeError, ValueError
        For a rule that is not a collection of integers in range.

    Examples
    --------
    >>> kayles = TakeAndBreakGame("kayles", take0=[1, 2], take1=[1, 2], take2=[1, 2])
    >>> kayles.nim_sequence(8).tolist()
    [0, 1, 2, 3, 1, 4, 3, 2, 1]
    """

    def __init__(self, name: str, *, take0: Iterable[int] = (), take1: Iterable[int] = (),
                 take2: Iterable[int] = (), take3: Iterable[int] = (),
                 unequal: bool = False) -> None:
        self.name = name
        # take0/take1 move to a smaller heap only if they take at least one
        # token; take2/take3 may take none (d0 = 4 or 8: split only).
        self._rules = tuple(rules.rule_array(r, f"take{i}", minimum) for i, r, minimum in
                            zip(range(4), (take0, take1, take2, take3), (1, 1, 0, 0)))
        self._unequal = check_bool(unequal, "unequal")
        # One lock per game: threads sharing it see one consistent cache.
        self._lock = threading.RLock()
        self._G = np.zeros(1024, dtype=np.uint32)
        self._n = 0                       # G[0:_n] is known
        self._kept = _octal.ExtendState()  # what the kernels keep between calls on _G
        self._mask: int | None = None    # the automatic mask (0: none), chosen at
        self._mask_at = 0                 # this many values known
        self._period: Periodicity | None = None   # a proved Periodicity, once found
        self._searched_to = -1            # no period is provable from G[0:_searched_to]
        # Misère outcomes of the sums of heaps decided so far, kept.
        self._misere = MisereSearch(self, self.options, splits=self.max_heaps > 1)

    # -- the rules ------------------------------------------------------------

    @property
    def max_take(self) -> int:
        """t: the largest number of tokens a move removes.

        Examples
        --------
        >>> OctalGame("0.137").max_take
        3
        """
        return max((int(r.max()) for r in self._rules if len(r)), default=0)

    @property
    def max_heaps(self) -> int:
        """The most heaps a move can leave (1 for subtraction games).

        Examples
        --------
        >>> OctalGame("0.137").max_heaps, SubtractionGame({1, 2}).max_heaps
        (2, 1)
        """
        return 3 if len(self._rules[3]) else 2 if len(self._rules[2]) else 1

    @property
    def splits(self) -> bool:
        """True if some move splits a heap into two (the sparse kernel applies).

        Examples
        --------
        >>> GrundysGame().splits, SubtractionGame({1, 2}).splits
        (True, False)
        """
        return len(self._rules[2]) > 0 and len(self._rules[3]) == 0

    def options(self, n: int) -> list[tuple[int, ...]]:
        """The heaps a move from one heap of ``n`` tokens can leave.

        Each option is a sorted tuple of the non-empty heaps left (``()``
        when the move takes the whole heap), listed once, the options in
        sorted order.  The rules are those of :meth:`nim_sequence`: ``take0``
        removes a heap of exactly k, ``take1`` leaves one heap, ``take2``
        two (unequal ones if the game says so), ``take3`` three.  A heap of
        n has O(n) options, O(n^2) with three-heap moves.

        Parameters
        ----------
        n : int
            The heap size, >= 0.

        Returns
        -------
        list of tuple of int

        Raises
        ------
        TypeError
            If ``n`` is not an integer.
        ValueError
            If ``n`` is negative.

        Examples
        --------
        >>> OctalGame("0.77").options(4)                # Kayles: take 1 or 2, maybe split
        [(1, 1), (1, 2), (2,), (3,)]
        >>> GrundysGame().options(6), SubtractionGame({2}).options(2)
        ([(1, 5), (2, 4)], [()])
        """
        return rules.options(self._rules, self._unequal, check_count(n, "n"))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    # -- values -----------------------------------------------------------------

    def nim_sequence(self, n: int, *, kernel: str = "auto", mask: int | None = None,
                     progress: Progress = None, max_memory: int | None = None,
                     threads: int | None = None) -> Int64Array:
        """The nim-sequence G(0), G(1), ..., G(n): the value of every heap up to n.

        (For the values of chosen heap sizes, :meth:`values`.)

        Ctrl-C stops the run with KeyboardInterrupt and keeps every value
        computed before it.

        Parameters
        ----------
        n : int
            The last heap size.
        kernel : {"auto", "sparse", "plain"}
            "auto": the sparse-space kernel for splitting games, with an
            automatically chosen mask unless ``mask`` is given: the first
            2^13 values come from the plain scan; then :func:`best_mask` of
            the values known is used, chosen again each time they double
            (the plain scan while no mask leaves at most a quarter rare).
            All kernels give identical values.
        mask : int, optional
            The rare/common mask of the sparse kernel (1..2^32-1).
        progress : bool or callable, optional
            True draws a progress bar on a terminal (the ``grundy[progress]``
            extra); a callable is called as ``progress(done, total)`` about
            every quarter second (done: the values known).
        max_memory : int, optional
            Bytes the values may take (default: the memory available).
        threads : int, optional
            Threads for the kernels (default: the cores other work leaves
            free; at most every core the process may use; 1: the serial
            kernels).  They work on
            consecutive heap sizes at once; small heaps, and games that never
            split a heap, are computed serially.  Any number gives the same
            values.

        Returns
        -------
        numpy.ndarray
            int64, read-only, n + 1 values.

        Raises
        ------
        TypeError, ValueError
            For a bad argument.
        MemoryLimitError
            If the values would need more than ``max_memory``.

        Examples
        --------
        >>> SubtractionGame({2, 3, 7}).nim_sequence(9).tolist()
        [0, 0, 1, 1, 2, 0, 0, 1, 1, 2]
        >>> import numpy as np
        >>> np.array_equal(GrundysGame().nim_sequence(20000, threads=1),
        ...                GrundysGame().nim_sequence(20000, threads=2))
        True
        """
        n = check_count(n, "n")
        if kernel not in ("auto", "sparse", "plain"):
            raise ValueError(f"kernel must be 'auto', 'sparse' or 'plain', got {shorten(kernel)}")
        if mask is not None:
            mask = check_count(mask, "mask", minimum=1, maximum=0xFFFFFFFF)
        check_progress(progress)
        threads = check_threads(threads)
        if kernel == "sparse" and not self.splits:
            raise ValueError(f"the sparse kernel needs a game that splits heaps into two; "
                             f"{shorten(self)} does not")
        with self._lock, reporting(progress, f"G(n) of {shorten(self, 30)}",
                                   unit="values") as report:
            self._extend(n + 1, kernel, mask, report, max_memory, extra_bytes=8 * (n + 1),
                         threads=threads)
            return readonly(self._G[:n + 1].astype(np.int64))

    def _extend(self, stop: int, kernel: str, mask: int | None, progress: Report | None,
                max_memory: int | None = None, extra_bytes: int = 0,
                threads: int = 1) -> None:
        if stop <= self._n:
            return
        if len(self._G) < stop:
            size = stop if stop > 2 * len(self._G) else 2 * len(self._G)
            check_memory(4 * (size + len(self._G)) + extra_bytes, max_memory,
                         f"the values G(0..n) of {shorten(self)} for n = {shown_int(stop - 1)}")
            bigger = np.zeros(size, dtype=np.uint32)
            bigger[:self._n] = self._G[:self._n]
            self._G = bigger
        take0, take1, take2, take3 = self._rules
        sparse = kernel == "sparse" or (kernel == "auto" and self.splits)
        threads = min(threads, usable_cores())      # more could only wait for each other
        chunk, total = 256, stop
        while self._n < stop:
            hi = min(stop, self._n + chunk)
            use = mask
            if sparse and use is None:
                if self._n < _AUTO_MASK_SAMPLE:
                    # The automatic mask is chosen from these plain-scan values.
                    hi = min(hi, _AUTO_MASK_SAMPLE)
                else:
                    use = self._auto_mask()
            t0 = time.perf_counter()
            try:
                if sparse and use is not None:
                    _octal.sparse_extend(self._G, self._n, hi, take0, take1, take2,
                                         self._unequal, use, threads, state=self._kept)
                else:
                    _octal.plain_extend(self._G, self._n, hi, take0, take1, take2, take3,
                                        self._unequal, threads, state=self._kept)
            except BaseException as exc:
                # Ctrl-C inside the kernel: keep the values it finished.
                reached = getattr(exc, "reached", None)
                if isinstance(reached, int) and self._n <= reached <= hi:
                    self._n = reached
                raise
            self._n = hi
            dt = time.perf_counter() - t0
            # Chunks of about 0.25 s, at most doubling: a value costs more
            # as n grows, so one fast chunk must not launch a huge one.
            chunk = max(64, min(2 * chunk, 1 << 20, int(chunk * (0.25 / dt if dt > 0 else 2))))
            if progress is not None:
                progress(self._n, total)

    def _auto_mask(self) -> int | None:
        """The mask for the next values, or None for the plain scan: the one
        that makes fewest of the values known rare (see :func:`best_mask`),
        re-chosen each time the values known have doubled."""
        if self._mask is None or self._n >= 2 * self._mask_at:
            self._mask = best_mask(self._G[:self._n]) or 0
            self._mask_at = self._n
        return self._mask or None

    def value(self, n: int, *, max_memory: int | None = None,
              threads: int | None = None) -> int:
        """G(n) for any n >= 0.

        From the proved period once one is known (a period search up to
        2^16 is tried before computing far values).

        Parameters
        ----------
        n : int
            The heap size, of any size once a period is proved.
        max_memory : int, optional
            Bytes the values may take (default: the memory available).
        threads : int, optional
            Threads for the kernels, as in :meth:`nim_sequence`.

        Returns
        -------
        int

        Raises
        ------
        TypeError, ValueError
            If ``n`` is not an integer >= 0.
        MemoryLimitError
            If the values up to n would need more than ``max_memory``.

        Examples
        --------
        >>> GrundysGame().value(20)
        0
        """
        n = check_int(n, "n", 0)                # any size: a proved period reduces it
        threads = check_threads(threads)
        with self._lock:
            where = self._known([n], max_memory, threads)     # may replace self._G
            return int(self._G[where[0]])

    def values(self, heaps: Iterable[int], *, max_memory: int | None = None,
               threads: int | None = None) -> Int64Array:
        """G(h) for each heap size h of ``heaps``, as :meth:`value` gives it.

        The values of positions, as on every impartial game; for the
        nim-sequence G(0..n), :meth:`nim_sequence`.

        Parameters
        ----------
        heaps : iterable of int
            Heap sizes (each >= 0, of any size once a period is proved).
        max_memory : int, optional
            Bytes the values may take (default: the memory available).
        threads : int, optional
            Threads for the kernels, as in :meth:`nim_sequence`.

        Returns
        -------
        numpy.ndarray
            int64, read-only, one value per heap.

        Raises
        ------
        TypeError
            If ``heaps`` is a single integer (the hint names
            :meth:`nim_sequence`) or holds a non-integer.
        ValueError
            If a heap is negative.
        MemoryLimitError
            If the values would need more than ``max_memory``.

        Examples
        --------
        >>> OctalGame("0.137").values([20, 3, 10 ** 100]).tolist()   # Dawson's chess
        [0, 2, 0]
        """
        given: Any = heaps
        if isinstance(given, np.ndarray) and given.ndim == 0:
            given = given[()]                   # a 0-d array is its one number
        if is_integer(given):
            raise TypeError(f"values() takes heap sizes (an iterable), got the integer "
                            f"{shown_int(int(given))}; the nim-sequence G(0..n) is "
                            f"nim_sequence(n)")
        sizes = heap_list(heaps)
        threads = check_threads(threads)
        with self._lock:
            where = self._known(sizes, max_memory, threads)    # may replace self._G
            return readonly(self._G[where].astype(np.int64))

    def _known(self, sizes: list[int], max_memory: int | None, threads: int) -> Int64Array:
        """Where the values of the heaps ``sizes`` are in ``self._G``: each
        size itself, or its equivalent under the proved period (a period
        search up to 2^16 is tried before computing far values); every one
        computed.  Called with the lock held."""
        if not sizes:
            return np.zeros(0, dtype=np.int64)
        if self._period is None and max(sizes) >= max(self._n, period.DEFAULT_SEARCH):
            self.periodicity(max_memory=max_memory, threads=threads)
        if self._period is not None:
            e, p = self._period.preperiod, self._period.period
            sizes = [n if n < e else e + (n - e) % p for n in sizes]
        self._extend(max(sizes) + 1, "auto", None, None, max_memory, threads=threads)
        return np.array(sizes, dtype=np.int64)

    # -- sums of heaps ------------------------------------------------------------

    def outcome_of(self, heaps: int | Iterable[int], *, misere: bool = False,
                   max_memory: int | None = None) -> Outcome:
        """Who wins a sum of heaps of this game, the player to move or not.

        Normal play (the player who cannot move loses): WIN exactly when
        G(h1) ^ G(h2) ^ ... != 0, for heaps of any size (from the proved
        period where there is one).  Misère play (the player who makes the
        last move loses) has no such shortcut: the outcome comes from every
        position the sum can reach, searched exhaustively (sums of heaps,
        in any order, heaps with no move dropped), each decided once and
        kept by the game for later calls.  That is exact, and exponential
        in the total: a sum of total 50 takes seconds.

        Parameters
        ----------
        heaps : int or iterable of int
            One heap, or the heaps of the sum (each >= 0).
        misere : bool, default False
            Misère play.
        max_memory : int, optional
            Bytes the misère search may take (default: the memory
            available); about 200 bytes a position, counted before it
            starts from a bound on the positions the sum can reach.

        Returns
        -------
        Outcome
            WIN or LOSS, for the player to move.

        Raises
        ------
        TypeError, ValueError
            For heaps that are not integers >= 0.
        MemoryLimitError
            If the misère search may need more than ``max_memory``.

        Examples
        --------
        >>> kayles = OctalGame("0.77")
        >>> kayles.outcome_of([1, 2]), kayles.outcome_of([1, 2], misere=True)
        (WIN, WIN)
        >>> kayles.outcome_of(4), kayles.outcome_of(4, misere=True)   # G(4) = 1
        (WIN, LOSS)
        >>> nim = SubtractionGame({1, 2, 3})                      # Nim, heaps up to 3
        >>> nim.outcome_of([1, 1, 1], misere=True), nim.outcome_of([2, 2], misere=True)
        (LOSS, LOSS)
        """
        sizes = heap_list(heaps)
        misere = check_bool(misere, "misere")
        if not misere:
            nim_sum = functools.reduce(operator.xor, self.values(sizes, max_memory=max_memory)
                                       .tolist(), 0)
            return WIN if nim_sum else LOSS
        return self._misere.outcome_of(sizes, max_memory)

    def misere_quotient(self, n: int, *, max_order: int = 2000,
                        max_memory: int | None = None) -> MisereQuotient:
        """The misère quotient of the sums of heaps up to ``n``, proved for
        every sum: see :func:`grundy.misere_quotient`.

        Parameters
        ----------
        n : int
            The largest heap size, >= 0.
        max_order : int, default 2000
            Refuse quotients with more elements.
        max_memory : int, optional
            Bytes it may take (default: the memory available).

        Returns
        -------
        MisereQuotient

        Raises
        ------
        QuotientTooLarge
            If the quotient has more than ``max_order`` elements.
        MemoryLimitError
            If it may need more than ``max_memory``.
        TypeError, ValueError
            For a bad ``n`` or ``max_order``.

        Examples
        --------
        >>> q = OctalGame("0.75").misere_quotient(10)
        >>> q.order, q.presentation()
        (8, '< a, b, c | a^2 = 1, bc = ab, c^2 = b^2, b^3 = b >')
        """
        n = check_count(n, "n")
        max_order = check_count(max_order, "max_order", 1)
        return learn(self, self._misere, [len(r) for r in self._rules], n, max_order, max_memory)

    # -- values on disk -------------------------------------------------------------

    def compute(self, n: int, path: str | os.PathLike[str], *, progress: Progress = None,
                threads: int | None = None, every: float = 30.0,
                max_memory: int | None = None) -> int:
        """G(0..n) computed into a file, so that a long run can be stopped and resumed.

        The values go to ``path``, a numpy ``.npy`` file of uint32 (memory
        mapped: a run to 2^26 needs 256 MiB of disk, not of memory), and
        what is known to ``path + ".json"``: the game, how many values are
        final, and their CRC-32.  Every ``every`` seconds, and when the run
        stops however it stops (Ctrl-C included), the values are flushed to
        disk and the record updated.  Called again with the same file, it
        checks that the file is this game's and that the values known match
        their CRC, and goes on from there (n may be larger than before).
        Afterwards the game reads its values from the file (asking it for
        values past the file's end copies them to memory, as usual).
        Two processes must not compute into one file at once.

        Parameters
        ----------
        n : int
            The last heap size.
        path : str or os.PathLike
            The values file (created if it does not exist).
        progress : bool or callable, optional
            As in :meth:`nim_sequence` (done: the values known, from the file's).
        threads : int, optional
            Threads for the kernels, as in :meth:`nim_sequence`.
        every : float, default 30
            Seconds between saves (> 0).
        max_memory : int, optional
            Bytes of memory the kernels may take besides the file (default:
            the memory available).

        Returns
        -------
        int
            The number of values known: n + 1, or more if the file held more.

        Raises
        ------
        TypeError, ValueError
            For a bad argument, or a file of another game, damaged or
            truncated (:class:`grundy.FileFormatError`).
        MemoryLimitError
            If the disk has not room for the values (the file's space is
            reserved when it is created or grown).
        KeyboardInterrupt
            On Ctrl-C, once the values computed are saved.

        Examples
        --------
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "grundy.npy")
        >>> GrundysGame().compute(1000, path)
        1001
        >>> GrundysGame().compute(2000, path)                   # goes on from 1001
        2001
        >>> g = GrundysGame()
        >>> g.compute(2000, path), g.value(1999)               # nothing left to compute
        (2001, 31)
        >>> import numpy as np
        >>> np.load(path, mmap_mode="r")[:12].tolist()
        [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2]
        """
        n = check_count(n, "n")
        given = check_path(path)
        check_progress(progress)
        threads = check_threads(threads)
        if isinstance(every, bool) or not isinstance(every, (int, float)):
            raise TypeError(f"every must be a number of seconds, got {shorten(every)}")
        if not every > 0:
            raise ValueError(f"every must be > 0 seconds, got {shorten(every)}")
        record = given + ".json"
        me = self._identity()
        with self._lock:
            known, crc = 0, 0
            if os.path.exists(record):
                known, crc = disk.read_record(record, me, FileFormatError)
                if known and not os.path.exists(given):
                    raise FileFormatError(given, f"missing: its record "
                                          f"{os.path.basename(record)!r} says {known:,} "
                                          f"values were computed into it")
            elif os.path.exists(given):
                raise FileFormatError(given, f"no record {os.path.basename(record)!r} of the "
                                      f"values in it: not a file compute() wrote")
            else:
                # The record first: a run stopped at once leaves a file it resumes.
                disk.write_record(record, me, 0, 0)
            G = disk.open_values(given, n + 1, known, crc, FileFormatError)
            # The values this game knows and the file does not go to the file.
            if self._n > known:
                top = min(self._n, len(G))
                G[known:top] = self._G[known:top]
                crc = disk.crc32(G, known, top, crc)
                known = top
            self._G, self._n = G, known
            done = known

            def save() -> None:
                nonlocal done, crc
                G.flush()
                reached = self._n
                new_crc = disk.crc32(G, done, reached, crc)
                disk.write_record(record, me, reached, new_crc)
                done, crc = reached, new_crc

            save()
            with reporting(progress, f"G(n) of {shorten(self, 30)}", unit="values") as report:
                def to_total(count: int, _stop: int) -> None:
                    if report is not None:
                        report(count, n + 1)

                step = 1 << 12
                try:
                    while self._n < n + 1:
                        t0 = last = time.monotonic()
                        while self._n < n + 1 and last - t0 < every:
                            stop = min(n + 1, self._n + step)
                            self._extend(stop, "auto", None, to_total, max_memory,
                                         threads=threads)
                            # Steps of about a second, to look at the clock.
                            now = time.monotonic()
                            step = max(1 << 12, min(2 * step, int(step / max(now - last,
                                                                               1e-3))))
                            last = now
                        save()
                finally:
                    save()
            return self._n

    # -- saving -----------------------------------------------------------------

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the rules, the values known so far and a proved period to a file.

        :func:`grundy.load` gives back a game that knows them (asking for
        more values extends them as usual).  The format is that of
        :mod:`grundy.engine.store`, written atomically.

        Parameters
        ----------
        path : str or os.PathLike
            The file to write (replaced if it exists; ``.npz`` by custom).

        Raises
        ------
        OSError
            If the file cannot be written.

        Examples
        --------
        >>> import grundy, os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "kayles.npz")
        >>> game = OctalGame("0.77")
        >>> _ = game.nim_sequence(100)
        >>> game.save(path)
        >>> back = grundy.load(path)
        >>> back, back.value(10 ** 9), back.periodicity()
        (OctalGame('0.77'), 1, Periodicity(preperiod=71, period=12, proved_at=167))
        """
        save(self, path)

    def _saved(self) -> tuple[str, Any, dict[str, npt.NDArray[Any]]]:
        with self._lock:
            data = dict(self._identity(),
                        period=None if self._period is None else list(self._period))
            return "take-and-break", data, {"values": self._G[:self._n].copy()}

    def _identity(self) -> dict[str, Any]:
        """What names the game in a saved file and in a values file's record:
        its class (one :func:`grundy.load` rebuilds), name and rules."""
        kind = type(self).__name__
        return {"class": kind if kind in _SAVED_CLASSES else "TakeAndBreakGame",
                "name": self.name, "rules": [r.tolist() for r in self._rules],
                "unequal": self._unequal}

    @classmethod
    def _from_saved(cls, data: Any, arrays: dict[str, npt.NDArray[Any]]) -> TakeAndBreakGame:
        kind, name, saved_rules = data["class"], data["name"], data["rules"]
        if kind == "OctalGame":
            game: TakeAndBreakGame = OctalGame(name)
        elif kind == "HexGame":
            game = HexGame(name)
        elif kind == "GrundysGame":
            game = GrundysGame()
        elif kind == "SubtractionGame":
            game = SubtractionGame(saved_rules[0])
        elif kind == "TakeAndBreakGame":
            game = TakeAndBreakGame(name, take0=saved_rules[0], take1=saved_rules[1],
                                    take2=saved_rules[2], take3=saved_rules[3],
                                    unequal=data["unequal"])
        else:
            raise ValueError(f"unknown game class {shorten(kind)}")
        if [r.tolist() for r in game._rules] != saved_rules or game._unequal != data["unequal"]:
            raise ValueError(f"the saved rules of {shorten(name)} are not those of its code")
        values = need(arrays, "values", np.uint32)
        saved = data["period"]
        proved = None
        if saved is not None:
            if not (isinstance(saved, list) and len(saved) == 3):
                raise ValueError(f"the period is {shorten(saved)}, not [preperiod, period, "
                                 f"proved_at]")
            proved = Periodicity(*(check_count(x, "period") for x in saved))
            period.check(proved, values, game.max_heaps, game.max_take, game._unequal)
        game._G = np.zeros(max(1024, len(values)), dtype=np.uint32)
        game._G[:len(values)] = values
        game._n = len(values)
        game._period = proved
        return game

    # -- periodicity ------------------------------------------------------------

    def periodicity(self, n_max: int | None = None, *, max_memory: int | None = None,
                    threads: int | None = None) -> Periodicity | None:
        """The period proved from G(0..n_max), or None.

        A period p with preperiod e is proved by the periodicity theorem
        (Guy-Smith): if G(n + p) = G(n) for e <= n < 2e + p + t (t the
        largest number taken), it holds for all n >= e.  Moves leaving three
        heaps need e <= n < 3e + 2p + t; subtraction games e <= n < e + t;
        games whose splits must be unequal (Grundy's game) 2e + 2p + t.
        Values are computed in doubling steps up to n_max, so a short
        period is found early; when the period that would be proved with
        the fewest values needs fewer than the next step, values are
        computed just up to there.  The search itself is linear in the
        values (for each period, the preperiod comes from the Z-function
        of the values read backwards).

        Parameters
        ----------
        n_max : int, optional
            The most values to compute (default 2^16).
        max_memory : int, optional
            Bytes the values may take (default: the memory available).
        threads : int, optional
            Threads for the kernels, as in :meth:`nim_sequence`.

        Returns
        -------
        Periodicity or None

        Raises
        ------
        TypeError, ValueError
            If ``n_max`` is not an integer >= 0.
        MemoryLimitError
            If the values would need more than ``max_memory``.

        Examples
        --------
        >>> SubtractionGame({2, 3, 7}).periodicity()
        Periodicity(preperiod=0, period=5, proved_at=11)
        >>> OctalGame("0.6").periodicity(4096) is None       # Officers: no period known
        True
        """
        threads = check_threads(threads)
        with self._lock:
            return self._periodicity(n_max, max_memory, threads)

    def _periodicity(self, n_max: int | None, max_memory: int | None,
                     threads: int = 1) -> Periodicity | None:
        if self._period is not None:
            return self._period
        n_max = period.DEFAULT_SEARCH if n_max is None else check_count(n_max, "n_max")

        def values(size: int) -> npt.NDArray[np.uint32]:
            self._extend(size, "auto", None, None, max_memory, threads=threads)
            return self._G[:size]

        def unproved(size: int) -> None:
            self._searched_to = size

        self._period = period.search(values, heaps=self.max_heaps, max_take=self.max_take,
                                     unequal=self._unequal, n_max=n_max, max_memory=max_memory,
                                     searched_to=self._searched_to, unproved=unproved)
        return self._period

    # -- statistics ---------------------------------------------------------------

    def rare_common(self, mask: int, *, n: int | None = None,
                    max_memory: int | None = None) -> RareCommon:
        """Rare/common statistics of G(0..n).

        Parameters
        ----------
        mask : int
            1..2^32-1: a value v is rare when popcount(v & mask) is even.
        n : int, optional
            The last heap size (default: the values known).
        max_memory : int, optional
            Bytes the values may take (default: the memory available).

        Returns
        -------
        RareCommon

        Raises
        ------
        TypeError, ValueError
            For a bad mask or n.
        MemoryLimitError
            If the values would need more than ``max_memory``.

        Examples
        --------
        >>> rc = GrundysGame().rare_common(0xFFFFFFFE, n=1000)
        >>> rc.rare_count, rc.rare_values
        (..., (0, 1, ...))
        """
        mask = check_count(mask, "mask", minimum=1, maximum=0xFFFFFFFF)
        if n is not None:
            n = check_count(n, "n")
        with self._lock:
            last = self._n - 1 if n is None and self._n else (n or 0)
            G = self.nim_sequence(last, max_memory=max_memory).astype(np.uint32)
        return stats.rare_common(G, mask)


# The classes a saved game is rebuilt as (any other: a TakeAndBreakGame of its rules).
_SAVED_CLASSES = ("OctalGame", "HexGame", "GrundysGame", "SubtractionGame", "TakeAndBreakGame")


class OctalGame(TakeAndBreakGame):
    """An octal game "d0.d1d2...": digit d_k says how k tokens may be taken.

    Bit 1: the whole heap of exactly k; bit 2: leaving one heap; bit 4:
    leaving two heaps; d0 is 0 or 4 (4: split a heap in two).

    Parameters
    ----------
    code : str
        Such as ``"0.137"`` (Dawson's chess) or ``"4.7"``.

    Raises
    ------
    TypeError
        If ``code`` is not a string.
    ValueError
        If it is not an octal code.

    Examples
    --------
    >>> OctalGame("0.77").nim_sequence(11).tolist()         # Kayles
    [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    """

    def __init__(self, code: str) -> None:
        take0, take1, take2, take3 = rules.parse_code(code, 8)
        super().__init__(code, take0=take0, take1=take1, take2=take2, take3=take3)


class HexGame(TakeAndBreakGame):
    """A hexadecimal game: as octal, with digits up to F (bit 8: leave three heaps).

    Parameters
    ----------
    code : str
        Such as ``"0.3F"``.

    Raises
    ------
    TypeError
        If ``code`` is not a string.
    ValueError
        If it is not a hexadecimal code.

    Examples
    --------
    >>> HexGame("0.3F").nim_sequence(8).tolist()
    [0, 1, 2, 0, 1, 2, 3, 4, 5]
    """

    def __init__(self, code: str) -> None:
        take0, take1, take2, take3 = rules.parse_code(code, 16)
        super().__init__(code, take0=take0, take1=take1, take2=take2, take3=take3)


class GrundysGame(TakeAndBreakGame):
    """Grundy's game: split a heap into two unequal non-empty heaps.

    Examples
    --------
    >>> GrundysGame().nim_sequence(12).tolist()
    [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1]
    """

    def __init__(self) -> None:
        super().__init__("grundy", take2=[0], unequal=True)

    def __repr__(self) -> str:
        return "GrundysGame()"


class SubtractionGame(TakeAndBreakGame):
    """Take s tokens from a heap, for s in a finite set S of positive integers.

    Parameters
    ----------
    subtraction_set : iterable of int
        The numbers of tokens a move may take (each >= 1).

    Attributes
    ----------
    subtraction_set : frozenset of int

    Raises
    ------
    TypeError, ValueError
        For a member that is not an integer >= 1.

    Examples
    --------
    >>> SubtractionGame({1, 3, 4}).nim_sequence(7).tolist()
    [0, 1, 0, 1, 2, 3, 2, 0]
    """

    def __init__(self, subtraction_set: Iterable[int]) -> None:
        if isinstance(subtraction_set, (str, bytes)) or not hasattr(subtraction_set, "__iter__"):
            raise TypeError(f"the subtraction set must be a set of integers, "
                            f"got {shorten(subtraction_set)}")
        s: set[int] = set()
        for x in subtraction_set:
            s.add(check_count(x, "a subtraction set member", minimum=1))
        self.subtraction_set = frozenset(s)
        super().__init__("sub:" + ",".join(map(str, sorted(s))), take0=s, take1=s)

    def __repr__(self) -> str:
        return f"SubtractionGame({set(sorted(self.subtraction_set))})"


def parse_game(spec: str) -> TakeAndBreakGame:
    """A game from its command-line name: an octal code, 'hex:CODE',
    'grundy' or 'sub:1,3,4'."""
    if not isinstance(spec, str):
        raise TypeError(f"a game is named by a string, got {shorten(spec)}")
    s = spec.strip()
    if s.lower() == "grundy":
        return GrundysGame()
    if s.lower().startswith("sub:"):
        parts = [p.strip() for p in s[4:].split(",")]
        if not all(re.fullmatch(r"[0-9]+", p, re.ASCII) for p in parts):
            raise ValueError(f"{shorten(spec)}: a subtraction set is 'sub:' and integers "
                             f"(digits 0-9) separated by commas, such as sub:1,3,4")
        return SubtractionGame([int(p) for p in parts])
    if s.lower().startswith("hex:"):
        return HexGame(s[4:])
    return OctalGame(s)


def misere_quotient(game: TakeAndBreakGame, n: int, *, max_order: int = 2000,
                    max_memory: int | None = None) -> MisereQuotient:
    """The misère quotient of ``game`` for the sums of heaps up to ``n``.

    Plambeck and Siegel's quotient: sums of heaps modulo
    indistinguishability.  The answer is exact: it gives the misère outcome
    of every sum of heaps <= n, of any size.

    How: a candidate is learned from misère outcomes of sums (computed by
    exhaustive search, as :meth:`TakeAndBreakGame.outcome_of` does), in the
    manner of Angluin's L*: sums are told apart by their outcomes when test
    sums are added to them, and the candidate's states are the classes so
    found.  The candidate is then proved by a finite check (the closure of
    (element, elements-with-a-P-option) pairs over every sum; see
    ``_check_options``).  A failed check, or heaps whose products do not
    commute, names a sum where the candidate goes wrong; it yields a new
    test sum and the candidate is learned again.  Elements are told apart
    only by true outcomes, so the result is the quotient itself, not a
    larger monoid that maps onto it.

    Parameters
    ----------
    game : TakeAndBreakGame
    n : int
        The largest heap size, >= 0.
    max_order : int, default 2000
        Refuse quotients with more elements (wild games can have huge or
        infinite quotients).
    max_memory : int, optional
        Bytes it may take (default: the memory available): checked for the
        heaps' options before it starts, and for the searches' positions,
        the table and the check's pairs as each grows (each against the
        whole limit).

    Returns
    -------
    MisereQuotient

    Raises
    ------
    QuotientTooLarge
        If the quotient has more than ``max_order`` elements.
    MemoryLimitError
        If the options, a misère search, the table or the check may need
        more than ``max_memory``.
    TypeError, ValueError
        For a game that is not a take-and-break game, a bad ``n`` or
        ``max_order``.

    Examples
    --------
    >>> q = misere_quotient(OctalGame("0.75"), 12)
    >>> [q.words[x] for x in q.heap_elements]
    ['1', 'a', 'b', 'a', 'b', 'c', 'b', 'c', 'b', 'ab^2', 'b', 'ab^2', 'b']
    """
    if not isinstance(game, TakeAndBreakGame):
        raise TypeError(f"game must be a TakeAndBreakGame, got {shorten(game)}")
    return game.misere_quotient(n, max_order=max_order, max_memory=max_memory)
