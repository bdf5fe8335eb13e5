"""progress=: callbacks, bars on a terminal (tqdm), silence elsewhere."""
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import grundy
from grundy import BatchGame, Game


class Recorder:
    def __init__(self):
        self.calls = []

    def __call__(self, done, total):
        self.calls.append((done, total))

    def check(self, total=None):
        assert self.calls, "never called"
        dones = [d for d, _ in self.calls]
        assert dones == sorted(dones)
        assert all(0 <= d <= t for d, t in self.calls)
        if total is not None:
            assert self.calls[-1] == (total, total)


def big_graph():
    rng = np.random.default_rng(3)
    n = 300_000
    return grundy.GameGraph.from_edges(rng.integers(0, n, size=(4 * n, 2)), n=n)


def test_graph_solve_reports_decided_positions():
    rec = Recorder()
    sol = big_graph().solve(progress=rec)
    rec.check(total=sol.n_positions)
    assert len(rec.calls) < 50                          # throttled


def test_police_solve_reports():
    board = grundy.PoliceThief(["P" + "." * 38 + "T"] + ["." * 40] * 39)
    rec = Recorder()
    sol = board.solve(progress=rec)
    rec.check(total=sol.n_positions)


def test_octal_values_report():
    rec = Recorder()
    grundy.OctalGame("0.137").nim_sequence(30_000, progress=rec)
    rec.check(total=30_001)


class Countdown(Game):
    def start(self):
        return 50_000

    def moves(self, n):
        return [m for m in (n - 1, n - 2) if m >= 0]


class BatchCountdown(BatchGame):
    def start(self):
        return 50_000

    def moves(self, codes):
        kids = np.stack([codes - 1, codes - 2], axis=1)
        keep = kids >= 0
        return np.concatenate([[0], np.cumsum(keep.sum(axis=1))]), kids[keep]

    def primitive(self, codes):
        return np.zeros(len(codes), np.int8)


@pytest.mark.parametrize("game", [Countdown(), BatchCountdown()])
def test_exploration_reports(game):
    rec = Recorder()
    sol = grundy.solve_game(game, progress=rec)
    rec.check(total=sol.n_positions)


def test_an_exception_in_the_callback_stops_the_solve():
    g = big_graph()

    def stop(done, total):
        raise RuntimeError("enough")

    with pytest.raises(RuntimeError, match="enough"):
        g.solve(progress=stop)
    assert g.solve().n_positions == g.n_positions      # usable afterwards
    with pytest.raises(RuntimeError, match="enough"):
        grundy.OctalGame("0.137").nim_sequence(5000, progress=stop)


@pytest.mark.parametrize("call", [
    lambda p: big_graph().solve(progress=p),
    lambda p: grundy.PoliceThief(["PT"]).solve(progress=p),
    lambda p: grundy.OctalGame("0.7").nim_sequence(5, progress=p),
    lambda p: grundy.solve_game(Countdown(), progress=p),
])
@pytest.mark.parametrize("bad", ["yes", 1, 2.0])
def test_bad_progress_values(call, bad):
    with pytest.raises(TypeError, match="progress must be True, False, None or a callable"):
        call(bad)


def run(code):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=120)


def test_progress_true_without_tqdm_names_the_extra():
    r = run("""
        import sys
        sys.modules["tqdm"] = None
        import grundy
        try:
            grundy.OctalGame("0.7").nim_sequence(5, progress=True)
        except ImportError as exc:
            print(exc)
        """)
    assert "pip install 'grundy[progress]'" in r.stdout, r.stderr


def test_progress_true_is_silent_off_a_terminal():
    r = run("""
        import grundy
        board = grundy.PoliceThief(["P" + "." * 58 + "T"] + ["." * 60] * 59)
        print(board.solve(progress=True).result)
        print(grundy.GrundysGame().nim_sequence(300000, progress=True)[-1])
        """)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""


def test_import_grundy_does_not_import_tqdm():
    r = run("""
        import sys, grundy
        sol = grundy.GameGraph.from_edges([(0, 1)]).solve()
        print("tqdm" in sys.modules)
        """)
    assert r.stdout.strip() == "False", r.stderr


def test_a_solve_inside_a_callback_keeps_the_outer_reporting():
    # The kernel's own calls (no throttle): as many with a solve inside the
    # callback as without.
    from grundy._core import retrograde
    from grundy._core.csr import CSRSource
    n = 300_000                       # a chain with shortcuts: every position decided
    g = grundy.GameGraph.from_edges([(i, i + k) for i in range(n) for k in (1, 2)
                                     if i + k < n], n=n)
    small = grundy.GameGraph.from_edges([(0, 1)])

    def kernel_calls(inner):
        calls = []

        def report(done, total):
            calls.append(done)
            if inner:
                small.solve(progress=lambda d, t: None)

        n = g.n_positions
        src = CSRSource(g.indptr, g.indices)
        retrograde.solve(src, np.empty(n, np.uint8), np.empty(n, np.int32), progress=report)
        return len(calls)

    plain = kernel_calls(False)
    assert plain >= 3 and kernel_calls(True) == plain


def test_numpy_bool_progress(capsys):
    # A numpy bool is taken as a bool: False draws nothing, and True draws
    # nothing either where the output is not a terminal; the values are the same.
    expected = grundy.OctalGame("0.7").nim_sequence(5).tolist()
    for flag in (np.False_, np.True_):
        assert grundy.OctalGame("0.7").nim_sequence(5, progress=flag).tolist() == expected
    assert capsys.readouterr() == ("", "")
    with pytest.raises(TypeError, match="progress"):
        grundy.OctalGame("0.7").nim_sequence(5, progress=np.int64(1))
