"""Police and thief: the rules, as a compiled game (a ``MoveSource`` plug-in).

A state is (police cell p, thief cell t, police_to_move), with cells
numbered 0..F-1 over the free cells of the board and state id
``(p * F + t) * 2 + police_to_move``.  Everything about the game is here,
once: the steps (tables built from the move sets by ``police.py``), the
pass, whose turn follows, and when the game is over (the police on the
thief's cell: the police has won; the thief on an exit: the thief has won).
Successors give the best moves, predecessors (the same tables reversed)
drive the retrograde analysis, and the one driver of
``retrograde.solve`` does the rest.  No edge list is stored.
"""
cimport cython
import numpy as np

from grundy._core._typedefs cimport int8_t, int64_t, uint8_t, WIN, LOSS
from grundy._core.source cimport MoveSource
from grundy._core.states cimport initial_state


@cython.final
cdef class PoliceThiefSource(MoveSource):
    """Police and thief on F free cells, from its step tables.

    ``pol_next[c, d]`` / ``thf_next[c, d]``: the cell step d leads to from
    cell c (-1 where it leaves the board or hits a wall), in move-set order;
    ``pol_pred`` / ``thf_pred``: for each cell, the cells with a step into
    it (-1 padded); ``exits[c]`` is 1 on an exit; ``passing``: either side
    may stay put.
    """
    cdef object _keep
    cdef const int64_t* pol_next       # [F, kp]
    cdef const int64_t* thf_next       # [F, kt]
    cdef const int64_t* pol_pred       # [F, kp]
    cdef const int64_t* thf_pred       # [F, kt]
    cdef const uint8_t* exits          # [F]
    cdef uint8_t* pol_deg              # [F]: steps from each cell (passes not included)
    cdef uint8_t* thf_deg
    cdef int64_t kp, kt, F
    cdef bint passing

    def __cinit__(self, pol_next_in, thf_next_in, pol_pred_in, thf_pred_in, exits_in,
                  bint passing):
        # The source owns read-only copies: the engine runs on raw pointers
        # into them, so nobody may change them underneath it.
        owned = []
        for arr, dtype in ((pol_next_in, np.int64), (thf_next_in, np.int64),
                           (pol_pred_in, np.int64), (thf_pred_in, np.int64),
                           (exits_in, np.uint8)):
            copy = np.array(arr, dtype=dtype, order="C", copy=True)
            copy.flags.writeable = False
            owned.append(copy)
        cdef const int64_t[:, ::1] pol_next = owned[0]
        cdef const int64_t[:, ::1] thf_next = owned[1]
        cdef const int64_t[:, ::1] pol_pred = owned[2]
        cdef const int64_t[:, ::1] thf_pred = owned[3]
        cdef const uint8_t[::1] exits = owned[4]
        cdef int64_t F = pol_next.shape[0], c, d
        if thf_next.shape[0] != F or pol_pred.shape[0] != F or thf_pred.shape[0] != F or \
                exits.shape[0] != F:
            raise ValueError("the move tables and exits differ in their number of cells")
        if pol_pred.shape[1] != pol_next.shape[1] or thf_pred.shape[1] != thf_next.shape[1]:
            raise ValueError("forward and reverse move tables differ in width")
        if F == 0 or pol_next.shape[1] == 0 or thf_next.shape[1] == 0:
            raise ValueError("move tables must be non-empty")
        if pol_next.shape[1] > 250 or thf_next.shape[1] > 250:
            raise ValueError("at most 250 steps a side")
        for arr in (np.asarray(pol_next), np.asarray(thf_next), np.asarray(pol_pred),
                    np.asarray(thf_pred)):
            if ((arr < -1) | (arr >= F)).any():
                raise ValueError(f"move tables hold a cell outside 0..{F - 1}")
        self._keep = (*owned,
                      (np.asarray(pol_next) >= 0).sum(axis=1).astype(np.uint8),
                      (np.asarray(thf_next) >= 0).sum(axis=1).astype(np.uint8))
        cdef uint8_t[::1] pdeg = self._keep[5]
        cdef uint8_t[::1] tdeg = self._keep[6]
        self.pol_next = &pol_next[0, 0]
        self.thf_next = &thf_next[0, 0]
        self.pol_pred = &pol_pred[0, 0]
        self.thf_pred = &thf_pred[0, 0]
        self.exits = &exits[0]
        self.pol_deg = &pdeg[0]
        self.thf_deg = &tdeg[0]
        self.F = F
        self.kp = pol_next.shape[1]
        self.kt = thf_next.shape[1]
        self.passing = passing
        self.n_positions = F * F * 2
        self.max_predecessors = max(self.kp, self.kt) + 1
        self.max_successors = max(self.kp, self.kt) + 1

    # -- the rules, on (police cell, thief cell, police to move) --

    cdef inline int8_t over(self, int64_t p, int64_t t, bint police_to_move) noexcept nogil:
        """When the game is over: WIN / LOSS for the player to move, else 0."""
        if p == t:                          # the police stands on the thief: it has won
            return WIN if police_to_move else LOSS
        if self.exits[t]:                   # the thief stands on an exit: it has won
            return LOSS if police_to_move else WIN
        return 0

    cdef inline int64_t count(self, int64_t p, int64_t t, bint police_to_move) noexcept nogil:
        """How many moves the player to move has: its steps, and the pass."""
        if police_to_move:
            return self.pol_deg[p] + self.passing
        return self.thf_deg[t] + self.passing

    # -- the MoveSource interface, on state ids --

    cdef int8_t primitive(self, int64_t s) noexcept nogil:
        cdef int64_t pt = s >> 1
        cdef int64_t p = pt // self.F
        return self.over(p, pt - p * self.F, s & 1)

    cdef int64_t n_moves(self, int64_t s) noexcept nogil:
        cdef int64_t pt = s >> 1
        cdef int64_t p = pt // self.F
        return self.count(p, pt - p * self.F, s & 1)

    cdef int64_t initial_states(self, uint8_t* state, int64_t start, int64_t stop,
                                int64_t* buf) noexcept nogil:
        # The states in id order, their cells stepped along (no division each).
        cdef int64_t s, pt = start >> 1
        cdef int64_t p = pt // self.F
        cdef int64_t t = pt - p * self.F
        cdef int8_t o
        for s in range(start, stop):
            o = self.over(p, t, s & 1)
            state[s] = <uint8_t> initial_state(o, self.count(p, t, s & 1) if o == 0 else 0)
            if s & 1:
                t += 1
                if t == self.F:
                    t = 0
                    p += 1
        return -1

    cdef int64_t successors(self, int64_t s, int64_t* buf) noexcept nogil:
        cdef int64_t pt = s >> 1
        cdef int64_t p = pt // self.F
        cdef int64_t t = pt - p * self.F
        cdef int64_t i, c, k = 0
        cdef const int64_t* row
        if s & 1:                           # the police steps (or passes): p -> c
            row = self.pol_next + p * self.kp
            for i in range(self.kp):
                c = row[i]
                if c >= 0:
                    buf[k] = (c * self.F + t) * 2
                    k += 1
            if self.passing:
                buf[k] = s - 1
                k += 1
        else:                               # the thief steps (or passes): t -> c
            row = self.thf_next + t * self.kt
            for i in range(self.kt):
                c = row[i]
                if c >= 0:
                    buf[k] = (p * self.F + c) * 2 + 1
                    k += 1
            if self.passing:
                buf[k] = s + 1
                k += 1
        return k

    cdef int64_t predecessors(self, int64_t s, int64_t* buf,
                              const int64_t** out) noexcept nogil:
        cdef int64_t pt = s >> 1
        cdef int64_t p = pt // self.F
        cdef int64_t t = pt - p * self.F
        cdef int64_t i, c, k = 0
        cdef const int64_t* row
        out[0] = buf
        if s & 1:
            # The thief just moved (or passed) into t.
            row = self.thf_pred + t * self.kt
            for i in range(self.kt):
                c = row[i]
                if c < 0:
                    break
                buf[k] = (p * self.F + c) * 2
                k += 1
            if self.passing:
                buf[k] = s - 1
                k += 1
        else:
            # The police just moved (or passed) into p.
            row = self.pol_pred + p * self.kp
            for i in range(self.kp):
                c = row[i]
                if c < 0:
                    break
                buf[k] = (c * self.F + t) * 2 + 1
                k += 1
            if self.passing:
                buf[k] = s + 1
                k += 1
        return k
