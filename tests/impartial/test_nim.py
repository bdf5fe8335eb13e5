"""Nim against a full game-tree search, plus properties and errors."""
import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grundy import (LOSS, NO_MOVE, WIN, MemoryLimitError, nim_move, nim_moves, nim_outcome,
                    nim_sum)
from reference import nim_tree, nim_winning_moves_tree


def tuples(moves):
    """Moves as tuples of Python ints (1-d arrays for array input)."""
    return [tuple(int(x) for x in m) for m in moves]


@pytest.mark.parametrize("misere", [False, True])
def test_all_small_positions_against_game_tree(misere):
    for k in range(0, 4):
        for piles in itertools.product(range(5), repeat=k):
            piles = list(piles)
            assert nim_outcome(piles, misere=misere) == nim_tree(piles, misere), piles
            assert nim_moves(piles, misere=misere) == nim_winning_moves_tree(piles, misere), piles
            arr = np.array(piles, dtype=np.int64)
            assert nim_outcome(arr, misere=misere) == nim_tree(piles, misere)
            moves = nim_moves(arr, misere=misere)
            assert all(isinstance(m, np.ndarray) and m.dtype == arr.dtype for m in moves)
            assert tuples(moves) == nim_winning_moves_tree(piles, misere), piles


@pytest.mark.parametrize("misere", [False, True])
def test_random_positions_against_game_tree(misere):
    rng = random.Random(5)
    for _ in range(300):
        piles = [rng.choice([0, 1, 1, 2, 3, 5, 6]) for _ in range(rng.randrange(0, 5))]
        assert nim_moves(piles, misere=misere) == nim_winning_moves_tree(piles, misere), piles


piles_st = st.lists(st.integers(min_value=0, max_value=2 ** 80), max_size=8)


def after(piles, i, k):
    return tuple(piles[:i]) + (k,) + tuple(piles[i + 1:])


@settings(max_examples=300, deadline=None)
@given(piles_st, st.booleans())
def test_moves_are_exactly_the_moves_to_a_loss(piles, misere):
    moves = nim_moves(piles, misere=misere)
    if not any(piles):       # the end: LOSS, or in misère play a WIN without a move
        assert moves == [] and nim_outcome(piles, misere=misere) == (WIN if misere else LOSS)
        return
    assert (nim_outcome(piles, misere=misere) == WIN) == bool(moves)
    for move in moves:       # one pile reduced, to a LOSS
        changed = [i for i in range(len(piles)) if move[i] != piles[i]]
        assert len(move) == len(piles) and len(changed) == 1
        assert 0 <= move[changed[0]] < piles[changed[0]]
        assert nim_outcome(move, misere=misere) == LOSS
    # No other move to a LOSS on piles we can enumerate cheaply: check each
    # pile's other reductions near the claimed one and small ones.
    for i, x in enumerate(piles):
        for k in set(range(min(x, 4))) | {x - 1} if x else ():
            if k < x and after(piles, i, k) not in moves:
                assert nim_outcome(after(piles, i, k), misere=misere) == WIN


