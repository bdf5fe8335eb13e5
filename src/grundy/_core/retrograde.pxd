# The one retrograde engine and the interface of the move sources it runs on.
from grundy._core._typedefs cimport int8_t, int32_t, int64_t, uint8_t, uint16_t


cdef class MoveSource:
    """Where the predecessors of a state come from.

    ``n_states`` states, ids 0..n_states-1.  ``predecessors(s, buf, out)``
    stores a pointer to the ids of the states with a move to ``s`` in
    ``out[0]`` (either into the source's own storage or into ``buf``, which
    holds ``max_predecessors`` ids) and returns how many there are.  A state
    appears once per move to ``s`` (multi-edges repeat it).
    """
    cdef readonly int64_t n_states
    cdef readonly int64_t max_predecessors
    cdef int64_t predecessors(self, int64_t s, int64_t* buf,
                              const int64_t** out) noexcept nogil


# Return codes of the engine.
cdef enum:
    RETRO_OK = 0
    RETRO_NO_MEMORY = -1
    RETRO_OVERFLOW = -2     # remoteness does not fit the narrow type given


# outcome[s] != 0 marks a known state (remoteness 0 there); count[s] is the
# number of moves of every other state.  States with no move get
# ``terminal`` (LOSS, or WIN in misere play).  Fills outcome, remoteness and,
# if ``move`` is not NULL, the optimal move of every decided state.
cdef int retrograde_wide(MoveSource src, int8_t* outcome, int64_t* count,
                         int64_t* remoteness, int64_t* move,
                         int8_t terminal) noexcept nogil
cdef int retrograde_compact16(MoveSource src, int8_t* outcome, uint8_t* count,
                              uint16_t* remoteness, int64_t* move,
                              int8_t terminal) noexcept nogil
cdef int retrograde_compact32(MoveSource src, int8_t* outcome, uint8_t* count,
                              int32_t* remoteness, int64_t* move,
                              int8_t terminal) noexcept nogil
