"""The shipped examples (examples/*.py) run and are right.

Each example is checked against a slow, independent reference written
here: a brute-force Connect Four, a round-by-round fixpoint of the cat and
mouse game, the compiled police-and-thief solver.
"""
import doctest
import functools
import os
import random
import subprocess
import sys

import numpy as np
import pytest

import grundy
from grundy import LOSS, TIE, WIN
from locations import EXAMPLES

sys.path.insert(0, EXAMPLES)

import cat_mouse  # noqa: E402
import connect4  # noqa: E402
import police_protocol  # noqa: E402
import tictactoe  # noqa: E402


@pytest.mark.parametrize("module", [tictactoe, connect4, cat_mouse, police_protocol],
                         ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


# -- tic-tac-toe ------------------------------------------------------------------------

def test_tictactoe_counts_and_start():
    plain = grundy.solve_game(tictactoe.TicTacToe())
    sym = grundy.solve_game(tictactoe.TicTacToe(symmetry=True))
    assert (plain.n_positions, sym.n_positions) == (5478, 765)
    assert plain[plain.start].outcome == TIE and sym[sym.start].outcome == TIE
    assert plain[plain.start].remoteness == 9
    # Every board against its canonical image: same outcome and remoteness.
    for board in plain.positions:
        assert sym[board][:2] == plain[board][:2], board
        assert sym.index(board) == sym.index(tictactoe.TicTacToe(symmetry=True)
                                             .canonical(board))
    # The canonical boards are one per class: no two are images of each other.
    assert len({tictactoe.TicTacToe().smallest_image(b) for b in plain.positions}) == 765
    line = plain.line()
    assert len(line) == 10 and "." not in line[-1]


# -- Connect Four -----------------------------------------------------------------------

class BruteConnect4(grundy.Game):
    """Connect Four, one position at a time: a tuple of columns, each a string
    (bottom first) of "x" (the player to move) and "o"."""

    def __init__(self, width, height, symmetry=False):
        self.width, self.height = width, height
        if symmetry:
            self.canonical = lambda p: min(p, p[::-1])
        # Every line of four cells, a cell numbered c * height + r.
        cells = {(c, r) for c in range(width) for r in range(height)}
        self.lines = [[(c + k * dc) * height + r + k * dr for k in range(4)]
                      for c, r in sorted(cells) for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1))
                      if (c + 3 * dc, r + 3 * dr) in cells]
        self.line_masks = [sum(1 << i for i in line) for line in self.lines]

    def start(self):
        return ("",) * self.width

    def moves(self, p):
        swap = str.maketrans("xo", "ox")
        return [tuple((col + "x" if i == c else col).translate(swap) for i, col in enumerate(p))
                for c in range(self.width) if len(p[c]) < self.height]

    def primitive(self, p):
        grid = "".join(col.ljust(self.height, ".") for col in p)
        theirs = int(grid.replace("x", ".").replace(".", "0").replace("o", "1")[::-1], 2)
        if any(theirs & line == line for line in self.line_masks):
            return LOSS
        if "." not in grid:
            return TIE
        return None


def brute_code(game, p):
    """The example's code of a brute-force position."""
    h1 = game.height + 1
    mover = opponent = 0
    for c, col in enumerate(p):
        for r, stone in enumerate(col):
            if stone == "x":
                mover |= 1 << (c * h1 + r)
            else:
                opponent |= 1 << (c * h1 + r)
    return game.encode(mover, opponent)


def minimax(brute):
    """(outcome, remoteness) by recursion: the library's conventions (a TIE
    at one move more than its nearest TIE successor)."""
    @functools.lru_cache(maxsize=None)
    def value(p):
        fixed = brute.primitive(p)
        if fixed is not None:
            return fixed, 0
        children = [value(q) for q in brute.moves(p)]
        lost = [r for o, r in children if o == LOSS]
        if lost:
            return WIN, 1 + min(lost)
        ties = [r for o, r in children if o == TIE]
        if ties:
            return TIE, 1 + min(ties)
        return LOSS, 1 + max(r for _, r in children)
    return value


