"""The one driver of the retrograde engine: any :class:`MoveSource`, solved.

Every game is solved here, whatever gives its rules: an explicit graph (the
CSR plug-in, ``csr.pyx``), police and thief (``police.pyx``), a game
explored from its rules (a CSR built by the explorer), a user's compiled
plug-in.  :func:`solve` owns everything around the pass:

1. the initial state bytes (``MoveSource.initial_states``, on the threads,
   in slices, Ctrl-C looked for between them; the first position breaking
   the source's contract is named), the terminal marks of positions with no
   move (LOSS, or WIN in misère play), remoteness 0;
2. the counters of positions with 252 moves or more (``states.pxd``);
3. the win/loss pass: ``serial.pyx`` on one thread, ``threaded.pyx`` on
   several (the same outcome and remoteness);
4. the tie pass, when some position is a TIE by rule;
5. the outcome of every position, read from its state byte (in place).

:func:`best_moves` then picks each position's first optimal successor (the
move rule of ``states.pxd``).  The Python driver above
(``grundy.engine.driver``) estimates and refuses memory, widens the
remoteness when it overflows and turns the statuses into errors.
"""
import threading

import numpy as np

from cython.parallel cimport prange, threadid
from libc.stdlib cimport malloc, free
from libc.string cimport memset
from libc.stdint cimport INT64_MAX

from grundy._core._typedefs cimport (int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t,
                                     uint64_t, rem_t, WIN, LOSS, DRAW, TIE, grundy_prefetch)
from grundy._core._interrupt cimport PyErr_CheckSignals, interrupted, raise_interrupt
from grundy._core.serial cimport serial_pass, tie_pass, queue_bytes as _queue_bytes
from grundy._core.csr cimport CSRSource
from grundy._core.source cimport MoveSource
from grundy._core.states cimport (Many, MANY, MARK_WIN, MARK_LOSS, MARK_TIE, INVALID_STATE,
                                  bad_state, initial_state, keeps, outcome_of, terminal_mark)
from grundy._core.status cimport (RETRO_OK, RETRO_NO_MEMORY, RETRO_OVERFLOW,
                                  RETRO_MEMORY_LIMIT, RETRO_INTERRUPTED, RETRO_BAD_STATE,
                                  CHECK_EVERY_STATES, padded,
                                  MAX_THREADS as _MAX_THREADS, check_threads as _check_threads)
from grundy._core.threaded cimport threaded_pass

MAX_THREADS = _MAX_THREADS
"""The most threads a solve takes (``grundy._common.MAX_THREADS`` is the same)."""

cdef enum:
    INITIAL_SLICE = 1 << 16       # positions per call of initial_states on a thread


def check_threads(int64_t threads):
    """ValueError unless ``threads`` is a thread count the engine takes (1..1024).

    >>> check_threads(0)
    Traceback (most recent call last):
    ...
    ValueError: threads must be >= 1 (and <= 1024), got 0
    """
    _check_threads(threads)


def queue_bytes(int64_t n_ids):
    """Bytes the serial pass's queue takes to hold ``n_ids`` ids at once.

    >>> queue_bytes(0) == queue_bytes(1000) < queue_bytes(10 ** 6)
    True
    """
    return _queue_bytes(n_ids)


# The progress callback of the solve running in this thread, set by solve()
# around its nogil work (one per thread: solves may run side by side), and
# an exception it raised, kept for solve() to re-raise.
_local = threading.local()


cdef bint _check(int64_t done, int64_t total) noexcept nogil:
    """The passes' check (``_interrupt.pxd``): Ctrl-C, then progress; True
    when the pass must stop (an exception is pending)."""
    with gil:
        if PyErr_CheckSignals() != 0:
            return True
        return _report(done, total)


cdef bint _report(int64_t done, int64_t total) noexcept:
    report = getattr(_local, "progress", None)
    if report is None:
        return False
    try:
        report(done, total)
    except BaseException as exc:            # re-raised by _stopped()
        _local.error = exc
        return True
    return False


cdef int _stopped() except -1:
    """Raise what stopped a pass: the progress callback's exception, or Ctrl-C's."""
    error = getattr(_local, "error", None)
    if error is not None:
        _local.error = None
        raise error
    return raise_interrupt()


