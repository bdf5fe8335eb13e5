"""Grundy values: dag_grundy and ImpartialGame against naive recursive mex."""
import random
import subprocess
import sys

import numpy as np
import pytest

import grundy
from grundy import (CycleError, GameGraph, ImpartialGame, LOSS, MemoryLimitError, Sum, WIN,
                    grundy_sum)
from reference import grundy_recursive, mex


def random_dag(rng, n, m):
    succ = [[] for _ in range(n)]
    perm = list(range(n))
    rng.shuffle(perm)              # topological order is not the id order
    for _ in range(m):
        if n < 2:
            break
        a, b = sorted(rng.sample(range(n), 2))
        succ[perm[a]].append(perm[b])
    return succ


@pytest.mark.parametrize("seed", range(20))
def test_dag_grundy_against_recursive_mex(seed):
    rng = random.Random(seed)
    for _ in range(50):
        n = rng.randrange(0, 61)
        succ = random_dag(rng, n, rng.randrange(0, 4 * n + 1))
        g = GameGraph.from_adjacency(succ)
        values = g.values()
        assert values.dtype == np.int64
        assert values.tolist() == grundy_recursive(n, succ)
        # solve() agrees: value 0 exactly at the LOSS positions, no draws.
        sol = g.solve()
        assert ((values == 0) == (sol.outcome == LOSS)).all()
        assert ((values != 0) == (sol.outcome == WIN)).all()


def test_grundy_of_nim_heaps():
    # Vertex k moves to every j < k: a Nim heap of size k, worth k.
    n = 300
    g = GameGraph.from_adjacency([list(range(k)) for k in range(n)])
    assert g.values().tolist() == list(range(n))


def test_grundy_edge_cases():
    assert GameGraph.from_edges([]).values().tolist() == []
    assert GameGraph.from_edges([], n=1).values().tolist() == [0]
    assert GameGraph.from_edges([(0, 1), (0, 1)]).values().tolist() == [1, 0]


def test_grundy_long_path_no_recursion():
    n = 10 ** 6
    g = GameGraph.from_csr(np.minimum(np.arange(n + 1), n - 1), np.arange(1, n))
    values = g.values()
    assert values[-1] == 0 and values[-2] == 1 and values[0] == (n - 1) % 2


@pytest.mark.parametrize("edges, cycle", [
    ([(0, 0)], [0]),
    ([(0, 1), (1, 2), (2, 0)], [0, 1, 2]),
    ([(0, 1), (1, 2), (2, 3), (3, 1)], [1, 2, 3]),
])
def test_cycle_error_names_the_cycle(edges, cycle):
    with pytest.raises(CycleError, match=r"loopy_values\(\)") as info:
        GameGraph.from_edges(edges).values()
    assert info.value.cycle == cycle
    assert isinstance(info.value, ValueError)


def test_cycle_error_random_graphs():
    rng = random.Random(1)
    for _ in range(200):
        n = rng.randrange(1, 30)
        succ = [[rng.randrange(n) for _ in range(rng.randrange(3))] for _ in range(n)]
        g = GameGraph.from_adjacency(succ)
        try:
            values = g.values()
        except CycleError as exc:
            cyc = exc.cycle
            assert cyc and all(cyc[(i + 1) % len(cyc)] in succ[cyc[i]] for i in range(len(cyc)))
        else:
            assert values.tolist() == grundy_recursive(n, succ)


# -- sums --------------------------------------------------------------------

def test_grundy_sum_and_errors():
    assert grundy_sum([3, 5, 6]) == 0 and grundy_sum([2 ** 70, 1]) == 2 ** 70 + 1
    with pytest.raises(ValueError, match="value 1 is -1"):
        grundy_sum([1, -1])
    with pytest.raises(TypeError, match="value 0 is 1.5"):
        grundy_sum([1.5])


