"""The nim and graph command lines on random and edge-case input, against
plain Python computations of the same answers."""
import random
import re
import subprocess
import sys

import pytest

from grundy import GameGraph, __version__
from reference import nim_tree, nim_winning_moves_tree



def run(*args, stdin=b""):
    proc = subprocess.run([sys.executable, "-m", "grundy", *args], input=stdin,
                          capture_output=True, timeout=120)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def python_nim_answer(piles, misere):
    """The answer line, from the xor rule written out in plain Python."""
    s = 0
    for x in piles:
        s ^= x
    if misere and all(x <= 1 for x in piles):
        ones = sum(piles)
        if ones % 2:
            return "LOSS"
        return f"WIN {piles.index(1)} 0" if ones else "WIN"
    if misere and sum(x > 1 for x in piles) == 1:
        i = next(i for i, x in enumerate(piles) if x > 1)
        return f"WIN {i} {1 if sum(x == 1 for x in piles) % 2 == 0 else 0}"
    for i, x in enumerate(piles):
        if x ^ s < x:
            return f"WIN {i} {x ^ s}"
    return "LOSS"


@pytest.mark.parametrize("misere", [False, True])
def test_nim_cli_matches_python_xor_on_random_input(misere):
    rng = random.Random(7 + misere)
    positions, lines = [], []
    for _ in range(3000):
        kind = rng.random()
        if kind < 0.3:
            piles = [rng.choice([0, 1, 1, 2, 3]) for _ in range(rng.randrange(0, 6))]
        elif kind < 0.9:
            piles = [rng.randrange(0, 2 ** rng.choice([3, 20, 63, 64])) for _ in range(rng.randrange(1, 9))]
        else:       # past 64 bits: answered exactly with Python ints
            piles = [rng.randrange(0, 2 ** rng.choice([64, 65, 200])) for _ in range(rng.randrange(1, 5))]
        positions.append(piles)
        sep = rng.choice([" ", "  ", "\t", " \t "])
        lines.append(rng.choice(["", " ", "\t"]) + sep.join(map(str, piles)) + rng.choice(["", " "]))
    text = "\n".join(lines) + "\n"
    code, out, err = run("nim", *(["--misere"] if misere else []), stdin=text.encode())
    assert code == 0, err
    got = out.splitlines()
    assert len(got) == len(positions)
    for piles, answer in zip(positions, got):
        assert answer == python_nim_answer(piles, misere), piles


@pytest.mark.parametrize("misere", [False, True])
def test_nim_cli_small_positions_against_game_tree(misere):
    import itertools
    positions = [list(p) for k in range(4) for p in itertools.product(range(4), repeat=k)]
    text = "".join(" ".join(map(str, p)) + "\n" for p in positions).encode()
    code, out, err = run("nim", *(["--misere"] if misere else []), stdin=text)
    assert code == 0, err
    for piles, answer in zip(positions, out.splitlines()):
        moves = nim_winning_moves_tree(piles, misere)
        if moves:            # the CLI names the pile reduced and its new size
            pile = next(i for i, (x, y) in enumerate(zip(piles, moves[0])) if x != y)
            assert answer == f"WIN {pile} {moves[0][pile]}"
        else:
            assert answer == ("LOSS" if nim_tree(piles, misere) == -1 else "WIN")


@pytest.mark.parametrize("misere", [False, True])
def test_nim_cli_answers_as_the_api(misere):
    # The compiled reader's rule against grundy.nim_move's (impartial/nim.py),
    # on random positions mixing 0/1 piles (the misère cases) and large ones.
    from grundy import LOSS, NO_MOVE, nim_move, nim_outcome
    rng = random.Random(11)
    positions = []
    for _ in range(3000):
        k = rng.randrange(0, 7)
        positions.append([rng.choice([0, 1, 1, 2, 3, 7, rng.randrange(2 ** 63)])
                          for _ in range(k)])
    text = "".join(" ".join(map(str, p)) + "\n" for p in positions).encode()
    code, out, err = run("nim", *(["--misere"] if misere else []), stdin=text)
    assert code == 0, err
    for piles, answer in zip(positions, out.splitlines()):
        move = nim_move(piles, misere=misere)
        if move is NO_MOVE:
            expected = "LOSS" if nim_outcome(piles, misere=misere) == LOSS else "WIN"
        else:
            pile = next(i for i, (x, y) in enumerate(zip(piles, move)) if x != y)
            expected = f"WIN {pile} {move[pile]}"
        assert answer == expected, piles


