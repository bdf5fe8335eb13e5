"""Nim-sequences of take-and-break games: plain and sparse-space kernels.

A game is given by move rules on a heap of n tokens, as arrays of k values
("take k"): ``take0`` (take the whole heap when it has exactly k),
``take1`` (take k, leaving one non-empty heap), ``take2`` (take k, split the
rest into two non-empty heaps; with ``unequal`` only into unequal heaps)
and ``take3`` (take k, leave three non-empty heaps).

Both kernels extend G[0:start] to G[0:stop] in place; their results are
identical.  ``plain_extend`` marks every option value of G(n) in a stamped
scratch array and takes the mex: O(n) per value for splitting games, O(n^2)
per value for three-heap moves.

``sparse_extend`` (Gangolli-Plambeck; Flammenkamp's sparse space) takes a
mask M: a value v is rare when popcount(v & M) is even, common otherwise,
and rare xor rare and common xor common are rare, rare xor common is common.
Rare positions are few, so all common option values of a split come from
the few splits with a rare part: enumerating those gives the smallest
common value c that is not an option.  G(n) is c unless some rare value
below c is missing; those are looked for in one scan of all splits that
stops as soon as all of them are found (and that completes only when G(n)
is itself rare).  When a value's rare splits would cost more than a plain
scan, that value is computed by the plain scan instead.
"""
import numpy as np

from libc.stdlib cimport malloc, realloc, free

from grundy._core._typedefs cimport int64_t, uint32_t, uint64_t, grundy_popcount32
from grundy._core._interrupt cimport interrupted, raise_interrupt

cdef enum:
    CHECK_WORK = 1 << 24     # inner steps between looks for Ctrl-C (~10 ms)
    STOPPED = -2             # status: interrupted


cdef struct Scratch:
    int64_t* stamp      # stamp[v] == n: v is an option of G(n)
    int64_t cap         # a power of two above every option value


cdef int scratch_fit(Scratch* s, uint32_t max_value) noexcept nogil:
    """Make the scratch cover every xor of values <= max_value."""
    cdef int64_t need = 2, cap, i
    cdef int64_t* bigger
    while need <= max_value:
        need *= 2
    need *= 2                      # xors stay below the next power of two
    if need <= s.cap:
        return 0
    bigger = <int64_t*> realloc(s.stamp, need * sizeof(int64_t))
    if bigger == NULL:
        return -1
    for i in range(s.cap, need):
        bigger[i] = -1
    s.stamp = bigger
    s.cap = need
    return 0


cdef int bitsets_fit(uint64_t** a, uint64_t** b, int64_t cap) noexcept nogil:
    """Grow two bitsets to cap bits (cap a power of two, at least 64)."""
    cdef int64_t words = cap >> 6 if cap >= 64 else 1
    cdef uint64_t* x = <uint64_t*> realloc(a[0], words * sizeof(uint64_t))
    if x == NULL:
        return -1
    a[0] = x
    x = <uint64_t*> realloc(b[0], words * sizeof(uint64_t))
    if x == NULL:
        return -1
    b[0] = x
    return 0


cdef int rare_push(int64_t** rare, int64_t* n_rare, int64_t* cap,
                   int64_t n) noexcept nogil:
    """Append n to the growable list of rare positions."""
    cdef int64_t* bigger
    if n_rare[0] == cap[0]:
        bigger = <int64_t*> realloc(rare[0], 2 * cap[0] * sizeof(int64_t))
        if bigger == NULL:
            return -1
        rare[0] = bigger
        cap[0] *= 2
    rare[0][n_rare[0]] = n
    n_rare[0] += 1
    return 0


cdef inline void mark(Scratch* s, uint32_t v, int64_t n) noexcept nogil:
    s.stamp[v] = n


cdef inline uint32_t mex(Scratch* s, int64_t n) noexcept nogil:
    cdef uint32_t v = 0
    while v < s.cap and s.stamp[v] == n:
        v += 1
    return v


