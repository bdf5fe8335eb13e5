"""Exploring a game whose positions are int64 codes: a code -> id table.

``CodeTable`` numbers codes 0, 1, 2, ... in the order it first sees them.
The explorer of batch games (``game.py``) feeds it each frontier's children
and gets back their ids, the new ones numbered after the old.

Layout.  The codes themselves are kept once, in id order, in a numpy array
(``codes()`` is a read-only view of it).  The hash table is an array of
8-byte slots, a power of two of them, with linear probing and a load factor
<= 1/2.  A slot is 0 when empty, else::

    bits 40..63: the top 24 bits of the code's hash (a fingerprint)
    bits 0..39: id + 1

so every int64 value is a valid code, and a probe reads ``codes[id]`` only
when the fingerprint matches (almost only for the code it looks for).  Codes
are hashed by the splitmix64 finalizer, a bijection whose low bits (the slot)
depend on every bit of the code: game codes are often bitboards that differ
in a few high bits.  The probing loops prefetch the slot of the key a few
places ahead (and, one stage later, its code), so a batch costs about one
memory latency per key, spread over several keys in flight.

Growth.  The slot array is reallocated (on Linux a large block grows by
remapping: no copy, and its pages stay mapped), cleared, and filled again
from the code array, read in id order.  Both phases keep their position, so
Ctrl-C stops them within the usual time and the next call resumes where
they stopped; meanwhile the table's content (``n``, the codes and their
ids) does not change.

Memory: ``bytes_for(n)`` = 12 bytes a slot (8 for the slot, 8 for a code of
the array sized for half as many), with slots the power of two >= 2 n (at
least 16): 24 to 48 bytes a code.  Growing holds no second slot array; the
code array is resized in place too, unless a view returned by ``codes()``
is still alive (then it is copied, and the old copy lives as long as the
view).  At most 2^40 - 1 codes (ids fit in 40 bits).
"""
import numpy as np

from libc.stdint cimport SIZE_MAX
from libc.stdlib cimport calloc, realloc, free
from libc.string cimport memset
from grundy._core._typedefs cimport int64_t, uint64_t, grundy_prefetch
from grundy._core._interrupt cimport interrupted, raise_interrupt

cdef extern from *:
    """
    /* splitmix64's finalizer (Steele, Lea, Flood 2014; Stafford's mix 13). */
    static inline uint64_t grundy_mix64(uint64_t z) {
        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        return z ^ (z >> 31);
    }
    #define GRUNDY_SLOT_FRAG UINT64_C(0xffffff0000000000)
    #define GRUNDY_SLOT_ID1  UINT64_C(0x000000ffffffffff)
    """
    uint64_t mix64 "grundy_mix64"(uint64_t z) noexcept nogil
    uint64_t FRAG "GRUNDY_SLOT_FRAG"          # the fingerprint's bits
    uint64_t ID1 "GRUNDY_SLOT_ID1"            # id + 1

cdef enum:
    CHECK_EVERY = (1 << 20) - 1     # look for Ctrl-C every 2^20 keys (or slots)
    AHEAD = 8                       # prefetch distance (keys), twice for the slot
    MIN_SLOTS = 16
    DONE = 0                        # statuses of the runs
    NEED_GROW = 1
    STOPPED = 2
    STEADY = 0                      # phases of a growth (Table.phase)
    CLEARING = 1
    FILLING = 2

# Ids take 40 bits (id + 1 in 1..2^40 - 1); at most 2^41 slots.
cdef int64_t MAX_CODES = ((<int64_t> 1) << 40) - 1
cdef int64_t MAX_SLOTS = (<int64_t> 1) << 41


cdef struct Table:
    uint64_t* slots
    int64_t nslots      # a power of two >= MIN_SLOTS
    int64_t n           # codes held: n <= nslots / 2
    int64_t* codes      # codes[id]: the data of CodeTable._codes, >= nslots / 2 long
    int phase           # STEADY, or the phase of an unfinished growth
    int64_t cursor      # and where it stands (a slot, or an id)


cdef inline uint64_t fingerprint(uint64_t h) noexcept nogil:
    return h & FRAG                         # the top 24 bits of the hash


cdef int64_t slots_for(int64_t n_codes) noexcept nogil:
    """The slots that hold n_codes codes at load <= 1/2 (n_codes <= MAX_CODES)."""
    cdef int64_t s = MIN_SLOTS
    while s < 2 * n_codes:
        s *= 2
    return s


