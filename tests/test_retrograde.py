"""The retrograde kernel (GameGraph.solve) against the round-by-round reference."""
import random

import numpy as np
import pytest

import grundy
from grundy import DRAW, LOSS, WIN, GameGraph

from conftest import random_graph
from reference import check_moves, solve_rounds


def edges_of(succ):
    return [(u, v) for u in range(len(succ)) for v in succ[u]]


def check(succ, misere=False, labels=None):
    n = len(succ)
    g = GameGraph.from_adjacency(succ)
    sol = g.solve(misere=misere, labels=labels)
    outcome, rem = solve_rounds(n, succ, misere=misere, labels=labels)
    assert sol.outcome.tolist() == outcome
    assert sol.remoteness.tolist() == rem
    check_moves(n, succ, sol.outcome.tolist(), rem, sol.move.tolist(), labels=labels)
    return sol


@pytest.mark.parametrize("seed", range(30))
def test_random_graphs_against_reference(seed):
    rng = random.Random(seed)
    for _ in range(100):
        n = rng.randrange(0, 61)
        m = rng.randrange(0, 3 * n + 1)
        succ = random_graph(rng, n, m)
        labels = None
        if n and rng.random() < 0.4:
            labels = {rng.randrange(n): rng.choice([WIN, LOSS]) for _ in range(rng.randrange(1, 5))}
        check(succ, misere=rng.random() < 0.5, labels=labels)


def test_empty_graph():
    sol = GameGraph.from_edges([]).solve()
    assert len(sol) == 0 and sol.outcome.dtype == np.int8
    assert sol.remoteness.dtype == np.int64 and sol.move.dtype == np.int64


def test_one_vertex_both_conventions():
    g = GameGraph.from_edges([], n=1)
    assert g.solve().outcome.tolist() == [LOSS]
    assert g.solve(misere=True).outcome.tolist() == [WIN]
    assert g.solve().remoteness.tolist() == [0]
    assert g.solve().move.tolist() == [grundy.NO_MOVE]


def test_self_loop_is_a_draw():
    sol = GameGraph.from_edges([(0, 0)]).solve()
    assert sol.outcome.tolist() == [DRAW]
    assert sol.remoteness.tolist() == [-1]
    assert sol.move.tolist() == [0]
    assert sol.line(0) == [0, 0]


def test_self_loop_with_an_exit():
    # 0 -> 0, 0 -> 1 (terminal): moving to 1 wins.
    sol = check([[0, 1], []])
    assert sol.outcome.tolist() == [WIN, LOSS]


def test_multi_edges_count_each_move():
    # 0 -> 1 twice, 1 -> 2 (terminal).  1 is a WIN, so 0 is a LOSS.
    sol = check([[1, 1], [2], []])
    assert sol.outcome.tolist() == [LOSS, WIN, LOSS]
    assert sol.remoteness.tolist() == [2, 1, 0]


def test_loser_delays_winner_hurries():
    # 0 has two moves: to 1 (WIN in 1) and to 2 (WIN in 3): all WIN, loser picks 2.
    succ = [[1, 2], [5], [3], [4], [5], []]
    sol = check(succ)
    assert sol.outcome[0] == LOSS and sol.remoteness[0] == 4 and sol.move[0] == 2
    # 6 can move to 0 (LOSS in 4) or 5 (LOSS in 0): it hurries to 5.
    succ.append([0, 5])
    sol = check(succ)
    assert sol.outcome[6] == WIN and sol.remoteness[6] == 1 and sol.move[6] == 5


def test_labels_make_vertices_terminal():
    # 0 -> 1 -> 2; label 1 as LOSS: its own move is ignored.
    g = GameGraph.from_edges([(0, 1), (1, 2)])
    sol = g.solve(labels={1: LOSS})
    assert sol.outcome.tolist() == [WIN, LOSS, LOSS]
    assert sol.move.tolist() == [1, -1, -1]
    arr = np.array([0, -1, 0], dtype=np.int8)
    assert g.solve(labels=arr).outcome.tolist() == [WIN, LOSS, LOSS]
    assert g.solve(labels={1: WIN}).outcome.tolist() == [LOSS, WIN, LOSS]


def test_labels_accept_outcome_and_int():
    g = GameGraph.from_edges([(0, 1)])
    assert g.solve(labels={1: 1}).outcome.tolist() == g.solve(labels={1: WIN}).outcome.tolist()


def test_line_is_consistent_with_remoteness():
    rng = random.Random(7)
    for _ in range(200):
        n = rng.randrange(1, 40)
        succ = random_graph(rng, n, rng.randrange(0, 2 * n))
        sol = GameGraph.from_adjacency(succ).solve(misere=rng.random() < 0.5)
        for v in range(n):
            line = sol.line(v)
            assert line[0] == v
            for a, b in zip(line, line[1:]):
                assert b in succ[a]
            if sol.outcome[v] == DRAW:
                assert line[-1] in line[:-1]
                assert len(set(line)) == len(line) - 1
                assert all(sol.outcome[x] == DRAW for x in line)
            else:
                assert len(line) == sol.remoteness[v] + 1
                assert sol.move[line[-1]] == -1
                # Outcomes alternate along the line.
                for i, x in enumerate(line):
                    assert sol.outcome[x] == (sol.outcome[v] if i % 2 == 0 else -sol.outcome[v])