cdef void plain_options(const uint32_t* G, int64_t n,
                        const int64_t[::1] take0, const int64_t[::1] take1,
                        const int64_t[::1] take2, const int64_t[::1] take3,
                        bint unequal, Scratch* s) noexcept nogil:
    cdef int64_t i, k, m, a, b, c
    cdef uint32_t x
    for i in range(take0.shape[0]):
        if n == take0[i]:
            mark(s, 0, n)
    for i in range(take1.shape[0]):
        k = take1[i]
        if n > k:
            mark(s, G[n - k], n)
    for i in range(take2.shape[0]):
        m = n - take2[i]
        for a in range(1, m // 2 + 1):
            if unequal and 2 * a == m:
                continue
            mark(s, G[a] ^ G[m - a], n)
    for i in range(take3.shape[0]):
        m = n - take3[i]
        for a in range(1, m // 3 + 1):
            for b in range(a, (m - a) // 2 + 1):
                c = m - a - b
                mark(s, G[a] ^ G[b] ^ G[c], n)


cdef uint32_t max_of(const uint32_t* G, int64_t n) noexcept nogil:
    cdef uint32_t best = 0
    cdef int64_t i
    for i in range(n):
        if G[i] > best:
            best = G[i]
    return best


def _finish_extend(int status, int64_t n, what):
    """Return n, or raise: MemoryError, or the pending KeyboardInterrupt
    (with ``reached = n``: the values computed before it)."""
    if status == STOPPED:
        try:
            raise_interrupt()
        except BaseException as exc:
            exc.reached = n
            raise
    if status != 0:
        raise MemoryError(f"octal kernel: out of memory for {what}")
    return n


def _check(uint32_t[::1] G, int64_t start, int64_t stop, rules):
    if not (0 <= start <= stop <= G.shape[0]):
        raise ValueError(f"need 0 <= start <= stop <= len(G), got {start}, {stop}, {G.shape[0]}")
    for r in rules:
        if len(r) and int(np.min(r)) < 0:
            raise ValueError("move rules must take k >= 0 tokens")


def plain_extend(uint32_t[::1] G, int64_t start, int64_t stop,
                 const int64_t[::1] take0, const int64_t[::1] take1,
                 const int64_t[::1] take2, const int64_t[::1] take3,
                 bint unequal=False):
    """Compute G[start:stop] by the plain scan (G[:start] must be filled).

    Returns how far it got: ``stop``.  On Ctrl-C it raises KeyboardInterrupt
    with the attribute ``reached``: G[start:reached] are computed.
    """
    _check(G, start, stop, (take0, take1, take2, take3))
    cdef Scratch s
    cdef int64_t n, work = 0
    cdef uint32_t g, vmax
    cdef int status = 0
    s.stamp = NULL
    s.cap = 0
    with nogil:
        vmax = max_of(&G[0], start) if start else 0
        status = scratch_fit(&s, vmax)
        n = start
        while status == 0 and n < stop:
            plain_options(&G[0], n, take0, take1, take2, take3, unequal, &s)
            g = mex(&s, n)
            G[n] = g
            if g > vmax:
                vmax = g
                status = scratch_fit(&s, vmax)
            n += 1
            work += 1 + (n // 2) * take2.shape[0] + (n * n // 12) * take3.shape[0]
            if work > CHECK_WORK:
                work = 0
                if interrupted():
                    status = STOPPED
    free(s.stamp)
    return _finish_extend(status, n, "the scratch array")


cdef inline bint is_rare(uint32_t v, uint32_t mask) noexcept nogil:
    return (grundy_popcount32(v & mask) & 1) == 0


def sparse_extend(uint32_t[::1] G, int64_t start, int64_t stop,
                  const int64_t[::1] take0, const int64_t[::1] take1,
                  const int64_t[::1] take2, bint unequal, uint32_t mask):
    """Compute G[start:stop] by the sparse-space method with ``mask``.

    Returns how many values fell back to the plain scan.  For games
    without three-heap moves (take3 is not supported here).  On Ctrl-C it
    raises KeyboardInterrupt with the attribute ``reached``: G[start:reached]
    are computed.
    """
    _check(G, start, stop, (take0, take1, take2))
    cdef Scratch s
    cdef int64_t n, i, j, k, m, a, b, need = 0, n_rare = 0, rare_cap = 1024, plain = 0
    cdef int64_t cost_rare, cost_plain, work = 0
    cdef uint32_t g, v, c, vmax
    cdef int status = 0
    cdef int64_t* rare = <int64_t*> malloc(rare_cap * sizeof(int64_t))
    cdef const int64_t[::1] no_take3 = np.zeros(0, dtype=np.int64)
    cdef int64_t w, words, top, block_end
    # Bitsets over the values (the scratch's capacity, grown with it).
    cdef uint64_t* needed = NULL
    cdef uint64_t* seen = NULL
    if rare == NULL:
        raise MemoryError("octal kernel: out of memory for the rare list")
    s.stamp = NULL
    s.cap = 0
    with nogil:
        vmax = max_of(&G[0], start) if start else 0
        status = scratch_fit(&s, vmax)
        if status == 0:
            status = bitsets_fit(&needed, &seen, s.cap if s.cap >= 64 else 64)
        # The rare positions so far, ascending.
        for n in range(start):
            if status == 0 and is_rare(G[n], mask):
                if rare_push(&rare, &n_rare, &rare_cap, n) != 0:
                    status = -1
                    break
        n = start
        while status == 0 and n < stop:
            # Plain scan when enumerating the rare splits costs more.
            cost_rare = 0
            cost_plain = 0
            for i in range(take2.shape[0]):
                m = n - take2[i]
                if m >= 2:
                    cost_plain += m // 2
                    cost_rare += n_rare
            need = 0
            if 2 * cost_rare >= cost_plain:
                plain_options(&G[0], n, take0, take1, take2, no_take3, unequal, &s)
                g = mex(&s, n)
                plain += 1
                need = 1                      # counted as a full scan below
            else:
                for i in range(take0.shape[0]):
                    if n == take0[i]:
                        mark(&s, 0, n)
                for i in range(take1.shape[0]):
                    k = take1[i]
                    if n > k:
                        mark(&s, G[n - k], n)
                # Every split with a rare part (rare^common is common).
                for i in range(take2.shape[0]):
                    m = n - take2[i]
                    if m < 2:
                        continue
                    for j in range(n_rare):
                        a = rare[j]
                        if a >= m:
                            break
                        if a == 0:
                            continue
                        b = m - a
                        if unequal and a == b:
                            continue
                        mark(&s, G[a] ^ G[b], n)
                # c: the smallest common value that is not an option; the
                # rare values below c that are not options yet are needed.
                c = 0
                while c < s.cap and (is_rare(c, mask) or s.stamp[c] == n):
                    c += 1
                words = (c + 63) >> 6
                need = 0
                for w in range(words):
                    needed[w] = 0
                for v in range(c):
                    if is_rare(v, mask) and s.stamp[v] != n:
                        needed[v >> 6] |= (<uint64_t> 1) << (v & 63)
                        need += 1
                # Look for them among all splits, in blocks with a branch-free
                # inner loop (a bitset of the values seen), stopping once all
                # are seen.
                if need > 0:
                    for w in range(s.cap >> 6 if s.cap >= 64 else 1):
                        seen[w] = 0
                    i = 0
                    while need > 0 and i < take2.shape[0]:
                        m = n - take2[i]
                        top = (m - 1) // 2 if unequal else m // 2
                        a = 1
                        while need > 0 and a <= top:
                            block_end = a + 256 if a + 256 <= top + 1 else top + 1
                            while a < block_end:
                                v = G[a] ^ G[m - a]
                                seen[v >> 6] |= (<uint64_t> 1) << (v & 63)
                                a += 1
                            need = 0
                            for w in range(words):
                                if needed[w] & ~seen[w]:
                                    need = 1
                                    break
                        i += 1
                if need > 0:
                    # The smallest value that is not an option: rare, below c.
                    g = 0
                    while s.stamp[g] == n or ((seen[g >> 6] >> (g & 63)) & 1):
                        g += 1
                else:
                    g = c
            G[n] = g
            if is_rare(g, mask):
                if rare_push(&rare, &n_rare, &rare_cap, n) != 0:
                    status = -1
                    break
            if g > vmax:
                vmax = g
                status = scratch_fit(&s, vmax)
                if status == 0:
                    status = bitsets_fit(&needed, &seen, s.cap if s.cap >= 64 else 64)
            n += 1
            work += 1 + cost_rare + (cost_plain if need > 0 else 0)
            if work > CHECK_WORK:
                work = 0
                if status == 0 and interrupted():
                    status = STOPPED
    free(s.stamp)
    free(rare)
    free(needed)
    free(seen)
    _finish_extend(status, n, "its work arrays")
    return plain


def find_period(const uint32_t[::1] G, int64_t heaps, int64_t t, int64_t extra_p):
    """Smallest proved period of G[0:len(G)], as (preperiod, period, proved_at).

    For each p the preperiod e is the smallest e with G[n + p] == G[n] for all
    e <= n < len(G) - p; p is proved when that holds over the range the
    periodicity theorem asks for: e <= n < heaps*e + (heaps-1+extra_p)*p + t
    (``heaps``: most heaps a move leaves, at least 1; ``extra_p`` 1 for
    games whose splits must be unequal, else 0).  Returns None if no p is
    proved with the values given.
    """
    cdef int64_t N = G.shape[0], p, n, e, end
    if heaps < 1 or heaps > 3 or t < 0 or extra_p < 0 or extra_p > 1:
        raise ValueError("1 <= heaps <= 3, t >= 0 and 0 <= extra_p <= 1 are required")
    if t >= N:
        # The proof needs values past n = t: none yet (and no overflow below).
        return None
    cdef bint stopped = False
    with nogil:
        for p in range(1, N):
            if (p & 63) == 0 and interrupted():
                stopped = True
                break
            # Scan down from the top for the last mismatch.
            n = N - p - 1
            while n >= 0 and G[n + p] == G[n]:
                n -= 1
            e = n + 1
            end = heaps * e + (heaps - 1 + extra_p) * p + t     # check e <= n < end
            if end < e + 1:
                end = e + 1
            if end - 1 + p <= N - 1:
                break
        else:
            p = 0
    if stopped:
        raise_interrupt()
    if p == 0:
        return None
    return (e, p, end - 1 + p)
