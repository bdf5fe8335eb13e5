"""Fast text input and output for the command line (no per-line Python)."""
import numpy as np

from libc.stdint cimport INT64_MAX
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcmp, memcpy
from grundy._core._typedefs cimport int8_t, int64_t, uint8_t, uint64_t
from grundy._core._interrupt cimport interrupted, raise_interrupt


cdef inline bint is_blank(const uint8_t[::1] data, Py_ssize_t i, Py_ssize_t n) noexcept nogil:
    """data[i] separates tokens on a line: a space, a tab, or the \\r of a
    \\r\\n line end (or of the last line)."""
    cdef uint8_t c = data[i]
    return c == 32 or c == 9 or (c == 13 and (i + 1 == n or data[i + 1] == 10))


cdef Py_ssize_t _count_tokens(const uint8_t[::1] data, bint* stopped) noexcept nogil:
    cdef Py_ssize_t i, tokens = 0
    cdef bint was_blank = True
    cdef uint8_t c
    for i in range(data.shape[0]):
        if (i & 0xFFFFFF) == 0xFFFFFF and interrupted():
            stopped[0] = True
            return 0
        c = data[i]
        if c == 32 or c == 9 or c == 10 or c == 13:
            was_blank = True
        elif was_blank:
            tokens += 1
            was_blank = False
    return tokens


def count_tokens(const uint8_t[::1] data):
    """How many tokens (runs of bytes other than space, tab, CR, LF) ``data``
    holds: an upper bound on what :func:`parse_ints` returns, known before
    it allocates anything.

    >>> count_tokens(b"3 2\\n0 1\\n")
    4
    """
    cdef bint stopped = False
    cdef Py_ssize_t tokens
    with nogil:
        tokens = _count_tokens(data, &stopped)
    if stopped:
        raise_interrupt()
    return tokens


def token_line(const uint8_t[::1] data, Py_ssize_t k):
    """The line number (from 1) of token ``k`` (from 0) of ``data``, for
    error messages; -1 if there are not that many tokens.

    >>> token_line(b"3 1\\n\\n0 7\\n", 3)
    3
    """
    cdef Py_ssize_t i, seen = -1, line = 1
    cdef bint was_blank = True
    cdef uint8_t c
    with nogil:
        for i in range(data.shape[0]):
            c = data[i]
            if c == 10:
                line += 1
            if c == 32 or c == 9 or c == 10 or c == 13:
                was_blank = True
            elif was_blank:
                seen += 1
                was_blank = False
                if seen == k:
                    break
    return line if seen == k else -1


