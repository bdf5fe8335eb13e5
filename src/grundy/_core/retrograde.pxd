# The one retrograde engine and the interface of the move sources it runs on.
from grundy._core._typedefs cimport int8_t, int32_t, int64_t, uint8_t, uint16_t


cdef class MoveSource:
    """A game's rules, for the engine: the public interface of a compiled game.

    A game written in Cython subclasses ``MoveSource`` (``cimport`` it from
    ``grundy._core.retrograde``), sets ``n_states``, ``max_predecessors``
    and ``max_successors`` in its ``__cinit__``, and implements:

    - ``predecessors(s, buf, out)``: store a pointer to the ids of the
      states with a move to ``s`` in ``out[0]`` (either into the source's
      own storage or into ``buf``, which holds ``max_predecessors`` ids)
      and return how many there are.  A state appears once per move to
      ``s`` (multi-edges repeat it).
    - ``successors(s, buf)``: write the ids of the states ``s`` moves to
      into ``buf`` (room for ``max_successors``), in move order, and return
      how many.  The best move of a position is the first optimal one in
      this order.
    - ``primitive(s)``: WIN, LOSS or TIE (see ``_typedefs.pxd``) for the
      player to move if the game is over at ``s`` (its moves are then
      ignored), else 0.
    - optionally ``n_moves(s)``: the number of successors, if it is cheaper
      than generating them (the default returns -1: generate them).
    - optionally ``initial_states(state, start, stop, buf)``: what the
      driver writes into the engine's state array for the states
      ``start..stop-1`` (``initial_state(primitive(s), n_moves(s))`` each),
      for a source that can walk its states faster than one call each.
      Returns -1, or the first state whose primitive value or move count is
      invalid.

    ``solve_source`` then solves every state and ``best_moves`` picks the
    optimal moves; ``grundy.solve_source(src)`` wraps both in a solution.
    A state may have at most 252 moves.  Everything runs without the GIL:
    the methods must not touch Python objects.
    """
    cdef readonly int64_t n_states
    cdef readonly int64_t max_predecessors
    cdef readonly int64_t max_successors
    cdef readonly bint prefetches       # prefetch() does something
    cdef int64_t predecessors(self, int64_t s, int64_t* buf,
                              const int64_t** out) noexcept nogil
    cdef int64_t successors(self, int64_t s, int64_t* buf) noexcept nogil
    cdef int8_t primitive(self, int64_t s) noexcept nogil
    cdef int64_t n_moves(self, int64_t s) noexcept nogil
    cdef int64_t initial_states(self, uint8_t* state, int64_t start, int64_t stop,
                                int64_t* buf) noexcept nogil
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
# looked at).  Decided states hold a mark: -1 (WIN), -2 (LOSS) or -3 (TIE)
# in the state's type, that is 255 / 254 / 253 for uint8_t.
cdef enum:
    COMPACT_WIN = 255
    COMPACT_LOSS = 254
    COMPACT_TIE = 253
    COMPACT_MAX_MOVES = 252
    COMPACT_INVALID = 256   # initial_state() of a bad primitive value or move count


cdef inline int initial_state(int8_t primitive, int64_t n_moves) noexcept nogil:
    """The engine's initial state byte of a state: its mark if the game is
    over there, else its number of moves; COMPACT_INVALID if neither fits."""
    if primitive == 1:
        return COMPACT_WIN
    if primitive == -1:
        return COMPACT_LOSS
    if primitive == 2:
        return COMPACT_TIE
    if primitive != 0 or n_moves < 0 or n_moves > COMPACT_MAX_MOVES:
        return COMPACT_INVALID
    return <int> n_moves

# On entry, state[s] is a mark for a known state (remoteness 0 there) and
# otherwise the number of moves of s; a state with no move gets the mark
# ``terminal``.  The WIN/LOSS pass decides what it can; then a TIE pass
# (only when some known state is a TIE) makes every still undecided state
# with a move to a TIE a TIE, nearest tie ending first.  On return every
# decided state holds its mark (the rest still hold a positive counter:
# draws), remoteness[s] is set for decided states (0 elsewhere), and, if
# ``move`` is not NULL, move[s] is the optimal successor of each state
# decided by the analysis (-1 elsewhere).  The queue
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
