# Shared C types of the kernels (one place, cimported everywhere).
from libc.stdint cimport (int8_t, int16_t, int32_t, int64_t,
                          uint8_t, uint16_t, uint32_t, uint64_t)

# Outcome codes, for the player to move (see DESIGN.md).
cdef enum:
    WIN = 1
    LOSS = -1
    DRAW = 0
