"""Misère quotients of take-and-break games (grundy.impartial.octal.quotient), against the
definition (every sum up to a total of 20, brute force), the published
quotients of misère Nim and 0.75, and the structure theorems."""
import itertools
import random
import re
import subprocess
import sys

import numpy as np
import pytest

import grundy
from grundy import LOSS, WIN, HexGame, OctalGame, SubtractionGame
from grundy import MisereQuotient, QuotientTooLarge, misere_quotient
from reference import sum_outcome_naive


def sums(n, total):
    """Every sum of heaps 1..n (non-increasing tuples) with at most this total."""
    def parts(left, largest):
        yield ()
        for first in range(min(left, largest), 0, -1):
            for rest in parts(left - first, first):
                yield (first,) + rest
    return parts(total, n)


def parse_word(word, k):
    """'ab^2c' -> exponent vector over k generators named a, b, c, ..."""
    v = [0] * k
    if word == "1":
        return tuple(v)
    for name, exp in re.findall(r"([a-z])(?:\^(\d+))?", word):
        v[ord(name) - ord("a")] += int(exp or 1)
    return tuple(v)


def check_structure(q):
    """A commutative monoid with identity 0, elements all told apart by P,
    every heap's element where element() says, and a presentation that is
    a complete rewriting system for the table."""
    T, m = q.table, q.order
    assert T.shape == (m, m) and not T.flags.writeable
    assert (T == T.T).all()
    assert (T[0] == np.arange(m)).all()
    # Associativity: (x y) z == x (y z) for every x, y, z.
    for y in range(m):
        assert (T[T[:, y], :] == T[:, T[y, :]]).all()
    # Reduced: two elements differ in P for some third one.
    inP = np.zeros(m, dtype=bool)
    inP[list(q.p_positions)] = True
    rows = inP[T]                                   # rows[x, z]: x z in P
    assert len({r.tobytes() for r in rows}) == m
    assert 0 not in q.p_positions                   # the empty sum: the mover wins
    assert q.element([]) == 0
    # The presentation: words evaluate to their elements; relations hold,
    # and rewriting with them takes every word to its element's word.
    k = len(q.generators)
    gen = [int(q.heap_elements[h]) for h in q.generators]

    def value(v):
        x = 0
        for i, e in enumerate(v):
            for _ in range(e):
                x = int(T[x, gen[i]])
        return x

    for x, w in enumerate(q.words):
        assert value(parse_word(w, k)) == x
    rules = [(parse_word(a, k), parse_word(b, k)) for a, b in q.relations]
    for lhs, rhs in rules:
        assert value(lhs) == value(rhs) and lhs != rhs
    normal = {parse_word(w, k): x for x, w in enumerate(q.words)}
    for v in itertools.product(range(4), repeat=min(k, 4)):
        v = v + (0,) * (k - len(v))
        w = v
        for _ in range(1000):
            rule = next(((a, b) for a, b in rules if all(x >= y for x, y in zip(w, a))), None)
            if rule is None:
                break
            w = tuple(x - a + b for x, a, b in zip(w, *rule))
        assert normal.get(w) == value(v), (q, v, w)


def check_outcomes(q, code, total=20, base=8):
    for heaps in sums(q.n, total):
        expected = sum_outcome_naive(code, heaps, True, base)
        assert q.outcome_of(heaps) == (WIN if expected else LOSS), (code, q.n, heaps)


def test_misere_nim():
    # Misère Nim's quotients are the tame ones (Conway; Plambeck and
    # Siegel 2008): heaps below 2^k give 2^k + 2 elements (2 for heaps of 1).
    orders = [misere_quotient(SubtractionGame(range(1, n + 1)), n).order
              for n in range(1, 9)]
    assert orders == [2, 6, 6, 10, 10, 10, 10, 18]
    q = misere_quotient(SubtractionGame({1, 2, 3}), 3)
    assert q.presentation() == "< a, b | a^2 = 1, b^3 = b >"
    assert sorted(q.words[x] for x in q.p_positions) == ["a", "b^2"]
    assert [q.words[x] for x in q.heap_elements] == ["1", "a", "b", "ab"]
    assert q.generators == [1, 2]
    check_structure(q)
    # Against Bouton's rule for misère Nim.
    nim = SubtractionGame(range(1, 8))
    q = misere_quotient(nim, 7)
    for heaps in itertools.product(range(8), repeat=4):
        assert q.outcome_of(heaps) == grundy.nim_outcome(list(heaps), misere=True)


