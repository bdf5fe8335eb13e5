"""The plug-in contract: :class:`MoveSource`, a game's rules as the engine
asks for them (documented in ``source.pxd``; plug-ins cimport it from the
public ``grundy/plugin.pxd``).

This base class gives the defaults: no moves, no primitive value, move
counts by generating the moves, the initial state bytes one position at a
time, no prefetching.  A plug-in overrides what its game needs; the
engine's passes (``serial.pyx``, ``threaded.pyx``), its driver
(``retrograde.pyx``) and the block kernel of a distributed solve
(``blocks.pyx``) only ever call these methods.
"""
from grundy._core._typedefs cimport int8_t, int64_t, uint8_t
from grundy._core.states cimport initial_state, INVALID_STATE


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
            if code == INVALID_STATE:
                return s
            state[s] = <uint8_t> code
        return -1

    cdef void prefetch(self, int64_t s, int stage) noexcept nogil:
        pass

    def __repr__(self):
        return f"<{type(self).__name__}: {self.n_positions:,} positions>"
