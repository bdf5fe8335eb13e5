"""Take-and-break games: both kernels against the definitions, test vectors,
periods, statistics, errors and the CLI."""
import random
import subprocess
import sys

import numpy as np
import pytest

import grundy
from grundy import GrundysGame, HexGame, OctalGame, Periodicity, SubtractionGame
from grundy._core import octal as octal_kernel
from grundy.impartial.octal.game import parse_game
from grundy.impartial.octal.stats import best_mask
from reference import (find_period_naive, grundys_game_naive, octal_values_naive,
                       subtraction_naive)


def random_code(rng, base):
    d0 = rng.choice([0, 4] if base == 8 else [0, 4, 8, 12])
    digits = [rng.randrange(base) for _ in range(rng.randrange(1, 5))]
    if not any(digits):
        digits[-1] = rng.randrange(1, base)
    return f"{d0}." + "".join("0123456789ABCDEF"[d] for d in digits)


@pytest.mark.parametrize("seed", range(8))
def test_random_octal_codes_both_kernels(seed):
    rng = random.Random(seed)
    for _ in range(15):
        code = random_code(rng, 8)
        try:
            game = OctalGame(code)
        except ValueError:
            continue                       # e.g. trailing zeros only: no move
        expected = octal_values_naive(code, 120)
        assert game.nim_sequence(120, kernel="plain").tolist() == expected, code
        if game.splits:
            # A fresh game so the sparse kernel computes everything itself.
            for mask in (0xFFFFFFFE, 0xFFFFFFFF, 0x2):
                assert OctalGame(code).nim_sequence(120, kernel="sparse", mask=mask).tolist() \
                    == expected, (code, mask)
                # The kernel itself, from n = 0, in two calls.
                G = np.zeros(121, dtype=np.uint32)
                take0, take1, take2, _ = game._rules
                octal_kernel.sparse_extend(G, 0, 50, take0, take1, take2, False, mask)
                octal_kernel.sparse_extend(G, 50, 121, take0, take1, take2, False, mask)
                assert G.tolist() == expected, (code, mask)


@pytest.mark.parametrize("seed", range(4))
def test_random_hex_codes(seed):
    rng = random.Random(100 + seed)
    for _ in range(10):
        code = random_code(rng, 16)
        try:
            game = HexGame(code)
        except ValueError:
            continue
        assert game.nim_sequence(40).tolist() == octal_values_naive(code, 40, base=16), code


def test_test_vectors():
    assert OctalGame("0.137").nim_sequence(15).tolist() == \
        [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5]
    assert not hasattr(grundy, "crosses_crosses")     # one name: OctalGame("0.137")
    assert GrundysGame().nim_sequence(24).tolist() == \
        [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4]
    assert SubtractionGame({2, 3, 7}).nim_sequence(19).tolist() == [0, 0, 1, 1, 2] * 4
    assert SubtractionGame({1, 3, 4}).nim_sequence(300).tolist() == subtraction_naive({1, 3, 4}, 300)


def test_grundys_game_kernels_against_naive():
    expected = grundys_game_naive(600)
    assert GrundysGame().nim_sequence(600, kernel="plain").tolist() == expected
    assert GrundysGame().nim_sequence(600, kernel="sparse", mask=0xFFFFFFFE).tolist() == expected
    assert GrundysGame().nim_sequence(600).tolist() == expected


def test_sparse_equals_plain_at_scale():
    n = 1 << 14
    for make in (GrundysGame, lambda: OctalGame("0.6"), lambda: OctalGame("4.07")):
        plain = make().nim_sequence(n, kernel="plain")
        assert np.array_equal(make().nim_sequence(n), plain)


def test_grundys_game_statistics_stable_between_kernels():
    n = 1 << 16
    auto, plain = GrundysGame(), GrundysGame()
    a = auto.rare_common(0xFFFFFFFE, n=n)
    plain.nim_sequence(n, kernel="plain")
    b = plain.rare_common(0xFFFFFFFE, n=n)
    assert a.rare_count == b.rare_count and a.last_rare == b.last_rare
    assert np.array_equal(a.rare_positions, b.rare_positions)
    assert (a.max_value, a.max_at) == (b.max_value, b.max_at)
    assert a.rare_values[:2] == (0, 1) and a.n == n
    # The automatic mask for Grundy's game is the published one.
    assert auto._mask == 0xFFFFFFFE


