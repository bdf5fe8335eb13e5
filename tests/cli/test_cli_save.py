"""The command line's --save, query, --plot, and its progress bar on a terminal."""
import os
import subprocess
import sys

import numpy as np
import pytest

import grundy
from locations import ROOT

POLICE = os.path.join(ROOT, "examples", "police.txt")
GRAPH = os.path.join(ROOT, "examples", "graph.txt")


def run(*args, stdin=b"", cwd=None):
    r = subprocess.run([sys.executable, "-m", "grundy", *args], input=stdin,
                       capture_output=True, timeout=120, cwd=cwd)
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def test_police_save_then_query(tmp_path):
    path = str(tmp_path / "p.npz")
    code, out, err = run("police", POLICE, "--save", path)
    assert (code, out, err) == (0, "The thief escapes\n", "")
    sol = grundy.load(path)
    board = grundy.PoliceThief.parse(open(POLICE).read())
    assert np.array_equal(sol.outcome, board.solve().outcome)
    code, out, err = run("query", path, "start", "0,0/2,3/thief", "0,3/0,3/police")
    assert code == 0, err
    lines = out.splitlines()
    e = sol[sol.start]
    move = e.move
    assert lines[0] == (f"start {e.outcome} {e.remoteness} "
                        f"{move.police[0]},{move.police[1]}/{move.thief[0]},{move.thief[1]}/"
                        f"{'police' if move.police_to_move else 'thief'}")
    p = grundy.PolicePosition((0, 0), (2, 3), False)
    assert lines[1].startswith(f"0,0/2,3/thief {sol[p].outcome} {sol[p].remoteness} ")
    assert lines[2] == "0,3/0,3/police WIN 0 -"           # caught: the game is over
    code, out, _ = run("query", path)                       # no position: a summary
    assert code == 0 and "n_positions=" in out and out.splitlines()[1].startswith("start ")


def test_graph_save_then_query(tmp_path):
    path = str(tmp_path / "g.npz")
    code, out, err = run("graph", GRAPH, "--save", path)
    assert code == 0, err
    code, q, err = run("query", path, *map(str, range(4)))
    assert code == 0, err
    for k, (line, answer) in enumerate(zip(out.splitlines(), q.splitlines())):
        outcome, r = line.split()
        assert answer.split()[:3] == [str(k), outcome, r]
    code, out, err = run("graph", "--format", "edges", "--save", path, stdin=b"a b\nb c\n")
    assert code == 0, err
    code, out, err = run("query", path, "a", "c", "b")
    assert (code, out) == (0, "a LOSS 2 b\nc LOSS 0 -\nb WIN 1 c\n"), err


def test_octal_save_then_query(tmp_path):
    path = str(tmp_path / "o.npz")
    code, out, err = run("octal", "0.77", "200", "--period", "--save", path)
    assert code == 0, err
    game = grundy.load(path)
    assert game.nim_sequence(200).tolist() == [int(x) for x in out.split("\n")[0].split()]
    code, out, err = run("query", path, "4", "10000000000000000000000", "1+2+3", "0")
    assert code == 0, err
    kayles = grundy.OctalGame("0.77")
    g = kayles.value(10 ** 22)
    assert out.splitlines() == ["4 1 WIN", f"10000000000000000000000 {g} {'WIN' if g else 'LOSS'}",
                                "1+2+3 0 LOSS", "0 0 LOSS"]
    code, out, _ = run("query", path)
    assert out.splitlines() == ["OctalGame('0.77'): G(0..200) known",
                                "period 12 preperiod 71 proved-at 167"]