cdef inline int64_t _rem_max(rem_t* remoteness) noexcept nogil:
    """The largest remoteness the type holds (past it: "overflow")."""
    if rem_t is uint16_t:
        return 0xFFFF
    else:
        return 0x7FFFFFFF


def solve(MoveSource src not None, uint8_t[::1] state, rem_t[::1] remoteness, bint misere=False,
          int64_t max_queue_bytes=INT64_MAX, progress=None, int threads=1):
    """Solve every position of a game in place.

    ``state`` (uint8, ``src.n_positions``) leaves holding the int8 outcome
    of every position (view it as int8: WIN 1, LOSS -1, DRAW 0, TIE 2);
    ``remoteness`` (uint16 or int32) the remoteness (0 at draws).  Returns
    "ok"; "overflow" if a remoteness does not fit the remoteness type
    (solve again with a wider one); "memory limit" if the queue would need
    more than ``max_queue_bytes`` (the arrays are then incomplete).
    Raises ValueError for a source breaking its contract (naming the
    position), MemoryError if memory runs out, KeyboardInterrupt on
    Ctrl-C.  ``progress(done, total)``, if given, is called every few
    milliseconds of the pass (done: positions decided so far); an
    exception it raises stops the solve and propagates.  ``threads`` > 1
    runs the pass level by level on that many threads: the same outcome
    and remoteness.  The source's methods must then be safe to call from
    several threads at once (they are if they only read the source).

    >>> from grundy._core.csr import CSRSource
    >>> import numpy as np
    >>> src = CSRSource(np.array([0, 1, 2, 2]), np.array([1, 2]))   # 0 -> 1 -> 2
    >>> state, rem = np.empty(3, np.uint8), np.empty(3, np.uint16)
    >>> solve(src, state, rem), state.view(np.int8).tolist(), rem.tolist()
    ('ok', [-1, 1, -1], [2, 1, 0])
    """
    check_threads(threads)
    outer = getattr(_local, "progress", None)     # a solve inside a callback
    _local.progress = progress
    try:
        return _solve(src, state, remoteness, misere, max_queue_bytes, threads)
    finally:
        _local.progress = outer


def _solve(MoveSource src not None, uint8_t[::1] state, rem_t[::1] remoteness, bint misere,
           int64_t max_queue_bytes, int threads):
    cdef int64_t n = src.n_positions, s, d = 0, bad = -1, lo, hi, a, found
    cdef int8_t p = 0
    cdef int status = RETRO_OK, t
    cdef bint ties = False, many_found = False
    cdef bint* tie_seen = &ties       # written through a pointer: shared by the threads
    cdef bint* many_seen = &many_found
    cdef uint8_t terminal = terminal_mark(misere)
    cdef int64_t top = _rem_max(&remoteness[0]) if n else 0
    cdef Many many
    many.n = 0
    many.ids = NULL
    many.left = NULL
    if state.shape[0] != n or remoteness.shape[0] != n:
        raise ValueError(f"state and remoteness must have {n} entries")
    if n == 0:
        return "ok"
    cdef int64_t width = padded(max(src.max_successors, 0) + 1)
    cdef int64_t* buf = <int64_t*> malloc(threads * width * sizeof(int64_t))
    if buf == NULL:
        raise MemoryError("out of memory for the successor buffers")
    with nogil:
        lo = 0
        while lo < n:           # in slices, looking for Ctrl-C between them
            hi = min(lo + CHECK_EVERY_STATES + 1, n)
            # Sub-slices on the threads: the state bytes, then the terminal
            # marks and remoteness 0; a flag per sub-slice says it holds a
            # bad position (the first is looked for below) or a TIE.
            for a in prange(lo, hi, INITIAL_SLICE, num_threads=threads, schedule="static"):
                t = threadid()
                found = src.initial_states(&state[0], a, min(a + INITIAL_SLICE, hi),
                                           buf + t * width)
                if found < 0:
                    _finish_initial(&state[a], &remoteness[a], min(a + INITIAL_SLICE, hi) - a,
                                    terminal, tie_seen, many_seen)
                else:
                    remoteness[a] = 1
            a = lo
            while a < hi:
                if remoteness[a] == 1:
                    bad = src.initial_states(&state[0], a, min(a + INITIAL_SLICE, hi), buf)
                    if bad >= 0:
                        break
                a += INITIAL_SLICE
            if bad >= 0:
                status = RETRO_BAD_STATE
                break
            lo = hi
            if interrupted():
                status = RETRO_INTERRUPTED
                break
        if status == RETRO_BAD_STATE:
            p = src.primitive(bad)
            d = src.n_moves(bad) if p == 0 else 0
            if p == 0 and d < 0:
                d = src.successors(bad, buf)
        elif status == RETRO_OK and many_found:
            # (Looked for, not inferred from max_successors: a source that
            # understates it must not leave a MANY without its counter.)
            status = _count_many(src, &state[0], n, &many, buf)
        if status == RETRO_OK:
            if threads > 1:
                status = threaded_pass(src, &state[0], &many, &remoteness[0], top,
                                       max_queue_bytes, threads, _check)
            else:
                status = serial_pass(src, &state[0], &many, &remoteness[0], top,
                                     max_queue_bytes, _check)
        if status == RETRO_OK and ties:
            status = tie_pass(src, &state[0], &remoteness[0], top, max_queue_bytes)
        if status == RETRO_OK:
            for s in prange(n, num_threads=threads, schedule="static"):
                state[s] = <uint8_t> outcome_of(state[s])
    free(buf)
    free(many.ids)
    free(many.left)
    if status == RETRO_BAD_STATE:
        raise bad_state(bad, p, d)
    if status == RETRO_INTERRUPTED:
        _stopped()
    if status == RETRO_NO_MEMORY:
        raise MemoryError("retrograde analysis: out of memory for the queue")
    if status == RETRO_OVERFLOW:
        return "overflow"
    if status == RETRO_MEMORY_LIMIT:
        return "memory limit"
    return "ok"


