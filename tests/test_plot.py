"""grundy.plot: the pictures are right, pixel by pixel where it matters.

Every picture is rendered with the Agg backend and its pixels are read back:
the colour at the centre of a board cell is the colour of that cell's
outcome and remoteness in the solution, walls are WALL_COLOR, exits framed
in EXIT_COLOR, rare and common values of a nim-sequence in their colours,
the proved period shaded; bar heights are the solution's own counts.
"""
import inspect
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.colors import to_rgb  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

import grundy  # noqa: E402
from grundy import DRAW, LOSS, TIE, WIN, BoardError  # noqa: E402
from grundy import plot  # noqa: E402
from locations import EXAMPLES

WIDTH, HEIGHT, DPI = 8, 5, 100                 # inches, dots per inch: 800 x 500 pixels


def board(name):
    with open(os.path.join(EXAMPLES, name)) as f:
        return grundy.PoliceThief.parse(f.read())


@pytest.fixture(scope="module")
def escape():
    """examples/police.txt: the thief escapes; walls, one exit at (4, 6)."""
    return board("police.txt").solve()


@pytest.fixture(scope="module")
def draw():
    """examples/police_draw.txt: a board with draws."""
    return board("police_draw.txt").solve()


def new_ax():
    fig = Figure(figsize=(WIDTH, HEIGHT), dpi=DPI)
    FigureCanvasAgg(fig)
    return fig.subplots()


def render(ax):
    """The picture as an (H, W, 3) uint8 array, after checking its size."""
    canvas = ax.figure.canvas
    canvas.draw()
    image = np.asarray(canvas.buffer_rgba())
    assert image.shape == (HEIGHT * DPI, WIDTH * DPI, 4)
    assert (image[..., 3] == 255).all()               # opaque everywhere
    return image[..., :3]


def pixel(image, ax, x, y):
    """The colour (floats 0..1) of the pixel at data coordinates (x, y)."""
    px, py = ax.transData.transform((x, y))
    row, col = int(image.shape[0] - py), int(px)
    assert 0 <= row < image.shape[0] and 0 <= col < image.shape[1], (x, y)
    return image[row, col] / 255.0


def same(colour, expected, tol=2.5 / 255):
    return np.abs(np.asarray(colour) - np.asarray(to_rgb(expected))).max() <= tol


def shaded(outcome, remoteness, far):
    """The documented colour of a board cell."""
    base = np.array(to_rgb(plot.OUTCOME_COLORS[outcome]))
    if outcome == DRAW:
        return base
    return base + (1 - base) * plot.SHADE * remoteness / far


def legend_texts(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


# -- matplotlib is optional -----------------------------------------------------------

def run_python(code):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=EXAMPLES)


def test_importing_grundy_and_grundy_plot_does_not_import_matplotlib():
    run = run_python(
        "import sys, grundy, grundy.plot\n"
        "sol = grundy.PoliceThief(['P.ET']).solve()\n"
        "grundy.OctalGame('0.77').nim_sequence(10)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))\n")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_without_matplotlib_every_picture_names_the_extra():
    run = run_python(
        "import sys\n"
        "sys.modules['matplotlib'] = None       # as if it were not installed\n"
        "import grundy, grundy.plot as plot\n"
        "sol = grundy.PoliceThief(['P.ET']).solve()\n"
        "calls = [lambda: plot.nim_sequence(grundy.OctalGame('0.77'), 10),\n"
        "         lambda: plot.police_board(sol), lambda: plot.outcomes(sol)]\n"
        "for call in calls:\n"
        "    try:\n"
        "        call()\n"
        "    except ImportError as exc:\n"
        "        print(type(exc).__name__, exc)\n")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 3
    for line in lines:
        assert line.startswith("ImportError") and "pip install 'grundy[plot]'" in line, line


# -- police and thief -----------------------------------------------------------------

