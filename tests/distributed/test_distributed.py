"""grundy.distributed: a solve partitioned across the workers of a Dask cluster
gives the single-machine engine's answer in every state, and fails cleanly.

One LocalCluster of 2 worker processes (1 thread each) serves the whole file.
"""
import functools
import logging
import os
import random
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")
cloudpickle = pytest.importorskip("cloudpickle")

import grundy  # noqa: E402
from grundy import LOSS, TIE, WIN, GameGraph, MemoryLimitError, PoliceThief  # noqa: E402
from grundy import distributed as gd  # noqa: E402
from grundy._core.police import PoliceThiefSource  # noqa: E402

# The games defined here reach the worker processes by value (they cannot
# import this file).
cloudpickle.register_pickle_by_value(sys.modules[__name__])


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=logging.CRITICAL)
    c = distributed.Client(cluster)
    try:
        yield c
    finally:
        c.close()
        cluster.close()


def actors_left(client, wait=10.0):
    """The actors on the workers, once the scheduler has forgotten a solve's
    (the arrays are freed at once; the emptied actors go soon after)."""
    end = time.monotonic() + wait
    while True:
        left = sum(client.run(lambda dask_worker: len(dask_worker.state.actors)).values())
        if not left or time.monotonic() > end:
            return left
        time.sleep(0.05)


# -- police and thief ---------------------------------------------------------------------

def random_board(rng, rows, cols, wall=0.2, exits=2):
    grid = [["*" if rng.random() < wall else "." for _ in range(cols)] for _ in range(rows)]
    free = [(r, c) for r in range(rows) for c in range(cols)]
    rng.shuffle(free)
    (pr, pc), (tr, tc) = free[0], free[1]
    grid[pr][pc], grid[tr][tc] = "P", "T"
    for r, c in free[2:2 + exits]:
        grid[r][c] = "E"
    return ["".join(row) for row in grid]


def same_answer(sol, ref):
    assert type(sol) is type(ref)
    assert sol.outcome.dtype == np.int8
    np.testing.assert_array_equal(sol.outcome, ref.outcome)
    np.testing.assert_array_equal(sol.remoteness, ref.remoteness)


def test_blocks_talk_over_streams_or_through_dask(client):
    # Plain-tcp workers: every link between two blocks is a direct stream.
    # Workers in this process (inproc://): Dask's actor calls.  Same answers.
    board = PoliceThief(random_board(random.Random(7), 7, 8))
    ref = board.solve()
    stats = gd.SolveStats()
    same_answer(gd.solve(board, client, partitions=3, stats=stats), ref)
    assert stats.streams == 3 * 2 and stats.messages > 0
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0", worker_dashboard_address=None,
                                  silence_logs=logging.CRITICAL) as local, \
            distributed.Client(local) as inproc:
        stats = gd.SolveStats()
        same_answer(gd.solve(board, inproc, partitions=3, stats=stats), ref)
        assert stats.streams == 0 and stats.messages > 0


@pytest.mark.parametrize("partitions", [None, 1, 2, 3, 5])
def test_police_boards_match_the_engine(client, partitions):
    rng = random.Random(7 + (partitions or 0))
    for _ in range(3):
        rows = random_board(rng, rng.randint(1, 7), rng.randint(2, 9), rng.choice([0, .2, .4]),
                            rng.randint(0, 3))
        board = PoliceThief(rows, passing=rng.random() < 0.6,
                            police_moves=rng.choice(["king", "rook", [(2, 1), (-1, 0)]]),
                            thief_moves=rng.choice(["rook", "king"]))
        stats = gd.SolveStats()
        sol = gd.solve(board, client, partitions=partitions, stats=stats)
        ref = board.solve()
        same_answer(sol, ref)
        np.testing.assert_array_equal(sol.move, ref.move)
        assert sol.result == ref.result and sol.board is board
        expected = min(partitions or 2, board.n_positions)
        assert stats.partitions == expected and stats.n_positions == board.n_positions
        assert stats.levels == int(ref.remoteness.max()) + 1 and stats.tie_levels == 0
        assert len(stats.level_bytes) == stats.levels and sum(stats.level_bytes) == stats.bytes
        assert sum(stats.level_states) == np.count_nonzero(ref.outcome)
        if expected == 1:
            assert stats.messages == stats.bytes == 0
    assert actors_left(client) == 0


