"""Retrograde analysis: win/loss/draw, remoteness and optimal moves.

The queue loop is written once, in ``_retrograde``, and runs on any
:class:`MoveSource`: a reverse CSR slice for an explicit graph
(:class:`CSRSource`), the move rules of an implicit game (police.pyx).

Algorithm: every known state goes into a FIFO queue with remoteness 0.
Popping a LOSS state decides each undecided predecessor as a WIN (one move
more); popping a WIN state decrements each undecided predecessor's counter of
undecided moves, and a predecessor whose counter reaches 0 is a LOSS (one
move more).  The queue holds states in non-decreasing remoteness, so the
first LOSS successor reached is the nearest (the winner hurries) and the
last WIN successor is the farthest (the loser delays).  Each state is
decided once and each move looked at once: O(n + m).

Ties (games that end without a winner): a known TIE state is neither a WIN
nor a LOSS for the pass above, so a move to it keeps its predecessor from
being a LOSS.  Then a second pass, a breadth-first search backwards from the
known TIE states, makes every still undecided state with a move to a TIE a
TIE, at one move more than the nearest (its remoteness: the fewest moves to
the tie ending).  Again O(n + m).  States never decided are draws.
"""
import threading

import numpy as np

from cython.parallel cimport prange, threadid
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memcpy
from libc.stdint cimport INT64_MAX

from grundy._core._typedefs cimport (int8_t, int32_t, int64_t, uint8_t,
                                     uint16_t, count_t, rem_t, WIN, LOSS, DRAW, TIE,
                                     grundy_prefetch)
from grundy._core.csr cimport reverse_csr, check_csr, max_out_degree
from grundy._core._interrupt cimport PyErr_CheckSignals, interrupted, raise_interrupt

# How often the engine looks for Ctrl-C: every 2^16 pops (milliseconds).
cdef enum:
    CHECK_EVERY_POPS = (1 << 16) - 1
    CHECK_EVERY_STATES = (1 << 22) - 1
    GROUP = 16                # states whose predecessors are fetched together
    MAX_THREADS = 65535       # threads of a solve (owners are uint16)


cdef int _check_threads(int64_t threads) except -1:
    """ValueError unless ``threads`` is a thread count the engine takes."""
    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    if threads > MAX_THREADS:
        raise ValueError(f"threads must be at most {MAX_THREADS}, got {threads}")
    return 0


cdef class MoveSource:
    cdef int64_t predecessors(self, int64_t s, int64_t* buf,
                              const int64_t** out) noexcept nogil:
        out[0] = buf
        return 0

    cdef int64_t successors(self, int64_t s, int64_t* buf) noexcept nogil:
        return 0

    cdef int8_t primitive(self, int64_t s) noexcept nogil:
        return 0

    cdef int64_t n_moves(self, int64_t s) noexcept nogil:
        return -1

    cdef int64_t initial_states(self, uint8_t* state, int64_t start, int64_t stop,
                                int64_t* buf) noexcept nogil:
        cdef int64_t s, d
        cdef int8_t p
        cdef int code
        for s in range(start, stop):
            p = self.primitive(s)
            d = 0
            if p == 0:
                d = self.n_moves(s)
                if d < 0:
                    d = self.successors(s, buf)
            code = initial_state(p, d)
            if code == COMPACT_INVALID:
                return s
            state[s] = <uint8_t> code
        return -1

    cdef void prefetch(self, int64_t s, int stage) noexcept nogil:
        pass

    # -- the rules in batches, for drivers outside the engine (grundy.distributed)

    def initial_block(self, int64_t start, int64_t stop):
        """The engine's initial state bytes of the states ``start..stop-1``.

        A uint8 array: the number of moves (0..252) of a state where the game
        goes on, else its mark (253 TIE, 254 LOSS, 255 WIN for the player to
        move).  ValueError for a range outside ``0..n_states`` or a state
        whose primitive value or move count is invalid (named).
        """
        if not 0 <= start <= stop <= self.n_states:
            raise ValueError(f"states {start}..{stop} are not within 0..{self.n_states}")
        out = np.empty(stop - start, dtype=np.uint8)
        if stop == start:
            return out
        cdef uint8_t[::1] view = out
        cdef int64_t bad
        cdef int64_t* buf = <int64_t*> malloc((max(self.max_successors, 0) + 1) * sizeof(int64_t))
        if buf == NULL:
            raise MemoryError("out of memory for the successor buffer")
        with nogil:
            # initial_states writes state[s] for s in start..stop-1.
            bad = self.initial_states(&view[0] - start, start, stop, buf)
        free(buf)
        if bad >= 0:
            raise ValueError(f"state {bad} has an invalid primitive value or more than "
                             f"{COMPACT_MAX_MOVES} moves")
        return out

    def predecessors_of(self, const int64_t[::1] states):
        """The predecessors of each state of ``states``, as CSR arrays
        ``(offsets, ids)``: those of ``states[i]`` are
        ``ids[offsets[i]:offsets[i + 1]]`` (int64, once per move)."""
        cdef int64_t k = states.shape[0], i, j, c, total = 0, s
        cdef const int64_t* preds = NULL
        for i in range(k):
            if not 0 <= states[i] < self.n_states:
                raise ValueError(f"state {states[i]} is not within 0..{self.n_states - 1}")
        offsets = np.empty(k + 1, dtype=np.int64)
        cdef int64_t[::1] off = offsets
        cdef int64_t* buf = <int64_t*> malloc((max(self.max_predecessors, 0) + 1) * sizeof(int64_t))
        if buf == NULL:
            raise MemoryError("out of memory for the predecessor buffer")
        off[0] = 0
        with nogil:
            for i in range(k):
                total += self.predecessors(states[i], buf, &preds)
                off[i + 1] = total
        ids = np.empty(total, dtype=np.int64)
        cdef int64_t[::1] out = ids
        with nogil:
            for i in range(k):
                c = self.predecessors(states[i], buf, &preds)
                s = off[i]
                for j in range(c):
                    out[s + j] = preds[j]
        free(buf)
        return offsets, ids


# ---------------------------------------------------------------------------
# A FIFO of state ids in fixed-size blocks: its memory follows the frontier
# (never a copy on growth), and it refuses to grow past a byte limit.

cdef enum:
    QBLOCK = 1 << 15                 # ids per block (256 KiB)

cdef struct QBlock:
    int64_t data[QBLOCK]
    QBlock* next


cdef struct Queue:
    QBlock* head          # popped from head.data[head_at]
    QBlock* tail          # pushed to tail.data[tail_at]
    QBlock* spare         # one emptied block kept for reuse
    int64_t head_at
    int64_t tail_at
    int64_t size
    int64_t blocks        # blocks allocated (spare included)
    int64_t max_blocks    # the byte limit, in blocks


