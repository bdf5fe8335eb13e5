"""Police and thief: the implicit solver against the explicit state graph
solved by the generic GameGraph.solve(labels=...)."""
import os
import random
import subprocess
import sys

import numpy as np
import pytest

import grundy
from grundy import DRAW, LOSS, WIN, BoardError, GameGraph, MemoryLimitError, PoliceThief

EXAMPLES = os.path.join(os.path.dirname(__file__), os.pardir, "examples")
KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
ROOK = [(-1, 0), (1, 0), (0, -1), (0, 1)]


def explicit_reference(rows, police_moves=KING, thief_moves=ROOK, passing=True):
    """Build every state and move by hand; solve with the generic solver.

    Returns (cells, outcome[p][t][ptm], remoteness[p][t][ptm]) with cells
    numbered in row-major order over the free cells.
    """
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "*"]
    idx = {cell: i for i, cell in enumerate(cells)}
    exits = {cell for cell in cells if rows[cell[0]][cell[1]] == "E"}
    F = len(cells)

    def sid(p, t, ptm):
        return (p * F + t) * 2 + ptm

    def steps(cell, offsets):
        out = [idx[(cell[0] + dr, cell[1] + dc)] for dr, dc in offsets
               if (cell[0] + dr, cell[1] + dc) in idx]
        return out + ([idx[cell]] if passing else [])

    edges, labels = [], {}
    for p in range(F):
        for t in range(F):
            if p == t:
                labels[sid(p, t, 1)] = WIN        # police to move, on the thief
                labels[sid(p, t, 0)] = LOSS
                continue
            if cells[t] in exits:
                labels[sid(p, t, 0)] = WIN        # thief to move, on an exit
                labels[sid(p, t, 1)] = LOSS
                continue
            for p2 in steps(cells[p], police_moves):
                edges.append((sid(p, t, 1), sid(p2, t, 0)))
            for t2 in steps(cells[t], thief_moves):
                edges.append((sid(p, t, 0), sid(p, t2, 1)))
    g = GameGraph.from_edges(edges, n=2 * F * F)
    sol = g.solve(labels=labels)
    return cells, sol.outcome.reshape(F, F, 2), sol.remoteness.reshape(F, F, 2)