def rare_count(values, mask):
    return sum(1 for v in values if bin(v & mask).count("1") % 2 == 0)


@pytest.mark.parametrize("seed", range(4))
def test_best_mask_is_the_best(seed):
    # Values below 2^7: best_mask tries every mask, so none makes fewer rare.
    rng = random.Random(seed)
    for _ in range(40):
        size = rng.randrange(1, 200)
        common = rng.sample(range(1, 128), rng.randrange(1, 6))
        values = [rng.choice(common) if rng.random() < 0.9 else rng.randrange(128)
                  for _ in range(size)]
        fewest = min(rare_count(values, m) for m in range(1, 128))
        mask = best_mask(np.array(values))
        if fewest * 4 > size:
            assert mask is None
        else:
            assert 1 <= mask <= 0xFFFFFFFF and rare_count(values, mask) == fewest
    # Values past 2^12: the bits above are chosen one at a time.
    values = np.array([1 << 13, (1 << 13) | 3, 5, 0] + [(1 << 14) | 1] * 20, dtype=np.uint32)
    mask = best_mask(values)
    assert rare_count(values.tolist(), mask) == 1       # only 0 stays rare
    assert best_mask([]) is None and best_mask([0] * 10) is None


@pytest.mark.parametrize("values, error, match", [
    ([1, -1], ValueError, "0..2\\^32-1 .*got -1"),
    ([1, 2 ** 32], ValueError, "got 4294967296"),
    ([[1, 2]], ValueError, "one-dimensional, got shape \\(1, 2\\)"),
    ([1.5, 2.0], TypeError, "integers, got float64 values such as 1.5"),
    ([True, False], TypeError, "integers, got bool"),
])
def test_best_mask_bad_values(values, error, match):
    with pytest.raises(error, match=match):
        best_mask(values)


def test_best_mask_of_large_values_needs_no_table_of_them():
    values = np.array([2 ** 31 + 5, 2 ** 31 + 5, 7, 2 ** 31 + 5], dtype=np.uint32)
    mask = best_mask(values)
    assert rare_count(values.tolist(), mask) <= 1


def test_automatic_mask_is_chosen_again_as_values_grow():
    # 0.146: no mask makes the first 2^13 values sparse; by 2^15 one does
    # (0x7f5 on the values' bits, Gangolli and Plambeck's kind of mask).
    game = OctalGame("0.146")
    game.nim_sequence(1 << 13)
    assert game._auto_mask() is None
    values = game.nim_sequence(1 << 15)
    assert game._mask & 0x7FF == 0x7F5
    assert values.tolist() == OctalGame("0.146").nim_sequence(1 << 15, kernel="plain").tolist()


@pytest.mark.parametrize("game, expected", [
    (OctalGame("0.137"), Periodicity(52, 34, 174)),
    (OctalGame("0.07"), (53, 34)),
    (OctalGame("0.77"), (71, 12)),
    (SubtractionGame({2, 3, 7}), (0, 5)),
    (SubtractionGame({1}), (0, 2)),
])
def test_periods(game, expected):
    per = game.periodicity()
    assert per is not None and (per.preperiod, per.period) == tuple(expected)[:2]
    # The proof's claim holds far beyond proved_at.
    values = game.nim_sequence(per.proved_at + 5 * per.period + 100).tolist()
    e, p = per.preperiod, per.period
    assert all(values[n + p] == values[n] for n in range(e, len(values) - p))
    assert e == 0 or values[e - 1 + p] != values[e - 1]
    assert game.value(10 ** 30) == values[e + (10 ** 30 - e) % p]


@pytest.mark.parametrize("seed", range(6))
def test_find_period_against_definition(seed):
    # Sequences with a planted period from a random preperiod on (small
    # alphabets, so shorter periods also match for a while), cut anywhere.
    rng = random.Random(seed)
    for _ in range(150):
        e, p = rng.randrange(0, 40), rng.randrange(1, 12)
        alphabet = rng.choice([2, 3, 8])
        head = [rng.randrange(alphabet) for _ in range(e)]
        cycle = [rng.randrange(alphabet) for _ in range(p)]
        G = head + [cycle[i % p] for i in range(rng.randrange(0, 300))]
        if rng.random() < 0.2:
            G = [rng.randrange(alphabet) for _ in G]
        G = np.array(G, dtype=np.uint32)
        heaps, t, extra = rng.randrange(1, 4), rng.randrange(0, 6), rng.randrange(0, 2)
        assert octal_kernel.find_period(G, heaps, t, extra) == \
            find_period_naive(G.tolist(), heaps, t, extra), (G.tolist(), heaps, t, extra)
    for G in ([], [0], [0, 0], [5] * 200):
        G = np.array(G, dtype=np.uint32)
        for heaps in (1, 2, 3):
            for t in (0, 1, 3, 500):
                assert octal_kernel.find_period(G, heaps, t, 0) == \
                    find_period_naive(G.tolist(), heaps, t, 0)


