"""Explicit graphs: CSR plumbing shared by the kernels (construction,
checks, reversal), and :class:`CSRSource`, the CSR plug-in through which
the engine solves a graph.

Every function here is O(n + m) and allocation-free except where it returns
new arrays (allocated with numpy, so a failure is a ``MemoryError``).
"""
import numpy as np

from cython.parallel cimport prange
from libc.string cimport memset

from grundy._core._typedefs cimport int8_t, int64_t, uint8_t, grundy_prefetch
from grundy._core._interrupt cimport interrupted, raise_interrupt
from grundy._core.source cimport MoveSource
from grundy._core.states cimport initial_state

cdef enum:
    CHECK_EVERY = (1 << 22) - 1     # look for Ctrl-C every 4M steps
    PARALLEL_EDGES = 1 << 16        # fewer edges are reversed on one thread


cdef int reverse_csr(int64_t n, const int64_t* indptr, const int64_t* indices,
                     int64_t* rev_indptr, int64_t* rev_indices,
                     int nthreads=1) noexcept nogil:
    cdef int64_t u, e, v, m = indptr[n], u0, u1, lo, hi
    cdef int d
    if nthreads < 2 or m < PARALLEL_EDGES:
        nthreads = 1
    if nthreads > 1 and m >= nthreads * n:
        # Room in rev_indices (not filled yet) for a count array a thread:
        # each counts a share of the edges, then the counts are summed.
        if _count_shared(n, m, indices, rev_indptr, rev_indices, nthreads) != 0:
            return -1
    elif _count_in(n, m, indices, rev_indptr) != 0:
        return -1
    # Fill using rev_indptr[v] as the write cursor of v, then shift back.
    # The random writes are shared out: thread d writes the predecessors of
    # the vertices n*d/nthreads up to n*(d+1)/nthreads, reading every edge,
    # in source order (so the result is the same for any thread count).
    u0 = 0
    while u0 < n:
        u1 = _slice_end(indptr, n, u0)
        for d in prange(nthreads, num_threads=nthreads, schedule="static", chunksize=1):
            lo = n * d // nthreads
            hi = n * (d + 1) // nthreads
            for u in range(u0, u1):
                for e in range(indptr[u], indptr[u + 1]):
                    v = indices[e]
                    if lo <= v < hi:
                        rev_indices[rev_indptr[v]] = u
                        rev_indptr[v] += 1
        u0 = u1
        if interrupted():
            return -1
    for v in range(n, 0, -1):
        rev_indptr[v] = rev_indptr[v - 1]
    rev_indptr[0] = 0
    return 0


cdef int64_t _slice_end(const int64_t* indptr, int64_t n, int64_t u0) noexcept nogil:
    """The end of the slice of sources from u0: about CHECK_EVERY edges (at
    least one source)."""
    cdef int64_t lo = u0 + 1, hi = n, mid, limit = indptr[u0] + CHECK_EVERY
    while lo < hi:                      # the first u > u0 with indptr[u] >= limit
        mid = lo + (hi - lo) // 2
        if indptr[mid] >= limit:
            hi = mid
        else:
            lo = mid + 1
    return lo


cdef int _count_shared(int64_t n, int64_t m, const int64_t* indices,
                       int64_t* rev_indptr, int64_t* scratch, int nthreads) noexcept nogil:
    """_count_in on threads, thread d counting into scratch[d*n:(d+1)*n]
    (needs m >= nthreads * n); the edges a slice at a time (Ctrl-C between)."""
    cdef int64_t e, e0, e1, v, a, b, total, step = (CHECK_EVERY + 1) * <int64_t> nthreads
    cdef int64_t* mine
    cdef int d
    for d in prange(nthreads, num_threads=nthreads, schedule="static", chunksize=1):
        memset(scratch + d * n, 0, n * sizeof(int64_t))
    e0 = 0
    while e0 < m:
        e1 = min(m, e0 + step)
        for d in prange(nthreads, num_threads=nthreads, schedule="static", chunksize=1):
            mine = scratch + d * n
            a = e0 + (e1 - e0) * d // nthreads
            b = e0 + (e1 - e0) * (d + 1) // nthreads
            for e in range(a, b):
                mine[indices[e]] += 1
        e0 = e1
        if interrupted():
            return -1
    rev_indptr[0] = 0
    for v in prange(n, num_threads=nthreads, schedule="static"):
        total = 0
        for d in range(nthreads):
            total = total + scratch[d * n + v]
        rev_indptr[v + 1] = total
    for v in range(n):
        rev_indptr[v + 1] += rev_indptr[v]
    return 0


cdef int _count_in(int64_t n, int64_t m, const int64_t* indices,
                   int64_t* rev_indptr) noexcept nogil:
    """rev_indptr[v] = the edges into vertices below v: 0, or -1 on Ctrl-C."""
    cdef int64_t e, v
    for v in range(n + 1):
        rev_indptr[v] = 0
    for e in range(m):
        if (e & CHECK_EVERY) == CHECK_EVERY and interrupted():
            return -1
        rev_indptr[indices[e] + 1] += 1
    for v in range(n):
        rev_indptr[v + 1] += rev_indptr[v]
    return 0