cdef inline void prefetch_code(const Table* t, uint64_t h) noexcept nogil:
    """Prefetch the code of the entry in the home slot of hash h, if its
    fingerprint matches (the slot itself was prefetched earlier)."""
    cdef uint64_t s = t.slots[h & <uint64_t> (t.nslots - 1)]
    if s != 0 and (s & FRAG) == fingerprint(h):
        grundy_prefetch(&t.codes[(s & ID1) - 1])


cdef int64_t insert_run(Table* t, const int64_t* keys, int64_t* ids, int64_t i,
                        int64_t m, int* status) noexcept nogil:
    """Insert keys[i:m], writing ids[i:m]; return where it stopped.

    Stops early with status NEED_GROW before a new code that would take the
    load above 1/2, or STOPPED on Ctrl-C; the keys before that are in the
    table with their ids written (ids[k] is written only after keys[k] is
    read, so ``ids`` may be ``keys`` itself)."""
    cdef uint64_t* slots = t.slots
    cdef int64_t* codes = t.codes
    cdef uint64_t mask = <uint64_t> (t.nslots - 1)
    cdef int64_t n = t.n, limit = t.nslots >> 1
    cdef int64_t key
    cdef uint64_t h, j, s, fp
    if limit > MAX_CODES:
        limit = MAX_CODES
    status[0] = DONE
    while i < m:
        if (i & CHECK_EVERY) == CHECK_EVERY and interrupted():
            status[0] = STOPPED
            break
        if i + 2 * AHEAD < m:
            grundy_prefetch(&slots[mix64(<uint64_t> keys[i + 2 * AHEAD]) & mask])
        if i + AHEAD < m:
            prefetch_code(t, mix64(<uint64_t> keys[i + AHEAD]))
        key = keys[i]
        h = mix64(<uint64_t> key)
        fp = fingerprint(h)
        j = h & mask
        while True:
            s = slots[j]
            if s == 0:
                if n >= limit:
                    status[0] = NEED_GROW
                    break
                slots[j] = fp | <uint64_t> (n + 1)
                codes[n] = key
                ids[i] = n
                n += 1
                break
            if (s & FRAG) == fp and codes[(s & ID1) - 1] == key:
                ids[i] = <int64_t> (s & ID1) - 1
                break
            j = (j + 1) & mask
        if status[0] != DONE:
            break
        i += 1
    t.n = n
    return i


cdef bint lookup_run(const Table* t, const int64_t* keys, int64_t* ids,
                     int64_t m) noexcept nogil:
    """ids[i] = id of keys[i] or -1; False if stopped by Ctrl-C."""
    cdef const uint64_t* slots = t.slots
    cdef const int64_t* codes = t.codes
    cdef uint64_t mask = <uint64_t> (t.nslots - 1)
    cdef int64_t i, key
    cdef uint64_t h, j, s, fp
    for i in range(m):
        if (i & CHECK_EVERY) == CHECK_EVERY and interrupted():
            return False
        if i + 2 * AHEAD < m:
            grundy_prefetch(&slots[mix64(<uint64_t> keys[i + 2 * AHEAD]) & mask])
        if i + AHEAD < m:
            prefetch_code(t, mix64(<uint64_t> keys[i + AHEAD]))
        key = keys[i]
        h = mix64(<uint64_t> key)
        fp = fingerprint(h)
        j = h & mask
        while True:
            s = slots[j]
            if s == 0:
                ids[i] = -1
                break
            if (s & FRAG) == fp and codes[(s & ID1) - 1] == key:
                ids[i] = <int64_t> (s & ID1) - 1
                break
            j = (j + 1) & mask
    return True


cdef int grow_run(Table* t) noexcept nogil:
    """Go on with the growth under way: clear every slot, then put back the
    codes in id order (read in sequence, their slots prefetched).  DONE, or
    STOPPED on Ctrl-C with the phase and cursor saved for the next call."""
    cdef uint64_t* slots = t.slots
    cdef const int64_t* codes = t.codes
    cdef uint64_t mask = <uint64_t> (t.nslots - 1)
    cdef int64_t c = t.cursor, stop, n = t.n
    cdef uint64_t h, j
    if t.phase == CLEARING:
        while c < t.nslots:
            stop = c + CHECK_EVERY + 1
            if stop > t.nslots:
                stop = t.nslots
            memset(&slots[c], 0, <size_t> (stop - c) * sizeof(uint64_t))
            c = stop
            if c < t.nslots and interrupted():
                t.cursor = c
                return STOPPED
        t.phase = FILLING
        c = 0
    if t.phase == FILLING:
        while c < n:
            if (c & CHECK_EVERY) == CHECK_EVERY and interrupted():
                t.cursor = c
                return STOPPED
            if c + 2 * AHEAD < n:
                grundy_prefetch(&slots[mix64(<uint64_t> codes[c + 2 * AHEAD]) & mask])
            h = mix64(<uint64_t> codes[c])
            j = h & mask
            while slots[j] != 0:
                j = (j + 1) & mask
            slots[j] = fingerprint(h) | <uint64_t> (c + 1)
            c += 1
    t.phase = STEADY
    t.cursor = 0
    return DONE


