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

Threads (``threads`` > 1; OpenMP starts them, where the module was built
with it).  G(n) needs G(0..n-1), but only a few of its options involve the
newest values, so the threads work on consecutive values at once, each
value in its own scratch.  A thread takes the next n (an atomic counter),
reads K, how many values are final (G[0:K]), and does the bulk of the work
of n with them: every option whose heaps are all below K (the rare splits,
the sparse scan, or the plain scan).  Once G[0:n] are final it adds the
options with a heap of K or more (heaps n - 1 down to K paired with heaps
of at most n - K: n - K < SLOTS * threads), goes on with the sparse scan
if those raised c, and publishes G(n): the value, then the count, with
release/acquire atomics.  A thread holds up to SLOTS values, so while its
first waits for another thread's it does the bulk of the next one.  The
mex of one option set is the same whatever the order its members were
found in, so the values are those of the serial kernels for every number
of threads.  Values cheaper than THREAD_WORK inner steps (small n) are
computed serially first: there the hand-over would cost more than the
work.  Only the calling thread (OpenMP's thread 0) looks for Ctrl-C, and
sets the stop flag the others watch.

When cores are short (other work, or more threads than cores), a thread
off its core holds up every other.  So a thread that waits too long for a
value computes it too (whichever finishes first publishes it, by a
compare-and-set), and once a thread spends half of its time waiting,
the threads but thread 0 stop for the rest of the call, which then runs at
the serial kernel's speed.

Besides G[0:start], a call needs their largest value (the size of its
scratch) and, for the sparse method, the positions of the rare ones.  An
``ExtendState`` given to every call on one G keeps both from call to call
(for the values G[0:n] the calls finished: final values, which never
change; the buffer holding them may be replaced between calls, as it is
passed each time and no pointer to it is kept), so a call reads only the
values added since the last one.  Rebuilt on every call, they cost two
serial passes over G[0:start] a call: at 6*10^7 values (from a values
file, in calls of a quarter of a second) that made two threads slower
than one.
"""
import numpy as np

from cython.parallel cimport parallel, threadid
from libc.stdlib cimport malloc, realloc, free

from grundy._core._typedefs cimport int64_t, uint32_t, uint64_t, grundy_popcount32
from grundy._core._interrupt cimport interrupted, raise_interrupt
from grundy._core.status cimport check_threads

cdef enum:
    CHECK_WORK = 1 << 24     # inner steps between looks for Ctrl-C (~10 ms)
    STOPPED = -2             # status: interrupted
    THREAD_WORK = 1024       # inner steps per value from which threads pay
    SCAN_BLOCK = 256         # splits scanned between checks of the needed values
    SEG0 = 1024              # the shared rare list: segment s holds SEG0 << s
    SEGMENTS = 48            # positions, and segments never move
    SPINS = 256              # a waiting thread spins this often, then yields
    SLOTS = 3                # values a thread holds at once


cdef double HELP_AFTER = 100e-6     # s: a wait this long computes the late value too
cdef double CHECK_WAIT = 5e-3       # s: thread 0 looks for Ctrl-C this often in a wait
cdef double CROWD_WINDOW = 20e-3    # s: a thread that waited more than CROWD_WAITING
cdef double CROWD_WAITING = 0.5     # of such a window retires the threads but 0

# Atomics (acquire loads, release stores, compare-and-set), a spin pause, a
# yield and a clock for the threads; OpenMP only starts them.
cdef extern from *:
    """
    #if defined(_OPENMP)
    #  include <omp.h>
    #  define OCTAL_OPENMP 1
    #  define octal_now() omp_get_wtime()
    #else
    #  define OCTAL_OPENMP 0
    #  define octal_now() 0.0
    #endif
    #if defined(_MSC_VER)
    #  include <intrin.h>
    #  ifndef WIN32_LEAN_AND_MEAN
    #    define WIN32_LEAN_AND_MEAN
    #  endif
    #  include <windows.h>
    static __inline long long octal_load(long long *p) {
        return _InterlockedCompareExchange64((volatile long long *) p, 0, 0); }
    static __inline void octal_store(long long *p, long long v) {
        _InterlockedExchange64((volatile long long *) p, v); }
    static __inline long long octal_fetch_add(long long *p, long long v) {
        return _InterlockedExchangeAdd64((volatile long long *) p, v); }
    static __inline int octal_cas(long long *p, long long expected, long long desired) {
        return _InterlockedCompareExchange64((volatile long long *) p, desired, expected)
               == expected; }
    #  define octal_pause() YieldProcessor()
    #  define octal_yield() ((void) SwitchToThread())
    #else
    #  include <sched.h>
    #  define octal_load(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
    #  define octal_store(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
    #  define octal_fetch_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_ACQ_REL)
    static inline int octal_cas(int64_t *p, int64_t expected, int64_t desired) {
        return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL,
                                           __ATOMIC_ACQUIRE); }
    #  if defined(__x86_64__) || defined(__i386__)
    #    define octal_pause() __builtin_ia32_pause()
    #  elif defined(__aarch64__)
    #    define octal_pause() __asm__ __volatile__("yield")
    #  else
    #    define octal_pause() ((void) 0)
    #  endif
    #  define octal_yield() ((void) sched_yield())
    #endif
    """
    bint OCTAL_OPENMP
    int64_t octal_load(int64_t* p) noexcept nogil
    void octal_store(int64_t* p, int64_t v) noexcept nogil
    int64_t octal_fetch_add(int64_t* p, int64_t v) noexcept nogil
    bint octal_cas(int64_t* p, int64_t expected, int64_t desired) noexcept nogil
    double octal_now() noexcept nogil
    void octal_pause() noexcept nogil
    void octal_yield() noexcept nogil

#: True if the module was built with OpenMP (else ``threads`` > 1 runs the
#: threaded code on one thread).
OPENMP = bool(OCTAL_OPENMP)


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


def _check(uint32_t[::1] G, int64_t start, int64_t stop, rules, threads):
    if not (0 <= start <= stop <= G.shape[0]):
        raise ValueError(f"need 0 <= start <= stop <= len(G), got {start}, {stop}, {G.shape[0]}")
    for r in rules:
        if len(r) and int(np.min(r)) < 0:
            raise ValueError("move rules must take k >= 0 tokens")
    if len(rules[1]) and int(np.min(rules[1])) < 1:
        # Taking nothing and leaving the one heap is no move (and would make
        # G(n) an option of itself, read before it is computed).
        raise ValueError("take1 rules must take k >= 1 tokens")
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(f"threads must be an integer, got {threads!r}")
    check_threads(threads)


cdef int64_t value_work(int64_t n, const int64_t[::1] take2,
                        const int64_t[::1] take3) noexcept nogil:
    """Inner steps of the plain scan of G(n)'s splits (nondecreasing in n)."""
    cdef int64_t i, m, work = 0
    for i in range(take2.shape[0]):
        m = n - take2[i]
        if m >= 2:
            work += m // 2
    for i in range(take3.shape[0]):
        m = n - take3[i]
        if m >= 3:
            work += m * m // 12 + 1
    return work


