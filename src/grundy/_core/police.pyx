"""Police and thief: retrograde analysis over an implicit state space.

A state is (police cell p, thief cell t, police_to_move), with cells
numbered 0..F-1 over the free cells of the board and state id
``(p * F + t) * 2 + police_to_move``.  No edge list is stored: the
predecessors of a state come from the reverse move tables (for each cell,
the cells one step leads from), passes included, and the one retrograde
engine of retrograde.pyx does the rest.

State memory: one byte per state (outcome mark or undecided-move counter,
decoded in place into the int8 outcome at the end) and a uint16
remoteness, with an int32 rerun when a remoteness does not fit.
"""
import numpy as np

from grundy._core._typedefs cimport (int8_t, int32_t, int64_t, uint8_t, uint16_t, rem_t,
                                     WIN, LOSS, DRAW)
from libc.stdint cimport INT64_MAX
from grundy._core._interrupt cimport interrupted, raise_interrupt
from grundy._core.retrograde cimport (
    MoveSource, retrograde_compact16, retrograde_compact32,
    RETRO_OK, RETRO_NO_MEMORY, RETRO_OVERFLOW, RETRO_MEMORY_LIMIT, RETRO_INTERRUPTED,
    COMPACT_WIN, COMPACT_LOSS, COMPACT_MAX_MOVES)

cdef enum:
    CHECK_EVERY = (1 << 20) - 1      # states between looks for Ctrl-C


cdef class PoliceThiefSource(MoveSource):
    """Predecessors of (p, t, police_to_move) from reverse move tables."""
    cdef object _keep
    cdef const int64_t* pol_pred       # [F, kp]: cells with a police step to the cell, -1 padded
    cdef const int64_t* thf_pred       # [F, kt]
    cdef int64_t kp, kt, F
    cdef bint passing

    def __cinit__(self, const int64_t[:, ::1] pol_pred, const int64_t[:, ::1] thf_pred,
                  bint passing):
        cdef int64_t F = pol_pred.shape[0]
        if thf_pred.shape[0] != F:
            raise ValueError("move tables differ in their number of cells")
        if F == 0 or pol_pred.shape[1] == 0 or thf_pred.shape[1] == 0:
            raise ValueError("move tables must be non-empty")
        pp = np.asarray(pol_pred)
        tp = np.asarray(thf_pred)
        if ((pp < -1) | (pp >= F)).any() or ((tp < -1) | (tp >= F)).any():
            raise ValueError(f"move tables hold a cell outside 0..{F - 1}")
        self._keep = (pol_pred, thf_pred)
        self.pol_pred = &pol_pred[0, 0]
        self.thf_pred = &thf_pred[0, 0]
        self.F = F
        self.kp = pol_pred.shape[1]
        self.kt = thf_pred.shape[1]
        self.passing = passing
        self.n_states = F * F * 2
        self.max_predecessors = max(self.kp, self.kt) + 1

    cdef int64_t predecessors(self, int64_t s, int64_t* buf,
                              const int64_t** out) noexcept nogil:
        cdef int64_t police_to_move = s & 1
        cdef int64_t pt = s >> 1
        cdef int64_t p = pt // self.F
        cdef int64_t t = pt - p * self.F
        cdef int64_t i, c, k = 0
        cdef const int64_t* row
        out[0] = buf
        if police_to_move:
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


