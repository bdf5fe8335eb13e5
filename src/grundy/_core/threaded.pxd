# The win/loss pass on several threads (see threaded.pyx).
from grundy._core._typedefs cimport int64_t, uint8_t, rem_t
from grundy._core._interrupt cimport check_fn
from grundy._core.source cimport MoveSource
from grundy._core.states cimport Many

cdef int threaded_pass(MoveSource src, uint8_t* state, Many* many, rem_t* remoteness,
                       int64_t max_remoteness, int64_t max_queue_bytes, int nthreads,
                       check_fn check) noexcept nogil
