"""The public API speaks one vocabulary, is documented with examples and typed.

- every public name (``grundy.__all__``, and the public methods and
  properties of the public classes) has a numpydoc docstring with an
  Examples section, and type hints on every parameter and its return;
- the shared options (``misere``, ``labels``, ``max_memory``, ``progress``)
  are keyword-only wherever they appear;
- every kind of solved game answers with the same names, dtypes and value
  types;
- ``mypy --strict`` passes on the installed package.
"""
import inspect
import os
import subprocess
import sys

import numpy as np
import pytest

import grundy
from grundy import Evaluation, Solution
from locations import ROOT

SHARED_OPTIONS = {"misere", "labels", "max_memory", "progress"}


def _own(obj):
    """True for functions, properties and classes written in grundy."""
    target = obj.fget if isinstance(obj, property) else obj
    return getattr(target, "__module__", "").startswith("grundy")


def public_members():
    """(qualified name, object) of every public name: the exports, and the
    public methods and properties of the exported classes."""
    out = []
    for name in grundy.__all__:
        obj = getattr(grundy, name)
        if not (inspect.isclass(obj) or inspect.isfunction(obj)):
            obj = type(obj)               # WIN, NO_MOVE: documented by their type
            name = obj.__name__
        out.append((name, obj))
        if inspect.isclass(obj):
            for attr in dir(obj):
                if attr.startswith("_") and attr != "__getitem__":     # sol[p] is public
                    continue
                # The class that defines the attribute, as lookup finds it.
                owner = next((c for c in obj.__mro__ if attr in vars(c)), None)
                if owner is None:                     # from the metaclass (an Enum's)
                    continue
                value = vars(owner)[attr]
                if isinstance(value, classmethod):
                    value = value.__func__
                if (inspect.isfunction(value) or isinstance(value, property)) and \
                        _own(value):
                    out.append((f"{owner.__name__}.{attr}", value))
    return sorted(dict(out).items())


MEMBERS = public_members()


def test_the_walk_sees_the_api():
    names = {name for name, _ in MEMBERS}
    for expected in ("GameGraph.solve", "Solution.line", "GraphSolution.outcome",
                     "StateSolution.move", "solve_game", "GameSolution.index", "ImpartialGame.values", "TakeAndBreakGame.value",
                     "nim_move", "Outcome", "NoMoveType", "Evaluation", "LoopyValues.k"):
        assert expected in names
    assert len(MEMBERS) > 100


@pytest.mark.parametrize("name, obj", MEMBERS, ids=[name for name, _ in MEMBERS])
def test_docstring_has_an_example(name, obj):
    doc = inspect.getdoc(obj.fget if isinstance(obj, property) else obj)
    assert doc, f"{name} has no docstring"
    assert "Examples\n--------" in doc, f"{name}: no numpydoc Examples section"
    assert ">>> " in doc, f"{name}: no example"


def _signature(obj):
    if isinstance(obj, property):
        return inspect.signature(obj.fget)
    if inspect.isclass(obj):
        init = obj.__dict__.get("__init__")
        if init is None or not _own(init):
            return None                   # NamedTuple, Enum, or inherited
        return inspect.signature(init)
    return inspect.signature(obj)


@pytest.mark.parametrize("name, obj", MEMBERS, ids=[name for name, _ in MEMBERS])
def test_type_hints(name, obj):
    sig = _signature(obj)
    if sig is None:
        return
    params = list(sig.parameters.values())
    if params and params[0].name in ("self", "cls"):
        params = params[1:]
    for p in params:
        assert p.annotation is not inspect.Parameter.empty, f"{name}: {p.name} has no type hint"
    assert sig.return_annotation is not inspect.Signature.empty, f"{name}: no return type"