cdef void _finish_initial(uint8_t* state, rem_t* remoteness, int64_t count, uint8_t terminal,
                          bint* tie_seen, bint* many_seen) noexcept nogil:
    """After initial_states: the terminal mark where a position has no move,
    remoteness 0, and whether a position is a TIE by rule or has MANY moves."""
    cdef int64_t s
    cdef bint tie = False, many = False
    memset(remoteness, 0, count * sizeof(rem_t))
    for s in range(count):
        if state[s] == 0:
            state[s] = terminal
        tie = tie | (state[s] == MARK_TIE)
        many = many | (state[s] == MANY)
    if tie:
        tie_seen[0] = True
    if many:
        many_seen[0] = True


cdef int _count_many(MoveSource src, uint8_t* state, int64_t n, Many* many,
                     int64_t* buf) noexcept nogil:
    """The counters of the positions holding MANY (252 moves or more), in
    ``many``: their numbers in order, and their moves."""
    cdef int64_t s, k = 0, d
    for s in range(n):
        if state[s] == MANY:
            k += 1
    if k == 0:
        return RETRO_OK
    many.ids = <int64_t*> malloc(k * sizeof(int64_t))
    many.left = <int64_t*> malloc(k * sizeof(int64_t))
    if many.ids == NULL or many.left == NULL:
        return RETRO_NO_MEMORY
    many.n = k
    k = 0
    for s in range(n):
        if state[s] == MANY:
            d = src.n_moves(s)
            many.ids[k] = s
            many.left[k] = d if d >= 0 else src.successors(s, buf)
            k += 1
            if (k & CHECK_EVERY_STATES) == 0 and interrupted():
                return RETRO_INTERRUPTED
    return RETRO_OK


