from grundy._core._typedefs cimport int64_t

# What the engine's passes return (the driver turns each into an answer or
# an exception).
cdef enum:
    RETRO_OK = 0
    RETRO_NO_MEMORY = -1    # malloc failed
    RETRO_OVERFLOW = -2     # a remoteness does not fit the narrow type given
    RETRO_MEMORY_LIMIT = -3 # the queue would pass max_queue_bytes
    RETRO_INTERRUPTED = -4  # an exception is pending (Ctrl-C, or the progress
                            # callback raised): the driver raises it
    RETRO_BAD_STATE = -5    # a source broke its contract (the driver names it)
    RETRO_DISAGREE = -6     # more moves to WINs reached a position than it has
                            # (its predecessors and moves disagree)
    RETRO_NO_COUNTER = -7   # a state byte says MANY, but no counter is kept aside

# How often the passes look for Ctrl-C (and report progress): every 2^16
# positions popped, every 2^22 positions walked.
cdef enum:
    CHECK_EVERY_POPS = (1 << 16) - 1
    CHECK_EVERY_STATES = (1 << 22) - 1


cdef inline int64_t padded(int64_t ids) noexcept nogil:
    """Room for ``ids`` ids in a per-thread buffer, rounded up so that two
    threads' buffers (written at every call) never share a cache line."""
    return (ids + 15) // 16 * 16 + 16


# The most threads a kernel starts (``grundy._common.MAX_THREADS``, the
# Python layer's limit, is the same number: a test keeps them equal).
cdef enum:
    MAX_THREADS = 1024


cdef inline int check_threads(object threads) except -1:
    """ValueError unless ``threads`` (an int of any size) is a thread count
    the kernels take."""
    if threads < 1:
        raise ValueError(f"threads must be >= 1 (and <= {<int> MAX_THREADS}), got {threads}")
    if threads > MAX_THREADS:
        raise ValueError(f"threads must be <= {<int> MAX_THREADS}, got {threads}")
    return 0
