"""Generalized Sprague-Grundy values against the staged definition, solve()
and product graphs."""
import itertools
import random

import numpy as np
import pytest

from grundy import (DRAW, LOSS, WIN, GameGraph, ImpartialGame, LoopyValue,
                    Sum, loopy_sum)
from conftest import random_graph
from reference import INF, loopy_staged


def as_values(lv):
    return [(INF, lv.k(v)) if lv.infinite[v] else int(lv.finite[v]) for v in range(len(lv))]


@pytest.mark.parametrize("seed", range(20))
def test_against_staged_definition_and_solve(seed):
    rng = random.Random(seed)
    for _ in range(100):
        n = rng.randrange(0, 40)
        succ = random_graph(rng, n, rng.randrange(0, 3 * n + 1))
        g = GameGraph.from_adjacency(succ)
        lv = g.loopy_values()
        assert as_values(lv) == loopy_staged(n, succ)
        assert lv.outcome.tolist() == g.solve().outcome.tolist()
        assert lv.stages <= (int(lv.finite.max()) if n else -1) + 2
        for v in range(n):
            assert lv[v].outcome == lv.outcome[v]


def test_dags_equal_grundy():
    rng = random.Random(9)
    for _ in range(200):
        n = rng.randrange(1, 50)
        succ = [[w for w in rng.sample(range(v + 1, n), min(n - v - 1, rng.randrange(4)))]
                for v in range(n)]
        g = GameGraph.from_adjacency(succ)
        lv = g.loopy_values()
        assert not lv.infinite.any()
        assert lv.finite.tolist() == g.values().tolist()


def test_worked_example():
    g = GameGraph.from_adjacency({"a": ["b"], "b": ["c"], "c": ["a", "d"], "d": ["e"], "e": []})
    lv = g.loopy_values()
    assert lv["e"] == LoopyValue(0) and lv["d"] == LoopyValue(1)
    assert lv["a"] == LoopyValue.inf() and lv["b"] == LoopyValue.inf(set())
    assert lv["c"] == LoopyValue.inf({1}) and lv.k("c") == {1}
    assert (lv["c"] + LoopyValue(1)) == LoopyValue.inf({0})
    assert (lv["c"] + LoopyValue(1)).outcome == WIN
    assert (lv["c"] + lv["c"]).outcome == DRAW
    assert (lv["d"] + LoopyValue(1)).outcome == LOSS


def product_graph(graphs):
    """Explicit sum of games: a vertex per tuple of component vertices."""
    sizes = [len(s) for s in graphs]
    verts = list(itertools.product(*[range(k) for k in sizes]))
    index = {v: i for i, v in enumerate(verts)}
    adj = []
    for v in verts:
        row = []
        for c, succ in enumerate(graphs):
            for w in succ[v[c]]:
                row.append(index[v[:c] + (w,) + v[c + 1:]])
        adj.append(row)
    return verts, GameGraph.from_adjacency(adj)


@pytest.mark.parametrize("parts", [2, 3])
def test_sum_rule_against_product_graph(parts):
    rng = random.Random(parts)
    for _ in range(60 if parts == 2 else 25):
        graphs = []
        for _ in range(parts):
            n = rng.randrange(1, 9 if parts == 2 else 6)
            graphs.append(random_graph(rng, n, rng.randrange(0, 2 * n + 1)))
        values = [GameGraph.from_adjacency(s).loopy_values() for s in graphs]
        verts, prod = product_graph(graphs)
        sol = prod.solve()
        lv_prod = prod.loopy_values()
        for i, v in enumerate(verts):
            total = loopy_sum(values[c][v[c]] for c in range(parts))
            assert total.outcome == sol.outcome[i], (graphs, v)
            assert total == lv_prod[i], (graphs, v)


