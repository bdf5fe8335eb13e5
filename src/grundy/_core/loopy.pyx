"""Generalized Sprague-Grundy values of games with cycles (Smith; Fraenkel-Yesha).

gamma(u) is a finite value or infinite.  Stage m = 0, 1, 2, ... gives value
m to every still-unlabelled vertex u that has no successor labelled m and all
of whose unlabelled-or-infinite successors have a successor labelled m
(repeatedly, until nothing more qualifies); then every unlabelled vertex
with no successor labelled m becomes infinite.

Each stage is a retrograde pass over the reverse CSR, like win/loss
analysis: a vertex labelled m "hits" its unlabelled-or-infinite
predecessors; a hit vertex decrements the counters of its own unlabelled
predecessors, and a counter reaching 0 (every relevant successor hit, none
labelled m) labels that vertex m.  A stage costs O(unlabelled vertices +
edges into the vertices it labels or hits); there are at most
(largest finite value + 2) stages.
"""
import numpy as np

from grundy._core._typedefs cimport int64_t
from grundy._core.csr cimport reverse_csr, check_csr
from grundy._core._interrupt cimport interrupted, raise_interrupt

cdef enum:
    UNLABELLED = -2
    INFINITE = -1
    CHECK_EVERY = (1 << 16) - 1     # queue pops between looks for Ctrl-C


def loopy_grundy(const int64_t[::1] indptr, const int64_t[::1] indices,
                 int64_t[::1] value):
    """Fill ``value`` with gamma: the finite value, or -1 where infinite.

    Returns the number of stages used.
    """
    check_csr(indptr, indices)
    cdef int64_t n = indptr.shape[0] - 1
    cdef int64_t m_edges = indices.shape[0]
    if value.shape[0] != n:
        raise ValueError(f"value has length {value.shape[0]}, expected {n}")
    if n == 0:
        return 0
    rp_arr = np.empty(n + 1, dtype=np.int64)
    ri_arr = np.empty(max(m_edges, 1), dtype=np.int64)
    base_arr = np.empty(n, dtype=np.int64)        # successors unlabelled or infinite
    cnt_arr = np.empty(n, dtype=np.int64)
    hit_arr = np.full(n, -1, dtype=np.int64)      # stage in which a vertex was hit
    ulist_arr = np.arange(n, dtype=np.int64)      # the unlabelled vertices
    queue_arr = np.empty(n, dtype=np.int64)
    cdef int64_t[::1] rp = rp_arr, ri = ri_arr, base = base_arr, cnt = cnt_arr
    cdef int64_t[::1] hit = hit_arr, ulist = ulist_arr, queue = queue_arr
    cdef int64_t nu = n, stage = 0, i, j, k, u, v, w, head, tail, kept, steps = 0
    cdef bint stopped = False
    with nogil:
        for v in range(n):
            base[v] = indptr[v + 1] - indptr[v]
        stopped = reverse_csr(n, &indptr[0], &indices[0] if m_edges else NULL,
                              &rp[0], &ri[0]) != 0
        for v in range(n):
            value[v] = UNLABELLED
        while nu > 0 and not stopped:
            head = 0
            tail = 0
            for i in range(nu):
                u = ulist[i]
                cnt[u] = base[u]
                if cnt[u] == 0:
                    value[u] = stage
                    queue[tail] = u
                    tail += 1
            while head < tail:
                v = queue[head]
                head += 1
                steps += 1
                if (steps & CHECK_EVERY) == 0 and interrupted():
                    stopped = True
                    break
                for j in range(rp[v], rp[v + 1]):
                    w = ri[j]
                    if (value[w] == UNLABELLED or value[w] == INFINITE) and hit[w] != stage:
                        hit[w] = stage
                        for k in range(rp[w], rp[w + 1]):
                            u = ri[k]
                            if value[u] == UNLABELLED and hit[u] != stage:
                                cnt[u] -= 1
                                if cnt[u] == 0:
                                    value[u] = stage
                                    queue[tail] = u
                                    tail += 1
            kept = 0
            for i in range(nu):
                u = ulist[i]
                if value[u] == stage:
                    for j in range(rp[u], rp[u + 1]):
                        base[ri[j]] -= 1
                elif hit[u] != stage:
                    value[u] = INFINITE
                else:
                    ulist[kept] = u
                    kept += 1
            nu = kept
            stage += 1
            if interrupted():
                stopped = True
    if stopped:
        raise_interrupt()
    return stage
