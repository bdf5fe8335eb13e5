"""The graph command line's --labels (fixed outcomes, TIE among them),
against the API and the slow references of ``reference.py``."""
import random
import re
import subprocess
import sys

import pytest

from grundy import DRAW, LOSS, TIE, WIN
from conftest import random_graph
from reference import solve_rounds_ties

PY = sys.executable


# ---------------------------------------------------------------------------
# 7. The graph CLI with --labels

def cli(*args, stdin=b"", labels=None, tmp_path=None):
    argv = [PY, "-m", "grundy", "graph", *args]
    if labels is not None:
        path = tmp_path / "labels.txt"
        path.write_bytes(labels)
        argv += ["--labels", str(path)]
    proc = subprocess.run(argv, input=stdin, capture_output=True, timeout=60)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


DOC_GRAPH = b"6 5\n0 1\n0 4\n1 2\n1 3\n4 5\n"
ONE_BASED = b"6 5\n1 2\n1 5\n2 3\n2 4\n5 6\n"        # the same graph, from 1


def test_cli_labels_tie(tmp_path):
    code, out, err = cli(stdin=DOC_GRAPH, labels=b"# fixed\n3 TIE\n\n2 WIN\n", tmp_path=tmp_path)
    assert (code, err) == (0, "")
    assert out.splitlines() == ["TIE 2", "TIE 1", "WIN 0", "TIE 0", "WIN 1", "LOSS 0"]
    # One-based: the graph and the labels both count from 1.
    code, out, err = cli("--one-based", stdin=ONE_BASED, labels=b"4 TIE\n3 WIN\n", tmp_path=tmp_path)
    assert (code, err) == (0, "")
    assert out.splitlines() == ["TIE 2", "TIE 1", "WIN 0", "TIE 0", "WIN 1", "LOSS 0"]
    # Misere: 5 has no move, a WIN; 4 moves to it, a LOSS; 0 prefers LOSS for the opponent.
    code, out, err = cli("--misere", stdin=DOC_GRAPH, labels=b"3 TIE\n2 WIN\n", tmp_path=tmp_path)
    assert code == 0 and out.splitlines() == ["WIN 2", "TIE 1", "WIN 0", "TIE 0", "LOSS 1",
                                              "WIN 0"]


def test_cli_labels_with_names(tmp_path):
    edges = b"start a\nstart x\na won\na tied\nx y\n"
    code, out, err = cli("--format", "edges", stdin=edges, labels=b"tied TIE\nwon WIN\n",
                         tmp_path=tmp_path)
    assert (code, err) == (0, "")
    assert out.splitlines() == ["start TIE 2", "a TIE 1", "x WIN 1", "won WIN 0", "tied TIE 0",
                                "y LOSS 0"]


def test_cli_labels_random_graph_against_api(tmp_path):
    rng = random.Random(77)
    n = 300
    succ = random_graph(rng, n, 500)
    labels = {rng.randrange(n): rng.choice([WIN, LOSS, TIE]) for _ in range(40)}
    edges = [(u, v) for u in range(n) for v in succ[u]]
    text = f"{n} {len(edges)}\n" + "".join(f"{u} {v}\n" for u, v in edges)
    lab = "".join(f"{v} {o.name}\n" for v, o in labels.items())
    code, out, err = cli(stdin=text.encode(), labels=lab.encode(), tmp_path=tmp_path)
    assert (code, err) == (0, "")
    outcome, rem = solve_rounds_ties(n, succ, labels=labels)
    names = {WIN: "WIN", LOSS: "LOSS", TIE: "TIE", DRAW: "DRAW"}
    assert out.splitlines() == [f"{names[o]} {r}" for o, r in zip(outcome, rem)]
    assert "TIE" in out


@pytest.mark.parametrize("args, labels, match", [
    ((), b"9 TIE\n", r"line 1: '?9'? is not a position of the graph"),
    ((), b"3 TIE\n6 WIN\n", r"line 2: '?6'? is not a position"),
    (("--one-based",), b"0 TIE\n", r"line 1: '?0'? is not a position"),
    (("--one-based",), b"7 TIE\n", r"line 1: '?7'? is not a position"),
    ((), b"3 DRAW\n", r"line 1: expected 'position WIN\|LOSS\|TIE', got '?3 DRAW"),
    ((), b"3 tie\n", r"line 1: expected 'position WIN\|LOSS\|TIE'"),
    ((), b"3\n", r"line 1: expected 'position WIN\|LOSS\|TIE'"),
    ((), b"\n3 TIE x\n", r"line 2: expected"),
    ((), b"-1 TIE\n", r"line 1: the position must be a non-negative integer"),
    ((), b"x TIE\n", r"line 1: the position must be a non-negative integer"),
    ((), b"1e0 TIE\n", r"line 1: the position must be a non-negative integer"),
    ((), b"3 TIE\n\xff\xfe WIN\n", r"not UTF-8"),
    (("--format", "edges"), b"nobody TIE\n", r"line 1: '?nobody'? is not a position"),
    (("--format", "edges"), b"a WIN\nb\tLOSS\nc LOSS\n\nd TIE\n", r"line 5: '?d'? is not"),
])
def test_cli_bad_labels(tmp_path, args, labels, match):
    stdin = b"a b\nb c\n" if "edges" in args else ONE_BASED if "--one-based" in args else DOC_GRAPH
    code, out, err = cli(*args, stdin=stdin, labels=labels, tmp_path=tmp_path)
    assert code == 2 and out == "", (code, out, err)
    assert err.startswith("grundy: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    assert str(tmp_path / "labels.txt") in err
    assert re.search(match, err), err


def test_cli_missing_labels_file(tmp_path):
    proc = subprocess.run([PY, "-m", "grundy", "graph", "--labels", str(tmp_path / "nope")],
                          input=DOC_GRAPH, capture_output=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.decode().startswith("grundy: error: cannot read")
