# The public contract of a compiled game: what a plug-in cimports.
#
#     # my_game.pyx
#     from grundy.plugin cimport MoveSource, int8_t, int64_t, WIN, LOSS
#
#     cdef class MyGame(MoveSource):
#         def __cinit__(self, ...):
#             self.n_positions = ...          # positions are numbered 0..n_positions-1
#             self.max_predecessors = ...     # the most predecessors() of a position
#             self.max_successors = ...       # the most successors() of a position
#         cdef int64_t successors(self, int64_t s, int64_t* buf) noexcept nogil: ...
#         cdef int64_t predecessors(self, int64_t s, int64_t* buf,
#                                   const int64_t** out) noexcept nogil: ...
#         cdef int8_t primitive(self, int64_t s) noexcept nogil: ...
#
# and is solved with ``grundy.solve_source(MyGame(...))``.  Build it against
# the installed package (``include_path=[grundy.get_include()]`` for
# cythonize, ``include_dirs=[grundy.get_include()]`` for the extension);
# ``examples/plugin/`` is a template to copy.  The methods, their meaning
# and what they may do are documented on MoveSource (grundy/_core/source.pxd,
# installed with the package: ``grundy.get_include()`` finds both).  A plug-in is compiled against one version
# of grundy: rebuild it when grundy changes (a cdef class's method table is
# fixed when it is compiled).

# The integer types the methods use, and the outcomes primitive() returns
# (WIN 1, LOSS -1, TIE 2 for the player to move; 0: the game goes on).
from grundy._core._typedefs cimport int8_t, int32_t, int64_t, uint8_t, WIN, LOSS, DRAW, TIE

# The class to subclass.
from grundy._core.source cimport MoveSource

# For a plug-in that overrides initial_states(): the engine's initial state
# byte of a position from its primitive value and number of moves.
from grundy._core.states cimport initial_state, INVALID_STATE