def test_period_search_stops_where_the_period_is_proved():
    # 0.137 is proved at 174: the search goes on from 128 values straight to
    # the 175 its best candidate needs, not to 256.
    game = OctalGame("0.137")
    assert game.periodicity() == Periodicity(52, 34, 174)
    assert game._n == 175
    # Kayles likewise: proved at 167, from 128 values straight to 168.
    kayles = OctalGame("0.77")
    assert kayles.periodicity() == (71, 12, 167) and kayles._n == 168


@pytest.mark.parametrize("code, preperiod, period", [
    # OEIS, from the last exceptional value (their n starts at 1: "the last
    # exception is at n = k" is preperiod k + 1 here).
    ("0.127", 46578, 4),      # A071464: Gangolli and Plambeck, last exception n = 46577
    ("0.115", 1, 14),         # A125829: the only exception is at n = 0
    ("0.141", 14, 11),        # A125912: the last exception is at n = 13
    ("0.117", 47, 48),        # A071453: exceptions up to n = 46
])
def test_published_periods(code, preperiod, period):
    per = OctalGame(code).periodicity(1 << 18)
    assert (per.preperiod, per.period) == (preperiod, period)
    # The proof's range: 2e + p + t values past the preperiod (two heaps).
    assert per.proved_at == 2 * preperiod + 2 * period + OctalGame(code).max_take - 1


def test_officers_and_grundys_game_claim_no_period():
    assert OctalGame("0.6").periodicity(1 << 14) is None
    assert GrundysGame().periodicity(1 << 14) is None


def test_no_false_period_from_too_few_values():
    # 0.137 looks periodic early; with values only to 100 nothing is proved.
    assert OctalGame("0.137").periodicity(100) is None
    assert OctalGame("0.137").periodicity(174) == Periodicity(52, 34, 174)


def test_progress_callback_and_interrupt_keeps_values():
    calls = []
    game = GrundysGame()
    game.nim_sequence(20000, progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1] == (20001, 20001)
    assert all(a <= b for (a, _), (b, _) in zip(calls, calls[1:]))

    game = OctalGame("0.6")

    def stop(done, total):
        if done > 3000:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        game.nim_sequence(50000, kernel="plain", progress=stop)
    kept = game._n
    assert kept > 3000
    assert game.nim_sequence(kept - 1).tolist() == OctalGame("0.6").nim_sequence(kept - 1).tolist()


def test_value_dtype():
    v = GrundysGame().nim_sequence(100)
    assert v.dtype == np.int64 and not v.flags.writeable
    # int64 always, whatever the size of the values.
    assert OctalGame("0.6").nim_sequence(5000).dtype == np.int64
    assert SubtractionGame({1, 2}).nim_sequence(0).dtype == np.int64


@pytest.mark.parametrize("code, match", [
    ("0.8", "digit '8' is not octal"),
    ("1.2", "d0 must be 0 or 4"),
    ("", "is not an octal code"),
    ("abc", "is not an octal code"),
    ("0.", "is not an octal code"),
])
def test_bad_octal_codes(code, match):
    with pytest.raises(ValueError, match=match):
        OctalGame(code)


