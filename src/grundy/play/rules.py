"""Games given by their rules (and solved graphs) at the table: positions
drawn by the game's ``render(position)``, or ``str()``; a move is named by
the position it leads to.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any


from grundy._common import (check_count, shorten)
from grundy.engine.rules import BatchGame
from grundy.engine.solution import Solution
from grundy.play.face import Face, Limits, MAX_POSITIONS, Move, Table

__all__ = ["RulesFace", "GraphFace", "rules_table"]


_POSITION_SYNTAX = "POSITION   the position a move leads to, as listed"


def has_rules(obj: Any) -> bool:
    """Whether ``obj`` has the methods ``start()`` and ``moves(position)``."""
    return callable(getattr(obj, "start", None)) and callable(getattr(obj, "moves", None))


def _rules_title(game: Any, title: str | None) -> str:
    return title if title is not None else f"{type(game).__name__}: a game given by its rules."


def _moves_to(positions: Iterable[Any]) -> list[Move]:
    """Moves named by the positions they lead to (``str()`` on one line, shortened)."""
    out = []
    for p in positions:
        text = " ".join(str(p).split())
        out.append(Move(text if len(text) <= 36 else text[:33] + "...", p))
    return out


class RulesFace(Face):
    """A game from the per-position protocol: its own moves, shown as the positions
    they lead to.

    Positions are drawn by the game's ``render(position)`` if it has one,
    else with ``str()``; a move is typed by its number or as the position it
    leads to.

    Parameters
    ----------
    game : Game
        Any object with ``moves(position)`` (and optionally ``render``).
    title : str, optional
        The first line of the session (default: the class name).

    Raises
    ------
    TypeError
        If ``game`` has no ``moves``.

    Examples
    --------
    >>> from grundy import Game
    >>> class Countdown(Game):
    ...     def start(self): return 3
    ...     def moves(self, n): return [n - 1, n - 2] if n >= 2 else [0] if n else []
    >>> RulesFace(Countdown()).moves(3)
    [Move(name='2', position=2), Move(name='1', position=1)]
    """

    syntax = _POSITION_SYNTAX

    def __init__(self, game: Any, title: str | None = None) -> None:
        if not callable(getattr(game, "moves", None)):
            raise TypeError(f"a game needs moves(position); {shorten(game)} has none")
        self.game = game
        self.title = _rules_title(game, title)

    def render(self, position: Any) -> str:
        """``game.render(position)`` if the game has it, else ``str(position)``."""
        draw = getattr(self.game, "render", None)
        return str(draw(position)) if callable(draw) else str(position)

    def moves(self, position: Any) -> list[Move]:
        """The game's moves, each once (the first time it lists it)."""
        return _moves_to(dict.fromkeys(self.game.moves(position)))


class GraphFace(Face):
    """Any game solved with a graph (a :class:`grundy.GameSolution` or
    :class:`grundy.GraphSolution`): the moves are the graph's, positions shown
    with ``str()``.

    Parameters
    ----------
    solution : Solution
        A solution with a ``graph`` (vertex i being position i).
    render : callable, optional
        ``render(position) -> str`` (default: ``str``).

    Raises
    ------
    TypeError
        If ``solution`` has no graph.

    Examples
    --------
    >>> from grundy import GameGraph
    >>> import grundy
    >>> sol = grundy.GameGraph.from_edges([("a", "b"), ("a", "c")], names=True).solve()
    >>> GraphFace(sol).moves("a")
    [Move(name='b', position='b'), Move(name='c', position='c')]
    """

    syntax = _POSITION_SYNTAX
    title = "A game on a graph."

    def __init__(self, solution: Solution, render: Callable[[Any], str] | None = None) -> None:
        graph = getattr(solution, "graph", None)
        if graph is None:
            raise TypeError(f"solution must have a graph, got {shorten(solution)}")
        self.solution = solution
        self._indptr, self._indices = graph.indptr, graph.indices
        self._render = render

    def render(self, position: Any) -> str:
        """The position, drawn by ``render`` or ``str()``."""
        return str(self._render(position)) if self._render is not None else str(position)

    def moves(self, position: Any) -> list[Move]:
        """The graph's moves, each once, in edge order."""
        i = self.solution.index(position)
        ends = self._indices[self._indptr[i]:self._indptr[i + 1]].tolist()
        return _moves_to(self.solution.position(j) for j in dict.fromkeys(ends))


def rules_table(game: Any, *, misere: bool = False, max_positions: int = MAX_POSITIONS,
                title: str | None = None) -> Table:
    """A game given by its rules, solved for play from its start.

    Parameters
    ----------
    game : Game or BatchGame
        The rules (any object with ``start()`` and ``moves(position)``).
        Moves are listed as the positions they lead to, drawn by the
        game's ``render(position)`` if it has one, else with ``str()``.
    misere : bool, default False
        A position with no move is a WIN for the player to move.
    max_positions : int
        Refuse games with more positions (the exploration stops there).
    title : str, optional
        The first line of the session.

    Returns
    -------
    Table

    Raises
    ------
    TypeError
        If ``game`` is not a game, or its methods return the wrong kind of thing.
    MemoryLimitError
        If the game has more than ``max_positions`` positions, or needs more
        memory than is available.

    Examples
    --------
    >>> from grundy import Game
    >>> class Countdown(Game):
    ...     def start(self): return 5
    ...     def moves(self, n): return [m for m in (n - 1, n - 2) if m >= 0]
    >>> table = rules_table(Countdown())
    >>> table.start, table.solution[5]
    (5, Evaluation(WIN, remoteness=..., move=3))
    """
    max_positions = check_count(max_positions, "max_positions", minimum=1)
    sol = Limits(type(game).__name__, max_positions).solve(game, misere)
    if isinstance(game, BatchGame):
        draw = getattr(game, "render", None)
        face = GraphFace(sol, draw if callable(draw) else None)
        face.title = _rules_title(game, title)
        return Table(sol, face, sol.start)
    start = game.start()
    return Table(sol, RulesFace(game, title), start)