cdef int64_t thread_start(int64_t start, int64_t stop, const int64_t[::1] take2,
                          const int64_t[::1] take3, int64_t min_work) noexcept nogil:
    """The first n in [start, stop] whose value costs min_work steps (stop if none)."""
    cdef int64_t lo = start, hi = stop, mid
    while lo < hi:
        mid = lo + (hi - lo) // 2
        if value_work(mid, take2, take3) >= min_work:
            hi = mid
        else:
            lo = mid + 1
    return lo


# -- what the kernels keep between calls ------------------------------------------------

cdef inline bint is_rare(uint32_t v, uint32_t mask) noexcept nogil:
    return (grundy_popcount32(v & mask) & 1) == 0


cdef struct Kept:
    # What is known of G[0:upto] besides the values.  The rare list is that
    # of the threads (the team borrows the segments and hands them back), so
    # it is read and appended to the same way by every kernel.
    int64_t upto            # G[0:upto] are accounted for below
    int64_t vmax            # the largest value in G[0:upto]
    bint rare               # the rare list is kept (for the sparse method) ...
    uint32_t mask           # ... with this mask
    int64_t n_rare          # the rare positions below upto, ascending, in
    int64_t* seg[SEGMENTS]  # segments of SEG0 << s entries that never move


cdef int rare_put(int64_t** seg, int64_t count, int64_t position) noexcept nogil:
    """Store a rare position as entry ``count`` of the segmented list (the
    caller then counts it): 0, or -1 out of memory."""
    cdef int64_t base = 0, size = SEG0
    cdef int s = 0
    while count >= base + size:
        base += size
        size *= 2
        s += 1
    if s >= SEGMENTS:
        return -1
    if seg[s] == NULL:
        seg[s] = <int64_t*> malloc(size * sizeof(int64_t))
        if seg[s] == NULL:
            return -1
    seg[s][count - base] = position
    return 0


cdef int64_t rare_marks(int64_t** seg, int64_t count, const uint32_t* G, bint unequal,
                        int64_t n, int64_t m, int64_t K, int64_t* stamp) noexcept nogil:
    """Mark the splits of m heaps with a rare heap, both heaps below K (the
    first ``count`` positions of the rare list ``seg``), as options of G(n);
    the number of positions looked at."""
    cdef int64_t lim = m if m < K else K, base = 0, size = SEG0, j, end, a, b
    cdef int s = 0
    cdef const int64_t* part
    while base < count:
        part = seg[s]
        end = count - base if count - base < size else size
        for j in range(end):
            a = part[j]
            if a >= lim:
                return base + j
            b = m - a
            if a == 0 or b >= K or (unequal and a == b):
                continue
            stamp[G[a] ^ G[b]] = n
        base += size
        size *= 2
        s += 1
    return count


cdef void kept_clear(Kept* k) noexcept nogil:
    """Forget what k knows (its segments stay, for reuse)."""
    k.upto = 0
    k.vmax = 0
    k.rare = False
    k.mask = 0
    k.n_rare = 0


cdef int kept_sync(Kept* k, const uint32_t* G, int64_t start, bint sparse,
                   uint32_t mask) noexcept nogil:
    """Bring k to G[0:start] (final values) for the sparse method with
    ``mask``, or for the plain scan (``sparse`` False: which keeps no rare
    list).  Only G[k.upto:start] are read, unless k went past start (the
    values from start on are being computed again) or its rare list is not
    for this mask: then from G[0] (once each time the automatic mask is
    chosen again).  0, or -1 out of memory (k is then cleared)."""
    cdef int64_t n, first = k.upto
    cdef uint32_t g
    if first > start:
        kept_clear(k)
        first = 0
    if not sparse:
        k.rare = False
        k.n_rare = 0
    elif not k.rare or k.mask != mask:
        k.rare = True
        k.mask = mask
        k.n_rare = 0
        first = 0
    for n in range(first, start):
        g = G[n]
        if g > k.vmax:
            k.vmax = g
        if sparse and is_rare(g, mask):
            if rare_put(k.seg, k.n_rare, n) != 0:
                kept_clear(k)
                return -1
            k.n_rare += 1
    k.upto = start
    return 0