cdef int64_t max_out_degree(const int64_t* indptr, int64_t n) noexcept nogil:
    cdef int64_t v, best = 0
    for v in range(n):
        if indptr[v + 1] - indptr[v] > best:
            best = indptr[v + 1] - indptr[v]
    return best


cpdef check_csr(const int64_t[::1] indptr, const int64_t[::1] indices):
    """Raise ValueError unless (indptr, indices) is a CSR graph.

    >>> import numpy as np
    >>> check_csr(np.array([0, 1, 1]), np.array([1]))
    >>> check_csr(np.array([0, 2, 1]), np.array([1]))
    Traceback (most recent call last):
    ...
    ValueError: indptr must be non-decreasing: indptr[1] = 2 > indptr[2] = 1
    """
    cdef int64_t n = indptr.shape[0] - 1
    cdef int64_t m = indices.shape[0]
    cdef int64_t i, bad = -1
    if n < 0:
        raise ValueError("indptr must have at least one entry (len(indptr) = n + 1)")
    if indptr[0] != 0:
        raise ValueError(f"indptr[0] must be 0, got {indptr[0]}")
    if indptr[n] != m:
        raise ValueError(
            f"indptr[-1] = {indptr[n]} must equal len(indices) = {m}")
    with nogil:
        for i in range(n):
            if indptr[i] > indptr[i + 1]:
                bad = i
                break
    if bad >= 0:
        raise ValueError(
            f"indptr must be non-decreasing: indptr[{bad}] = {indptr[bad]}"
            f" > indptr[{bad + 1}] = {indptr[bad + 1]}")
    with nogil:
        for i in range(m):
            if indices[i] < 0 or indices[i] >= n:
                bad = i
                break
    if bad >= 0:
        raise ValueError(
            f"indices[{bad}] = {indices[bad]} is not a vertex: "
            f"valid range is 0..{n - 1}" if n else
            f"indices[{bad}] = {indices[bad]} is not a vertex: the graph has no vertices")


def edges_to_csr(const int64_t[::1] src, const int64_t[::1] dst, int64_t n):
    """CSR (indptr, indices) of the edges src[i] -> dst[i] on n vertices.

    A stable counting sort: the successors of each vertex keep the order in
    which their edges were given.  Raises ValueError naming the first edge
    whose end is outside 0..n-1.
    """
    cdef int64_t m = src.shape[0]
    cdef int64_t i, bad = -1, u
    cdef bint stopped = False
    if dst.shape[0] != m:
        raise ValueError(f"src and dst differ in length: {m} != {dst.shape[0]}")
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    with nogil:
        for i in range(m):
            if src[i] < 0 or src[i] >= n or dst[i] < 0 or dst[i] >= n:
                bad = i
                break
    if bad >= 0:
        raise ValueError(
            f"edge {bad} = ({src[bad]}, {dst[bad]}) has a vertex outside "
            f"the valid range 0..{n - 1}" if n else
            f"edge {bad} = ({src[bad]}, {dst[bad]}): the graph has no vertices (n = 0)")
    indptr_arr = np.zeros(n + 1, dtype=np.int64)
    indices_arr = np.empty(m, dtype=np.int64)
    cdef int64_t[::1] indptr = indptr_arr
    cdef int64_t[::1] indices = indices_arr
    with nogil:
        for i in range(m):
            if (i & CHECK_EVERY) == CHECK_EVERY and interrupted():
                stopped = True
                break
            indptr[src[i] + 1] += 1
        if not stopped:
            for i in range(n):
                indptr[i + 1] += indptr[i]
            for i in range(m):
                if (i & CHECK_EVERY) == CHECK_EVERY and interrupted():
                    stopped = True
                    break
                u = src[i]
                indices[indptr[u]] = dst[i]
                indptr[u] += 1
        if not stopped:
            for i in range(n, 0, -1):
                indptr[i] = indptr[i - 1]
            indptr[0] = 0
    if stopped:
        raise_interrupt()
    return indptr_arr, indices_arr


def reverse(const int64_t[::1] indptr, const int64_t[::1] indices, int threads=1):
    """The reverse of a CSR graph, (rev_indptr, rev_indices): the edges
    into each vertex, by source in increasing order (the same for any
    number of ``threads``).  Raises ValueError for a malformed graph,
    KeyboardInterrupt on Ctrl-C.

    >>> import numpy as np
    >>> rp, ri = reverse(np.array([0, 2, 3, 3]), np.array([1, 2, 2]))
    >>> rp.tolist(), ri.tolist()
    ([0, 0, 1, 3], [0, 0, 1])
    """
    check_csr(indptr, indices)
    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    cdef int64_t n = indptr.shape[0] - 1, m = indices.shape[0]
    rev_indptr = np.empty(n + 1, dtype=np.int64)
    rev_indices = np.empty(max(m, 1), dtype=np.int64)
    cdef int64_t[::1] rp = rev_indptr
    cdef int64_t[::1] ri = rev_indices
    cdef int status
    with nogil:
        status = reverse_csr(n, &indptr[0], &indices[0] if m else NULL, &rp[0], &ri[0],
                             threads)
    if status != 0:
        raise_interrupt()
    return rev_indptr, rev_indices[:m]


