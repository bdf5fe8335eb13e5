"""Games from their rules: solve_game (per-position and batch protocols, with
and without ``canonical``), ties, GameGraph.solve with TIE labels, the
generic driver on a compiled source, and bad input / Ctrl-C / depth.

Every answer is checked against the slow references of ``reference.py``
(``solve_positions``: dicts and rounds, ties included)."""
import json
import re
import os
import random
import resource
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import grundy
from grundy import (DRAW, LOSS, NO_MOVE, TIE, WIN, BatchGame, Game, GameGraph,
                    MemoryLimitError, solve_game)

from conftest import random_graph
from reference import (check_moves, check_moves_ties, explore_positions, keeps_value,
                       solve_positions, solve_rounds, solve_rounds_ties)

PY = sys.executable
INT64_MIN, INT64_MAX = -2 ** 63, 2 ** 63 - 1


# ---------------------------------------------------------------------------
# Random games over int positions, as tables

def random_table(rng, n_pool=None, codes=False):
    """``(start, table, prim)``: a random game.

    ``table[p]`` lists the moves of p (cycles, self-loops, repeated moves;
    positions without an entry have no move), ``prim[p]`` is WIN/LOSS/TIE
    for primitive positions (which may still have table entries: ignored).
    Positions are small ints, or with ``codes`` arbitrary int64 codes.
    Some of the pool is junk the start never reaches.
    """
    n = n_pool if n_pool is not None else rng.choice([1, 2, 3, 5, 8, 13, 20, 30, 45, 80])
    if codes:
        pool = {INT64_MIN, INT64_MAX, 0, -1}
        while len(pool) < n + 4:
            pool.add(rng.getrandbits(64) - 2 ** 63)
        pool = rng.sample(sorted(pool), n)
    else:
        pool = rng.sample(range(-10, 3 * n + 10), n)
    max_deg = rng.choice([1, 2, 3, 5])
    p_prim = rng.choice([0.0, 0.1, 0.25, 0.5])
    p_self = rng.choice([0.0, 0.1, 0.3])
    kinds = rng.choice([(WIN, LOSS, TIE), (TIE,), (TIE, TIE, LOSS), (WIN, LOSS)])
    table, prim = {}, {}
    for p in pool:
        if rng.random() < 0.85:
            moves = [rng.choice(pool) for _ in range(rng.randrange(max_deg + 1))]
            if moves and rng.random() < 0.3:
                moves.append(moves[0])                  # a repeated move
            if rng.random() < p_self:
                moves.insert(rng.randrange(len(moves) + 1), p)     # a self-loop
            table[p] = moves
        if rng.random() < p_prim:
            prim[p] = rng.choice(kinds)
    return rng.choice(pool), table, prim


class TableGame(Game):
    """The per-position protocol over a table."""

    def __init__(self, start, table, prim):
        self._start, self.table, self.prim = start, table, prim

    def start(self):
        return self._start

    def moves(self, p):
        return iter(self.table.get(p, ()))        # any iterable will do

    def primitive(self, p):
        return self.prim.get(p)


class TableBatch(BatchGame):
    """The batch protocol over the same table: sorted keys, CSR rows, numpy
    lookups."""

    def __init__(self, start, table, prim):
        self._start = start
        keys = set(table) | set(prim) | {start}
        for moves in table.values():
            keys.update(moves)
        self.keys = np.array(sorted(keys), dtype=np.int64)
        rows = [table.get(int(k), []) for k in self.keys]
        self.indptr = np.zeros(len(rows) + 1, dtype=np.int64)
        np.cumsum([len(r) for r in rows], out=self.indptr[1:])
        self.children = np.array([c for r in rows for c in r], dtype=np.int64)
        self.prim = np.array([int(prim.get(int(k), 0)) for k in self.keys], dtype=np.int8)
        self.calls = 0

    def start(self):
        return self._start

    def _rows(self, codes):
        idx = np.searchsorted(self.keys, codes)
        assert (self.keys[idx] == codes).all(), "asked about a code never made"
        return idx

    def moves(self, codes):
        self.calls += 1
        assert codes.dtype == np.int64 and codes.ndim == 1 and len(codes)
        idx = self._rows(codes)
        lo, hi = self.indptr[idx], self.indptr[idx + 1]
        deg = hi - lo
        offsets = np.zeros(len(codes) + 1, dtype=np.int64)
        np.cumsum(deg, out=offsets[1:])
        at = np.arange(offsets[-1]) - np.repeat(offsets[:-1], deg) + np.repeat(lo, deg)
        return offsets, self.children[at]

    def primitive(self, codes):
        return self.prim[self._rows(codes)]


def solution_dicts(sol):
    """{position: outcome}, {position: remoteness}, {position: best move or None}."""
    pos = list(sol.positions)
    if isinstance(sol.positions, np.ndarray):
        pos = sol.positions.tolist()
    outcome = dict(zip(pos, sol.outcome.tolist()))
    rem = dict(zip(pos, sol.remoteness.tolist()))
    move = {p: (pos[m] if m >= 0 else None) for p, m in zip(pos, sol.move.tolist())}
    return outcome, rem, move


