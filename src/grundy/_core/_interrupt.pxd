# Ctrl-C inside long nogil kernels: the one mechanism every kernel uses.
#
# A kernel calls ``interrupted()`` every so often (a few milliseconds of
# work apart); it runs Python's signal handlers, in the main thread only.
# When one raised (KeyboardInterrupt for Ctrl-C), the exception is left set:
# the kernel frees what it holds, returns a status saying so, and its def
# wrapper calls ``raise_interrupt()`` to propagate that very exception.

from grundy._core._typedefs cimport int64_t

# A long pass also reports progress where it looks for Ctrl-C: it calls a
# ``check(done, total)`` its driver gives it, which runs the signal handlers
# and the progress callback, and returns True when the pass must stop (an
# exception is pending: the driver raises it).
ctypedef bint (*check_fn)(int64_t done, int64_t total) noexcept nogil


cdef extern from "Python.h":
    # Declared without an exception check on purpose: the exception stays
    # set for raise_interrupt().
    int PyErr_CheckSignals() noexcept


cdef inline bint interrupted() noexcept nogil:
    cdef int r
    with gil:
        r = PyErr_CheckSignals()
    return r != 0


cdef inline int raise_interrupt() except -1:
    return -1