@functools.lru_cache(maxsize=None)
def brute_solution(width, height, symmetry):
    return grundy.solve_game(BruteConnect4(width, height, symmetry))


def batch_arrays(sol, codes, canonical=None):
    """Outcome and remoteness of a batch solution at many codes at once."""
    number = {code: i for i, code in enumerate(sol.positions.tolist())}
    codes = np.asarray(codes, dtype=np.int64)
    if canonical is not None:
        codes = canonical(codes)
    ids = np.array([number[code] for code in codes.tolist()])
    return sol.outcome[ids], sol.remoteness[ids]


@pytest.mark.parametrize("width,height", [(3, 3), (4, 3), (3, 4), (4, 4)])
def test_connect4_against_brute_force(width, height):
    brute = brute_solution(width, height, False)
    brute_sym = brute_solution(width, height, True)
    game = connect4.Connect4(width, height)
    game_sym = connect4.Connect4(width, height, symmetry=True)
    sol = grundy.solve_game(game)
    sym = grundy.solve_game(game_sym)
    assert sol.n_positions == brute.n_positions
    assert sym.n_positions == brute_sym.n_positions
    codes = [brute_code(game, p) for p in brute.positions]
    assert len(set(codes)) == len(codes)
    expected = brute.outcome, brute.remoteness
    for got in (batch_arrays(sol, codes), batch_arrays(sym, codes, game_sym.canonical)):
        np.testing.assert_array_equal(got[0], expected[0])
        np.testing.assert_array_equal(got[1], expected[1])
    # The brute force's own canonical positions, found in the batch solution.
    codes = [brute_code(game, p) for p in brute_sym.positions]
    got = batch_arrays(sym, codes, game_sym.canonical)
    np.testing.assert_array_equal(got[0], brute_sym.outcome)
    np.testing.assert_array_equal(got[1], brute_sym.remoteness)
    # The decoding helpers: split() and board() read a code back.
    p = brute.positions[brute.n_positions // 2]
    mover, opponent = (int(a[0]) for a in game.split(np.array([brute_code(game, p)])))
    assert game.encode(mover, opponent) == brute_code(game, p)
    rows = game.board(brute_code(game, p))
    assert ["".join(col[r] if r < len(col) else "." for col in p)
            for r in reversed(range(height))] == rows


@pytest.mark.parametrize("width,height", [(3, 3), (4, 3)])
def test_connect4_brute_force_is_right(width, height):
    # The brute force itself against a recursion that does not use the library.
    brute = BruteConnect4(width, height)
    sol = brute_solution(width, height, False)
    value = minimax(brute)
    for i, p in enumerate(sol.positions):
        assert value(p) == (sol.outcome[i], sol.remoteness[i]), p


def test_connect4_mirror_and_other_sizes():
    game = connect4.Connect4(4, 3)
    sol = grundy.solve_game(game)
    codes = np.asarray(sol.positions)
    mirrored = game.mirror(codes)
    np.testing.assert_array_equal(game.mirror(mirrored), codes)
    np.testing.assert_array_equal(batch_arrays(sol, mirrored)[0], sol.outcome)
    for w, h in ((1, 1), (2, 1), (1, 4), (7, 1), (2, 2)):
        small = grundy.solve_game(connect4.Connect4(w, h))
        brute = grundy.solve_game(BruteConnect4(w, h))
        assert small.n_positions == brute.n_positions
        assert small[small.start][:2] == brute[brute.start][:2]
    with pytest.raises(ValueError, match="does not fit"):
        connect4.Connect4(8, 7)


# -- cat and mouse ----------------------------------------------------------------------

def cat_mouse_reference(graph):
    """Every state's result (1 mouse, 2 cat, 0 draw), by rounds of a fixpoint:
    a side to move wins if a move wins, loses if every move loses."""
    n = len(graph)
    states = [(m, c, t) for m in range(n) for c in range(1, n) for t in (True, False)]
    value = {}
    for m, c, t in states:
        value[m, c, t] = 1 if m == 0 else 2 if m == c else 0
    changed = True
    while changed:
        changed = False
        for m, c, t in states:
            if value[m, c, t] or m == 0 or m == c:
                continue
            if t:
                results = [value[m2, c, False] for m2 in graph[m]]
                me, other = 1, 2
            else:
                results = [value[m, c2, True] for c2 in graph[c] if c2 != 0]
                me, other = 2, 1
            if me in results:
                value[m, c, t] = me
            elif all(r == other for r in results):
                value[m, c, t] = other
            else:
                continue
            changed = True
    return value


def random_graph(rng):
    """An undirected graph meeting the contest's constraints: node 1 has a
    neighbour, node 2 a neighbour other than the hole."""
    while True:
        n = rng.randint(3, 8)
        p = rng.choice([0.2, 0.35, 0.5, 0.8])
        edges = {(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < p}
        graph = [sorted({v for e in edges for v in e if u in e and v != u}) for u in range(n)]
        if graph[1] and any(v != 0 for v in graph[2]):
            return graph


def test_cat_mouse_samples():
    for graph, expected in cat_mouse.SAMPLES:
        assert cat_mouse.cat_mouse_game(graph) == expected
        assert cat_mouse_reference(graph)[1, 2, True] == expected


def test_cat_mouse_random_graphs():
    rng = random.Random(913)
    seen = set()
    for _ in range(200):
        graph = random_graph(rng)
        reference = cat_mouse_reference(graph)
        sol = grundy.solve_game(cat_mouse.CatMouse(graph))
        assert cat_mouse.cat_mouse_game(graph) == reference[1, 2, True], graph
        for p in sol.positions:            # every reachable position, not only the start
            assert cat_mouse.answer(sol, p) == reference[p], (graph, p)
        seen.add(reference[1, 2, True])
    assert seen == {0, 1, 2}                # the graphs cover the three answers


# -- police and thief -------------------------------------------------------------------

def assert_police_agree(text):
    game = police_protocol.PoliceAndThief.parse(text)
    sol = grundy.solve_game(game)
    ref = grundy.PoliceThief.parse(text).solve()
    ids = np.array([ref.index(p) for p in sol.positions])
    np.testing.assert_array_equal(sol.outcome, ref.outcome[ids])
    np.testing.assert_array_equal(sol.remoteness, ref.remoteness[ids])
    assert police_protocol.result(sol) == ref.result
    return ref.result


def test_police_bundled_boards():
    paths = sorted(f for f in os.listdir(EXAMPLES) if f.startswith("police") and
                   f.endswith(".txt"))
    assert len(paths) >= 3
    results = set()
    for name in paths:
        with open(os.path.join(EXAMPLES, name)) as f:
            results.add(assert_police_agree(f.read()))
    assert len(results) == 3                # the three verdicts


def test_police_random_boards():
    rng = random.Random(4)
    results = set()
    for _ in range(50):
        n, m = rng.randint(1, 5), rng.randint(2, 5)
        cells = [rng.choice(".....**E") for _ in range(n * m)]
        p, t = rng.sample(range(n * m), 2)
        cells[p], cells[t] = "P", "T"
        rows = ["".join(cells[r * m:(r + 1) * m]) for r in range(n)]
        results.add(assert_police_agree(f"{n} {m}\n" + "\n".join(rows) + "\n"))
    assert len(results) == 3


# -- as scripts -------------------------------------------------------------------------

@pytest.mark.parametrize("script,args,expect", [
    ("tictactoe.py", [], "5,478 positions"),
    ("connect4.py", ["4", "3"], "positions/s"),
    ("connect4.py", ["4", "4", "--symmetry"], "80,541 positions"),
    ("cat_mouse.py", [], "the mouse wins"),
    ("police_protocol.py", [], "agrees with grundy police"),
])
def test_script_runs(script, args, expect, tmp_path):
    run = subprocess.run([sys.executable, os.path.join(EXAMPLES, script), *args],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert expect in run.stdout