cdef class ExtendState:
    """What ``plain_extend`` and ``sparse_extend`` keep between calls that
    extend one G: the largest value of G[0:n] and the positions of its rare
    values under the last mask, for the n values the last call finished.

    Pass the same state to every call on one G, each with the G of the
    moment (a bigger copy, or a memory map, is fine: only values that are
    final are kept track of, never the buffer), and a call reads only the
    values added since the last call; it reads G from 0 when the mask
    changes, or when the call starts below where the last one stopped.  A
    state is for one game's values (one G).  It can be copied and pickled,
    as an empty state.
    """
    cdef Kept k
    cdef bint busy

    def __cinit__(self):
        cdef int s
        kept_clear(&self.k)
        for s in range(SEGMENTS):
            self.k.seg[s] = NULL
        self.busy = False

    def __dealloc__(self):
        cdef int s
        for s in range(SEGMENTS):
            free(self.k.seg[s])

    def __reduce__(self):
        return (ExtendState, ())

    @property
    def upto(self):
        """G[0:upto] are accounted for."""
        return self.k.upto

    @property
    def rare_count(self):
        """How many rare positions are kept (0 when no list is kept)."""
        return self.k.n_rare

    @property
    def mask(self):
        """The mask the rare list is for, or None when no list is kept."""
        return self.k.mask if self.k.rare else None

    def __repr__(self):
        mask = "None" if not self.k.rare else f"{self.k.mask:#x}"
        return (f"ExtendState(upto={self.k.upto}, vmax={self.k.vmax}, mask={mask}, "
                f"rare_count={self.k.n_rare})")


cdef ExtendState claimed(ExtendState state):
    """The state for a call, marked in use (a new one if None): two calls at
    once on one state would corrupt it.  The call sets ``busy`` back."""
    if state is None:
        state = ExtendState()
    elif state.busy:
        raise ValueError("this ExtendState is in use by another call")
    state.busy = True
    return state


# -- the serial kernels -----------------------------------------------------------

cdef int plain_serial(uint32_t* G, int64_t start, int64_t stop,
                      const int64_t[::1] take0, const int64_t[::1] take1,
                      const int64_t[::1] take2, const int64_t[::1] take3,
                      bint unequal, Kept* kept, int64_t* reached) noexcept nogil:
    """G[start:stop] by the plain scan, on one thread (``kept`` at start, and
    brought along); the status (0, -1: out of memory, STOPPED), and in
    ``reached`` how far it got."""
    cdef Scratch s
    cdef int64_t n = start, work = 0
    cdef uint32_t g, vmax = <uint32_t> kept.vmax
    cdef int status = 0
    s.stamp = NULL
    s.cap = 0
    status = scratch_fit(&s, vmax)
    while status == 0 and n < stop:
        plain_options(G, n, take0, take1, take2, take3, unequal, &s)
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
    kept.upto = n
    kept.vmax = vmax
    reached[0] = n
    return status


cdef inline int scan_block(const uint32_t* G, int64_t m, int64_t a, int64_t block_end,
                           uint64_t* seen, const uint64_t* needed,
                           int64_t words) noexcept nogil:
    """The splits (a, m - a) of heap m for a in a..block_end-1 into the bitset
    ``seen`` (branch-free); 1 if a value of ``needed`` is still unseen."""
    cdef uint32_t v
    while a < block_end:
        v = G[a] ^ G[m - a]
        seen[v >> 6] |= (<uint64_t> 1) << (v & 63)
        a += 1
    for a in range(words):
        if needed[a] & ~seen[a]:
            return 1
    return 0


cdef int scan_splits(const uint32_t* G, const int64_t* take2, int64_t n2, bint unequal,
                     int64_t n, int64_t* pos, uint64_t* seen, const uint64_t* needed,
                     int64_t words, int64_t* work) noexcept nogil:
    """Look for the values of ``needed`` (bitset) that are not in ``seen``
    among the splits of heap n, going on from a = pos[i] for rule i: a block
    of each rule's splits in turn (a needed value the first rule never
    makes is then found as soon as another rule makes it), into ``seen``,
    until all are seen.  0 once all are seen, 1 if some are missing when
    every split was scanned."""
    cdef int64_t i, m, a, top, block_end, w
    cdef int missing = 0, more = 1
    for w in range(words):
        if needed[w] & ~seen[w]:
            missing = 1
            break
    while missing and more:
        more = 0
        for i in range(n2):
            m = n - take2[i]
            top = (m - 1) // 2 if unequal else m // 2
            a = pos[i]
            if a > top:
                continue
            block_end = a + SCAN_BLOCK if a + SCAN_BLOCK <= top + 1 else top + 1
            work[0] += block_end - a
            missing = scan_block(G, m, a, block_end, seen, needed, words)
            pos[i] = block_end
            more = 1
            if not missing:
                break
    return missing


