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
decided once and each move looked at once: O(n + m).  States never decided
are draws.
"""
import numpy as np

from libc.stdlib cimport malloc, free
from libc.string cimport memcpy
from libc.stdint cimport INT64_MAX

from grundy._core._typedefs cimport (int8_t, int32_t, int64_t, uint8_t,
                                     uint16_t, WIN, LOSS, grundy_prefetch)
from grundy._core.csr cimport reverse_csr, check_csr


cdef class MoveSource:
    cdef int64_t predecessors(self, int64_t s, int64_t* buf,
                              const int64_t** out) noexcept nogil:
        out[0] = buf
        return 0

    cdef void prefetch(self, int64_t s, int stage) noexcept nogil:
        pass


# ---------------------------------------------------------------------------
# A growable FIFO ring buffer of state ids (memory follows the frontier,
# not the state count).

cdef struct Queue:
    int64_t* data
    int64_t mask      # capacity - 1, capacity a power of two
    int64_t head
    int64_t size


cdef int queue_init(Queue* q, int64_t capacity) noexcept nogil:
    cdef int64_t cap = 1024
    while cap < capacity:
        cap *= 2
    q.data = <int64_t*> malloc(cap * sizeof(int64_t))
    q.mask = cap - 1
    q.head = 0
    q.size = 0
    return 0 if q.data != NULL else -1


cdef inline int queue_push(Queue* q, int64_t x) noexcept nogil:
    cdef int64_t cap = q.mask + 1, first
    cdef int64_t* bigger
    if q.size == cap:
        bigger = <int64_t*> malloc(2 * cap * sizeof(int64_t))
        if bigger == NULL:
            return -1
        first = cap - q.head           # items from head to the end
        memcpy(bigger, q.data + q.head, first * sizeof(int64_t))
        memcpy(bigger + first, q.data, q.head * sizeof(int64_t))
        free(q.data)
        q.data = bigger
        q.head = 0
        q.mask = 2 * cap - 1
    q.data[(q.head + q.size) & q.mask] = x
    q.size += 1
    return 0


cdef inline int64_t queue_pop(Queue* q) noexcept nogil:
    cdef int64_t x = q.data[q.head]
    q.head = (q.head + 1) & q.mask
    q.size -= 1
    return x


# ---------------------------------------------------------------------------
# The engine.

ctypedef fused count_t:
    uint8_t
    int64_t

ctypedef fused rem_t:
    uint16_t
    int32_t
    int64_t


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
    if queue_push(q, u) != 0:
        return RETRO_NO_MEMORY
    return RETRO_OK


cdef int _retrograde(MoveSource src, count_t* state, rem_t* remoteness,
                     int64_t* move, count_t terminal,
                     int64_t max_remoteness) noexcept nogil:
    cdef count_t win_mark = <count_t> -1, loss_mark = <count_t> -2, c
    cdef bint s_lost, prefetches = src.prefetches
    cdef int64_t n = src.n_states
    cdef int64_t s, u, i, k, r = 0, level_left
    cdef const int64_t* preds = NULL
    cdef Queue q
    cdef int status = 0
    cdef int64_t* buf = <int64_t*> malloc(
        (src.max_predecessors + 1) * sizeof(int64_t))
    if buf == NULL:
        return RETRO_NO_MEMORY
    if queue_init(&q, 0) != 0:
        free(buf)
        return RETRO_NO_MEMORY

    for s in range(n):
        remoteness[s] = 0
        if move != NULL:
            move[s] = -1
        if state[s] == 0:
            state[s] = terminal
        if state[s] == win_mark or state[s] == loss_mark:
            if queue_push(&q, s) != 0:
                status = RETRO_NO_MEMORY
                break

    # The queue holds one level of remoteness after another; r is the
    # remoteness of the states being popped, level_left how many remain.
    level_left = q.size
    while status == 0 and q.size > 0:
        if level_left == 0:
            r += 1
            level_left = q.size
        level_left -= 1
        if prefetches and q.size > 16:
            # Hide the memory latency of the states popped soon (their
            # predecessor lists are scattered): two stages ahead.
            src.prefetch(q.data[(q.head + 16) & q.mask], 1)
            src.prefetch(q.data[(q.head + 8) & q.mask], 2)
        s = queue_pop(&q)
        k = src.predecessors(s, buf, &preds)
        s_lost = state[s] == loss_mark
        for i in range(k):
            u = preds[i]
            c = state[u]
            if c == win_mark or c == loss_mark:
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
    free(q.data)
    free(buf)
    return status


cdef int retrograde_wide(MoveSource src, int64_t* state, int64_t* remoteness,
                         int64_t* move, int64_t terminal) noexcept nogil:
    return _retrograde(src, state, remoteness, move, terminal, INT64_MAX)


cdef int retrograde_compact16(MoveSource src, uint8_t* state,
                              uint16_t* remoteness, int64_t* move,
                              uint8_t terminal) noexcept nogil:
    return _retrograde(src, state, remoteness, move, terminal, <int64_t> 0xFFFF)


cdef int retrograde_compact32(MoveSource src, uint8_t* state,
                              int32_t* remoteness, int64_t* move,
                              uint8_t terminal) noexcept nogil:
    return _retrograde(src, state, remoteness, move, terminal,
                       <int64_t> 0x7FFFFFFF)


cdef int retrograde_compact64(MoveSource src, uint8_t* state,
                              int64_t* remoteness, int64_t* move,
                              uint8_t terminal) noexcept nogil:
    return _retrograde(src, state, remoteness, move, terminal, INT64_MAX)


# ---------------------------------------------------------------------------
# Explicit graphs.

cdef class CSRSource(MoveSource):
    """Predecessors from a reverse CSR (built here by a counting pass)."""
    cdef object _rev_indptr, _rev_indices     # keep the storage alive
    cdef const int64_t* rev_indptr
    cdef const int64_t* rev_indices

    def __cinit__(self, const int64_t[::1] indptr, const int64_t[::1] indices):
        check_csr(indptr, indices)
        cdef int64_t n = indptr.shape[0] - 1
        cdef int64_t m = indices.shape[0]
        self._rev_indptr = np.empty(n + 1, dtype=np.int64)
        self._rev_indices = np.empty(max(m, 1), dtype=np.int64)
        cdef int64_t[::1] rp = self._rev_indptr
        cdef int64_t[::1] ri = self._rev_indices
        with nogil:
            reverse_csr(n, &indptr[0], &indices[0] if m else NULL,
                        &rp[0], &ri[0])
        self.rev_indptr = &rp[0]
        self.rev_indices = &ri[0]
        self.n_states = n
        self.max_predecessors = 0     # never fills the buffer
        self.prefetches = True

    cdef int64_t predecessors(self, int64_t s, int64_t* buf,
                              const int64_t** out) noexcept nogil:
        out[0] = self.rev_indices + self.rev_indptr[s]
        return self.rev_indptr[s + 1] - self.rev_indptr[s]

    cdef void prefetch(self, int64_t s, int stage) noexcept nogil:
        if stage == 1:
            grundy_prefetch(self.rev_indptr + s)
        else:
            grundy_prefetch(self.rev_indices + self.rev_indptr[s])

    @property
    def reverse(self):
        """(rev_indptr, rev_indices) of the reversed graph."""
        m = int(self._rev_indptr[-1])
        return self._rev_indptr, self._rev_indices[:m]


def solve_graph(const int64_t[::1] indptr, const int64_t[::1] indices,
                int8_t[::1] outcome, int64_t[::1] remoteness,
                int64_t[::1] move, bint misere=False):
    """Solve the game on a CSR graph in place.

    ``outcome`` comes in holding the labels (1 WIN, -1 LOSS, 0 not fixed) and
    leaves holding every vertex's outcome; ``remoteness`` and ``move`` are
    filled (-1 for draws' remoteness and for known vertices' move).
    Raises ValueError for a malformed graph or mismatched array lengths,
    MemoryError if the queue cannot grow.
    """
    cdef int64_t n = indptr.shape[0] - 1
    cdef CSRSource src = CSRSource(indptr, indices)
    cdef int64_t v
    cdef int status
    for name, arr in (("outcome", outcome), ("remoteness", remoteness),
                      ("move", move)):
        if arr.shape[0] != n:
            raise ValueError(f"{name} has length {arr.shape[0]}, expected {n}")
    for v in range(n):
        if outcome[v] < -1 or outcome[v] > 1:
            raise ValueError(f"label of vertex {v} is {outcome[v]}: "
                             f"expected WIN (1), LOSS (-1) or 0 (not fixed)")
    if n == 0:
        return
    # The usual graph has out-degrees below 254: one byte of state per
    # vertex then keeps the hot array in cache.
    cdef uint8_t[::1] compact
    cdef int64_t[::1] wide
    cdef int64_t max_degree = 0
    with nogil:
        for v in range(n):
            if indptr[v + 1] - indptr[v] > max_degree:
                max_degree = indptr[v + 1] - indptr[v]
    if max_degree <= COMPACT_MAX_MOVES:
        compact = np.empty(n, dtype=np.uint8)
        with nogil:
            status = _solve_states(src, indptr, indices, outcome, remoteness, move,
                                   misere, compact)
    else:
        wide = np.empty(n, dtype=np.int64)
        with nogil:
            status = _solve_states(src, indptr, indices, outcome, remoteness, move,
                                   misere, wide)
    if status == RETRO_NO_MEMORY:
        raise MemoryError("retrograde analysis: out of memory for the queue")


cdef inline void _finish(const int64_t[::1] indptr, const int64_t[::1] indices,
                         count_t* state, int8_t[::1] outcome,
                         int64_t[::1] remoteness, int64_t[::1] move) noexcept nogil:
    """Decode the states into outcomes; give draws remoteness -1 and a move
    to a drawn successor (one exists: an undecided vertex has an undecided
    successor)."""
    cdef int64_t v, e, n = outcome.shape[0]
    cdef count_t win_mark = <count_t> -1, loss_mark = <count_t> -2, st
    for v in range(n):
        st = state[v]
        outcome[v] = WIN if st == win_mark else (LOSS if st == loss_mark else 0)
    for v in range(n):
        if outcome[v] == 0:
            remoteness[v] = -1
            for e in range(indptr[v], indptr[v + 1]):
                if outcome[indices[e]] == 0:
                    move[v] = indices[e]
                    break


cdef int _solve_states(CSRSource src, const int64_t[::1] indptr,
                       const int64_t[::1] indices, int8_t[::1] outcome,
                       int64_t[::1] remoteness, int64_t[::1] move, bint misere,
                       count_t[::1] state) noexcept nogil:
    """Fill the states from the labels and out-degrees, run the engine, decode."""
    cdef int64_t v, n = outcome.shape[0]
    cdef int status
    cdef count_t win_mark = <count_t> -1, loss_mark = <count_t> -2
    for v in range(n):
        if outcome[v] == WIN:
            state[v] = win_mark
        elif outcome[v] == LOSS:
            state[v] = loss_mark
        else:
            state[v] = <count_t> (indptr[v + 1] - indptr[v])
    if count_t is uint8_t:
        status = retrograde_compact64(src, &state[0], &remoteness[0], &move[0],
                                      win_mark if misere else loss_mark)
    else:
        status = retrograde_wide(src, &state[0], &remoteness[0], &move[0],
                                 win_mark if misere else loss_mark)
    if status == RETRO_OK:
        _finish(indptr, indices, &state[0], outcome, remoteness, move)
    return status
