"""Pictures of games and their solutions (the optional extra ``grundy[plot]``).

One function per picture, each drawing on a matplotlib ``Axes`` (a new
figure unless ``ax=`` is given) and returning it, so that it can be
restyled, combined with other plots and saved:

- :func:`nim_sequence`: G(n) against n for a take-and-break game, the
  proved period marked, rare and common values coloured for a mask;
- :func:`police_board`: a police-and-thief board for one fixed piece and
  side to move, each cell coloured by the outcome of the other piece
  standing there, with the remoteness as shade;
- :func:`outcomes`: how many positions of any solution have each
  remoteness, stacked by outcome, and the draws.

``import grundy.plot`` needs only numpy; matplotlib is imported when a
picture is drawn (``pip install 'grundy[plot]'``).  The colours are module
constants (any matplotlib colour; change them to restyle the pictures drawn
afterwards): ``OUTCOME_COLORS`` (``{WIN: ..., LOSS: ..., TIE: ..., DRAW:
...}``), ``WALL_COLOR``, ``EXIT_COLOR`` and ``PIECE_COLOR`` for boards,
``SEQUENCE_COLOR``, ``RARE_COLOR``, ``COMMON_COLOR``, ``PERIOD_COLOR`` (at
opacity ``PERIOD_ALPHA``) and ``PREPERIOD_COLOR`` for nim-sequences, and
``SHADE``, how much the farthest remoteness on a board is lightened.

Examples
--------
>>> import grundy
>>> from grundy import plot
>>> from matplotlib.figure import Figure
>>> fig = Figure(figsize=(6, 3))
>>> ax = plot.nim_sequence(grundy.SubtractionGame({1, 2}), 20, ax=fig.subplots())
>>> ax.get_title()
'SubtractionGame({1, 2}): G(0..20), period 3'
>>> import io
>>> fig.savefig(io.BytesIO(), format="png")       # or plt.show(), ax.figure.savefig(...)
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from grundy._common import (DRAW, LOSS, TIE, WIN, Outcome, check_bool, check_count, check_int,
                            shorten)
from grundy.impartial.octal.game import TakeAndBreakGame
from grundy.games.police import BoardError, Cell, PoliceThiefSolution, _as_cell
from grundy.engine.solution import Solution

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["nim_sequence", "police_board", "outcomes", "OUTCOME_COLORS", "WALL_COLOR",
           "EXIT_COLOR", "PIECE_COLOR", "RARE_COLOR", "COMMON_COLOR", "SEQUENCE_COLOR",
           "PERIOD_COLOR", "PERIOD_ALPHA", "PREPERIOD_COLOR", "SHADE"]

#: Colour of each outcome (of the player to move), by :class:`grundy.Outcome`.
OUTCOME_COLORS: dict[Outcome, str] = {WIN: "#2166ac", LOSS: "#c0392b", TIE: "#e69f00",
                                      DRAW: "#9e9e9e"}
#: Blocked cells of a police-and-thief board.
WALL_COLOR = "#303030"
#: The frame drawn round the exits of a police-and-thief board.
EXIT_COLOR = "#00a651"
#: The disc marking the fixed piece on a police-and-thief board.
PIECE_COLOR = "#000000"
#: Rare and common values of a nim-sequence drawn with a mask.
RARE_COLOR = "#d55e00"
COMMON_COLOR = "#0072b2"
#: The values of a nim-sequence drawn without a mask.
SEQUENCE_COLOR = "#0072b2"
#: The shaded blocks of a proved period (every other period is shaded), and
#: their opacity.
PERIOD_COLOR = "#009e73"
PERIOD_ALPHA = 0.18
#: The line at the end of the preperiod.
PREPERIOD_COLOR = "#000000"
#: How far towards white the remoteness shades a board cell: remoteness 0
#: keeps the outcome's colour, the largest remoteness on the picture is
#: mixed with this much white.
SHADE = 0.7

_INSTALL = "pip install 'grundy[plot]'"


def _require_matplotlib() -> None:
    """ImportError naming the extra to install, unless matplotlib imports."""
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise ImportError(f"grundy.plot draws with matplotlib, which is not installed: "
                          f"{_INSTALL}", name="matplotlib") from exc


def _axes(ax: Any, figsize: tuple[float, float]) -> Axes:
    """``ax`` checked, or the Axes of a new pyplot figure of ``figsize`` inches."""
    _require_matplotlib()
    from matplotlib.axes import Axes
    if ax is None:
        import matplotlib.pyplot as plt
        fig = plt.figure(figsize=figsize, layout="constrained")
        new: Axes = fig.add_subplot()
        return new
    if not isinstance(ax, Axes):
        raise TypeError(f"ax must be a matplotlib Axes (or None for a new figure), "
                        f"got {shorten(ax)}")
    return ax


def _rgb(color: Any) -> npt.NDArray[np.float64]:
    from matplotlib.colors import to_rgb
    return np.array(to_rgb(color), dtype=np.float64)


def _cell_points(ax: Axes, n_rows: int, n_cols: int) -> float:
    """The side of a board cell in points, as the axes are laid out now."""
    scale = 72.0 / float(ax.figure.dpi)                  # display pixels -> points
    return scale * min(ax.bbox.width / n_cols, ax.bbox.height / n_rows)


# -- nim-sequences ---------------------------------------------------------------------

def nim_sequence(game: TakeAndBreakGame, n: int, *, mask: int | None = None,
                 period: bool = True, ax: Axes | None = None,
                 max_memory: int | None = None) -> Axes:
    """Draw the nim-sequence G(0..n) of a take-and-break game.

    One point per heap size.  When the game's period is proved
    (:meth:`~grundy.TakeAndBreakGame.periodicity` searching G(0..n)), a
    vertical line marks the end of the preperiod (at n = preperiod - 1/2)
    and every other period after it is shaded (:data:`PERIOD_COLOR`),
    both named in the legend and the title.  With a mask, rare values
    (popcount(G(n) & mask) even, as in
    :meth:`~grundy.TakeAndBreakGame.rare_common`) are drawn in
    :data:`RARE_COLOR` and common ones in :data:`COMMON_COLOR`; without
    one, every point is :data:`SEQUENCE_COLOR`.

    Parameters
    ----------
    game : TakeAndBreakGame
        An octal or hexadecimal game, Grundy's game, a subtraction game...
    n : int
        The last heap size drawn (>= 0).
    mask : int, optional
        1..2^32-1: colour the values rare or common by this mask.
    period : bool, default True
        Look for a period in G(0..n) and mark it when one is proved.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new pyplot figure).
    max_memory : int, optional
        Bytes the values may take (default: the memory available).

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on.

    Raises
    ------
    ImportError
        If matplotlib is not installed (``pip install 'grundy[plot]'``).
    TypeError
        If ``game`` is not a TakeAndBreakGame, ``ax`` not an Axes, or ``n``,
        ``mask`` not integers.
    ValueError
        If ``n`` < 0 or ``mask`` is out of range.
    MemoryLimitError
        If the values would need more than ``max_memory``.

    Examples
    --------
    >>> import grundy
    >>> from grundy import plot
    >>> from matplotlib.figure import Figure
    >>> kayles = grundy.OctalGame("0.77")
    >>> ax = plot.nim_sequence(kayles, 200, ax=Figure().subplots())
    >>> ax.get_title()
    "OctalGame('0.77'): G(0..200), period 12 from n = 71"
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['G(n)', 'preperiod 71', 'period 12\\n(proved from G(0..167))']
    >>> ax = plot.nim_sequence(grundy.GrundysGame(), 100, mask=0xFFFFFFFE, period=False,
    ...                        ax=Figure().subplots())
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['rare: 31 values', 'common: 70 values']
    """
    _require_matplotlib()
    if not isinstance(game, TakeAndBreakGame):
        raise TypeError(f"game must be a TakeAndBreakGame (OctalGame, HexGame, GrundysGame, "
                        f"SubtractionGame...), got {shorten(game)}")
    n = check_count(n, "n")
    if mask is not None:
        mask = check_int(mask, "mask", 1, 0xFFFFFFFF)
    period = check_bool(period, "period")
    ax = _axes(ax, (9.0, 4.0))
    from matplotlib.ticker import MaxNLocator

    values = game.nim_sequence(n, max_memory=max_memory)
    found = game.periodicity(n, max_memory=max_memory) if period else None
    x = np.arange(n + 1)
    size = 4.0 if n <= 200 else 2.5 if n <= 2000 else 1.2
    style: dict[str, Any] = dict(linestyle="none", marker="o", markersize=size,
                                 markeredgewidth=0, zorder=3)
    if mask is None:
        ax.plot(x, values, color=SEQUENCE_COLOR, label="G(n)", **style)
    else:
        rare = np.zeros(n + 1, dtype=bool)
        rare[game.rare_common(mask, n=n, max_memory=max_memory).rare_positions] = True
        n_rare = int(np.count_nonzero(rare))
        ax.plot(x[rare], values[rare], color=RARE_COLOR, label=f"rare: {n_rare} values",
                **style)
        ax.plot(x[~rare], values[~rare], color=COMMON_COLOR,
                label=f"common: {n + 1 - n_rare} values", **style)
    title = f"{shorten(game)}: G(0..{n})"
    if found is not None:
        e, p = found.preperiod, found.period
        title += f", period {p}" + (f" from n = {e}" if e else "")
        if 0 < e <= n:
            ax.axvline(e - 0.5, color=PREPERIOD_COLOR, linestyle="--", linewidth=1,
                       label=f"preperiod {e}", zorder=2)
        label: str | None = f"period {p}\n(proved from G(0..{found.proved_at}))"
        for start in range(e, n + 1, 2 * p):
            ax.axvspan(start - 0.5, min(start + p, n + 1) - 0.5, color=PERIOD_COLOR,
                       alpha=PERIOD_ALPHA, linewidth=0, label=label, zorder=1)
            label = None
    ax.set_title(title)
    ax.set_xlabel("heap size n")
    ax.set_ylabel("G(n)")
    pad = 0.5 + 0.02 * n
    ax.set_xlim(-pad, n + pad)
    top = int(values.max())
    ax.set_ylim(-0.5 - 0.03 * top, top + 0.5 + 0.03 * top)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0, fontsize="small",
              frameon=False)
    return ax


# -- police and thief --------------------------------------------------------------------

def _fixed_cell(sol: PoliceThiefSolution, cell: Any, who: str) -> tuple[Cell, int]:
    """The fixed piece's cell and its index, or an error naming the piece."""
    try:
        rc = _as_cell(cell)
        return rc, sol.board.cell_index(rc)
    except BoardError as exc:
        raise BoardError(f"{who}: {exc}", exc.row, exc.col) from None
    except TypeError as exc:
        raise TypeError(f"{who}: {exc}") from None


