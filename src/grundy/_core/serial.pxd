# The retrograde pass on one thread, and the tie pass (see serial.pyx).
from grundy._core._typedefs cimport int64_t, uint8_t, rem_t
from grundy._core._interrupt cimport check_fn
from grundy._core.source cimport MoveSource
from grundy._core.states cimport Many

cdef int serial_pass(MoveSource src, uint8_t* state, Many* many, rem_t* remoteness,
                     int64_t max_remoteness, int64_t max_queue_bytes,
                     check_fn check) noexcept nogil
cdef int tie_pass(MoveSource src, uint8_t* state, rem_t* remoteness,
                  int64_t max_remoteness, int64_t max_queue_bytes) noexcept nogil
cdef int64_t queue_bytes(int64_t n_ids) noexcept nogil