def solve_police(const int64_t[:, ::1] pol_pred, const int64_t[::1] pol_deg,
                 const int64_t[:, ::1] thf_pred, const int64_t[::1] thf_deg,
                 const uint8_t[::1] exits, bint passing, uint8_t[::1] state,
                 rem_t[::1] remoteness, int64_t max_queue_bytes=INT64_MAX):
    """Solve every state in place.

    ``pol_deg[c]``/``thf_deg[c]`` count the steps from cell c (passes not
    included); ``exits[c]`` is 1 on an exit.  ``state`` (uint8, 2F^2) leaves
    holding the int8 outcome of every state, reinterpreted (view it as int8);
    ``remoteness`` is a uint16 or int32 array of 2F^2 entries (0 for draws).
    Returns "ok"; "overflow" if a remoteness overflowed uint16 (rerun with an
    int32 array); "memory limit" if the queue would need more than
    ``max_queue_bytes``.  MemoryError if memory runs out, KeyboardInterrupt
    on Ctrl-C.
    """
    cdef PoliceThiefSource src = PoliceThiefSource(pol_pred, thf_pred, passing)
    cdef int64_t F = src.F, n = src.n_states, p, t, s, dp, dt
    cdef int status = RETRO_OK
    if pol_deg.shape[0] != F or thf_deg.shape[0] != F or exits.shape[0] != F:
        raise ValueError(f"pol_deg, thf_deg and exits must have {F} entries")
    if rem_t is int64_t:
        raise TypeError("remoteness must be uint16 or int32 (the state byte and a "
                        "narrow remoteness keep huge boards in memory)")
    if state.shape[0] != n or remoteness.shape[0] != n:
        raise ValueError(f"state and remoteness must have {n} entries")
    for p in range(F):
        if not (0 <= pol_deg[p] <= COMPACT_MAX_MOVES - 1) or \
                not (0 <= thf_deg[p] <= COMPACT_MAX_MOVES - 1):
            raise ValueError(f"cell {p}: move counts must be in 0..{COMPACT_MAX_MOVES - 1}")
    cdef bint stopped = False
    with nogil:
        for p in range(F):
            if (p & 255) == 255 and interrupted():
                stopped = True
                break
            dp = pol_deg[p] + passing
            for t in range(F):
                s = (p * F + t) * 2
                dt = thf_deg[t] + passing
                if p == t:
                    # Police on the thief: the police has won.
                    state[s] = COMPACT_LOSS          # thief to move: lost
                    state[s + 1] = COMPACT_WIN       # police to move: won
                elif exits[t]:
                    state[s] = COMPACT_WIN           # thief to move: escaped
                    state[s + 1] = COMPACT_LOSS
                else:
                    state[s] = <uint8_t> dt
                    state[s + 1] = <uint8_t> dp
    if stopped:
        raise_interrupt()
    with nogil:
        if rem_t is uint16_t:
            status = retrograde_compact16(src, &state[0], &remoteness[0], NULL, COMPACT_LOSS,
                                          max_queue_bytes)
        elif rem_t is int32_t:
            status = retrograde_compact32(src, &state[0], &remoteness[0], NULL,
                                          COMPACT_LOSS, max_queue_bytes)
    if status == RETRO_INTERRUPTED:
        raise_interrupt()
    if status == RETRO_NO_MEMORY:
        raise MemoryError("police and thief: out of memory for the queue")
    if status == RETRO_OVERFLOW:
        return "overflow"
    if status == RETRO_MEMORY_LIMIT:
        return "memory limit"
    cdef int8_t* out = <int8_t*> &state[0]
    with nogil:
        for s in range(n):
            if state[s] == COMPACT_WIN:
                out[s] = WIN
            elif state[s] == COMPACT_LOSS:
                out[s] = LOSS
            else:
                out[s] = DRAW
    return "ok"


def best_moves(const int64_t[:, ::1] pol_next, const int64_t[:, ::1] thf_next,
               const uint8_t[::1] exits, bint passing, const int8_t[::1] outcome,
               const rem_t[::1] remoteness, int64_t start, int64_t stop,
               int64_t[::1] move):
    """Optimal successors of the states ``start..stop-1`` into ``move[0:stop-start]``.

    ``pol_next[c, d]``/``thf_next[c, d]`` is the cell step d leads to from
    cell c (-1 where it leaves the board or hits a wall), in move-set order.
    A state's move is its first successor (the steps in order, then the
    pass) that keeps its value: for a WIN or LOSS at remoteness r, a
    successor of the opposite outcome at remoteness r - 1; for a DRAW, a
    drawn successor.  -1 at finished states and states with no move.
    ``outcome`` and ``remoteness`` are a solve's (remoteness 0 at draws).
    """
    cdef int64_t F = pol_next.shape[0], kp = pol_next.shape[1], kt = thf_next.shape[1]
    cdef int64_t n = F * F * 2
    if thf_next.shape[0] != F or exits.shape[0] != F:
        raise ValueError(f"thf_next and exits must have {F} rows")
    if outcome.shape[0] != n or remoteness.shape[0] != n:
        raise ValueError(f"outcome and remoteness must have {n} entries")
    if not (0 <= start <= stop <= n) or move.shape[0] < stop - start:
        raise ValueError(f"states {start}..{stop} do not fit 0..{n} and the move array")
    if ((np.asarray(pol_next) < -1) | (np.asarray(pol_next) >= F)).any() or \
            ((np.asarray(thf_next) < -1) | (np.asarray(thf_next) >= F)).any():
        raise ValueError(f"move tables hold a cell outside 0..{F - 1}")
    cdef int64_t s, s2, p, t, c, d, found
    cdef int8_t o
    cdef int64_t r
    cdef bint stopped = False
    with nogil:
        for s in range(start, stop):
            if ((s - start) & CHECK_EVERY) == CHECK_EVERY and interrupted():
                stopped = True
                break
            p = (s >> 1) // F
            t = (s >> 1) - p * F
            found = -1
            if p != t and not exits[t]:
                o = outcome[s]
                r = remoteness[s]
                if s & 1:                           # the police moves: p -> c
                    for d in range(kp + passing):
                        c = pol_next[p, d] if d < kp else p
                        if c >= 0:
                            s2 = (c * F + t) * 2
                            if _keeps(o, r, outcome[s2], remoteness[s2]):
                                found = s2
                                break
                else:                               # the thief moves: t -> c
                    for d in range(kt + passing):
                        c = thf_next[t, d] if d < kt else t
                        if c >= 0:
                            s2 = (p * F + c) * 2 + 1
                            if _keeps(o, r, outcome[s2], remoteness[s2]):
                                found = s2
                                break
            move[s - start] = found
    if stopped:
        raise_interrupt()


cdef inline bint _keeps(int8_t o, int64_t r, int8_t o2, int64_t r2) noexcept nogil:
    """A move to (o2, r2) is optimal from (o, r)."""
    if o == DRAW:
        return o2 == DRAW
    return o2 == -o and r2 == r - 1