def best_moves(MoveSource src not None, const int8_t[::1] outcome, const rem_t[::1] remoteness,
               int64_t start, int64_t stop, int64_t[::1] move, int threads=1,
               int64_t[::1] wide=None):
    """Optimal successors of the positions ``start..stop-1`` into ``move[0:stop-start]``.

    A position's move is its first successor (in ``successors()`` order)
    that keeps its value (``states.keeps``): for a WIN or LOSS at
    remoteness r a successor of the opposite outcome at r - 1, for a TIE a
    TIE at r - 1, for a DRAW a DRAW.  -1 where the game is over (a
    primitive value, or no move).  ``outcome`` and ``remoteness`` are a
    solve's (remoteness 0 at draws).  For many positions at once, each
    position's outcome and remoteness are packed into one key first, so
    that looking at a move costs one memory access and one comparison.
    ``wide``, if given, gets the int64 remoteness of the same positions
    (-1 at draws) on the way.

    >>> from grundy._core.csr import CSRSource
    >>> import numpy as np
    >>> src = CSRSource(np.array([0, 2, 3, 3]), np.array([2, 1, 2]))
    >>> move = np.empty(3, np.int64)
    >>> best_moves(src, np.array([1, 1, -1], np.int8), np.array([1, 1, 0], np.uint16), 0, 3, move)
    >>> move.tolist()
    [2, 2, -1]
    """
    cdef int64_t n = src.n_positions, s, lo, hi
    cdef bint stopped = False, packed
    check_threads(threads)
    if outcome.shape[0] != n or remoteness.shape[0] != n:
        raise ValueError(f"outcome and remoteness must have {n} entries")
    if not (0 <= start <= stop <= n) or move.shape[0] < stop - start:
        raise ValueError(f"positions {start}..{stop} do not fit 0..{n} and the move array")
    if wide is not None and wide.shape[0] < stop - start:
        raise ValueError(f"positions {start}..{stop} do not fit the remoteness array")
    cdef int64_t* widened = &wide[0] if wide is not None and stop > start else NULL
    packed = stop - start >= max(n // 8, <int64_t> PACK_MIN)
    keys = np.empty(n if packed else 0, dtype=np.uint32 if rem_t is uint16_t else np.uint64)
    cdef int64_t width = padded(max(src.max_successors, 0) + 1)
    cdef int64_t* buf = <int64_t*> malloc(threads * width * sizeof(int64_t))
    if buf == NULL:
        raise MemoryError("out of memory for the successor buffers")
    cdef CSRSource csr = src if isinstance(src, CSRSource) else None
    cdef uint32_t[::1] keys32
    cdef uint64_t[::1] keys64
    with nogil:
        if packed:
            with gil:
                if rem_t is uint16_t:
                    keys32 = keys
                else:
                    keys64 = keys
            for s in prange(n, num_threads=threads, schedule="static"):
                if rem_t is uint16_t:
                    keys32[s] = <uint32_t> _key(outcome[s], remoteness[s])
                else:
                    keys64[s] = _key(outcome[s], remoteness[s])
        lo = start
        while lo < stop:        # in slices, looking for Ctrl-C between them
            hi = min(stop, lo + CHECK_EVERY_STATES + 1)
            if packed and rem_t is uint16_t:
                _moves(src, csr, outcome, remoteness, &keys32[0], lo, hi, start, move, widened,
                       buf, width, threads)
            elif packed:
                _moves(src, csr, outcome, remoteness, &keys64[0], lo, hi, start, move, widened,
                       buf, width, threads)
            else:
                _moves(src, csr, outcome, remoteness, <uint32_t*> NULL, lo, hi, start, move,
                       widened, buf, width, threads)
            lo = hi
            if lo < stop and interrupted():
                stopped = True
                break
    free(buf)
    if stopped:
        raise_interrupt()


cdef enum:
    PACK_MIN = 1 << 16            # fewer positions' moves are found without packed keys
    AHEAD_MOVES = 8               # positions ahead whose moves' keys are prefetched


ctypedef fused key_t:
    uint32_t
    uint64_t


cdef inline uint64_t _key(int8_t o, int64_t r) noexcept nogil:
    """One word for (outcome, remoteness): remoteness << 2 | a code of the outcome."""
    return (<uint64_t> r << 2) | <uint64_t> (o + 1)     # LOSS 0, DRAW 1, WIN 2, TIE 3


cdef void _moves(MoveSource src, CSRSource csr, const int8_t[::1] outcome,
                 const rem_t[::1] remoteness, const key_t* keys, int64_t lo, int64_t hi,
                 int64_t start, int64_t[::1] move, int64_t* wide, int64_t* buf, int64_t width,
                 int threads) noexcept nogil:
    """best_moves of the positions lo..hi-1: from the packed ``keys`` if
    given (the successor wanted has one exact key: that of the opposite
    outcome, or of a TIE, one move nearer, or of a DRAW), else by the move
    rule itself.  A CSR graph's successors are read from its arrays."""
    cdef int64_t s, i, k, s2, found, n = outcome.shape[0]
    cdef uint64_t want
    cdef const int64_t* succ
    cdef int8_t o
    cdef int t
    for s in prange(lo, hi, num_threads=threads, schedule="static"):
        t = threadid()
        found = -1
        if keys != NULL and csr is not None and s + AHEAD_MOVES < hi:
            # The keys of a position's moves are scattered: fetch those of the
            # position AHEAD_MOVES on early (its first two moves).
            i = csr.indptr[s + AHEAD_MOVES]
            k = csr.indptr[s + AHEAD_MOVES + 1]
            if i < k:
                grundy_prefetch(keys + csr.indices[i])
                if i + 1 < k:
                    grundy_prefetch(keys + csr.indices[i + 1])
        if src.primitive(s) == 0:
            if csr is not None:
                succ = csr.indices + csr.indptr[s]
                k = csr.indptr[s + 1] - csr.indptr[s]
            else:
                k = src.successors(s, buf + t * width)
                succ = buf + t * width
            o = outcome[s]
            if keys != NULL:
                want = _key(0, 0) if o == DRAW else (
                    _key(o, remoteness[s] - 1) if o == TIE else _key(-o, remoteness[s] - 1))
                if o == DRAW or remoteness[s] > 0:
                    for i in range(k):
                        s2 = succ[i]
                        if 0 <= s2 < n and keys[s2] == want:
                            found = s2
                            break
            else:
                for i in range(k):
                    s2 = succ[i]
                    if 0 <= s2 < n and keeps(o, remoteness[s], outcome[s2], remoteness[s2]):
                        found = s2
                        break
        move[s - start] = found
        if wide != NULL:
            wide[s - start] = -1 if outcome[s] == DRAW else <int64_t> remoteness[s]


def widen(const int8_t[::1] outcome, const rem_t[::1] remoteness, int64_t[::1] out,
          int threads=1):
    """The int64 remoteness a solution shows: ``remoteness``, -1 at draws.

    >>> import numpy as np
    >>> out = np.empty(2, np.int64)
    >>> widen(np.array([1, 0], np.int8), np.array([3, 0], np.uint16), out)
    >>> out.tolist()
    [3, -1]
    """
    cdef int64_t n = outcome.shape[0], s
    check_threads(threads)
    if remoteness.shape[0] != n or out.shape[0] != n:
        raise ValueError(f"outcome, remoteness and out must have {n} entries")
    with nogil:
        for s in prange(n, num_threads=threads, schedule="static"):
            out[s] = -1 if outcome[s] == DRAW else <int64_t> remoteness[s]


def first_optimal(const int8_t[::1] outcome, const rem_t[::1] remoteness,
                  const int64_t[::1] codes, const int64_t[::1] offsets,
                  const int64_t[::1] children, int64_t[::1] move):
    """The move rule of :func:`best_moves` for moves listed by the caller:
    ``move[i]`` is the first of ``children[offsets[i]:offsets[i + 1]]`` (the
    successors of ``codes[i]``, in move order) that keeps the value of
    ``codes[i]``, or -1 (numbers index ``outcome`` and ``remoteness``, a
    solve's arrays: remoteness 0 at draws).

    >>> import numpy as np
    >>> move = np.empty(1, np.int64)
    >>> first_optimal(np.array([1, 1, -1], np.int8), np.array([1, 0, 0], np.uint16),
    ...               np.array([0]), np.array([0, 2]), np.array([1, 2]), move)
    >>> move.tolist()
    [2]
    """
    cdef int64_t k = codes.shape[0], n = outcome.shape[0], i, e, s, c
    if offsets.shape[0] != k + 1 or move.shape[0] < k or remoteness.shape[0] != n:
        raise ValueError("codes, offsets, move, outcome and remoteness do not fit together")
    if k and (offsets[0] != 0 or offsets[k] > children.shape[0]):
        raise ValueError("offsets do not fit the children")
    for i in range(k):
        s = codes[i]
        if not 0 <= s < n or offsets[i] > offsets[i + 1]:
            raise ValueError(f"entry {i} of the codes or offsets is out of range")
        move[i] = -1
        for e in range(offsets[i], offsets[i + 1]):
            c = children[e]
            if 0 <= c < n and keeps(outcome[s], remoteness[s], outcome[c], remoteness[c]):
                move[i] = c
                break
