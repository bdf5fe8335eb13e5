"""Nim: the xor rule, winning moves, misère Nim.

Piles are non-negative integers: Python ints of any size, or a numpy integer
array (one vectorised pass, for millions of piles).

>>> nim_sum([3, 4, 5])
2
>>> nim_outcome([1, 2, 3])
<Outcome.LOSS: -1>
>>> nim_moves([3, 4, 5])
[(0, 1)]
>>> nim_move([1, 1, 1], misere=True) is None
True
"""
import functools
import operator

import numpy as np

from grundy._common import LOSS, WIN

__all__ = ["nim_sum", "nim_outcome", "nim_moves", "nim_move"]


def _piles(piles):
    """A validated numpy int array, or a list of Python ints."""
    if isinstance(piles, np.ndarray):
        if piles.dtype.kind not in "iu" or piles.dtype == np.bool_:
            raise TypeError(f"piles must be integers, got an array of dtype {piles.dtype}")
        flat = piles.ravel()
        if flat.dtype.kind == "i" and flat.size:
            i = int(np.argmin(flat))
            if flat[i] < 0:
                raise ValueError(f"pile {i} is {int(flat[i])}: piles must be >= 0")
        return flat
    if isinstance(piles, (str, bytes)) or not hasattr(piles, "__iter__"):
        raise TypeError(f"piles must be an iterable of integers, got {piles!r}")
    out = []
    for i, x in enumerate(piles):
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, np.integer)):
            raise TypeError(f"pile {i} is {x!r}: piles must be integers")
        x = int(x)
        if x < 0:
            raise ValueError(f"pile {i} is {x}: piles must be >= 0")
        out.append(x)
    return out


def nim_sum(piles):
    """Xor of all piles (0 for no piles).

    >>> nim_sum([2 ** 100, 2 ** 100 + 1])
    1
    >>> nim_sum(np.array([1, 2, 4]))
    7
    """
    piles = _piles(piles)
    if isinstance(piles, np.ndarray):
        return int(np.bitwise_xor.reduce(piles)) if piles.size else 0
    return functools.reduce(operator.xor, piles, 0)


def _all_small(piles):
    if isinstance(piles, np.ndarray):
        return not piles.size or int(piles.max()) <= 1
    return all(x <= 1 for x in piles)


def _count_ones(piles):
    if isinstance(piles, np.ndarray):
        return int(np.count_nonzero(piles == 1))
    return sum(1 for x in piles if x == 1)


def nim_outcome(piles, misere=False):
    """WIN or LOSS for the player to move.

    Normal play: WIN iff the xor of the piles is non-zero.  Misère play
    (whoever takes the last stone loses): the same while some pile is larger
    than 1; when every pile is 0 or 1, WIN iff the number of 1-piles is even.

    >>> nim_outcome([1, 1, 1]), nim_outcome([1, 1, 1], misere=True)
    (<Outcome.WIN: 1>, <Outcome.LOSS: -1>)
    """
    piles = _piles(piles)
    if misere and _all_small(piles):
        return WIN if _count_ones(piles) % 2 == 0 else LOSS
    return WIN if nim_sum(piles) else LOSS


def nim_moves(piles, misere=False):
    """Every winning move, as ``(pile_index, new_size)``, in pile order.

    A move leaves the opponent in a LOSS; there is at most one per pile.
    Empty in a LOSS.

    >>> nim_moves([1, 2, 4])
    [(2, 3)]
    >>> nim_moves([3, 1], misere=True)
    [(0, 0)]
    """
    piles = _piles(piles)
    s = nim_sum(piles)
    if isinstance(piles, np.ndarray):
        return _moves_array(piles, s, misere)
    moves = []
    big = sum(1 for x in piles if x > 1)
    ones = _count_ones(piles)
    for i, x in enumerate(piles):
        if not misere:
            if x ^ s < x:
                moves.append((i, x ^ s))
            continue
        others_big = big - (x > 1)
        if others_big:                      # a pile > 1 remains: normal rule
            if x ^ s < x:
                moves.append((i, x ^ s))
        elif x > 0:
            # Every other pile is 0 or 1: leave an odd number of 1-piles.
            k = 1 if (ones - (x == 1)) % 2 == 0 else 0
            if k < x:
                moves.append((i, k))
    return moves


def _moves_array(piles, s, misere):
    target = piles ^ piles.dtype.type(s)      # a xor of the piles fits their dtype
    big = int(np.count_nonzero(piles > 1))
    ones = _count_ones(piles)
    normal = target < piles
    if not misere or big >= 2:
        idx = np.flatnonzero(normal)
        return [(int(i), int(target[i])) for i in idx]
    if big == 1:
        # Only the big pile can be the one that leaves every pile <= 1.
        # Only the big pile has a winning move: reduce it to 0 or 1 so that an
        # odd number of 1-piles remains.
        i = int(np.flatnonzero(piles > 1)[0])
        return [(i, 1 if ones % 2 == 0 else 0)]
    # Every pile is 0 or 1: take a whole 1-pile iff that leaves an odd count.
    if (ones - 1) % 2 == 1:
        return [(int(i), 0) for i in np.flatnonzero(piles == 1)]
    return []


def nim_move(piles, misere=False):
    """One winning move ``(pile_index, new_size)``, or None in a LOSS.

    (In misère play the empty position is a WIN with no move: None too.)

    >>> nim_move([3, 4, 5])
    (0, 1)
    """
    moves = nim_moves(piles, misere)
    return moves[0] if moves else None
