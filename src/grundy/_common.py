"""Conventions shared by the whole package: outcomes, sentinels, errors,
and the ONE validation layer every public entry uses.

Integers: Python ints and numpy integers are accepted; bools, floats (even
``1.0``), strings, ``Fraction``, ``Decimal`` and the rest are refused by
name (TypeError).  Values out of range are a ValueError quoting the value
(shortened when long) and the valid range.  Sizes are checked against int64
and against a memory estimate before anything is allocated.
"""
from __future__ import annotations

import enum
import operator
import os
import re
import time
from collections.abc import Iterable
from typing import Any, Final, TypeVar

import numpy as np
import numpy.typing as npt

__all__ = ["Outcome", "WIN", "LOSS", "DRAW", "TIE", "NO_MOVE", "NoMoveType", "CycleError",
           "MemoryLimitError"]

INT64_MAX = 2 ** 63 - 1

Int64Array = npt.NDArray[np.int64]
_Array = TypeVar("_Array", bound=npt.NDArray[Any])
"""The type of the library's int64 arrays (indices, remoteness, values)."""


class Outcome(enum.IntEnum):
    """Outcome of a position for the player to move, with perfect play.

    An ``IntEnum`` (``WIN == 1``, ``LOSS == -1``, ``DRAW == 0``, ``TIE == 2``:
    the codes of the library's int8 outcome arrays) that prints as its name.
    DRAW: play goes on forever; TIE: the game ends without a winner.  A
    player prefers WIN > TIE > DRAW > LOSS.

    Examples
    --------
    >>> Outcome(1), Outcome(-1), Outcome(0), Outcome(2)
    (WIN, LOSS, DRAW, TIE)
    >>> print(Outcome.WIN, f"{Outcome.LOSS:>6}", int(Outcome.DRAW))
    WIN   LOSS 0
    """
    WIN = 1
    LOSS = -1
    DRAW = 0
    TIE = 2

    def __repr__(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        return _format_named(self, self.name, spec)


def _format_named(value: int, name: str, spec: str) -> str:
    """Format a named int: as its name, unless the spec asks for a number
    (``{:d}``, ``{:+d}``, ``{:x}``...)."""
    if spec and spec[-1] in "bcdoxXneEfFgG%":
        return int.__format__(value, spec)
    return format(name, spec)


WIN: Final = Outcome.WIN
LOSS: Final = Outcome.LOSS
DRAW: Final = Outcome.DRAW
TIE: Final = Outcome.TIE


class NoMoveType(int):
    """The type of :data:`NO_MOVE`: the answer where a position has no move.

    Move arrays hold -1 where there is no move (``int(NO_MOVE) == -1``, so
    it fills such arrays); a single answer (a best move, a Nim move) is then
    this object, which equals nothing but itself: ``best_move(p) ==
    NO_MOVE`` is False for a real move, even to a position *named* -1, and
    so is ``np.int64(-1) == NO_MOVE``.  Find the positions without a move
    in an array with ``sol.move == -1`` (``sol.move == NO_MOVE`` is False).

    Examples
    --------
    >>> import grundy
    >>> grundy.NO_MOVE, grundy.NO_MOVE == -1, int(grundy.NO_MOVE)
    (NO_MOVE, False, -1)
    >>> import numpy as np
    >>> np.int64(-1) == grundy.NO_MOVE, np.array([3, -1]) == -1
    (False, array([False,  True]))
    """
    __slots__ = ()
    _instance: NoMoveType | None = None
    # numpy defers to our __eq__ (np.int64(-1) == NO_MOVE is False, as
    # NO_MOVE == np.int64(-1)), and an array compared with NO_MOVE is not
    # compared element by element: arrays hold -1, compare them with -1.
    __array_ufunc__ = None

    def __new__(cls) -> NoMoveType:
        if cls._instance is None:           # one object: ``is NO_MOVE`` always works
            cls._instance = super().__new__(cls, -1)
        return cls._instance

    def __eq__(self, other: object) -> bool:
        return other is self

    def __ne__(self, other: object) -> bool:
        return other is not self

    def __hash__(self) -> int:
        return hash(NoMoveType)

    def __repr__(self) -> str:
        return "NO_MOVE"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return _format_named(self, "NO_MOVE", spec)

    def __reduce__(self) -> str:
        return "NO_MOVE"                 # pickled by name: one object


NO_MOVE: Final = NoMoveType()
"""No move: the answer where a position has no move (it prints as
``NO_MOVE`` and equals only itself); move arrays hold -1 instead."""


class CycleError(ValueError):
    """The game graph has a cycle where an acyclic game was required.

    Parameters
    ----------
    message : str
        What happened.
    cycle : iterable
        The positions of one cycle, in order (v0 -> v1 -> ... -> v0), kept
        as the ``cycle`` attribute (a list).

    Examples
    --------
    >>> import grundy
    >>> try:
    ...     grundy.GameGraph.from_edges([(0, 1), (1, 2), (2, 1)]).values()
    ... except grundy.CycleError as exc:
    ...     print(exc.cycle)
    [1, 2]
    """

    def __init__(self, message: str, cycle: Iterable[Any] = ()) -> None:
        super().__init__(message)
        self.cycle = list(cycle)


class MemoryLimitError(MemoryError):
    """A computation was refused because it would need more memory than
    ``max_memory`` allows (by default, the memory this machine has
    available).  Raised before the memory is allocated.

    Parameters
    ----------
    message : str
        What was refused, and the estimate.
    needed, limit : int, optional
        The bytes needed and allowed, kept as attributes.

    Examples
    --------
    >>> import grundy
    >>> try:
    ...     grundy.GameGraph.from_edges([(0, 1)], n=10 ** 12)
    ... except grundy.MemoryLimitError as exc:
    ...     print(exc.needed > exc.limit)
    True
    """

    def __init__(self, message: str, needed: int | None = None,
                 limit: int | None = None) -> None:
        super().__init__(message)
        self.needed = needed
        self.limit = limit


# -- values in messages ---------------------------------------------------------

def shorten(value: object, limit: int = 60) -> str:
    """``repr(value)``, cut to about ``limit`` characters with ``...``.

    >>> shorten("x" * 100, 12)
    "'xxxxxxxx..."
    """
    try:
        text = repr(value)
    except Exception:              # a repr that fails (or recurses too deep): name the type
        text = f"<{type(value).__name__} object>"
    if len(text) > limit:
        text = text[:limit - 3] + "..."
    return text


def shown_int(value: int) -> str:
    """An int for a message: digits, or its size when it is huge."""
    if abs(value).bit_length() <= 133:                 # up to 40 digits
        return str(value)
    digits = int(abs(value).bit_length() * 0.30103) + 1
    return f"{'-' if value < 0 else ''}(an integer of about {digits} digits)"


# -- integers ---------------------------------------------------------------------

def is_hashable(value: object) -> bool:
    """True if ``value`` can be a dict key (a position, a name).

    >>> is_hashable((1, 2)), is_hashable([1, 2])
    (True, False)
    """
    try:
        hash(value)
    except TypeError:
        return False
    return True


def is_integer(value: object) -> bool:
    """True for Python ints and numpy integers (bools excluded)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_int(value: object, name: str, minimum: int | None = None,
              maximum: int | None = None) -> int:
    """``value`` as a Python int in ``minimum..maximum`` (either may be None).

    TypeError unless an int or numpy integer (bools, floats, strings,
    Fraction, Decimal... are refused by name); ValueError, quoting the value
    and the valid range, when outside it.

    >>> check_int(3, "n", 0)
    3
    >>> check_int(1.0, "n")
    Traceback (most recent call last):
    ...
    TypeError: n must be an integer, got 1.0 (float)
    """
    if not is_integer(value):
        raise TypeError(f"{name} must be an integer, got {shorten(value)} "
                        f"({type(value).__name__})")
    value = operator.index(value)  # type: ignore[arg-type]
    if minimum is not None and value < minimum:
        upper = "" if maximum is None or maximum == INT64_MAX else f" (and <= {maximum})"
        raise ValueError(f"{name} must be >= {minimum}{upper}, got {shown_int(value)}")
    if maximum is not None and value > maximum:
        top = "2^63-1" if maximum == INT64_MAX else str(maximum)
        raise ValueError(f"{name} must be <= {top}, got {shown_int(value)}")
    return value


def check_count(value: object, name: str, minimum: int = 0, maximum: int = INT64_MAX) -> int:
    """A size or index: an integer in ``minimum..maximum`` (default 0..2^63-1)."""
    return check_int(value, name, minimum, maximum)


def check_number(value: object, n: int, name: str = "position number") -> int:
    """A number of one of ``n`` things (positions, states): an integer 0..n-1.

    >>> check_number(2, 3)
    2
    >>> check_number(3, 3)
    Traceback (most recent call last):
    ...
    ValueError: position number 3 is out of range: valid range is 0..2
    """
    v = check_count(value, name)
    if v >= n:
        raise ValueError(f"{name} {v} is out of range: " +
                         (f"valid range is 0..{n - 1}" if n else "there are no positions"))
    return v


MAX_THREADS = 1024            # the engine's own limit too (grundy._core.retrograde.MAX_THREADS)
THREADS_PER_CORE = 4


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system
    has one, else every core)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


# The last answer of free_cores() and when it was found (it is asked at every
# solve; /proc/loadavg is read again after this many seconds).
_free_cores: tuple[float, int] = (-1.0, 0)
_FREE_CORES_FOR = 0.1


def free_cores() -> int:
    """The cores this process may run on that other work leaves free now (at
    least 1): :func:`usable_cores`, less one for each other task the system
    is running (Linux: the running tasks of ``/proc/loadavg``, the fewest of
    a few reads, the reader itself not counted), never more than the
    machine's cores minus those.  Where that cannot be read: every usable
    core.  A core kept busy by another process would make the threads of a
    solve wait for each other at every level (twice as slow as one thread,
    measured on two cores).

    >>> 1 <= free_cores() <= usable_cores()
    True
    """
    global _free_cores
    usable = usable_cores()
    now = time.monotonic()
    if usable == 1 or now - _free_cores[0] < _FREE_CORES_FOR:
        return min(usable, _free_cores[1]) if usable > 1 else 1
    try:
        others = max(min(_running_tasks() - _running_threads() for _ in range(5)), 0)
    except (OSError, ValueError, IndexError):
        return usable
    free = max(1, min(usable, (os.cpu_count() or usable) - others))
    _free_cores = (now, free)
    return free


def _running_tasks() -> int:
    """The tasks running or ready to run on the whole system now."""
    with open("/proc/loadavg") as f:
        return int(f.read().split()[3].split("/")[0])


def _running_threads() -> int:
    """This process's threads running or ready to run now (this one, and
    such as numpy's BLAS threads or OpenMP's, waiting busily)."""
    count = 0
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/stat") as f:
                # pid (comm) state ...: comm may hold spaces and parentheses.
                count += f.read().rpartition(")")[2].split()[0] == "R"
        except FileNotFoundError:           # a thread that ended meanwhile
            pass
    return count


def check_threads(threads: object) -> int:
    """The ``threads=`` option: None means the cores this process may use
    that other work leaves free (:func:`free_cores`); else an integer
    1..1024 (1: the serial path).

    At most THREADS_PER_CORE threads a usable core are started: more would
    only wait for each other, and a thousand threads may not even start (the
    OpenMP runtime ends the process when it cannot create one).  The
    answers are the same for any number.

    >>> check_threads(2)
    2
    >>> check_threads(0)
    Traceback (most recent call last):
    ...
    ValueError: threads must be >= 1 (and <= 1024), got 0
    """
    if threads is None:
        return min(free_cores(), MAX_THREADS)
    return min(check_int(threads, "threads", 1, MAX_THREADS),
               THREADS_PER_CORE * usable_cores())


def check_bool(value: object, name: str) -> bool:
    """A flag: True or False (also numpy bools); anything else is a TypeError."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f"{name} must be True or False, got {shorten(value)}")