@pytest.mark.parametrize("name, obj", MEMBERS, ids=[name for name, _ in MEMBERS])
def test_numpydoc_sections(name, obj):
    """Functions and methods taking arguments document them, and what they return."""
    sig = _signature(obj)
    if sig is None or isinstance(obj, property):
        return
    doc = inspect.getdoc(obj)
    params = [p for p in sig.parameters.values() if p.name not in ("self", "cls")]
    if params:
        assert "Parameters\n----------" in doc, f"{name}: no Parameters section"
        for p in params:
            shown = p.name if p.kind != p.VAR_POSITIONAL else f"*{p.name}"
            assert shown in doc, f"{name}: parameter {p.name} is not documented"
    if not inspect.isclass(obj) and sig.return_annotation not in ("None", None):
        assert "Returns\n-------" in doc, f"{name}: no Returns section"
    if params and not inspect.isclass(obj):
        # Anything taking arguments can refuse them.
        assert "Raises\n------" in doc, f"{name}: no Raises section"


@pytest.mark.parametrize("name, obj", MEMBERS, ids=[name for name, _ in MEMBERS])
def test_shared_options_are_keyword_only(name, obj):
    sig = _signature(obj)
    if sig is None:
        return
    for p in sig.parameters.values():
        if p.name in SHARED_OPTIONS:
            assert p.kind == p.KEYWORD_ONLY, f"{name}: option {p.name} must be keyword-only"


def test_nothing_kept_under_two_names():
    for old in ("Solution.outcome_of", "crosses_crosses", "LoopyGrundy"):
        assert not hasattr(grundy, old.split(".")[-1]) or old.startswith("Solution")
    g = grundy.GameGraph.from_edges([(0, 1)])
    for old in ("n_nodes", "n_edges", "nodes", "vertex", "successors", "grundy",
                "loopy_grundy"):
        assert not hasattr(g, old), old
    game = grundy.ImpartialGame(lambda n: range(n))
    for old in ("grundy", "table", "options", "outcome", "loopy_grundy"):
        assert not hasattr(game, old), old


# -- one result vocabulary -----------------------------------------------------------