def test_nim_cli_line_ends_and_huge_piles():
    assert run("nim", stdin=b"3 4 5\r\n1 2 3\r\n")[:2] == (0, "WIN 0 1\nLOSS\n")
    assert run("nim", stdin=b"7")[:2] == (0, "WIN 0 0\n")          # no final newline
    assert run("nim", stdin=b"")[:2] == (0, "")
    assert run("nim", stdin=b"\n\n")[:2] == (0, "LOSS\nLOSS\n")
    big = 10 ** 4999 + 7                     # 5000 digits: past int()'s default limit
    if hasattr(sys, "set_int_max_str_digits"):
        old = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)           # to write the expected answers
        try:
            _check_huge_piles(big)
        finally:
            sys.set_int_max_str_digits(old)
    else:
        _check_huge_piles(big)


def _check_huge_piles(big):
    code, out, err = run("nim", stdin=f"{big} 5\n1 1\n".encode())
    assert code == 0, err
    assert out.splitlines() == ["WIN 0 5", "LOSS"]
    code, out, _ = run("nim", stdin=f"{big} {big + 1}\n".encode())
    assert (code, out) == (0, f"WIN 1 {big}\n")


@pytest.mark.parametrize("stdin, match", [
    (b"1 x\n", r"line 1: pile 'x' is not an integer"),
    (b"\n\n1 2\n3 -4\n", r"line 4: pile '-4' is negative"),
    (b"1 +2\n", r"line 1: pile '\+2' is not an integer"),
    (b"1_0\n", r"line 1: pile '1_0' is not an integer"),
    ("１２\n".encode(), r"line 1: pile '１２' is not an integer"),        # fullwidth
    ("١٢\n".encode(), r"line 1: pile '١٢' is not an integer"),          # Arabic-Indic
    (b"1\x0c2\n", r"line 1: pile '1\\x0c2' is not an integer"),          # form feed
    ("1\u20282\n".encode(), r"line 1: pile '1\\u20282' is not an integer"),
    (b"1 2.0\n", r"line 1: pile '2.0' is not an integer"),
    (b"5 " + b"9" * 300 + b"x\n", r"line 1: pile '9{40}\.\.\.' is not an integer"),
])
def test_nim_cli_bad_input(stdin, match):
    code, out, err = run("nim", stdin=stdin)
    assert code == 2 and out == "", err
    assert err.startswith("grundy: error: ") and "Traceback" not in err
    assert re.search(match, err), err


def test_graph_cli_edge_lists_with_names():
    text = b"# moves\nstart,mid\nmid end\n\n  end , start  \nmid,out\r\n"
    code, out, err = run("graph", "--format", "edges", stdin=text)
    assert code == 0, err
    g = GameGraph.from_edges([("start", "mid"), ("mid", "end"), ("end", "start"),
                              ("mid", "out")], names=True)
    sol = g.solve()
    names = {1: "WIN", -1: "LOSS", 0: "DRAW"}
    assert out.splitlines() == [f"{v} {names[sol.outcome[i]]} {sol.remoteness[i]}"
                                for i, v in enumerate(g.positions)]
    assert out.splitlines() == ["start LOSS 2", "mid WIN 1", "end WIN 3", "out LOSS 0"]
    code, out, _ = run("graph", "--format", "edges", "--misere", stdin=b"1 2\n2 3\n")
    assert (code, out) == (0, "1 WIN 2\n2 LOSS 1\n3 WIN 0\n")
    assert run("graph", "--format", "edges", stdin=b"")[:2] == (0, "")


@pytest.mark.parametrize("stdin, match", [
    (b"a b\nc\n", r"line 2: expected an edge 'u v' or 'u,v', got 'c'"),
    (b"a b c\n", r"line 1: expected an edge .* got 'a b c'"),
    (b"a,,b\n", r"line 1: .* got 'a,,b'"),
    (b"a\x0cb c\n", r"line 1: "),
    (b"\xff b\n", r"not UTF-8"),
])
def test_graph_cli_edge_list_errors(stdin, match):
    code, out, err = run("graph", "--format", "edges", stdin=stdin)
    assert code == 2 and out == "" and "Traceback" not in err
    assert re.search(match, err), err


def test_graph_cli_one_based_needs_nm_format():
    code, _, err = run("graph", "--format", "edges", "--one-based", stdin=b"a b\n")
    assert code == 2 and "--one-based applies to --format nm" in err


def test_version_and_help_list_every_command():
    code, out, _ = run("--version")
    assert (code, out.strip()) == (0, f"grundy {__version__}")
    code, out, _ = run("--help")
    assert code == 0
    listed = re.findall(r"^    (\w+) +\S", out, re.M)
    assert listed == ["graph", "nim", "police", "octal", "query", "play"]