def test_every_constructor_gives_the_same_answer():
    sp = pytest.importorskip("scipy.sparse")
    nx = pytest.importorskip("networkx")
    rng = random.Random(3)
    for _ in range(50):
        n = rng.randrange(1, 30)
        # No multi-edges here: scipy and DiGraph merge them.
        succ = [sorted(set(s)) for s in random_graph(rng, n, rng.randrange(0, 3 * n))]
        edges = edges_of(succ)
        indptr = np.cumsum([0] + [len(s) for s in succ])
        indices = [v for s in succ for v in s]
        mat = sp.csr_matrix((np.ones(len(edges)), ([e[0] for e in edges], [e[1] for e in edges])),
                            shape=(n, n))
        dg = nx.DiGraph()
        dg.add_nodes_from(range(n))
        dg.add_edges_from(edges)
        graphs = [
            GameGraph.from_edges(edges, n=n),
            GameGraph.from_edges(np.array(edges, dtype=np.int32).reshape(-1, 2), n=n),
            GameGraph.from_edges(iter(edges), n=n),
            GameGraph.from_adjacency(succ),
            GameGraph.from_csr(indptr, indices),
            GameGraph.from_scipy(mat),
            GameGraph.from_scipy(sp.csr_array(mat)),
            GameGraph.from_scipy(mat.tocoo()),
            GameGraph.from_networkx(dg),
        ]
        expected = solve_rounds(n, succ)
        for g in graphs:
            assert g.n_nodes == n and g.n_edges == len(edges)
            sol = g.solve()
            assert (sol.outcome.tolist(), sol.remoteness.tolist()) == expected


def test_networkx_names_and_labels():
    nx = pytest.importorskip("networkx")
    dg = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a"), ("c", "end")])
    g = GameGraph.from_networkx(dg)
    assert g.nodes == ("a", "b", "c", "end")
    sol = g.solve()
    assert sol.line("a") == ["a", "b", "c", "end"]
    assert sol["c"] == (WIN, 1, "end")
    sol = g.solve(labels={"end": WIN})
    assert sol["c"][0] == DRAW
    with pytest.raises(ValueError, match="'zzz' is not a node"):
        g.solve(labels={"zzz": WIN})


def test_networkx_multigraph_and_undirected():
    nx = pytest.importorskip("networkx")
    mg = nx.MultiDiGraph([(0, 1), (0, 1), (1, 2)])
    assert GameGraph.from_networkx(mg).n_edges == 3
    ug = nx.Graph([(0, 1)])
    g = GameGraph.from_networkx(ug)
    assert g.n_edges == 2 and g.solve().outcome.tolist() == [DRAW, DRAW]


def test_scipy_explicit_zeros_are_not_moves():
    sp = pytest.importorskip("scipy.sparse")
    mat = sp.csr_matrix((np.array([1.0, 0.0]), np.array([1, 0]), np.array([0, 2, 2])), shape=(2, 2))
    g = GameGraph.from_scipy(mat)
    assert g.n_edges == 1 and g.successors(0) == [1]


def test_arrays_are_read_only():
    g = GameGraph.from_edges([(0, 1)])
    sol = g.solve()
    for arr in (g.indptr, g.indices, sol.outcome, sol.remoteness, sol.move):
        with pytest.raises(ValueError):
            arr[0] = 5


def test_long_path_ten_million():
    n = 10 ** 7
    indptr = np.arange(n + 1, dtype=np.int64)
    indptr[-1] = n - 1
    indices = np.arange(1, n, dtype=np.int64)
    g = GameGraph.from_csr(indptr, indices)
    sol = g.solve()
    # Vertex n-1 is terminal (LOSS); outcomes alternate back to 0.
    v = np.arange(n)
    expected = np.where((n - 1 - v) % 2 == 0, LOSS, WIN)
    assert np.array_equal(sol.outcome, expected)
    assert np.array_equal(sol.remoteness, n - 1 - v)
    assert len(sol.line(n - 100)) == 100


def test_long_cycle_is_all_draws():
    n = 10 ** 6
    g = GameGraph.from_csr(np.arange(n + 1), (np.arange(n) + 1) % n)
    sol = g.solve()
    assert (sol.outcome == DRAW).all() and (sol.remoteness == -1).all()
    assert len(sol.line(0)) == n + 1


def test_counts_and_repr():
    sol = GameGraph.from_edges([(0, 1), (2, 2)]).solve()
    assert sol.counts() == {WIN: 1, LOSS: 1, DRAW: 1}
    assert repr(sol) == "Solution(n=3, WIN=1, LOSS=1, DRAW=1)"


@pytest.mark.parametrize("seed", range(5))
def test_high_out_degree_uses_the_wide_counters(seed):
    # A vertex with more than 253 moves switches the kernel to int64 counters.
    rng = random.Random(seed)
    n = 40
    succ = random_graph(rng, n, 60)
    succ[0] = [rng.randrange(n) for _ in range(300)]
    succ[1] = [2] * 260 + [1]
    check(succ, misere=seed % 2 == 1)
    labels = {3: WIN, 4: LOSS}
    check(succ, labels=labels)
