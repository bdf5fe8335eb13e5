"""Retrograde analysis on one thread: the queue-based pass, and the tie pass.

Every known position (a WIN or LOSS mark, put there by the driver) goes
into a FIFO queue with remoteness 0.  Popping a LOSS decides each undecided
predecessor as a WIN (one move more); popping a WIN takes one from each
undecided predecessor's counter of undecided moves, and a predecessor whose
counter reaches 0 is a LOSS (one move more).  The queue holds positions in
non-decreasing remoteness, so the first LOSS successor reached is the
nearest (the winner hurries) and the last WIN successor the farthest (the
loser delays).  Each position is decided once and each move looked at
once: O(n + m).

Ties (games that end without a winner): a known TIE is neither a WIN nor a
LOSS for the pass above, so a move to it keeps its predecessor from being
a LOSS.  Then a breadth-first search backwards from the known TIEs makes
every still undecided position with a move to a TIE a TIE, at one move more
than the nearest (its remoteness: the fewest moves to the tie ending).
Again O(n + m).  Positions never decided are draws.

The driver (``retrograde.pyx``) sets the state bytes and remoteness up and
reads them back; ``threaded.pyx`` is the same win/loss pass on several
threads.
"""
from libc.stdlib cimport malloc, free

from grundy._core._typedefs cimport int64_t, uint8_t, uint16_t, int32_t, rem_t, grundy_prefetch
from grundy._core._interrupt cimport check_fn, interrupted
from grundy._core.source cimport MoveSource
from grundy._core.states cimport (Many, MARK_WIN, MARK_LOSS, MARK_TIE, decided, take_one)
from grundy._core.status cimport (RETRO_OK, RETRO_NO_MEMORY, RETRO_OVERFLOW,
                                  RETRO_MEMORY_LIMIT, RETRO_INTERRUPTED, CHECK_EVERY_POPS,
                                  CHECK_EVERY_STATES, padded)

cdef enum:
    GROUP = 16                # positions whose predecessors are fetched together
    QBLOCK = 1 << 15          # ids per block of the queue (256 KiB)


# ---------------------------------------------------------------------------
# A FIFO of ids in fixed-size blocks: its memory follows the frontier
# (never a copy on growth), and it refuses to grow past a byte limit.

cdef struct QBlock:
    int64_t data[QBLOCK]
    QBlock* next


cdef struct Queue:
    QBlock* head          # popped from head.data[head_at]
    QBlock* tail          # pushed to tail.data[tail_at]
    QBlock* spare         # one emptied block kept for reuse
    int64_t head_at
    int64_t tail_at
    int64_t size
    int64_t blocks        # blocks allocated (spare included)
    int64_t max_blocks    # the byte limit, in blocks