def police_board(sol: PoliceThiefSolution, *, thief: Cell | None = None,
                 police: Cell | None = None, police_to_move: bool = True,
                 numbers: bool = False, ax: Axes | None = None) -> Axes:
    """Draw a police-and-thief board: the outcome of every cell for one piece fixed.

    One piece stays on a fixed cell (``thief=`` or ``police=``; by default
    the thief on its start cell) and ``police_to_move`` says whose turn it
    is.  Every free cell c is coloured by the outcome, for the player to
    move, of the other piece standing on c (:data:`OUTCOME_COLORS`; the
    legend says which side that means wins), and shaded by its remoteness:
    the fewer moves to the end, the darker (remoteness 0 is the outcome's
    full colour, the largest remoteness on the picture is lightened by
    :data:`SHADE` towards white; draws are not shaded).  Blocked cells are
    :data:`WALL_COLOR`, exits have an :data:`EXIT_COLOR` frame, and a
    :data:`PIECE_COLOR` disc (lettered P or T when there is room) marks the
    fixed piece: its own cell is where police and thief meet, the thief
    caught.  Cell (row, col) is centred at x = col, y = row, row 0 at the
    top.

    Parameters
    ----------
    sol : PoliceThiefSolution
        A solved board (:meth:`grundy.PoliceThief.solve`).
    thief, police : tuple of int, optional
        The fixed piece's cell (row, col): give one of them, not both.
    police_to_move : bool, default True
        Whose turn it is.
    numbers : bool, default False
        Also write each cell's remoteness in it.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new pyplot figure).

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on.

    Raises
    ------
    ImportError
        If matplotlib is not installed (``pip install 'grundy[plot]'``).
    TypeError
        If ``sol`` is not a PoliceThiefSolution, a cell not a pair of
        integers, ``police_to_move`` or ``numbers`` not a bool, or ``ax``
        not an Axes.
    ValueError
        If both ``thief`` and ``police`` are given.
    BoardError
        If the fixed cell is off the board or blocked (quoting it).

    Examples
    --------
    >>> import grundy
    >>> from grundy import plot
    >>> from matplotlib.figure import Figure
    >>> board = grundy.PoliceThief(["P......",
    ...                             ".**.**.",
    ...                             "...T...",
    ...                             ".**.**.",
    ...                             "......E"])         # examples/police.txt
    >>> sol = board.solve()
    >>> ax = plot.police_board(sol, thief=(2, 3), ax=Figure().subplots())
    >>> ax.get_title()
    'thief on (2, 3), police to move'
    >>> [t.get_text() for t in ax.get_legend().get_texts()][:2]
    ['WIN: police wins\\n21 cells, remoteness 0..33', 'LOSS: thief wins\\n6 cells, remoteness 10']
    >>> ax = plot.police_board(sol, police=(0, 0), police_to_move=False,
    ...                        ax=Figure().subplots())
    >>> ax.get_title()
    'police on (0, 0), thief to move'
    """
    _require_matplotlib()
    if not isinstance(sol, PoliceThiefSolution):
        raise TypeError(f"sol must be a PoliceThiefSolution (PoliceThief.solve()), "
                        f"got {shorten(sol)}")
    if thief is not None and police is not None:
        raise ValueError(f"fix one piece: thief={shorten(thief)} or police={shorten(police)}, "
                         f"not both")
    police_to_move = check_bool(police_to_move, "police_to_move")
    numbers = check_bool(numbers, "numbers")
    board = sol.board
    thief_fixed = police is None
    who = "thief" if thief_fixed else "police"
    given = police if not thief_fixed else board.thief if thief is None else thief
    cell, k = _fixed_cell(sol, given, who)
    R, C, F = board.n_rows, board.n_cols, board.n_cells
    inch = max(0.05, min(0.5, 7.0 / C, 6.0 / R))         # a cell's side on a new figure
    ax = _axes(ax, (inch * C + 3.2, max(inch * R + 1.0, 3.4)))
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, Patch, PathPatch
    from matplotlib.path import Path

    # Position numbers (p * F + t) * 2 + police_to_move, the free cells in index order.
    others = np.arange(F, dtype=np.int64)
    if thief_fixed:
        idx = (others * F + k) * 2 + police_to_move
    else:
        idx = (k * F + others) * 2 + police_to_move
    outcome = np.asarray(sol.outcome[idx], dtype=np.int8)
    # One remoteness at a time: the whole array would take 8 bytes a position.
    remoteness = np.fromiter((sol._remoteness_at(int(i)) for i in idx), dtype=np.int64,
                             count=F)
    decided = outcome != DRAW
    far = max(1, int(remoteness[decided].max(initial=0)))
    base = np.array([_rgb(OUTCOME_COLORS[Outcome(int(o))]) for o in (LOSS, DRAW, WIN, TIE)])
    light = np.where(decided, SHADE * remoteness / far, 0.0)[:, None]
    colours = base[outcome.astype(np.int64) + 1]
    colours = colours + (1.0 - colours) * light
    image = np.empty((R, C, 3))
    image[:] = _rgb(WALL_COLOR)
    cells = board.cells
    image[cells[:, 0], cells[:, 1]] = colours
    ax.imshow(image, interpolation="nearest", origin="upper", zorder=0)
    if max(R, C) <= 60:                                   # thin lines between cells
        ax.hlines(np.arange(R + 1) - 0.5, -0.5, C - 0.5, color="white", linewidth=0.5,
                  zorder=1)
        ax.vlines(np.arange(C + 1) - 0.5, -0.5, R - 0.5, color="white", linewidth=0.5,
                  zorder=1)

    # Exits: a frame inside each exit cell (a square ring, in data units).
    if len(board.exits):
        w = 0.14
        ring = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5), (0, 0)]
        hole = [(-0.5 + w, -0.5 + w), (-0.5 + w, 0.5 - w), (0.5 - w, 0.5 - w),
                (0.5 - w, -0.5 + w), (0, 0)]
        codes = [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY] * 2
        vertices: list[tuple[float, float]] = []
        for r, c in board.exits.tolist():
            vertices += [(c + dx, r + dy) for dx, dy in ring + hole]
        path = Path(vertices, codes * len(board.exits))
        ax.add_patch(PathPatch(path, facecolor=EXIT_COLOR, edgecolor="none", zorder=2))

    side = _cell_points(ax, R, C)
    if numbers:
        size = max(4.0, min(10.0, 0.38 * side))
        dark = colours @ np.array([0.299, 0.587, 0.114]) < 0.5
        for i, (r, c) in enumerate(cells.tolist()):
            if i != k:
                ax.text(c, r, str(int(remoteness[i])) if decided[i] else "-", ha="center",
                        va="center", fontsize=size, color="white" if dark[i] else "black",
                        zorder=3)
    r, c = cell
    ax.add_patch(Circle((c, r), 0.34, facecolor=PIECE_COLOR, edgecolor="white",
                        linewidth=0.8, zorder=4))
    if side >= 14:
        ax.text(c, r, "T" if thief_fixed else "P", ha="center", va="center", color="white",
                fontsize=min(12.0, 0.36 * side), fontweight="bold", zorder=5)

    mover = "police" if police_to_move else "thief"
    other = "thief" if police_to_move else "police"
    meaning = {WIN: f"{mover} wins", LOSS: f"{other} wins", TIE: "tie", DRAW: "neither wins"}
    handles: list[Any] = []
    for o in (WIN, LOSS, TIE, DRAW):
        here = outcome == o
        count = int(np.count_nonzero(here))
        if not count and o in (TIE, DRAW):
            continue
        label = f"{o.name}: {meaning[o]}\n{count} cell{'s' if count != 1 else ''}"
        if count and o != DRAW:
            lo, hi = int(remoteness[here].min()), int(remoteness[here].max())
            label += f", remoteness {lo}" + (f"..{hi}" if hi > lo else "")
        handles.append(Patch(facecolor=OUTCOME_COLORS[o], label=label))
    if F < R * C:
        handles.append(Patch(facecolor=WALL_COLOR, label="wall"))
    if len(board.exits):
        handles.append(Patch(facecolor="white", edgecolor=EXIT_COLOR, linewidth=2,
                             label="exit"))
    handles.append(Line2D([], [], linestyle="none", marker="o", markersize=9,
                          markerfacecolor=PIECE_COLOR, markeredgecolor="white",
                          label=f"the {who} (fixed)"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0,
              fontsize="small", title=f"{mover} to move\n(darker: fewer moves left)",
              title_fontsize="small", frameon=False)
    ax.set_title(f"{who} on {cell}, {mover} to move")
    ax.set_xlim(-0.5, C - 0.5)
    ax.set_ylim(R - 0.5, -0.5)
    from matplotlib.ticker import MaxNLocator
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("column")
    ax.set_ylabel("row")
    return ax


# -- outcomes and remoteness of any solution -------------------------------------------

_CHUNK = 1 << 22


def _histograms(sol: Solution) -> tuple[dict[Outcome, npt.NDArray[np.int64]], int]:
    """Positions by remoteness for WIN, LOSS and TIE, and the number of draws
    (a chunk of positions at a time: no temporary the size of the game)."""
    outcome, remoteness = sol.outcome, sol.remoteness
    hist = {o: np.zeros(1, dtype=np.int64) for o in (WIN, LOSS, TIE)}
    for s in range(0, len(outcome), _CHUNK):
        o, r = outcome[s:s + _CHUNK], remoteness[s:s + _CHUNK]
        for value in hist:
            counts = np.bincount(r[o == value]).astype(np.int64)
            if len(counts) > len(hist[value]):
                counts[:len(hist[value])] += hist[value]
                hist[value] = counts
            else:
                hist[value][:len(counts)] += counts
    draws = int(np.count_nonzero(outcome == DRAW))
    return hist, draws


def outcomes(sol: Solution, *, ax: Axes | None = None) -> Axes:
    """Draw how many positions of a solution have each remoteness, by outcome.

    A bar for each remoteness 0, 1, 2, ..., stacked WIN (bottom), LOSS,
    TIE (top), in :data:`OUTCOME_COLORS`; after a gap, one bar labelled
    DRAW for the draws (which have no remoteness).  The legend gives the
    number of positions of each outcome.  The bars are in ``ax.containers``,
    labelled by outcome name.

    Parameters
    ----------
    sol : Solution
        Any solved game: a graph, a police-and-thief board, a game from its
        rules...
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new pyplot figure).

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on.

    Raises
    ------
    ImportError
        If matplotlib is not installed (``pip install 'grundy[plot]'``).
    TypeError
        If ``sol`` is not a :class:`grundy.Solution`, or ``ax`` not an Axes.
    MemoryLimitError
        If the solution's remoteness array would need more memory than its
        solve allows.

    Examples
    --------
    >>> import grundy
    >>> from grundy import plot
    >>> from matplotlib.figure import Figure
    >>> sol = grundy.GameGraph.from_edges([(0, 1), (1, 2), (3, 3), (4, 2)]).solve()
    >>> ax = plot.outcomes(sol, ax=Figure().subplots())
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['WIN: 2', 'LOSS: 2', 'DRAW: 1']
    >>> {c.get_label(): [int(p.get_height()) for p in c] for c in ax.containers}
    {'WIN': [0, 2, 0], 'LOSS': [1, 0, 1], 'DRAW': [1]}
    """
    _require_matplotlib()
    if not isinstance(sol, Solution):
        raise TypeError(f"sol must be a solved game (a grundy.Solution), got {shorten(sol)}")
    hist, draws = _histograms(sol)
    ax = _axes(ax, (8.0, 4.0))
    from matplotlib.ticker import MaxNLocator

    shown = [o for o in (WIN, LOSS, TIE) if hist[o].sum() or o != TIE]
    top = max(len(hist[o]) for o in shown) - 1 if sol.n_positions > draws else -1
    x = np.arange(top + 1)
    bottom = np.zeros(top + 1, dtype=np.int64)
    handles = []
    for o in shown:
        heights = np.zeros(top + 1, dtype=np.int64)
        heights[:len(hist[o])] = hist[o][:top + 1]
        bars = ax.bar(x, heights.tolist(), bottom=bottom.tolist(), width=0.85,
                      color=OUTCOME_COLORS[o], label=o.name)
        handles.append((bars, f"{o.name}: {int(heights.sum()):,}"))
        bottom += heights
    draw_at = top + 2 if top >= 0 else 0                  # after a gap
    bars = ax.bar([draw_at], [draws], width=0.85, color=OUTCOME_COLORS[DRAW], label="DRAW")
    handles.append((bars, f"DRAW: {draws:,}"))
    ax.legend([h for h, _ in handles], [t for _, t in handles], fontsize="small")
    ticks = [t for t in MaxNLocator(integer=True, nbins=8).tick_values(0, max(top, 0))
             if 0 <= t <= top]
    ax.set_xticks([*ticks, draw_at], [str(int(t)) for t in ticks] + ["DRAW"])
    ax.set_xlim(-1, draw_at + 1)
    # (explicitly: the stacked bars' bottoms are sticky edges that would stop the margin)
    ax.set_ylim(0, 1.06 * max(1, int(bottom.max(initial=0)), draws))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("remoteness (moves to the end with perfect play)")
    ax.set_ylabel("positions")
    n = sol.n_positions
    ax.set_title(f"{type(sol).__name__}: {n:,} position{'s' if n != 1 else ''}")
    return ax
