"""The win/loss pass of ``serial.pyx`` on several threads, level by level.

Each thread owns a contiguous run of bins of position ids (at most BINS
bins), chosen at every level large enough to split so that each run holds
an equal share of the level's positions (from a count of them by bin); the
positions move to their new owners when the lanes are too uneven (the
walker of a position need not own it: its byte is final).  Games whose
moves stay near their position's id (police and thief: a thief's move
changes the id by less than 2F) then keep most moves inside one thread.
Only the owner ever writes a position's byte, counter and remoteness, so
nothing is atomic.

The positions decided at remoteness r (a level) are taken in slices; in a
slice each thread walks the predecessors of its own share, settles at once
the predecessors it owns and routes the others, with one bit saying whether
the position they move to is a LOSS, to their owner (phase A); then each
thread applies what was routed to it (phase B): a move to a LOSS makes an
undecided predecessor a WIN, a move to a WIN takes one from its counter (a
LOSS at 0), and a position decided now gets remoteness r + 1 and goes into
its owner's part of the next level.  Outcome and remoteness depend only on
the level at which a position is decided, not on the order within a level,
so they equal the serial pass's whatever the number of threads.  Ctrl-C is
looked for between slices, by the calling thread.
"""
from cython.parallel cimport prange, threadid
from libc.stdlib cimport malloc, calloc, free

from grundy._core._typedefs cimport int64_t, uint8_t, uint16_t, int32_t, rem_t, grundy_prefetch
from grundy._core._interrupt cimport check_fn, interrupted
from grundy._core.lanes cimport Lane, PUSH_MIN, append, settle
from grundy._core.source cimport MoveSource
from grundy._core.states cimport Many, MARK_WIN, MARK_LOSS
from grundy._core.status cimport (RETRO_OK, RETRO_NO_MEMORY, RETRO_INTERRUPTED,
                                  CHECK_EVERY_STATES, padded)

cdef enum:
    GROUP = 16                # positions whose predecessors are fetched together
    LEVEL_SLICE = 1 << 18     # positions of a level per round of the two phases
    BINS = 4096               # ownership is by bins of ids, at most this many
    PARALLEL_MIN = 1 << 13    # a smaller level runs on one thread (no barrier to wait at)
    AHEAD = 8                 # prefetch distance (ids)


cdef int _apply(uint8_t* state, Many* many, rem_t* remoteness, Lane* inbox, int64_t r,
                int64_t max_remoteness, Lane* next_level, int64_t* hist, int shift,
                int64_t* reserved, int64_t max_bytes) noexcept nogil:
    """Phase B for one owner: the moves routed to its positions; the inbox
    is emptied."""
    cdef int64_t i, x
    cdef int got
    for i in range(inbox.size):
        if i + AHEAD < inbox.size:
            grundy_prefetch(state + (inbox.data[i + AHEAD] >> 1))
        x = inbox.data[i]
        got = settle(state, many, remoteness, x >> 1, x & 1, False, r, max_remoteness,
                     next_level, reserved, max_bytes)
        if got < 0:
            return got
        if got:
            hist[(x >> 1) >> shift] += 1
    inbox.size = 0
    return RETRO_OK


cdef int _failure(const int* codes, int nthreads) noexcept nogil:
    """RETRO_OK, or the error code a thread left in ``codes``."""
    cdef int t, status = RETRO_OK
    for t in range(nthreads):
        if codes[t] != RETRO_OK:
            status = codes[t]
    return status


cdef int _bin_shift(int64_t n) noexcept nogil:
    """The ids of n positions fall into at most BINS bins of 2^shift ids."""
    cdef int shift = 0
    while (max(n - 1, 0) >> shift) >= BINS:
        shift += 1
    return shift