def check_board(ax, sol, image, police_to_move, thief=None, police=None):
    """Every free cell's centre has the colour of its outcome and remoteness."""
    b = sol.board
    fixed = thief if thief is not None else police
    evaluations = {}
    for r, c in b.cells.tolist():
        pos = ((r, c), thief, police_to_move) if thief is not None else \
            (police, (r, c), police_to_move)
        evaluations[(r, c)] = sol[pos]
    far = max([e.remoteness for e in evaluations.values() if e.outcome != DRAW] + [1])
    for (r, c), e in evaluations.items():
        if (r, c) == fixed:
            continue
        colour = pixel(image, ax, c, r)
        assert same(colour, shaded(e.outcome, e.remoteness, far)), ((r, c), e, colour)
    return evaluations


def test_police_board_colours_every_cell_by_its_outcome(escape):
    ax = plot.police_board(escape, thief=(2, 3), ax=new_ax())
    image = render(ax)
    evaluations = check_board(ax, escape, image, True, thief=(2, 3))
    # The picture holds both outcomes, and at least three shades of WIN.
    wins = {e.remoteness for e in evaluations.values() if e.outcome == WIN}
    assert {e.outcome for e in evaluations.values()} == {WIN, LOSS} and len(wins) >= 3
    # Nearer the end is darker: remoteness 1 (next to the thief) beats the far corner.
    near, far = pixel(image, ax, 3, 1), pixel(image, ax, 5, 0)      # rem 1 and 33
    assert evaluations[(1, 3)] == (WIN, 1, evaluations[(1, 3)].move)
    assert evaluations[(0, 5)].outcome == WIN and evaluations[(0, 5)].remoteness == 33
    assert near.sum() < far.sum()
    # Walls.
    for r, c in [(1, 1), (1, 2), (1, 4), (1, 5), (3, 1), (3, 5)]:
        assert same(pixel(image, ax, c, r), plot.WALL_COLOR), (r, c)
    # The exit (4, 6): framed in EXIT_COLOR on all four sides, its outcome inside.
    for dx, dy in [(0.43, 0), (-0.43, 0), (0, 0.43), (0, -0.43), (0.43, 0.43)]:
        assert same(pixel(image, ax, 6 + dx, 4 + dy), plot.EXIT_COLOR), (dx, dy)
    assert same(pixel(image, ax, 6.25, 4.25), shaded(WIN, 25, 33))
    # No other cell is framed: the same spot of a non-exit cell is its own colour.
    assert not same(pixel(image, ax, 5.43, 4), plot.EXIT_COLOR)
    # The fixed thief: a PIECE_COLOR disc on its cell (beside its letter).
    assert same(pixel(image, ax, 3 + 0.2, 2 + 0.2), plot.PIECE_COLOR)
    assert any(t.get_text() == "T" and t.get_position() == (3, 2) for t in ax.texts)
    assert ax.get_title() == "thief on (2, 3), police to move"
    texts = legend_texts(ax)
    assert texts[:2] == ["WIN: police wins\n21 cells, remoteness 0..33",
                         "LOSS: thief wins\n6 cells, remoteness 10"]
    assert texts[2:] == ["wall", "exit", "the thief (fixed)"]


def test_police_board_default_is_the_thief_on_its_start(escape):
    ax = plot.police_board(escape, ax=new_ax())
    assert ax.get_title() == f"thief on {escape.board.thief}, police to move"
    check_board(ax, escape, render(ax), True, thief=escape.board.thief)


def test_police_board_with_the_police_fixed_and_the_thief_to_move(escape):
    ax = plot.police_board(escape, police=(0, 0), police_to_move=False, ax=new_ax())
    image = render(ax)
    evaluations = check_board(ax, escape, image, False, police=(0, 0))
    # The thief on the exit, police elsewhere: the thief has won (WIN for it, at once).
    assert evaluations[(4, 6)][:2] == (WIN, 0)
    assert same(pixel(image, ax, 6, 4), plot.OUTCOME_COLORS[WIN])
    assert same(pixel(image, ax, 0.2, 0.2), plot.PIECE_COLOR)
    assert ax.get_title() == "police on (0, 0), thief to move"
    assert legend_texts(ax)[0].startswith("WIN: thief wins\n")
    assert legend_texts(ax)[-1] == "the police (fixed)"


