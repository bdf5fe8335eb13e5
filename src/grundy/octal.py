"""Take-and-break games: octal and hexadecimal codes, Grundy's game,
subtraction games; their nim-sequences, and periodicity proved.

``value(n)`` is the Grundy value G(n) of one heap, ``values(n)`` the
sequence G(0..n) (int64, whatever the values).

Examples
--------
>>> dawson = OctalGame("0.137")          # Dawson's chess (crosses-crosses)
>>> dawson.values(15).tolist()
[0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5]
>>> dawson.periodicity()
Periodicity(preperiod=52, period=34, proved_at=174)
>>> dawson.value(10 ** 100), dawson.value(10 ** 100 + 1)
(0, 3)
"""
from __future__ import annotations

import errno
import json
import os
import re
import shutil
import threading
import time
import zlib
from collections.abc import Iterable
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from grundy._common import (LOSS, WIN, Int64Array, MemoryLimitError, Outcome, check_bool,
                            check_count, check_int, check_memory, check_threads, format_bytes,
                            readonly, shorten, shown_int, usable_cores)
from grundy._core import octal as _octal
from grundy._progress import Progress, Report, check_progress, reporting
from grundy.misere import MisereQuotient, heap_list, misere_quotient, misere_search

__all__ = ["OctalGame", "HexGame", "GrundysGame", "SubtractionGame", "TakeAndBreakGame",
           "Periodicity", "RareCommon", "best_mask"]



class Periodicity(NamedTuple):
    """G(n + period) = G(n) for every n >= preperiod, proved by the
    periodicity theorem from the values G(0..proved_at).

    Examples
    --------
    >>> SubtractionGame({1, 2}).periodicity()
    Periodicity(preperiod=0, period=3, proved_at=4)
    """

    preperiod: int
    period: int
    proved_at: int


class RareCommon(NamedTuple):
    """Rare/common split of G(0..n) for a mask.

    A value v is rare when popcount(v & mask) is even.

    Attributes
    ----------
    mask, n : int
        The mask and the last heap size looked at.
    rare_count : int
        How many G(k), k <= n, are rare.
    rare_positions : numpy.ndarray
        int64: the k with G(k) rare.
    last_rare : int
        The largest of them, or -1.
    rare_values : tuple of int
        The distinct rare values seen.
    max_value, max_at : int
        The largest G(k), first reached at ``max_at``.

    Examples
    --------
    >>> GrundysGame().rare_common(0xFFFFFFFE, n=100).last_rare
    93
    """

    mask: int
    n: int
    rare_count: int
    rare_positions: Int64Array
    last_rare: int
    rare_values: tuple[int, ...]
    max_value: int
    max_at: int

DEFAULT_PERIOD_SEARCH = 1 << 16
_AUTO_MASK_SAMPLE = 1 << 13


def _rule_array(rule: Iterable[int], name: str, minimum: int) -> Int64Array:
    """A move rule (the numbers k of tokens taken) as a sorted int64 array."""
    if isinstance(rule, (str, bytes)) or not hasattr(rule, "__iter__"):
        raise TypeError(f"{name} must be a collection of integers, got {shorten(rule)}")
    ks = set()
    for k in rule:
        ks.add(check_count(k, f"{name} member", minimum=minimum))
    return np.array(sorted(ks), dtype=np.int64)


def _rare(values: npt.ArrayLike, mask: int) -> npt.NDArray[np.bool_]:
    """Boolean array: popcount(v & mask) is even (xor-folded parity, any numpy)."""
    x = np.asarray(values, dtype=np.uint32) & np.uint32(mask)
    for shift in (16, 8, 4, 2, 1):
        x = x ^ (x >> np.uint32(shift))
    even: npt.NDArray[np.bool_] = (x & np.uint32(1)) == 0
    return even


# Masks over the low bits of the values are tried exhaustively (2^12 of
# them); the bits above are then chosen one at a time.
_MASK_LOW_BITS = 12