cdef void _balance(int64_t* hist, uint16_t* owner, int64_t nbins, int64_t total,
                   int nthreads) noexcept nogil:
    """Deal the bins to the threads in contiguous runs of about
    ``total / nthreads`` positions of the level each (``hist``: the level's
    positions in each bin, reset here); a bin goes to the thread its middle
    position falls to.  The positions the level decides fall much like its
    own, so each thread's lane of the next level is about as long."""
    cdef int64_t b, acc = 0
    for b in range(nbins):
        owner[b] = <uint16_t> min(nthreads - 1, (2 * acc + hist[b]) * nthreads // (2 * total))
        acc += hist[b]
        hist[b] = 0


cdef int _keep_own(Lane* lane, int d, const uint16_t* owner, int shift, Lane* routes,
                   int64_t* reserved, int64_t max_bytes) noexcept nogil:
    """Keep in thread d's ``lane`` the positions it owns; route the others
    to their owners (``routes[o]``)."""
    cdef int64_t i, k = 0, x
    cdef int o, err = RETRO_OK
    for i in range(lane.size):
        x = lane.data[i]
        o = owner[x >> shift]
        if o == d:
            lane.data[k] = x
            k += 1
        elif err == RETRO_OK:
            err = append(&routes[o], x, reserved, max_bytes)
    lane.size = k
    return err


cdef int _take_routed(Lane* lane, Lane* routes, int d, int nthreads, int64_t* hist,
                      int shift, int64_t* reserved, int64_t max_bytes) noexcept nogil:
    """Append to thread d's ``lane`` the positions the threads routed to it
    (``routes[t * nthreads + d]``, emptied), counting them in ``hist`` if
    given (NULL: not counted)."""
    cdef int t
    cdef int64_t i, x
    cdef int err = RETRO_OK
    cdef Lane* inbox
    for t in range(nthreads):
        inbox = &routes[t * nthreads + d]
        for i in range(inbox.size):
            x = inbox.data[i]
            if hist != NULL:
                hist[x >> shift] += 1
            if err == RETRO_OK:
                err = append(lane, x, reserved, max_bytes)
        inbox.size = 0
    return err


cdef int _walk(MoveSource src, uint8_t* state, Many* many, rem_t* remoteness,
               const int64_t* ids, int64_t size, int d, const uint16_t* owner, int shift,
               int64_t* hist, Lane* routes, Lane* next_level, int64_t* bufs, int64_t width,
               const int64_t** where, int64_t* count, int64_t r, int64_t max_remoteness,
               int64_t* reserved, int64_t max_bytes) noexcept nogil:
    """Phase A on ``size`` positions of a level, by thread d: the
    predecessors d owns settled at once (like the serial pass), the others
    routed to their owners (``routes[o]``, as id << 1 | the position moved
    to is a LOSS).  In groups: the predecessors of GROUP positions first,
    their state bytes prefetched, then settled, so that the cache misses
    overlap."""
    cdef int64_t i = 0, g, e, j, b, m, u, s
    cdef const int64_t* preds = NULL
    cdef bint lost
    cdef int o, got
    while i < size:
        g = min(<int64_t> GROUP, size - i)
        for e in range(g):
            if i + e + GROUP < size:
                grundy_prefetch(state + ids[i + e + GROUP])
            s = ids[i + e]
            j = src.predecessors(s, bufs + e * width, &preds)
            where[e] = preds
            count[e] = j * 2 + (state[s] == MARK_LOSS)
            for b in range(j):
                grundy_prefetch(state + preds[b])
        for e in range(g):
            preds = where[e]
            m = count[e]
            lost = m & 1
            for b in range(m >> 1):
                u = preds[b]
                o = owner[u >> shift]
                if o == d:
                    got = settle(state, many, remoteness, u, lost, False, r, max_remoteness,
                                 next_level, reserved, max_bytes)
                    if got == 1:
                        hist[u >> shift] += 1
                        continue
                else:
                    got = append(&routes[o], u * 2 + lost, reserved, max_bytes)
                if got < 0:
                    return got
        i += g
    return RETRO_OK


cdef int threaded_pass(MoveSource src, uint8_t* state, Many* many, rem_t* remoteness,
                       int64_t max_remoteness, int64_t max_queue_bytes, int nthreads,
                       check_fn check) noexcept nogil:
    """The win/loss pass of ``serial_pass`` on ``nthreads`` threads (the
    same state bytes and remoteness on return).

    Thread d owns the bins ``owner`` gives it, dealt again before each
    level large enough to split (PARALLEL_MIN positions); ``level[d]``
    holds the positions of the current level it decided (owned by it under
    the previous deal), or, moved when the lanes are too uneven, those it
    owns under the new one.  Phase A (``_walk``): each thread walks the
    predecessors of its lane, settles those it owns at once and routes the
    others to their owners.  Phase B: each thread settles what was routed
    to it.  No thread ever writes another's state bytes, nor its bins of
    ``hist``.
    """
    cdef int64_t n = src.n_positions, s, i, k, lo, hi, r = 0, done = 0, b
    cdef int64_t reserved = 0, size, rounds, a, total, longest
    cdef int t, d, err, team, status = RETRO_OK
    cdef int shift = _bin_shift(n)
    cdef int64_t nbins = (max(n - 1, 0) >> shift) + 1
    cdef uint8_t c
    cdef Lane* level = <Lane*> calloc(nthreads, sizeof(Lane))          # the current level
    cdef Lane* after = <Lane*> calloc(nthreads, sizeof(Lane))          # the next level
    cdef Lane* routes = <Lane*> calloc(nthreads * nthreads, sizeof(Lane))   # [from][to]
    cdef Lane* swap
    cdef int* codes = <int*> calloc(nthreads, sizeof(int))
    cdef int64_t width = padded(src.max_predecessors + 1)
    # Per thread: GROUP predecessor buffers, and where each group member's
    # predecessors are, how many, and whether it is a LOSS.
    cdef int64_t* bufs = <int64_t*> malloc(nthreads * GROUP * width * sizeof(int64_t))
    cdef const int64_t** where = <const int64_t**> malloc(nthreads * 2 * GROUP * sizeof(void*))
    cdef int64_t* count = <int64_t*> malloc(nthreads * 2 * GROUP * sizeof(int64_t))
    # owner[u >> shift]: the thread that owns position u; hist[b]: the
    # positions of the next level in bin b (each bin counted by its owner only).
    cdef uint16_t* owner = <uint16_t*> malloc(nbins * sizeof(uint16_t))
    cdef int64_t* hist = <int64_t*> calloc(nbins, sizeof(int64_t))
    # The routed moves of a round (8 bytes each, at most width a position)
    # take at most a quarter of the queue's budget.
    cdef int64_t slice_size = max(1024, min(<int64_t> LEVEL_SLICE,
                                            max_queue_bytes // (32 * width)))
    if level == NULL or after == NULL or routes == NULL or codes == NULL or \
            bufs == NULL or owner == NULL or where == NULL or count == NULL or hist == NULL:
        status = RETRO_NO_MEMORY
    else:
        for b in range(nbins):                  # to start with: equal runs of bins
            owner[b] = <uint16_t> (b * nthreads // nbins)

    # The known positions (WIN and LOSS marks): the first level, routed to
    # their owners through the inboxes.
    lo = 0
    while status == RETRO_OK and lo < n:
        hi = min(n, lo + (CHECK_EVERY_STATES + 1))
        for s in prange(lo, hi, num_threads=nthreads, schedule="static"):
            t = threadid()
            c = state[s]
            if c == MARK_WIN or c == MARK_LOSS:
                err = append(&routes[t * nthreads + owner[s >> shift]], s, &reserved,
                             max_queue_bytes)
                if err != RETRO_OK:             # written only then: no line bouncing
                    codes[t] = err
        for d in prange(nthreads, num_threads=nthreads, schedule="static", chunksize=1):
            err = _take_routed(&level[d], routes, d, nthreads, hist, shift, &reserved,
                               max_queue_bytes)
            if err != RETRO_OK:
                codes[d] = err
        lo = hi
        status = _failure(codes, nthreads)
        if status == RETRO_OK and interrupted():
            status = RETRO_INTERRUPTED

    # Level by level: the positions of remoteness r decide those of r + 1.
    while status == RETRO_OK:
        total = 0
        for t in range(nthreads):
            total += level[t].size
        if total == 0:
            break
        team = nthreads if total >= PARALLEL_MIN else 1
        if team > 1:
            _balance(hist, owner, nbins, total, nthreads)
            # The lanes hold what each thread decided under the last deal:
            # if one is more than 1/32 over its share, the positions move to
            # their new owners (a pass over the level, cheaper than the
            # wait, and fewer moves then cross), memory permitting: the
            # routes and the lanes they join may each double (32 bytes a
            # moved id), and a route starts at PUSH_MIN ids.
            longest = 0
            for t in range(nthreads):
                longest = max(longest, level[t].size)
            if 32 * longest * nthreads > 33 * total and reserved + 32 * total + \
                    nthreads * nthreads * PUSH_MIN * 8 <= max_queue_bytes:
                for d in prange(nthreads, num_threads=team, schedule="static", chunksize=1):
                    codes[d] = _keep_own(&level[d], d, owner, shift, routes + d * nthreads,
                                         &reserved, max_queue_bytes)
                for d in prange(nthreads, num_threads=team, schedule="static", chunksize=1):
                    err = _take_routed(&level[d], routes, d, nthreads, NULL, shift,
                                       &reserved, max_queue_bytes)
                    if err != RETRO_OK:
                        codes[d] = err
                status = _failure(codes, nthreads)
                if status != RETRO_OK:          # a position may be lost: stop at once
                    break
        else:                                   # a small level, on one thread
            for t in range(nthreads):
                for i in range(level[t].size):
                    hist[level[t].data[i] >> shift] = 0
        rounds = 0
        for t in range(nthreads):
            rounds = max(rounds, (level[t].size + slice_size - 1) // slice_size)
        k = 0
        while status == RETRO_OK and k < rounds:
            # Phase A: each thread walks its slice of its share of the level;
            # it settles the predecessors it owns at once and routes the
            # others to their owners.
            for d in prange(nthreads, num_threads=team, schedule="static", chunksize=1):
                a = k * slice_size
                size = min(level[d].size, a + slice_size) - a
                if size > 0 and codes[d] == RETRO_OK:
                    codes[d] = _walk(src, state, many, remoteness, level[d].data + a, size, d,
                                     owner, shift, hist, routes + d * nthreads, &after[d],
                                     bufs + d * GROUP * width, width, where + d * 2 * GROUP,
                                     count + d * 2 * GROUP, r + 1, max_remoteness, &reserved,
                                     max_queue_bytes)
            # Phase B: each thread settles what was routed to its positions.
            for d in prange(nthreads, num_threads=team, schedule="static", chunksize=1):
                for t in range(nthreads):
                    if codes[d] == RETRO_OK:
                        codes[d] = _apply(state, many, remoteness, &routes[t * nthreads + d],
                                          r + 1, max_remoteness, &after[d], hist, shift,
                                          &reserved, max_queue_bytes)
            k += 1
            done += total // rounds
            status = _failure(codes, nthreads)
            if status == RETRO_OK and check(done, n):
                status = RETRO_INTERRUPTED
        # The next level: swap the lanes (the current ones, emptied, are reused).
        for t in range(nthreads):
            level[t].size = 0
        swap = level
        level = after
        after = swap
        r += 1

    for t in range(nthreads):
        if level != NULL:
            free(level[t].data)
        if after != NULL:
            free(after[t].data)
        if routes != NULL:
            for d in range(nthreads):
                free(routes[t * nthreads + d].data)
    free(level)
    free(after)
    free(routes)
    free(codes)
    free(bufs)
    free(where)
    free(count)
    free(owner)
    free(hist)
    return status
