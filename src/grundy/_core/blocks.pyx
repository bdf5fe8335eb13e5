"""The engine's block kernel: the retrograde pass on one block of positions,
a level at a time, for a solve whose positions are split into blocks that
live apart (``grundy.distributed``: one block a Dask worker).

A block holds the state bytes and remoteness of the positions lo..hi-1 and
the counters of those with MANY moves (``states.pxd``); the positions it
decided at the last level are its frontier (local numbers).  One level:

1. :func:`level_source` (or :func:`level_given`, for predecessors a Python
   game listed) takes the predecessors of the frontier: those the block
   owns it settles at once, the others it routes to the blocks that own
   them, for each block an array of that block's local numbers, ``local <<
   1 | 1`` for a move to a LOSS (the lanes of ``lanes.pxd``, as the
   threaded pass routes between threads);
2. each block :func:`apply` s what the others routed to it.  Both settle a
   move with ``lanes.settle_checked`` (the threaded pass's ``settle``, the
   moves checked first): a move to a LOSS
   makes an undecided predecessor a WIN, a move to a WIN takes one from its
   counter (a LOSS at 0), and in the tie pass a move to a TIE makes it a
   TIE; what it decides is its next frontier, at remoteness = the level.
   A block also checks that no position is sent more moves to WINs than
   it has (the game's predecessors and moves would disagree).

The initial state bytes come from the source (:func:`initial_states`) or
from primitive values and move counts (:func:`initial_from`), the outcome
from the state bytes (:func:`decode`): the same as a single-machine
solve's, position by position.
"""
import numpy as np

from libc.stdlib cimport malloc, free

from grundy._core._typedefs cimport (int8_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t,
                                     rem_t, grundy_prefetch)
from grundy._core._interrupt cimport raise_interrupt, interrupted
from grundy._core.lanes cimport Lane, append, settle_checked
from grundy._core.source cimport MoveSource
from grundy._core.states cimport (Many, MANY, MARK_WIN, MARK_LOSS, MARK_TIE, INVALID_STATE,
                                  bad_state, decided, initial_state, outcome_of, take_one,
                                  terminal_mark)
from grundy._core.status cimport (RETRO_OK, RETRO_NO_MEMORY, RETRO_OVERFLOW, RETRO_DISAGREE,
                                  RETRO_NO_COUNTER, CHECK_EVERY_STATES, padded)
from libc.stdint cimport INT64_MAX

ctypedef fused message_t:
    uint32_t
    int64_t

cdef enum:
    BAD_ENTRY = -21         # a routed number outside the block
    BAD_PREDECESSOR = -22   # a predecessor given outside every block


def initial_states(MoveSource src not None, int64_t lo, int64_t hi, bint misere):
    """The state bytes of the positions lo..hi-1 (terminal marks written),
    and the counters kept aside ``(ids, left)`` (local numbers, int64) of
    those with 252 moves or more.  ValueError naming a position whose
    primitive value or number of moves breaks the source's contract.

    >>> from grundy._core.csr import CSRSource
    >>> src = CSRSource(np.array([0, 1, 2, 2]), np.array([1, 2]))
    >>> state, ids, left = initial_states(src, 1, 3, False)
    >>> state.tolist(), ids.tolist()
    ([1, 254], [])
    """
    if not 0 <= lo <= hi <= src.n_positions:
        raise ValueError(f"positions {lo}..{hi} are not within 0..{src.n_positions}")
    state = np.empty(hi - lo, dtype=np.uint8)
    cdef uint8_t[::1] view = state
    cdef int64_t bad = -1, s
    cdef int8_t p
    cdef int64_t d = 0
    cdef int64_t* buf = <int64_t*> malloc(padded(max(src.max_successors, 0) + 1) * sizeof(int64_t))
    if buf == NULL:
        raise MemoryError("out of memory for the successor buffer")
    if hi > lo:
        with nogil:
            # initial_states writes state[s] for s in lo..hi-1.
            bad = src.initial_states(&view[0] - lo, lo, hi, buf)
            if bad >= 0:
                p = src.primitive(bad)
                d = src.n_moves(bad) if p == 0 else 0
                if p == 0 and d < 0:
                    d = src.successors(bad, buf)
    if bad >= 0:
        free(buf)
        raise bad_state(bad, p, d)
    many = np.flatnonzero(state == MANY).astype(np.int64)
    left = np.empty(len(many), dtype=np.int64)
    cdef const int64_t[::1] many_view = many
    cdef int64_t[::1] left_view = left
    cdef int64_t k
    with nogil:
        for k in range(many_view.shape[0]):
            s = many_view[k] + lo
            d = src.n_moves(s)
            left_view[k] = d if d >= 0 else src.successors(s, buf)
    free(buf)
    _terminal(state, misere)
    return state, many, left