def test_sum_value_type():
    assert Sum(1, 2) == Sum(2, 1) and hash(Sum(1, 2)) == hash(Sum(2, 1))
    assert Sum(1, 1) != Sum(1)
    assert Sum(Sum(1, 2), 3) == Sum(1, 2, 3)
    assert repr(Sum((1, 2), "a")) == "Sum((1, 2), 'a')"
    assert len(Sum()) == 0 and list(Sum(4, 5)) == [4, 5]
    with pytest.raises(TypeError):
        Sum([1, 2])                     # unhashable position


# -- games from a move function ------------------------------------------------

def subtraction(s):
    return lambda n: [n - k for k in s if k <= n]


def kayles(n):
    return [Sum(a, n - k - a) for k in (1, 2) for a in range(n - k + 1)]


def crosses(n):
    # A cross on cell i of a 1 x n strip forbids i-1 and i+1: lengths i-2 and n-i-1.
    return [Sum(max(i - 2, 0), max(n - i - 1, 0)) for i in range(1, n + 1)]


def naive_values(moves, positions):
    memo = {}

    def value(p):
        if isinstance(p, Sum):
            return grundy_sum(value(c) for c in p)
        if p not in memo:
            memo[p] = mex(value(o) for o in moves(p))
        return memo[p]

    return [value(p) for p in positions]


@pytest.mark.parametrize("moves", [subtraction({1, 3, 4}), subtraction({2, 5}), kayles, crosses])
def test_move_function_games_against_naive(moves):
    game = ImpartialGame(moves)
    assert game.values(range(60)).tolist() == naive_values(moves, range(60))
    # One position at a time, each call valuing only what is new.
    fresh = ImpartialGame(moves)
    assert [fresh.value(n) for n in range(60)] == naive_values(moves, range(60))
    assert [fresh.value(n) for n in range(59, -1, -1)] == naive_values(moves, range(59, -1, -1))


def test_crosses_crosses_seed_values_and_period():
    game = ImpartialGame(crosses)
    values = game.values(range(200)).tolist()
    assert values[:16] == [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5]
    assert all(values[n] == values[n + 34] for n in range(52, 200 - 34))
    assert any(values[n] != values[n + 34] for n in range(0, 52))


def test_kayles_values():
    # Known nim-sequence of Kayles (0.77).
    assert ImpartialGame(kayles).values(range(12)).tolist() == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]


def test_tuple_positions_and_sum_positions():
    # Position = a sorted tuple of Nim heaps; a move reduces one heap.
    def moves(pos):
        return [tuple(sorted(pos[:i] + (k,) + pos[i + 1:])) for i, x in enumerate(pos)
                for k in range(x)]
    game = ImpartialGame(moves)
    assert game.value((3, 5)) == 3 ^ 5
    assert game.value(Sum((3,), (5,))) == 3 ^ 5
    assert game.value(Sum()) == 0
    assert game.value(Sum((2,), (2,))) == 0
    assert game.solve(Sum((2,), (2,)))[Sum((2,), (2,))].outcome == LOSS


def test_winning_moves_and_outcome():
    game = ImpartialGame(subtraction({1, 2}))
    assert [game.value(n) for n in range(7)] == [0, 1, 2, 0, 1, 2, 0]
    assert game.value(6) == 0 and game.winning_moves(6) == []
    assert game.solve(6)[6].outcome == LOSS and game.solve(7)[7].outcome == WIN
    assert game.winning_moves(7) == [6]
    # In a sum, a winning move changes one component to make the xor 0.
    assert game.winning_moves(Sum(4, 2)) == [Sum(2, 2), Sum(4, 1)]
    assert all(game.value(o) == 0 for o in game.winning_moves(Sum(4, 2, 5)))


def test_exploration_visits_each_position_once_and_caches():
    calls = []

    def moves(n):
        calls.append(n)
        return [n - k for k in (1, 2) if k <= n]

    game = ImpartialGame(moves)
    game.value(50)
    assert sorted(calls) == list(range(51))
    game.value(30)
    game.values(range(51))
    assert len(calls) == 51 and game.n_explored == 51
    game.value(60)
    assert len(calls) == 61
    # The loopy exploration reuses the same move-function results.
    assert game.loopy_value(60).finite == game.value(60)
    assert len(calls) == 61