def test_police_board_draws(draw):
    thief = (6, 6)
    ax = plot.police_board(draw, thief=thief, ax=new_ax())
    image = render(ax)
    evaluations = check_board(ax, draw, image, True, thief=thief)
    draws = [cell for cell, e in evaluations.items() if e.outcome == DRAW]
    assert draws
    for r, c in draws:                        # not shaded: exactly the DRAW colour
        assert same(pixel(image, ax, c, r), plot.OUTCOME_COLORS[DRAW])
    assert f"DRAW: neither wins\n{len(draws)} cells" in legend_texts(ax)
    # The exit (3, 0) is framed even where it is a draw.
    assert same(pixel(image, ax, 0 - 0.43, 3), plot.EXIT_COLOR)


def test_police_board_numbers_are_the_remoteness(escape):
    ax = plot.police_board(escape, thief=(2, 3), numbers=True, ax=new_ax())
    shown = {(int(round(t.get_position()[1])), int(round(t.get_position()[0]))): t.get_text()
             for t in ax.texts if t.get_text() != "T"}
    b = escape.board
    expected = {(r, c): str(escape[(r, c), (2, 3), True].remoteness)
                for r, c in b.cells.tolist() if (r, c) != (2, 3)}
    assert shown == expected


def test_police_board_no_exits_and_no_walls():
    sol = grundy.PoliceThief(["P...", "...T"]).solve()
    ax = plot.police_board(sol, ax=new_ax())
    image = render(ax)
    check_board(ax, sol, image, True, thief=(1, 3))
    assert legend_texts(ax)[-1] == "the thief (fixed)"
    assert "wall" not in legend_texts(ax) and "exit" not in legend_texts(ax)
    exit_colour = np.array(to_rgb(plot.EXIT_COLOR))
    assert (np.abs(image / 255 - exit_colour).max(axis=2) > 0.1).all()


def test_police_board_on_a_new_figure(escape):
    import matplotlib.pyplot as plt
    before = set(plt.get_fignums())
    ax = plot.police_board(escape)
    try:
        assert isinstance(ax, Axes)
        assert set(plt.get_fignums()) - before == {ax.figure.number}
        ax.figure.canvas.draw()
        # The legend fits in the figure, beside the board.
        legend = ax.get_legend().get_window_extent()
        assert legend.x1 <= ax.figure.bbox.x1 + 1 and legend.x0 >= ax.bbox.x1
    finally:
        plt.close(ax.figure)


def test_police_board_refuses_bad_arguments(escape):
    with pytest.raises(ValueError, match=r"thief=\(0, 0\) or police=\(1, 0\), not both"):
        plot.police_board(escape, thief=(0, 0), police=(1, 0))
    with pytest.raises(BoardError, match=r"thief: cell \(1, 1\) is blocked") as info:
        plot.police_board(escape, thief=(1, 1))
    assert (info.value.row, info.value.col) == (1, 1)
    with pytest.raises(BoardError, match=r"police: cell \(9, 0\) is off the 5 x 7 board"):
        plot.police_board(escape, police=(9, 0))
    with pytest.raises(TypeError, match=r"thief: a cell is a \(row, col\) pair of integers, "
                                        r"got 'a1'"):
        plot.police_board(escape, thief="a1")
    with pytest.raises(TypeError, match=r"police_to_move must be True or False, got 1"):
        plot.police_board(escape, police_to_move=1)
    with pytest.raises(TypeError, match=r"numbers must be True or False, got 'yes'"):
        plot.police_board(escape, numbers="yes")
    graph = grundy.GameGraph.from_edges([(0, 1)]).solve()
    with pytest.raises(TypeError, match=r"must be a PoliceThiefSolution.*GraphSolution"):
        plot.police_board(graph)
    with pytest.raises(TypeError, match=r"ax must be a matplotlib Axes.*got 'axes'"):
        plot.police_board(escape, ax="axes")


# -- nim-sequences --------------------------------------------------------------------