def initial_from(const int8_t[::1] primitive, const int64_t[::1] moves, bint misere):
    """The state bytes of positions from their primitive values (0, WIN,
    LOSS or TIE, checked by the caller) and their numbers of moves, with
    the counters kept aside ``(ids, left)`` as :func:`initial_states`.

    >>> state, ids, left = initial_from(np.array([0, 0, 1], np.int8),
    ...                                 np.array([2, 0, 3]), False)
    >>> state.tolist(), ids.tolist()
    ([2, 254, 255], [])
    """
    cdef int64_t n = primitive.shape[0], s
    if moves.shape[0] != n:
        raise ValueError(f"{n} primitive values for {moves.shape[0]} move counts")
    state = np.empty(n, dtype=np.uint8)
    cdef uint8_t[::1] view = state
    cdef int code
    for s in range(n):
        code = initial_state(primitive[s], moves[s] if primitive[s] == 0 else 0)
        if code == INVALID_STATE:
            raise bad_state(s, primitive[s], moves[s])
        view[s] = <uint8_t> code
    many = np.flatnonzero(state == MANY).astype(np.int64)
    left = np.asarray(moves)[many].astype(np.int64)
    _terminal(state, misere)
    return state, many, left


cdef void _terminal(uint8_t[::1] state, bint misere) noexcept:
    """A position with no move (and no primitive value) ends the game."""
    cdef int64_t s
    cdef uint8_t mark = terminal_mark(misere)
    for s in range(state.shape[0]):
        if state[s] == 0:
            state[s] = mark


def known(const uint8_t[::1] state, bint ties):
    """The first frontier: the positions known from the start (their local
    numbers), WINs and LOSSes, or TIEs for the tie pass.

    >>> known(np.array([255, 3, 254, 253], np.uint8), False).tolist()
    [0, 2]
    """
    marks = np.asarray(state)
    if ties:
        return np.flatnonzero(marks == MARK_TIE).astype(np.int64)
    return np.flatnonzero(marks >= MARK_LOSS).astype(np.int64)


cdef inline int64_t _block_of(const int64_t* bounds, int64_t nblocks, int64_t u) noexcept nogil:
    """The block holding position u: bounds[b] <= u < bounds[b + 1]."""
    cdef int64_t lo = 0, hi = nblocks - 1, mid
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if bounds[mid] <= u:
            lo = mid
        else:
            hi = mid - 1
    return lo


cdef enum:
    GROUP = 16                # positions whose predecessors are fetched together
    AHEAD = 8                 # prefetch distance (entries)


# What one level of a block needs: its arrays, the level, and where the
# positions it decides go.
cdef struct Level:
    uint8_t* state
    Many* many
    int64_t n
    int64_t level
    bint ties
    Lane* decided
    int64_t* reserved
    int64_t bad


cdef inline int _settle_one(Level* lv, rem_t* remoteness, int64_t u, bint to_win) noexcept nogil:
    """``lanes.settle_checked`` for u of this block (the position is kept
    for the error's message)."""
    cdef int got = settle_checked(lv.state, lv.many, remoteness, u, to_win, lv.ties, lv.level,
                                  INT64_MAX, lv.decided, lv.reserved, INT64_MAX)
    if got >= 0:
        return RETRO_OK
    if got == RETRO_DISAGREE or got == RETRO_NO_COUNTER:
        lv.bad = u
    return got