cdef int64_t queue_bytes(int64_t n_ids) noexcept nogil:
    """Bytes the queue takes to hold ``n_ids`` ids at once (whole blocks,
    and one spare block)."""
    return (n_ids // QBLOCK + 2) * <int64_t> sizeof(QBlock)


cdef int queue_init(Queue* q, int64_t max_bytes) noexcept nogil:
    q.max_blocks = max_bytes // sizeof(QBlock)
    if q.max_blocks < 1:
        q.max_blocks = 1
    q.head = <QBlock*> malloc(sizeof(QBlock))
    if q.head == NULL:
        return RETRO_NO_MEMORY
    q.head.next = NULL
    q.tail = q.head
    q.spare = NULL
    q.head_at = 0
    q.tail_at = 0
    q.size = 0
    q.blocks = 1
    return RETRO_OK


cdef void queue_free(Queue* q) noexcept nogil:
    cdef QBlock* b = q.head
    cdef QBlock* nxt
    while b != NULL:
        nxt = b.next
        free(b)
        b = nxt
    free(q.spare)
    q.head = NULL
    q.spare = NULL


cdef inline int queue_push(Queue* q, int64_t x) noexcept nogil:
    cdef QBlock* b
    if q.tail_at == QBLOCK:
        if q.spare != NULL:
            b = q.spare
            q.spare = NULL
        else:
            if q.blocks >= q.max_blocks:
                return RETRO_MEMORY_LIMIT
            b = <QBlock*> malloc(sizeof(QBlock))
            if b == NULL:
                return RETRO_NO_MEMORY
            q.blocks += 1
        b.next = NULL
        q.tail.next = b
        q.tail = b
        q.tail_at = 0
    q.tail.data[q.tail_at] = x
    q.tail_at += 1
    q.size += 1
    return RETRO_OK


cdef inline int64_t queue_pop(Queue* q) noexcept nogil:
    """The oldest id (the queue must not be empty)."""
    cdef QBlock* b
    cdef int64_t x
    if q.head_at == QBLOCK:
        b = q.head
        q.head = b.next
        q.head_at = 0
        if q.spare == NULL:
            q.spare = b
        else:
            free(b)
            q.blocks -= 1
    x = q.head.data[q.head_at]
    q.head_at += 1
    q.size -= 1
    return x


cdef inline int64_t queue_peek(Queue* q, int64_t k) noexcept nogil:
    """The id k places after the next one to pop (k < size, k < QBLOCK)."""
    cdef int64_t at = q.head_at + k
    if at < QBLOCK:
        return q.head.data[at]
    return q.head.next.data[at - QBLOCK]


# ---------------------------------------------------------------------------
# The passes.

cdef inline int _decide(uint8_t* state, rem_t* remoteness, Queue* q, int64_t u,
                        uint8_t mark, int64_t r, int64_t max_remoteness) noexcept nogil:
    """Position u is decided (mark) with remoteness r."""
    if r > max_remoteness:
        return RETRO_OVERFLOW
    state[u] = mark
    remoteness[u] = <rem_t> r
    return queue_push(q, u)


cdef int serial_pass(MoveSource src, uint8_t* state, Many* many, rem_t* remoteness,
                     int64_t max_remoteness, int64_t max_queue_bytes,
                     check_fn check) noexcept nogil:
    """The win/loss pass.  On entry a known position holds its mark (and
    remoteness 0), any other its counter; on return the positions it
    decided hold their marks and remoteness."""
    cdef bint s_lost, prefetches = src.prefetches
    cdef int64_t n = src.n_positions
    cdef int64_t s, u, i, k, r = 0, level_left, pops = 0
    cdef const int64_t* preds = NULL
    cdef uint8_t c
    cdef Queue q
    cdef int status
    # A group: its positions, predecessor buffers, where each one's
    # predecessors are and how many.
    cdef int64_t width = padded(src.max_predecessors + 1), g, e
    cdef int64_t group[GROUP]
    cdef int64_t count[GROUP]
    cdef const int64_t* where[GROUP]
    cdef int64_t* buf = <int64_t*> malloc(GROUP * width * sizeof(int64_t))
    if buf == NULL:
        return RETRO_NO_MEMORY
    status = queue_init(&q, max_queue_bytes)
    if status != RETRO_OK:
        free(buf)
        return status

    for s in range(n):
        if (s & CHECK_EVERY_STATES) == CHECK_EVERY_STATES and interrupted():
            status = RETRO_INTERRUPTED
            break
        if state[s] == MARK_WIN or state[s] == MARK_LOSS:
            status = queue_push(&q, s)
            if status != RETRO_OK:
                break

    # The queue holds one level of remoteness after another; r is the
    # remoteness of the positions being popped, level_left how many remain.
    # Positions are popped in groups (never across two levels): the
    # predecessors of a group first, their state bytes prefetched, then
    # settled in the order popped, so that the cache misses overlap.
    level_left = q.size
    while status == RETRO_OK and q.size > 0:
        g = 0
        while g < GROUP and q.size > 0 and (g == 0 or level_left > 0):
            if level_left == 0:
                r += 1
                level_left = q.size
            level_left -= 1
            pops += 1
            if (pops & CHECK_EVERY_POPS) == 0 and check(pops, n):
                status = RETRO_INTERRUPTED
                break
            if prefetches and q.size > 16:
                # Hide the memory latency of the positions popped soon (their
                # predecessor lists are scattered): two stages ahead.
                src.prefetch(queue_peek(&q, 16), 1)
                src.prefetch(queue_peek(&q, 8), 2)
            s = queue_pop(&q)
            group[g] = s
            k = src.predecessors(s, buf + g * width, &preds)
            where[g] = preds
            count[g] = k
            for i in range(k):
                grundy_prefetch(state + preds[i])
            g += 1
        if status != RETRO_OK:
            break
        for e in range(g):
            s = group[e]
            preds = where[e]
            s_lost = state[s] == MARK_LOSS
            for i in range(count[e]):
                u = preds[i]
                c = state[u]
                if decided(c):
                    continue
                if s_lost:                  # a move to a LOSS: u wins
                    status = _decide(state, remoteness, &q, u, MARK_WIN, r + 1,
                                     max_remoteness)
                elif take_one(state, many, u):  # u's last undecided move leads to a WIN
                    status = _decide(state, remoteness, &q, u, MARK_LOSS, r + 1,
                                     max_remoteness)
                else:
                    continue
                if status != RETRO_OK:
                    break
            if status != RETRO_OK:
                break
    queue_free(&q)
    free(buf)
    return status


cdef int tie_pass(MoveSource src, uint8_t* state, rem_t* remoteness,
                  int64_t max_remoteness, int64_t max_queue_bytes) noexcept nogil:
    """Breadth-first from the known TIE positions: an undecided predecessor
    of a TIE is a TIE, one move further (after the win/loss pass)."""
    cdef int64_t n = src.n_positions, s, u, i, k, r = 0, level_left, pops = 0
    cdef const int64_t* preds = NULL
    cdef Queue q
    cdef int status = queue_init(&q, max_queue_bytes)
    cdef int64_t* buf = <int64_t*> malloc(padded(src.max_predecessors + 1) * sizeof(int64_t))
    if buf == NULL and status == RETRO_OK:
        status = RETRO_NO_MEMORY
    for s in range(n):
        if status != RETRO_OK:
            break
        if state[s] == MARK_TIE:
            status = queue_push(&q, s)
    level_left = q.size
    while status == RETRO_OK and q.size > 0:
        if level_left == 0:
            r += 1
            level_left = q.size
        level_left -= 1
        pops += 1
        if (pops & CHECK_EVERY_POPS) == 0 and interrupted():
            status = RETRO_INTERRUPTED
            break
        s = queue_pop(&q)
        k = src.predecessors(s, buf, &preds)
        for i in range(k):
            u = preds[i]
            if decided(state[u]):
                continue
            status = _decide(state, remoteness, &q, u, MARK_TIE, r + 1, max_remoteness)
            if status != RETRO_OK:
                break
    if q.head != NULL:
        queue_free(&q)
    free(buf)
    return status