cdef int queue_init(Queue* q, int64_t max_bytes) noexcept nogil:
    q.max_blocks = max_bytes // sizeof(QBlock)
    if q.max_blocks < 1:
        q.max_blocks = 1
    q.head = <QBlock*> malloc(sizeof(QBlock))
    if q.head == NULL:
        return RETRO_NO_MEMORY
    q.head.next = NULL
    q.tail = q.head
    q.spare = NULL
    q.head_at = 0
    q.tail_at = 0
    q.size = 0
    q.blocks = 1
    return RETRO_OK


cdef void queue_free(Queue* q) noexcept nogil:
    cdef QBlock* b = q.head
    cdef QBlock* nxt
    while b != NULL:
        nxt = b.next
        free(b)
        b = nxt
    free(q.spare)
    q.head = NULL
    q.spare = NULL


cdef inline int queue_push(Queue* q, int64_t x) noexcept nogil:
    cdef QBlock* b
    if q.tail_at == QBLOCK:
        if q.spare != NULL:
            b = q.spare
            q.spare = NULL
        else:
            if q.blocks >= q.max_blocks:
                return RETRO_MEMORY_LIMIT
            b = <QBlock*> malloc(sizeof(QBlock))
            if b == NULL:
                return RETRO_NO_MEMORY
            q.blocks += 1
        b.next = NULL
        q.tail.next = b
        q.tail = b
        q.tail_at = 0
    q.tail.data[q.tail_at] = x
    q.tail_at += 1
    q.size += 1
    return RETRO_OK


cdef inline int64_t queue_pop(Queue* q) noexcept nogil:
    """The oldest id (the queue must not be empty)."""
    cdef QBlock* b
    cdef int64_t x
    if q.head_at == QBLOCK:
        b = q.head
        q.head = b.next
        q.head_at = 0
        if q.spare == NULL:
            q.spare = b
        else:
            free(b)
            q.blocks -= 1
    x = q.head.data[q.head_at]
    q.head_at += 1
    q.size -= 1
    return x


cdef inline int64_t queue_peek(Queue* q, int64_t k) noexcept nogil:
    """The id k places after the next one to pop (k < size, k < QBLOCK)."""
    cdef int64_t at = q.head_at + k
    if at < QBLOCK:
        return q.head.data[at]
    return q.head.next.data[at - QBLOCK]


# ---------------------------------------------------------------------------
# The engine.


cdef inline int64_t _padded(int64_t ids) noexcept nogil:
    """Room for ``ids`` ids in a per-thread buffer, rounded up so that two
    threads' buffers (written at every call) never share a cache line."""
    return (ids + 15) // 16 * 16 + 16


cdef inline bint _decided(count_t c) noexcept nogil:
    """A state byte (or word) holding a mark (WIN, LOSS, TIE), not a counter:
    one comparison (the marks are the top values of uint8, negative in int64)."""
    if count_t is uint8_t:
        return c >= COMPACT_TIE
    else:
        return c < 0


cdef inline int _decide(count_t* state, rem_t* remoteness, int64_t* move,
                        Queue* q, int64_t u, int64_t s, count_t mark, int64_t r,
                        int64_t max_remoteness) noexcept nogil:
    """State u is decided (mark) with remoteness r, by its move to s."""
    if r > max_remoteness:
        return RETRO_OVERFLOW
    state[u] = mark
    remoteness[u] = <rem_t> r
    if move != NULL:
        move[u] = s
    return queue_push(q, u)


# The progress callback of the solve running in this thread, set by the def
# wrappers around their nogil pass (one per thread: solves may run side by
# side), and an exception it raised, kept for the wrapper to re-raise.
_local = threading.local()


