"""Sums of take-and-break heaps: outcome() in normal and misère play, against
the definition (every sum up to a total of 20) and misère Nim."""
import itertools
import random

import pytest

import grundy
from grundy import LOSS, WIN, HexGame, OctalGame, SubtractionGame
from reference import sum_outcome_naive


def partitions(total, largest=None):
    """Every sum of heaps (non-increasing tuples) with this total."""
    largest = total if largest is None else largest
    if total == 0:
        yield ()
        return
    for first in range(min(total, largest), 0, -1):
        for rest in partitions(total - first, first):
            yield (first,) + rest


@pytest.mark.parametrize("code", ["0.77", "0.31", "0.75", "4.7", "0.137", "0.6", "0.07"])
def test_every_sum_up_to_20_against_the_definition(code):
    game = OctalGame(code)
    for total in range(21):
        for heaps in partitions(total):
            expected = sum_outcome_naive(code, heaps, misere=True)
            assert game.outcome_of(heaps, misere=True) == (WIN if expected else LOSS), \
                (code, heaps)
    # Normal play from the values, against the same definition.
    for heaps in partitions(16):
        assert game.outcome_of(heaps) == (WIN if sum_outcome_naive(code, heaps, False)
                                       else LOSS), (code, heaps)


@pytest.mark.parametrize("seed", range(4))
def test_random_games_and_sums(seed):
    rng = random.Random(seed)
    for _ in range(12):
        base = rng.choice([8, 16])
        d0 = rng.choice([0, 4] if base == 8 else [0, 4, 8])
        code = f"{d0}." + "".join("0123456789ABCDEF"[rng.randrange(base)]
                                  for _ in range(rng.randrange(1, 4)))
        try:
            game = OctalGame(code) if base == 8 else HexGame(code)
        except ValueError:
            continue
        for _ in range(8):
            heaps = [rng.randrange(0, 9) for _ in range(rng.randrange(1, 4))]
            for misere in (False, True):
                expected = sum_outcome_naive(code, heaps, misere, base)
                assert game.outcome_of(heaps, misere=misere) == (WIN if expected else LOSS), \
                    (code, heaps, misere)


def test_single_heaps_and_misere_kayles():
    kayles = OctalGame("0.77")
    # A heap alone: in misère play, the heaps the player to move loses.
    losing = [n for n in range(30) if kayles.outcome_of(n, misere=True) == LOSS]
    assert losing == [n for n in range(30) if not sum_outcome_naive("0.77", (n,), True)]
    assert losing[:5] == [1, 4, 9, 12, 20]


def test_misere_nim():
    # Taking 1..K from a heap of at most K is Nim: Bouton's misère rule.
    nim = SubtractionGame(range(1, 7))
    for heaps in itertools.product(range(7), repeat=3):
        assert nim.outcome_of(heaps, misere=True) == grundy.nim_outcome(heaps, misere=True), heaps
        assert nim.outcome_of(heaps) == grundy.nim_outcome(heaps), heaps


def test_large_heaps_in_normal_play_and_refused_misere_searches():
    kayles = OctalGame("0.77")
    assert kayles.outcome_of([10 ** 30, 10 ** 30]) == LOSS          # equal heaps
    with pytest.raises(grundy.MemoryLimitError, match="misère search"):
        kayles.outcome_of([200, 200], misere=True)
    with pytest.raises(grundy.MemoryLimitError, match="misère search"):
        kayles.outcome_of([20, 20], misere=True, max_memory=1000)
    # A game that never splits reaches only smaller heaps: a big heap is fine.
    assert SubtractionGame({1, 2}).outcome_of(3000, misere=True) == \
        (LOSS if 3000 % 3 == 1 else WIN)


@pytest.mark.parametrize("heaps, error, match", [
    ("12", TypeError, "heaps must be an integer or integers, got '12'"),
    (1.5, TypeError, "heaps must be an integer or integers, got 1.5"),
    ([1, -2], ValueError, "a heap must be >= 0, got -2"),
    ([1, True], TypeError, "a heap must be an integer, got True"),
    ([[1]], TypeError, r"a heap must be an integer, got \[1\]"),
    (None, TypeError, "heaps must be an integer or integers, got None"),
])
def test_bad_heaps(heaps, error, match):
    with pytest.raises(error, match=match):
        OctalGame("0.77").outcome_of(heaps, misere=True)
    with pytest.raises(error, match=match):
        OctalGame("0.77").outcome_of(heaps)


def test_misere_memory_counts_the_stack_and_what_is_kept():
    # A game that never splits: 10^7 positions, and a stack as deep.
    with pytest.raises(grundy.MemoryLimitError, match="misère search"):
        SubtractionGame({1}).outcome_of(10 ** 7, misere=True, max_memory=3 * 10 ** 9)
    # Positions kept from earlier searches count against the next one.
    game = OctalGame("0.77")
    game.outcome_of([10, 10], misere=True)
    kept = len(game._misere.wins)
    assert kept > 100
    from grundy.impartial.octal.misere import POSITION_BYTES, reach_bound
    fresh = POSITION_BYTES * reach_bound([3], True)
    with pytest.raises(grundy.MemoryLimitError):
        game.outcome_of(3, misere=True, max_memory=fresh + 2000 * 8)


def test_bad_misere_flag():
    with pytest.raises(TypeError, match="misere"):
        OctalGame("0.77").outcome_of(3, misere="yes")