cdef int _walk(MoveSource src, Level* lv, rem_t* remoteness, const int64_t* frontier,
               int64_t size, int64_t lo, const int64_t* bounds, int64_t nblocks,
               Lane* lanes, int64_t* buf, int64_t width, int64_t* routed) noexcept nogil:
    """The predecessors of the frontier: those of this block settled at
    once, the others routed to their blocks (``local << 1 | the position
    moved to is a LOSS``).  In groups, their state bytes prefetched, as the
    threaded pass's walk."""
    cdef int64_t i = 0, g, e, j, u, b, m
    cdef int64_t count[GROUP]
    cdef const int64_t* where[GROUP]
    cdef const int64_t* preds = NULL
    cdef bint lost
    cdef int err
    while i < size:
        g = min(<int64_t> GROUP, size - i)
        for e in range(g):
            j = src.predecessors(frontier[i + e] + lo, buf + e * width, &preds)
            where[e] = preds
            count[e] = j * 2 + ((not lv.ties) and lv.state[frontier[i + e]] == MARK_LOSS)
            routed[0] += j
            for b in range(j):
                if lo <= preds[b] < lo + lv.n:
                    grundy_prefetch(lv.state + preds[b] - lo)
        for e in range(g):
            preds = where[e]
            m = count[e]
            lost = m & 1
            for j in range(m >> 1):
                u = preds[j]
                if not bounds[0] <= u < bounds[nblocks]:
                    lv.bad = u
                    return BAD_PREDECESSOR
                if lo <= u < lo + lv.n:
                    err = _settle_one(lv, remoteness, u - lo, lost)
                else:
                    b = _block_of(bounds, nblocks, u)
                    err = append(&lanes[b], ((u - bounds[b]) << 1) | lost, lv.reserved,
                                 INT64_MAX)
                if err != RETRO_OK:
                    return err
        i += g
    return RETRO_OK


cdef int _walk_given(Level* lv, rem_t* remoteness, const int64_t* frontier, int64_t size,
                     const int64_t* offsets, const int64_t* preds, int64_t lo,
                     const int64_t* bounds, int64_t nblocks, Lane* lanes) noexcept nogil:
    """:func:`_walk` for predecessors listed by the caller (global numbers):
    those of ``frontier[i]`` are ``preds[offsets[i]:offsets[i + 1]]``."""
    cdef int64_t i, j, u, b
    cdef bint lost
    cdef int err
    for i in range(size):
        lost = (not lv.ties) and lv.state[frontier[i]] == MARK_LOSS
        for j in range(offsets[i], offsets[i + 1]):
            u = preds[j]
            if not bounds[0] <= u < bounds[nblocks]:
                lv.bad = u
                return BAD_PREDECESSOR
            if lo <= u < lo + lv.n:
                err = _settle_one(lv, remoteness, u - lo, lost)
            else:
                b = _block_of(bounds, nblocks, u)
                err = append(&lanes[b], ((u - bounds[b]) << 1) | lost, lv.reserved, INT64_MAX)
            if err != RETRO_OK:
                return err
    return RETRO_OK


cdef class _Lanes:
    """A lane a block, freed with the object."""
    cdef Lane* lanes
    cdef int64_t n

    def __cinit__(self, int64_t n):
        self.lanes = <Lane*> malloc(max(n, 1) * sizeof(Lane))
        if self.lanes == NULL:
            raise MemoryError("out of memory for the routes")
        self.n = n
        cdef int64_t b
        for b in range(n):
            self.lanes[b].data = NULL
            self.lanes[b].size = 0
            self.lanes[b].cap = 0

    def __dealloc__(self):
        cdef int64_t b
        if self.lanes != NULL:
            for b in range(self.n):
                free(self.lanes[b].data)
            free(self.lanes)

    def arrays(self, bint wide):
        return [_message(&self.lanes[b], wide) for b in range(self.n)]


cdef Level _level(uint8_t[::1] state, Many* many, int64_t level, bint ties, Lane* decided,
                  int64_t* reserved):
    cdef Level lv
    lv.state = &state[0] if state.shape[0] else NULL
    lv.many = many
    lv.n = state.shape[0]
    lv.level = level
    lv.ties = ties
    lv.decided = decided
    lv.reserved = reserved
    lv.bad = -1
    return lv


cdef int _many(Many* many, const int64_t[::1] many_ids, int64_t[::1] many_left,
               int64_t n) except -1:
    """The counters kept aside, checked: ids increasing within the block's
    ``n`` positions (they are binary-searched), counts >= 0."""
    cdef int64_t k, bad = -1
    if many_left.shape[0] != many_ids.shape[0]:
        raise ValueError("the block's counters differ in length")
    for k in range(many_ids.shape[0]):
        if not (0 <= many_ids[k] < n) or many_left[k] < 0 or \
                (k and many_ids[k] <= many_ids[k - 1]):
            bad = k
            break
    if bad >= 0:
        raise ValueError(f"the block's counter {bad} (position {many_ids[bad]}, "
                         f"{many_left[bad]} moves left) is not in increasing order within "
                         f"0..{n - 1}, with a count >= 0")
    many.n = many_ids.shape[0]
    many.ids = <int64_t*> &many_ids[0] if many.n else NULL
    many.left = &many_left[0] if many.n else NULL
    return 0