def test_loopy_value_type():
    assert LoopyValue(3) == 3 and LoopyValue(3) != LoopyValue.inf({3})
    assert LoopyValue.inf({0, 2}) + 2 == LoopyValue.inf({2, 0})
    assert 1 + LoopyValue(1) == LoopyValue(0)
    assert LoopyValue.inf() + LoopyValue.inf({0}) == LoopyValue.inf()
    assert repr(LoopyValue.inf({2, 0})) == "LoopyValue.inf({0, 2})"
    assert hash(LoopyValue.inf({1, 2})) == hash(LoopyValue.inf({2, 1}))
    assert LoopyValue(0).outcome == LOSS and LoopyValue(4).outcome == WIN
    assert LoopyValue.inf({0}).outcome == WIN and LoopyValue.inf({1}).outcome == DRAW
    assert LoopyValue(2).k == frozenset() and LoopyValue.inf({5}).finite is None
    assert loopy_sum([]) == LoopyValue(0)
    with pytest.raises(ValueError, match=">= 0, got -1"):
        LoopyValue(-1)
    with pytest.raises(TypeError, match="got 1.5"):
        LoopyValue(1.5)
    with pytest.raises(ValueError, match=">= 0, got -3"):
        LoopyValue.inf({-3})


def test_edge_cases():
    assert GameGraph.from_edges([]).loopy_values().finite.tolist() == []
    lv = GameGraph.from_edges([(0, 0)]).loopy_values()
    assert lv[0] == LoopyValue.inf() and lv.outcome.tolist() == [DRAW]
    lv = GameGraph.from_edges([(0, 0), (0, 1)]).loopy_values()
    assert lv[0] == LoopyValue.inf({0}) and lv.outcome[0] == WIN   # the loop keeps it infinite
    n = 10 ** 6
    cyc = GameGraph.from_csr(np.arange(n + 1), (np.arange(n) + 1) % n)
    assert cyc.loopy_values().infinite.all()
    path = GameGraph.from_csr(np.minimum(np.arange(n + 1), n - 1), np.arange(1, n))
    assert path.loopy_values().finite.tolist() == path.values().tolist()


def test_impartial_game_loopy():
    # A token on a cycle 0 -> 1 -> 2 -> 0 with an exit 2 -> 3 (no moves),
    # and a loop 4 <-> 5 with an exit 5 -> 0.
    moves = {0: [1], 1: [2], 2: [0, 3], 3: [], 4: [5], 5: [4, 0]}
    game = ImpartialGame(lambda p: moves[p])
    assert game.loopy_value(3) == LoopyValue(0)
    # 1 -> 2 only, and 2 can reach 0: 1 is worth 0, so 0 is worth 1 and 2 is worth 2.
    assert [game.loopy_value(p) for p in (0, 1, 2)] == [LoopyValue(1), LoopyValue(0), LoopyValue(2)]
    # Two tokens: the sum rule, checked against the product graph through Sum options.
    assert game.loopy_value(4) == LoopyValue.inf() and game.loopy_value(5) == LoopyValue.inf({1})
    g = GameGraph.from_adjacency([moves[p] for p in range(6)])
    lv = g.loopy_values()
    for a in range(6):
        for b in range(6):
            assert game.loopy_value(Sum(a, b)) == lv[a] + lv[b]
    # A game whose options are sums of loopy games.
    two = ImpartialGame(lambda p: [Sum(p[0], p[1])] if isinstance(p, tuple) else moves[p])
    prod_value = game.loopy_value(Sum(4, 2))
    # (4, 2) has the single option Sum(4, 2): compare with the explicit
    # product graph plus one vertex moving into (4, 2).
    verts, prod = product_graph([[moves[p] for p in range(6)]] * 2)
    adj = [list(prod.indices[prod.indptr[i]:prod.indptr[i + 1]]) for i in range(prod.n_positions)]
    adj.append([verts.index((4, 2))])
    expected = GameGraph.from_adjacency(adj).loopy_values()[len(adj) - 1]
    assert two.loopy_value((4, 2)) == expected
    assert prod_value == lv[4] + lv[2] == LoopyValue.inf()


def test_impartial_game_loopy_on_dag_matches_grundy():
    def kayles(n):
        return [Sum(a, n - k - a) for k in (1, 2) for a in range(n - k + 1)]
    game = ImpartialGame(kayles)
    for n in range(12):
        assert game.loopy_value(n) == LoopyValue(game.value(n))
