"""Grundy values (mex) of impartial games on acyclic graphs.

One iterative depth-first search (``_postorder``) orders the positions so
that each comes after its successors, or finds a cycle (a back edge to a
position still on the stack), reported instead.  Then:

``dag_grundy``: the value of each vertex of a CSR graph, in that order, as
the mex of its successors' values, with a stamped scratch array so the mex
costs O(out-degree).

``sums_grundy``: the same mex over "options that are sums": each option of a
position is a list of component positions, worth the xor of their values
(the order from ``topological_order``).
"""
import numpy as np


from grundy._core._typedefs cimport int8_t, int64_t
from grundy._core.csr cimport check_csr, max_out_degree
from grundy._core._interrupt cimport interrupted, raise_interrupt

cdef enum:
    CHECK_EVERY = (1 << 20) - 1     # DFS steps between looks for Ctrl-C
    NEW = 0                         # mark[v]: not seen,
    ON_STACK = 1                    # on the stack,
    DONE = 2                        # finished (in the order)


cdef int64_t _postorder(int64_t first, int64_t n, const int64_t* indptr,
                        const int64_t* indices, int8_t* mark, int64_t* cursor,
                        int64_t* stack, int64_t* order, int64_t* top_out) noexcept nogil:
    """Depth-first postorder of the positions first..first+n-1 into ``order``
    (successors below ``first`` are ignored: already done).  Returns -1 when
    done, -2 if interrupted (Ctrl-C), or the local number of a position on a
    cycle: the cycle is then ``stack[k..top_out[0]-1]`` from where it sits."""
    cdef int64_t root, v, w, e, top = 0, done = 0, steps = 0
    for root in range(n):
        if mark[root] != NEW:
            continue
        mark[root] = ON_STACK
        cursor[root] = indptr[root]
        stack[0] = root
        top = 1
        while top > 0:
            steps += 1
            if (steps & CHECK_EVERY) == 0 and interrupted():
                return -2
            v = stack[top - 1]
            e = cursor[v]
            if e < indptr[v + 1]:
                cursor[v] = e + 1
                w = indices[e] - first
                if w < 0:
                    continue
                if mark[w] == NEW:
                    mark[w] = ON_STACK
                    cursor[w] = indptr[w]
                    stack[top] = w
                    top += 1
                elif mark[w] == ON_STACK:
                    top_out[0] = top
                    return w
                continue
            mark[v] = DONE
            order[done] = v + first
            done += 1
            top -= 1
    top_out[0] = 0
    return -1


cdef object _order_or_cycle(int64_t first, const int64_t[::1] indptr,
                            const int64_t[::1] indices):
    """(order, None) or (None, cycle) for positions first.. (see topological_order)."""
    cdef int64_t n = indptr.shape[0] - 1, found, top = 0
    mark_arr = np.zeros(n, dtype=np.int8)
    cursor_arr = np.empty(n, dtype=np.int64)
    stack_arr = np.empty(n, dtype=np.int64)
    order_arr = np.empty(n, dtype=np.int64)
    if n == 0:
        return order_arr, None
    cdef int8_t[::1] mark = mark_arr
    cdef int64_t[::1] cursor = cursor_arr, stack = stack_arr, order = order_arr
    with nogil:
        found = _postorder(first, n, &indptr[0], &indices[0] if indices.shape[0] else NULL,
                           &mark[0], &cursor[0], &stack[0], &order[0], &top)
    if found == -2:
        raise_interrupt()
    if found == -1:
        return order_arr, None
    start = int(np.flatnonzero(stack_arr[:top] == found)[0])
    return None, stack_arr[start:top] + first


def dag_grundy(const int64_t[::1] indptr, const int64_t[::1] indices,
               int64_t[::1] value):
    """Fill ``value`` with the Grundy value of every vertex of an acyclic graph.

    Returns None, or, if the graph has a cycle, an int64 array with the
    vertices of one cycle in order (``value`` is then incomplete).
    """
    check_csr(indptr, indices)
    cdef int64_t n = indptr.shape[0] - 1
    if value.shape[0] != n:
        raise ValueError(f"value has length {value.shape[0]}, expected {n}")
    if n == 0:
        return None
    order_arr, cycle = _order_or_cycle(0, indptr, indices)
    if cycle is not None:
        return cycle
    cdef int64_t max_degree
    with nogil:
        max_degree = max_out_degree(&indptr[0], n)
    stamp_arr = np.full(max_degree + 1, -1, dtype=np.int64)
    cdef int64_t[::1] stamp = stamp_arr, order = order_arr
    cdef int64_t i, v, e, g
    with nogil:
        for i in range(n):
            v = order[i]
            for e in range(indptr[v], indptr[v + 1]):
                g = value[indices[e]]
                if g <= max_degree:
                    stamp[g] = v
            g = 0
            while g <= max_degree and stamp[g] == v:
                g += 1
            value[v] = g
    return None