cdef bint _check(int64_t done, int64_t total) noexcept nogil:
    """The Ctrl-C check of the main pass, which also reports progress: True
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


cdef int _retrograde(MoveSource src, count_t* state, rem_t* remoteness,
                     int64_t* move, count_t terminal, int64_t max_remoteness,
                     int64_t max_queue_bytes) noexcept nogil:
    cdef count_t win_mark = <count_t> -1, loss_mark = <count_t> -2, c
    cdef count_t tie_mark = <count_t> -3
    cdef bint s_lost, prefetches = src.prefetches, ties = False
    cdef int64_t n = src.n_states
    cdef int64_t s, u, i, k, r = 0, level_left, pops = 0
    cdef const int64_t* preds = NULL
    cdef Queue q
    cdef int status = 0
    # A group: its states, predecessor buffers, where each one's
    # predecessors are and how many.
    cdef int64_t width = _padded(src.max_predecessors + 1), g, e
    cdef int64_t group[GROUP]
    cdef int64_t count[GROUP]
    cdef const int64_t* where[GROUP]
    cdef int64_t* buf = <int64_t*> malloc(GROUP * width * sizeof(int64_t))
    if buf == NULL:
        return RETRO_NO_MEMORY
    status = queue_init(&q, max_queue_bytes)
    if status != RETRO_OK:
        free(buf)
        return status

    for s in range(n):
        if (s & CHECK_EVERY_STATES) == CHECK_EVERY_STATES and interrupted():
            status = RETRO_INTERRUPTED
            break
        remoteness[s] = 0
        if move != NULL:
            move[s] = -1
        if state[s] == 0:
            state[s] = terminal
        if state[s] == win_mark or state[s] == loss_mark:
            status = queue_push(&q, s)
            if status != RETRO_OK:
                break
        elif state[s] == tie_mark:
            ties = True

    # The queue holds one level of remoteness after another; r is the
    # remoteness of the states being popped, level_left how many remain.
    # States are popped in groups (never across two levels): the
    # predecessors of a group first, their state bytes prefetched, then
    # settled in the order popped, so that the cache misses overlap.
    level_left = q.size
    while status == 0 and q.size > 0:
        g = 0
        while g < GROUP and q.size > 0 and (g == 0 or level_left > 0):
            if level_left == 0:
                r += 1
                level_left = q.size
            level_left -= 1
            pops += 1
            if (pops & CHECK_EVERY_POPS) == 0 and _check(pops, n):
                status = RETRO_INTERRUPTED
                break
            if prefetches and q.size > 16:
                # Hide the memory latency of the states popped soon (their
                # predecessor lists are scattered): two stages ahead.
                src.prefetch(queue_peek(&q, 16), 1)
                src.prefetch(queue_peek(&q, 8), 2)
            s = queue_pop(&q)
            group[g] = s
            k = src.predecessors(s, buf + g * width, &preds)
            where[g] = preds
            count[g] = k
            for i in range(k):
                grundy_prefetch(state + preds[i])
            g += 1
        if status != 0:
            break
        for e in range(g):
            s = group[e]
            preds = where[e]
            s_lost = state[s] == loss_mark
            for i in range(count[e]):
                u = preds[i]
                c = state[u]
                if _decided(c):
                    continue
                if s_lost:                  # a move to a LOSS: u wins
                    status = _decide(state, remoteness, move, &q, u, s, win_mark,
                                     r + 1, max_remoteness)
                elif c == 1:                # u's last undecided move leads to a WIN
                    status = _decide(state, remoteness, move, &q, u, s, loss_mark,
                                     r + 1, max_remoteness)
                else:
                    state[u] = c - 1
                    continue
                if status != 0:
                    break
            if status != 0:
                break
    if status == 0 and ties:
        status = _tie_pass(src, state, remoteness, move, max_remoteness, &q, buf)
    queue_free(&q)
    free(buf)
    return status


cdef int _tie_pass(MoveSource src, count_t* state, rem_t* remoteness,
                   int64_t* move, int64_t max_remoteness, Queue* q,
                   int64_t* buf) noexcept nogil:
    """Breadth-first from the known TIE states (the queue is empty): an
    undecided predecessor of a TIE is a TIE, one move further."""
    cdef count_t win_mark = <count_t> -1, loss_mark = <count_t> -2, c
    cdef count_t tie_mark = <count_t> -3
    cdef int64_t n = src.n_states, s, u, i, k, r = 0, level_left, pops = 0
    cdef const int64_t* preds = NULL
    cdef int status = RETRO_OK
    for s in range(n):
        if state[s] == tie_mark:
            status = queue_push(q, s)
            if status != RETRO_OK:
                return status
    level_left = q.size
    while q.size > 0:
        if level_left == 0:
            r += 1
            level_left = q.size
        level_left -= 1
        pops += 1
        if (pops & CHECK_EVERY_POPS) == 0 and interrupted():
            return RETRO_INTERRUPTED
        s = queue_pop(q)
        k = src.predecessors(s, buf, &preds)
        for i in range(k):
            u = preds[i]
            c = state[u]
            if _decided(c):
                continue
            status = _decide(state, remoteness, move, q, u, s, tie_mark, r + 1,
                             max_remoteness)
            if status != RETRO_OK:
                return status
    return RETRO_OK


# ---------------------------------------------------------------------------
# The same pass on several threads, level by level.
#
# Each thread owns a contiguous run of bins of state ids (at most BINS
# bins), chosen at every level large enough to split so that each run
# holds an equal share of the level's states (from a count of them by bin);
# the states move to their new owners when the lanes are too uneven (the
# walker of a state need not own it: its byte is final).  Games whose moves
# stay near their state's id (police and thief: a thief's move changes the
# id by less than 2F) then keep most moves inside one thread.  Only the
# owner ever writes a state's byte and remoteness, so nothing is atomic.
# The states decided at remoteness r (a level) are taken in slices; in a
# slice each thread walks the predecessors of its own share, settles at once
# the predecessors it owns and routes the others, with one bit saying
# whether the state they move to is a LOSS, to their owner (phase A); then
# each thread applies what was routed to it (phase B): a move to a LOSS
# makes an undecided predecessor a WIN, a move to a WIN takes one from its
# counter (a LOSS at 0), and a state decided now gets remoteness r + 1 and
# goes into its owner's part of the next level.  Outcome and remoteness
# depend only on the level at which a state is decided, not on the order
# within a level, so they equal the serial pass's whatever the number of
# threads.  (The pass records no moves: a solve picks them afterwards, the
# first optimal successor of each state in move order, the same for every
# thread count.)  Ctrl-C is looked for between slices, by the calling
# thread.  The ties, if any, are then found by the serial breadth-first pass.

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline long long grundy_add64(long long* p, long long v) {
        return _InterlockedExchangeAdd64((volatile long long*) p, v) + v;
    }
    #else
    static inline long long grundy_add64(long long* p, long long v) {
        return __atomic_add_fetch(p, v, __ATOMIC_RELAXED);
    }
    #endif
    """
    int64_t grundy_add64(int64_t* p, int64_t v) noexcept nogil


cdef enum:
    LEVEL_SLICE = 1 << 18     # states of a level per round of the two phases
    PUSH_MIN = 1 << 12        # first size of a buffer
    BINS = 4096               # ownership is by bins of ids, at most this many
    PARALLEL_MIN = 1 << 13    # a smaller slice runs on one thread (no barrier to wait at)
    AHEAD = 8                 # prefetch distance (ids)


cdef struct Lane:             # a growing array of ids that one thread writes
    int64_t* data
    int64_t size
    int64_t cap
    char pad[104]             # 128 bytes: no two threads' counters on one cache line


cdef inline int _append(Lane* lane, int64_t x, int64_t* reserved,
                        int64_t max_bytes) noexcept nogil:
    if lane.size < lane.cap:                  # the usual case, inline
        lane.data[lane.size] = x
        lane.size += 1
        return RETRO_OK
    return _lane_push(lane, x, reserved, max_bytes)


cdef int _lane_push(Lane* lane, int64_t x, int64_t* reserved,
                    int64_t max_bytes) noexcept nogil:
    cdef int64_t cap
    cdef int64_t* data
    if lane.size == lane.cap:
        cap = PUSH_MIN if lane.cap == 0 else 2 * lane.cap
        if grundy_add64(reserved, (cap - lane.cap) * 8) > max_bytes:
            grundy_add64(reserved, -(cap - lane.cap) * 8)
            return RETRO_MEMORY_LIMIT
        data = <int64_t*> realloc(lane.data, cap * sizeof(int64_t))
        if data == NULL:
            return RETRO_NO_MEMORY
        lane.data = data
        lane.cap = cap
    lane.data[lane.size] = x
    lane.size += 1
    return RETRO_OK


cdef inline int _settle(count_t* state, rem_t* remoteness, int64_t u, bint to_win,
                        int64_t r, int64_t max_remoteness, Lane* next_level,
                        int64_t* hist, int shift, int64_t* reserved,
                        int64_t max_bytes) noexcept nogil:
    """A move from u (owned by the calling thread) to a state decided at
    level r - 1: to a LOSS (to_win) makes u a WIN; to a WIN takes one from
    u's counter, a LOSS at 0.  A state decided now joins the next level
    (and is counted in its bin of ``hist``, which only u's owner writes)."""
    cdef count_t win_mark = <count_t> -1, loss_mark = <count_t> -2
    cdef count_t c = state[u]
    if _decided(c):
        return RETRO_OK
    if to_win:
        state[u] = win_mark
    elif c == 1:
        state[u] = loss_mark
    else:
        state[u] = c - 1
        return RETRO_OK
    if r > max_remoteness:
        return RETRO_OVERFLOW
    remoteness[u] = <rem_t> r
    hist[u >> shift] += 1
    return _append(next_level, u, reserved, max_bytes)


