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
    cdef readonly bint prefetches       # prefetch() does something
    cdef int64_t predecessors(self, int64_t s, int64_t* buf,
                              const int64_t** out) noexcept nogil
    # A hint that predecessors(s) will be asked for soon: stage 1 some pops
    # ahead, stage 2 fewer pops ahead.  Called only if ``prefetches``.
    cdef void prefetch(self, int64_t s, int stage) noexcept nogil


# Return codes of the engine.
cdef enum:
    RETRO_OK = 0
    RETRO_NO_MEMORY = -1    # malloc failed
    RETRO_OVERFLOW = -2     # remoteness does not fit the narrow type given
    RETRO_MEMORY_LIMIT = -3 # the queue would pass max_queue_bytes
    RETRO_INTERRUPTED = -4  # a signal handler raised (Ctrl-C): the exception
                            # is set; the caller calls raise_interrupt()

# One array, ``state``, holds both the outcome of decided states and the
# counter of undecided moves of the others (one memory access per move
# looked at).  Decided states hold a mark: -1 (WIN) or -2 (LOSS) in the
# state's type, that is 255 / 254 for uint8_t.
cdef enum:
    COMPACT_WIN = 255
    COMPACT_LOSS = 254
    COMPACT_MAX_MOVES = 253

# On entry, state[s] is a mark for a known state (remoteness 0 there) and
# otherwise the number of moves of s; a state with no move gets the mark
# ``terminal``.  On return every decided state holds its mark (the rest
# still hold a positive counter: draws), remoteness[s] is set for decided
# states (0 elsewhere), and, if ``move`` is not NULL, move[s] is the optimal
# successor of each state decided by the analysis (-1 elsewhere).  The queue
# of decided states never takes more than ``max_queue_bytes`` (see
# ``queue_bytes()``); Ctrl-C is looked for every few milliseconds.
cdef int retrograde_wide(MoveSource src, int64_t* state, int64_t* remoteness,
                         int64_t* move, int64_t terminal,
                         int64_t max_queue_bytes) noexcept nogil
cdef int retrograde_compact16(MoveSource src, uint8_t* state,
                              uint16_t* remoteness, int64_t* move,
                              uint8_t terminal, int64_t max_queue_bytes) noexcept nogil
cdef int retrograde_compact32(MoveSource src, uint8_t* state,
                              int32_t* remoteness, int64_t* move,
                              uint8_t terminal, int64_t max_queue_bytes) noexcept nogil
cdef int retrograde_compact64(MoveSource src, uint8_t* state,
                              int64_t* remoteness, int64_t* move,
                              uint8_t terminal, int64_t max_queue_bytes) noexcept nogil
