"""The grundy command line, run as a real subprocess on files and stdin."""
import os
import subprocess
import sys

import numpy as np
import pytest

from grundy import GameGraph
from locations import EXAMPLES



def run(*args, stdin=b""):
    proc = subprocess.run([sys.executable, "-m", "grundy", *args], input=stdin,
                          capture_output=True, timeout=120)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def test_graph_example_file():
    code, out, err = run("graph", os.path.join(EXAMPLES, "graph.txt"))
    assert code == 0, err
    assert out.splitlines() == ["WIN 3", "LOSS 2", "WIN 1", "LOSS 0", "DRAW -1", "WIN 3", "DRAW -1"]


def test_graph_stdin_misere_one_based():
    code, out, _ = run("graph", "--one-based", stdin=b"3 2\n1 2\n2 3\n")
    assert (code, out) == (0, "LOSS 2\nWIN 1\nLOSS 0\n")
    code, out, _ = run("graph", "--misere", stdin=b"3 2\n0 1\n1 2\n")
    assert (code, out) == (0, "WIN 2\nLOSS 1\nWIN 0\n")


def test_graph_console_script_and_draws():
    exe = os.path.join(os.path.dirname(sys.executable), "grundy")
    if not os.path.exists(exe):
        pytest.skip("console script not on this interpreter's bin path")
    proc = subprocess.run([exe, "graph"], input=b"2 1\n0 0\n", capture_output=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout == b"DRAW -1\nLOSS 0\n"


def test_graph_no_edges_and_whitespace():
    assert run("graph", stdin=b"  2 0 \n\n")[:2] == (0, "LOSS 0\nLOSS 0\n")
    assert run("graph", stdin=b"0 0\n")[:2] == (0, "")


def test_graph_large_input():
    rng = np.random.default_rng(0)
    n, m = 10 ** 5, 10 ** 6
    edges = rng.integers(0, n, size=(m, 2))
    text = f"{n} {m}\n".encode() + "\n".join(f"{u} {v}" for u, v in edges).encode() + b"\n"
    code, out, err = run("graph", stdin=text)
    assert code == 0, err
    sol = GameGraph.from_edges(edges, n=n).solve()
    lines = out.splitlines()
    assert len(lines) == n
    names = {1: "WIN", -1: "LOSS", 0: "DRAW"}
    for v in range(0, n, 997):
        assert lines[v] == f"{names[sol.outcome[v]]} {sol.remoteness[v]}"


@pytest.mark.parametrize("stdin, match", [
    (b"", "empty input"),
    (b"   \n", "empty input"),
    (b"3\n", "line 1: expected 2 integers, got 1"),
    (b"3 2\n0 1\n", "announces m = 2 edges, but 1 edge lines follow"),
    (b"3 1\n0 1\n1 2\n", "announces m = 1 edges, but 2 edge lines follow"),
    (b"3 1\n0 x\n", "line 2: 'x' is not an integer"),
    (b"3 1\n0 1.5\n", "line 2: '1.5' is not an integer"),
    (b"3 1\n0 3\n", "edge 1 \\(line 2\\) = '0 3': vertices must be in 0..2"),
    (b"3 1\n-1 0\n", "edge 1 \\(line 2\\) = '-1 0'"),
    (b"-3 0\n", "n and m must be >= 0"),
    (b"2 1\n0 1 1\n", "line 2: expected 2 integers, got 3"),
    (b"2 1\n0 99999999999999999999\n", "does not fit in 64 bits"),
])
def test_graph_bad_input(stdin, match):
    code, out, err = run("graph", stdin=stdin)
    assert code == 2 and out == ""
    assert err.startswith("grundy: error: ")
    assert "Traceback" not in err
    import re
    assert re.search(match, err), err


def test_graph_bad_input_one_based():
    code, _, err = run("graph", "--one-based", stdin=b"2 1\n0 1\n")
    assert code == 2 and "vertices must be in 1..2 (--one-based)" in err


def test_missing_file_and_bad_usage():
    code, _, err = run("graph", "/nonexistent/file.txt")
    assert code == 2 and err.startswith("grundy: error: cannot read '/nonexistent/file.txt'")
    code, _, err = run("nonsense")
    assert code == 2 and "grundy: error:" in err
    code, _, err = run()
    assert code == 2 and "grundy: error:" in err