cdef int _apply(count_t* state, rem_t* remoteness, Lane* inbox, int64_t r,
                int64_t max_remoteness, Lane* next_level, int64_t* hist, int shift,
                int64_t* reserved, int64_t max_bytes) noexcept nogil:
    """Phase B for one owner: the moves routed to its states (id << 1 | the
    state moved to is a LOSS); the inbox is emptied."""
    cdef int64_t i, x
    cdef int status
    for i in range(inbox.size):
        if i + AHEAD < inbox.size:
            grundy_prefetch(state + (inbox.data[i + AHEAD] >> 1))
        x = inbox.data[i]
        status = _settle(state, remoteness, x >> 1, x & 1, r, max_remoteness, next_level,
                         hist, shift, reserved, max_bytes)
        if status != RETRO_OK:
            return status
    inbox.size = 0
    return RETRO_OK


cdef int _failure(const int* codes, int nthreads) noexcept nogil:
    """RETRO_OK, or the error code a thread left in ``codes``."""
    cdef int t, status = RETRO_OK
    for t in range(nthreads):
        if codes[t] != RETRO_OK:
            status = codes[t]
    return status


cdef int _bin_shift(int64_t n) noexcept nogil:
    """The ids of n states fall into at most BINS bins of 2^shift ids."""
    cdef int shift = 0
    while (max(n - 1, 0) >> shift) >= BINS:
        shift += 1
    return shift