def random_board(rng, max_cells=60):
    while True:
        R = rng.randrange(1, 9)
        C = rng.randrange(1, max(2, max_cells // R + 1))
        if R * C > max_cells:
            continue
        grid = [["*" if rng.random() < rng.choice([0.0, 0.15, 0.35]) else "." for _ in range(C)]
                for _ in range(R)]
        free = [(r, c) for r in range(R) for c in range(C) if grid[r][c] == "."]
        k = rng.randrange(1, 4)
        if len(free) < 2 + k:
            continue
        chosen = rng.sample(free, 2 + k)
        grid[chosen[0][0]][chosen[0][1]] = "P"
        grid[chosen[1][0]][chosen[1][1]] = "T"
        for r, c in chosen[2:]:
            grid[r][c] = "E"
        return ["".join(row) for row in grid]


MOVE_SETS = [
    ("king", "rook", KING, ROOK),
    ("rook", "king", ROOK, KING),
    ("rook", "rook", ROOK, ROOK),
    ([(2, 1), (-1, -2), (0, 1)], [(1, 0), (0, -1)], [(2, 1), (-1, -2), (0, 1)], [(1, 0), (0, -1)]),
]


@pytest.mark.parametrize("seed", range(12))
def test_random_boards_against_explicit_graph(seed):
    rng = random.Random(seed)
    for _ in range(25):
        rows = random_board(rng)
        pm, tm, pm_ref, tm_ref = rng.choice(MOVE_SETS)
        passing = rng.random() < 0.8
        board = PoliceThief.from_rows(rows, police_moves=pm, thief_moves=tm, passing=passing)
        sol = board.solve()
        cells, outcome, rem = explicit_reference(rows, pm_ref, tm_ref, passing)
        assert [tuple(c) for c in board.cells.tolist()] == cells
        assert np.array_equal(sol.outcomes, outcome), rows
        assert np.array_equal(sol.remoteness_array, rem), rows
        # best_move and line are consistent with the outcomes.
        for st in [(board.police, board.thief, True), (board.thief, board.police, False)]:
            line = sol.line(*st)
            o0 = sol.outcome(*st)
            if o0 != DRAW:
                assert len(line) == sol.remoteness(*st) + 1 or \
                    (not passing and sol.best_move(*line[-1]) is None)
            for a, b in zip(line, line[1:]):
                assert b.police_to_move != a.police_to_move
                assert sol.outcome(*b) == (-sol.outcome(*a) if o0 != DRAW else DRAW)


def test_hand_checked_boards():
    # Police next to the thief: caught in one move.
    sol = PoliceThief.from_rows(["PT.E"]).solve()
    assert sol.result == "Police catches the thief"
    assert sol.remoteness((0, 0), (0, 1)) == 1 and sol.best_move((0, 0), (0, 1)) == (0, 1)
    # Thief next to the exit, police far: the thief escapes after the police's move.
    sol = PoliceThief.from_rows(["P....TE"]).solve()
    assert sol.result == "The thief escapes"
    assert sol.outcome((0, 0), (0, 5)) == LOSS and sol.remoteness((0, 0), (0, 5)) == 2
    assert sol.outcome((0, 0), (0, 5), police_to_move=False) == WIN
    assert sol.best_move((0, 0), (0, 5), police_to_move=False) == (0, 6)
    # A thief cornered in a dead end: caught.
    sol = PoliceThief.from_rows(["T.P", "***", "..E"]).solve()
    assert sol.result == "Police catches the thief"
    assert sol.remoteness((0, 2), (0, 0)) == 3
    # The police guards the only way to the exit; the thief stays away: a draw.
    sol = PoliceThief.from_rows(["E", "P", ".", ".", ".", "T"]).solve()
    assert sol.result == "Police catches the thief"   # a corridor: the police walks down
    sol = PoliceThief.parse(open(os.path.join(EXAMPLES, "police_draw.txt")).read()).solve()
    assert sol.result == "Draw"
    assert sol.remoteness((3, 1), (6, 6)) == -1
    line = sol.line()
    assert line[-1] in line[:-1]
    # Terminal states.
    assert sol.best_move((0, 0), (0, 0)) is None
    assert sol.outcome((0, 0), (0, 0)) == WIN
    assert sol.outcome((0, 0), (0, 0), police_to_move=False) == LOSS


def test_several_exits_and_move_sets():
    # One exit on the left: the police (moving first) blocks the corridor.
    assert PoliceThief.from_rows(["E..T..P"]).solve().result == "The thief escapes"
    assert PoliceThief.from_rows(["E.PT..."]).solve().result == "Police catches the thief"
    # A second exit behind the thief decides it.
    assert PoliceThief.from_rows(["EP.T...", "*******"]).solve().result == "Police catches the thief"
    assert PoliceThief.from_rows(["EP.T..E", "*******"]).solve().result == "The thief escapes"
    # Extra exits never hurt the thief (outcomes seen by the police can only drop).
    rng = random.Random(11)
    for _ in range(40):
        rows = random_board(rng, 40)
        free = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "."]
        if not free:
            continue
        r, c = rng.choice(free)
        more = [row if i != r else row[:c] + "E" + row[c + 1:] for i, row in enumerate(rows)]
        a = PoliceThief.from_rows(rows).solve()
        b = PoliceThief.from_rows(more).solve()
        police = (slice(None), slice(None), 1)
        assert (b.outcomes[police] <= a.outcomes[police]).all()
    # Without passing, against the explicit reference.
    no_pass = PoliceThief.from_rows(["P.T.E"], passing=False).solve()
    cells, outcome, _ = explicit_reference(["P.T.E"], passing=False)
    assert np.array_equal(no_pass.outcomes, outcome)


def test_long_corridor_exercises_remoteness():
    # A long snake corridor: remoteness grows with its length.
    width = 30
    rows = []
    for r in range(9):
        if r % 2 == 0:
            rows.append("." * width)
        else:
            rows.append(("*" * (width - 1) + ".") if r % 4 == 1 else ("." + "*" * (width - 1)))
    rows[0] = "T" + rows[0][1:]
    rows[-1] = rows[-1][:-2] + "PE"
    sol = PoliceThief.from_rows(rows).solve()
    assert sol.result == "Police catches the thief"
    assert sol.remoteness(sol.board.police, sol.board.thief) > 100


def test_board_accessors():
    board = PoliceThief.parse(open(os.path.join(EXAMPLES, "police.txt")).read())
    assert board.n_rows == 5 and board.n_cols == 7 and board.police == (0, 0)
    assert board.n_states == 2 * board.n_cells ** 2
    assert board.steps((0, 0), "police") == [(0, 1), (1, 0)]
    assert board.steps((2, 3), "thief") == [(1, 3), (2, 2), (2, 4), (3, 3)]
    assert board.render((4, 6), (4, 6)).splitlines()[-1] == "......X"
    assert "PoliceThief(5x7" in repr(board)
    sol = board.solve()
    assert sol.outcomes.dtype == np.int8 and sol.outcomes.shape == (board.n_cells,) * 2 + (2,)
    p, t = board.cell_index((0, 0)), board.cell_index((2, 3))
    assert sol.outcomes[p, t, 1] == sol.outcome((0, 0), (2, 3))


@pytest.mark.parametrize("text, match, where", [
    ("", "empty input", (None, None)),
    ("2\n..", "line 1: expected 'n m'", (None, None)),
    ("2 x\n", "line 1: expected 'n m'", (None, None)),
    ("\n\n1_0 3\n", "line 3: expected 'n m' .*digits 0-9.*got '1_0 3'", (None, None)),
    ("0 3\n", "n, m >= 1", (None, None)),
    ("2 3\nP.T\n", "expected 2 rows after the first line, got 1", (1, None)),
    ("2 3\nP.T\n..\n", "row 1 \\(line 3\\) has 2 cells, expected 3", (1, None)),
    ("1 4\nP.TX\n", "row 0, column 3: unknown cell 'X'", (0, 3)),
    ("1 4\n..TE\n", "no P", (None, None)),
    ("1 4\nP..E\n", "no T", (None, None)),
    ("1 5\nPPT.E\n", "a second P at row 0, column 1", (0, 1)),
    ("2 3\nT.E\n.TP\n", "a second T at row 1, column 1", (1, 1)),
])
def test_bad_boards(text, match, where):
    with pytest.raises(BoardError, match=match) as info:
        PoliceThief.parse(text)
    assert (info.value.row, info.value.col) == where
    assert isinstance(info.value, ValueError)


def test_bad_rules_and_cells():
    with pytest.raises(ValueError, match="'queen' is not a move set"):
        PoliceThief.from_rows(["PTE"], police_moves="queen")
    with pytest.raises(ValueError, match=r"\(0, 0\) is not a step"):
        PoliceThief.from_rows(["PTE"], thief_moves=[(0, 0)])
    with pytest.raises(TypeError, match="not a \\(dr, dc\\) pair of integers"):
        PoliceThief.from_rows(["PTE"], thief_moves=["ab"])
    with pytest.raises(TypeError, match="list of row strings"):
        PoliceThief.from_rows("PTE")
    sol = PoliceThief.from_rows(["PT*E"]).solve()
    with pytest.raises(BoardError, match=r"cell \(0, 2\) is blocked"):
        sol.outcome((0, 2), (0, 1))
    with pytest.raises(BoardError, match=r"cell \(5, 0\) is off the 1 x 4 board"):
        sol.remoteness((5, 0), (0, 1))
    with pytest.raises(TypeError, match="a cell is a \\(row, col\\) pair"):
        sol.best_move(3, (0, 1))


def test_memory_budget_is_checked_before_allocating():
    board = PoliceThief.from_rows(["P" + "." * 98 + "T"] + ["." * 100] * 98 + ["." * 99 + "E"])
    with pytest.raises(MemoryLimitError,
                       match=r"\(200,000,000 states\) needs about [\d.,]+ MiB, more than max_memory"):
        board.solve(max_memory=2 ** 29)


def run_cli(*args, stdin=b""):
    return subprocess.run([sys.executable, "-m", "grundy", "police", *args], input=stdin,
                          capture_output=True, timeout=120)


def test_cli_examples():
    expected = {"police.txt": "The thief escapes", "police_catch.txt": "Police catches the thief",
                "police_draw.txt": "Draw"}
    for name, result in expected.items():
        proc = run_cli(os.path.join(EXAMPLES, name))
        assert proc.returncode == 0 and proc.stdout.decode() == result + "\n"
    with open(os.path.join(EXAMPLES, "police.txt"), "rb") as f:
        proc = run_cli(stdin=f.read())
    assert proc.stdout.decode() == "The thief escapes\n"


def test_cli_explain():
    proc = run_cli("--explain", os.path.join(EXAMPLES, "police_catch.txt"))
    out = proc.stdout.decode()
    assert proc.returncode == 0 and out.startswith("Police catches the thief\nremoteness ")
    r = int(out.splitlines()[1].split()[1])
    assert out.count("\nstate ") == r + 1
    assert "X" in out.split("\nstate ")[-1]           # police on the thief at the end


@pytest.mark.parametrize("stdin, match", [
    (b"", "empty input"),
    (b"\n\n", "empty input"),
    (b"1 3\nP?E\n", "row 0, column 1: unknown cell '?'"),
])
def test_cli_errors(stdin, match):
    proc = run_cli(stdin=stdin)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and err.startswith("grundy: error: ") and match in err
    proc = run_cli("--max-memory", "100", stdin=b"1 3\nPTE\n")
    assert proc.returncode == 2 and "max_memory" in proc.stderr.decode()
    proc = run_cli("--max-memory", "lots", stdin=b"1 3\nPTE\n")
    assert proc.returncode == 2 and "invalid --max-memory 'lots'" in proc.stderr.decode()


def test_remoteness_overflow_reruns_with_int32(monkeypatch):
    """When a remoteness does not fit uint16 the kernel says so and the board
    is solved again with int32 remoteness (simulated: the first call fails)."""
    from grundy._core import police as kernel
    real = kernel.solve_police
    dtypes = []

    def first_overflows(*args, **kwargs):
        dtypes.append(args[-1].dtype)
        if len(dtypes) == 1:
            real(*args, **kwargs)
            return "overflow"
        return real(*args, **kwargs)

    board = PoliceThief.parse(open(os.path.join(EXAMPLES, "police.txt")).read())
    expected = board.solve()
    monkeypatch.setattr(kernel, "solve_police", first_overflows)
    sol = board.solve()
    assert dtypes == [np.uint16, np.int32]
    assert np.array_equal(sol.outcomes, expected.outcomes)
    assert np.array_equal(sol.remoteness_array, expected.remoteness_array)
    dtypes.clear()
    big = PoliceThief.from_rows(["P" + "." * 28 + "T"] + ["." * 30] * 28 + ["." * 29 + "E"])
    with pytest.raises(MemoryLimitError, match="remoteness exceeds 65535 and needs 32 bits"):
        big.solve(max_memory=big.memory_estimate() + 1)
