# Level by level: what the threaded pass (threaded.pyx) and a distributed
# solve's blocks (blocks.pyx) share.  A level is the set of positions
# decided at one remoteness; its positions' predecessors are "routed" to
# whoever owns them as ``id << 1 | the position moved to is a LOSS``, and
# ``settle`` applies one routed move to a position its caller owns.
from libc.stdlib cimport realloc

from grundy._core._typedefs cimport int64_t, uint8_t, rem_t
from grundy._core.states cimport (Many, MANY, MARK_WIN, MARK_LOSS, MARK_TIE, decided,
                                  has_counter, take_one)
from grundy._core.status cimport (RETRO_OK, RETRO_NO_MEMORY, RETRO_OVERFLOW, RETRO_MEMORY_LIMIT,
                                  RETRO_DISAGREE, RETRO_NO_COUNTER)

cdef enum:
    PUSH_MIN = 1 << 12        # first size of a lane


cdef extern from *:
    """
    #include <stdint.h>
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int64_t grundy_add64(int64_t* p, int64_t v) {
        return _InterlockedExchangeAdd64((volatile __int64*) p, v) + v;
    }
    #else
    static inline int64_t grundy_add64(int64_t* p, int64_t v) {
        return __atomic_add_fetch(p, v, __ATOMIC_RELAXED);
    }
    #endif
    """
    int64_t grundy_add64(int64_t* p, int64_t v) noexcept nogil


cdef struct Lane:             # a growing array of ids that one thread writes
    int64_t* data
    int64_t size
    int64_t cap
    char pad[104]             # 128 bytes: no two threads' counters on one cache line


cdef inline int lane_grow(Lane* lane, int64_t* reserved, int64_t max_bytes) noexcept nogil:
    """Double the lane's room (PUSH_MIN at first), within ``max_bytes`` for
    all the lanes together (``reserved``: what they hold, added atomically)."""
    cdef int64_t cap = PUSH_MIN if lane.cap == 0 else 2 * lane.cap
    cdef int64_t* data
    if grundy_add64(reserved, (cap - lane.cap) * 8) > max_bytes:
        grundy_add64(reserved, -(cap - lane.cap) * 8)
        return RETRO_MEMORY_LIMIT
    data = <int64_t*> realloc(lane.data, cap * sizeof(int64_t))
    if data == NULL:
        grundy_add64(reserved, -(cap - lane.cap) * 8)
        return RETRO_NO_MEMORY
    lane.data = data
    lane.cap = cap
    return RETRO_OK


cdef inline int append(Lane* lane, int64_t x, int64_t* reserved,
                       int64_t max_bytes) noexcept nogil:
    cdef int err
    if lane.size == lane.cap:
        err = lane_grow(lane, reserved, max_bytes)
        if err != RETRO_OK:
            return err
    lane.data[lane.size] = x
    lane.size += 1
    return RETRO_OK


cdef inline int settle(uint8_t* state, Many* many, rem_t* remoteness, int64_t u,
                       bint to_win, bint ties, int64_t r, int64_t max_remoteness,
                       Lane* next_level, int64_t* reserved, int64_t max_bytes) noexcept nogil:
    """A move from u (owned by the caller) to a position decided at level
    r - 1: to a LOSS (``to_win``) makes u a WIN; to a WIN takes one from
    u's counter, a LOSS at 0; in the tie pass (``ties``) a move to a TIE
    makes u a TIE.  A position decided now gets remoteness r and joins
    ``next_level``.  Returns 1 if u was decided now, 0 if not, or an error."""
    cdef uint8_t c = state[u]
    cdef int err
    if decided(c):
        return 0
    if ties:
        state[u] = MARK_TIE
    elif to_win:
        state[u] = MARK_WIN
    elif take_one(state, many, u):
        state[u] = MARK_LOSS
    else:
        return 0
    if r > max_remoteness:
        return RETRO_OVERFLOW
    remoteness[u] = <rem_t> r
    err = append(next_level, u, reserved, max_bytes)
    return 1 if err == RETRO_OK else err


cdef inline int settle_checked(uint8_t* state, Many* many, rem_t* remoteness, int64_t u,
                               bint to_win, bint ties, int64_t r, int64_t max_remoteness,
                               Lane* next_level, int64_t* reserved,
                               int64_t max_bytes) noexcept nogil:
    """:func:`settle` for moves that come from outside (a distributed
    solve's blocks), checked first: RETRO_DISAGREE for a move to a WIN that
    reaches a LOSS its moves to WINs decided (remoteness > 0: it had them
    all, so the predecessors list u more often than its moves lead away),
    RETRO_NO_COUNTER for one that reaches a MANY whose counter was not kept
    aside.  (The passes on one machine call :func:`settle` itself.)"""
    cdef uint8_t c = state[u]
    if not ties and not to_win:
        if c == MARK_LOSS and remoteness[u] > 0:
            return RETRO_DISAGREE
        if c == MANY and not has_counter(many, u):
            return RETRO_NO_COUNTER
    return settle(state, many, remoteness, u, to_win, ties, r, max_remoteness, next_level,
                  reserved, max_bytes)