def as_int64_array(data: Any, name: str, ndim: int | None = None,
                   copy: bool = True) -> Int64Array:
    """``data`` as a C-contiguous int64 numpy array that the library owns
    (a copy, unless ``copy=False`` and it already is one), or a clear error.

    Refuses floats, strings, bools and other objects (TypeError, quoting
    the first one), ragged input and values outside int64 (ValueError).
    """
    if isinstance(data, (str, bytes)):
        raise TypeError(f"{name} must hold integers, got {shorten(data)}")
    try:
        arr = np.asarray(data)
    except (ValueError, OverflowError, TypeError):
        raise ValueError(f"{name} could not be read as an integer array: "
                         f"{_ragged(data)}") from None
    if not isinstance(data, np.ndarray) and arr.dtype.kind in "iu":
        # numpy turns True into 1 inside a list of ints: look for bools.
        bad = _first_bool(data)
        if bad is not None:
            raise TypeError(f"{name} must hold integers, got {shorten(bad)} (bool)")
    if arr.dtype == object:
        # Python ints too large for int64, or a mix of kinds.
        flat = arr.ravel()
        for x in flat:
            if not is_integer(x):
                raise TypeError(f"{name} must hold integers, got {shorten(x)} "
                                f"({type(x).__name__})")
        for x in flat:
            if not -INT64_MAX - 1 <= x <= INT64_MAX:
                raise ValueError(f"{name} has the value {shown_int(int(x))}, outside the "
                                 f"int64 range -2^63..2^63-1")
        arr = arr.astype(np.int64)
        copy = False
    if arr.dtype.kind not in "iu" or arr.dtype == np.bool_:
        if arr.size == 0 and arr.dtype.kind == "f":
            arr = arr.astype(np.int64)       # [] comes in as float64
            copy = False
        else:
            raise TypeError(f"{name} must hold integers, got dtype {arr.dtype}"
                            + (f" (for example {_example(arr)})" if arr.size else ""))
    if arr.dtype == np.uint64 and arr.size and arr.max() > INT64_MAX:
        raise ValueError(f"{name} has the value {int(arr.max())}, outside the int64 range "
                         f"-2^63..2^63-1")
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {arr.shape}")
    if copy:
        return np.array(arr, dtype=np.int64, order="C", copy=True)
    return np.ascontiguousarray(arr, dtype=np.int64)


