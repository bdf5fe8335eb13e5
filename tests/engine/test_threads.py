"""The threaded retrograde pass equals the serial one exactly, for any thread count.

Outcome and remoteness come from the level at which a position is decided,
so every thread count must give the same arrays; the move is the first
optimal successor in move order, the same rule everywhere.  More threads
than cores (8 on this 2-core machine) included.
"""
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import grundy
from grundy import LOSS, TIE, WIN
from locations import EXAMPLES

THREADS = [1, 2, 4, 8]


def same(a, b):
    return (np.array_equal(a.outcome, b.outcome) and np.array_equal(a.remoteness, b.remoteness)
            and np.array_equal(a.move, b.move))


def random_graph(rng, n, density):
    m = int(rng.integers(0, int(density * n) + 1))
    return grundy.GameGraph.from_edges(rng.integers(0, n, size=(m, 2)), n=n)


@pytest.mark.parametrize("seed", range(10))
def test_random_graphs(seed):
    """300 graphs a seed (3,000 in all): cycles, self-loops, multi-edges,
    labels with ties, normal and misère, every thread count."""
    rng = np.random.default_rng(seed)
    for trial in range(300):
        n = int(rng.integers(1, 80))
        g = random_graph(rng, n, float(rng.choice([0.5, 1.5, 3.0])))
        labels = None
        if trial % 3 == 0:
            fixed = rng.choice(n, size=int(rng.integers(0, min(n, 4) + 1)), replace=False)
            labels = {int(v): int(rng.choice([WIN, LOSS, TIE])) for v in fixed}
        misere = bool(trial % 2)
        serial = g.solve(labels=labels, misere=misere, threads=1)
        for t in THREADS[1:]:
            assert same(serial, g.solve(labels=labels, misere=misere, threads=t)), (seed, trial)


@pytest.mark.parametrize("n, m", [(20_000, 60_000), (50_000, 400_000)])
def test_larger_graphs_cross_many_slices(n, m):
    rng = np.random.default_rng(n)
    edges = rng.integers(0, n, size=(m, 2))
    dag = edges[edges[:, 0] < edges[:, 1]]                     # every position decided
    for g in (grundy.GameGraph.from_edges(edges, n=n), grundy.GameGraph.from_edges(dag, n=n)):
        serial = g.solve(threads=1)
        for t in THREADS[1:]:
            assert same(serial, g.solve(threads=t))


def _reverse_reference(indptr, indices):
    """Edges into each vertex, sources ascending: a stable sort by target."""
    n = len(indptr) - 1
    sources = np.repeat(np.arange(n), np.diff(indptr))
    order = np.argsort(indices, kind="stable")
    counts = np.bincount(indices, minlength=n)
    return np.concatenate([[0], np.cumsum(counts)]), sources[order]


@pytest.mark.parametrize("n, m", [(1, 70000), (7, 100000), (1000, 70000), (10 ** 5, 10 ** 6),
                                  (300, 9 * 10 ** 6), (16383, 70000), (16384, 70000),
                                  (16385, 10 ** 5), (40000, 0), (40000, 3), (2, 1)])