def test_query_games_and_loopy(tmp_path):
    path = str(tmp_path / "t.npz")
    code = ("import grundy\n"
            "class T(grundy.Game):\n"
            "    def start(self): return (3, 'x')\n"
            "    def moves(self, p): return [(p[0] - k, 'x') for k in (1, 2) if k <= p[0]]\n"
            f"grundy.solve_game(T()).save({path!r})\n"
            "g = grundy.GameGraph.from_edges([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)])\n"
            f"g.loopy_values().save({path!r} + '.loopy.npz')\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)
    code, out, err = run("query", path, "(3, 'x')", "start", "(0,'x')")
    assert (code, err) == (0, "")
    move = grundy.load(path).best_move((3, "x"))
    assert move in ((1, "x"), (2, "x"))
    assert out.splitlines() == [f"(3, 'x') LOSS 2 {move!r}", f"start LOSS 2 {move!r}",
                                "(0,'x') LOSS 0 -"]
    code, out, err = run("query", path + ".loopy.npz", "2", "3", "4")
    assert out.splitlines() == ["2 inf{1} DRAW", "3 1 WIN", "4 0 LOSS"], err


@pytest.mark.parametrize("args, match", [
    (["query", "none.npz"], "cannot read 'none.npz': No such file"),
    (["query", POLICE], "not a saved grundy solution"),
])
def test_query_errors(args, match):
    code, out, err = run(*args)
    assert code == 2 and out == "" and match in err and err.startswith("grundy: error:")


@pytest.mark.parametrize("kind, positions, match", [
    ("police", ["0,0"], r"a police position is PR,PC/TR,TC/police\|thief"),
    ("police", ["9,9/0,0/police"], r"cell \(9, 9\) is off"),
    ("police", ["1,1/0,4/thief"], r"cell \(1, 1\) is blocked"),
    ("graph", ["7"], "'7' is not a position of the saved GraphSolution"),
    ("graph", ["-1"], "not a position"),
    ("octal", ["3+x"], "a position of a take-and-break game is a heap size N"),
    ("octal", ["-3"], "heap size N"),
])
def test_query_bad_positions(kind, positions, match, tmp_path):
    path = str(tmp_path / "s.npz")
    make = {"police": ["police", POLICE], "graph": ["graph", GRAPH], "octal": ["octal", "0.7", "5"]}
    assert run(*make[kind], "--save", path)[0] == 0
    code, out, err = run("query", path, *positions)
    assert code == 2 and out == "", err
    import re
    assert re.search(match, err), err


def test_save_to_an_unwritable_place(tmp_path):
    code, out, err = run("police", POLICE, "--save", str(tmp_path / "no" / "dir.npz"))
    assert code == 1 and "cannot save" in err and out == ""


def test_query_on_a_damaged_file(tmp_path):
    path = tmp_path / "p.npz"
    assert run("police", POLICE, "--save", str(path))[0] == 0
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    code, out, err = run("query", str(path), "start")
    assert code == 2 and "damaged" in err, err


def rgb(png_path):
    import matplotlib.image
    return matplotlib.image.imread(png_path)[..., :3]


def test_police_plot(tmp_path):
    from grundy import plot
    from matplotlib.colors import to_rgb
    path = str(tmp_path / "board.png")
    code, out, err = run("police", POLICE, "--plot", path)
    assert (code, err) == (0, "")
    img = rgb(path)
    assert img.shape[0] > 200 and img.shape[1] > 200
    # The walls of the board and the exit ring are in the picture.
    for color in (plot.WALL_COLOR, plot.EXIT_COLOR):
        near = np.abs(img - np.array(to_rgb(color))).max(axis=2) < 0.02
        assert near.sum() > 50, color


def test_octal_plot_and_formats(tmp_path):
    from grundy import plot
    from matplotlib.colors import to_rgb
    path = str(tmp_path / "seq.png")
    code, out, err = run("octal", "0.77", "150", "--plot", path)
    assert (code, err) == (0, "")
    img = rgb(path)
    near = np.abs(img - np.array(to_rgb(plot.SEQUENCE_COLOR))).max(axis=2) < 0.05
    assert near.sum() > 100
    code, _, err = run("octal", "0.77", "20", "--plot", str(tmp_path / "seq.svg"))
    assert code == 0 and open(tmp_path / "seq.svg").read().lstrip().startswith("<?xml")
    code, _, err = run("octal", "0.77", "20", "--plot", str(tmp_path / "seq.nope"))
    assert code == 2 and "grundy: error:" in err and "nope" in err


def test_plot_without_matplotlib(tmp_path):
    code = ("import sys; sys.modules['matplotlib'] = None\n"
            "from grundy.cli import main\n"
            f"sys.exit(main(['octal', '0.7', '5', '--plot', {str(tmp_path / 'x.png')!r}]))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "pip install 'grundy[plot]'" in r.stderr


def test_progress_bar_on_a_terminal_only(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    board = tmp_path / "big.txt"
    n = 75
    rows = ["P" + "." * (n - 2) + "T"] + ["." * n] * (n - 1)
    board.write_text(f"{n} {n}\n" + "\n".join(rows) + "\n")
    child = pexpect.spawn(sys.executable, ["-m", "grundy", "police", str(board)],
                          timeout=120, env={**os.environ, "COLUMNS": "80"})
    child.expect(pexpect.EOF)
    child.close()
    seen = child.before.decode()
    assert child.exitstatus == 0
    assert "Police catches the thief" in seen
    assert "positions/s" in seen or "positions]" in seen, seen[-400:]   # tqdm's bar
    # Not a terminal: no bar at all.
    code, out, err = run("police", str(board))
    assert (code, out, err) == (0, "Police catches the thief\n", "")
