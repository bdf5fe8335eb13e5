from grundy._core._typedefs cimport int64_t

# Reverse of a CSR graph (a counting sort by bucket, stable: the same for any
# number of threads).  rev_indptr has n+1 slots,
# rev_indices max(m, 1).  Returns 0, or -1 when interrupted (Ctrl-C; the
# exception is set: see _interrupt.pxd).
cdef int reverse_csr(int64_t n, const int64_t* indptr, const int64_t* indices,
                     int64_t* rev_indptr, int64_t* rev_indices,
                     int nthreads=*) noexcept nogil

# Raises ValueError unless indptr/indices describe a CSR graph on
# len(indptr) - 1 vertices.  O(n + m).
cpdef check_csr(const int64_t[::1] indptr, const int64_t[::1] indices)

# The largest out-degree of a CSR graph (0 for no vertices).
cdef int64_t max_out_degree(const int64_t* indptr, int64_t n) noexcept nogil

from grundy._core._typedefs cimport int8_t
from grundy._core.source cimport MoveSource

# An explicit graph as a MoveSource (see csr.pyx).
cdef class CSRSource(MoveSource):
    cdef object _keep
    cdef const int64_t* indptr
    cdef const int64_t* indices
    cdef const int64_t* rev_indptr
    cdef const int64_t* rev_indices
    cdef const int8_t* labels