def test_police_30x30(client):
    rng = random.Random(30)
    board = PoliceThief(random_board(rng, 30, 30, wall=0.25, exits=3))
    stats = gd.SolveStats()
    sol = gd.solve(board, client, stats=stats)
    same_answer(sol, board.solve())
    # Each level, each block sends the other at most one message.
    assert stats.messages <= 2 * stats.levels and stats.messages > 0
    assert stats.bytes == sum(stats.level_bytes) > 0


def test_police_without_passing_has_stuck_players(client):
    board = PoliceThief(["P*.", "*.*", "..T", "E*."], passing=False)
    same_answer(gd.solve(board, client, partitions=3), board.solve())


# -- compiled sources ------------------------------------------------------------------------

def line_source():
    """The two-cell board of grundy.engine.source's examples, as a MoveSource."""
    step, back = np.array([[1], [-1]]), np.array([[-1], [0]])
    return PoliceThiefSource(step, step, back, back, np.zeros(2, np.uint8), True)


@pytest.mark.parametrize("misere", [False, True])
def test_source_factory(client, misere):
    board = PoliceThief(random_board(random.Random(3), 5, 6, exits=1), passing=False)
    pol_pred, pol_next = board._tables(board.police_moves)
    thf_pred, thf_next = board._tables(board.thief_moves)
    factory = functools.partial(PoliceThiefSource, pol_next, thf_next, pol_pred, thf_pred,
                                board._exit_mask, False)
    for make in (factory, line_source):
        sol = gd.solve(make, client, partitions=3, misere=misere)
        ref = grundy.solve_source(make(), misere=misere)
        assert isinstance(sol, grundy.SourceSolution)
        same_answer(sol, ref)
        np.testing.assert_array_equal(sol.move, ref.move)


# -- batch games ------------------------------------------------------------------------------

def csr_rows(indptr, indices, codes):
    """The CSR rows of ``codes``, as (offsets, values)."""
    starts = indptr[codes]
    lens = indptr[codes + 1] - starts
    offsets = np.zeros(len(codes) + 1, dtype=np.int64)
    np.cumsum(lens, out=offsets[1:])
    at = np.repeat(starts - offsets[:-1], lens) + np.arange(offsets[-1])
    return offsets, indices[at]


class ArrayGame(grundy.BatchGame):
    """A batch game on a random graph, with the predecessors of every state."""

    def __init__(self, indptr, indices, labels):
        self.indptr, self.indices, self.labels = indptr, indices, labels
        n = len(indptr) - 1
        parent = np.repeat(np.arange(n), np.diff(indptr))
        order = np.argsort(indices, kind="stable")
        self.rev_indices = parent[order]
        self.rev_indptr = np.searchsorted(indices[order], np.arange(n + 1)).astype(np.int64)

    @property
    def n_positions(self):
        return len(self.indptr) - 1

    def start(self):
        return 0

    def primitive(self, codes):
        return self.labels[codes]

    def moves(self, codes):
        return csr_rows(self.indptr, self.indices, codes)

    def predecessors(self, codes):
        return csr_rows(self.rev_indptr, self.rev_indices, codes)


def random_game(rng, n, ties=True):
    degree = rng.integers(0, 4, n)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(degree, out=indptr[1:])
    indices = rng.integers(0, n, indptr[-1]).astype(np.int64)     # cycles, loops, repeats
    values = [0, 0, 0, 0, 0, 0, WIN, LOSS] + ([TIE, TIE] if ties else [])
    labels = np.array(values, dtype=np.int8)[rng.integers(0, len(values), n)]
    return ArrayGame(indptr, indices, labels)