def check_against_reference(sol, start, table, prim, misere):
    """The solution of the table game equals the reference, position by position."""
    succ, labels = explore_positions(start, lambda p: table.get(p, []), prim.get)
    ref_o, ref_r = solve_positions(succ, labels, misere=misere)
    outcome, rem, move = solution_dicts(sol)
    assert sol.n_positions == len(succ) and set(outcome) == set(succ), \
        "the positions are not exactly those reachable from the start"
    assert sol.position(0) == start and sol.start == start
    bad = [(p, (outcome[p], rem[p]), (ref_o[p], ref_r[p])) for p in succ
           if (outcome[p], rem[p]) != (ref_o[p], ref_r[p])]
    assert not bad, f"(position, got, expected): {bad[:5]}; game {start, table, prim}"
    check_moves_ties(succ, labels, outcome, rem, move)
    return succ, labels, ref_o, ref_r


# ---------------------------------------------------------------------------
# 1. solve_game against the reference, thousands of random games

@pytest.mark.parametrize("seed", range(8))
def test_random_games_against_reference(seed):
    rng = random.Random(7000 + seed)
    for _ in range(400):
        start, table, prim = random_table(rng)
        game = TableGame(start, table, prim)
        for misere in (False, True):
            sol = solve_game(game, misere=misere)
            succ, labels, ref_o, ref_r = check_against_reference(sol, start, table, prim, misere)
        # The Evaluation view speaks the same values (last convention).
        for p in list(succ)[:5]:
            ev = sol[p]
            assert (ev.outcome, ev.remoteness) == (ref_o[p], ref_r[p])
            assert isinstance(ev.outcome, grundy.Outcome)
            m = sol.best_move(p)
            assert ev.move == m
            assert (m is NO_MOVE) == (p in labels or not succ[p])