@settings(max_examples=200, deadline=None)
@given(piles_st, st.booleans())
def test_every_move_from_a_loss_leads_to_a_win(piles, misere):
    if nim_outcome(piles, misere=misere) != LOSS:
        return
    for i, x in enumerate(piles):
        for k in {0, x // 2, max(x - 1, 0)}:
            if k < x:
                assert nim_outcome(after(piles, i, k), misere=misere) == WIN


def test_big_integer_piles():
    a = 2 ** 200 + 12345
    b = 2 ** 199 + 3
    assert nim_sum([a, b]) == a ^ b
    move = nim_move([a, b])
    assert move == (b, b)
    assert nim_outcome([a, a]) == LOSS


def test_numpy_fast_path_matches_python():
    rng = np.random.default_rng(0)
    piles = rng.integers(0, 2 ** 40, size=10 ** 6)
    s = nim_sum(piles)
    assert s == nim_sum(piles.tolist())
    move = nim_move(piles)                       # one position: the first pile reduced
    i = int(np.argmax((piles ^ s) < piles))
    assert move.dtype == piles.dtype and np.count_nonzero(move != piles) == 1
    assert int(move[i]) == int(piles[i]) ^ s and nim_sum(move) == 0
    # Every winning move is a whole position: about 5e5 x 1e6 x 8 bytes,
    # refused before anything is allocated.
    with pytest.raises(MemoryLimitError, match=r"nim_moves on 1 x 1,000,000 piles \(\d{3},\d{3} winning"):
        nim_moves(piles)
    some = piles[:3000]
    moves, t = nim_moves(some), nim_sum(some)
    assert moves.shape == (int(np.count_nonzero((some ^ t) < some)), 3000)
    assert (np.count_nonzero(moves != some, axis=1) == 1).all() and not nim_sum(moves).any()
    with pytest.raises(MemoryLimitError, match="more than max_memory"):
        nim_moves(some, max_memory=10 ** 6)
    for misere in (False, True):
        small = rng.integers(0, 2, size=1001)
        assert tuples(nim_moves(small, misere=misere)) == nim_moves(small.tolist(), misere=misere)
        one_big = small.copy()
        one_big[500] = 9
        assert tuples(nim_moves(one_big, misere=misere)) == \
            nim_moves(one_big.tolist(), misere=misere)
        assert nim_outcome(one_big, misere=misere) == nim_outcome(one_big.tolist(), misere=misere)
    assert nim_sum(np.array([], dtype=np.uint8)) == 0


@pytest.mark.parametrize("misere", [False, True])
def test_two_dimensional_arrays_answer_each_row(misere):
    # One position per row: every function agrees with itself row by row,
    # on random rows mixing small piles (the misère cases) and large ones.
    rng = np.random.default_rng(1)
    for dtype in (np.int64, np.uint64, np.uint8):
        for cols in (0, 1, 3, 6):
            rows = rng.integers(0, 3, size=(400, cols)).astype(dtype)
            rows[::3] = rng.integers(0, 200, size=rows[::3].shape).astype(dtype)
            sums, outcomes = nim_sum(rows), nim_outcome(rows, misere=misere)
            moves, move = nim_moves(rows, misere=misere), nim_move(rows, misere=misere)
            assert sums.shape == outcomes.shape == (400,) and move.shape == (400, cols)
            assert outcomes.dtype == np.int8 and move.dtype == np.int64
            for r, row in enumerate(rows.tolist()):
                assert sums[r] == nim_sum(row)
                assert outcomes[r] == nim_outcome(row, misere=misere), row
                assert tuples(moves[r]) == nim_moves(row, misere=misere), row
                first = nim_move(row, misere=misere)
                assert tuple(move[r].tolist()) == (first if first is not NO_MOVE else (-1,) * cols)


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
def test_two_dimensional_edge_cases():
    assert nim_sum(np.array([[1, 2], [4, 8]])).tolist() == [3, 12]
    assert nim_sum(np.zeros((0, 3), np.int64)).shape == (0,)
    assert nim_move(np.zeros((2, 0), np.int64), misere=True).shape == (2, 0)
    assert nim_move(np.array([[3, 4, 5], [1, 2, 3]])).tolist() == [[1, 4, 5], [-1, -1, -1]]
    assert nim_outcome(np.matrix([[1, 2, 3], [1, 1, 1]])).tolist() == [-1, 1]
    assert [tuples(row) for row in nim_moves(np.matrix([[1, 2, 4]]))] == [[(1, 2, 3)]]
    with pytest.raises(ValueError, match=r"2-d array \(one position per row\), got shape \(2, 2, 2\)"):
        nim_sum(np.zeros((2, 2, 2), np.int64))
    with pytest.raises(ValueError, match="pile 1 of row 1 is -4"):
        nim_outcome(np.array([[1, 2], [3, -4]]))
    with pytest.raises(ValueError, match="use nim_moves"):
        nim_move(np.array([[2 ** 64 - 1, 1]], dtype=np.uint64))
    big = nim_moves(np.array([[2 ** 64 - 1, 1]], dtype=np.uint64))
    assert [tuples(row) for row in big] == [[(1, 1)]]


def test_empty_position():
    assert nim_outcome([]) == LOSS and nim_outcome([], misere=True) == WIN
    assert nim_move([]) is NO_MOVE and nim_moves([], misere=True) == []
    # Any LOSS answers NO_MOVE, which equals only itself and prints as its name.
    assert nim_move([3, 3]) is NO_MOVE and nim_move([1], misere=True) is NO_MOVE
    assert nim_move([2, 2]) == NO_MOVE and nim_move([2, 2]) != -1
    assert repr(nim_move([2, 2])) == "NO_MOVE" and int(nim_move([2, 2])) == -1


@pytest.mark.parametrize("piles, exc, match", [
    ([1, -2], ValueError, "pile 1 is -2: piles must be >= 0"),
    ([1, 2.5], TypeError, "pile 1 is 2.5: piles must be integers"),
    (["3"], TypeError, "pile 0 is '3'"),
    ([True], TypeError, "pile 0 is True"),
    (5, TypeError, "piles must be an iterable of integers, got 5"),
    (np.array([1.0]), TypeError, "dtype float64"),
    (np.array([3, -1]), ValueError, "pile 1 is -1"),
])
def test_bad_piles(piles, exc, match):
    for fn in (nim_sum, nim_outcome, nim_moves, nim_move):
        with pytest.raises(exc, match=match):
            fn(piles)
