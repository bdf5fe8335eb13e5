# Shared C types of the kernels (one place, cimported everywhere).
from libc.stdint cimport (int8_t, int16_t, int32_t, int64_t,
                          uint8_t, uint16_t, uint32_t, uint64_t)

# Remoteness, as narrow as it fits (a wider rerun on overflow).
ctypedef fused rem_t:
    uint16_t
    int32_t

# Outcome codes, for the player to move (see DESIGN.md).
cdef enum:
    WIN = 1
    LOSS = -1
    DRAW = 0
    TIE = 2

# Compiler intrinsics, portable: gcc/clang builtins, MSVC intrinsics, or
# plain C where neither exists (a prefetch is only a hint).
cdef extern from *:
    """
    #if defined(_MSC_VER)
    #  include <intrin.h>
    #  if defined(_M_X64) || defined(_M_IX86)
    #    define grundy_prefetch(p) _mm_prefetch((const char *)(p), _MM_HINT_T0)
    #  else
    #    define grundy_prefetch(p) ((void)(p))
    #  endif
    static __inline int grundy_popcount32(unsigned int x) {
        x = x - ((x >> 1) & 0x55555555u);
        x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
        return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
    }
    #else
    #  define grundy_prefetch(p) __builtin_prefetch(p)
    #  define grundy_popcount32(x) __builtin_popcount(x)
    #endif
    """
    void grundy_prefetch(const void*) noexcept nogil
    int grundy_popcount32(unsigned int) noexcept nogil