@pytest.mark.parametrize("seed", range(2))
def test_high_degree_positions_against_reference(seed):
    """Positions with 250..300 moves (repeats galore): the solve's wide state
    words (more than 252 moves) as well as its one-byte states, ties included."""
    rng = random.Random(7500 + seed)
    for _ in range(40):
        start, table, prim = random_table(rng, n_pool=rng.choice([3, 10, 30]))
        pool = sorted(set(table) | set(prim) | {start})
        for p in rng.sample(pool, max(1, len(pool) // 3)):
            table[p] = [rng.choice(pool) for _ in range(rng.choice([250, 252, 253, 300]))]
        for misere in (False, True):
            sol = solve_game(TableGame(start, table, prim), misere=misere)
            check_against_reference(sol, start, table, prim, misere)
            bsol = solve_game(TableBatch(start, table, prim), misere=misere)
            assert_same_solution(bsol, sol)


def test_hand_checked_ties():
    # 0 -> 1 (WIN), 0 -> 2 (TIE): a TIE at 1.  3 -> 0, 3 -> 4 (LOSS): a WIN.
    # 5 -> 6 <-> 7 (a draw cycle), 5 -> 0: a TIE at 2 (TIE beats DRAW).
    # 8 -> 2, 8 -> 9 -> 10 -> 2: the nearest tie ending, 1 move.
    table = {0: [1, 2], 3: [0, 4], 5: [6, 0], 6: [7], 7: [6], 8: [9, 2], 9: [10], 10: [2],
             11: [3, 5, 8, 0]}
    prim = {1: WIN, 2: TIE, 4: LOSS}
    sol = solve_game(TableGame(11, table, prim))
    got = {p: (sol[p].outcome, sol[p].remoteness) for p in sol.positions}
    assert got == {0: (TIE, 1), 1: (WIN, 0), 2: (TIE, 0), 3: (WIN, 1), 4: (LOSS, 0),
                   5: (TIE, 2), 6: (DRAW, -1), 7: (DRAW, -1), 8: (TIE, 1), 9: (TIE, 2),
                   10: (TIE, 1), 11: (TIE, 2)}       # 11: its move to 3 (a WIN) would lose
    line = sol.line()
    assert len(line) == 3 and line[1] in (0, 8) and line[2] == 2
    assert sol.line(5) == [5, 0, 2] and sol.best_move(8) == 2 and sol.best_move(6) == 7
    assert sol.counts() == {WIN: 2, LOSS: 1, TIE: 7, DRAW: 2}
    # A TIE successor keeps a position from being a LOSS (0 -> 1 TIE, 0 -> 2 WIN:
    # a TIE); a LOSS successor makes it a WIN all the same (misere: 2 is a LOSS).
    sol = solve_game(TableGame(0, {0: [1, 2], 2: [3]}, {1: TIE}), misere=False)
    assert [tuple(sol[p])[:2] for p in (0, 1, 2, 3)] == [(TIE, 1), (TIE, 0), (WIN, 1),
                                                         (LOSS, 0)]
    sol = solve_game(TableGame(0, {0: [1, 2], 2: [3]}, {1: TIE}), misere=True)
    assert [tuple(sol[p])[:2] for p in (0, 1, 2, 3)] == [(WIN, 2), (TIE, 0), (LOSS, 1),
                                                         (WIN, 0)]


def random_labels(rng, n, kinds):
    return {rng.randrange(n): rng.choice(kinds) for _ in range(rng.randrange(0, n // 3 + 2))} \
        if n else {}


@pytest.mark.parametrize("seed", range(4))
def test_graph_solve_with_tie_labels_against_reference(seed):
    rng = random.Random(8000 + seed)
    for _ in range(150):
        n = rng.randrange(0, 40)
        succ = random_graph(rng, n, rng.randrange(0, 3 * n + 1))
        labels = random_labels(rng, n, rng.choice([(WIN, LOSS, TIE), (TIE,), (TIE, LOSS)]))
        misere = rng.random() < 0.5
        g = GameGraph.from_csr(np.cumsum([0] + [len(s) for s in succ]),
                               [v for s in succ for v in s])
        for lab in (labels, np.array([int(labels.get(v, 0)) for v in range(n)], np.int8)):
            sol = g.solve(misere=misere, labels=lab)
            outcome, rem = solve_rounds_ties(n, succ, misere=misere, labels=labels)
            assert sol.outcome.tolist() == outcome, (succ, labels, misere)
            assert sol.remoteness.tolist() == rem, (succ, labels, misere)
            move = {v: (m if m >= 0 else None) for v, m in enumerate(sol.move.tolist())}
            check_moves_ties(dict(enumerate(succ)), labels, dict(enumerate(outcome)),
                             dict(enumerate(rem)), move)
            for v in range(n):
                if outcome[v] == TIE and v not in labels:
                    assert sol.line(v)[-1] in labels and len(sol.line(v)) == rem[v] + 1


@pytest.mark.parametrize("seed", range(3))
def test_graphs_without_ties_unchanged(seed):
    """Without TIE labels, the answers are those of the old reference (and the
    tie reference agrees with it)."""
    rng = random.Random(9000 + seed)
    for _ in range(150):
        n = rng.randrange(1, 40)
        succ = random_graph(rng, n, rng.randrange(0, 3 * n + 1))
        labels = random_labels(rng, n, (WIN, LOSS)) if rng.random() < 0.5 else None
        misere = rng.random() < 0.5
        old = solve_rounds(n, succ, misere=misere, labels=labels)
        assert solve_rounds_ties(n, succ, misere=misere, labels=labels) == old
        g = GameGraph.from_edges([(u, v) for u in range(n) for v in succ[u]], n=n)
        sol = g.solve(misere=misere, labels=labels)
        assert (sol.outcome.tolist(), sol.remoteness.tolist()) == old
        assert TIE not in sol.outcome.tolist() and sol.counts()[TIE] == 0
        check_moves(n, succ, sol.outcome.tolist(), old[1], sol.move.tolist(), labels=labels)


# ---------------------------------------------------------------------------
# 2. The batch protocol equals the per-position protocol

def assert_same_solution(a, b):
    pa = a.positions.tolist() if isinstance(a.positions, np.ndarray) else list(a.positions)
    pb = b.positions.tolist() if isinstance(b.positions, np.ndarray) else list(b.positions)
    assert pa == pb, "positions numbered differently"
    assert a.outcome.tolist() == b.outcome.tolist()
    assert a.remoteness.tolist() == b.remoteness.tolist()
    assert a.move.tolist() == b.move.tolist()


@pytest.mark.parametrize("batch", [1 << 16, 3, 1])
def test_batch_equals_per_position(batch, monkeypatch):
    """Same random tables (int64 codes, extremes included), both protocols:
    the same positions, numbered alike, the same arrays; several batch sizes."""
    monkeypatch.setattr(grundy.engine.explore, "BATCH", batch)
    rng = random.Random(100 + batch)
    for _ in range(120):
        start, table, prim = random_table(rng, codes=True)
        bgame = TableBatch(start, table, prim)
        for misere in (False, True):
            ref = solve_game(TableGame(start, table, prim), misere=misere)
            sol = solve_game(bgame, misere=misere)
            assert isinstance(sol.positions, np.ndarray) and sol.positions.dtype == np.int64
            assert_same_solution(sol, ref)
            check_against_reference(sol, start, table, prim, misere)
            # max_positions: exactly enough is enough (repeated children are one position).
            n = ref.n_positions
            assert solve_game(bgame, misere=misere, max_positions=n).n_positions == n
            assert solve_game(TableGame(start, table, prim), max_positions=n).n_positions == n
            if n > 1:
                with pytest.raises(MemoryLimitError, match=f"max_positions = {n - 1:,}"):
                    solve_game(bgame, max_positions=n - 1)
                with pytest.raises(MemoryLimitError, match=f"max_positions = {n - 1:,}"):
                    solve_game(TableGame(start, table, prim), max_positions=n - 1)
            for p in rng.sample(ref.positions, min(4, ref.n_positions)):
                assert sol[p] == ref[p] and sol.index(p) == ref.index(p)
                assert sol.best_move(p) == ref.best_move(p)
    if batch == 1:
        assert bgame.calls > 1


def test_batch_large_game_crosses_batches():
    """A batch game of ~200,000 positions (several batches of 2^16) against
    the per-position protocol on the same rules."""
    N = 200_000
    rng = np.random.default_rng(5)
    table_a = rng.integers(0, N, size=N)
    table_b = rng.integers(0, N, size=N)
    prim = np.zeros(N, dtype=np.int8)
    prim[rng.integers(0, N, size=N // 500)] = TIE
    prim[rng.integers(0, N, size=N // 50)] = LOSS

    class Big(BatchGame):
        def start(self):
            return 0

        def moves(self, codes):
            kids = np.stack([table_a[codes], table_b[codes], (codes + 1) % N], axis=1)
            return np.arange(0, 3 * len(codes) + 1, 3), kids.ravel()

        def primitive(self, codes):
            return prim[codes]

    class Small(Game):
        def start(self):
            return 0

        def moves(self, c):
            return [int(table_a[c]), int(table_b[c]), (c + 1) % N]

        def primitive(self, c):
            return {0: None, 2: TIE, -1: LOSS}[int(prim[c])]

    a = solve_game(Big())
    b = solve_game(Small())
    assert a.n_positions > 2 * 65536            # several batches
    assert_same_solution(a, b)
    assert a.counts()[TIE] > 0 and a.counts()[WIN] > 0


# Symmetric games: codes c and c ^ MASK are equivalent (moves and primitive
# values commute with the flip), canonical(c) = c with the MASK bit cleared.

MASK = 1 << 40


def symmetric_table(rng, n):
    """A base table over codes with the MASK bit clear, each move flipping
    the MASK bit of its target at random; the game: moves(c) = the base
    moves of c & ~MASK, each xor (c & MASK)."""
    base = set()
    while len(base) < n:
        base.add((rng.getrandbits(64) - 2 ** 63) & ~MASK)
    base = sorted(base)
    table, prim = {}, {}
    for b in base:
        if rng.random() < 0.85:
            moves = [rng.choice(base) ^ (MASK if rng.random() < 0.5 else 0)
                     for _ in range(rng.randrange(4))]
            if rng.random() < 0.2:
                moves.append(b ^ MASK)                  # to its own mirror image
            if rng.random() < 0.1:
                moves.append(b)
            table[b] = moves
        if rng.random() < 0.2:
            prim[b] = rng.choice([WIN, LOSS, TIE, TIE])
    start = rng.choice(base) ^ (MASK if rng.random() < 0.5 else 0)
    return start, table, prim


class SymmetricGame(Game):
    def __init__(self, start, table, prim):
        self._start, self.table, self.prim = start, table, prim

    def start(self):
        return self._start

    def moves(self, c):
        flip = c & MASK
        return [x ^ flip for x in self.table.get(c & ~MASK, [])]

    def primitive(self, c):
        return self.prim.get(c & ~MASK)


class CanonicalSymmetricGame(SymmetricGame):
    def canonical(self, c):
        return c & ~MASK


class SymmetricBatch(TableBatch):
    def __init__(self, start, table, prim):
        table = dict(table)
        for moves in list(table.values()):
            for x in moves:
                table.setdefault(x & ~MASK, [])         # every base code has a row
        super().__init__(start & ~MASK, table, prim)
        self._start = start
        self.keys_mask = np.int64(~MASK)

    def moves(self, codes):
        offsets, children = super().moves(codes & self.keys_mask)
        flip = np.repeat(codes & np.int64(MASK), np.diff(offsets))
        return offsets, children ^ flip

    def primitive(self, codes):
        return super().primitive(codes & self.keys_mask)


class CanonicalSymmetricBatch(SymmetricBatch):
    def canonical(self, codes):
        assert codes.dtype == np.int64
        return codes & self.keys_mask


@pytest.mark.parametrize("seed", range(3))
def test_canonical_agrees_with_full_solve(seed, monkeypatch):
    """The symmetric game solved whole, and its quotient solved through
    ``canonical``, per position and in batches: each position's class has the
    position's outcome and remoteness; batch and per-position agree exactly."""
    monkeypatch.setattr(grundy.engine.explore, "BATCH", [1 << 16, 2, 5][seed])
    rng = random.Random(300 + seed)
    for _ in range(80):
        start, table, prim = symmetric_table(rng, rng.choice([1, 2, 4, 8, 15, 25]))
        for misere in (False, True):
            full = solve_game(SymmetricGame(start, table, prim), misere=misere)
            full_table = {}                       # the same game as an explicit table
            for c in full.positions:
                full_table[c] = SymmetricGame(start, table, prim).moves(c)
            full_prim = {c: prim[c & ~MASK] for c in full.positions if (c & ~MASK) in prim}
            check_against_reference(full, start, full_table, full_prim, misere)
            full_b = solve_game(SymmetricBatch(start, table, prim), misere=misere)
            assert_same_solution(full_b, full)
            # The symmetry itself: c and its mirror image have one value.
            for c in full.positions:
                if (c ^ MASK) in full.positions:
                    assert full[c][:2] == full[c ^ MASK][:2]

            quot = solve_game(CanonicalSymmetricGame(start, table, prim), misere=misere)
            quot_b = solve_game(CanonicalSymmetricBatch(start, table, prim), misere=misere)
            assert_same_solution(quot_b, quot)
            assert set(quot.positions) == {c & ~MASK for c in full.positions}
            assert quot.start == start & ~MASK
            for c in full.positions:
                assert quot[c][:2] == full[c][:2], (c, start, table, prim, misere)
                assert quot_b[c][:2] == full[c][:2]
                assert quot.index(c) == quot.index(c ^ MASK) == quot_b.index(c)
            # Best moves of the quotient: canonical images of legal moves, keeping the value.
            for r in quot.positions:
                m = quot.best_move(r)
                o, rr = quot[r][:2]
                if m is NO_MOVE:
                    assert r in prim or not table.get(r)
                    continue
                assert m in {x & ~MASK for x in table.get(r, [])}
                assert keeps_value(o, rr, *quot[m][:2]), (r, quot[r], m, quot[m])


# ---------------------------------------------------------------------------
# 3. Per-position: with and without canonical (a symmetry of another kind)

class Pairs(Game):
    """Positions (a, b), a, b in 0..n: a move lowers one coordinate by 1 or 2,
    or (once each way) swaps them when a + b is odd and a != b (a cycle);
    (0, 0) is a TIE, (0, k) for k % 3 == 1 a LOSS for the player to move."""

    def __init__(self, n, sym):
        self.n = n
        if sym:
            self.canonical = lambda p: tuple(sorted(p))

    def start(self):
        return (self.n, self.n - 1)

    def moves(self, p):
        a, b = p
        out = [(a - k, b) for k in (1, 2) if a >= k] + [(a, b - k) for k in (1, 2) if b >= k]
        if (a + b) % 2 and a != b:
            out.append((b, a))
        return out

    def primitive(self, p):
        if p == (0, 0):
            return TIE
        if min(p) == 0 and max(p) % 3 == 1:
            return LOSS
        return None


@pytest.mark.parametrize("n", [1, 2, 5, 9, 14])
def test_per_position_canonical_agrees(n):
    for misere in (False, True):
        full = solve_game(Pairs(n, False), misere=misere)
        quot = solve_game(Pairs(n, True), misere=misere)
        assert all(a <= b for a, b in quot.positions)
        assert quot.n_positions < full.n_positions or n < 2
        for p in full.positions:
            assert quot[p][:2] == full[p][:2], (n, p, misere)
            assert quot[p] == quot[p[::-1]]
        # And the full solve against the reference.
        g = Pairs(n, False)
        succ, labels = explore_positions(g.start(), g.moves, g.primitive)
        ref_o, ref_r = solve_positions(succ, labels, misere=misere)
        assert {p: full[p][:2] for p in succ} == {p: (ref_o[p], ref_r[p]) for p in succ}
        # Canonical starts: solve_game(start=...) of a non-canonical start.
        q2 = solve_game(Pairs(n, True), start=(n - 1, n), misere=misere)
        assert q2.start == (n - 1, n)
        assert q2[(n, n - 1)][:2] == full[(n, n - 1)][:2]


# ---------------------------------------------------------------------------
# 4. Depth: a million moves

class Chain(Game):
    def __init__(self, n, end=LOSS):
        self.n, self.end = n, end

    def start(self):
        return self.n

    def moves(self, k):
        return (k - 1,)

    def primitive(self, k):
        return self.end if k == 0 else None


def test_chain_a_million_deep():
    n = 10 ** 6
    sol = solve_game(Chain(n, end=LOSS))
    assert sol.n_positions == n + 1
    assert sol[n] == (LOSS, n, n - 1)
    assert sol[n - 1] == (WIN, n - 1, n - 2)
    assert sol[0] == (LOSS, 0, NO_MOVE)
    line = sol.line()
    assert len(line) == n + 1 and line[-1] == 0


def test_chain_a_million_deep_to_a_tie():
    n = 10 ** 6
    sol = solve_game(Chain(n, end=TIE), misere=True)
    assert sol[n] == (TIE, n, n - 1)
    assert sol.counts() == {WIN: 0, LOSS: 0, TIE: n + 1, DRAW: 0}
    assert np.array_equal(sol.remoteness, np.arange(n, -1, -1))


# ---------------------------------------------------------------------------
# 5. Bad input: the method and the position named, never a crash or a hang

class Boom(Exception):
    pass


class Rules(Game):
    """Counts up from 0; at position ``at`` a method misbehaves."""

    def __init__(self, at=3, moves_gives=None, prim_gives=None, start_gives=0, raise_in=None):
        self.at, self.moves_gives, self.prim_gives = at, moves_gives, prim_gives
        self.start_gives, self.raise_in = start_gives, raise_in
        self.error = Boom(f"the rules fail at {at}")

    def start(self):
        return self.start_gives

    def moves(self, p):
        if p == self.at:
            if self.raise_in == "moves":
                raise self.error
            if self.moves_gives is not None:
                return self.moves_gives
        return [p + 1] if p < 10 else []

    def primitive(self, p):
        if p == self.at:
            if self.raise_in == "primitive":
                raise self.error
            if self.prim_gives is not None:
                return self.prim_gives
        return None


@pytest.mark.parametrize("method", ["moves", "primitive"])
def test_user_exceptions_propagate_unchanged(method):
    game = Rules(raise_in=method)
    with pytest.raises(Boom, match="the rules fail at 3") as info:
        solve_game(game)
    assert info.value is game.error
    assert solve_game(Rules())[0] == (LOSS, 10, 1)         # the rules, well behaved


@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(moves_gives=5), TypeError, r"moves\(3\).*iterable.*5"),
    (dict(moves_gives=object()), TypeError, r"moves\(3\).*iterable.*object"),
    (dict(moves_gives="abc"), TypeError, r"moves\(3\).*iterable.*'abc'"),
    (dict(moves_gives=b"ab"), TypeError, r"moves\(3\).*iterable"),
    (dict(moves_gives=[[4, 5]]), TypeError, r"moves\(3\) gave \[4, 5\].*not hashable"),
    (dict(moves_gives=[4, {}]), TypeError, r"moves\(3\) gave \{\}.*not hashable"),
    (dict(start_gives=[0]), TypeError, r"start\(\) gave \[0\].*not hashable"),
    (dict(prim_gives=5), TypeError, r"primitive\(3\) returned 5.*WIN, LOSS, TIE or None"),
    (dict(prim_gives=DRAW), TypeError, r"primitive\(3\) returned (DRAW|0)\b"),
    (dict(prim_gives="WIN"), TypeError, r"primitive\(3\) returned 'WIN'"),
    (dict(prim_gives=[1]), TypeError, r"primitive\(3\) returned \[1\]"),
    (dict(prim_gives=2.5), TypeError, r"primitive\(3\) returned 2\.5"),
], ids=["int", "object", "str", "bytes", "list-child", "dict-child", "list-start", "prim-5",
        "prim-DRAW", "prim-str", "prim-list", "prim-float"])
def test_bad_rules_name_method_and_position(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        solve_game(Rules(**kwargs))


@pytest.mark.parametrize("value", [True, 1.0, 2.0, -1.0], ids=repr)
def test_primitive_bool_or_float_is_not_an_outcome(value):
    """``True`` or ``1.0`` is not an outcome: they compare (and hash) equal to
    WIN, but they are the wrong kind of thing, refused like ``check_int``
    refuses them everywhere else (and like the batch protocol refuses bool and
    float arrays)."""
    with pytest.raises(TypeError, match=rf"primitive\(3\) returned {re.escape(repr(value))}"):
        solve_game(Rules(prim_gives=value))


def test_bad_canonical_named():
    class BadCanon(Rules):
        def canonical(self, p):
            return [p] if p == 3 else p
    with pytest.raises(TypeError, match=r"canonical.*moves\(2\).*\[3\].*not hashable"):
        solve_game(BadCanon())


def test_game_without_methods():
    class NoMoves:
        def start(self):
            return 0

    class NoStart:
        def moves(self, p):
            return []

    with pytest.raises(TypeError, match=r"moves\(\)"):
        solve_game(NoMoves())
    with pytest.raises(TypeError, match=r"start\(\)"):
        solve_game(NoStart())
    assert solve_game(NoStart(), start=7)[7] == (LOSS, 0, NO_MOVE)
    with pytest.raises(TypeError, match=r"moves\(\)"):
        solve_game(object(), start=1)
    with pytest.raises(NotImplementedError, match=r"moves\(position\)"):
        solve_game(Game(), start=1)
    with pytest.raises(TypeError, match="misere"):
        solve_game(Rules(), misere="yes")


class BadBatch(BatchGame):
    """Codes 0..9 count up; ``fault`` spoils one answer about the code 5."""

    def __init__(self, fault=None, canon=False):
        self.fault = fault
        if canon:
            self.canonical = self._canonical

    def start(self):
        return 0

    def primitive(self, codes):
        out = np.zeros(len(codes), dtype=np.int8)
        if 5 in codes:
            if self.fault == "prim-float":
                return out.astype(np.float64)
            if self.fault == "prim-long":
                return np.zeros(len(codes) + 1, dtype=np.int8)
            if self.fault == "prim-2d":
                return out[:, None]
            if self.fault == "prim-3":
                out[codes == 5] = 3
            if self.fault == "prim-raise":
                raise Boom("primitive of 5")
        return out

    def moves(self, codes):
        offsets = np.zeros(len(codes) + 1, dtype=np.int64)
        np.cumsum(codes < 9, out=offsets[1:])
        children = codes[codes < 9] + 1
        if 5 not in codes:
            return offsets, children
        f = self.fault
        if f == "list":
            return [offsets, children]
        if f == "triple":
            return offsets, children, children
        if f == "offsets-long":
            return np.append(offsets, offsets[-1]), children
        if f == "offsets-start":
            return offsets + 1, np.append(children, children[:1])
        if f == "offsets-end":
            return offsets, children[:-1]
        if f == "children-float":
            return offsets, children.astype(np.float64)
        if f == "offsets-float":
            return offsets.astype(np.float64), children
        if f == "children-2d":
            return offsets, children[:, None]
        if f == "moves-raise":
            raise Boom("moves of 5")
        return offsets, children

    def _canonical(self, codes):
        if self.fault == "canon-long" and 5 in codes:
            return np.append(codes, 0)
        if self.fault == "canon-float" and 5 in codes:
            return codes.astype(np.float64)
        return codes


@pytest.mark.parametrize("fault, canon, exc, match", [
    ("prim-float", False, TypeError, r"primitive\(codes\).*int8.*float64"),
    ("prim-long", False, TypeError, r"primitive\(codes\).*shape \(2,\)"),
    ("prim-2d", False, TypeError, r"primitive\(codes\).*shape \(1, 1\)"),
    ("prim-3", False, ValueError, r"primitive\(codes\) gave 3 for the code 5\b"),
    ("list", False, TypeError, r"moves\(codes\) must return \(offsets, children\)"),
    ("triple", False, TypeError, r"moves\(codes\) must return \(offsets, children\)"),
    ("offsets-long", False, ValueError, r"moves\(codes\): offsets has 3 entries, expected 2"),
    ("offsets-start", False, ValueError, r"moves\(codes\): offsets must start at 0"),
    ("offsets-end", False, ValueError, r"moves\(codes\): offsets.*len\(children\) = 0"),
    ("children-float", False, TypeError, r"moves\(codes\): children must be an int64 array"),
    ("offsets-float", False, TypeError, r"moves\(codes\): offsets must be an int64 array"),
    ("children-2d", False, ValueError, r"moves\(codes\): children must be 1-dimensional"),
    ("canon-long", True, ValueError, r"canonical\(children\) has 2 entries, expected 1"),
    ("canon-float", True, TypeError, r"canonical\(children\) must be an int64 array"),
])
def test_bad_batch_answers_name_the_method(fault, canon, exc, match):
    with pytest.raises(exc, match=match):
        solve_game(BadBatch(fault, canon))


def test_batch_offsets_decrease_in_a_bigger_batch(monkeypatch):
    class Fan(BatchGame):
        def start(self):
            return 0

        def moves(self, codes):
            if len(codes) == 1:
                return np.array([0, 3]), np.array([1, 2, 3])
            return np.array([0, 2, 1, 2]), np.array([0, 0])      # 2 -> 1: decreasing
    with pytest.raises(ValueError, match=r"moves\(codes\): offsets must .*never decrease"):
        solve_game(Fan())


def test_batch_start_and_canonical_of_start():
    class Start(BadBatch):
        def start(self):
            return 2 ** 63

    with pytest.raises((TypeError, ValueError), match=r"start\(\)"):
        solve_game(Start())
    with pytest.raises((TypeError, ValueError), match=r"start\(\)"):
        solve_game(BadBatch(), start="0")

    class CanonStart(BadBatch):
        def canonical(self, codes):
            return np.array([1, 2])
    with pytest.raises(ValueError, match=r"canonical\(\[0\]\) has 2 entries, expected 1"):
        solve_game(CanonStart())


@pytest.mark.parametrize("fault", ["moves-raise", "prim-raise"])
def test_batch_user_exceptions_propagate(fault):
    with pytest.raises(Boom, match="of 5"):
        solve_game(BadBatch(fault))
    assert solve_game(BadBatch())[0] == (WIN, 9, 1)


class Endless(Game):
    def start(self):
        return 0

    def moves(self, n):
        return [n + 1, n + 2]


class EndlessBatch(BatchGame):
    def start(self):
        return 0

    def moves(self, codes):
        kids = np.stack([2 * codes + 1, 2 * codes + 2], axis=1).ravel()
        return np.arange(0, 2 * len(codes) + 1, 2), kids

    def primitive(self, codes):
        return np.zeros(len(codes), dtype=np.int8)


@pytest.mark.parametrize("game", [Endless(), EndlessBatch()], ids=["per-position", "batch"])
def test_limits(game):
    with pytest.raises(MemoryLimitError, match=r"max_positions = 1,000\b"):
        solve_game(game, max_positions=1000)
    # An endless game within a memory limit: refused while exploring.
    with pytest.raises(MemoryLimitError, match=r"explor"):
        solve_game(game, max_memory=20 * 2 ** 20)
    # A small game, a tiny limit: refused (by the exploration or the solve).
    with pytest.raises(MemoryLimitError):
        solve_game(Chain(50) if isinstance(game, Game) else BadBatch(), max_memory=100)
    # Exactly max_positions positions: fine.
    assert solve_game(Chain(9), max_positions=10)[9][:2] == (WIN, 9)
    with pytest.raises(MemoryLimitError, match="max_positions"):
        solve_game(Chain(10), max_positions=10)
    assert solve_game(BadBatch(), max_positions=10).n_positions == 10
    with pytest.raises(MemoryLimitError, match="max_positions"):
        solve_game(BadBatch(), max_positions=9)
    with pytest.raises((TypeError, ValueError), match="max_positions"):
        solve_game(game, max_positions=0)


# Ctrl-C: in a child process, SIGINT after about a second.

BUSY, CTRL_C_LIMIT = 1.0, 2.0

_SIGINT_CHILD = r'''
import json, os, signal, threading, time
import numpy as np
from grundy import *
{setup}
t = [None]
def fire():
    time.sleep({busy})
    t[0] = time.monotonic()
    os.kill(os.getpid(), signal.SIGINT)
threading.Thread(target=fire, daemon=True).start()
try:
    {call}
    report = dict(interrupted=False)
except KeyboardInterrupt:
    report = dict(interrupted=True, latency=time.monotonic() - t[0])
    try:
        report["usable"] = {check}
    except Exception as e:
        report["usable"] = repr(e)
print("@@" + json.dumps(report))
'''

_ENDLESS = '''
class Far(Game):
    def start(self):
        return 0
    def moves(self, n):
        return [n + 1, n + 2] if n < 10 ** 9 else []
game = Far()
'''

_ENDLESS_BATCH = '''
LEVEL = 1 << 20
class Wide(BatchGame):
    """Level k holds codes k * LEVEL + i; every code has two moves to the next
    level, the last one (10 ** 6) has none."""
    def start(self):
        return 0
    def moves(self, codes):
        k, i = codes // LEVEL, codes % LEVEL
        nxt = (k + 1) * LEVEL
        kids = np.stack([nxt + (7 * i + 1) % LEVEL, nxt + (13 * i + 5) % LEVEL], axis=1)
        keep = k < 10 ** 6
        offsets = np.zeros(len(codes) + 1, dtype=np.int64)
        np.cumsum(np.where(keep, 2, 0), out=offsets[1:])
        return offsets, kids[keep].ravel()
    def primitive(self, codes):
        return np.zeros(len(codes), dtype=np.int8)
game = Wide()
'''


def run_sigint(setup, call, check):
    src = _SIGINT_CHILD.format(setup=setup, call=call, check=check, busy=BUSY)

    def pre():
        resource.setrlimit(resource.RLIMIT_AS, (6 * 2 ** 30, 6 * 2 ** 30))

    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    try:
        proc = subprocess.run([PY, "-c", src], capture_output=True, timeout=BUSY + 15,
                              preexec_fn=pre, env=env, cwd=tempfile.gettempdir())
    except subprocess.TimeoutExpired:
        pytest.fail("no KeyboardInterrupt: the child was still running (killed)")
    out = proc.stdout.decode(errors="replace")
    lines = [x for x in out.splitlines() if x.startswith("@@")]
    assert lines, f"the child died: exit {proc.returncode}, {proc.stderr.decode()[-800:]}"
    return json.loads(lines[-1][2:])


@pytest.mark.parametrize("setup, call, check", [
    (_ENDLESS, "solve_game(game)",
     "[tuple(solve_game(game, start=10 ** 9 - 3)[10 ** 9 - k][:2]) for k in (3, 2, 1, 0)]"),
    (_ENDLESS_BATCH, "solve_game(game)",
     "[tuple(solve_game(game, start=(10 ** 6 - 3) * LEVEL + 5)[(10 ** 6 - k) * LEVEL + 5][:2])"
     " for k in (3,)] + [tuple(solve_game(game, start=(10 ** 6 - 1) * LEVEL)[10 ** 6 * LEVEL + 1][:2])]"),
], ids=["per-position", "batch"])
def test_ctrl_c_while_exploring(setup, call, check):
    rep = run_sigint(setup, call, check)
    assert rep["interrupted"], "the exploration finished before the SIGINT, or swallowed it"
    assert rep["latency"] < CTRL_C_LIMIT, f"KeyboardInterrupt {rep['latency']:.2f} s after SIGINT"
    if "LEVEL" in setup:
        assert rep["usable"] == [[int(WIN), 3], [int(LOSS), 0]], rep["usable"]
    else:
        assert rep["usable"] == [[int(LOSS), 2], [int(WIN), 1], [int(WIN), 1], [int(LOSS), 0]], \
            rep["usable"]


# -- found by review ---------------------------------------------------------------------

def test_graph_source_through_the_generic_driver():
    import grundy
    from grundy._core.csr import CSRSource

    sol = grundy.solve_source(CSRSource(np.array([0, 1, 2, 2]), np.array([1, 2])))
    assert sol.outcome.tolist() == [-1, 1, -1] and sol.move.tolist() == [1, 2, -1]
    # Labels are the plug-in's primitive values: a labelled vertex ends the game.
    sol = grundy.solve_source(CSRSource(np.array([0, 1, 2, 2]), np.array([1, 2]),
                                        np.array([0, 1, 0], np.int8)))
    assert sol.outcome.tolist() == [-1, 1, -1] and sol.move.tolist() == [1, -1, -1]


def test_move_function_may_not_call_back_into_its_game():
    from grundy import ImpartialGame

    box = {}

    def moves(n):
        if n == 5:
            box["game"].value(3)
        return [n - s for s in (1, 2) if s <= n]

    box["game"] = game = ImpartialGame(moves)
    with pytest.raises(RuntimeError, match="called back into the ImpartialGame"):
        game.value(6)
    assert game.value(4) == 1 and game.n_explored == 5      # still usable


def test_exploration_memory_counts_the_moves():
    from grundy import MemoryLimitError

    class Wide(Game):            # 2,000 positions with 2,000 moves each: 32 MB of moves
        def start(self):
            return 0

        def moves(self, p):
            return range(2000)

    with pytest.raises(MemoryLimitError, match="moves so far"):
        solve_game(Wide(), max_memory=20 * 2 ** 20)


def test_game_solutions_pickle_read_only():
    import pickle

    class Chain(Game):
        def start(self):
            return 3

        def moves(self, p):
            return [p - 1] if p else []

        def primitive(self, p):
            return TIE if p == 0 else None

    for sol in (solve_game(Chain()), solve_game(_CodesChain())):
        again = pickle.loads(pickle.dumps(sol))
        assert again.positions[0] == 3 and again[3] == sol[3]
        for name in ("outcome", "remoteness", "move"):
            arr = getattr(again, name)
            assert not arr.flags.writeable and np.array_equal(arr, getattr(sol, name))
    with pytest.raises(TypeError, match="does not support item assignment"):
        solve_game(Chain()).positions[0] = 5           # a tuple
    import grundy
    with pytest.raises(TypeError, match="holds a compiled game, which cannot be pickled"):
        pickle.dumps(grundy.solve_source(grundy.PoliceThief(["PT"]).move_source()))


class _CodesChain(BatchGame):
    def start(self):
        return 3

    def moves(self, codes):
        keep = codes > 0
        return np.concatenate([[0], np.cumsum(keep)]), codes[keep] - 1

    def primitive(self, codes):
        return np.where(codes == 0, TIE, 0).astype(np.int8)


def test_game_solution_from_codes_with_a_scalar_canonical():
    from grundy import GameGraph, GameSolution

    g = GameGraph.from_edges([(0, 1)])
    sol = GameSolution(g, np.array([10, 11]), [1, -1], [1, 0], [1, -1],
                       canonical=lambda p: 10 + p % 10)
    assert sol.index(21) == 1 and sol[20].outcome == WIN


def test_batch_memory_estimate_counts_new_codes_only_when_it_matters():
    """Millions of moves among few positions: the bound "every child is new"
    would refuse, the count of the new codes does not (and a real excess is
    still refused)."""
    class Dense(BatchGame):          # 2,000 positions, each moving to all of them
        def start(self):
            return 0

        def moves(self, codes):
            return (np.arange(len(codes) + 1) * 2000,
                    np.tile(np.arange(2000, dtype=np.int64), len(codes)))

        def primitive(self, codes):
            return np.zeros(len(codes), dtype=np.int8)

    sol = solve_game(Dense(), max_memory=200 * 2 ** 20)
    assert sol.n_positions == 2000 and sol.counts()[DRAW] == 2000
    with pytest.raises(MemoryLimitError):
        solve_game(Dense(), max_memory=20 * 2 ** 20)
    with pytest.raises(MemoryLimitError, match="max_positions = 1,999"):
        solve_game(Dense(), max_positions=1999)