def parse_ints(const uint8_t[::1] data, Py_ssize_t per_line=0, Py_ssize_t tokens=-1):
    """All decimal integers in ``data``, as int64.

    Integers are ASCII digits with an optional ``-``, separated by spaces or
    tabs; lines end with ``\\n`` (``\\r\\n`` is fine).  Raises ValueError
    quoting the first token that is not an integer (or does not fit in
    int64), with its line number.  With ``per_line`` > 0, every line that
    is not blank must hold exactly that many integers.  ``tokens``: the
    value of :func:`count_tokens` if the caller has it (else counted here).
    Ctrl-C stops it (KeyboardInterrupt).

    >>> parse_ints(b"3 2\\n0 1\\n").tolist()
    [3, 2, 0, 1]
    """
    cdef Py_ssize_t n = data.shape[0], i = 0, start, count = 0
    cdef Py_ssize_t bad_start = -1, bad_end = -1
    cdef Py_ssize_t line = 1, in_line = 0, bad_line = -1, bad_count = 0
    cdef uint64_t value, digit, top
    cdef bint neg, overflow, stopped = False, overrun = False
    cdef uint8_t c
    # Count the tokens first: the output takes 8 bytes a token, not a byte.
    if tokens < 0:
        tokens = count_tokens(data)
    out_arr = np.empty(tokens, dtype=np.int64)
    cdef int64_t[::1] out = out_arr
    i = 0
    with nogil:
        while i < n:
            c = data[i]
            if c == 10:
                if per_line > 0 and in_line != 0 and in_line != per_line:
                    bad_line = line
                    bad_count = in_line
                    break
                line += 1
                in_line = 0
                i += 1
                if (line & 0xFFFF) == 0 and interrupted():
                    stopped = True
                    break
                continue
            if is_blank(data, i, n):
                i += 1
                continue
            start = i
            neg = False
            overflow = False
            if c == 45:                      # '-'
                neg = True
                i += 1
            value = 0
            top = (<uint64_t> INT64_MAX) + (1 if neg else 0)    # -2^63 fits, 2^63 does not
            while i < n and 48 <= data[i] <= 57:
                digit = data[i] - 48
                if value > (top - digit) // 10:
                    overflow = True
                value = value * 10 + digit if not overflow else 0
                i += 1
            if i == start + (1 if neg else 0) or overflow or \
                    (i < n and data[i] != 10 and not is_blank(data, i, n)):
                while i < n and data[i] != 10 and not is_blank(data, i, n):
                    i += 1
                bad_start = start
                bad_end = i
                break
            if count == tokens:              # a wrong ``tokens`` from the caller
                overrun = True
                break
            out[count] = <int64_t> (0 - value) if neg else <int64_t> value
            count += 1
            in_line += 1
        if not stopped and not overrun and bad_start < 0 and bad_line < 0 and per_line > 0 and \
                in_line != 0 and in_line != per_line:
            bad_line = line
            bad_count = in_line
    if stopped:
        raise_interrupt()
    if overrun:
        raise ValueError(f"tokens = {tokens} is less than the tokens in data")
    if bad_line >= 0:
        raise ValueError(f"line {bad_line}: expected {per_line} integers, got {bad_count}")
    if bad_start >= 0:                       # ``line`` is the bad token's line
        token = bytes(data[bad_start:bad_end])
        shown = token[:40].decode("utf-8", "replace") + ("..." if len(token) > 40 else "")
        if (token[1:] if token[:1] == b"-" else token).isdigit():
            raise ValueError(f"line {line}: {shown!r} does not fit in 64 bits "
                             f"(-2^63..2^63-1)")
        raise ValueError(f"line {line}: {shown!r} is not an integer (digits 0-9)")
    return out_arr if count == tokens else out_arr[:count]


cdef inline Py_ssize_t write_uint(uint8_t* buf, Py_ssize_t pos, uint64_t x) noexcept nogil:
    """Write x in decimal at buf[pos:] (room for 20 digits); the new pos."""
    cdef char digits[24]
    cdef int k = 0, j
    while True:
        digits[k] = <char> (48 + x % 10)
        k += 1
        x //= 10
        if x == 0:
            break
    for j in range(k - 1, -1, -1):
        buf[pos] = <uint8_t> digits[j]
        pos += 1
    return pos


def format_outcomes(const int8_t[::1] outcome, const int64_t[::1] remoteness):
    """``WIN r`` / ``LOSS r`` / ``TIE r`` / ``DRAW -1`` lines, one per vertex, as bytes."""
    cdef Py_ssize_t n = outcome.shape[0], i, pos = 0
    cdef int64_t r
    buf_arr = np.empty(n * 26 + 1, dtype=np.uint8)
    cdef uint8_t[::1] buf = buf_arr
    if remoteness.shape[0] != n:
        raise ValueError("outcome and remoteness differ in length")
    with nogil:
        for i in range(n):
            if outcome[i] == 1:
                buf[pos] = 87; buf[pos + 1] = 73; buf[pos + 2] = 78        # WIN
                pos += 3
            elif outcome[i] == -1:
                buf[pos] = 76; buf[pos + 1] = 79; buf[pos + 2] = 83; buf[pos + 3] = 83
                pos += 4
            elif outcome[i] == 2:
                buf[pos] = 84; buf[pos + 1] = 73; buf[pos + 2] = 69        # TIE
                pos += 3
            else:
                buf[pos] = 68; buf[pos + 1] = 82; buf[pos + 2] = 65; buf[pos + 3] = 87
                pos += 4
            buf[pos] = 32
            pos += 1
            r = remoteness[i]
            if r < 0:
                buf[pos] = 45
                pos += 1
                r = -r
            pos = write_uint(&buf[0], pos, <uint64_t> r)
            buf[pos] = 10
            pos += 1
    return buf_arr[:pos].tobytes()