cdef str _range_error(str name, int64_t value):
    return (f"{name} = {value} is out of range: "
            f"a CodeTable holds 0..{MAX_CODES} codes")


cdef class CodeTable:
    """int64 code -> id (0, 1, 2, ... in order of first insertion).

    ``CodeTable(capacity)`` holds ``capacity`` codes before it first grows.
    Any int64 value is a valid code.  Threads may look codes up at the same
    time, but ``insert`` and ``reserve`` need the table to themselves: a call
    that would overlap them raises RuntimeError.

    >>> import numpy as np
    >>> t = CodeTable()
    >>> ids = np.empty(4, dtype=np.int64)
    >>> t.insert(np.array([7, -1, 7, 2**63 - 1]), ids)
    3
    >>> ids.tolist(), t.codes().tolist()
    ([0, 1, 0, 2], [7, -1, 9223372036854775807])
    >>> t.lookup(np.array([-1, 5]), ids[:2])
    >>> ids[:2].tolist()
    [1, -1]
    """
    cdef Table t
    cdef object _codes          # numpy int64 array: t.codes is its data
    cdef bint _writing          # an insert or reserve runs (without the GIL)
    cdef int _reading           # how many lookups run

    def __cinit__(self, int64_t capacity=1024):
        if capacity < 0 or capacity > MAX_CODES:
            raise ValueError(_range_error("capacity", capacity))
        cdef int64_t nslots = slots_for(capacity)
        self._fit_codes(nslots >> 1)
        self.t.slots = <uint64_t*> calloc(<size_t> nslots, sizeof(uint64_t))
        if self.t.slots == NULL:
            raise MemoryError(f"CodeTable: out of memory for {nslots} slots "
                              f"({8 * nslots} bytes)")
        self.t.nslots = nslots
        self.t.n = 0
        self.t.phase = STEADY

    def __dealloc__(self):
        free(self.t.slots)
        self.t.slots = NULL

    @property
    def n(self):
        """How many codes the table holds."""
        return self.t.n

    @property
    def capacity(self):
        """How many codes it holds before it next grows."""
        return min(self.t.nslots >> 1, MAX_CODES)

    def codes(self):
        """The codes in id order: a read-only int64 view, length ``n``.

        It stays valid when the table grows (while it lives, the table's
        growth copies its code array instead of resizing it in place)."""
        view = self._codes[:self.t.n]
        view.flags.writeable = False
        return view

    def bytes_for(self, int64_t n_codes):
        """Bytes the table holds when sized for ``n_codes`` codes: its slots
        and its code array (12 bytes a slot, 2 n_codes <= slots < 4 n_codes).
        Growing holds about nothing more on Linux (the slots are remapped),
        except a copy of the code array while a view from ``codes()`` lives.

        >>> CodeTable().bytes_for(1000)
        24576
        """
        if n_codes < 0 or n_codes > MAX_CODES:
            raise ValueError(_range_error("n_codes", n_codes))
        return 12 * slots_for(n_codes)

    def reserve(self, int64_t n_codes):
        """Grow now (if needed) so that ``n_codes`` codes fit without growing
        again.  MemoryError if the memory cannot be had (the table is then
        unchanged)."""
        if n_codes < 0 or n_codes > MAX_CODES:
            raise ValueError(_range_error("n_codes", n_codes))
        self._enter_write()
        try:
            self._finish_growth()
            if slots_for(n_codes) > self.t.nslots:
                self._grow(slots_for(n_codes))
        finally:
            self._writing = False

    def insert(self, const int64_t[::1] keys not None, int64_t[::1] ids not None):
        """For each ``keys[i]``: ``ids[i]`` = its id, the next id if it is
        new.  Returns how many were new.

        New codes get their ids in the order they first appear in ``keys``.
        ``ids`` may be ``keys`` itself (replaced in place by the ids).  The
        table grows as needed (MemoryError if it cannot).  On Ctrl-C or a
        MemoryError, the keys before the one it stopped at are in the table
        with their ids written, and the table stays usable: calling again
        with the same keys finishes the job with the same ids.
        """
        cdef int64_t m = keys.shape[0], i = 0, before
        cdef int status = DONE
        if ids.shape[0] < m:
            raise ValueError(f"ids is shorter than keys: len(ids) = {ids.shape[0]} "
                             f"< len(keys) = {m}")
        if m == 0:
            return 0
        self._enter_write()
        try:
            self._finish_growth()
            before = self.t.n
            while True:
                with nogil:
                    i = insert_run(&self.t, &keys[0], &ids[0], i, m, &status)
                if status == DONE:
                    break
                if status == STOPPED:
                    raise_interrupt()
                self._grow(2 * self.t.nslots)
            return self.t.n - before
        finally:
            self._writing = False

    def lookup(self, const int64_t[::1] keys not None, int64_t[::1] ids not None):
        """``ids[i]`` = the id of ``keys[i]``, or -1 if it is not in the
        table (never inserts)."""
        cdef int64_t m = keys.shape[0]
        cdef bint done
        if ids.shape[0] < m:
            raise ValueError(f"ids is shorter than keys: len(ids) = {ids.shape[0]} "
                             f"< len(keys) = {m}")
        if m == 0:
            return
        if self.t.phase != STEADY:          # a growth stopped by Ctrl-C
            self._enter_write()
            try:
                self._finish_growth()
            finally:
                self._writing = False
        if self._writing:
            raise RuntimeError("CodeTable is being changed by another thread")
        self._reading += 1
        try:
            with nogil:
                done = lookup_run(&self.t, &keys[0], &ids[0], m)
            if not done:
                raise_interrupt()
        finally:
            self._reading -= 1

    cdef int _enter_write(self) except -1:
        # With the GIL held: no other thread changes these flags meanwhile.
        if self._writing or self._reading:
            raise RuntimeError("CodeTable is in use by another thread")
        self._writing = True
        return 0

    cdef int _fit_codes(self, int64_t cap) except -1:
        """Make the code array hold at least ``cap`` codes (unchanged on
        failure): resized in place unless a view of it lives, else copied."""
        cdef int64_t[::1] view
        if self._codes is not None and len(self._codes) >= cap:
            return 0
        try:
            if self._codes is None:
                arr = np.empty(cap, dtype=np.int64)
            else:
                try:
                    self._codes.resize(cap, refcheck=True)
                    arr = self._codes
                except ValueError:            # referenced: a view from codes()
                    arr = np.empty(cap, dtype=np.int64)
                    arr[:self.t.n] = self._codes[:self.t.n]
        except MemoryError:
            raise MemoryError(f"CodeTable: out of memory for {cap} codes "
                              f"({8 * cap} bytes)") from None
        view = arr
        self._codes = arr
        self.t.codes = &view[0]
        return 0

    cdef int _grow(self, int64_t nslots) except -1:
        """Start growing to ``nslots`` slots (a power of two > the current
        number), and finish unless interrupted.  On MemoryError the table
        is unchanged."""
        cdef uint64_t* bigger
        cdef uint64_t* back
        if nslots > MAX_SLOTS or <uint64_t> nslots > SIZE_MAX // sizeof(uint64_t):
            raise MemoryError(f"CodeTable: no room for {nslots >> 1} codes "
                              f"(at most {MAX_CODES})")
        # The slots first: realloc only reserves address space for the new
        # part, while the code array's new part is written (zero-filled).
        bigger = <uint64_t*> realloc(self.t.slots, <size_t> nslots * sizeof(uint64_t))
        if bigger == NULL:
            raise MemoryError(f"CodeTable: out of memory for {nslots} slots "
                              f"({8 * nslots} bytes)")
        self.t.slots = bigger
        try:
            self._fit_codes(nslots >> 1)
        except MemoryError:
            back = <uint64_t*> realloc(bigger, <size_t> self.t.nslots * sizeof(uint64_t))
            if back != NULL:
                self.t.slots = back
            raise
        self.t.nslots = nslots
        self.t.phase = CLEARING
        self.t.cursor = 0
        self._finish_growth()
        return 0

    cdef int _finish_growth(self) except -1:
        cdef int status = DONE
        if self.t.phase != STEADY:
            with nogil:
                status = grow_run(&self.t)
            if status == STOPPED:
                raise_interrupt()
        return 0