def test_nim_sequence_rare_and_common_points():
    # G(n) = n mod 3; mask 1: 0 and 2 are rare (popcount(v & 1) even), 1 common.
    game = grundy.SubtractionGame({1, 2})
    ax = plot.nim_sequence(game, 30, mask=1, ax=new_ax())
    image = render(ax)
    for n in range(31):
        colour = plot.COMMON_COLOR if n % 3 == 1 else plot.RARE_COLOR
        assert same(pixel(image, ax, n, n % 3), colour), n
    assert legend_texts(ax)[:2] == ["rare: 21 values", "common: 10 values"]
    rare, common = ax.lines[:2]
    assert rare.get_xdata().tolist() == [n for n in range(31) if n % 3 != 1]
    assert common.get_ydata().tolist() == [1] * 10


def test_nim_sequence_marks_the_proved_period():
    # Period 3 from n = 0: the blocks 0..2, 6..8, 12..14, ... are shaded.
    game = grundy.SubtractionGame({1, 2})
    ax = plot.nim_sequence(game, 30, ax=new_ax())
    image = render(ax)
    blend = 1 - plot.PERIOD_ALPHA * (1 - np.array(to_rgb(plot.PERIOD_COLOR)))
    for n in range(31):
        assert same(pixel(image, ax, n, n % 3), plot.SEQUENCE_COLOR), n
        # Between the points of column n (G = n mod 3, so y = 1.5 is empty unless ...).
        y = 1.5 if n % 3 != 1 else 2.5
        expected = blend if (n // 3) % 2 == 0 else (1.0, 1.0, 1.0)
        assert same(pixel(image, ax, n, y), expected, tol=3 / 255), n
    assert ax.get_title() == "SubtractionGame({1, 2}): G(0..30), period 3"
    assert legend_texts(ax) == ["G(n)", "period 3\n(proved from G(0..4))"]
    assert len(ax.patches) == 6                    # blocks from 0, 6, ..., 30


def test_nim_sequence_of_kayles_with_its_preperiod():
    kayles = grundy.OctalGame("0.77")
    ax = plot.nim_sequence(kayles, 200, ax=new_ax())
    image = render(ax)
    assert ax.get_title() == "OctalGame('0.77'): G(0..200), period 12 from n = 71"
    assert legend_texts(ax) == ["G(n)", "preperiod 71", "period 12\n(proved from G(0..167))"]
    values = kayles.nim_sequence(200)
    points = ax.lines[0]
    assert points.get_xdata().tolist() == list(range(201))
    assert points.get_ydata().tolist() == values.tolist()
    line = ax.lines[1]
    assert line.get_xdata() == [70.5, 70.5] and line.get_color() == plot.PREPERIOD_COLOR
    # The line, drawn where no point is (G never 5 after n = 28).
    column = [pixel(image, ax, x, 5.5) for x in np.linspace(70.3, 70.7, 9)]
    assert any(same(c, plot.PREPERIOD_COLOR, tol=0.2) for c in column)
    # Shaded periods 71..82, 95..106, ...; 83..94 is not.
    blend = 1 - plot.PERIOD_ALPHA * (1 - np.array(to_rgb(plot.PERIOD_COLOR)))
    assert same(pixel(image, ax, 76, 5.5), blend, tol=3 / 255)
    assert same(pixel(image, ax, 100, 5.5), blend, tol=3 / 255)
    assert same(pixel(image, ax, 88, 5.5), (1, 1, 1))
    assert same(pixel(image, ax, 40, 5.5), (1, 1, 1))                  # the preperiod
    assert len(ax.patches) == 6                    # 71, 95, 119, 143, 167, 191


def test_nim_sequence_without_a_period():
    officers = grundy.OctalGame("0.6")
    ax = plot.nim_sequence(officers, 100, ax=new_ax())
    assert ax.get_title() == "OctalGame('0.6'): G(0..100)"
    assert legend_texts(ax) == ["G(n)"] and not ax.patches
    ax = plot.nim_sequence(grundy.OctalGame("0.77"), 200, period=False, ax=new_ax())
    assert legend_texts(ax) == ["G(n)"] and not ax.patches and len(ax.lines) == 1


def test_nim_sequence_mask_agrees_with_rare_common():
    game = grundy.GrundysGame()
    ax = plot.nim_sequence(game, 500, mask=0xFFFFFFFE, period=False, ax=new_ax())
    rc = game.rare_common(0xFFFFFFFE, n=500)
    rare = ax.lines[0]
    assert rare.get_xdata().tolist() == rc.rare_positions.tolist()
    assert set(rare.get_ydata().tolist()) == set(rc.rare_values)
    assert rare.get_color() == plot.RARE_COLOR and ax.lines[1].get_color() == plot.COMMON_COLOR
    assert legend_texts(ax) == [f"rare: {rc.rare_count} values",
                                f"common: {501 - rc.rare_count} values"]


def test_nim_sequence_of_one_value():
    ax = plot.nim_sequence(grundy.OctalGame("0.77"), 0, ax=new_ax())
    assert ax.lines[0].get_ydata().tolist() == [0]
    render(ax)


def test_nim_sequence_refuses_bad_arguments():
    kayles = grundy.OctalGame("0.77")
    with pytest.raises(TypeError, match=r"game must be a TakeAndBreakGame.*got '0.77'"):
        plot.nim_sequence("0.77", 10)
    with pytest.raises(ValueError, match=r"n must be >= 0, got -1"):
        plot.nim_sequence(kayles, -1)
    with pytest.raises(TypeError, match=r"n must be an integer, got 10.0"):
        plot.nim_sequence(kayles, 10.0)
    with pytest.raises(ValueError, match=r"mask must be >= 1 .*got 0"):
        plot.nim_sequence(kayles, 10, mask=0)
    with pytest.raises(ValueError, match=r"mask must be <= 4294967295, got 4294967296"):
        plot.nim_sequence(kayles, 10, mask=2 ** 32)
    with pytest.raises(TypeError, match=r"period must be True or False, got None"):
        plot.nim_sequence(kayles, 10, period=None)
    with pytest.raises(TypeError, match=r"ax must be a matplotlib Axes"):
        plot.nim_sequence(kayles, 10, ax=Figure())
    with pytest.raises(grundy.MemoryLimitError):
        plot.nim_sequence(grundy.OctalGame("0.137"), 10 ** 9, max_memory=10 ** 6)


# -- outcomes ---------------------------------------------------------------------------

class TakeAway(grundy.Game):
    """Take 1 or 2 from n; the game ends in a tie at 0."""

    def start(self):
        return 7

    def moves(self, n):
        return [n - k for k in (1, 2) if k <= n]

    def primitive(self, n):
        return grundy.TIE if n == 0 else None


def solutions():
    cycle = grundy.GameGraph.from_edges([(0, 1), (1, 2), (2, 0), (2, 3), (4, 4), (5, 4)])
    return {"police": board("police.txt").solve(), "draws": board("police_draw.txt").solve(),
            "graph": cycle.solve(), "ties": grundy.solve_game(TakeAway()),
            "all draws": grundy.GameGraph.from_edges([(0, 0)]).solve()}


@pytest.mark.parametrize("name", ["police", "draws", "graph", "ties", "all draws"])
def test_outcomes_bars_are_the_solutions_counts(name):
    sol = solutions()[name]
    ax = plot.outcomes(sol, ax=new_ax())
    image = render(ax)
    counts = sol.counts()
    bars = {c.get_label(): c for c in ax.containers}
    decided = sol.outcome != DRAW
    top = int(sol.remoteness[decided].max()) if decided.any() else -1
    shown = [WIN, LOSS] + ([TIE] if counts[TIE] else [])
    assert list(bars) == [o.name for o in shown] + ["DRAW"]
    bottom = np.zeros(top + 1)
    for o in shown:
        expected = np.bincount(sol.remoteness[sol.outcome == o], minlength=top + 1)
        patches = bars[o.name].patches
        assert [p.get_height() for p in patches] == expected.tolist()
        assert [p.get_x() + p.get_width() / 2 for p in patches] == list(range(top + 1))
        assert [p.get_y() for p in patches] == bottom.tolist()       # stacked
        bottom += expected
        assert all(same(p.get_facecolor()[:3], plot.OUTCOME_COLORS[o], tol=1e-9)
                   for p in patches)
    (draw_bar,) = bars["DRAW"].patches
    assert draw_bar.get_height() == counts[DRAW]
    assert same(draw_bar.get_facecolor()[:3], plot.OUTCOME_COLORS[DRAW], tol=1e-9)
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels[-1] == "DRAW"
    assert legend_texts(ax) == [f"{o.name}: {counts[o]:,}" for o in shown] + \
        [f"DRAW: {counts[DRAW]:,}"]
    plural = "s" if sol.n_positions != 1 else ""
    assert ax.get_title() == f"{type(sol).__name__}: {sol.n_positions:,} position{plural}"
    # The pixels: the middle of the tallest bar of each outcome has its colour.
    for o in shown:
        heights = [p.get_height() for p in bars[o.name].patches]
        if heights and max(heights) > 0:
            p = bars[o.name].patches[int(np.argmax(heights))]
            x, y = p.get_x() + p.get_width() / 2, p.get_y() + p.get_height() / 2
            assert same(pixel(image, ax, x, y), plot.OUTCOME_COLORS[o]), o
    if counts[DRAW]:
        assert same(pixel(image, ax, draw_bar.get_x() + draw_bar.get_width() / 2,
                          counts[DRAW] / 2), plot.OUTCOME_COLORS[DRAW])
    # Every bar is inside the axes (the top is not cut off).
    assert ax.get_ylim()[1] > max(bottom.max(initial=0), counts[DRAW])


def test_outcomes_counts_chunk_by_chunk(monkeypatch):
    sol = solutions()["draws"]
    whole = plot._histograms(sol)
    monkeypatch.setattr(plot, "_CHUNK", 7)
    hist, draws = plot._histograms(sol)
    assert draws == whole[1] == sol.counts()[DRAW]
    for o in (WIN, LOSS, TIE):
        assert hist[o].tolist() == whole[0][o].tolist()


def test_outcomes_refuses_bad_arguments():
    with pytest.raises(TypeError, match=r"sol must be a solved game.*got \[1, -1\]"):
        plot.outcomes([1, -1])
    sol = solutions()["graph"]
    with pytest.raises(TypeError, match=r"ax must be a matplotlib Axes.*got 3"):
        plot.outcomes(sol, ax=3)


# -- the module --------------------------------------------------------------------------

FUNCTIONS = [plot.nim_sequence, plot.police_board, plot.outcomes]


@pytest.mark.parametrize("func", FUNCTIONS, ids=lambda f: f.__name__)
def test_functions_are_documented_typed_and_keyword_only(func):
    sig = inspect.signature(func)
    doc = inspect.getdoc(func)
    for section in ("Parameters", "Returns", "Raises", "Examples"):
        assert f"{section}\n{'-' * len(section)}" in doc, section
    params = list(sig.parameters.values())
    for p in params:
        assert p.annotation is not inspect.Parameter.empty, p.name
        assert p.name in doc, p.name
    assert sig.return_annotation == "Axes"
    positional = [p.name for p in params if p.kind != p.KEYWORD_ONLY]
    assert positional == (["game", "n"] if func is plot.nim_sequence else ["sol"])
    assert "ax" in sig.parameters and sig.parameters["ax"].default is None
    assert "pip install 'grundy[plot]'" in doc


def test_colour_constants_are_colours():
    assert set(plot.OUTCOME_COLORS) == {WIN, LOSS, TIE, DRAW}
    colours = list(plot.OUTCOME_COLORS.values()) + [
        plot.WALL_COLOR, plot.EXIT_COLOR, plot.PIECE_COLOR, plot.RARE_COLOR,
        plot.COMMON_COLOR, plot.PERIOD_COLOR]
    rgb = [to_rgb(c) for c in colours]
    assert len(set(rgb[:4])) == 4                      # the outcomes are told apart
    assert len({*rgb[:4], to_rgb(plot.WALL_COLOR), to_rgb(plot.EXIT_COLOR)}) == 6
    assert to_rgb(plot.RARE_COLOR) != to_rgb(plot.COMMON_COLOR)
    assert 0 < plot.PERIOD_ALPHA < 1 and 0 < plot.SHADE < 1
    for name in plot.__all__:
        assert hasattr(plot, name)