@pytest.mark.parametrize("partitions", [1, 2, 3, 5])
def test_batch_games_match_the_engine(client, partitions):
    rng = np.random.default_rng(partitions)
    seen = set()
    for k in range(4):
        game = random_game(rng, int(rng.integers(1, 400)), ties=k != 1)
        misere = bool(k % 2)
        stats = gd.SolveStats()
        sol = gd.solve(game, client, partitions=partitions, misere=misere, stats=stats)
        graph = GameGraph.from_csr(game.indptr, game.indices)
        ref = graph.solve(labels=game.labels, misere=misere)
        assert isinstance(sol, gd.BatchGameSolution) and sol.n_positions == graph.n_positions
        np.testing.assert_array_equal(sol.outcome, ref.outcome)
        np.testing.assert_array_equal(sol.remoteness, ref.remoteness)
        # Same rule for the best move: the first optimal child in move order.
        np.testing.assert_array_equal(sol.move, ref.move)
        assert sol.start == 0 and sol[0] == ref[0] and sol.line() == ref.line(0)
        if (ref.outcome == TIE).any() and (ref.remoteness[ref.outcome == TIE] > 0).any():
            assert stats.tie_levels >= 2
        seen.update(np.unique(ref.outcome).tolist())
        # The states reachable from 0, explored from the rules.
        explored = grundy.solve_game(game, misere=misere)
        codes = np.array(explored.positions, dtype=np.int64)
        np.testing.assert_array_equal(sol.outcome[codes], explored.outcome)
        np.testing.assert_array_equal(sol.remoteness[codes], explored.remoteness)
    assert seen == {-1, 0, 1, 2}                     # wins, losses, draws and ties


def test_batch_game_with_no_states(client):
    game = ArrayGame(np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int64),
                     np.zeros(0, dtype=np.int8))
    sol = gd.solve(game, client)
    assert sol.n_positions == 0 and sol.counts()[WIN] == 0


def test_more_partitions_than_states_and_the_default_client(client):
    game = random_game(np.random.default_rng(8), 3)
    stats = gd.SolveStats()
    sol = gd.solve(game, partitions=5, stats=stats)         # the fixture's client: the default
    ref = GameGraph.from_csr(game.indptr, game.indices).solve(labels=game.labels)
    np.testing.assert_array_equal(sol.outcome, ref.outcome)
    assert stats.partitions == 3 and stats.workers == 2


def test_broken_batch_games_are_named(client):
    game = random_game(np.random.default_rng(5), 50)
    game.labels = game.labels.copy()
    game.labels[7] = 3
    with pytest.raises(ValueError, match=r"primitive\(codes\) gave 3 for the code 7"):
        gd.solve(game, client)
    game = random_game(np.random.default_rng(5), 50)
    game.labels = np.zeros(50, dtype=np.int8)
    game.indices = game.indices.copy()
    game.indices[0] = 50
    with pytest.raises(ValueError, match=r"moves\(codes\) gave the code 50, outside the "
                                         r"positions 0..49"):
        gd.solve(game, client)
    # Predecessors that are not the moves' (one listed twice per move).
    game = ArrayGame(np.array([0, 1, 1]), np.array([1]), np.array([0, WIN], np.int8))
    game.predecessors = lambda codes: csr_rows(np.array([0, 0, 2]), np.array([0, 0]), codes)
    with pytest.raises(ValueError, match="predecessors and moves disagree"):
        gd.solve(game, client)
    # The same error in the last block, while the first waits for its
    # messages: raised at once, not a hang.
    game = ArrayGame(np.array([0, 0, 1]), np.array([0]), np.array([WIN, 0], np.int8))
    game.predecessors = lambda codes: csr_rows(np.array([0, 2, 2]), np.array([1, 1]), codes)
    t0 = time.monotonic()
    with pytest.raises(ValueError, match="predecessors and moves disagree"):
        gd.solve(game, client, partitions=2)
    assert time.monotonic() - t0 < 5
    assert actors_left(client) == 0