def test_values_of_heaps_and_the_nim_sequence():
    # values(heaps) takes positions (heap sizes), as on every impartial
    # game; the nim-sequence G(0..n) is nim_sequence(n).
    dawson = OctalGame("0.137")
    seq = dawson.nim_sequence(300).tolist()
    heaps = [7, 0, 299, 7, 52, 10 ** 40 + 3]
    got = dawson.values(heaps)
    assert got.dtype == np.int64 and not got.flags.writeable
    per = dawson.periodicity()
    far = per.preperiod + (10 ** 40 + 3 - per.preperiod) % per.period
    assert got.tolist() == [seq[7], seq[0], seq[299], seq[7], seq[52], seq[far]]
    assert got.tolist() == [dawson.value(h) for h in heaps]
    assert dawson.values([]).tolist() == [] and dawson.values(np.array([3, 4])).tolist() == seq[3:5]
    fresh = GrundysGame()                      # values beyond those known are computed
    assert fresh.values(range(400, 0, -40)).tolist() == \
        [GrundysGame().value(h) for h in range(400, 0, -40)]
    with pytest.raises(TypeError, match=r"values\(\) takes heap sizes .* got the integer 30; .*"
                                        r"nim_sequence\(n\)"):
        dawson.values(30)
    with pytest.raises(TypeError, match=r"got the integer 5; .*nim_sequence"):
        dawson.values(np.array(5))
    with pytest.raises(ValueError, match="a heap must be >= 0, got -1"):
        dawson.values([3, -1])
    with pytest.raises(TypeError, match="2.5"):
        dawson.values([2.5])


def test_other_bad_input():
    with pytest.raises(ValueError, match="d0 must be 0 or 4 or 8 or 12"):
        HexGame("2.3F")
    with pytest.raises(ValueError, match="digit 'G'|not a hexadecimal code"):
        HexGame("0.G")
    with pytest.raises(TypeError, match="must be a string"):
        OctalGame(137)
    with pytest.raises(ValueError, match="n must be >= 0, got -1"):
        OctalGame("0.137").nim_sequence(-1)
    with pytest.raises(ValueError, match="a subtraction set member must be >= 1, got 0"):
        SubtractionGame({0, 1})
    with pytest.raises(ValueError, match="a subtraction set member must be >= 1, got -2"):
        SubtractionGame([-2])
    # Games with no move at all are games too: every heap is a LOSS.
    assert SubtractionGame(set()).nim_sequence(3).tolist() == [0, 0, 0, 0]
    assert OctalGame("0.000").nim_sequence(3).tolist() == [0, 0, 0, 0]
    assert OctalGame("0.0").periodicity() == (0, 1, 1)
    assert OctalGame("0.0").value(10 ** 9) == 0
    with pytest.raises(TypeError, match=r"a subtraction set member must be an integer, got 1.5 \(float\)"):
        SubtractionGame({1.5})
    with pytest.raises(ValueError, match="kernel must be"):
        GrundysGame().nim_sequence(5, kernel="fast")
    with pytest.raises(ValueError, match="sparse kernel needs a game that splits"):
        SubtractionGame({1}).nim_sequence(5, kernel="sparse")
    with pytest.raises(ValueError, match="sub:1,3,4"):
        parse_game("sub:1,x")


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "grundy", "octal", *args],
                          capture_output=True, timeout=120)


def test_cli():
    proc = run_cli("0.137", "15")
    assert proc.returncode == 0
    assert proc.stdout.decode() == "0 1 1 2 0 3 1 1 0 3 3 2 2 4 0 5\n"
    proc = run_cli("0.137", "200", "--period")
    lines = proc.stdout.decode().splitlines()
    assert lines[1] == "period 34 preperiod 52 proved-at 174"
    assert run_cli("grundy", "8").stdout.decode() == "0 0 0 1 0 2 1 0 2\n"
    assert run_cli("sub:2,3,7", "11", "--period").stdout.decode() == \
        "0 0 1 1 2 0 0 1 1 2 0 0\nperiod 5 preperiod 0 proved-at 11\n"
    assert run_cli("sub:2,3,7", "10", "--period").stdout.decode().splitlines()[1] == \
        "no period found up to 10"
    assert run_cli("hex:0.3F", "4").stdout.decode() == "0 1 2 0 1\n"
    assert run_cli("0.6", "300", "--period").stdout.decode().splitlines()[1] == \
        "no period found up to 300"


@pytest.mark.parametrize("args, match", [
    (("0.8", "5"), "digit '8' is not octal"),
    (("1.2", "5"), "d0 must be 0 or 4"),
    (("0.137", "-3"), "N must be a non-negative integer (digits 0-9), got '-3'"),
    (("0.137", "x"), "N must be a non-negative integer"),
    (("0.137", "1_0"), "N must be a non-negative integer"),
    (("sub:0,1", "5"), "a subtraction set member must be >= 1, got 0"),
])
def test_cli_errors(args, match):
    proc = run_cli(*args)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and err.startswith("grundy: error: ") and match in err, err
