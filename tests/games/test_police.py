"""Police and thief: the implicit solver against the explicit state graph
solved by the generic GameGraph.solve(labels=...)."""
import copy as copy_module
import os
import pickle
import random
import subprocess
import sys

import numpy as np
import pytest

import grundy
from grundy import (DRAW, LOSS, NO_MOVE, WIN, BoardError, GameGraph, MemoryLimitError,
                    PolicePosition, PoliceThief, solve_source)
from locations import EXAMPLES
from reference import check_moves_ties, first_keeping_moves, solve_rounds_ties

KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
ROOK = [(-1, 0), (1, 0), (0, -1), (0, 1)]


def explicit_reference(rows, police_moves=KING, thief_moves=ROOK, passing=True):
    """Build every state and move by hand; solve with the generic solver.

    Returns (cells, outcome, remoteness): flat arrays by position number
    (p * F + t) * 2 + ptm, with cells numbered in row-major order over the
    free cells.
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
    return cells, sol.outcome, sol.remoteness


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
        board = PoliceThief(rows, police_moves=pm, thief_moves=tm, passing=passing)
        sol = board.solve()
        cells, outcome, rem = explicit_reference(rows, pm_ref, tm_ref, passing)
        assert [tuple(c) for c in board.cells.tolist()] == cells
        assert np.array_equal(sol.outcome, outcome), rows
        assert sol.remoteness.dtype == np.int64
        assert np.array_equal(sol.remoteness, rem), rows
        # best_move and line are consistent with the outcomes.
        for st in [(board.police, board.thief, True), (board.thief, board.police, False)]:
            line = sol.line(st)
            o0 = sol[st].outcome
            if o0 != DRAW:
                assert len(line) == sol[st].remoteness + 1 or \
                    (not passing and sol.best_move(line[-1]) is NO_MOVE)
            for a, b in zip(line, line[1:]):
                assert b.police_to_move != a.police_to_move
                assert sol[b].outcome == (-sol[a].outcome if o0 != DRAW else DRAW)


def test_hand_checked_boards():
    # Police next to the thief: caught in one move.
    sol = PoliceThief(["PT.E"]).solve()
    assert sol.result == "Police catches the thief"
    assert sol[(0, 0), (0, 1), True].remoteness == 1
    assert sol.best_move(((0, 0), (0, 1), True)).police == (0, 1)
    # Thief next to the exit, police far: the thief escapes after the police's move.
    sol = PoliceThief(["P....TE"]).solve()
    assert sol.result == "The thief escapes"
    assert sol[(0, 0), (0, 5), True].outcome == LOSS and sol[(0, 0), (0, 5), True].remoteness == 2
    assert sol[PolicePosition((0, 0), (0, 5), police_to_move=False)].outcome == WIN
    assert sol.best_move(PolicePosition((0, 0), (0, 5), police_to_move=False)).thief == (0, 6)
    # A thief cornered in a dead end: caught.
    sol = PoliceThief(["T.P", "***", "..E"]).solve()
    assert sol.result == "Police catches the thief"
    assert sol[(0, 2), (0, 0), True].remoteness == 3
    # The police guards the only way to the exit; the thief stays away: a draw.
    sol = PoliceThief(["E", "P", ".", ".", ".", "T"]).solve()
    assert sol.result == "Police catches the thief"   # a corridor: the police walks down
    sol = PoliceThief.parse(open(os.path.join(EXAMPLES, "police_draw.txt")).read()).solve()
    assert sol.result == "Draw"
    assert sol[(3, 1), (6, 6), True].remoteness == -1
    line = sol.line()
    assert line[-1] in line[:-1]
    # Terminal states.
    assert sol.best_move(((0, 0), (0, 0), True)) is NO_MOVE
    assert sol[(0, 0), (0, 0), True].outcome == WIN
    assert sol[(0, 0), (0, 0), False].outcome == LOSS


def test_several_exits_and_move_sets():
    # One exit on the left: the police (moving first) blocks the corridor.
    assert PoliceThief(["E..T..P"]).solve().result == "The thief escapes"
    assert PoliceThief(["E.PT..."]).solve().result == "Police catches the thief"
    # A second exit behind the thief decides it.
    assert PoliceThief(["EP.T...", "*******"]).solve().result == "Police catches the thief"
    assert PoliceThief(["EP.T..E", "*******"]).solve().result == "The thief escapes"
    # Extra exits never hurt the thief (outcomes seen by the police can only drop).
    rng = random.Random(11)
    for _ in range(40):
        rows = random_board(rng, 40)
        free = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "."]
        if not free:
            continue
        r, c = rng.choice(free)
        more = [row if i != r else row[:c] + "E" + row[c + 1:] for i, row in enumerate(rows)]
        a = PoliceThief(rows).solve()
        b = PoliceThief(more).solve()
        F = a.board.n_cells
        police = (slice(None), slice(None), 1)
        assert (b.outcome.reshape(F, F, 2)[police] <= a.outcome.reshape(F, F, 2)[police]).all()
    # Without passing, against the explicit reference.
    no_pass = PoliceThief(["P.T.E"], passing=False).solve()
    cells, outcome, _ = explicit_reference(["P.T.E"], passing=False)
    assert np.array_equal(no_pass.outcome, outcome)


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
    sol = PoliceThief(rows).solve()
    assert sol.result == "Police catches the thief"
    assert sol[sol.board.police, sol.board.thief, True].remoteness > 100
    assert sol[sol.start].remoteness == sol.remoteness[sol.index(sol.start)] > 100


def small_board(rng):
    """A random board of at most 4 x 5 cells: walls, 0-2 exits, P and T."""
    while True:
        R, C = rng.randrange(1, 5), rng.randrange(1, 6)
        grid = [["*" if rng.random() < 0.25 else "." for _ in range(C)] for _ in range(R)]
        free = [(r, c) for r in range(R) for c in range(C) if grid[r][c] == "."]
        k = rng.randrange(0, 3)
        if len(free) < 2 + k:
            continue
        chosen = rng.sample(free, 2 + k)
        for (r, c), ch in zip(chosen, "PT" + "E" * k):
            grid[r][c] = ch
        return ["".join(row) for row in grid]


def reference_moves(rows, police_moves, thief_moves, passing, outcome, rem):
    """move[i] of every position, from the rules: the first successor (the
    mover's steps in move-set order, then the pass) that keeps the value,
    -1 at finished positions and positions with no move."""
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "*"]
    idx = {cell: i for i, cell in enumerate(cells)}
    exits = {cell for cell in cells if rows[cell[0]][cell[1]] == "E"}
    F = len(cells)

    def steps(i, offsets):
        r, c = cells[i]
        out = [idx[(r + dr, c + dc)] for dr, dc in offsets if (r + dr, c + dc) in idx]
        return out + ([i] if passing else [])

    move = []
    for i in range(2 * F * F):
        p, t = divmod(i >> 1, F)
        if p == t or cells[t] in exits:
            move.append(-1)                       # finished: no move
            continue
        if i & 1:
            succ = [(q * F + t) * 2 for q in steps(p, police_moves)]
        else:
            succ = [(p * F + q) * 2 + 1 for q in steps(t, thief_moves)]
        if outcome[i] == DRAW:
            keeps = [j for j in succ if outcome[j] == DRAW]
        else:
            keeps = [j for j in succ if outcome[j] == -outcome[i] and rem[j] == rem[i] - 1]
        if succ:
            assert keeps, (rows, i)               # a decided position has a value-keeping move
        else:
            assert outcome[i] == LOSS and rem[i] == 0, (rows, i)   # stuck: lost
        move.append(keeps[0] if keeps else -1)
    return move


def shuffled(rng, offsets):
    offsets = list(offsets)
    rng.shuffle(offsets)
    return offsets


@pytest.mark.parametrize("seed", range(4))
def test_move_array_against_python_reference(seed):
    """The compiled kernel's best moves: on random boards up to 4 x 5 (move
    sets in random orders, with and without passing), move[i] is the first
    value-keeping successor in move-set order (the pass last), -1 exactly at
    finished and stuck positions; best_move, sol[p].move and line agree."""
    rng = random.Random(1000 + seed)
    for _ in range(10):
        rows = small_board(rng)
        pm = shuffled(rng, rng.choice([KING, ROOK, [(2, 1), (-1, -2), (0, 1)]]))
        tm = shuffled(rng, rng.choice([ROOK, KING, [(1, 0), (0, -1)]]))
        passing = rng.random() < 0.5
        board = PoliceThief(rows, police_moves=pm, thief_moves=tm, passing=passing)
        sol = board.solve()
        # One position at a time (before the array exists: the kernel on a slice)...
        one_by_one = [sol.best_move(sol.position(i)) for i in range(sol.n_positions)]
        assert sol._move is None
        # ...then the whole array, against the reference.
        cells, outcome, rem = explicit_reference(rows, pm, tm, passing)
        assert np.array_equal(sol.outcome, outcome) and np.array_equal(sol.remoteness, rem)
        expected = reference_moves(rows, pm, tm, passing, outcome.tolist(), rem.tolist())
        move = sol.move
        assert move.dtype == np.int64 and not move.flags.writeable
        assert move.tolist() == expected, (rows, pm, tm, passing)
        for i, m in enumerate(expected):
            p = sol.position(i)
            assert sol.index(p) == i
            if m < 0:
                assert sol.best_move(p) is NO_MOVE and one_by_one[i] is NO_MOVE
                assert sol[p].move is NO_MOVE
            else:
                nxt = sol.position(m)
                assert isinstance(nxt, PolicePosition)
                assert sol.best_move(p) == nxt == one_by_one[i] == sol[p].move
                assert nxt.police_to_move != p.police_to_move
                # The mover's piece moves (or passes); the other stays put.
                assert (nxt.thief == p.thief) if p.police_to_move else (nxt.police == p.police)
        # The line from the start follows the moves; a decided start ends in
        # remoteness + 1 positions, a drawn one at its first repeat.
        line = sol.line()
        assert line[0] == sol.start == PolicePosition(board.police, board.thief, True)
        assert all(sol.index(b) == move[sol.index(a)] for a, b in zip(line, line[1:]))
        start = sol[sol.start]
        if start.outcome != DRAW:
            assert len(line) == start.remoteness + 1
            assert sol.best_move(line[-1]) is NO_MOVE
        else:
            assert line[-1] in line[:-1] and start.remoteness == -1


def test_move_array_hand_checked():
    # 1 x 2 board "PT": the docstring's numbers, by hand.
    sol = PoliceThief(["PT"]).solve()
    assert sol.move.tolist() == [-1, -1, 3, 6, 5, 0, -1, -1]
    # Police on (0,0), thief on (0,1), police to move (number 3): it steps
    # onto the thief (number 6: police (0,1), thief (0,1), thief to move).
    assert sol.best_move(((0, 0), (0, 1), True)) == PolicePosition((0, 1), (0, 1), False)
    assert sol.line() == [PolicePosition((0, 0), (0, 1), True),
                          PolicePosition((0, 1), (0, 1), False)]
    # Without passing, a thief with no step loses at once: no move.
    sol = PoliceThief(["P*T"], passing=False).solve()
    assert sol[(0, 0), (0, 2), False] == (LOSS, 0, NO_MOVE)
    assert sol[(0, 0), (0, 2), True] == (LOSS, 0, NO_MOVE)


def test_solution_pickles_read_only():
    board = PoliceThief.parse(open(os.path.join(EXAMPLES, "police.txt")).read())
    sol = board.solve()
    for copy in (pickle.loads(pickle.dumps(sol)), copy_module.deepcopy(sol)):
        assert isinstance(copy, grundy.PoliceThiefSolution) and copy is not sol
        assert copy.board.rows == board.rows and copy.result == sol.result
        assert copy.start == sol.start and copy[copy.start] == sol[sol.start]
        for name in ("outcome", "remoteness", "move"):
            a, b = getattr(copy, name), getattr(sol, name)
            assert a.dtype == b.dtype and np.array_equal(a, b), name
            assert not a.flags.writeable, name
            with pytest.raises(ValueError):
                a[0] = 1
        assert copy.line() == sol.line()


def test_board_accessors():
    board = PoliceThief.parse(open(os.path.join(EXAMPLES, "police.txt")).read())
    assert board.n_rows == 5 and board.n_cols == 7 and board.police == (0, 0)
    assert board.n_positions == 2 * board.n_cells ** 2
    assert board.steps((0, 0), "police") == [(0, 1), (1, 0)]
    assert board.steps((2, 3), "thief") == [(1, 3), (2, 2), (2, 4), (3, 3)]
    assert board.render(police=(4, 6), thief=(4, 6)).splitlines()[-1] == "......X"
    assert "PoliceThief(5x7" in repr(board)
    sol = board.solve()
    F = board.n_cells
    assert sol.outcome.dtype == np.int8 and sol.outcome.shape == (2 * F * F,)
    p, t = board.cell_index((0, 0)), board.cell_index((2, 3))
    assert sol.outcome.reshape(F, F, 2)[p, t, 1] == sol[(0, 0), (2, 3), True].outcome
    assert sol.index(((0, 0), (2, 3), True)) == (p * F + t) * 2 + 1
    assert sol.position((p * F + t) * 2 + 1) == PolicePosition((0, 0), (2, 3), True)


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
        PoliceThief(["PTE"], police_moves="queen")
    with pytest.raises(ValueError, match=r"\(0, 0\) is not a step"):
        PoliceThief(["PTE"], thief_moves=[(0, 0)])
    with pytest.raises(TypeError, match="not a \\(dr, dc\\) pair of integers"):
        PoliceThief(["PTE"], thief_moves=["ab"])
    with pytest.raises(TypeError, match="list of row strings"):
        PoliceThief("PTE")
    sol = PoliceThief(["PT*E"]).solve()
    with pytest.raises(BoardError, match=r"cell \(0, 2\) is blocked"):
        sol[(0, 2), (0, 1), True]
    with pytest.raises(BoardError, match=r"cell \(5, 0\) is off the 1 x 4 board"):
        sol[(5, 0), (0, 1), True].remoteness
    with pytest.raises(TypeError, match="a cell is a \\(row, col\\) pair"):
        sol.best_move((3, (0, 1), True))


def test_memory_budget_is_checked_before_allocating():
    board = PoliceThief(["P" + "." * 98 + "T"] + ["." * 100] * 98 + ["." * 99 + "E"])
    with pytest.raises(MemoryLimitError,
                       match=r"\(200,000,000 positions\) needs about [\d.,]+ MiB, more than max_memory"):
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
    assert out.count("\nposition ") == r + 1 and "\nstate " not in out
    assert "X" in out.split("\nposition ")[-1]           # police on the thief at the end


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
    from grundy._core import retrograde as kernel
    real = kernel.solve
    dtypes = []

    def first_overflows(*args, **kwargs):
        dtypes.append(args[2].dtype)
        if len(dtypes) == 1:
            real(*args, **kwargs)
            return "overflow"
        return real(*args, **kwargs)

    board = PoliceThief.parse(open(os.path.join(EXAMPLES, "police.txt")).read())
    expected = board.solve()
    monkeypatch.setattr(kernel, "solve", first_overflows)
    sol = board.solve()
    assert dtypes == [np.uint16, np.int32]
    assert np.array_equal(sol.outcome, expected.outcome)
    assert np.array_equal(sol.remoteness, expected.remoteness)
    dtypes.clear()
    big = PoliceThief(["P" + "." * 28 + "T"] + ["." * 30] * 28 + ["." * 29 + "E"])
    with pytest.raises(MemoryLimitError, match="remoteness exceeds 65535 and needs 32 bits"):
        big.solve(max_memory=big.memory_estimate() + 1)


# ---------------------------------------------------------------------------
# The compiled plug-in through the generic driver (solve_source), against the
# explicit state graph and the references of reference.py

def police_succ(rows, police_moves, thief_moves, passing):
    """(succ, labels) of every state (p * F + t) * 2 + police_to_move, the
    moves in the plug-in's order: the mover's steps in move-set order, then
    the pass."""
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "*"]
    idx = {cell: i for i, cell in enumerate(cells)}
    F = len(cells)

    def steps(i, offsets):
        r, c = cells[i]
        return [idx[(r + dr, c + dc)] for dr, dc in offsets if (r + dr, c + dc) in idx] + \
            ([i] if passing else [])

    succ, labels = {}, {}
    for s in range(2 * F * F):
        p, t = divmod(s >> 1, F)
        ptm = s & 1
        if p == t:
            labels[s] = WIN if ptm else LOSS
        elif rows[cells[t][0]][cells[t][1]] == "E":
            labels[s] = LOSS if ptm else WIN
        if s in labels:
            succ[s] = []
        elif ptm:
            succ[s] = [(q * F + t) * 2 for q in steps(p, police_moves)]
        else:
            succ[s] = [(p * F + q) * 2 + 1 for q in steps(t, thief_moves)]
    return succ, labels


@pytest.mark.parametrize("seed", range(3))
def test_police_plugin_against_explicit_graph(seed):
    rng = random.Random(4000 + seed)
    sets = [KING, ROOK, [(2, 1), (-1, -2), (0, 1)], [(1, 0), (0, -1)]]
    for _ in range(10):
        rows = small_board(rng)
        pm = list(rng.choice(sets))
        rng.shuffle(pm)
        tm = list(rng.choice(sets))
        rng.shuffle(tm)
        passing = rng.random() < 0.6
        board = PoliceThief(rows, police_moves=pm, thief_moves=tm, passing=passing)
        sol = board.solve()
        src_sol = solve_source(board.move_source())
        assert isinstance(src_sol, grundy.SourceSolution)
        _, ref_o, ref_r = explicit_reference(rows, pm, tm, passing)
        succ, labels = police_succ(rows, pm, tm, passing)
        n = len(succ)
        for misere in (False, True):
            g = GameGraph.from_csr(np.cumsum([0] + [len(succ[s]) for s in range(n)]),
                                   [c for s in range(n) for c in succ[s]])
            graph = g.solve(labels=labels, misere=misere)
            outcome, rem = solve_rounds_ties(n, [succ[s] for s in range(n)], misere=misere,
                                             labels=labels)
            assert graph.outcome.tolist() == outcome and graph.remoteness.tolist() == rem
            if misere:
                plug = solve_source(board.move_source(), misere=True)
            else:
                assert graph.outcome.tolist() == ref_o.tolist()
                assert graph.remoteness.tolist() == ref_r.tolist()
                plug = src_sol
                assert sol.outcome.tolist() == outcome and sol.remoteness.tolist() == rem
            assert plug.n_positions == n
            assert plug.outcome.tolist() == outcome, (rows, pm, tm, passing, misere)
            assert plug.remoteness.tolist() == rem, (rows, pm, tm, passing, misere)
            # The move array: the first value-keeping successor in the plug-in's order.
            o, r = dict(enumerate(outcome)), dict(enumerate(rem))
            expected = first_keeping_moves(succ, labels, o, r)
            assert plug.move.tolist() == [expected[s] for s in range(n)], (rows, pm, tm)
            check_moves_ties(succ, labels, o, r,
                             {s: (m if m >= 0 else None) for s, m in enumerate(plug.move.tolist())})
            if not misere:
                assert sol.move.tolist() == plug.move.tolist()
                for s in range(0, n, 7):
                    assert plug[s] == (outcome[s], rem[s],
                                       NO_MOVE if expected[s] < 0 else expected[s])


def test_plugin_owns_its_tables():
    """Changing the arrays given to a compiled source afterwards changes nothing
    (the engine runs on pointers into the source's own copies)."""
    import grundy
    from grundy._core.police import PoliceThiefSource

    step, back = np.array([[1], [-1]]), np.array([[-1], [0]])
    src = PoliceThiefSource(step, step, back, back, np.zeros(2, np.uint8), True)
    expected = grundy.solve_source(src).outcome.copy()
    back[1, 0] = 10 ** 12
    step[0, 0] = 7
    assert np.array_equal(grundy.solve_source(src).outcome, expected)