def _value_counts(values: npt.ArrayLike) -> tuple[npt.NDArray[np.uint32],
                                                 npt.NDArray[np.int64], int]:
    """The distinct values (uint32), how often each occurs, and how many
    values there are, counted in slices (no int64 copy of all of them)."""
    v = values if isinstance(values, np.ndarray) else np.asarray(values)
    if v.ndim != 1:
        raise ValueError(f"values must be one-dimensional, got shape {v.shape}")
    if v.size and not np.issubdtype(v.dtype, np.integer):
        raise TypeError(f"values must be integers, got {v.dtype} values such as "
                        f"{shorten(v[0].item())}")
    counts: dict[int, int] = {}
    step = 1 << 22
    for i in range(0, len(v), step):
        part = np.asarray(v[i:i + step])
        low, high = int(part.min()), int(part.max())
        if low < 0 or high > 0xFFFFFFFF:
            bad = low if low < 0 else high
            raise ValueError(f"values must be 0..2^32-1 (nim-values), got {bad}")
        if high < 1 << 20:
            found = np.bincount(part.astype(np.intp, copy=False))
            where = np.flatnonzero(found)
            pairs = zip(where.tolist(), found[where].tolist())
        else:
            u, c = np.unique(part, return_counts=True)
            pairs = zip(u.tolist(), c.tolist())
        for value, count in pairs:
            counts[value] = counts.get(value, 0) + count
    present = np.array(sorted(counts), dtype=np.uint32)
    weight = np.array([counts[x] for x in present.tolist()], dtype=np.int64)
    return present, weight, len(v)