cdef object _outcome(int err, Level* lv, Lane* decided, int64_t level):
    """The positions decided (int64 local numbers), or the error ``err`` raised."""
    if err == RETRO_DISAGREE:
        raise ValueError(f"position {lv.bad} (of the block) is sent more moves to WINs than "
                         f"it has at level {level}: the game's predecessors and moves disagree")
    if err == RETRO_NO_COUNTER:
        raise ValueError(f"position {lv.bad} (of the block) holds MANY ({<int> MANY}) but "
                         f"has no counter kept aside")
    if err == BAD_ENTRY:
        raise ValueError(f"a routed position {lv.bad} is outside the block's {lv.n} positions")
    if err == BAD_PREDECESSOR:
        raise ValueError(f"a predecessor {lv.bad} is outside the positions of the blocks")
    if err != RETRO_OK:
        raise MemoryError("out of memory for the block's next frontier")
    out = np.empty(decided.size, dtype=np.int64)
    cdef int64_t[::1] view = out
    cdef int64_t i
    for i in range(decided.size):
        view[i] = decided.data[i]
    return out


def level_source(MoveSource src not None, uint8_t[::1] state, const int64_t[::1] many_ids,
                 int64_t[::1] many_left, rem_t[::1] remoteness, const int64_t[::1] frontier,
                 int64_t lo, const int64_t[::1] bounds, int64_t level, bint ties,
                 bint wide=False):
    """One level of the block starting at ``lo`` (its state bytes, counters
    kept aside, remoteness): the predecessors of its frontier (the
    positions it decided at ``level - 1``, local numbers) that are its own
    are settled now, the others routed to their blocks (block b holds
    bounds[b]..bounds[b+1]-1) as ``local << 1 | 1`` for a move to a LOSS
    (``ties``: the tie pass, 0 for all), uint32 or, if ``wide``, int64.
    Returns (the positions decided now (local numbers), the arrays for each
    block (this block's empty), how many predecessors there were).

    >>> from grundy._core.csr import CSRSource
    >>> src = CSRSource(np.array([0, 1, 2, 2]), np.array([1, 2]))   # 0 -> 1 -> 2
    >>> state = np.array([1, 254], np.uint8)                         # the block 1..2
    >>> none = np.zeros(0, np.int64)
    >>> decided, arrays, count = level_source(src, state, none, none, np.zeros(2, np.uint16),
    ...                                       np.array([1]), 1, np.array([0, 1, 3]), 1, False)
    >>> decided.tolist(), state.tolist(), [a.tolist() for a in arrays], count
    ([0], [255, 254], [[], []], 1)
    """
    cdef int64_t nblocks = bounds.shape[0] - 1, routed = 0, reserved = 0
    cdef int64_t width = padded(max(src.max_predecessors, 0) + 1)
    cdef Many many
    _many(&many, many_ids, many_left, state.shape[0])
    if remoteness.shape[0] != state.shape[0]:
        raise ValueError("the block's arrays differ in length")
    _check_level(remoteness, level)
    _check_frontier(frontier, state.shape[0])
    _check_bounds(bounds, lo, state.shape[0])
    if not 0 <= lo <= lo + state.shape[0] <= src.n_positions:
        raise ValueError(f"positions {lo}..{lo + state.shape[0]} are not within "
                         f"0..{src.n_positions}")
    cdef _Lanes lanes = _Lanes(nblocks)
    cdef Lane decided
    decided.data = NULL
    decided.size = decided.cap = 0
    cdef Level lv = _level(state, &many, level, ties, &decided, &reserved)
    cdef int64_t* buf = <int64_t*> malloc(GROUP * width * sizeof(int64_t))
    cdef int err = RETRO_NO_MEMORY
    if buf != NULL:
        with nogil:
            err = _walk(src, &lv, &remoteness[0] if lv.n else NULL,
                        &frontier[0] if frontier.shape[0] else NULL, frontier.shape[0], lo,
                        &bounds[0], nblocks, lanes.lanes, buf, width, &routed)
    free(buf)
    try:
        return _outcome(err, &lv, &decided, level), lanes.arrays(wide), routed
    finally:
        free(decided.data)