cdef int sparse_serial(uint32_t* G, int64_t start, int64_t stop,
                       const int64_t[::1] take0, const int64_t[::1] take1,
                       const int64_t[::1] take2, const int64_t[::1] no_take3,
                       bint unequal, uint32_t mask, Kept* kept, int64_t* reached,
                       int64_t* plain_count) noexcept nogil:
    """G[start:stop] by the sparse-space method, on one thread (``kept`` at
    start for this mask, and brought along); the status, how far it got
    (``reached``) and how many values fell back to the plain scan."""
    cdef Scratch s
    cdef int64_t n, i, k, m, need = 0, plain = 0
    cdef int64_t cost_rare, cost_plain, work = 0
    cdef uint32_t g, v, c, vmax = <uint32_t> kept.vmax
    cdef int status = 0
    cdef int64_t w, words, scanned = 0
    # Where each rule's scan of the splits has got to.
    cdef int64_t* pos = <int64_t*> malloc(take2.shape[0] * sizeof(int64_t) + 8)
    # Bitsets over the values (the scratch's capacity, grown with it).
    cdef uint64_t* needed = NULL
    cdef uint64_t* seen = NULL
    reached[0] = start
    plain_count[0] = 0
    if pos == NULL:
        return -1
    s.stamp = NULL
    s.cap = 0
    status = scratch_fit(&s, vmax)
    if status == 0:
        status = bitsets_fit(&needed, &seen, s.cap if s.cap >= 64 else 64)
    n = start
    while status == 0 and n < stop:
        # Plain scan when enumerating the rare splits costs more.
        cost_rare = 0
        cost_plain = 0
        for i in range(take2.shape[0]):
            m = n - take2[i]
            if m >= 2:
                cost_plain += m // 2
                cost_rare += kept.n_rare
        need = 0
        scanned = 0
        if 2 * cost_rare >= cost_plain:
            plain_options(G, n, take0, take1, take2, no_take3, unequal, &s)
            g = mex(&s, n)
            plain += 1
            scanned = cost_plain
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
                if m >= 2:
                    rare_marks(kept.seg, kept.n_rare, G, unequal, n, m, n, s.stamp)
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
                for i in range(take2.shape[0]):
                    pos[i] = 1
                need = scan_splits(G, &take2[0], take2.shape[0], unequal, n, pos, seen,
                                   needed, words, &scanned)
            if need > 0:
                # The smallest value that is not an option: rare, below c.
                g = 0
                while s.stamp[g] == n or ((seen[g >> 6] >> (g & 63)) & 1):
                    g += 1
            else:
                g = c
        G[n] = g
        if is_rare(g, mask):
            if rare_put(kept.seg, kept.n_rare, n) != 0:
                status = -1
                break
            kept.n_rare += 1
        if g > vmax:
            vmax = g
            status = scratch_fit(&s, vmax)
            if status == 0:
                status = bitsets_fit(&needed, &seen, s.cap if s.cap >= 64 else 64)
        n += 1
        work += 1 + cost_rare + scanned
        if work > CHECK_WORK:
            work = 0
            if status == 0 and interrupted():
                status = STOPPED
    free(s.stamp)
    free(pos)
    free(needed)
    free(seen)
    kept.upto = n
    kept.vmax = vmax
    reached[0] = n
    plain_count[0] = plain
    return status


# -- the threaded kernels ------------------------------------------------------------

cdef struct Rules:
    const int64_t* take0
    const int64_t* take1
    const int64_t* take2
    const int64_t* take3
    int64_t n0, n1, n2, n3
    bint unequal
    uint32_t mask


cdef struct Team:
    # What the threads share.  The int64 fields after the rules are read and
    # written with the octal_* atomics only; G[n], the rare list's entries,
    # vmax and plain are written by the one thread that wins ``writer`` for n
    # once known == n, before it raises known to n + 1.  The groups written
    # at different times are in different cache lines (the _pad fields), and
    # apart from the rules that every inner loop reads.
    uint32_t* G
    int64_t stop
    Rules r
    bint sparse             # the sparse-space method (else the plain scan)
    int64_t* seg[SEGMENTS]  # the rare positions below known, ascending, in
                            # segments of SEG0 << s entries that never move
                            # (the call's Kept list, borrowed)
    char _pad0[64]
    int64_t next            # the next n to take
    char _pad1[64]
    int64_t known           # G[0:known] are final
    int64_t writer          # the last n whose publication started
    int64_t vmax            # the largest value in G[0:known]
    int64_t n_rare          # how many rare positions the list holds
    int64_t plain           # values that fell back to the plain scan
    char _pad2[64]
    int64_t status          # 0, -1 (out of memory) or STOPPED: every thread stops
    int64_t crowded         # 1: the threads but thread 0 stop taking values
    char _pad3[64]


cdef struct Local:
    # One thread's scratch for one value: stamp[v] == n marks v as an option
    # of G(n); the sparse scan's bitsets; where the scan of each take2 rule
    # goes on.
    int64_t* stamp
    uint64_t* needed
    uint64_t* seen
    int64_t* pos
    int64_t cap             # values below cap (a power of two >= 64)
    int64_t work            # inner steps done (thread 0: for the Ctrl-C checks)


cdef void local_init(Local* L) noexcept nogil:
    L.stamp = NULL
    L.needed = NULL
    L.seen = NULL
    L.pos = NULL
    L.cap = 0
    L.work = 0


cdef void local_free(Local* L) noexcept nogil:
    free(L.stamp)
    free(L.needed)
    free(L.seen)
    free(L.pos)
    local_init(L)


cdef int local_fit(Local* L, int64_t vmax, int64_t rules) noexcept nogil:
    """Make the scratch cover every xor of values <= vmax (contents kept) and
    ``rules`` take2 rules."""
    cdef int64_t need = 2, i
    cdef void* p
    if L.pos == NULL:
        L.pos = <int64_t*> malloc((rules + 1) * sizeof(int64_t))
        if L.pos == NULL:
            return -1
    while need <= vmax:
        need *= 2
    need *= 2                      # xors stay below the next power of two
    if need < 64:
        need = 64
    if need <= L.cap:
        return 0
    p = realloc(L.stamp, need * sizeof(int64_t))
    if p == NULL:
        return -1
    L.stamp = <int64_t*> p
    p = realloc(L.needed, (need >> 6) * sizeof(uint64_t))
    if p == NULL:
        return -1
    L.needed = <uint64_t*> p
    p = realloc(L.seen, (need >> 6) * sizeof(uint64_t))
    if p == NULL:
        return -1
    L.seen = <uint64_t*> p
    for i in range(L.cap, need):
        L.stamp[i] = -1
    for i in range(L.cap >> 6, need >> 6):
        L.needed[i] = 0
        L.seen[i] = 0
    L.cap = need
    return 0