def _solutions():
    graph = grundy.GameGraph.from_edges([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")],
                                        names=True)
    board = grundy.PoliceThief.parse("2 3\nP.E\n.*T\n")
    game = grundy.ImpartialGame(lambda n: [n - s for s in (1, 2) if s <= n])
    return [("graph", graph.solve(), "a"),
            ("police", board.solve(), grundy.PolicePosition((0, 0), (1, 2), True)),
            ("impartial", game.solve(5), 5)]


@pytest.mark.parametrize("kind, sol, p", _solutions(), ids=lambda x: x if
                         isinstance(x, str) else "")
def test_one_result_vocabulary(kind, sol, p):
    assert isinstance(sol, Solution)
    n = sol.n_positions
    assert len(sol) == n and len(sol.positions) == n
    for name, dtype in (("outcome", np.int8), ("remoteness", np.int64), ("move", np.int64)):
        arr = getattr(sol, name)
        assert isinstance(arr, np.ndarray) and arr.dtype == dtype and arr.shape == (n,), name
        assert not arr.flags.writeable, name
    e = sol[p]
    assert type(e) is Evaluation
    assert type(e.outcome) is grundy.Outcome and type(e.remoteness) is int
    i = sol.index(p)
    assert sol.position(i) == p and sol.positions[i] == p
    assert e.outcome == sol.outcome[i]
    assert e.remoteness == sol.remoteness[i]
    if sol.move[i] < 0:
        assert e.move is grundy.NO_MOVE and sol.best_move(p) is grundy.NO_MOVE
    else:
        assert e.move == sol.position(int(sol.move[i])) == sol.best_move(p)
    line = sol.line(p)
    assert line[0] == p
    if e.outcome != grundy.DRAW:
        assert len(line) == e.remoteness + 1
    counts = sol.counts()
    assert list(counts) == [grundy.WIN, grundy.LOSS, grundy.TIE, grundy.DRAW]
    assert sum(counts.values()) == n
    assert repr(sol).startswith(type(sol).__name__ + "(")
    # Every number maps back to its position.
    for j in range(n):
        assert sol.index(sol.position(j)) == j


def test_evaluation_repr_names_the_outcome():
    e = grundy.GameGraph.from_edges([(0, 1)]).solve()[1]
    assert repr(e) == "Evaluation(LOSS, remoteness=0, move=NO_MOVE)"
    assert e == (grundy.LOSS, 0, grundy.NO_MOVE) and e != (grundy.LOSS, 0, -1)
    with pytest.raises(AttributeError):
        e.outcome = grundy.WIN               # frozen


def test_outcomes_print_as_names():
    assert [repr(o) for o in grundy.Outcome] == ["WIN", "LOSS", "DRAW", "TIE"]
    assert f"{grundy.WIN} {grundy.LOSS!s} {grundy.DRAW:>5}" == "WIN LOSS  DRAW"
    assert str(grundy.NO_MOVE) == "NO_MOVE" and int(grundy.NO_MOVE) == -1 != grundy.NO_MOVE
    assert grundy.WIN == 1 and int(grundy.LOSS) == -1


def test_grundy_values_have_one_dtype():
    for values in (grundy.GameGraph.from_edges([(0, 1)]).values(),
                   grundy.OctalGame("0.07").nim_sequence(10),
                   grundy.OctalGame("4.7").nim_sequence(10),
                   grundy.ImpartialGame(lambda n: range(n)).values([1, 2])):
        assert values.dtype == np.int64 and not values.flags.writeable


# -- typing ---------------------------------------------------------------------------

def test_package_is_typed():
    import grundy as pkg
    here = os.path.dirname(pkg.__file__)
    assert os.path.exists(os.path.join(here, "py.typed"))
    for name in ("csr", "explore", "grundy", "loopy", "octal", "police", "retrograde", "textio"):
        assert os.path.exists(os.path.join(here, "_core", f"{name}.pyi")), name


def test_mypy_strict_on_the_installed_package(tmp_path):
    # mypy is in the test extra: its absence is a failure, not a skip.
    # Run away from the source tree, so mypy checks the installed package.
    run = subprocess.run([sys.executable, "-m", "mypy", "--config-file",
                          os.path.join(ROOT, "pyproject.toml"), "--cache-dir",
                          str(tmp_path / "cache"), "-p", "grundy"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success" in run.stdout


USER_CODE = """
import grundy
from grundy import WIN, Game, GameGraph, solve_game


class Countdown(grundy.Game):
    def start(self) -> int:
        return 2

    def moves(self, p: int) -> list[int]:
        return [p - 1] if p else []


sol = solve_game(Countdown())
assert sol[2].outcome == WIN and isinstance(Countdown(), Game)
counts: dict[grundy.Outcome, int] = GameGraph.from_edges([(0, 1)]).solve().counts()
"""


def test_mypy_strict_on_code_that_uses_the_package(tmp_path):
    # The names of ``grundy`` are re-exported for type checkers (PEP 484 rules).
    (tmp_path / "user.py").write_text(USER_CODE)
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--cache-dir",
                          str(tmp_path / "cache"), "user.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr


# -- the edges of the vocabulary -------------------------------------------------------

def test_named_values_format_as_numbers_when_asked():
    assert f"{grundy.WIN:d}" == "1" and format(grundy.LOSS, "+d") == "-1"
    assert f"{grundy.NO_MOVE:>8}" == " NO_MOVE" and f"{grundy.NO_MOVE:d}" == "-1"
    assert type(grundy.NO_MOVE)() is grundy.NO_MOVE


def test_evaluation_repr_of_plain_values():
    assert repr(Evaluation(1, 0, -1)) == "Evaluation(WIN, remoteness=0, move=-1)"
    assert repr(Evaluation(7, 0, -1)) == "Evaluation(7, remoteness=0, move=-1)"


def test_position_list_takes_position_numbers_only():
    sol = grundy.PoliceThief.parse("1 2\nPT").solve()
    assert sol.positions[3] == grundy.PolicePosition((0, 0), (0, 1), True)
    assert grundy.PolicePosition((0, 0), (0, 1), True) in sol.positions
    assert ((0, 0), (5, 5), True) not in sol.positions
    for bad, exc in ((1.7, TypeError), ("3", TypeError), (True, TypeError),
                     (-1, ValueError), (8, IndexError)):
        with pytest.raises(exc):
            sol.positions[bad]


def test_none_can_be_a_position_name():
    sol = grundy.GameGraph.from_edges([(None, "b")], names=True).solve()
    assert sol.line(None) == [None, "b"]
    assert sol[None].move == "b"
    with pytest.raises(TypeError, match="needs a position: this game has no start"):
        sol.line()


def test_solution_constructors_check_and_copy():
    g = grundy.GameGraph.from_edges([(0, 1)])
    outcome = np.array([1, -1])
    sol = grundy.GraphSolution(g, outcome, [1, 0], [1, -1])
    assert outcome.flags.writeable                       # the caller's array is untouched
    assert sol.outcome.dtype == np.int8 and not sol.outcome.flags.writeable
    with pytest.raises(TypeError, match="remoteness must hold integers"):
        grundy.GraphSolution(g, [1, -1], np.array([1.5, 0]), [1, -1])
    with pytest.raises(ValueError, match=r"move\[0\] = 2: expected -1..1"):
        grundy.GraphSolution(g, [1, -1], [1, 0], [2, -1])
    with pytest.raises(ValueError, match="outcome has 3 entries"):
        grundy.GraphSolution(g, [1, -1, 0], [1, 0], [1, -1])
    with pytest.raises(TypeError, match="graph must be a GameGraph"):
        grundy.GraphSolution("g", [1, -1], [1, 0], [1, -1])
    with pytest.raises(TypeError, match="value must hold integers"):
        grundy.LoopyValues(g, np.array([0.5, 1]), 1)
    board = grundy.PoliceThief.parse("1 2\nPT")
    solved = board.solve()
    again = grundy.PoliceThiefSolution(board, solved.outcome, solved.remoteness)
    assert np.array_equal(again.move, solved.move)
    assert np.array_equal(again.remoteness, solved.remoteness)
    # The solve's own arrays cannot be changed underneath the solution.
    assert not solved.outcome.base.flags.writeable


def test_lazy_police_arrays_respect_the_solves_memory_limit():
    board = grundy.PoliceThief(["." * 30] * 29 + ["P" + "." * 28 + "T"])
    limit = 2 * board.memory_estimate()           # room for the solve's queue
    sol = board.solve(max_memory=limit)
    assert 8 * board.n_positions > limit
    with pytest.raises(grundy.MemoryLimitError, match="int64 moves"):
        sol.move
    with pytest.raises(grundy.MemoryLimitError, match="int64 remoteness"):
        sol.remoteness
    assert sol[sol.start].outcome == grundy.WIN           # single answers need no array
    with pytest.raises(ValueError, match="remoteness_bytes must be 2 or 4"):
        board.memory_estimate(remoteness_bytes=3)


def test_positions_name_numbered_vertices_from_any_input():
    names = ["up", "down"]
    for g in (grundy.GameGraph.from_edges([(0, 1)], positions=names),
              grundy.GameGraph.from_edges(np.array([[0, 1]]), positions=names),
              grundy.GameGraph.from_adjacency([[1], []], positions=names),
              grundy.GameGraph.from_csr([0, 1, 1], [1], positions=names),
              grundy.GameGraph([0, 1, 1], [1], positions=names)):
        assert g.positions == ("up", "down") and g.solve()["up"].move == "down"
    with pytest.raises(ValueError, match="cannot be given with names=True"):
        grundy.GameGraph.from_edges([("a", "b")], names=True, positions=["a", "b"])
    with pytest.raises(ValueError, match="3 position names for 2 positions"):
        grundy.GameGraph.from_edges([(0, 1)], positions=["a", "b", "c"])


def test_period_search_respects_max_memory():
    with pytest.raises(grundy.MemoryLimitError):
        grundy.OctalGame("0.6").periodicity(10 ** 6, max_memory=10 ** 5)