def level_given(uint8_t[::1] state, const int64_t[::1] many_ids, int64_t[::1] many_left,
                rem_t[::1] remoteness, const int64_t[::1] frontier, const int64_t[::1] offsets,
                const int64_t[::1] preds, int64_t lo, const int64_t[::1] bounds,
                int64_t level, bint ties, bint wide=False):
    """:func:`level_source` for predecessors listed by the caller: those of
    ``frontier[i]`` are ``preds[offsets[i]:offsets[i + 1]]`` (global
    numbers within the bounds; each array checked).  Returns (the
    positions decided now, the arrays for each block).

    >>> state = np.array([2, 1, 254], np.uint8)                     # the block 3..5
    >>> none = np.zeros(0, np.int64)
    >>> decided, arrays = level_given(state, none, none, np.zeros(3, np.uint16), np.array([2]),
    ...                               np.array([0, 2]), np.array([1, 4]), 3,
    ...                               np.array([0, 3, 6]), 1, False)
    >>> decided.tolist(), [a.tolist() for a in arrays]               # 4 lost: 1 wins
    ([1], [[3], []])
    """
    cdef int64_t nblocks = bounds.shape[0] - 1, reserved = 0
    cdef Many many
    _many(&many, many_ids, many_left, state.shape[0])
    if remoteness.shape[0] != state.shape[0]:
        raise ValueError("the block's arrays differ in length")
    if offsets.shape[0] != frontier.shape[0] + 1:
        raise ValueError(f"{offsets.shape[0]} offsets for {frontier.shape[0]} positions")
    _check_level(remoteness, level)
    _check_frontier(frontier, state.shape[0])
    _check_bounds(bounds, lo, state.shape[0])
    _check_offsets(offsets, preds.shape[0])
    cdef _Lanes lanes = _Lanes(nblocks)
    cdef Lane decided
    decided.data = NULL
    decided.size = decided.cap = 0
    cdef Level lv = _level(state, &many, level, ties, &decided, &reserved)
    cdef int err
    with nogil:
        err = _walk_given(&lv, &remoteness[0] if lv.n else NULL,
                          &frontier[0] if frontier.shape[0] else NULL, frontier.shape[0],
                          &offsets[0], &preds[0] if preds.shape[0] else NULL, lo, &bounds[0],
                          nblocks, lanes.lanes)
    try:
        return _outcome(err, &lv, &decided, level), lanes.arrays(wide)
    finally:
        free(decided.data)


cdef int _check_frontier(const int64_t[::1] frontier, int64_t n) except -1:
    """ValueError unless every frontier position is one of the block's ``n``."""
    cdef int64_t i, bad = -1
    with nogil:
        for i in range(frontier.shape[0]):
            if not 0 <= frontier[i] < n:
                bad = i
                break
    if bad >= 0:
        raise ValueError(f"frontier[{bad}] = {frontier[bad]} is not a position of the block "
                         f"(0..{n - 1})")
    return 0


cdef int _check_bounds(const int64_t[::1] bounds, int64_t lo, int64_t n) except -1:
    """ValueError unless ``bounds`` (where each block starts, and the last
    ends) never decrease and hold this block, ``lo..lo+n-1``, as one of them."""
    cdef int64_t b
    if bounds.shape[0] < 2:
        raise ValueError(f"bounds must hold at least one block's start and end, got "
                         f"{bounds.shape[0]} numbers")
    for b in range(1, bounds.shape[0]):
        if bounds[b] < bounds[b - 1]:
            raise ValueError(f"bounds[{b}] = {bounds[b]} is below bounds[{b - 1}] = "
                             f"{bounds[b - 1]}: blocks are given in order")
    for b in range(bounds.shape[0] - 1):
        if bounds[b] == lo and bounds[b + 1] - lo == n:
            return 0
    raise ValueError(f"the block {lo}..{lo + n - 1} is not one of the bounds' blocks")


cdef int _check_offsets(const int64_t[::1] offsets, int64_t total) except -1:
    """ValueError unless the offsets start at 0, never decrease and stay
    within the ``total`` predecessors."""
    cdef int64_t i, bad = -1
    if offsets[0] != 0:
        bad = 0
    else:
        with nogil:
            for i in range(1, offsets.shape[0]):
                if offsets[i] < offsets[i - 1] or offsets[i] > total:
                    bad = i
                    break
    if bad >= 0:
        raise ValueError(f"offsets[{bad}] = {offsets[bad]}: offsets must start at 0, never "
                         f"decrease and end by {total} (the predecessors given)")
    return 0