def test_0_75_is_the_quotient_of_order_8():
    # Plambeck and Siegel, "Misère quotients for impartial games" (2008):
    # 0.75's quotient is R8 = < a, b, c | a^2 = 1, b^3 = b, bc = ab, c^2 = b^2 >
    # with P = {a, b^2}, the only misère quotient of order 8 (Siegel, "The
    # structure and classification of misère quotients", 2007).
    game = OctalGame("0.75")
    for n in (8, 16, 30):
        q = misere_quotient(game, n)
        assert q.order == 8
        assert sorted(q.words[x] for x in q.p_positions) == ["a", "b^2"]
        assert sorted(q.relations) == sorted([("a^2", "1"), ("b^3", "b"), ("bc", "ab"),
                                              ("c^2", "b^2")])
        check_structure(q)
    check_outcomes(misere_quotient(game, 20), "0.75")


@pytest.mark.parametrize("code, n", [("0.31", 20), ("0.77", 9), ("0.137", 12), ("0.6", 8),
                                     ("0.07", 10), ("4.7", 10), ("0.52", 12)])
def test_quotients_against_every_sum_up_to_20(code, n):
    q = misere_quotient(OctalGame(code), n)
    check_structure(q)
    check_outcomes(q, code)
    # Even order (Plambeck and Siegel 2008), and 2^k + 2 or 2^k + 4 when
    # |P| = 2 (Siegel 2007).
    assert q.order % 2 == 0
    if len(q.p_positions) == 2:
        assert any(q.order in (2 ** k + 2, 2 ** k + 4) for k in range(12))


def test_kayles_orders_grow():
    kayles = OctalGame("0.77")
    orders = [misere_quotient(kayles, n).order for n in range(1, 10)]
    # More heaps can only tell more sums apart: the quotient for heaps up to
    # n - 1 is a quotient of a submonoid of the one up to n.
    assert orders == sorted(orders)
    # Heaps up to 3 play as misère Nim's (their options are nim-heaps).
    assert orders[:3] == [2, 6, 6]
    # As computed here (a regression check; the outcomes are checked below).
    assert orders == [2, 6, 6, 6, 12, 12, 12, 12, 18]


@pytest.mark.parametrize("seed", range(3))
def test_random_games(seed):
    rng = random.Random(seed)
    done = 0
    while done < 6:
        base = rng.choice([8, 16])
        code = "0." + "".join("0123456789ABCDEF"[rng.randrange(base)]
                              for _ in range(rng.randrange(1, 4)))
        try:
            game = OctalGame(code) if base == 8 else HexGame(code)
        except ValueError:
            continue
        n = rng.randrange(0, 8)
        try:
            q = misere_quotient(game, n, max_order=200)
        except QuotientTooLarge:
            continue
        check_structure(q)
        check_outcomes(q, code, total=14, base=base)
        assert q.order == 1 or q.order % 2 == 0
        done += 1


def test_no_heaps():
    for game, n in [(OctalGame("0.77"), 0), (SubtractionGame({5}), 4)]:
        q = misere_quotient(game, n)
        assert q.order == 1 and not q.p_positions and q.generators == []
        assert q.presentation() == "< >" and q.words == ["1"]
        assert q.outcome_of([]) == WIN and q.outcome_of([n] * 3) == WIN


def test_dead_heaps_map_to_the_identity():
    # 0.6: a heap of 1 has no move (take one token only from a longer heap).
    q = misere_quotient(OctalGame("0.6"), 6)
    assert q.heap_elements[1] == 0 and q.heap_elements[2] != 0
    assert q.outcome_of([1, 1, 1, 2]) == q.outcome_of([2])