# ---------------------------------------------------------------------------
# Nim: one position per line, answered without a Python object per pile.

cdef struct OutBuf:
    uint8_t* data
    Py_ssize_t size
    Py_ssize_t cap


cdef int out_reserve(OutBuf* b, Py_ssize_t extra) noexcept nogil:
    """Room for ``extra`` more bytes (doubling); -1 if memory runs out."""
    cdef Py_ssize_t cap = b.cap
    cdef uint8_t* bigger
    if b.size + extra <= cap:
        return 0
    while cap < b.size + extra:
        cap = 2 * cap + 64
    bigger = <uint8_t*> realloc(b.data, cap)
    if bigger == NULL:
        return -1
    b.data = bigger
    b.cap = cap
    return 0


cdef inline void out_text(OutBuf* b, const char* text, Py_ssize_t k) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(k):
        b.data[b.size + i] = <uint8_t> text[i]
    b.size += k


cdef inline void out_uint(OutBuf* b, uint64_t x) noexcept nogil:
    b.size = write_uint(b.data, b.size, x)


cdef enum:
    NIM_OK = 0
    NIM_NO_MEMORY = -1
    NIM_BAD_TOKEN = -2
    NIM_STOPPED = -3


def nim_lines(const uint8_t[::1] data, bint misere=False, Py_ssize_t pos=0,
              Py_ssize_t first_line=1, Py_ssize_t max_output=1 << 24):
    """Answer one Nim position per line of ``data``: ``LOSS``, ``WIN i k``
    (leave pile i with k stones) or ``WIN`` (misère, no piles: won already).

    Piles are ASCII decimal integers separated by spaces or tabs; a line
    ends with ``\\n`` (an ``\\r`` before it is ignored); a blank line is the
    position with no piles.  Works from byte ``pos`` (the start of line
    ``first_line``) until about ``max_output`` bytes of answers are made, so
    that a caller can write them out chunk by chunk.  Returns ``(answers,
    big, next_pos, next_line)``: ``answers`` as bytes; ``big`` lists
    ``(line_number, offset, line_start, line_end)`` for the lines holding a
    pile of 2^64 or more, whose answer is left out for the caller to insert
    at ``offset`` (the line is ``data[line_start:line_end]``); ``next_pos``
    is where to go on (``len(data)`` at the end).  Raises ValueError quoting
    the first bad token with its line number; Ctrl-C stops it.

    >>> nim_lines(b"3 4 5\\n1 2 3\\n\\n")
    (b'WIN 0 1\\nLOSS\\nLOSS\\n', [], 13, 4)
    >>> nim_lines(b"1 1 1\\n", misere=True)[0]
    b'LOSS\\n'
    """
    cdef Py_ssize_t n = data.shape[0], i = 0, line = first_line, start = pos, end
    cdef Py_ssize_t bad_start = -1, bad_end = -1, n_piles, j, cap = 64
    cdef Py_ssize_t big_count = 0, big_cap = 16
    cdef uint64_t x, s, digit
    cdef int64_t n_big, n_ones, move_pile
    cdef uint64_t move_size
    cdef bint overflow, line_big
    cdef uint8_t c
    cdef int status = NIM_OK
    cdef OutBuf out
    cdef uint64_t* piles = <uint64_t*> malloc(cap * sizeof(uint64_t))
    cdef uint64_t* grown
    cdef Py_ssize_t* big_lines = <Py_ssize_t*> malloc(4 * big_cap * sizeof(Py_ssize_t))
    cdef Py_ssize_t* big_grown
    if not (0 <= pos <= n) or first_line < 1 or max_output < 1:
        free(piles)
        free(big_lines)
        raise ValueError(f"need 0 <= pos <= len(data), first_line >= 1, max_output >= 1")
    out.data = NULL
    out.size = 0
    out.cap = 0
    if piles == NULL or big_lines == NULL or \
            out_reserve(&out, min((n - pos) // 2, max_output) + 64) != 0:
        free(piles)
        free(big_lines)
        free(out.data)
        raise MemoryError("grundy nim: out of memory for the answers")
    with nogil:
        while start < n and out.size < max_output:
            if (line & 0xFFFF) == 0 and interrupted():
                status = NIM_STOPPED
                break
            # One line: data[start:end], end at '\n' or the end of the data.
            end = start
            while end < n and data[end] != 10:
                end += 1
            if end > start and data[end - 1] == 13:
                end -= 1                        # a \r\n line end
            n_piles = 0
            line_big = False
            i = start
            while i < end:
                c = data[i]
                if c == 32 or c == 9:
                    i += 1
                    continue
                bad_start = i
                x = 0
                overflow = False
                while i < end and 48 <= data[i] <= 57:
                    digit = data[i] - 48
                    if x > (<uint64_t> 0xFFFFFFFFFFFFFFFF - digit) // 10:
                        overflow = True
                    else:
                        x = x * 10 + digit
                    i += 1
                    if (i & 0xFFFFFF) == 0 and interrupted():    # a very long line
                        status = NIM_STOPPED
                        break
                if status != NIM_OK:
                    break
                if i == bad_start or (i < end and data[i] != 32 and data[i] != 9):
                    while i < end and data[i] != 32 and data[i] != 9:
                        i += 1
                    bad_end = i
                    status = NIM_BAD_TOKEN
                    break
                if overflow:
                    line_big = True
                    continue
                if n_piles == cap:
                    grown = <uint64_t*> realloc(piles, 2 * cap * sizeof(uint64_t))
                    if grown == NULL:
                        status = NIM_NO_MEMORY
                        break
                    piles = grown
                    cap *= 2
                piles[n_piles] = x
                n_piles += 1
            if status != NIM_OK:
                break
            if line_big:
                if big_count == big_cap:
                    big_grown = <Py_ssize_t*> realloc(big_lines, 8 * big_cap * sizeof(Py_ssize_t))
                    if big_grown == NULL:
                        status = NIM_NO_MEMORY
                        break
                    big_lines = big_grown
                    big_cap *= 2
                big_lines[4 * big_count] = line
                big_lines[4 * big_count + 1] = out.size
                big_lines[4 * big_count + 2] = start
                big_lines[4 * big_count + 3] = end
                big_count += 1
            else:
                s = 0
                n_big = 0
                n_ones = 0
                for j in range(n_piles):
                    s ^= piles[j]
                    if piles[j] > 1:
                        n_big += 1
                    elif piles[j] == 1:
                        n_ones += 1
                move_pile = -1
                move_size = 0
                # Nim's rule, as grundy.impartial.nim._rule writes it for the
                # API (the same first winning move: tests/cli/test_cli_input.py
                # compares the two), here over 64-bit piles, line by line.
                if misere and n_big == 0:
                    # Every pile is 0 or 1: a WIN iff the number of 1s is even.
                    if n_ones % 2 == 0 and n_ones > 0:
                        for j in range(n_piles):
                            if piles[j] == 1:
                                move_pile = j
                                break
                    elif n_ones == 0:
                        move_pile = -2          # a WIN with no move
                elif misere and n_big == 1:
                    # Reduce the one big pile to leave an odd number of 1s.
                    for j in range(n_piles):
                        if piles[j] > 1:
                            move_pile = j
                            move_size = 1 if n_ones % 2 == 0 else 0
                            break
                elif s != 0:
                    for j in range(n_piles):
                        if (piles[j] ^ s) < piles[j]:
                            move_pile = j
                            move_size = piles[j] ^ s
                            break
                if out_reserve(&out, 48) != 0:
                    status = NIM_NO_MEMORY
                    break
                if move_pile == -1:
                    out_text(&out, "LOSS\n", 5)
                elif move_pile == -2:
                    out_text(&out, "WIN\n", 4)
                else:
                    out_text(&out, "WIN ", 4)
                    out_uint(&out, <uint64_t> move_pile)
                    out_text(&out, " ", 1)
                    out_uint(&out, move_size)
                    out_text(&out, "\n", 1)
            line += 1
            while end < n and data[end] != 10:
                end += 1                        # past the \r
            start = end + 1
    try:
        if status == NIM_STOPPED:
            raise_interrupt()
        if status == NIM_NO_MEMORY:
            raise MemoryError("grundy nim: out of memory for the answers")
        if status == NIM_BAD_TOKEN:
            token = bytes(data[bad_start:bad_end])
            shown = token[:40].decode("utf-8", "replace") + ("..." if len(token) > 40 else "")
            if token[:1] == b"-" and token[1:].isdigit():
                raise ValueError(f"line {line}: pile {shown!r} is negative: piles must be >= 0")
            raise ValueError(f"line {line}: pile {shown!r} is not an integer "
                             f"(piles are written with the digits 0-9)")
        big = [tuple(big_lines[4 * j + k] for k in range(4)) for j in range(big_count)]
        return bytes(out.data[:out.size]), big, min(start, n), line
    finally:
        free(piles)
        free(big_lines)
        free(out.data)


# ---------------------------------------------------------------------------
# Edge lists with named vertices: one C pass, names hashed in place.

cdef struct NameTable:
    int64_t* slot        # open addressing: a vertex id, or -1
    int64_t mask         # capacity - 1 (a power of two)
    int64_t* start       # per id: where its name starts in the data
    int64_t* length      # per id: the name's length
    uint64_t* hash       # per id: the name's hash
    int64_t count        # ids given so far
    int64_t cap          # room in start/length/hash


cdef inline uint64_t fnv1a(const uint8_t* p, int64_t k) noexcept nogil:
    cdef uint64_t h = 14695981039346656037ULL
    cdef int64_t i
    for i in range(k):
        h = (h ^ p[i]) * 1099511628211ULL
    return h


cdef int table_grow(NameTable* t) noexcept nogil:
    """Double the slots (rehashing) when half full; grow the id arrays."""
    cdef int64_t i, j, cap
    cdef int64_t* slots
    cdef void* p
    if t.count == t.cap:
        cap = 2 * t.cap
        p = realloc(t.start, cap * sizeof(int64_t))
        if p == NULL:
            return -1
        t.start = <int64_t*> p
        p = realloc(t.length, cap * sizeof(int64_t))
        if p == NULL:
            return -1
        t.length = <int64_t*> p
        p = realloc(t.hash, cap * sizeof(uint64_t))
        if p == NULL:
            return -1
        t.hash = <uint64_t*> p
        t.cap = cap
    if 2 * (t.count + 1) > t.mask + 1:
        cap = 2 * (t.mask + 1)
        slots = <int64_t*> malloc(cap * sizeof(int64_t))
        if slots == NULL:
            return -1
        for i in range(cap):
            slots[i] = -1
        for i in range(t.count):
            j = <int64_t> (t.hash[i] & <uint64_t> (cap - 1))
            while slots[j] >= 0:
                j = (j + 1) & (cap - 1)
            slots[j] = i
        free(t.slot)
        t.slot = slots
        t.mask = cap - 1
    return 0


cdef int64_t table_id(NameTable* t, const uint8_t* data, int64_t s,
                      int64_t k) noexcept nogil:
    """The id of the name data[s:s+k] (a new one if unseen), or -1 on no memory."""
    cdef uint64_t h = fnv1a(data + s, k)
    cdef int64_t j = <int64_t> (h & <uint64_t> t.mask), i
    while t.slot[j] >= 0:
        i = t.slot[j]
        if t.hash[i] == h and t.length[i] == k and \
                memcmp(data + t.start[i], data + s, k) == 0:
            return i
        j = (j + 1) & t.mask
    if table_grow(t) != 0:
        return -1
    j = <int64_t> (h & <uint64_t> t.mask)
    while t.slot[j] >= 0:
        j = (j + 1) & t.mask
    i = t.count
    t.slot[j] = i
    t.start[i] = s
    t.length[i] = k
    t.hash[i] = h
    t.count += 1
    return i


cdef inline bint name_byte(uint8_t c) noexcept nogil:
    # Anything but ASCII whitespace, control characters and the comma.
    return c > 32 and c != 44 and c != 127


def parse_named_edges(const uint8_t[::1] data):
    """Edges of an edge list with named vertices, in one pass.

    One move per line: ``u v`` or ``u,v`` (spaces or tabs around), names
    being runs of bytes other than whitespace, control characters and
    commas; blank lines and lines starting with ``#`` are skipped; ``\\r\\n``
    line ends are fine.  Returns ``(ids, names)``: ``ids`` an int64 array
    ``[m, 2]`` of vertex ids, numbered by first appearance, and
    ``names`` an int64 array ``[n, 2]``: name i is ``data[start:end]``, in id
    order.  Raises ValueError quoting the first malformed line, with its
    number; Ctrl-C stops it.

    >>> ids, names = parse_named_edges(b"a,b\\nb c\\n# note\\n\\nc, a\\n")
    >>> ids.tolist(), names.tolist()
    ([[0, 1], [1, 2], [2, 0]], [[0, 1], [2, 3], [6, 7]])
    """
    cdef int64_t n = data.shape[0], pos = 0, end, i, line = 1, m = 0, ids_cap = 1024
    cdef int64_t a0, a1, b0, b1, u, v, bad_line = -1
    cdef bint sep
    cdef int status = 0
    cdef NameTable t
    cdef int64_t* ids = <int64_t*> malloc(2 * ids_cap * sizeof(int64_t))
    cdef int64_t* grown
    cdef int64_t[:, ::1] out_view
    t.slot = <int64_t*> malloc(1024 * sizeof(int64_t))
    t.mask = 1023
    t.start = <int64_t*> malloc(256 * sizeof(int64_t))
    t.length = <int64_t*> malloc(256 * sizeof(int64_t))
    t.hash = <uint64_t*> malloc(256 * sizeof(uint64_t))
    t.count = 0
    t.cap = 256
    try:
        if ids == NULL or t.slot == NULL or t.start == NULL or t.length == NULL or \
                t.hash == NULL:
            raise MemoryError("edge list: out of memory")
        for i in range(1024):
            t.slot[i] = -1
        with nogil:
            while pos < n:
                if (line & 0xFFFF) == 0 and interrupted():
                    status = -2
                    break
                end = pos
                while end < n and data[end] != 10:
                    end += 1
                i = pos
                if end > pos and data[end - 1] == 13:
                    end -= 1
                while i < end and (data[i] == 32 or data[i] == 9):
                    i += 1
                if i < end and data[i] != 35:          # not blank, not '#'
                    a0 = i
                    while i < end and name_byte(data[i]):
                        i += 1
                    a1 = i
                    sep = False
                    while i < end and (data[i] == 32 or data[i] == 9):
                        i += 1
                        sep = True
                    if i < end and data[i] == 44:
                        i += 1
                        sep = True
                        while i < end and (data[i] == 32 or data[i] == 9):
                            i += 1
                    b0 = i
                    while i < end and name_byte(data[i]):
                        i += 1
                    b1 = i
                    while i < end and (data[i] == 32 or data[i] == 9):
                        i += 1
                    if a1 == a0 or b1 == b0 or not sep or i != end:
                        bad_line = line
                        break
                    u = table_id(&t, &data[0], a0, a1 - a0)
                    v = table_id(&t, &data[0], b0, b1 - b0)
                    if u < 0 or v < 0:
                        status = -1
                        break
                    if m == ids_cap:
                        grown = <int64_t*> realloc(ids, 4 * ids_cap * sizeof(int64_t))
                        if grown == NULL:
                            status = -1
                            break
                        ids = grown
                        ids_cap *= 2
                    ids[2 * m] = u
                    ids[2 * m + 1] = v
                    m += 1
                while end < n and data[end] != 10:
                    end += 1
                pos = end + 1
                line += 1
        if status == -2:
            raise_interrupt()
        if status != 0:
            raise MemoryError("edge list: out of memory")
        if bad_line >= 0:
            end = pos
            while end < n and data[end] != 10:
                end += 1
            text = bytes(data[pos:end]).rstrip(b"\r")
            shown = text[:60].decode("utf-8", "replace") + ("..." if len(text) > 60 else "")
            raise ValueError(f"line {bad_line}: expected an edge 'u v' or 'u,v', got {shown!r}")
        out = np.empty((m, 2), dtype=np.int64)
        if m:
            out_view = out
            memcpy(&out_view[0, 0], ids, 2 * m * sizeof(int64_t))
        spans = np.empty((t.count, 2), dtype=np.int64)
        for i in range(t.count):
            spans[i, 0] = t.start[i]
            spans[i, 1] = t.start[i] + t.length[i]
        return out, spans
    finally:
        free(ids)
        free(t.slot)
        free(t.start)
        free(t.length)
        free(t.hash)