def best_mask(values: npt.ArrayLike) -> int | None:
    """The mask of the sparse kernel for values like these: the one under
    which fewest of them are rare, or None if every mask leaves more than a
    quarter of them rare (the plain scan is then as fast).

    The sparse kernel's work for a value is about the number of rare values
    before it (it enumerates the splits with a rare part), so the mask that
    makes fewest values rare minimises the expected work.  Values below
    2^12 get the best of every mask; above, the low 12 bits of the mask
    (every choice, the higher bits fixed) and each higher bit (set or not)
    are chosen in turn until neither improves.  The bits above the largest
    value are set (a larger value is then common unless its own lower bits
    make it rare).

    Parameters
    ----------
    values : array_like of int
        Nim-values, 0..2^32-1 (such as G(0..n)), one-dimensional.

    Returns
    -------
    int or None

    Raises
    ------
    TypeError
        For values that are not integers.
    ValueError
        For values out of range, or not one-dimensional.

    Examples
    --------
    >>> from grundy.octal import best_mask
    >>> hex(best_mask(GrundysGame().values(4096)))      # rare: 0, 1, 6, 7, ...
    '0xfffffffe'
    >>> best_mask([0, 1, 2, 3]) is None                 # half are always rare
    True
    """
    present, weight, size = _value_counts(values)
    if size == 0:
        return None
    bits = max(1, int(present[-1]).bit_length())
    low = min(bits, _MASK_LOW_BITS)
    low_part = present & np.uint32((1 << low) - 1)
    high_bits, low_mask, best = 0, 0, size + 1
    for _ in range(8):
        # Every low mask, the high bits fixed: fold the counts onto the low
        # bits, apart by the parity the high bits give.
        odd_high = ~_rare(present, high_bits) if high_bits else np.zeros(len(present), bool)
        folded = [np.bincount(low_part[odd_high == k], weights=weight[odd_high == k],
                              minlength=1 << low) for k in (False, True)]
        lows = np.flatnonzero(folded[0] + folded[1]).astype(np.uint32)
        improved = False
        for first in range(1, 1 << low, 256):
            masks = np.arange(first, min(first + 256, 1 << low), dtype=np.uint32)
            even = _rare(masks[:, None] & lows[None, :], 0xFFFFFFFF)
            rare_counts = even @ folded[0][lows] + ~even @ folded[1][lows]
            # Of equally good masks the largest (more bits set).
            i = len(masks) - 1 - int(np.argmin(rare_counts[::-1]))
            if rare_counts[i] < best or (rare_counts[i] == best and masks[i] > low_mask):
                improved |= rare_counts[i] < best
                low_mask, best = int(masks[i]), int(rare_counts[i])
        for bit in range(low, bits):
            other = (low_mask | high_bits) ^ (1 << bit)
            count = int(weight[_rare(present, other)].sum())
            if count < best or (count == best and other >> bit & 1):
                improved |= count < best
                high_bits ^= 1 << bit
                best = count
        if not improved or bits == low:
            break
    mask = low_mask | high_bits | ((0xFFFFFFFF << bits) & 0xFFFFFFFF)
    return mask if best * 4 <= size else None


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
    >>> kayles.values(8).tolist()
    [0, 1, 2, 3, 1, 4, 3, 2, 1]
    """

    def __init__(self, name: str, *, take0: Iterable[int] = (), take1: Iterable[int] = (),
                 take2: Iterable[int] = (), take3: Iterable[int] = (),
                 unequal: bool = False) -> None:
        self.name = name
        # take0/take1 move to a smaller heap only if they take at least one
        # token; take2/take3 may take none (d0 = 4 or 8: split only).
        self._rules = tuple(_rule_array(r, f"take{i}", minimum) for i, r, minimum in
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
        # Misère outcomes decided so far (sorted heaps with a move: the
        # player to move wins); no move left: the player to move wins.
        self._misere_wins: dict[tuple[int, ...], bool] = {(): True}
        # Options of each heap 1.. for misère play (None: the heap has no move).
        self._misere_moves: dict[int, list[tuple[int, ...]] | None] = {}

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
        sorted order.  The rules are those of :meth:`values`: ``take0``
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
        n = check_count(n, "n")
        take0, take1, take2, take3 = (r.tolist() for r in self._rules)
        found: set[tuple[int, ...]] = set()
        if n in take0:
            found.add(())
        found.update((n - k,) for k in take1 if n > k)
        for k in take2:
            m = n - k
            found.update((a, m - a) for a in range(1, m // 2 + 1)
                         if not (self._unequal and 2 * a == m))
        for k in take3:
            m = n - k
            found.update((a, b, m - a - b) for a in range(1, m // 3 + 1)
                         for b in range(a, (m - a) // 2 + 1))
        return sorted(found)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    # -- values -----------------------------------------------------------------

    def values(self, n: int, *, kernel: str = "auto", mask: int | None = None,
               progress: Progress = None, max_memory: int | None = None,
               threads: int | None = None) -> Int64Array:
        """The nim-values G(0..n).

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
            Threads for the kernels (default, and at most: every core the
            process may use; 1: the serial kernels).  They work on
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
        >>> SubtractionGame({2, 3, 7}).values(9).tolist()
        [0, 0, 1, 1, 2, 0, 0, 1, 1, 2]
        >>> import numpy as np
        >>> np.array_equal(GrundysGame().values(20000, threads=1),
        ...                GrundysGame().values(20000, threads=2))
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
            Threads for the kernels, as in :meth:`values`.

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
            if n < self._n:
                return int(self._G[n])
            if self._period is None and n >= DEFAULT_PERIOD_SEARCH:
                self.periodicity(max_memory=max_memory, threads=threads)
            if self._period is not None and n >= self._period.preperiod:
                e, p = self._period.preperiod, self._period.period
                n = e + (n - e) % p
            self._extend(n + 1, "auto", None, None, max_memory, threads=threads)
            return int(self._G[n])

    # -- sums of heaps ------------------------------------------------------------

    def outcome(self, heaps: int | Iterable[int], *, misere: bool = False,
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
        >>> kayles.outcome([1, 2]), kayles.outcome([1, 2], misere=True)
        (WIN, WIN)
        >>> kayles.outcome(4), kayles.outcome(4, misere=True)   # G(4) = 1
        (WIN, LOSS)
        >>> nim = SubtractionGame({1, 2, 3})                      # Nim, heaps up to 3
        >>> nim.outcome([1, 1, 1], misere=True), nim.outcome([2, 2], misere=True)
        (LOSS, LOSS)
        """
        sizes = heap_list(heaps)
        misere = check_bool(misere, "misere")
        if not misere:
            nim_sum = 0
            for h in sizes:
                nim_sum ^= self.value(h, max_memory=max_memory)
            return WIN if nim_sum else LOSS
        with self._lock:
            return misere_search(self, sizes, max_memory)

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
        return misere_quotient(self, n, max_order=max_order, max_memory=max_memory)

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
            As in :meth:`values` (done: the values known, from the file's).
        threads : int, optional
            Threads for the kernels, as in :meth:`values`.
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
        from grundy.store import FileFormatError, _check_path

        n = check_count(n, "n")
        given = _check_path(path)
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
                known, crc = _read_record(record, me, FileFormatError)
                if known and not os.path.exists(given):
                    raise FileFormatError(given, f"missing: its record "
                                          f"{os.path.basename(record)!r} says {known:,} "
                                          f"values were computed into it")
            elif os.path.exists(given):
                raise FileFormatError(given, f"no record {os.path.basename(record)!r} of the "
                                      f"values in it: not a file compute() wrote")
            else:
                # The record first: a run stopped at once leaves a file it resumes.
                _write_record(record, me, 0, 0)
            G = _open_values(given, n + 1, known, crc, FileFormatError)
            # The values this game knows and the file does not go to the file.
            if self._n > known:
                top = min(self._n, len(G))
                G[known:top] = self._G[known:top]
                crc = _crc32(G, known, top, crc)
                known = top
            self._G, self._n = G, known
            done = known

            def save() -> None:
                nonlocal done, crc
                G.flush()
                reached = self._n
                new_crc = _crc32(G, done, reached, crc)
                _write_record(record, me, reached, new_crc)
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
        :mod:`grundy.store`, written atomically.

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
        >>> _ = game.values(100)
        >>> game.save(path)
        >>> back = grundy.load(path)
        >>> back, back.value(10 ** 9), back.periodicity()
        (OctalGame('0.77'), 1, Periodicity(preperiod=71, period=12, proved_at=167))
        """
        from grundy.store import save

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
        from grundy.store import need

        kind, name, rules = data["class"], data["name"], data["rules"]
        if kind == "OctalGame":
            game: TakeAndBreakGame = OctalGame(name)
        elif kind == "HexGame":
            game = HexGame(name)
        elif kind == "GrundysGame":
            game = GrundysGame()
        elif kind == "SubtractionGame":
            game = SubtractionGame(rules[0])
        elif kind == "TakeAndBreakGame":
            game = TakeAndBreakGame(name, take0=rules[0], take1=rules[1], take2=rules[2],
                                    take3=rules[3], unequal=data["unequal"])
        else:
            raise ValueError(f"unknown game class {shorten(kind)}")
        if [r.tolist() for r in game._rules] != rules or game._unequal != data["unequal"]:
            raise ValueError(f"the saved rules of {shorten(name)} are not those of its code")
        values = need(arrays, "values", np.uint32)
        period = data["period"]
        if period is not None:
            if not (isinstance(period, list) and len(period) == 3):
                raise ValueError(f"the period is {shorten(period)}, not [preperiod, period, "
                                 f"proved_at]")
            period = Periodicity(*(check_count(x, "period") for x in period))
            game._check_period(period, values)
        game._G = np.zeros(max(1024, len(values)), dtype=np.uint32)
        game._G[:len(values)] = values
        game._n = len(values)
        game._period = period
        return game

    def _check_period(self, period: Periodicity, values: npt.NDArray[np.uint32]) -> None:
        """ValueError unless the periodicity theorem proves ``period`` from
        ``values`` (the range find_period checks, in one pass)."""
        e, p, proved = period
        heaps, extra = self.max_heaps, 1 if self._unequal else 0
        end = max(heaps * e + (heaps - 1 + extra) * p + self.max_take, e + 1)
        if p < 1 or proved != end - 1 + p or proved >= len(values) or \
                not np.array_equal(values[e:end], values[e + p:end + p]):
            raise ValueError(f"the saved period {tuple(period)} is not proved by the "
                             f"{len(values):,} saved values")

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
            Threads for the kernels, as in :meth:`values`.

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
        n_max = DEFAULT_PERIOD_SEARCH if n_max is None else check_count(n_max, "n_max")
        heaps = self.max_heaps
        extra = 1 if self._unequal else 0
        size = 64
        while True:
            size = min(size, n_max + 1)
            following = 2 * size
            if size > self._searched_to:
                self._extend(size, "auto", None, None, max_memory, threads=threads)
                # The search's scratch: 8 bytes for each period it may try.
                check_memory(16 * size // (heaps + extra) + 8, max_memory,
                             f"the period search over {shown_int(size)} values")
                found = _octal.find_period(self._G[:size], heaps, self.max_take, extra)
                if found is not None:
                    e, p, need = found
                    if need <= size:
                        self._period = Periodicity(e, p, need - 1)
                        return self._period
                    # The candidate closest to a proof: if it holds up to
                    # where it would be proved, stop there, not at twice size.
                    following = max(size + size // 8 + 1, min(following, need))
                self._searched_to = size
            if size >= n_max + 1:
                return None
            size = following

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
            G = self.values(last, max_memory=max_memory).astype(np.uint32)
        rare = _rare(G, mask)
        positions = np.flatnonzero(rare)
        return RareCommon(mask=mask, n=len(G) - 1, rare_count=len(positions),
                          rare_positions=readonly(positions.astype(np.int64)),
                          last_rare=int(positions[-1]) if len(positions) else -1,
                          rare_values=tuple(int(v) for v in np.unique(G[rare])),
                          max_value=int(G.max()), max_at=int(G.argmax()))


# A values file's record: {"format", "version", the game's identity, "known", "crc32"}.
_RECORD_FORMAT = "grundy-values"
_RECORD_VERSION = 1


def _read_record(record: str, me: dict[str, Any], error: type[Exception]
                 ) -> tuple[int, int]:
    """(values known, their CRC-32) from a values file's record, checked
    against the game ``me``."""
    try:
        with open(record, "rb") as f:
            text = f.read(1 << 20)
        data = json.loads(text)
    except (OSError, ValueError) as exc:
        raise error(record, f"not a record of computed values ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != _RECORD_FORMAT:
        raise error(record, "not a record of computed values")
    if data.get("version") != _RECORD_VERSION:
        raise error(record, f"format version {shorten(data.get('version'))}: this grundy "
                    f"reads version {_RECORD_VERSION}; upgrade grundy")
    theirs = {k: data.get(k) for k in me}
    if theirs != me:
        raise error(record, f"holds the values of {data.get('class')!s:.40} "
                    f"{shorten(data.get('name'))}, not of {me['class']} {shorten(me['name'])}")
    known, crc = data.get("known"), data.get("crc32")
    if not (type(known) is int and known >= 0 and type(crc) is int and 0 <= crc < 1 << 32):
        raise error(record, f"bad count {shorten(known)} or CRC {shorten(crc)}")
    return known, crc


def _open_values(path: str, size: int, known: int, crc: int, error: type[Exception]) -> Any:
    """The values file mapped read-write, with room for ``size`` values: a
    new file, or an existing one whose header and length agree and whose
    first ``known`` values have the CRC-32 ``crc`` (checked read-only,
    before anything is written), copied into a bigger one if it is short.
    The disk space of a new or bigger file is reserved at once."""
    if not os.path.exists(path):
        return _new_values(path, size, None, 0)
    from grundy.store import npy_header

    try:
        with open(path, "rb") as f:
            version, header = npy_header(f)
            if header is None:
                raise ValueError(f"npy format version {version}")
            shape, fortran, dtype = header
            offset = f.tell()
    except (OSError, ValueError, EOFError) as exc:
        raise error(path, f"not a values file ({exc})") from None
    if dtype != np.dtype("<u4") or fortran or len(shape) != 1 or shape[0] < known:
        raise error(path, f"holds {dtype} values of shape {shape}, not {known:,} or more "
                    f"uint32 values")
    actual = os.path.getsize(path)
    if actual != offset + 4 * shape[0]:
        raise error(path, f"{actual:,} bytes, not the {offset + 4 * shape[0]:,} its header "
                    f"says: truncated or grown")
    G = np.memmap(path, dtype="<u4", mode="r", offset=offset, shape=(shape[0],))
    if _crc32(G, 0, known) != crc:
        raise error(path, f"the {known:,} values known do not match the CRC-32 of its record")
    if shape[0] >= size:
        return np.memmap(path, dtype="<u4", mode="r+", offset=offset, shape=(shape[0],))
    return _new_values(path, size, G, known)


def _new_values(path: str, size: int, old: Any, known: int) -> Any:
    """A values file of ``size`` values (its space reserved), holding the
    first ``known`` values of ``old``, written beside ``path`` and renamed
    over it."""
    needed = 4 * size + 128
    free = shutil.disk_usage(os.path.dirname(os.path.abspath(path))).free
    if needed > free:
        raise MemoryLimitError(f"the values need {format_bytes(needed)} of disk beside "
                               f"{path!r}; {format_bytes(free)} is free", needed)
    from grundy.store import replaced_when_done

    tmp = path + ".part"
    G = np.lib.format.open_memmap(tmp, mode="w+", dtype="<u4", shape=(size,))
    with replaced_when_done(tmp, path):
        if hasattr(os, "posix_fallocate"):
            with open(tmp, "r+b") as f:
                try:
                    os.posix_fallocate(f.fileno(), 0, os.path.getsize(tmp))
                except OSError as exc:
                    if exc.errno == errno.ENOSPC:
                        raise MemoryLimitError(f"the values need {format_bytes(needed)} of "
                                               f"disk beside {path!r}: the disk is full",
                                               needed) from None
                    # Some file systems cannot reserve: the space is not promised.
        for i in range(0, known, 1 << 24):
            G[i:min(known, i + (1 << 24))] = old[i:min(known, i + (1 << 24))]
        G.flush()
    return G


def _crc32(values: Any, start: int, stop: int, crc: int = 0) -> int:
    """The CRC-32 of values[start:stop] (uint32) going on from ``crc``, in
    slices of 2^24 values: a long file keeps Ctrl-C quick."""
    for i in range(start, stop, 1 << 24):
        crc = zlib.crc32(values[i:min(stop, i + (1 << 24))].data.cast("B"), crc)
    return crc


def _write_record(record: str, game: dict[str, Any], known: int, crc: int) -> None:
    """The record of a values file (the game, the values known and their
    CRC-32), written atomically (a temporary file renamed over it)."""
    from grundy.store import replaced_when_done

    tmp = record + ".part"
    with replaced_when_done(tmp, record), open(tmp, "w") as f:
        json.dump(dict(game, format=_RECORD_FORMAT, version=_RECORD_VERSION, known=known,
                       crc32=crc), f)
        f.flush()
        os.fsync(f.fileno())


_OCTAL_RE = re.compile(r"^([0-9A-Fa-f]?)\.([0-9A-Fa-f]+)$")


def _parse_code(code: str, base: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """(take0, take1, take2, take3) from a code "d0.d1d2..." in base 8 or 16."""
    kind = "octal" if base == 8 else "hexadecimal"
    if not isinstance(code, str):
        raise TypeError(f"the {kind} code must be a string such as '0.137', got {shorten(code)}")
    m = _OCTAL_RE.match(code.strip())
    if not m:
        raise ValueError(f"{shorten(code)} is not a{'n' if base == 8 else ''} {kind} code: expected "
                         f"'d0.d1d2...' such as {'0.137' if base == 8 else '0.3F'}")
    d0, rest = m.group(1) or "0", m.group(2)
    digits = []
    for ch in d0 + rest:
        d = int(ch, 16)
        if d >= base:
            raise ValueError(f"{shorten(code)}: digit {ch!r} is not {kind} (0-{'7' if base == 8 else 'F'})")
        digits.append(d)
    allowed0 = (0, 4) if base == 8 else (0, 4, 8, 12)
    if digits[0] not in allowed0:
        raise ValueError(f"{shorten(code)}: d0 must be {' or '.join(map(str, allowed0))} "
                         f"(split without taking), got {d0!r}")
    while len(digits) > 1 and digits[-1] == 0:
        digits.pop()
    rules: tuple[list[int], list[int], list[int], list[int]] = ([], [], [], [])
    for k, d in enumerate(digits):
        for bit, rule in ((1, 0), (2, 1), (4, 2), (8, 3)):
            if d & bit and not (k == 0 and bit in (1, 2)):
                rules[rule].append(k)
    return rules


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
    >>> OctalGame("0.77").values(11).tolist()         # Kayles
    [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    """

    def __init__(self, code: str) -> None:
        take0, take1, take2, take3 = _parse_code(code, 8)
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
    >>> HexGame("0.3F").values(8).tolist()
    [0, 1, 2, 0, 1, 2, 3, 4, 5]
    """

    def __init__(self, code: str) -> None:
        take0, take1, take2, take3 = _parse_code(code, 16)
        super().__init__(code, take0=take0, take1=take1, take2=take2, take3=take3)


class GrundysGame(TakeAndBreakGame):
    """Grundy's game: split a heap into two unequal non-empty heaps.

    Examples
    --------
    >>> GrundysGame().values(12).tolist()
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
    >>> SubtractionGame({1, 3, 4}).values(7).tolist()
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
