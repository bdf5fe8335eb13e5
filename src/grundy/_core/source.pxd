# The plug-in contract: a game's rules, as the engine asks for them.
# (Plug-ins cimport it through the public grundy/plugin.pxd.)
from grundy._core._typedefs cimport int8_t, int64_t, uint8_t


cdef class MoveSource:
    """A game's rules, for the engine: the interface of a compiled game.

    A game written in Cython subclasses ``MoveSource`` (``from grundy.plugin
    cimport MoveSource``), sets ``n_positions``, ``max_predecessors`` and
    ``max_successors`` in its ``__cinit__``, and implements:

    - ``predecessors(s, buf, out)``: store a pointer to the numbers of the
      positions with a move to ``s`` in ``out[0]`` (either into the
      source's own storage or into ``buf``, which holds
      ``max_predecessors`` numbers) and return how many there are.  A
      position appears once per move to ``s`` (multi-edges repeat it).
    - ``successors(s, buf)``: write the numbers of the positions ``s``
      moves to into ``buf`` (room for ``max_successors``), in move order,
      and return how many.  The best move of a position is the first
      optimal one in this order.
    - ``primitive(s)``: WIN, LOSS or TIE for the player to move if the game
      is over at ``s`` (its moves are then ignored), else 0.
    - optionally ``n_moves(s)``: the number of successors, if it is cheaper
      than generating them (the default returns -1: generate them).
    - optionally ``initial_states(state, start, stop, buf)``: what the
      driver writes into the engine's state array for the positions
      ``start..stop-1`` (``initial_state(primitive(s), n_moves(s))`` each,
      from ``grundy.plugin``), for a source that can walk its positions
      faster than one call each.  Returns -1, or the first position whose
      primitive value or move count is invalid.
    - optionally ``prefetch(s, stage)`` with ``prefetches`` set: a hint
      that ``predecessors(s)`` will be asked for soon (stage 1: some
      positions ahead, stage 2: fewer).

    ``grundy.solve_source(source)`` solves every position and returns a
    solution.  A position may have any number of moves.  Everything runs
    without the GIL, on several threads at once: the methods must not
    touch Python objects, nor write anything but ``buf``.
    """
    cdef readonly int64_t n_positions
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
    cdef void prefetch(self, int64_t s, int stage) noexcept nogil
