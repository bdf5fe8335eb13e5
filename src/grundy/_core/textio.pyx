"""Fast text input and output for the command line (no per-line Python)."""
import numpy as np

from libc.stdint cimport INT64_MAX
from grundy._core._typedefs cimport int8_t, int64_t, uint8_t


def parse_ints(const uint8_t[::1] data, Py_ssize_t per_line=0):
    """All whitespace-separated decimal integers in ``data``, as int64.

    Raises ValueError quoting the first token that is not an integer (or
    does not fit in int64), with its line number.  With ``per_line`` > 0,
    every line that is not blank must hold exactly that many integers.

    >>> parse_ints(b"3 2\\n0 1\\n").tolist()
    [3, 2, 0, 1]
    """
    cdef Py_ssize_t n = data.shape[0], i = 0, start, count = 0
    cdef Py_ssize_t bad_start = -1, bad_end = -1
    cdef Py_ssize_t line = 1, in_line = 0, bad_line = -1, bad_count = 0
    cdef int64_t value, digit
    cdef bint neg, overflow
    cdef uint8_t c
    out_arr = np.empty(n // 2 + 1, dtype=np.int64)
    cdef int64_t[::1] out = out_arr
    with nogil:
        while i < n:
            c = data[i]
            if c == 32 or (9 <= c <= 13):
                if c == 10:
                    if per_line > 0 and in_line != 0 and in_line != per_line:
                        bad_line = line
                        bad_count = in_line
                        break
                    line += 1
                    in_line = 0
                i += 1
                continue
            start = i
            neg = False
            overflow = False
            if c == 45 or c == 43:           # '-' or '+'
                neg = c == 45
                i += 1
            value = 0
            while i < n and 48 <= data[i] <= 57:
                digit = data[i] - 48
                if value > (INT64_MAX - digit) // 10:
                    overflow = True
                value = value * 10 + digit if not overflow else 0
                i += 1
            if i == start + (1 if (c == 45 or c == 43) else 0) or overflow or \
                    (i < n and not (data[i] == 32 or 9 <= data[i] <= 13)):
                while i < n and not (data[i] == 32 or 9 <= data[i] <= 13):
                    i += 1
                bad_start = start
                bad_end = i
                break
            out[count] = -value if neg else value
            count += 1
            in_line += 1
        if bad_start < 0 and bad_line < 0 and per_line > 0 and \
                in_line != 0 and in_line != per_line:
            bad_line = line
            bad_count = in_line
    if bad_line >= 0:
        raise ValueError(f"line {bad_line}: expected {per_line} integers, got {bad_count}")
    if bad_start >= 0:
        token = bytes(data[bad_start:min(bad_end, bad_start + 40)]).decode("utf-8", "replace")
        line = bytes(data[:bad_start]).count(b"\n") + 1
        raise ValueError(f"line {line}: {token!r} is not an integer"
                         " (or does not fit in 64 bits)")
    return out_arr[:count].copy()


def format_outcomes(const int8_t[::1] outcome, const int64_t[::1] remoteness):
    """``WIN r`` / ``LOSS r`` / ``DRAW -1`` lines, one per vertex, as bytes."""
    cdef Py_ssize_t n = outcome.shape[0], i, pos = 0, j, k
    cdef int64_t r
    cdef char digits[24]
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
            k = 0
            while True:
                digits[k] = <char> (48 + r % 10)
                k += 1
                r //= 10
                if r == 0:
                    break
            for j in range(k - 1, -1, -1):
                buf[pos] = <uint8_t> digits[j]
                pos += 1
            buf[pos] = 10
            pos += 1
    return buf_arr[:pos].tobytes()