def _first_bool(data: Any, limit: int = 2) -> Any:
    """The first bool inside nested lists/tuples (up to ``limit`` levels), or None."""
    stack = [(data, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (bool, np.bool_)):
            return item
        if depth < limit and isinstance(item, (list, tuple)):
            stack.extend((x, depth + 1) for x in reversed(item))
    return None


def _example(arr: npt.NDArray[Any]) -> str:
    """A value of a non-integer array worth quoting: the first one that is
    not a whole number, else the first one (as a plain Python value)."""
    flat = arr.ravel()
    if flat.dtype.kind in "fc":
        with np.errstate(invalid="ignore"):
            odd = np.flatnonzero(flat != np.round(flat.real))
        if odd.size:
            return shorten(flat[odd[0]].item())
    return shorten(flat[0].item() if hasattr(flat[0], "item") else flat[0])


def _ragged(data: Any) -> str:
    """Say which row of a ragged nested sequence breaks the shape."""
    try:
        rows = list(data)
        lengths = [len(r) if hasattr(r, "__len__") and not isinstance(r, (str, bytes)) else None
                   for r in rows]
    except TypeError:
        return "not a rectangular array of integers"
    first = lengths[0] if lengths else None
    for k, length in enumerate(lengths):
        if length != first:
            return (f"row {k} is {shorten(rows[k])}, but row 0 is {shorten(rows[0])} "
                    f"(the rows must all have the same length)")
    return "not a rectangular array of integers"


def readonly(arr: _Array) -> _Array:
    """Mark ``arr`` read-only and return it."""
    arr.flags.writeable = False
    return arr


# -- memory -------------------------------------------------------------------------

def _read_number(path: str) -> int | None:
    try:
        with open(path) as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None                              # absent, or "max" (no limit)


def _proc_kib(path: str, key: str) -> int | None:
    """The ``key: N kB`` field of a /proc file, in bytes, or None."""
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(key):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def _address_space_limit() -> int | None:
    """The soft RLIMIT_AS in bytes, or None (no limit, or not Unix)."""
    try:
        import resource
        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
        unlimited = resource.RLIM_INFINITY
    except (ImportError, AttributeError, OSError, ValueError):
        return None
    return soft if soft != unlimited and soft > 0 else None


def available_memory() -> int:
    """Bytes of memory this process can use now: the machine's available
    memory (Linux: MemAvailable; elsewhere: physical memory), or less when a
    container's cgroup limit or an address-space limit (``ulimit -v``)
    leaves less; 2^63-1 when it cannot be told."""
    found = _proc_kib("/proc/meminfo", "MemAvailable:")
    if found is None:
        try:
            found = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        except (AttributeError, ValueError, OSError):
            found = INT64_MAX
    # cgroup v2, then v1: the limit less the usage.
    for limit_file, usage_file in (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                                   ("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                                    "/sys/fs/cgroup/memory/memory.usage_in_bytes")):
        limit, usage = _read_number(limit_file), _read_number(usage_file)
        if limit is not None and usage is not None and limit < 2 ** 60:
            found = min(found, max(limit - usage, 0))
            break
    # An address-space limit (ulimit -v) less the address space in use.
    soft = _address_space_limit()
    if soft is not None:
        used = _proc_kib("/proc/self/status", "VmSize:") or 0
        found = min(found, max(soft - used, 0))
    return found


def format_bytes(n: int) -> str:
    """A byte count for people: ``'512 bytes'``, ``'1.5 KiB'``, ``'3.0 GiB'``.

    >>> format_bytes(1536), format_bytes(3 * 2 ** 30), format_bytes(10)
    ('1.5 KiB', '3.0 GiB', '10 bytes')
    """
    n = int(n)
    if n < 1024:
        return f"{n} bytes"
    if n >= 2 ** 70:                                   # past floats' comfort: a power of two
        return f"2^{n.bit_length() - 1} bytes"
    value = float(n)
    for unit in ("KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        value /= 1024
        if value < 1024 or unit == "EiB":
            return f"{value:,.1f} {unit}"
    raise AssertionError("unreachable")                # pragma: no cover


def resolve_max_memory(max_memory: int | None) -> int:
    """The byte limit: ``max_memory`` checked (an integer >= 1), or, for
    None, the memory available now."""
    if max_memory is None:
        return available_memory()
    return check_int(max_memory, "max_memory", 1)


def _limit_source(max_memory: int | None) -> str:
    return "the memory available" if max_memory is None else "max_memory"


def check_memory(needed: int, max_memory: int | None, what: str, *,
                 limit: int | None = None) -> int:
    """Refuse (MemoryLimitError) when ``needed`` bytes exceed the limit.

    ``max_memory`` is a byte count, or None for the memory available now.
    Work that checks again as it grows passes the ``limit`` it resolved
    when it began: ``needed`` counts what it already holds, which the memory
    available later no longer includes (and /proc is read once).  Returns
    the limit in bytes.
    """
    if limit is None:
        limit = resolve_max_memory(max_memory)
    if needed > limit:
        raise MemoryLimitError(
            f"{what} needs about {format_bytes(needed)}, more than {_limit_source(max_memory)} "
            f"({format_bytes(limit)}); pass a larger max_memory if the machine has it",
            needed=needed, limit=limit)
    return limit


def queue_limit_error(what: str, needed: int, limit: int, fixed: int,
                      max_memory: int | None) -> MemoryLimitError:
    """The MemoryLimitError of a solve stopped because the engine's queue of
    decided positions outgrew the ``limit - fixed`` bytes left for it."""
    return MemoryLimitError(
        f"{what} needs up to {format_bytes(needed)}: its queue of decided positions outgrew "
        f"the {format_bytes(limit - fixed)} left under {_limit_source(max_memory)} "
        f"({format_bytes(limit)})", needed=needed, limit=limit)


_SIZE_UNITS = {"": 1, "K": 2 ** 10, "M": 2 ** 20, "G": 2 ** 30, "T": 2 ** 40}


def parse_size(text: str, name: str = "memory size") -> int:
    """A byte count from text: ``'512M'``, ``'2G'``, ``'1.5K'``, ``'4096'``,
    with an optional ``B``/``iB`` (binary units).

    >>> parse_size("1.5K"), parse_size("2GiB"), parse_size("100")
    (1536, 2147483648, 100)
    """
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([KMGT]?)(?:I?B)?\s*", text.upper())
    if m is None:
        raise ValueError(f"invalid {name} {shorten(text)}: expected a number with an optional "
                         f"unit K, M, G or T (binary), such as 512M or 2G")
    value = int(float(m.group(1)) * _SIZE_UNITS[m.group(2)]) if "." in m.group(1) else \
        int(m.group(1)) * _SIZE_UNITS[m.group(2)]
    if value < 1:
        raise ValueError(f"{name} must be at least 1 byte, got {shorten(text)}")
    if value > INT64_MAX:
        raise ValueError(f"{name} {shorten(text)} is more than 2^63-1 bytes")
    return value