cdef void _balance(int64_t* hist, uint16_t* owner, int64_t nbins, int64_t total,
                   int nthreads) noexcept nogil:
    """Deal the bins to the threads in contiguous runs of about
    ``total / nthreads`` states of the level each (``hist``: the level's
    states in each bin, reset here); a bin goes to the thread its middle
    state falls to.  The states the level decides fall much like its own,
    so each thread's lane of the next level is about as long."""
    cdef int64_t b, acc = 0
    for b in range(nbins):
        owner[b] = <uint16_t> min(nthreads - 1, (2 * acc + hist[b]) * nthreads // (2 * total))
        acc += hist[b]
        hist[b] = 0


cdef int _keep_own(Lane* lane, int d, const uint16_t* owner, int shift, Lane* routes,
                   int64_t* reserved, int64_t max_bytes) noexcept nogil:
    """Keep in thread d's ``lane`` the states it owns; route the others to
    their owners (``routes[o]``)."""
    cdef int64_t i, k = 0, x
    cdef int o, err = RETRO_OK
    for i in range(lane.size):
        x = lane.data[i]
        o = owner[x >> shift]
        if o == d:
            lane.data[k] = x
            k += 1
        elif err == RETRO_OK:
            err = _append(&routes[o], x, reserved, max_bytes)
    lane.size = k
    return err


cdef int _take_routed(Lane* lane, Lane* routes, int d, int nthreads, int64_t* hist,
                      int shift, int64_t* reserved, int64_t max_bytes) noexcept nogil:
    """Append to thread d's ``lane`` the states the threads routed to it
    (``routes[t * nthreads + d]``, emptied), counting them in ``hist`` if
    given (NULL: not counted)."""
    cdef int t
    cdef int64_t i, x
    cdef int err = RETRO_OK
    cdef Lane* inbox
    for t in range(nthreads):
        inbox = &routes[t * nthreads + d]
        for i in range(inbox.size):
            x = inbox.data[i]
            if hist != NULL:
                hist[x >> shift] += 1
            if err == RETRO_OK:
                err = _append(lane, x, reserved, max_bytes)
        inbox.size = 0
    return err


cdef int _walk(MoveSource src, count_t* state, rem_t* remoteness, const int64_t* ids,
               int64_t size, int d, const uint16_t* owner, int shift, int64_t* hist,
               Lane* routes, Lane* next_level, int64_t* bufs, int64_t width,
               const int64_t** where, int64_t* count, int64_t r, int64_t max_remoteness,
               int64_t* reserved, int64_t max_bytes) noexcept nogil:
    """Phase A on ``size`` states of a level, by thread d: the predecessors
    d owns settled at once (like the serial pass), the others routed to
    their owners (``routes[o]``, as id << 1 | the state moved to is a LOSS).
    In groups: the predecessors of GROUP states first, their state bytes
    prefetched, then settled, so that the cache misses overlap."""
    cdef count_t loss_mark = <count_t> -2
    cdef int64_t i = 0, g, e, j, b, m, u, s
    cdef const int64_t* preds = NULL
    cdef bint lost
    cdef int o, err
    while i < size:
        g = min(<int64_t> GROUP, size - i)
        for e in range(g):
            if i + e + GROUP < size:
                grundy_prefetch(state + ids[i + e + GROUP])
            s = ids[i + e]
            j = src.predecessors(s, bufs + e * width, &preds)
            where[e] = preds
            count[e] = j * 2 + (state[s] == loss_mark)
            for b in range(j):
                grundy_prefetch(state + preds[b])
        for e in range(g):
            preds = where[e]
            m = count[e]
            lost = m & 1
            for b in range(m >> 1):
                u = preds[b]
                o = owner[u >> shift]
                if o == d:
                    err = _settle(state, remoteness, u, lost, r, max_remoteness,
                                  next_level, hist, shift, reserved, max_bytes)
                else:
                    err = _append(&routes[o], u * 2 + lost, reserved, max_bytes)
                if err != RETRO_OK:
                    return err
        i += g
    return RETRO_OK


cdef int _retrograde_threads(MoveSource src, count_t* state, rem_t* remoteness,
                             count_t terminal, int64_t max_remoteness,
                             int64_t max_queue_bytes, int nthreads) noexcept nogil:
    """``_retrograde`` on ``nthreads`` threads (no moves recorded).

    Thread d owns the bins ``owner`` gives it, dealt again before each
    level large enough to split (PARALLEL_MIN states); ``level[d]`` holds
    the states of the current level it decided (owned by it under the
    previous deal), or, moved when the lanes are too uneven, those it owns
    under the new one.  Phase A (``_walk``): each thread walks the
    predecessors of its lane, settles those it owns at once (like the
    serial pass) and routes the others to their owners.  Phase B: each
    thread settles what was routed to it.  No thread ever writes another's
    state bytes, nor its bins of ``hist``.
    """
    cdef count_t win_mark = <count_t> -1, loss_mark = <count_t> -2, c
    cdef count_t tie_mark = <count_t> -3
    cdef int64_t n = src.n_states, s, i, k, lo, hi, r = 0, done = 0, b
    cdef int64_t reserved = 0, size, rounds, a, total, longest
    cdef int t, d, err, team, status = RETRO_OK
    cdef int shift = _bin_shift(n)
    cdef int64_t nbins = (max(n - 1, 0) >> shift) + 1
    cdef bint ties = False
    cdef Queue q
    cdef Lane* level = <Lane*> calloc(nthreads, sizeof(Lane))          # the current level
    cdef Lane* after = <Lane*> calloc(nthreads, sizeof(Lane))          # the next level
    cdef Lane* routes = <Lane*> calloc(nthreads * nthreads, sizeof(Lane))   # [from][to]
    cdef Lane* swap
    cdef int* codes = <int*> calloc(nthreads, sizeof(int))
    cdef bint* tie_seen = <bint*> calloc(nthreads, sizeof(bint))
    cdef int64_t width = _padded(src.max_predecessors + 1)
    # Per thread: GROUP predecessor buffers, and where each group member's
    # predecessors are, how many, and whether it is a LOSS.
    cdef int64_t* bufs = <int64_t*> malloc(nthreads * GROUP * width * sizeof(int64_t))
    cdef const int64_t** where = <const int64_t**> malloc(nthreads * 2 * GROUP * sizeof(void*))
    cdef int64_t* count = <int64_t*> malloc(nthreads * 2 * GROUP * sizeof(int64_t))
    # owner[u >> shift]: the thread that owns state u; hist[b]: the states of
    # the next level in bin b (each bin counted by its owner only).
    cdef uint16_t* owner = <uint16_t*> malloc(nbins * sizeof(uint16_t))
    cdef int64_t* hist = <int64_t*> calloc(nbins, sizeof(int64_t))
    # The routed moves of a round (8 bytes each, at most width a state) take
    # at most a quarter of the queue's budget.
    cdef int64_t slice_size = max(1024, min(<int64_t> LEVEL_SLICE,
                                            max_queue_bytes // (32 * width)))
    if level == NULL or after == NULL or routes == NULL or codes == NULL or \
            tie_seen == NULL or bufs == NULL or owner == NULL or where == NULL or \
            count == NULL or hist == NULL:
        status = RETRO_NO_MEMORY
    else:
        for b in range(nbins):                  # to start with: equal runs of bins
            owner[b] = <uint16_t> (b * nthreads // nbins)

    # The known states (marks, and terminal positions): the first level,
    # routed to their owners through the inboxes.
    lo = 0
    while status == RETRO_OK and lo < n:
        hi = min(n, lo + (CHECK_EVERY_STATES + 1))
        for s in prange(lo, hi, num_threads=nthreads, schedule="static"):
            t = threadid()
            remoteness[s] = 0
            c = state[s]
            if c == 0:
                c = terminal
                state[s] = c
            if c == win_mark or c == loss_mark:
                err = _append(&routes[t * nthreads + owner[s >> shift]], s, &reserved,
                              max_queue_bytes)
                if err != RETRO_OK:             # written only then: no line bouncing
                    codes[t] = err
            elif c == tie_mark:
                tie_seen[t] = True
        for d in prange(nthreads, num_threads=nthreads, schedule="static", chunksize=1):
            err = _take_routed(&level[d], routes, d, nthreads, hist, shift, &reserved,
                               max_queue_bytes)
            if err != RETRO_OK:
                codes[d] = err
        lo = hi
        status = _failure(codes, nthreads)
        if status == RETRO_OK and interrupted():
            status = RETRO_INTERRUPTED

    # Level by level: the states of remoteness r decide those of r + 1.
    while status == RETRO_OK:
        total = 0
        for t in range(nthreads):
            total += level[t].size
        if total == 0:
            break
        team = nthreads if total >= PARALLEL_MIN else 1
        if team > 1:
            _balance(hist, owner, nbins, total, nthreads)
            # The lanes hold what each thread decided under the last deal:
            # if one is more than 1/32 over its share, the states move to
            # their new owners (a pass over the level, cheaper than the
            # wait, and fewer moves then cross), memory permitting: the
            # routes and the lanes they join may each double (32 bytes a
            # moved id), and a route starts at PUSH_MIN ids.
            longest = 0
            for t in range(nthreads):
                longest = max(longest, level[t].size)
            if 32 * longest * nthreads > 33 * total and reserved + 32 * total + \
                    nthreads * nthreads * PUSH_MIN * 8 <= max_queue_bytes:
                for d in prange(nthreads, num_threads=team, schedule="static", chunksize=1):
                    codes[d] = _keep_own(&level[d], d, owner, shift, routes + d * nthreads,
                                         &reserved, max_queue_bytes)
                for d in prange(nthreads, num_threads=team, schedule="static", chunksize=1):
                    err = _take_routed(&level[d], routes, d, nthreads, NULL, shift,
                                       &reserved, max_queue_bytes)
                    if err != RETRO_OK:
                        codes[d] = err
                status = _failure(codes, nthreads)
                if status != RETRO_OK:          # a state may be lost: stop at once
                    break
        else:                                   # a small level, on one thread
            for t in range(nthreads):
                for i in range(level[t].size):
                    hist[level[t].data[i] >> shift] = 0
        rounds = 0
        for t in range(nthreads):
            rounds = max(rounds, (level[t].size + slice_size - 1) // slice_size)
        k = 0
        while status == RETRO_OK and k < rounds:
            # Phase A: each thread walks its slice of its share of the level;
            # it settles the predecessors it owns at once and routes the
            # others to their owners.
            for d in prange(nthreads, num_threads=team, schedule="static", chunksize=1):
                a = k * slice_size
                size = min(level[d].size, a + slice_size) - a
                if size > 0 and codes[d] == RETRO_OK:
                    codes[d] = _walk(src, state, remoteness, level[d].data + a, size, d,
                                     owner, shift, hist, routes + d * nthreads, &after[d],
                                     bufs + d * GROUP * width, width, where + d * 2 * GROUP,
                                     count + d * 2 * GROUP, r + 1, max_remoteness, &reserved,
                                     max_queue_bytes)
            # Phase B: each thread settles what was routed to its states.
            for d in prange(nthreads, num_threads=team, schedule="static", chunksize=1):
                for t in range(nthreads):
                    if codes[d] == RETRO_OK:
                        codes[d] = _apply(state, remoteness, &routes[t * nthreads + d], r + 1,
                                          max_remoteness, &after[d], hist, shift, &reserved,
                                          max_queue_bytes)
            k += 1
            done += total // rounds
            status = _failure(codes, nthreads)
            if status == RETRO_OK and _check(done, n):
                status = RETRO_INTERRUPTED
        # The next level: swap the lanes (the current ones, emptied, are reused).
        for t in range(nthreads):
            level[t].size = 0
        swap = level
        level = after
        after = swap
        r += 1

    for t in range(nthreads):
        if tie_seen != NULL:
            ties = ties or tie_seen[t]
        if level != NULL:
            free(level[t].data)
        if after != NULL:
            free(after[t].data)
        if routes != NULL:
            for d in range(nthreads):
                free(routes[t * nthreads + d].data)
    free(level)
    free(after)
    free(routes)
    free(codes)
    free(tie_seen)
    free(bufs)
    free(where)
    free(count)
    free(owner)
    free(hist)
    if status == RETRO_OK and ties:         # rare: the serial breadth-first pass
        status = queue_init(&q, max_queue_bytes)
        if status == RETRO_OK:
            bufs = <int64_t*> malloc(width * sizeof(int64_t))
            if bufs == NULL:
                status = RETRO_NO_MEMORY
            else:
                status = _tie_pass(src, state, remoteness, NULL, max_remoteness, &q, bufs)
                free(bufs)
            queue_free(&q)
    return status


cdef int retrograde_wide(MoveSource src, int64_t* state, int64_t* remoteness,
                         int64_t* move, int64_t terminal,
                         int64_t max_queue_bytes) noexcept nogil:
    return _retrograde(src, state, remoteness, move, terminal, INT64_MAX,
                       max_queue_bytes)


cdef int retrograde_compact16(MoveSource src, uint8_t* state,
                              uint16_t* remoteness, int64_t* move,
                              uint8_t terminal, int64_t max_queue_bytes) noexcept nogil:
    return _retrograde(src, state, remoteness, move, terminal, <int64_t> 0xFFFF,
                       max_queue_bytes)


cdef int retrograde_compact32(MoveSource src, uint8_t* state,
                              int32_t* remoteness, int64_t* move,
                              uint8_t terminal, int64_t max_queue_bytes) noexcept nogil:
    return _retrograde(src, state, remoteness, move, terminal,
                       <int64_t> 0x7FFFFFFF, max_queue_bytes)


cdef int retrograde_compact64(MoveSource src, uint8_t* state,
                              int64_t* remoteness, int64_t* move,
                              uint8_t terminal, int64_t max_queue_bytes) noexcept nogil:
    return _retrograde(src, state, remoteness, move, terminal, INT64_MAX,
                       max_queue_bytes)


def queue_bytes(int64_t n_ids):
    """Bytes the engine's queue takes to hold ``n_ids`` ids at once (whole
    blocks, and one spare block)."""
    return (n_ids // QBLOCK + 2) * <int64_t> sizeof(QBlock)


# ---------------------------------------------------------------------------
# Explicit graphs.

cdef class CSRSource(MoveSource):
    """An explicit graph as a MoveSource: successors from its CSR,
    predecessors from the reverse CSR (built here by a counting pass, on
    ``threads`` threads)."""
    cdef object _keep                         # the storage the pointers point into
    cdef const int64_t* indptr
    cdef const int64_t* indices
    cdef const int64_t* rev_indptr
    cdef const int64_t* rev_indices

    def __cinit__(self, indptr_in, indices_in, int threads=1):
        # Writable arrays are copied: the engine runs on raw pointers into them.
        arrays = []
        for arr in (indptr_in, indices_in):
            arr = np.asarray(arr)
            if arr.flags.writeable or arr.dtype != np.int64 or not arr.flags.c_contiguous:
                arr = np.array(arr, dtype=np.int64, order="C", copy=True)
                arr.flags.writeable = False
            arrays.append(arr)
        cdef const int64_t[::1] indptr = arrays[0]
        cdef const int64_t[::1] indices = arrays[1]
        check_csr(indptr, indices)
        cdef int64_t n = indptr.shape[0] - 1
        cdef int64_t m = indices.shape[0]
        rev_indptr = np.empty(n + 1, dtype=np.int64)
        rev_indices = np.empty(max(m, 1), dtype=np.int64)
        self._keep = (arrays[0], arrays[1], rev_indptr, rev_indices)
        cdef int64_t[::1] rp = rev_indptr
        cdef int64_t[::1] ri = rev_indices
        cdef int status
        with nogil:
            status = reverse_csr(n, &indptr[0], &indices[0] if m else NULL,
                                 &rp[0], &ri[0], threads)
        if status != 0:
            raise_interrupt()
        self.indptr = &indptr[0]
        self.indices = &indices[0] if m else NULL
        self.rev_indptr = &rp[0]
        self.rev_indices = &ri[0]
        self.n_states = n
        self.max_predecessors = 0     # never fills the buffer
        with nogil:
            self.max_successors = max_out_degree(&indptr[0], n) if n else 0
        self.prefetches = True

    cdef int64_t successors(self, int64_t s, int64_t* buf) noexcept nogil:
        cdef int64_t e, k = 0
        for e in range(self.indptr[s], self.indptr[s + 1]):
            buf[k] = self.indices[e]
            k += 1
        return k

    cdef int64_t n_moves(self, int64_t s) noexcept nogil:
        return self.indptr[s + 1] - self.indptr[s]

    cdef int64_t predecessors(self, int64_t s, int64_t* buf,
                              const int64_t** out) noexcept nogil:
        out[0] = self.rev_indices + self.rev_indptr[s]
        return self.rev_indptr[s + 1] - self.rev_indptr[s]

    cdef void prefetch(self, int64_t s, int stage) noexcept nogil:
        if stage == 1:
            grundy_prefetch(self.rev_indptr + s)
        else:
            grundy_prefetch(self.rev_indices + self.rev_indptr[s])


def solve_graph(const int64_t[::1] indptr, const int64_t[::1] indices,
                int8_t[::1] outcome, int64_t[::1] remoteness,
                int64_t[::1] move, bint misere=False,
                int64_t max_queue_bytes=INT64_MAX, progress=None, int threads=1):
    """Solve the game on a CSR graph in place.

    ``outcome`` comes in holding the labels (1 WIN, -1 LOSS, 0 not fixed) and
    leaves holding every vertex's outcome; ``remoteness`` and ``move`` are
    filled (-1 for draws' remoteness and for known vertices' move).
    Returns "ok", or "memory limit" if the queue would need more than
    ``max_queue_bytes`` (the arrays are then incomplete).  Raises ValueError
    for a malformed graph or mismatched array lengths, MemoryError if memory
    runs out, KeyboardInterrupt on Ctrl-C.  ``progress(done, total)``, if
    given, is called every few milliseconds of the main pass (done: states
    decided so far); an exception it raises stops the pass and propagates.
    ``threads`` > 1 runs the pass level by level on that many threads: the
    same outcome, remoteness and move.  A vertex's move is its first
    successor (in edge order) that keeps its value.
    """
    _check_threads(threads)
    outer = getattr(_local, "progress", None)     # a solve inside a callback
    _local.progress = progress
    try:
        return _solve_graph(indptr, indices, outcome, remoteness, move, misere,
                            max_queue_bytes, threads)
    finally:
        _local.progress = outer


def _solve_graph(const int64_t[::1] indptr, const int64_t[::1] indices,
                 int8_t[::1] outcome, int64_t[::1] remoteness,
                 int64_t[::1] move, bint misere, int64_t max_queue_bytes, int threads):
    cdef int64_t n = indptr.shape[0] - 1
    cdef CSRSource src = CSRSource(indptr, indices, threads)
    cdef int64_t v
    cdef int status
    for name, arr in (("outcome", outcome), ("remoteness", remoteness),
                      ("move", move)):
        if arr.shape[0] != n:
            raise ValueError(f"{name} has length {arr.shape[0]}, expected {n}")
    for v in range(n):
        if outcome[v] < -1 or outcome[v] > 2:
            raise ValueError(f"label of vertex {v} is {outcome[v]}: "
                             f"expected WIN (1), LOSS (-1), TIE (2) or 0 (not fixed)")
    if n == 0:
        return "ok"
    # The usual graph has out-degrees below 254: one byte of state per
    # vertex then keeps the hot array in cache.
    cdef uint8_t[::1] compact
    cdef int64_t[::1] wide
    cdef int64_t max_degree
    with nogil:
        max_degree = max_out_degree(&indptr[0], n)
    if max_degree <= COMPACT_MAX_MOVES:
        compact = np.empty(n, dtype=np.uint8)
        with nogil:
            status = _solve_states(src, indptr, indices, outcome, remoteness, move,
                                   misere, compact, max_queue_bytes, threads)
    else:
        wide = np.empty(n, dtype=np.int64)
        with nogil:
            status = _solve_states(src, indptr, indices, outcome, remoteness, move,
                                   misere, wide, max_queue_bytes, threads)
    if status == RETRO_INTERRUPTED:
        _stopped()
    if status == RETRO_NO_MEMORY:
        raise MemoryError("retrograde analysis: out of memory for the queue")
    return "memory limit" if status == RETRO_MEMORY_LIMIT else "ok"


cdef void _finish(const int64_t[::1] indptr, const int64_t[::1] indices,
                  count_t* state, int8_t[::1] outcome, int64_t[::1] remoteness,
                  int64_t[::1] move, int nthreads) noexcept nogil:
    """Decode the states into outcomes (draws: remoteness -1), then give each
    vertex its first successor that keeps its value (-1 where the game is
    over: remoteness 0); a draw has a drawn successor (an undecided vertex
    has an undecided successor)."""
    cdef int64_t v, e, n = outcome.shape[0], found
    cdef count_t win_mark = <count_t> -1, loss_mark = <count_t> -2, st
    cdef count_t tie_mark = <count_t> -3
    for v in prange(n, num_threads=nthreads, schedule="static"):
        st = state[v]
        outcome[v] = WIN if st == win_mark else (LOSS if st == loss_mark else
                                                 (TIE if st == tie_mark else DRAW))
        if outcome[v] == DRAW:
            remoteness[v] = -1
    for v in prange(n, num_threads=nthreads, schedule="static"):
        found = -1
        if remoteness[v] != 0:
            for e in range(indptr[v], indptr[v + 1]):
                if _keeps(outcome[v], remoteness[v], outcome[indices[e]],
                          remoteness[indices[e]]):
                    found = indices[e]
                    break
        move[v] = found


cdef int _solve_states(CSRSource src, const int64_t[::1] indptr,
                       const int64_t[::1] indices, int8_t[::1] outcome,
                       int64_t[::1] remoteness, int64_t[::1] move, bint misere,
                       count_t[::1] state, int64_t max_queue_bytes,
                       int nthreads) noexcept nogil:
    """Fill the states from the labels and out-degrees, run the engine, decode."""
    cdef int64_t v, n = outcome.shape[0]
    cdef int status
    cdef count_t win_mark = <count_t> -1, loss_mark = <count_t> -2
    cdef count_t tie_mark = <count_t> -3
    for v in range(n):
        if outcome[v] == WIN:
            state[v] = win_mark
        elif outcome[v] == LOSS:
            state[v] = loss_mark
        elif outcome[v] == TIE:
            state[v] = tie_mark
        else:
            state[v] = <count_t> (indptr[v + 1] - indptr[v])
    if nthreads > 1:
        status = _retrograde_threads(src, &state[0], &remoteness[0],
                                     win_mark if misere else loss_mark, INT64_MAX,
                                     max_queue_bytes, nthreads)
    elif count_t is uint8_t:
        status = retrograde_compact64(src, &state[0], &remoteness[0], NULL,
                                      win_mark if misere else loss_mark, max_queue_bytes)
    else:
        status = retrograde_wide(src, &state[0], &remoteness[0], NULL,
                                 win_mark if misere else loss_mark, max_queue_bytes)
    if status == RETRO_OK:
        _finish(indptr, indices, &state[0], outcome, remoteness, move, nthreads)
    return status


# ---------------------------------------------------------------------------
# Any compiled game: one driver around the engine, and its best moves.

cdef enum:
    BAD_INITIAL = -10       # a bad primitive value, or more than COMPACT_MAX_MOVES moves


def solve_source(MoveSource src, uint8_t[::1] state, rem_t[::1] remoteness,
                 bint misere=False, int64_t max_queue_bytes=INT64_MAX, progress=None,
                 int threads=1):
    """Solve every state of a compiled game in place.

    ``state`` (uint8, n_states) leaves holding the int8 outcome of every
    state (view it as int8); ``remoteness`` (uint16, int32 or int64) the
    remoteness (0 at draws).  Returns "ok"; "overflow" if a remoteness does
    not fit the remoteness type (rerun with a wider one); "memory limit" if
    the queue would need more than ``max_queue_bytes``.  Raises ValueError
    for a source breaking its contract (naming the state), MemoryError if
    memory runs out, KeyboardInterrupt on Ctrl-C.  ``progress(done,
    total)``: as in :func:`solve_graph`; ``threads`` too (the same outcome
    and remoteness).  The source's methods must then be safe to call from
    several threads at once (they are if they only read the source).
    """
    _check_threads(threads)
    outer = getattr(_local, "progress", None)     # a solve inside a callback
    _local.progress = progress
    try:
        return _solve_source(src, state, remoteness, misere, max_queue_bytes, threads)
    finally:
        _local.progress = outer


cdef enum:
    INITIAL_SLICE = 1 << 16       # states per call of initial_states on a thread


cdef inline int64_t _rem_max(rem_t* remoteness) noexcept nogil:
    """The largest remoteness the type holds (past it: "overflow")."""
    if rem_t is uint16_t:
        return 0xFFFF
    elif rem_t is int32_t:
        return 0x7FFFFFFF
    else:
        return INT64_MAX


def _solve_source(MoveSource src, uint8_t[::1] state, rem_t[::1] remoteness,
                  bint misere, int64_t max_queue_bytes, int threads):
    cdef int64_t n = src.n_states, s, d = 0, bad = -1, lo, hi, a, found
    cdef int8_t p = 0
    cdef int status = RETRO_OK, t
    if state.shape[0] != n or remoteness.shape[0] != n:
        raise ValueError(f"state and remoteness must have {n} entries")
    if n == 0:
        return "ok"
    cdef int64_t width = _padded(max(src.max_successors, 0) + 1)
    cdef int64_t* buf = <int64_t*> malloc(threads * width * sizeof(int64_t))
    if buf == NULL:
        raise MemoryError("out of memory for the successor buffers")
    with nogil:
        lo = 0
        while lo < n:           # in slices, looking for Ctrl-C between them
            hi = min(lo + CHECK_EVERY_STATES + 1, n)
            # Sub-slices on the threads; the first bad state of each kept.
            for a in prange(lo, hi, INITIAL_SLICE, num_threads=threads, schedule="static"):
                t = threadid()
                found = src.initial_states(&state[0], a, min(a + INITIAL_SLICE, hi),
                                           buf + t * width)
                # A flag per sub-slice for the scan below (the pass resets it).
                remoteness[a] = 1 if found >= 0 else 0
            a = lo
            while a < hi:
                if remoteness[a] == 1:
                    bad = src.initial_states(&state[0], a, min(a + INITIAL_SLICE, hi), buf)
                    if bad >= 0:
                        break
                a += INITIAL_SLICE
            if bad >= 0:
                status = BAD_INITIAL
                break
            lo = hi
            if interrupted():
                status = RETRO_INTERRUPTED
                break
        if status == BAD_INITIAL:
            p = src.primitive(bad)
            d = src.n_moves(bad) if p == 0 else 0
            if p == 0 and d < 0:
                d = src.successors(bad, buf)
    free(buf)
    if status == BAD_INITIAL:
        if p not in (0, WIN, LOSS, TIE):
            raise ValueError(f"primitive({bad}) gave {p}: expected 0, WIN (1), LOSS (-1) "
                             f"or TIE (2)")
        raise ValueError(f"state {bad} has {d} moves: a state has 0..{COMPACT_MAX_MOVES}")
    cdef uint8_t terminal = COMPACT_WIN if misere else COMPACT_LOSS
    cdef int64_t top = _rem_max(&remoteness[0])
    if status == RETRO_OK:
        with nogil:
            if threads > 1:
                status = _retrograde_threads(src, &state[0], &remoteness[0], terminal, top,
                                             max_queue_bytes, threads)
            else:
                status = _retrograde(src, &state[0], &remoteness[0], NULL, terminal, top,
                                     max_queue_bytes)
    if status == RETRO_INTERRUPTED:
        _stopped()
    if status == RETRO_NO_MEMORY:
        raise MemoryError("retrograde analysis: out of memory for the queue")
    if status == RETRO_OVERFLOW:
        return "overflow"
    if status == RETRO_MEMORY_LIMIT:
        return "memory limit"
    cdef int8_t* out = <int8_t*> &state[0]
    cdef uint8_t st
    with nogil:
        for s in prange(n, num_threads=threads, schedule="static"):
            st = state[s]
            out[s] = WIN if st == COMPACT_WIN else (LOSS if st == COMPACT_LOSS else
                                                    (TIE if st == COMPACT_TIE else DRAW))
    return "ok"


def best_moves(MoveSource src, const int8_t[::1] outcome, const rem_t[::1] remoteness,
               int64_t start, int64_t stop, int64_t[::1] move, int threads=1):
    """Optimal successors of the states ``start..stop-1`` into ``move[0:stop-start]``.

    A state's move is its first successor (in ``successors()`` order) that
    keeps its value: for a WIN or LOSS at remoteness r a successor of the
    opposite outcome at r - 1, for a TIE a TIE at r - 1, for a DRAW a DRAW.
    -1 where the game is over (primitive) or there is no move.  ``outcome``
    and ``remoteness`` are a solve's (remoteness 0 at draws).
    """
    cdef int64_t n = src.n_states, s, i, k, s2, found, lo, hi
    cdef int8_t o
    cdef int64_t r
    cdef int t
    cdef bint stopped = False
    _check_threads(threads)
    if outcome.shape[0] != n or remoteness.shape[0] != n:
        raise ValueError(f"outcome and remoteness must have {n} entries")
    if not (0 <= start <= stop <= n) or move.shape[0] < stop - start:
        raise ValueError(f"states {start}..{stop} do not fit 0..{n} and the move array")
    cdef int64_t width = _padded(max(src.max_successors, 0) + 1)
    cdef int64_t* buf = <int64_t*> malloc(threads * width * sizeof(int64_t))
    if buf == NULL:
        raise MemoryError("out of memory for the successor buffers")
    with nogil:
        lo = start
        while lo < stop:        # in slices, looking for Ctrl-C between them
            hi = min(stop, lo + CHECK_EVERY_STATES + 1)
            for s in prange(lo, hi, num_threads=threads, schedule="static"):
                t = threadid()
                found = -1
                if src.primitive(s) == 0:
                    o = outcome[s]
                    r = remoteness[s]
                    k = src.successors(s, buf + t * width)
                    for i in range(k):
                        s2 = buf[t * width + i]
                        if 0 <= s2 < n and _keeps(o, r, outcome[s2], remoteness[s2]):
                            found = s2
                            break
                move[s - start] = found
            lo = hi
            if lo < stop and interrupted():
                stopped = True
                break
    free(buf)
    if stopped:
        raise_interrupt()


cdef inline bint _keeps(int8_t o, int64_t r, int8_t o2, int64_t r2) noexcept nogil:
    """A move to (o2, r2) is optimal from (o, r)."""
    if o == DRAW:
        return o2 == DRAW
    if o == TIE:
        return o2 == TIE and r2 == r - 1
    return o2 == -o and r2 == r - 1
