# cython: language_level=3, boundscheck=False, wraparound=False
"""Wythoff's game as a compiled grundy plug-in: a template to copy.

Two heaps of at most N - 1 tokens each; a move takes any number of tokens
from one heap, or the same number from both; who cannot move loses.  A
position (a, b) is numbered a * N + b.  The LOSS positions are Wythoff's
pairs (0, 0), (1, 2), (3, 5), (4, 7), ... and their mirrors.

Build with the setup.py beside this file; then

    import grundy, wythoff
    sol = grundy.solve_source(wythoff.Wythoff(100))
"""
from grundy.plugin cimport MoveSource, int8_t, int64_t


cdef class Wythoff(MoveSource):
    cdef int64_t size                 # N: heaps of 0..N-1 tokens

    def __cinit__(self, int64_t size):
        if not 1 <= size <= 3000:
            raise ValueError(f"size must be 1..3000, got {size}")
        self.size = size
        self.n_positions = size * size
        self.max_successors = 3 * (size - 1)      # also the most predecessors
        self.max_predecessors = 3 * (size - 1)

    cdef int64_t successors(self, int64_t s, int64_t* buf) noexcept nogil:
        cdef int64_t a = s // self.size, b = s % self.size, k, count = 0
        for k in range(1, a + 1):                 # from the first heap
            buf[count] = (a - k) * self.size + b
            count += 1
        for k in range(1, b + 1):                 # from the second heap
            buf[count] = a * self.size + b - k
            count += 1
        for k in range(1, min(a, b) + 1):         # the same from both
            buf[count] = (a - k) * self.size + b - k
            count += 1
        return count

    cdef int64_t predecessors(self, int64_t s, int64_t* buf,
                              const int64_t** out) noexcept nogil:
        # The positions with a move to s: the same moves, backwards.
        cdef int64_t a = s // self.size, b = s % self.size, k, count = 0
        for k in range(1, self.size - a):
            buf[count] = (a + k) * self.size + b
            count += 1
        for k in range(1, self.size - b):
            buf[count] = a * self.size + b + k
            count += 1
        for k in range(1, self.size - max(a, b)):
            buf[count] = (a + k) * self.size + b + k
            count += 1
        out[0] = buf
        return count

    cdef int8_t primitive(self, int64_t s) noexcept nogil:
        return 0                      # the game ends when no move is left: a LOSS

    def position(self, int64_t s):
        """The heaps of position number s."""
        return divmod(s, self.size)
