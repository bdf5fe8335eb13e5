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

from grundy._core._typedefs cimport int8_t, int32_t, int64_t, uint8_t, uint16_t, rem_t
from libc.stdint cimport INT64_MAX
from grundy._core._interrupt cimport interrupted, raise_interrupt
from grundy._core.retrograde cimport (
    MoveSource, retrograde_compact16, retrograde_compact32,
    RETRO_OK, RETRO_NO_MEMORY, RETRO_OVERFLOW, RETRO_MEMORY_LIMIT, RETRO_INTERRUPTED,
    COMPACT_WIN, COMPACT_LOSS, COMPACT_MAX_MOVES)


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
                out[s] = 1
            elif state[s] == COMPACT_LOSS:
                out[s] = -1
            else:
                out[s] = 0
    return "ok"