cdef int _check_level(rem_t[::1] remoteness, int64_t level) except -1:
    cdef int64_t top = 0xFFFF if rem_t is uint16_t else 0x7FFFFFFF
    if level > top or level < 1:
        raise OverflowError(f"level {level} does not fit the remoteness (1..{top})")
    return 0


cdef object _message(Lane* lane, bint wide):
    """A lane's entries as a numpy array (uint32, or int64 if ``wide``)."""
    cdef int64_t i
    out = np.empty(lane.size, dtype=np.int64 if wide else np.uint32)
    cdef uint32_t[::1] narrow
    cdef int64_t[::1] full
    if wide:
        full = out
        for i in range(lane.size):
            full[i] = lane.data[i]
    else:
        narrow = out
        for i in range(lane.size):
            narrow[i] = <uint32_t> lane.data[i]
    return out


def apply(uint8_t[::1] state, const int64_t[::1] many_ids, int64_t[::1] many_left,
          rem_t[::1] remoteness, messages, int64_t level, bint ties):
    """Settle the moves the other blocks routed to this block for ``level``
    (a list of arrays from :func:`level_source`/:func:`level_given`);
    returns the positions decided now (local numbers), whose remoteness is
    ``level``.  Raises OverflowError if ``level`` does not fit the
    remoteness type, and ValueError if a position is sent more moves to
    WINs than it has (the game's predecessors and moves disagree).

    >>> state = np.array([1, 2, 254], np.uint8)
    >>> rem = np.zeros(3, np.uint16)
    >>> none = np.zeros(0, np.int64)
    >>> apply(state, none, none, rem, [np.array([0, 2], np.uint32)], 1, False).tolist()
    [0]
    >>> state.tolist(), rem.tolist()     # 0: its one move to a WIN; 1: one of its two
    ([254, 1, 254], [1, 0, 0])
    """
    cdef Many many
    _many(&many, many_ids, many_left, state.shape[0])
    if remoteness.shape[0] != state.shape[0]:
        raise ValueError("the block's arrays differ in length")
    _check_level(remoteness, level)
    cdef int64_t reserved = 0
    cdef Lane decided
    decided.data = NULL
    decided.size = decided.cap = 0
    cdef Level lv = _level(state, &many, level, ties, &decided, &reserved)
    cdef int err = RETRO_OK
    cdef const uint32_t[::1] narrow
    cdef const int64_t[::1] full
    try:
        for message in messages:
            arr = np.asarray(message)
            if arr.dtype == np.uint32:
                narrow = arr
                with nogil:
                    err = _settle_all(&lv, &remoteness[0] if lv.n else NULL,
                                      &narrow[0] if narrow.shape[0] else NULL, narrow.shape[0])
            else:
                full = arr.astype(np.int64, copy=False)
                with nogil:
                    err = _settle_all(&lv, &remoteness[0] if lv.n else NULL,
                                      &full[0] if full.shape[0] else NULL, full.shape[0])
            if err != RETRO_OK:
                break
        return _outcome(err, &lv, &decided, level)
    finally:
        free(decided.data)


cdef int _settle_all(Level* lv, rem_t* remoteness, const message_t* entries,
                     int64_t count) noexcept nogil:
    cdef int64_t i, u
    cdef int err
    for i in range(count):
        if i + AHEAD < count:
            grundy_prefetch(lv.state + <int64_t> (entries[i + AHEAD] >> 1))
        u = <int64_t> (entries[i] >> 1)
        if u < 0 or u >= lv.n:
            lv.bad = u
            return BAD_ENTRY
        err = _settle_one(lv, remoteness, u, entries[i] & 1)
        if err != RETRO_OK:
            return err
    return RETRO_OK


def decode(const uint8_t[::1] state):
    """The outcome (int8: WIN 1, LOSS -1, DRAW 0, TIE 2) of each position of a
    solved block.

    >>> decode(np.array([255, 254, 253, 7], np.uint8)).tolist()
    [1, -1, 2, 0]
    """
    out = np.empty(state.shape[0], dtype=np.int8)
    cdef int8_t[::1] view = out
    cdef int64_t s
    for s in range(state.shape[0]):
        view[s] = outcome_of(state[s])
    return out