def test_text():
    q = misere_quotient(OctalGame("0.75"), 6)
    text = str(q)
    assert text.splitlines()[0] == "heaps 1..6 of OctalGame('0.75'): misère quotient of order 8"
    assert "Q = < a, b, c | " in text and "P = { a, b^2 }" in text
    assert "heaps: 1 -> a, 2 -> b, 3 -> a, 4 -> b, 5 -> c, 6 -> b" in text
    assert repr(q) == "<MisereQuotient of OctalGame('0.75'), heaps up to 6: order 8, |P| = 2>"


def test_errors():
    game = OctalGame("0.77")
    with pytest.raises(TypeError, match="TakeAndBreakGame"):
        misere_quotient("0.77", 5)
    for bad in (-1, 2.5, True, "3"):
        with pytest.raises((TypeError, ValueError), match="n must be"):
            misere_quotient(game, bad)
    with pytest.raises(QuotientTooLarge, match=re.escape(
            "the misère quotient of OctalGame('0.77') up to heap ")):
        misere_quotient(game, 12, max_order=5)
    assert issubclass(QuotientTooLarge, ValueError)
    q = misere_quotient(game, 5)
    with pytest.raises(ValueError, match="heap 6 is beyond"):
        q.outcome_of([1, 6])
    for bad, said in (("12", "heaps must be"), ([1, "a"], "a heap must be"),
                      ([1, -2], "a heap must be"), (2.0, "heaps must be")):
        with pytest.raises((TypeError, ValueError), match=said):
            q.outcome_of(bad)
    with pytest.raises(grundy.MemoryLimitError, match="misère search"):
        misere_quotient(OctalGame("0.6"), 12, max_memory=1_000_000)
    assert isinstance(q, MisereQuotient)


def test_huge_requests_are_refused_at_once():
    # In a subprocess with a timeout: a regression here would hang or eat memory.
    code = """if True:
        import grundy
        from grundy import OctalGame, HexGame
        for game, n, kw in [(OctalGame("0.77"), 10 ** 7, {}), (HexGame("0.8"), 10 ** 4, {}),
                            (OctalGame("0.75"), 10 ** 5, {"max_memory": 10 ** 9})]:
            try:
                grundy.misere_quotient(game, n, **kw)
            except grundy.MemoryLimitError as exc:
                print("refused:", exc)
        """
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 3 and all(line.startswith("refused: the misère quotient of ")
                                   for line in lines), out.stdout
    assert "up to heap 10,000,000" in lines[0] or "up to heap 10000000" in lines[0]


def test_cli():
    run = subprocess.run([sys.executable, "-m", "grundy", "octal", "0.75", "6",
                          "--misere-quotient", "9"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "0 1 2 1 2 1 2"
    assert lines[1] == "heaps 1..9 of OctalGame('0.75'): misère quotient of order 8"
    assert lines[3] == "P = { a, b^2 }"
    for bad, said in [("x", "--misere-quotient H must be a non-negative integer"),
                      ("99999999", "misère quotient of OctalGame('0.75') up to heap")]:
        run = subprocess.run([sys.executable, "-m", "grundy", "octal", "0.75", "3",
                              "--misere-quotient", bad], capture_output=True, text=True,
                             timeout=120)
        assert run.returncode == 2 and run.stderr.startswith("grundy: error: " ), run.stderr
        assert said in run.stderr


def test_ctrl_c_stops_a_long_quotient():
    # Officers (0.6) up to heap 40 takes far longer than the 3 s given here
    # (to heap 16: over 100 s).
    run = subprocess.Popen([sys.executable, "-c", """if True:
        import sys, grundy
        print("started", flush=True)
        from grundy.cli import main
        sys.exit(main(["octal", "0.6", "3", "--misere-quotient", "40"]))
        """], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert run.stdout.readline() == "started\n"
        import signal
        import time
        time.sleep(3)
        sent = time.monotonic()
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        run.kill()
    assert run.returncode == 130, (out, err)
    assert "grundy: error: interrupted" in err
    assert took < 2.0, took
