"""Explicit graphs: CSR plumbing shared by the kernels (construction,
checks, reversal), and :class:`CSRSource`, the CSR plug-in through which
the engine solves a graph.

Every function here is O(n + m) and allocation-free except where it returns
new arrays (allocated with numpy, so a failure is a ``MemoryError``).
"""
import numpy as np

from cython.parallel cimport prange, threadid
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy

from grundy._core._typedefs cimport int8_t, int64_t, uint8_t, uint64_t, grundy_prefetch
from grundy._core._interrupt cimport interrupted, raise_interrupt
from grundy._core.source cimport MoveSource
from grundy._core.states cimport initial_state
from grundy._core.status cimport check_threads

cdef enum:
    CHECK_EVERY = (1 << 22) - 1     # look for Ctrl-C every 4M steps
    PARALLEL_EDGES = 1 << 16        # fewer edges are reversed on one thread


cdef enum:
    SHIFT = 14                      # a bucket: 2^14 consecutive vertices


cdef int reverse_csr(int64_t n, const int64_t* indptr, const int64_t* indices,
                     int64_t* rev_indptr, int64_t* rev_indices,
                     int nthreads=1) noexcept nogil:
    """The reverse of a CSR graph: a counting sort of the edges by their
    end, stable (sources in increasing order; the same for any number of
    threads).  Not in one pass of random writes over the whole result but
    in two cache-friendly ones: the edges are first dealt, in source order,
    into buckets of 2^14 consecutive ends (a few sequential streams), then
    each bucket, whose counters and part of the result fit in the cache, is
    sorted on its own.  The threads share the edges (by source), then the
    buckets.  The edges are dealt into ``rev_indices`` itself (a bucket's
    edges lie where its ends' sources go), each bucket copied aside while
    it is sorted back.  Returns 0, or -1 when interrupted."""
    cdef int64_t m = indptr[n], nbuckets = (max(n, 1) - 1 >> SHIFT) + 1, b, v, total
    cdef int d, t
    if nthreads < 2 or m < PARALLEL_EDGES:
        nthreads = 1
    if n >= (<int64_t> 1 << 32) or m == 0:      # sources and ends packed two to a word
        return _reverse_plain(n, indptr, indices, rev_indptr, rev_indices)
    cdef uint64_t* packed = <uint64_t*> rev_indices     # dealt there, sorted in place
    cdef int64_t* counts = <int64_t*> calloc(nthreads * nbuckets, sizeof(int64_t))
    cdef int64_t* first = <int64_t*> malloc((nthreads + 1) * sizeof(int64_t))
    cdef int64_t* starts = <int64_t*> malloc((nbuckets + 1) * sizeof(int64_t))
    cdef int64_t* scratch = <int64_t*> malloc(nthreads * ((1 << SHIFT) + 1) * sizeof(int64_t))
    cdef uint64_t* copies = NULL
    cdef int64_t largest = 0
    cdef int status = 0
    if counts == NULL or first == NULL or scratch == NULL or starts == NULL:
        status = _reverse_plain(n, indptr, indices, rev_indptr, rev_indices)   # no room
    else:
        # Thread d deals the sources first[d]..first[d+1]-1 (equal shares of edges).
        for d in range(nthreads + 1):
            first[d] = _source_of(indptr, n, m * d // nthreads)
        for d in prange(nthreads, num_threads=nthreads, schedule="static", chunksize=1):
            _count_buckets(indptr, indices, first[d], first[d + 1], counts + d * nbuckets)
        # Where each thread's part of each bucket starts: bucket-major, so a
        # bucket holds thread 0's edges, then thread 1's... (source order).
        total = 0
        for b in range(nbuckets):
            starts[b] = total
            for d in range(nthreads):
                v = counts[d * nbuckets + b]
                counts[d * nbuckets + b] = total
                total += v
            largest = max(largest, total - starts[b])
        starts[nbuckets] = total
        # A copy of one bucket a thread, to sort it back into its place.
        copies = <uint64_t*> malloc(nthreads * largest * sizeof(uint64_t))
        if copies == NULL:
            status = _reverse_plain(n, indptr, indices, rev_indptr, rev_indices)
            free(counts)
            free(first)
            free(starts)
            free(scratch)
            return status
        if interrupted():
            status = -1
        else:
            for d in prange(nthreads, num_threads=nthreads, schedule="static", chunksize=1):
                _deal(indptr, indices, first[d], first[d + 1], counts + d * nbuckets, packed)
            if interrupted():
                status = -1
        if status == 0:
            # Each bucket: from counts[0][b] (its start) to the next one's.
            for b in prange(nbuckets, num_threads=nthreads, schedule="dynamic", chunksize=1):
                t = threadid()
                _sort_bucket(b, n, starts, packed, copies + t * largest,
                             scratch + t * ((1 << SHIFT) + 1), rev_indptr, rev_indices)
            rev_indptr[n] = m
            if interrupted():
                status = -1
    free(copies)
    free(counts)
    free(first)
    free(starts)
    free(scratch)
    return status


cdef int64_t _source_of(const int64_t* indptr, int64_t n, int64_t e) noexcept nogil:
    """The first source u with indptr[u] >= e (n if none)."""
    cdef int64_t lo = 0, hi = n, mid
    while lo < hi:
        mid = lo + (hi - lo) // 2
        if indptr[mid] >= e:
            hi = mid
        else:
            lo = mid + 1
    return lo


cdef void _count_buckets(const int64_t* indptr, const int64_t* indices, int64_t u0, int64_t u1,
                         int64_t* counts) noexcept nogil:
    cdef int64_t e
    for e in range(indptr[u0], indptr[u1]):
        counts[indices[e] >> SHIFT] += 1


cdef void _deal(const int64_t* indptr, const int64_t* indices, int64_t u0, int64_t u1,
                int64_t* cursor, uint64_t* packed) noexcept nogil:
    """The edges of the sources u0..u1-1 into their buckets, as (source << 32
    | end)."""
    cdef int64_t u, e, v
    for u in range(u0, u1):
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            packed[cursor[v >> SHIFT]] = (<uint64_t> u << 32) | <uint64_t> v
            cursor[v >> SHIFT] += 1


cdef void _sort_bucket(int64_t b, int64_t n, const int64_t* starts, const uint64_t* packed,
                       uint64_t* copy, int64_t* count, int64_t* rev_indptr,
                       int64_t* rev_indices) noexcept nogil:
    """Counting-sort bucket b (its edges packed[starts[b]:starts[b + 1]], in
    source order, where its ends' sources go: ``copy`` takes them first) by
    end into rev_indices, and write rev_indptr of its vertices."""
    cdef int64_t lo = b << SHIFT, hi = min(n, lo + (1 << SHIFT)), i, v, acc
    cdef int64_t start = starts[b], stop = starts[b + 1]
    cdef uint64_t x, low = (<uint64_t> 1 << 32) - 1
    memcpy(copy, packed + start, (stop - start) * sizeof(uint64_t))
    for i in range(hi - lo + 1):
        count[i] = 0
    for i in range(stop - start):
        count[<int64_t> (copy[i] & low) - lo + 1] += 1
    acc = start
    for i in range(hi - lo):
        acc += count[i + 1]
        count[i + 1] = acc - count[i + 1]         # where vertex lo + i starts
        rev_indptr[lo + i] = count[i + 1]
    for i in range(stop - start):
        x = copy[i]
        v = <int64_t> (x & low) - lo + 1
        rev_indices[count[v]] = <int64_t> (x >> 32)
        count[v] += 1


cdef int _reverse_plain(int64_t n, const int64_t* indptr, const int64_t* indices,
                        int64_t* rev_indptr, int64_t* rev_indices) noexcept nogil:
    """The reverse in one pass of random writes (graphs too large to pack)."""
    cdef int64_t u, e, v, m = indptr[n]
    for v in range(n + 1):
        rev_indptr[v] = 0
    for e in range(m):
        if (e & CHECK_EVERY) == CHECK_EVERY and interrupted():
            return -1
        rev_indptr[indices[e] + 1] += 1
    for v in range(n):
        rev_indptr[v + 1] += rev_indptr[v]
    for u in range(n):
        if (u & CHECK_EVERY) == CHECK_EVERY and interrupted():
            return -1
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            rev_indices[rev_indptr[v]] = u
            rev_indptr[v] += 1
    for v in range(n, 0, -1):
        rev_indptr[v] = rev_indptr[v - 1]
    rev_indptr[0] = 0
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
    try:
        indptr_arr = np.zeros(n + 1, dtype=np.int64)
        indices_arr = np.empty(m, dtype=np.int64)
    except (ValueError, OverflowError):         # numpy's words for "far too large"
        raise MemoryError(f"no memory for the CSR arrays of {n} vertices and {m} "
                          f"edges") from None
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
    check_threads(threads)
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
            if label_array.shape != (n,):
                raise ValueError(f"labels has shape {label_array.shape}, expected ({n},)")
            if check:
                # The values themselves, not what int8 would make of them.
                if label_array.dtype.kind not in "iu":
                    raise TypeError(f"labels must be integers, got dtype {label_array.dtype}")
                bad = np.flatnonzero((label_array < -1) | (label_array > 2))
                if bad.size:
                    raise ValueError(f"label of vertex {int(bad[0])} is "
                                     f"{int(label_array[bad[0]])}: expected WIN (1), "
                                     f"LOSS (-1), TIE (2) or 0 (not fixed)")
            if label_array.flags.writeable or label_array.dtype != np.int8 or \
                    not label_array.flags.c_contiguous:
                label_array = np.array(label_array, dtype=np.int8, order="C", copy=True)
                label_array.flags.writeable = False
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