def test_reverse_csr_is_the_same_for_any_threads(n, m):
    # The edges are dealt into buckets of 2^14 targets, then each bucket is
    # sorted (the threads share the edges, then the buckets): bucket edges
    # (16383..16385 targets), no edges, one huge bucket (a third of the edges
    # into one target), and (300, 9e6): a few vertices of huge in- and
    # out-degree.
    from grundy._core import csr
    rng = np.random.default_rng(n + m)
    edges = rng.integers(0, n, size=(m, 2))
    edges[: m // 3, 1] = n - 1                    # one target takes a third
    indptr, indices = csr.edges_to_csr(edges[:, 0].copy(), edges[:, 1].copy(), n)
    rp, ri = _reverse_reference(indptr, indices)
    for t in (1, 2, 3, 4, 16):
        got_p, got_i = csr.reverse(indptr, indices, t)
        assert np.array_equal(got_p, rp) and np.array_equal(got_i, ri), t


def test_moves_are_the_first_optimal_successor():
    """The move rule, against a direct reading of the definition."""
    rng = np.random.default_rng(7)
    for _ in range(200):
        n = int(rng.integers(1, 40))
        g = random_graph(rng, n, 2.5)
        sol = g.solve(threads=2)
        for v in range(n):
            o, r = int(sol.outcome[v]), int(sol.remoteness[v])
            want = -1
            if r != 0:
                for w in g.moves(v):
                    ow, rw = int(sol.outcome[w]), int(sol.remoteness[w])
                    if (o == 0 and ow == 0) or (o == TIE and ow == TIE and rw == r - 1) or \
                            (o in (WIN, LOSS) and ow == -o and rw == r - 1):
                        want = w
                        break
            assert sol.move[v] == want


def police_board(rng, rows, cols):
    grid = np.where(rng.random((rows, cols)) < rng.uniform(0, 0.3), "*", ".")
    cells = rng.choice(rows * cols, size=2 + int(rng.integers(0, 4)), replace=False)
    grid.flat[cells] = "."
    grid.flat[cells[0]], grid.flat[cells[1]] = "P", "T"
    for c in cells[2:]:
        grid.flat[c] = "E"
    moves = [("king", "rook"), ("rook", "rook"), ("king", "king"), ([(0, 1), (1, 0)], "rook")]
    police, thief = moves[int(rng.integers(0, len(moves)))]
    return grundy.PoliceThief(["".join(r) for r in grid], police_moves=police,
                              thief_moves=thief, passing=bool(rng.integers(0, 2)))


@pytest.mark.parametrize("seed", range(4))
def test_random_police_boards(seed):
    rng = np.random.default_rng(100 + seed)
    for _ in range(10):
        board = police_board(rng, int(rng.integers(1, 26)), int(rng.integers(1, 26)))
        serial = board.solve(threads=1)
        for t in THREADS[1:]:
            other = board.solve(threads=t)
            assert np.array_equal(serial.outcome, other.outcome)
            assert np.array_equal(serial.remoteness, other.remoteness)
        assert np.array_equal(serial.move, board.solve(threads=3).move)


def test_police_levels_large_enough_to_split():
    # Levels of up to 10^5 states: each is split among the threads in runs
    # of state ids (bands of police cells), rebalanced every level; the
    # answers are still the serial pass's.
    rng = np.random.default_rng(7)
    grid = np.where(rng.random((45, 45)) < 0.1, "*", ".")
    grid[0, 0], grid[22, 22], grid[44, 44], grid[0, 44] = "P", "T", "E", "E"
    board = grundy.PoliceThief(["".join(r) for r in grid])
    serial = board.solve(threads=1)
    for t in (2, 3, 4, 8):
        assert same(serial, board.solve(threads=t))


def layered_game():
    """Layers of about 10^4 positions (large enough to be split among the
    threads) in shuffled runs of ids, each moving to the layer below (and
    some two below); a ring in the bottom layer adds draws."""
    rng = np.random.default_rng(11)
    sizes = rng.integers(8_500, 14_000, 9)
    starts = np.concatenate([[0], np.cumsum(sizes)])
    n = int(starts[-1])
    order = rng.permutation(len(sizes))            # layer k holds run order[k]
    layer = [np.arange(starts[j], starts[j + 1]) for j in order]
    ring = rng.choice(layer[0], 500, replace=False)
    edges = [np.stack([ring, np.roll(ring, 1)], axis=1)]
    for k in range(1, len(layer)):
        src = np.repeat(layer[k], 2)
        edges.append(np.stack([src, rng.choice(layer[k - 1], src.size)], axis=1))
        if k >= 2:
            some = rng.choice(layer[k], layer[k].size // 4)
            edges.append(np.stack([some, rng.choice(layer[k - 2], some.size)], axis=1))
        loop = rng.choice(layer[k], 200)
        edges.append(np.stack([loop, rng.choice(layer[k], loop.size)], axis=1))
    return grundy.GameGraph.from_edges(np.concatenate(edges), n=n)


def test_levels_that_jump_across_the_ids():
    # Each level's split among the threads, taken from the level before,
    # fits it badly (one thread may have decided all of it), so its states
    # move to their new owners.
    g = layered_game()
    for misere in (False, True):
        serial = g.solve(misere=misere, threads=1)
        assert (serial.outcome == 0).any() and serial.remoteness.max() >= 8
        for t in (2, 3, 8):
            assert same(serial, g.solve(misere=misere, threads=t)), (misere, t)


def test_any_queue_budget_gives_the_answer_or_a_refusal():
    # Under a tight queue budget the states of a badly split level stay in
    # the lanes of the threads that decided them (threads then walk states
    # they do not own), or the pass stops with "memory limit": never a
    # wrong answer.
    from grundy._core import retrograde
    g = layered_game()
    n = g.n_positions
    indptr, indices = g._indptr, g._indices
    serial = g.solve(threads=1)

    from grundy._core.csr import CSRSource
    from grundy.engine.driver import best_moves, wide_remoteness
    src = CSRSource(indptr, indices)

    def solve(budget, t):
        state = np.empty(n, dtype=np.uint8)
        rem = np.empty(n, dtype=np.uint16)
        status = retrograde.solve(src, state, rem, max_queue_bytes=budget, threads=t)
        outcome = state.view(np.int8)
        return (status, outcome, wide_remoteness(outcome, rem),
                best_moves(src, outcome, rem) if status == "ok" else None)

    for t in (2, 8):
        statuses = set()
        for budget in np.geomspace(2 ** 16, 2 ** 24, 25).astype(np.int64):
            status, outcome, remoteness, move = solve(int(budget), t)
            statuses.add(status)
            if status == "ok":
                assert np.array_equal(outcome, serial.outcome), (t, budget)
                assert np.array_equal(remoteness, serial.remoteness), (t, budget)
                assert np.array_equal(move, serial.move), (t, budget)
            else:
                assert status == "memory limit"
        assert statuses == {"ok", "memory limit"}, t


def test_one_thread_limit_for_the_library_and_its_kernels():
    # The Python layer and the engine take the same thread counts (1..1024),
    # and say so in the same words.
    from grundy._common import MAX_THREADS, check_threads
    from grundy._core import retrograde
    from grundy._core.csr import CSRSource
    assert retrograde.MAX_THREADS == MAX_THREADS == 1024
    src = CSRSource(np.array([0, 1, 1]), np.array([1]))
    arrays = (np.empty(2, dtype=np.uint8), np.empty(2, dtype=np.uint16))
    for bad in (0, 1025, 70000):
        with pytest.raises(ValueError) as python:
            check_threads(bad)
        with pytest.raises(ValueError) as kernel:
            retrograde.solve(src, *arrays, threads=bad)
        assert str(kernel.value) == str(python.value) == (
            f"threads must be >= 1 (and <= 1024), got {bad}" if bad < 1 else
            f"threads must be <= 1024, got {bad}")


def test_police_with_32_bit_remoteness_is_the_same():
    # A long corridor: remoteness past 65535 reruns the solve with int32.
    board = grundy.PoliceThief(["P" + "." * 40 + "T"], thief_moves="rook", passing=False)
    assert np.array_equal(board.solve(threads=1).remoteness, board.solve(threads=2).remoteness)


class Chain(grundy.Game):
    def start(self):
        return 0

    def moves(self, p):
        return [q for q in ((p * 7 + 3) % 5000, (p + 1) % 5000, (p * p) % 5000)]

    def primitive(self, p):
        return TIE if p == 4999 else (LOSS if p % 997 == 0 and p else None)


def test_games_from_rules():
    serial = grundy.solve_game(Chain(), threads=1)
    for t in THREADS[1:]:
        assert same(serial, grundy.solve_game(Chain(), threads=t))
    # An impartial game by its move function: subtraction {1, 3, 4} with a
    # loop back (draws), solved from heap 3000 (about 9,000 moves).
    game = grundy.ImpartialGame(lambda n: [n - s for s in (1, 3, 4) if s <= n] +
                                ([n + 2] if n % 97 == 5 and n < 3000 else []))
    serial = game.solve(3000, threads=1)
    assert serial.counts()[grundy.DRAW] > 0
    for t in THREADS[1:]:
        other = game.solve(3000, threads=t)
        assert np.array_equal(serial.outcome, other.outcome)
        assert np.array_equal(serial.remoteness, other.remoteness)
        assert np.array_equal(serial.move, other.move)
    with pytest.raises(ValueError, match="threads must be >= 1"):
        game.solve(3, threads=0)


@pytest.mark.parametrize("bad, exc, match", [
    (0, ValueError, "threads must be >= 1"), (-2, ValueError, "threads must be >= 1"),
    (2000, ValueError, "<= 1024"), (1.5, TypeError, "threads must be an integer"),
    (True, TypeError, "threads must be an integer"), ("2", TypeError, "integer"),
])
def test_bad_thread_counts(bad, exc, match):
    g = grundy.GameGraph.from_edges([(0, 1)])
    with pytest.raises(exc, match=match):
        g.solve(threads=bad)
    with pytest.raises(exc, match=match):
        grundy.PoliceThief(["PT"]).solve(threads=bad)
    with pytest.raises(exc, match=match):
        grundy.solve_game(Chain(), threads=bad)


def test_a_thousand_threads_under_a_tight_address_space():
    # The OpenMP runtime ends the process when it cannot start a thread;
    # threads=1024 under a 3 GB address-space limit must still solve (at
    # most 4 threads a core are started).
    code = textwrap.dedent("""
        import resource, numpy as np, grundy
        resource.setrlimit(resource.RLIMIT_AS, (3 * 2 ** 30, 3 * 2 ** 30))
        rng = np.random.default_rng(1)
        g = grundy.GameGraph.from_edges(rng.integers(0, 20000, size=(100000, 2)), n=20000)
        a, b = g.solve(threads=1), g.solve(threads=1024)
        assert (a.outcome == b.outcome).all() and (a.remoteness == b.remoteness).all()
        print(grundy.GrundysGame().nim_sequence(3000, threads=1024)[-1])
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().isdigit()


def test_memory_limit_is_kept_with_threads():
    board = grundy.PoliceThief(["P" + "." * 28 + "T"] + ["." * 30] * 29)
    with pytest.raises(grundy.MemoryLimitError):
        board.solve(threads=2, max_memory=board.memory_estimate() // 2)
    assert board.solve(threads=2, max_memory=board.memory_estimate() * 2).n_positions


def test_ctrl_c_stops_a_threaded_solve():
    code = textwrap.dedent("""
        import sys, time, grundy
        board = grundy.PoliceThief(["P" + "." * 88 + "T"] + ["." * 90] * 89)
        print("go", flush=True)
        t0 = time.perf_counter()
        try:
            board.solve(threads=2)
        except KeyboardInterrupt:
            print(f"stopped {time.perf_counter() - t0:.2f}", flush=True)
        """)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "go"
    time.sleep(1.5)
    sent = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=60)
    waited = time.perf_counter() - sent
    assert out.startswith("stopped"), out
    assert waited < 3.0, waited


def test_cli_threads(tmp_path):
    board = os.path.join(EXAMPLES, "police.txt")
    outs = set()
    for t in ("1", "2", "5"):
        r = subprocess.run([sys.executable, "-m", "grundy", "police", board, "--explain",
                            "--threads", t], capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        outs.add(r.stdout)
    assert len(outs) == 1
    for bad in ("0", "x", "-1", "2000"):
        r = subprocess.run([sys.executable, "-m", "grundy", "police", board, "--threads", bad],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and "--threads must be an integer 1..1024" in r.stderr


# -- the default thread count: the cores other work leaves free ------------------------

def test_free_cores_counts_other_processes_not_this_one(monkeypatch):
    from grundy import _common
    monkeypatch.setattr(_common, "usable_cores", lambda: 8)
    monkeypatch.setattr(_common.os, "cpu_count", lambda: 8)
    for system, mine, free in ((3, 3, 8), (5, 2, 5), (20, 1, 1), (2, 3, 8)):
        monkeypatch.setattr(_common, "_free_cores", (-1.0, 0))        # not cached
        monkeypatch.setattr(_common, "_running_tasks", lambda: system)
        monkeypatch.setattr(_common, "_running_threads", lambda: mine)
        assert _common.free_cores() == free, (system, mine)
        assert _common.check_threads(None) == free
    # Unreadable (not Linux): every usable core.
    monkeypatch.setattr(_common, "_free_cores", (-1.0, 0))

    def unreadable():
        raise OSError("no /proc")

    monkeypatch.setattr(_common, "_running_tasks", unreadable)
    assert _common.free_cores() == 8


@pytest.mark.skipif(not os.path.exists("/proc/loadavg"), reason="reads /proc/loadavg")
def test_a_busy_core_is_not_free():
    from grundy._common import free_cores, usable_cores
    import grundy._common as common
    if usable_cores() < 2:
        pytest.skip("one usable core")
    hog = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.3)
        common._free_cores = (-1.0, 0)
        assert free_cores() <= usable_cores() - 1
    finally:
        hog.kill()
        hog.wait()
