"""The retrograde kernel (GameGraph.solve) against the round-by-round reference."""
import copy as copy_module
import pickle
import random

import numpy as np
import pytest

import grundy
from grundy import DRAW, LOSS, NO_MOVE, TIE, WIN, GameGraph, ImpartialGame, Sum

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
    assert g.solve().move.tolist() == [-1]          # arrays hold -1 where no move


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
            assert g.n_positions == n and g.n_moves == len(edges)
            sol = g.solve()
            assert (sol.outcome.tolist(), sol.remoteness.tolist()) == expected


def test_networkx_names_and_labels():
    nx = pytest.importorskip("networkx")
    dg = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a"), ("c", "end")])
    g = GameGraph.from_networkx(dg)
    assert g.positions == ("a", "b", "c", "end")
    sol = g.solve()
    assert sol.line("a") == ["a", "b", "c", "end"]
    assert sol["c"] == (WIN, 1, "end")
    assert sol["c"] == grundy.Evaluation(WIN, 1, "end") and sol["c"].move == "end"
    sol = g.solve(labels={"end": WIN})
    assert sol["c"][0] == DRAW and sol["c"].outcome == DRAW
    with pytest.raises(ValueError, match="'zzz' is not a position"):
        g.solve(labels={"zzz": WIN})


def test_networkx_multigraph_and_undirected():
    nx = pytest.importorskip("networkx")
    mg = nx.MultiDiGraph([(0, 1), (0, 1), (1, 2)])
    assert GameGraph.from_networkx(mg).n_moves == 3
    ug = nx.Graph([(0, 1)])
    g = GameGraph.from_networkx(ug)
    assert g.n_moves == 2 and g.solve().outcome.tolist() == [DRAW, DRAW]


def test_scipy_explicit_zeros_are_not_moves():
    sp = pytest.importorskip("scipy.sparse")
    mat = sp.csr_matrix((np.array([1.0, 0.0]), np.array([1, 0]), np.array([0, 2, 2])), shape=(2, 2))
    g = GameGraph.from_scipy(mat)
    assert g.n_moves == 1 and g.moves(0) == [1]


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
    assert sol.counts() == {WIN: 1, LOSS: 1, TIE: 0, DRAW: 1}
    assert repr(sol) == "GraphSolution(n_positions=3, WIN=1, LOSS=1, DRAW=1)"


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


# -- ImpartialGame.solve against the explicit graph ------------------------------

def _node(x):
    return x.parts[0] if isinstance(x, Sum) and len(x) == 1 else x


def explicit_game_graph(moves, root):
    """Every position reachable from root, by hand: a Sum is a position of its
    own whose moves change one part (a one-part Sum is its part).  Returns
    {position: [successor positions]}."""
    def options(node):
        if isinstance(node, Sum):
            parts = node.parts
            return [_node(Sum(*parts[:i], o, *parts[i + 1:]))
                    for i, part in enumerate(parts) for o in options(part)]
        return [_node(o) for o in moves(node)]

    adj, todo = {}, [_node(root)]
    while todo:
        node = todo.pop()
        if node in adj:
            continue
        adj[node] = options(node)
        todo.extend(adj[node])
    return adj


def random_move_function(rng, n, acyclic, sums):
    """moves(p) for p in 0..n-1: ints (and, if sums, two-part Sums), moving
    only to smaller numbers when acyclic."""
    table = []
    for p in range(n):
        targets = range(p) if acyclic else range(n)
        opts = []
        for _ in range(rng.randrange(0, 4) if targets else 0):
            if sums and rng.random() < 0.25:
                opts.append(Sum(rng.choice(targets), rng.choice(targets)))
            else:
                opts.append(rng.choice(targets))
        table.append(opts)
    return lambda p: table[p]


