"""Conventions shared by the whole package: outcomes, sentinels, errors,
and the argument checks every public function uses."""
import enum
import operator

import numpy as np

__all__ = ["Outcome", "WIN", "LOSS", "DRAW", "NO_MOVE", "CycleError"]


class Outcome(enum.IntEnum):
    """Outcome of a position for the player to move.

    >>> Outcome(1), Outcome(-1), Outcome(0)
    (<Outcome.WIN: 1>, <Outcome.LOSS: -1>, <Outcome.DRAW: 0>)
    """
    WIN = 1
    LOSS = -1
    DRAW = 0


WIN = Outcome.WIN
LOSS = Outcome.LOSS
DRAW = Outcome.DRAW
NO_MOVE = -1
"""Sentinel for "no move" / "no vertex" in move arrays."""


class CycleError(ValueError):
    """The game graph has a cycle where an acyclic game was required.

    ``cycle`` holds the vertices of one cycle, in order (v0 -> v1 -> ... -> v0).
    """

    def __init__(self, message, cycle=()):
        super().__init__(message)
        self.cycle = list(cycle)


def check_count(value, name, minimum=0):
    """``value`` as a Python int >= minimum (TypeError / ValueError otherwise)."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {value!r}") from None
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return value


def as_int64_array(data, name, ndim=None):
    """``data`` as a C-contiguous int64 numpy array, or a clear error.

    Rejects floats, strings, bools and objects (TypeError), ragged input and
    values outside int64 (ValueError).
    """
    try:
        arr = np.asarray(data)
    except (ValueError, OverflowError) as exc:
        raise ValueError(f"{name} could not be read as an integer array: {exc}") from None
    if arr.dtype == object:
        # Python ints too large for int64, or a mix of kinds.
        try:
            arr = np.array(data, dtype=np.int64)
        except OverflowError:
            raise ValueError(f"{name} has a value outside the int64 range") from None
        except (TypeError, ValueError):
            bad = next((x for x in np.ravel(np.asarray(data, dtype=object))
                        if isinstance(x, (bool, float, str, bytes)) or
                        not isinstance(x, (int, np.integer))), None)
            raise TypeError(f"{name} must hold integers, got {bad!r}") from None
    if arr.dtype.kind not in "iu" or arr.dtype == np.bool_:
        if arr.size == 0 and arr.dtype.kind == "f":
            arr = arr.astype(np.int64)       # [] comes in as float64
        else:
            example = arr.flat[0] if arr.size else None
            raise TypeError(f"{name} must hold integers, got dtype {arr.dtype}"
                            + (f" (first value {example!r})" if arr.size else ""))
    if arr.dtype == np.uint64 and arr.size and arr.max() > np.iinfo(np.int64).max:
        raise ValueError(f"{name} has a value {arr.max()} outside the int64 range")
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional, got shape {arr.shape}")
    return np.ascontiguousarray(arr, dtype=np.int64)


def readonly(arr):
    """Mark ``arr`` read-only and return it."""
    arr.flags.writeable = False
    return arr