cdef inline uint32_t local_mex(Local* L, int64_t n) noexcept nogil:
    cdef uint32_t v = 0
    while v < L.cap and L.stamp[v] == n:
        v += 1
    return v


cdef void split_marks(const uint32_t* G, const Rules* r, int64_t n, int64_t K,
                      bint late, Local* L) noexcept nogil:
    """Mark the options of G(n) (all of them, as plain_options) whose heaps are
    all below K (``late`` False), or those with a heap K or above (True)."""
    cdef int64_t i, k, m, a, b, lo, hi, top
    cdef int64_t* stamp = L.stamp
    if not late:
        for i in range(r.n0):
            if n == r.take0[i]:
                stamp[0] = n
    for i in range(r.n1):
        k = r.take1[i]
        if n > k and (n - k >= K) == late:
            stamp[G[n - k]] = n
    for i in range(r.n2):
        # Heaps a <= m - a: late when m - a >= K, that is a <= m - K.
        m = n - r.take2[i]
        top = m // 2
        if late:
            lo = 1
            hi = min(top, m - K)
        else:
            lo = max(1, m - K + 1)
            hi = top
        L.work += hi - lo + 1 if hi >= lo else 0
        for a in range(lo, hi + 1):
            if r.unequal and 2 * a == m:
                continue
            stamp[G[a] ^ G[m - a]] = n
    for i in range(r.n3):
        # Heaps a <= b <= m - a - b: late when m - a - b >= K.
        m = n - r.take3[i]
        top = m // 3
        if late:
            top = min(top, (m - K) // 2)
        for a in range(1, top + 1):
            if late:
                lo = a
                hi = min((m - a) // 2, m - a - K)
            else:
                lo = max(a, m - a - K + 1)
                hi = (m - a) // 2
            L.work += hi - lo + 1 if hi >= lo else 0
            for b in range(lo, hi + 1):
                stamp[G[a] ^ G[b] ^ G[m - a - b]] = n


cdef inline uint32_t common_mex(Local* L, int64_t n, uint32_t mask) noexcept nogil:
    """c: the smallest common value that is not marked."""
    cdef uint32_t c = 0
    while c < L.cap and (is_rare(c, mask) or L.stamp[c] == n):
        c += 1
    return c


cdef int sparse_scan(const uint32_t* G, const Rules* r, int64_t n, uint32_t c,
                     Local* L) noexcept nogil:
    """Look for the rare values below c that are not marked among the splits,
    going on from L.pos: 0 once all are seen, 1 if some are missing when
    every split was scanned."""
    cdef int64_t words = (c + 63) >> 6, w
    cdef uint32_t v, mask = r.mask
    cdef uint64_t* needed = L.needed
    for w in range(words):
        needed[w] = 0
    for v in range(c):
        if is_rare(v, mask) and L.stamp[v] != n:
            needed[v >> 6] |= (<uint64_t> 1) << (v & 63)
    return scan_splits(G, r.take2, r.n2, r.unequal, n, L.pos, L.seen, needed, words,
                       &L.work)


cdef void sparse_bulk(Team* t, int64_t n, int64_t K, int64_t count, Local* L) noexcept nogil:
    """The sparse method's options with every heap below K: take0, take1, the
    rare splits; then the scan for the rare values needed (from the heaps
    m - K + 1 on: the splits whose heaps are all below K)."""
    cdef const Rules* r = &t.r
    cdef int64_t i, k, m, w
    for i in range(r.n0):
        if n == r.take0[i]:
            L.stamp[0] = n
    for i in range(r.n1):
        k = r.take1[i]
        if n > k and n - k < K:
            L.stamp[t.G[n - k]] = n
    for i in range(r.n2):
        m = n - r.take2[i]
        if m >= 2:
            L.work += rare_marks(t.seg, count, t.G, r.unequal, n, m, K, L.stamp)
        L.pos[i] = m - K + 1 if m - K + 1 > 1 else 1
    for w in range(L.cap >> 6):
        L.seen[w] = 0


cdef bint sparse_late(Team* t, int64_t n, int64_t K, uint32_t c, Local* L) noexcept nogil:
    """The sparse method's options with a heap K or above (G[0:n] known): take1
    moves, and the splits with a heap K or above, into the marks when a
    heap is rare and into the values seen in every case.  True if one of
    them is c."""
    cdef const Rules* r = &t.r
    cdef const uint32_t* G = t.G
    cdef uint32_t mask = r.mask, v
    cdef int64_t i, k, m, x, y, hi
    cdef bint hit = False
    for i in range(r.n1):
        k = r.take1[i]
        if n > k and n - k >= K:
            L.stamp[G[n - k]] = n
            hit |= G[n - k] == c
    for i in range(r.n2):
        m = n - r.take2[i]
        hi = m // 2 if m // 2 < m - K else m - K
        for x in range(1, hi + 1):
            y = m - x
            if r.unequal and x == y:
                continue
            v = G[x] ^ G[y]
            L.seen[v >> 6] |= (<uint64_t> 1) << (v & 63)
            if is_rare(G[x], mask) or is_rare(G[y], mask):
                L.stamp[v] = n
                hit |= v == c
    return hit


cdef struct Slot:
    # One value on its way: its scratch, and what the bulk left for the rest.
    Local L
    int64_t n               # the value G(n)
    int64_t K               # G[0:K] were known for the bulk
    bint plain              # by the plain scan (else the sparse method)
    int missing             # sparse: the scan ended with needed values unseen
    uint32_t c              # sparse: the bulk's c; plain: the bulk's mex
    double bulk             # seconds the bulk took


cdef int bulk_of(Team* t, Slot* S, int64_t n) noexcept nogil:
    """The bulk of G(n) in S: every option whose heaps are all below K, the
    values known now (K == n: all of them).  0, or -1 out of memory."""
    cdef const Rules* r = &t.r
    cdef Local* L = &S.L
    cdef int64_t K, i, m, count = 0, cost_rare = 0, cost_plain = 0
    cdef double began = octal_now()
    K = octal_load(&t.known)
    S.n = n
    S.K = K if K < n else n
    S.plain = not t.sparse
    S.missing = 0
    if local_fit(L, octal_load(&t.vmax), r.n2) != 0:
        octal_store(&t.status, -1)
        return -1
    if t.sparse:
        # The plain scan when enumerating the rare splits costs more.
        count = octal_load(&t.n_rare)
        for i in range(r.n2):
            m = n - r.take2[i]
            if m >= 2:
                cost_plain += m // 2
                cost_rare += count
        S.plain = 2 * cost_rare >= cost_plain
    if S.plain:
        split_marks(t.G, r, n, S.K, False, L)
        S.c = local_mex(L, n)
    else:
        sparse_bulk(t, n, S.K, count, L)
        S.c = common_mex(L, n, r.mask)
        S.missing = sparse_scan(t.G, r, n, S.c, L)
    S.bulk = octal_now() - began
    return 0


cdef int finish_of(Team* t, Slot* S, uint32_t* out) noexcept nogil:
    """G(n) into out once G[0:n] are known: the options with a heap K or
    above added to the bulk's.  The late options only add marks, so the mex
    (plain scan) and c (sparse) go on from where the bulk left them; and
    when no late mark is the bulk's c and its scan found the rare values
    needed, G(n) is that c.

    Returns 0 (the sparse method), 1 (the plain scan), 2 (another thread
    published G(n) already), or -1 out of memory (t.status set).
    """
    cdef const Rules* r = &t.r
    cdef Local* L = &S.L
    cdef int64_t n = S.n
    cdef uint32_t mask = r.mask, g = S.c, c = S.c
    cdef int missing = S.missing
    if octal_load(&t.known) > n:
        return 2
    if S.K < n:
        if local_fit(L, octal_load(&t.vmax), r.n2) != 0:
            octal_store(&t.status, -1)
            return -1
        if S.plain:
            split_marks(t.G, r, n, S.K, True, L)
            while g < L.cap and L.stamp[g] == n:
                g += 1
        elif sparse_late(t, n, S.K, c, L) or missing:
            while c < L.cap and (is_rare(c, mask) or L.stamp[c] == n):
                c += 1
            missing = sparse_scan(t.G, r, n, c, L)
    if S.plain:
        out[0] = g
        return 1
    if missing:
        # Every split was scanned: the smallest value that is not an option.
        g = 0
        while g < L.cap and (L.stamp[g] == n or ((L.seen[g >> 6] >> (g & 63)) & 1)):
            g += 1
    else:
        g = c
    out[0] = g
    return 0


cdef int publish(Team* t, int64_t n, uint32_t g, int kind) noexcept nogil:
    """Make G[n] = g final once G[0:n] are (by one thread: the first to get
    ``writer``; the others' G(n) is the same and is dropped).  0, or -1 out
    of memory (t.status set)."""
    if octal_load(&t.known) != n or not octal_cas(&t.writer, n - 1, n):
        return 0
    t.G[n] = g
    if t.sparse and is_rare(g, t.r.mask):
        if rare_put(t.seg, octal_load(&t.n_rare), n) != 0:
            octal_store(&t.status, -1)
            return -1
        octal_fetch_add(&t.n_rare, 1)
    if kind == 1 and t.sparse:
        octal_fetch_add(&t.plain, 1)
    if g > octal_load(&t.vmax):
        octal_store(&t.vmax, g)
    octal_store(&t.known, n + 1)
    return 0


cdef int wait_known(Team* t, int64_t n, int tid, Slot* H, double bulk,
                    double* waited) noexcept nogil:
    """Wait until G[0:n] are final: 0, or -1 if the run stops meanwhile.

    Spins, then yields.  When the wait outlasts HELP_AFTER seconds plus four
    times the bulk of G(n) (``bulk`` s), the thread holding the first value
    not known is taken to be off its core (more threads than free cores):
    this thread computes that value too (in H), and the first to finish
    publishes it, so the run never waits for a descheduled thread.  The time
    spent here is added to ``waited``.  Thread 0 looks for Ctrl-C every
    CHECK_WAIT seconds meanwhile.
    """
    cdef int64_t spins = 0, first
    cdef double began = octal_now(), now
    cdef double patience = HELP_AFTER + 4 * bulk, check = began + CHECK_WAIT
    cdef uint32_t g
    cdef int kind
    while True:
        first = octal_load(&t.known)
        if first >= n:
            waited[0] += octal_now() - began
            return 0
        if octal_load(&t.status) != 0:
            return -1
        spins += 1
        if spins < SPINS:
            octal_pause()
            continue
        octal_yield()
        if spins & 15:
            continue
        now = octal_now()
        if tid == 0 and now >= check:
            check = now + CHECK_WAIT
            if interrupted():
                octal_store(&t.status, STOPPED)
                return -1
        if now - began > patience:
            if bulk_of(t, H, first) != 0:
                return -1
            kind = finish_of(t, H, &g)
            if kind < 0 or (kind < 2 and publish(t, first, g, kind) != 0):
                return -1


cdef void worker(Team* t, int tid) noexcept nogil:
    """One thread: takes values in turn and computes them until stop.

    A thread holds up to SLOTS values at once: when the first of them waits
    for values other threads hold, it does the bulk of another (so a thread
    that runs faster, or a value that costs less, does not wait), and it
    finishes and publishes its values in order as they become computable.

    A thread that spent more than CROWD_WAITING of CROWD_WINDOW seconds
    waiting for the others marks the team crowded (its threads share cores
    with each other or with other work: the hand-overs cost more than the
    threads give), and the threads but 0 stop taking values; the next call
    of the kernel starts them again.
    """
    cdef Slot slots[SLOTS]
    cdef Slot H
    cdef Slot* S
    cdef int64_t n, head = 0, held = 0, i, work
    cdef uint32_t g
    cdef int kind
    cdef bint taking = True, failed = False
    cdef double window = octal_now(), waited = 0, now
    for i in range(SLOTS):
        local_init(&slots[i].L)
    local_init(&H.L)
    while octal_load(&t.status) == 0:
        # Finish and publish the values held, in order, while they can be.
        while held > 0 and octal_load(&t.known) >= slots[head].n:
            S = &slots[head]
            kind = finish_of(t, S, &g)
            if kind < 0 or (kind < 2 and publish(t, S.n, g, kind) != 0):
                failed = True
                break
            head = (head + 1) % SLOTS
            held -= 1
        if failed:
            break
        if tid == 0:
            work = H.L.work
            for i in range(SLOTS):
                work += slots[i].L.work
            if work > CHECK_WORK:
                for i in range(SLOTS):
                    slots[i].L.work = 0
                H.L.work = 0
                if interrupted():
                    octal_store(&t.status, STOPPED)
                    break
        now = octal_now()
        if now - window > CROWD_WINDOW:
            if waited > CROWD_WAITING * (now - window):
                octal_store(&t.crowded, 1)
            window = now
            waited = 0
        if tid != 0 and octal_load(&t.crowded):
            taking = False
        # Then take another value while a slot is free.
        if taking and held < SLOTS:
            n = octal_fetch_add(&t.next, 1)
            if n < t.stop:
                S = &slots[(head + held) % SLOTS]
                if bulk_of(t, S, n) != 0:
                    break
                held += 1
                continue
            taking = False
        if held == 0:
            break
        # Every slot waits: wait for the first.
        if wait_known(t, slots[head].n, tid, &H, slots[head].bulk, &waited) != 0:
            break
    for i in range(SLOTS):
        local_free(&slots[i].L)
    local_free(&H.L)


cdef void run_team(Team* t, int threads) noexcept nogil:
    """Compute G[known:stop] on a team of ``threads`` threads (or fewer, as
    OpenMP gives them: any number works)."""
    cdef int tid = 0
    with parallel(num_threads=threads):
        tid = threadid()
        worker(t, tid)


cdef Team* team_new(uint32_t[::1] G, int64_t start, int64_t stop,
                    const int64_t[::1] take0, const int64_t[::1] take1,
                    const int64_t[::1] take2, const int64_t[::1] take3,
                    bint unequal, uint32_t mask, bint sparse, Kept* kept) except NULL:
    """A team's shared state for G[start:stop] (``kept`` at start: its rare
    list, for ``sparse``, is lent to the team until team_extend)."""
    cdef Team* t = <Team*> malloc(sizeof(Team))
    cdef int s
    if t == NULL:
        raise MemoryError("octal kernel: out of memory for the threads")
    t.G = &G[0]
    t.stop = stop
    t.r.take0 = &take0[0] if take0.shape[0] else NULL
    t.r.take1 = &take1[0] if take1.shape[0] else NULL
    t.r.take2 = &take2[0] if take2.shape[0] else NULL
    t.r.take3 = &take3[0] if take3.shape[0] else NULL
    t.r.n0 = take0.shape[0]
    t.r.n1 = take1.shape[0]
    t.r.n2 = take2.shape[0]
    t.r.n3 = take3.shape[0]
    t.r.unequal = unequal
    t.r.mask = mask
    t.sparse = sparse
    t.next = start
    t.known = start
    t.writer = start - 1
    t.vmax = kept.vmax
    t.status = 0
    t.crowded = 0
    t.plain = 0
    t.n_rare = kept.n_rare if sparse else 0
    for s in range(SEGMENTS):
        t.seg[s] = kept.seg[s]
    return t


cdef int team_extend(Team* t, int nthreads, Kept* kept, int64_t* reached,
                     int64_t* plain) noexcept:
    """Run the team of ``t`` to its end, then free it, its rare list (grown)
    and largest value handed back to ``kept``, which then covers the values
    it finished however the run stopped: its status, how far it got into
    ``reached``, its plain-scan fallbacks added to ``plain``."""
    cdef int s
    with nogil:
        run_team(t, nthreads)
    reached[0] = t.known
    plain[0] += t.plain
    cdef int status = <int> t.status
    for s in range(SEGMENTS):
        kept.seg[s] = t.seg[s]
    if t.sparse:
        kept.n_rare = t.n_rare
    kept.upto = t.known
    kept.vmax = t.vmax
    free(t)
    return status


def plain_extend(uint32_t[::1] G, int64_t start, int64_t stop,
                 const int64_t[::1] take0, const int64_t[::1] take1,
                 const int64_t[::1] take2, const int64_t[::1] take3,
                 bint unequal=False, threads=1, int64_t thread_work=THREAD_WORK, *,
                 ExtendState state=None):
    """Compute G[start:stop] by the plain scan (G[:start] must be filled).

    ``threads`` > 1 computes the values whose plain scan costs at least
    ``thread_work`` inner steps on that many threads (the cheaper ones
    first, serially), with identical values; on the calling thread alone
    where the module has no OpenMP (see ``OPENMP``).  ``state``: the
    ExtendState of this G, given to every call on it (else the largest
    value of G[:start] is looked for in all of them).  Returns how far it
    got: ``stop``.  On Ctrl-C it raises KeyboardInterrupt with the attribute
    ``reached``: G[start:reached] are computed.
    """
    _check(G, start, stop, (take0, take1, take2, take3), threads)
    if start == stop:
        return stop
    cdef int nthreads = threads
    cdef int64_t n = start, first = stop, plain = 0
    cdef int status = 0
    state = claimed(state)
    cdef Kept* kept = &state.k
    try:
        with nogil:
            status = kept_sync(kept, &G[0], start, False, 0)
            if status == 0 and nthreads > 1:
                first = thread_start(start, stop, take2, take3, thread_work)
            if status == 0 and first > start:
                status = plain_serial(&G[0], start, first, take0, take1, take2, take3,
                                      unequal, kept, &n)
        if status == 0 and n < stop:
            status = team_extend(team_new(G, n, stop, take0, take1, take2, take3, unequal,
                                          0, False, kept), nthreads, kept, &n, &plain)
    finally:
        state.busy = False
    return _finish_extend(status, n, "the scratch array")


def sparse_extend(uint32_t[::1] G, int64_t start, int64_t stop,
                  const int64_t[::1] take0, const int64_t[::1] take1,
                  const int64_t[::1] take2, bint unequal, uint32_t mask, threads=1,
                  int64_t thread_work=THREAD_WORK, *, ExtendState state=None):
    """Compute G[start:stop] by the sparse-space method with ``mask``.

    Returns how many values fell back to the plain scan (with threads this
    count may vary a little from run to run: a thread decides from the rare
    positions known when it starts on a value; the values never vary).
    For games without three-heap moves (take3 is not supported here).
    ``threads``, ``thread_work`` and ``state`` as for plain_extend (without
    a state, the rare positions of G[:start] are looked for in all of
    them).  On Ctrl-C it raises KeyboardInterrupt with the attribute
    ``reached``: G[start:reached] are computed.
    """
    _check(G, start, stop, (take0, take1, take2), threads)
    if start == stop:
        return 0
    cdef const int64_t[::1] no_take3 = np.zeros(0, dtype=np.int64)
    cdef int nthreads = threads
    cdef int64_t n = start, first = stop, plain = 0
    cdef int status = 0
    state = claimed(state)
    cdef Kept* kept = &state.k
    try:
        with nogil:
            status = kept_sync(kept, &G[0], start, True, mask)
            if status == 0 and nthreads > 1:
                first = thread_start(start, stop, take2, no_take3, thread_work)
            if status == 0 and first > start:
                status = sparse_serial(&G[0], start, first, take0, take1, take2, no_take3,
                                       unequal, mask, kept, &n, &plain)
        if status == 0 and n < stop:
            status = team_extend(team_new(G, n, stop, take0, take1, take2, no_take3,
                                          unequal, mask, True, kept), nthreads, kept, &n,
                                 &plain)
    finally:
        state.busy = False
    _finish_extend(status, n, "its work arrays")
    return plain


def find_period(const uint32_t[::1] G, int64_t heaps, int64_t t, int64_t extra_p):
    """The period of G[0:len(G)] that the periodicity theorem proves with the
    fewest values, as (preperiod, period, values_needed), or None.

    For each p the preperiod e is the smallest e with G[n + p] == G[n] for
    all e <= n < N - p (N = len(G)); p is proved when that holds over the
    range the periodicity theorem asks for, e <= n < end with end =
    max(heaps*e + (heaps-1+extra_p)*p + t, e + 1) (``heaps``: most heaps a
    move leaves, 1..3; ``extra_p`` 1 for games whose splits must be
    unequal, else 0), that is when values_needed = end + p <= N.  The
    smallest proved p is returned (then values_needed <= N: proved_at is
    values_needed - 1); when none is proved, the candidate that needs the
    fewest values (values_needed > N, and more values may break it).  None
    when no p is short enough to be proved by N values.

    Linear in N: e for every p comes from the Z-function of G read
    backwards (Z[p] = how many n, from the top down, have G[n + p] ==
    G[n]; e = N - p - Z[p]), each computed from the earlier ones.
    """
    cdef int64_t N = G.shape[0], p, e, end, need, z, left = 0, right = 0
    cdef int64_t p_max, best_e = 0, best_p = 0, best_need = -1
    if heaps < 1 or heaps > 3 or t < 0 or extra_p < 0 or extra_p > 1:
        raise ValueError("1 <= heaps <= 3, t >= 0 and 0 <= extra_p <= 1 are required")
    # values_needed >= (heaps + extra_p) * p + t, so only p <= p_max can be
    # proved with N values (or come within twice N of a proof).
    p_max = (2 * N - t) // (heaps + extra_p)
    if p_max > N - 1:
        p_max = N - 1
    if p_max < 1:
        return None
    cdef int64_t* Z = <int64_t*>malloc((p_max + 1) * sizeof(int64_t))
    if Z == NULL:
        raise MemoryError(f"no memory for the period search over {N:,} values")
    cdef const uint32_t* top = &G[N - 1]        # top[-i] is R[i], G read backwards
    cdef bint stopped = False
    with nogil:
        Z[0] = N
        for p in range(1, p_max + 1):
            if (p & 0xFFFF) == 0 and interrupted():
                stopped = True
                break
            z = 0
            if p < right:
                z = Z[p - left]
                if z > right - p:
                    z = right - p
            while p + z < N and top[-z] == top[-(p + z)]:
                z += 1
            if p + z > right:
                left, right = p, p + z
            Z[p] = z
            e = N - p - z
            end = heaps * e + (heaps - 1 + extra_p) * p + t
            if end < e + 1:
                end = e + 1
            need = end + p
            if need <= N:
                best_e, best_p, best_need = e, p, need
                break
            if best_need < 0 or need < best_need:
                best_e, best_p, best_need = e, p, need
    free(Z)
    if stopped:
        raise_interrupt()
    if best_need < 0:
        return None
    return (best_e, best_p, best_need)