def check_impartial_solve(game, moves, root, misere):
    sol = game.solve(root, misere=misere)
    adj = explicit_game_graph(moves, root)
    ref = GameGraph.from_adjacency(adj).solve(misere=misere)
    # An explored game: the one class of every game explored from its start.
    assert type(sol) is grundy.GameSolution and isinstance(sol, grundy.Solution)
    assert sol.start == _node(root) and sol.position(0) == _node(root)
    assert set(sol.positions) == set(adj) and sol.n_positions == len(adj)
    names = list(adj)
    rounds = solve_rounds(len(names), [[names.index(w) for w in adj[v]] for v in names],
                          misere=misere)
    for k, p in enumerate(names):
        e = sol[p]
        assert (e.outcome, e.remoteness) == (ref[p].outcome, ref[p].remoteness), (root, p)
        assert (e.outcome, e.remoteness) == (rounds[0][k], rounds[1][k]), (root, p)
        # The move is a legal one that keeps the value.
        if not adj[p]:
            assert e.move is NO_MOVE
        else:
            assert e.move in adj[p], (p, e.move)
            nxt = sol[e.move]
            if e.outcome == DRAW:
                assert nxt.outcome == DRAW
            else:
                assert nxt.outcome == -e.outcome and nxt.remoteness == e.remoteness - 1
    line = sol.line()
    assert line[0] == sol.start
    if sol[sol.start].outcome != DRAW:
        assert len(line) == sol[sol.start].remoteness + 1
    return sol


@pytest.mark.parametrize("seed", range(6))
def test_impartial_solve_against_explicit_graph(seed):
    rng = random.Random(seed)
    for trial in range(40):
        acyclic = trial % 2 == 0
        n = rng.randrange(1, 9 if acyclic else 12)
        moves = random_move_function(rng, n, acyclic, sums=acyclic)
        game = ImpartialGame(moves)
        roots = [rng.randrange(n), Sum(rng.randrange(n), rng.randrange(n))]
        for root in roots:
            for misere in (False, True):
                sol = check_impartial_solve(game, moves, root, misere)
                if acyclic:
                    assert not (sol.outcome == DRAW).any()
                    if not misere:
                        # Sprague-Grundy: a WIN exactly where the value is not 0,
                        # at the start and at every position reached.
                        value = game.value(root)
                        assert sol[root].outcome == (WIN if value else LOSS)
                        for p in sol.positions:
                            assert sol[p].outcome == (WIN if game.value(p) else LOSS)


def test_impartial_solve_hand_checked():
    # Subtract 1 or 2: multiples of 3 are lost; the start is the position given.
    game = ImpartialGame(lambda n: [n - s for s in (1, 2) if s <= n])
    sol = game.solve(7)
    # The move: the first optimal one in move order (6 -> 5, not 4: both delay as long).
    assert sol.start == 7 and sol[7] == (WIN, 5, 6) and sol.line() == [7, 6, 5, 3, 2, 0]
    assert sol[6].outcome == LOSS and sol[0] == (LOSS, 0, NO_MOVE)
    assert game.solve(7, misere=True)[0].outcome == WIN
    # Misère: 1 (one move to the end) is lost; 3k + 1 are lost.
    misere = game.solve(7, misere=True)
    assert [misere[n].outcome for n in range(8)] == [WIN, LOSS, WIN, WIN, LOSS, WIN, WIN, LOSS]
    # A sum is a position of its own: 2 + 2 (value 2 ^ 2 = 0) is lost.
    sol = game.solve(Sum(2, 2))
    assert sol.start == Sum(2, 2) and sol[Sum(2, 2)].outcome == LOSS
    assert sol[Sum(2, 1)].outcome == WIN and sol[Sum(2, 1)].move == Sum(1, 1)
    # A cycle: 0 <-> 1, 1 -> 2 (terminal); 3 -> 3 only.
    loopy = ImpartialGame(lambda p: {0: [1], 1: [0, 2], 2: [], 3: [3]}[p])
    assert loopy.solve(0)[0] == (LOSS, 2, 1) and loopy.solve(1)[1] == (WIN, 1, 2)
    assert loopy.solve(3)[3] == (DRAW, -1, 3) and loopy.solve(3).line() == [3, 3]
    with pytest.raises(TypeError):
        game.solve(7, True)                       # options are keyword-only
    with pytest.raises(ValueError, match="is not a position"):
        game.solve(3)[5]