cdef class CSRSource(MoveSource):
    """An explicit graph as a MoveSource: successors from its CSR,
    predecessors from the reverse CSR (built here by a counting pass, on
    ``threads`` threads), and its labels as the primitive values.

    Parameters
    ----------
    indptr, indices : int64 arrays
        The CSR graph (copied unless read-only int64 already: the engine
        runs on raw pointers into them).
    labels : int8 array, optional
        A fixed outcome for each vertex (WIN 1, LOSS -1, TIE 2; 0 for none):
        a labelled vertex is where the game ends, its moves ignored.
    threads : int
        Threads for the reversal.
    check : bool
        Check the graph (``check_csr``) and the labels.  ``False`` is for a
        caller whose arrays were checked already (a ``GameGraph``'s): a
        malformed graph can then crash the process.

    >>> import numpy as np
    >>> src = CSRSource(np.array([0, 1, 1]), np.array([1]), np.array([0, 1], np.int8))
    >>> src.n_positions, src.max_successors
    (2, 1)
    """
    def __cinit__(self, indptr_in, indices_in, labels_in=None, *, int threads=1,
                  bint check=True):
        arrays = []
        for arr in (indptr_in, indices_in):
            arr = np.asarray(arr)
            if arr.flags.writeable or arr.dtype != np.int64 or not arr.flags.c_contiguous:
                arr = np.array(arr, dtype=np.int64, order="C", copy=True)
                arr.flags.writeable = False
            arrays.append(arr)
        cdef const int64_t[::1] indptr = arrays[0]
        cdef const int64_t[::1] indices = arrays[1]
        if check:
            check_csr(indptr, indices)
        cdef int64_t n = indptr.shape[0] - 1
        cdef int64_t m = indices.shape[0]
        cdef const int8_t[::1] labels
        if labels_in is not None:
            label_array = np.asarray(labels_in)
            if label_array.flags.writeable or label_array.dtype != np.int8 or \
                    not label_array.flags.c_contiguous:
                label_array = np.array(label_array, dtype=np.int8, order="C", copy=True)
                label_array.flags.writeable = False
            if label_array.shape != (n,):
                raise ValueError(f"labels has shape {label_array.shape}, expected ({n},)")
            if check:
                bad = np.flatnonzero((label_array < -1) | (label_array > 2))
                if bad.size:
                    raise ValueError(f"label of vertex {int(bad[0])} is "
                                     f"{int(label_array[bad[0]])}: expected WIN (1), "
                                     f"LOSS (-1), TIE (2) or 0 (not fixed)")
            arrays.append(label_array)
            labels = label_array
            self.labels = &labels[0] if n else NULL
        else:
            self.labels = NULL
        rev_indptr = np.empty(n + 1, dtype=np.int64)
        rev_indices = np.empty(max(m, 1), dtype=np.int64)
        self._keep = (*arrays, rev_indptr, rev_indices)
        cdef int64_t[::1] rp = rev_indptr
        cdef int64_t[::1] ri = rev_indices
        cdef int status
        with nogil:
            status = reverse_csr(n, &indptr[0], &indices[0] if m else NULL,
                                 &rp[0], &ri[0], threads)
        if status != 0:
            raise_interrupt()
        self.indptr = &indptr[0]
        self.indices = &indices[0] if m else NULL
        self.rev_indptr = &rp[0]
        self.rev_indices = &ri[0]
        self.n_positions = n
        self.max_predecessors = 0     # never fills the buffer
        with nogil:
            self.max_successors = max_out_degree(&indptr[0], n) if n else 0
        self.prefetches = True

    cdef int8_t primitive(self, int64_t s) noexcept nogil:
        return self.labels[s] if self.labels != NULL else 0

    cdef int64_t n_moves(self, int64_t s) noexcept nogil:
        return self.indptr[s + 1] - self.indptr[s]

    cdef int64_t initial_states(self, uint8_t* state, int64_t start, int64_t stop,
                                int64_t* buf) noexcept nogil:
        cdef int64_t s
        cdef int8_t label = 0
        for s in range(start, stop):
            if self.labels != NULL:
                label = self.labels[s]
            state[s] = <uint8_t> initial_state(label, 0 if label else
                                               self.indptr[s + 1] - self.indptr[s])
        return -1

    cdef int64_t successors(self, int64_t s, int64_t* buf) noexcept nogil:
        cdef int64_t e, k = 0
        for e in range(self.indptr[s], self.indptr[s + 1]):
            buf[k] = self.indices[e]
            k += 1
        return k

    cdef int64_t predecessors(self, int64_t s, int64_t* buf,
                              const int64_t** out) noexcept nogil:
        out[0] = self.rev_indices + self.rev_indptr[s]
        return self.rev_indptr[s + 1] - self.rev_indptr[s]

    cdef void prefetch(self, int64_t s, int stage) noexcept nogil:
        if stage == 1:
            grundy_prefetch(self.rev_indptr + s)
        else:
            grundy_prefetch(self.rev_indices + self.rev_indptr[s])
