# The engine's state bytes, written once for every pass and driver.
#
# One array, ``state``, holds a byte a position: the outcome of a decided
# position (a mark), or the number of its moves not yet known to lead to a
# WIN (a counter), so that looking at a move costs one memory access.
#
#   255 WIN, 254 LOSS, 253 TIE    marks, for the player to move
#   1..251                        a counter
#   252 (MANY)                    a counter of 252 moves or more, kept aside
#                                 in a ``Many`` table (sorted ids, counts)
#   0                             no move at all: the driver writes the
#                                 terminal mark (LOSS, or WIN in misère play)
#
# A pass decides a position once: a move to a LOSS makes it a WIN; a move to
# a WIN takes one from its counter, and a counter reaching 0 makes it a LOSS.
# Positions still holding a counter at the end are draws.

from grundy._core._typedefs cimport int8_t, int64_t, uint8_t, WIN, LOSS, DRAW, TIE

cdef enum:
    MARK_WIN = 255
    MARK_LOSS = 254
    MARK_TIE = 253
    MANY = 252              # the counter is in the Many table
    MAX_COUNT = 251         # the largest counter a byte holds
    INVALID_STATE = 256     # initial_state() of a bad primitive value or move count


cdef inline int initial_state(int8_t primitive, int64_t n_moves) noexcept nogil:
    """The initial state byte of a position: its mark if the game is over
    there (``primitive`` WIN, LOSS or TIE), else its number of moves (MANY
    from 252 on); INVALID_STATE for a primitive value that is none of 0,
    WIN, LOSS, TIE, or a negative number of moves."""
    if primitive == WIN:
        return MARK_WIN
    if primitive == LOSS:
        return MARK_LOSS
    if primitive == TIE:
        return MARK_TIE
    if primitive != 0 or n_moves < 0:
        return INVALID_STATE
    if n_moves > MAX_COUNT:
        return MANY
    return <int> n_moves


cdef inline object bad_state(int64_t position, int64_t primitive, int64_t n_moves):
    """The ValueError of a position whose initial_state() is INVALID_STATE."""
    if primitive not in (0, WIN, LOSS, TIE):
        return ValueError(f"primitive({position}) gave {primitive}: expected 0, WIN (1), "
                          f"LOSS (-1) or TIE (2)")
    return ValueError(f"position {position} has {n_moves} moves: a position has 0 or more")


cdef inline uint8_t terminal_mark(bint misere) noexcept nogil:
    """What a position with no move (state 0) becomes: LOSS, or WIN in misère play."""
    return MARK_WIN if misere else MARK_LOSS


cdef inline bint decided(uint8_t c) noexcept nogil:
    """A mark (WIN, LOSS or TIE), not a counter: one comparison."""
    return c >= MARK_TIE


cdef inline int8_t outcome_of(uint8_t c) noexcept nogil:
    """The outcome a state byte says, after a solve (a counter: DRAW)."""
    if c == MARK_WIN:
        return WIN
    if c == MARK_LOSS:
        return LOSS
    if c == MARK_TIE:
        return TIE
    return DRAW


cdef inline bint keeps(int8_t o, int64_t r, int8_t o2, int64_t r2) noexcept nogil:
    """The move rule: a move to (o2, r2) is optimal from (o, r) (remoteness
    0 at draws).  A WIN or LOSS at r moves to the opposite outcome at r - 1,
    a TIE to a TIE at r - 1, a DRAW to a DRAW."""
    if o == DRAW:
        return o2 == DRAW
    if o == TIE:
        return o2 == TIE and r2 == r - 1
    return o2 == -o and r2 == r - 1


# The counters of the positions with MANY moves: ``ids`` sorted, ``left[k]``
# the undecided moves of ``ids[k]``.  Only the thread that owns a position
# writes its entry, as for its state byte.
cdef struct Many:
    int64_t n
    int64_t* ids
    int64_t* left


cdef inline int64_t many_index(const Many* many, int64_t u) noexcept nogil:
    """The entry of position u (which holds MANY): a binary search."""
    cdef int64_t lo = 0, hi = many.n - 1, mid
    while lo < hi:
        mid = lo + (hi - lo) // 2
        if many.ids[mid] < u:
            lo = mid + 1
        else:
            hi = mid
    return lo


cdef inline bint has_counter(const Many* many, int64_t u) noexcept nogil:
    """Whether position u has a counter kept aside (a check for callers
    given the table from outside)."""
    return many.n > 0 and many.ids[many_index(many, u)] == u


cdef inline int take_one(uint8_t* state, Many* many, int64_t u) noexcept nogil:
    """One of u's undecided moves leads to a WIN (u undecided): 1 if that
    was its last (u is a LOSS: the caller marks it), else 0 (its counter,
    byte or kept aside, goes down by one)."""
    cdef uint8_t c = state[u]
    cdef int64_t k
    if c == MANY:
        k = many_index(many, u)
        many.left[k] -= 1
        return many.left[k] == 0
    if c == 1:
        return 1
    state[u] = c - 1
    return 0