def test_max_memory_on_every_exploring_call():
    # Nim heaps: n has the n moves to 0..n-1, so the heap 3000 is 4.5e6
    # moves, refused under 1 MB by each call; the game stays usable and
    # answers the same afterwards.
    game = ImpartialGame(lambda n: range(n))
    calls = [lambda **kw: game.value(3000, **kw), lambda **kw: game.values([5, 3000], **kw),
             lambda **kw: game.moves(3000, **kw), lambda **kw: game.winning_moves(3000, **kw),
             lambda **kw: game.loopy_value(3000, **kw),
             lambda **kw: game.solve(3000, **kw)]
    for call in calls:
        with pytest.raises(MemoryLimitError, match="more than max_memory"):
            call(max_memory=10 ** 6)
    assert game.n_explored == 0                # each refused exploration was undone
    assert game.value(300, max_memory=10 ** 8) == 300
    assert game.values([5, 30], max_memory=10 ** 8).tolist() == [5, 30]
    assert game.winning_moves(Sum(3, 5), max_memory=10 ** 8) == [Sum(3, 3)]
    assert game.loopy_value(7, max_memory=10 ** 8) == grundy.LoopyValue(7)
    with pytest.raises(TypeError, match="max_memory"):
        game.value(3, max_memory="1G")


def test_deep_game_has_no_recursion_limit():
    game = ImpartialGame(lambda n: [n - 1] if n else [])
    assert game.value(200_000) == 0
    assert game.value(200_001) == 1


def test_cyclic_move_function_raises_cycle_error():
    game = ImpartialGame(lambda n: [(n + 1) % 3, 5] if n < 3 else [])
    with pytest.raises(CycleError, match=r"loopy_value\(\)") as info:
        game.value(0)
    assert info.value.cycle == [0, 1, 2]
    # The failed exploration left nothing half-done behind.
    assert game.n_explored == 0
    assert game.value(5) == 0


def test_move_function_errors():
    with pytest.raises(TypeError, match="moves must be callable"):
        ImpartialGame(5)
    with pytest.raises(TypeError, match=r"moves\(1\) must return an iterable"):
        ImpartialGame(lambda n: 3).value(1)
    with pytest.raises(TypeError, match=r"moves\(1\) gave \[1\], which is not hashable"):
        ImpartialGame(lambda n: [[1]]).value(1)

    def failing(n):
        if n == 3:
            raise RuntimeError("boom")
        return [n + 1]
    game = ImpartialGame(failing)
    with pytest.raises(RuntimeError, match="boom"):
        game.value(0)
    assert game.n_explored == 0


def test_nim_cli():
    proc = subprocess.run([sys.executable, "-m", "grundy", "nim"],
                          input=b"3 4 5\n1 2 3\n\n7\n" + str(2 ** 100).encode() + b" 1\n",
                          capture_output=True, timeout=60)
    assert proc.returncode == 0
    assert proc.stdout.decode().splitlines() == ["WIN 0 1", "LOSS", "LOSS", "WIN 0 0",
                                                 "WIN 0 1"]
    proc = subprocess.run([sys.executable, "-m", "grundy", "nim", "--misere"],
                          input=b"1 1\n1 1 1\n\n5 1\n", capture_output=True, timeout=60)
    assert proc.stdout.decode().splitlines() == ["WIN 0 0", "LOSS", "WIN", "WIN 0 0"]
    for bad, msg in ((b"1 x\n", "line 1: pile 'x' is not an integer"),
                     (b"1\n2 -3\n", "line 2: pile '-3' is negative")):
        proc = subprocess.run([sys.executable, "-m", "grundy", "nim"], input=bad,
                              capture_output=True, timeout=60)
        assert proc.returncode == 2 and proc.stderr.decode().startswith("grundy: error: ")
        assert msg in proc.stderr.decode()