# -- pickles and names ---------------------------------------------------------------

def test_graph_solution_pickles_read_only():
    g = GameGraph.from_edges([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")], names=True)
    game = ImpartialGame(lambda n: [n - s for s in (1, 2) if s <= n])
    for sol in (g.solve(), g.solve(misere=True, labels={"d": WIN}), game.solve(Sum(3, 4))):
        for copy in (pickle.loads(pickle.dumps(sol)), copy_module.deepcopy(sol)):
            assert type(copy) is type(sol) and copy is not sol
            assert list(copy.positions) == list(sol.positions) and copy.start == sol.start
            for name in ("outcome", "remoteness", "move"):
                a, b = getattr(copy, name), getattr(sol, name)
                assert a.dtype == b.dtype and np.array_equal(a, b), name
                assert not a.flags.writeable, name
                with pytest.raises(ValueError):
                    a[0] = 0
            for arr in (copy.graph.indptr, copy.graph.indices):
                assert not arr.flags.writeable
            assert [copy[p] for p in copy.positions] == [sol[p] for p in sol.positions]
            assert repr(copy) == repr(sol)


def test_outcome_and_no_move_names_and_pickles():
    assert repr(WIN) == "WIN" and str(WIN) == "WIN" and f"{LOSS}" == "LOSS"
    assert repr(DRAW) == "DRAW" and f"{DRAW:>5}" == " DRAW"
    assert WIN == 1 and LOSS == -1 and DRAW == 0 and grundy.Outcome(-1) is LOSS
    assert repr(NO_MOVE) == "NO_MOVE" and str(NO_MOVE) == "NO_MOVE" and f"{NO_MOVE}" == "NO_MOVE"
    assert int(NO_MOVE) == -1 and isinstance(NO_MOVE, int) and NO_MOVE != -1 and NO_MOVE == NO_MOVE
    assert pickle.loads(pickle.dumps(grundy.NO_MOVE)) is grundy.NO_MOVE
    assert copy_module.deepcopy(NO_MOVE) is NO_MOVE
    for o in (WIN, LOSS, DRAW):
        assert pickle.loads(pickle.dumps(o)) is o
    e = GameGraph.from_edges([(0, 1)]).solve()[1]
    assert e == (LOSS, 0, NO_MOVE) and repr(e) == "Evaluation(LOSS, remoteness=0, move=NO_MOVE)"
    back = pickle.loads(pickle.dumps(e))
    assert back == e and back.outcome is LOSS and back.move is NO_MOVE


def test_a_position_named_minus_one_is_a_move_not_no_move():
    # NO_MOVE equals only itself: a real move to the position named -1 is
    # told apart from "no move" by == as well as by `is`.
    sol = GameGraph.from_adjacency({"start": [-1], -1: []}).solve()
    assert sol.best_move("start") == -1 and sol.best_move("start") != NO_MOVE
    assert sol.best_move(-1) == NO_MOVE and sol.best_move(-1) != -1
    assert sol["start"] == (WIN, 1, -1) and sol["start"] != (WIN, 1, NO_MOVE)
    assert NO_MOVE not in {-1} and -1 not in {NO_MOVE} and NO_MOVE in {NO_MOVE}
    # numpy's integers too, both ways; arrays are compared with -1.
    for minus_one in (np.int64(-1), np.int8(-1), np.array(-1)):
        assert not (minus_one == NO_MOVE) and not (NO_MOVE == minus_one)
        assert minus_one != NO_MOVE and NO_MOVE != minus_one
    assert (sol.move == NO_MOVE) is False and (sol.move == -1).tolist() == [False, True]
    assert np.full(2, NO_MOVE).tolist() == [-1, -1]