# -- saving per block ---------------------------------------------------------------------

def test_save_to_writes_one_file_a_block(client, tmp_path):
    board = PoliceThief(random_board(random.Random(9), 6, 8))
    saved = gd.solve(board, client, partitions=3, save_to=tmp_path / "run")
    assert isinstance(saved, gd.SavedBlocks) and len(saved) == 3
    assert sorted(os.listdir(tmp_path / "run")) == ["index.json", "part-00000.npz",
                                                     "part-00001.npz", "part-00002.npz"]
    ref = board.solve()
    back = gd.load_blocks(tmp_path / "run")
    assert back.n_positions == board.n_positions and back.bounds[-1] == board.n_positions
    same_answer(back.solution(board), ref)
    outcome, rem = back.block(1)
    lo, hi = back.bounds[1:3]
    np.testing.assert_array_equal(outcome, ref.outcome[lo:hi])
    with pytest.raises(ValueError, match="the blocks hold a police game"):
        back.solution(random_game(np.random.default_rng(1), 10))


# -- bad arguments ----------------------------------------------------------------------------

def test_bad_arguments(client):
    board = PoliceThief(["P.ET"])
    with pytest.raises(TypeError, match="cannot be sent to the workers: pass a function"):
        gd.solve(line_source(), client)
    with pytest.raises(TypeError, match="expected a PoliceThief board, a batch game"):
        gd.solve(42, client)
    with pytest.raises(TypeError, match=r"has no n_positions, predecessors\(\)$"):
        gd.solve(grundy.BatchGame(), client)
    with pytest.raises(TypeError, match=r"parents\(\) is now called predecessors\(\)"):
        gd.solve(OldGame(), client)
    with pytest.raises(TypeError, match="n_positions of .* is a method"):
        gd.solve(CalledGame(), client)
    with pytest.raises(TypeError, match=r"returned 'no source', not a MoveSource"):
        gd.solve(lambda: "no source", client)
    with pytest.raises(ValueError, match="partitions must be >= 1, got 0"):
        gd.solve(board, client, partitions=0)
    with pytest.raises(TypeError, match="partitions must be an integer, got 2.0"):
        gd.solve(board, client, partitions=2.0)
    with pytest.raises(TypeError, match="misere must be True or False"):
        gd.solve(board, client, misere=1)
    with pytest.raises(ValueError, match="police and thief has no misère form"):
        gd.solve(board, client, misere=True)
    with pytest.raises(TypeError, match="client must be a dask.distributed.Client, got 'x'"):
        gd.solve(board, "x")
    with pytest.raises(TypeError, match="stats must be a SolveStats"):
        gd.solve(board, client, stats={})
    with pytest.raises(TypeError, match="save_to must be a directory name"):
        gd.solve(board, client, save_to=3)
    with pytest.raises(TypeError, match="progress must be"):
        gd.solve(board, client, progress="yes")
    with pytest.raises(MemoryLimitError, match="the worker .* holding 1 block"):
        gd.solve(PoliceThief(["P" + "." * 30 + "T"]), client, max_memory=10_000)
    with pytest.raises(TypeError, match="must be picklable"):
        gd.solve(UnpicklableGame(), client)
    huge = HugeGame(random_game(np.random.default_rng(0), 5))
    with pytest.raises(MemoryLimitError, match="holding 1 block.* more than the memory "
                                               "available"):
        gd.solve(huge, client)
    assert actors_left(client) == 0


class OldGame(grundy.BatchGame):        # the protocol of grundy 0.1's distributed solve
    n_positions = 3

    def parents(self, codes):
        return np.zeros(len(codes) + 1, np.int64), np.zeros(0, np.int64)


class CalledGame(ArrayGame):
    def __init__(self):
        super().__init__(np.array([0, 0]), np.zeros(0, np.int64), np.zeros(1, np.int8))

    def n_positions(self):
        return 1


class HugeGame(ArrayGame):
    def __init__(self, game):
        super().__init__(game.indptr, game.indices, game.labels)

    n_positions = 10 ** 13