def sums_grundy(const int64_t[::1] order, int64_t first,
                const int64_t[::1] option_ptr, const int64_t[::1] component_ptr,
                const int64_t[::1] components, int64_t[::1] value):
    """Grundy values of positions whose options are sums of positions.

    Positions ``first .. first + len(option_ptr) - 2`` are new: position p
    has the options ``option_ptr[p - first] .. option_ptr[p - first + 1] - 1``;
    option o is the sum of positions
    ``components[component_ptr[o]:component_ptr[o + 1]]`` (an empty sum is
    worth 0).  ``order`` lists the new positions so that every component of
    every option of a position comes before it or is older than ``first``
    (its value already in ``value``).  Their values are written to ``value``.
    """
    cdef int64_t n_new = option_ptr.shape[0] - 1
    cdef int64_t n_options = component_ptr.shape[0] - 1
    cdef int64_t n = first + n_new
    cdef int64_t i, p, o, c, x, g, max_options = 0
    if n_new < 0 or n_options < 0 or first < 0 or value.shape[0] < n:
        raise ValueError("option_ptr, component_ptr and value do not match")
    if option_ptr[0] != 0 or option_ptr[n_new] != n_options:
        raise ValueError("option_ptr and component_ptr do not match")
    for p in range(n_new):
        if option_ptr[p] > option_ptr[p + 1]:
            raise ValueError("option_ptr must be non-decreasing")
        max_options = max(max_options, option_ptr[p + 1] - option_ptr[p])
    if component_ptr[0] != 0 or component_ptr[n_options] != components.shape[0]:
        raise ValueError("component_ptr and components do not match")
    for o in range(n_options):
        if component_ptr[o] > component_ptr[o + 1]:
            raise ValueError("component_ptr must be non-decreasing")
    for i in range(components.shape[0]):
        if components[i] < 0 or components[i] >= n:
            raise ValueError(f"components[{i}] = {components[i]} is not a position 0..{n - 1}")
    for i in range(order.shape[0]):
        if order[i] < first or order[i] >= n:
            raise ValueError(f"order[{i}] = {order[i]} is not a new position {first}..{n - 1}")
    stamp_arr = np.full(max_options + 1, -1, dtype=np.int64)
    cdef int64_t[::1] stamp = stamp_arr
    with nogil:
        for i in range(order.shape[0]):
            p = order[i]
            for o in range(option_ptr[p - first], option_ptr[p - first + 1]):
                x = 0
                for c in range(component_ptr[o], component_ptr[o + 1]):
                    x = x ^ value[components[c]]
                if 0 <= x <= max_options:
                    stamp[x] = p
            g = 0
            while g <= max_options and stamp[g] == p:
                g += 1
            value[p] = g


def topological_order(int64_t first, const int64_t[::1] indptr, const int64_t[::1] indices):
    """An order of the positions ``first .. first + len(indptr) - 2`` in
    which every position comes after its successors (depth-first postorder).

    Position p's successors are ``indices[indptr[p - first]:indptr[p - first + 1]]``;
    those below ``first`` are old (already done) and ignored.  Returns
    ``(order, None)``, or ``(None, cycle)`` with the positions of a cycle, in
    order, if there is one.  Iterative: no recursion, any depth.
    """
    cdef int64_t n = indptr.shape[0] - 1, m = indices.shape[0], i
    if n < 0 or first < 0:
        raise ValueError("indptr must have at least one entry, and first be >= 0")
    if indptr[0] != 0 or indptr[n] != m:
        raise ValueError("indptr must start at 0 and end at len(indices)")
    for i in range(n):
        if indptr[i] > indptr[i + 1]:
            raise ValueError(f"indptr must be non-decreasing: indptr[{i}] > indptr[{i + 1}]")
    for i in range(m):
        if indices[i] < 0 or indices[i] >= first + n:
            raise ValueError(f"indices[{i}] = {indices[i]} is not a position 0..{first + n - 1}")
    return _order_or_cycle(first, indptr, indices)