class UnpicklableGame(ArrayGame):
    def __init__(self):
        super().__init__(np.array([0, 0]), np.zeros(0, np.int64), np.zeros(1, np.int8))

    def __reduce__(self):
        raise TypeError("no")


def test_solution_objects():
    game = random_game(np.random.default_rng(2), 30)
    ref = GameGraph.from_csr(game.indptr, game.indices).solve(labels=game.labels)
    sol = gd.BatchGameSolution(game, ref.outcome, ref.remoteness)
    np.testing.assert_array_equal(sol.move, ref.move)
    assert sol[5] == ref[5] and sol.index(3) == 3 and sol.position(4) == 4
    with pytest.raises(ValueError, match="code 30 is out of range"):
        sol.index(30)
    with pytest.raises(ValueError, match="remoteness has 3 entries"):
        gd.BatchGameSolution(game, [1, -1], [1, 0, 0])
    with pytest.raises(TypeError, match="cannot be saved"):
        sol.save("x.npz")
    import pickle
    back = pickle.loads(pickle.dumps(sol))
    np.testing.assert_array_equal(back.remoteness, sol.remoteness)
    assert not back.outcome.flags.writeable


def test_remoteness_widens_past_65535():
    import pickle
    from grundy.distributed.block import Block
    block = Block("t", 0, pickle.dumps(("batch", random_game(np.random.default_rng(0), 5), 5)),
                  [0, 5], False)
    none = np.zeros(0, np.int64)
    block._level(none, 65535, False)
    assert block.rem.dtype == np.uint16
    block._level(none, 65536, False)
    assert block.rem.dtype == np.int32
    block.close()


def test_imports_without_dask():
    code = ("import sys; sys.modules['distributed'] = None; import grundy, grundy.distributed\n"
            "assert 'dask' not in sys.modules\n"
            "try:\n"
            "    grundy.distributed.solve(grundy.PoliceThief(['PT']))\n"
            "except ImportError as exc:\n"
            "    print(exc)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert "pip install 'grundy[distributed]'" in out.stdout
    out = subprocess.run([sys.executable, "-c", "import sys, grundy, grundy.distributed; "
                          "grundy.PoliceThief; assert 'dask' not in sys.modules and "
                          "'distributed' not in sys.modules"], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr


# -- failures mid-solve ---------------------------------------------------------------------

def open_board(n):
    return PoliceThief(["P" + "." * (n - 2) + "E"] + ["." * n] * (n - 2) + ["." * (n - 1) + "T"])


def test_interrupt_stops_the_solve_and_frees_the_workers(client):
    def progress(done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        gd.solve(open_board(20), client, progress=progress)
    assert actors_left(client) == 0
    same_answer(gd.solve(PoliceThief(["P.ET"]), client), PoliceThief(["P.ET"]).solve())


def test_a_worker_dying_mid_solve_fails_the_solve(client):
    # Last in the file: the cluster gets a new worker afterwards.
    pids = client.run(os.getpid)
    victim = sorted(pids)[1]
    stats = gd.SolveStats()

    def progress(done, total):          # called every quarter second: kill a worker
        if pids:
            os.kill(pids.pop(victim), signal.SIGKILL)

    board = open_board(60)              # about a second of levels: killed mid-solve
    levels = int(board.solve(threads=1).remoteness.max()) + 1
    t0 = time.perf_counter()
    with pytest.raises(gd.WorkerLostError, match=f"the worker {victim} holding the positions "
                                                 f".* was lost during the win/loss pass") \
            as info:
        gd.solve(board, client, stats=stats, progress=progress)
    assert time.perf_counter() - t0 < 60
    assert info.value.worker == victim and isinstance(info.value, RuntimeError)
    assert 0 < stats.levels < levels             # stopped before the end
    client.wait_for_workers(2, timeout=60)
    assert actors_left(client) == 0
    board = PoliceThief(random_board(random.Random(4), 5, 5))
    same_answer(gd.solve(board, client), board.solve())
