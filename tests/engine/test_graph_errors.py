"""Every documented error of the graph constructors and of solve()."""
import numpy as np
import pytest

from grundy import DRAW, WIN, GameGraph
from grundy._core import csr, retrograde


@pytest.mark.parametrize("edges, exc, match", [
    ([(0, -1)], ValueError, r"edge 0 = \(0, -1\).*0\.\.0"),
    ([(0, 1), (-2, 0)], ValueError, r"edge 1 = \(-2, 0\)"),
    ([(0, 1.5)], TypeError, "must hold integers"),
    ([(0, "a")], TypeError, "must hold integers"),
    ([(True, False)], TypeError, "must hold integers"),
    ([(0, 1, 2)], ValueError, r"edge 0 is \(0, 1, 2\): an edge is a \(u, v\) pair"),
    ([0, 1], ValueError, r"edge 0 is 0: an edge is a \(u, v\) pair"),
    ([(0, 1), (2,)], ValueError, r"edge 1 is \(2,\): an edge is a \(u, v\) pair"),
    (np.zeros((2, 3), np.int64), ValueError, r"shape \(m, 2\), got \(2, 3\)"),
    ([(0, 2 ** 70)], ValueError, "int64 range"),
])
def test_from_edges_rejects(edges, exc, match):
    with pytest.raises(exc, match=match):
        GameGraph.from_edges(edges)


def test_from_edges_n_checks():
    with pytest.raises(ValueError, match=r"edge 0 = \(0, 3\).*0\.\.2"):
        GameGraph.from_edges([(0, 3)], n=3)
    with pytest.raises(ValueError, match="n must be >= 0, got -1"):
        GameGraph.from_edges([], n=-1)
    with pytest.raises(TypeError, match="n must be an integer, got 2.0"):
        GameGraph.from_edges([], n=2.0)
    with pytest.raises(ValueError, match="no vertices"):
        GameGraph.from_edges([(0, 0)], n=0)


@pytest.mark.parametrize("indptr, indices, match", [
    ([0, 2, 1], [1], "non-decreasing: indptr\\[1\\] = 2 > indptr\\[2\\] = 1"),
    ([1, 1], [], "indptr\\[0\\] must be 0, got 1"),
    ([0, 1], [0, 0], "indptr\\[-1\\] = 1 must equal len\\(indices\\) = 2"),
    ([0, 1, 2], [0, 5], "indices\\[1\\] = 5 is not a vertex: valid range is 0..1"),
    ([0, 1, 2], [0, -1], "indices\\[1\\] = -1 is not a vertex"),
    ([], [], "at least one entry"),
    ([[0, 1]], [0], "1-dimensional"),
])
def test_from_csr_rejects(indptr, indices, match):
    with pytest.raises(ValueError, match=match):
        GameGraph.from_csr(indptr, indices)


def test_from_adjacency_rejects():
    with pytest.raises(ValueError, match="successor 3 of position 1 is not a position: valid range is 0..1"):
        GameGraph.from_adjacency([[1], [3]])
    with pytest.raises(TypeError, match=r"adj\[0\] must be an iterable of successors, got 5"):
        GameGraph.from_adjacency([5])
    with pytest.raises(TypeError, match="adj must be a sequence or mapping"):
        GameGraph.from_adjacency(7)
    with pytest.raises(ValueError, match="successor 'x' of 'a' is not a key"):
        GameGraph.from_adjacency({"a": ["x"]})
    with pytest.raises(TypeError, match="must hold integers"):
        GameGraph.from_adjacency([[0.5]])


def test_from_scipy_and_networkx_reject():
    sp = pytest.importorskip("scipy.sparse")
    pytest.importorskip("networkx")
    with pytest.raises(ValueError, match=r"square, got shape \(2, 3\)"):
        GameGraph.from_scipy(sp.csr_matrix((2, 3)))
    with pytest.raises(TypeError, match="expected a scipy.sparse matrix or array, got ndarray"):
        GameGraph.from_scipy(np.eye(2))
    with pytest.raises(TypeError, match="expected a networkx graph, got list"):
        GameGraph.from_networkx([(0, 1)])


@pytest.mark.parametrize("labels, exc, match", [
    ({0: DRAW}, ValueError, "label of 0 is DRAW: a label must be WIN \\(1\\), LOSS \\(-1\\) "
                            "or TIE \\(2\\)"),
    ({0: 3}, ValueError, "label of 0 is 3"),
    ({0: True}, TypeError, "label of 0 is True"),
    ({0: 1.0}, TypeError, "label of 0 is 1.0"),
    ({5: WIN}, ValueError, "position 5 is out of range: valid range is 0..1"),
    ({-1: WIN}, ValueError, "position must be >= 0, got -1"),
    ({"a": WIN}, TypeError, "position must be an integer, got 'a'"),
    (np.array([0, 3]), ValueError, r"labels\[1\] = 3"),
    (np.array([0, 1, 0]), ValueError, "labels has length 3, expected n_positions = 2"),
    (np.array([0.0, 1.0]), TypeError, "labels must hold integers"),
])
def test_solve_rejects_bad_labels(labels, exc, match):
    g = GameGraph.from_edges([(0, 1)])
    with pytest.raises(exc, match=match):
        g.solve(labels=labels)


def test_line_rejects_bad_vertex():
    sol = GameGraph.from_edges([(0, 1)]).solve()
    with pytest.raises(ValueError, match="position 2 is out of range: valid range is 0..1"):
        sol.line(2)
    with pytest.raises(TypeError, match="position must be an integer"):
        sol.line("x")
    # A graph has no start: line() needs a position.
    with pytest.raises(TypeError, match="needs a position"):
        sol.line()
    with pytest.raises(ValueError, match="position number 2 is out of range: valid range is 0..1"):
        sol.position(2)
    with pytest.raises(IndexError):
        sol.positions[2]
    named = GameGraph.from_edges([("a", "b")], names=True).solve()
    with pytest.raises(ValueError, match="'c' is not a position of this graph"):
        named.best_move("c")
    with pytest.raises(ValueError, match=r"\['a'\] is not a position of this graph"):
        named[["a"]]


def test_kernels_validate_their_own_input():
    """Called directly with bad arrays, the kernels raise instead of crashing."""
    i64 = lambda *a: np.array(a, dtype=np.int64)
    one = csr.CSRSource(i64(0, 0), i64())
    with pytest.raises(ValueError, match="is not a vertex"):
        csr.CSRSource(i64(0, 1), i64(7))
    with pytest.raises(ValueError, match=r"labels has shape \(0,\), expected \(1,\)"):
        csr.CSRSource(i64(0, 0), i64(), np.zeros(0, np.int8))
    with pytest.raises(ValueError, match="label of vertex 0 is 5"):
        csr.CSRSource(i64(0, 0), i64(), np.full(1, 5, np.int8))
    with pytest.raises(ValueError, match="state and remoteness must have 1 entries"):
        retrograde.solve(one, np.zeros(0, np.uint8), np.zeros(1, np.uint16))
    with pytest.raises(ValueError, match="non-decreasing"):
        csr.check_csr(i64(0, 5, 1), i64(0))
    with pytest.raises(ValueError, match="differ in length"):
        csr.edges_to_csr(i64(0), i64(), 1)
    frozen = np.zeros(1, np.uint8)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        retrograde.solve(one, frozen, np.zeros(1, np.uint16))
    with pytest.raises(TypeError, match="No matching signature"):
        retrograde.solve(one, np.zeros(1, np.uint8), np.zeros(1, np.int64))
    with pytest.raises(TypeError):
        retrograde.solve(None, np.zeros(1, np.uint8), np.zeros(1, np.uint16))


def test_position_names_rejected():
    with pytest.raises(ValueError, match="position names must be distinct: 'a' appears twice"):
        GameGraph([0, 0, 0], [], positions=["a", "a"])
    with pytest.raises(TypeError, match=r"position names must be hashable, got \['b'\]"):
        GameGraph([0, 0, 0], [], positions=["a", ["b"]])
    with pytest.raises(ValueError, match="3 position names for 2 positions"):
        GameGraph([0, 0, 0], [], positions=["a", "b", "c"])
    with pytest.raises(TypeError):
        GameGraph([0, 0, 0], [], ["a", "b"])          # positions is keyword-only
    g = GameGraph([0, 1, 1], [1], positions=["in", "out"])
    assert g.positions == ("in", "out") and g.index("out") == 1 and g.position(0) == "in"


def test_from_edges_with_names():
    g = GameGraph.from_edges([("a", "b"), (3, (1, 2)), ("b", 3)], names=True)
    assert g.positions == ("a", "b", 3, (1, 2))
    assert g.moves("b") == [3] and g.n_moves == 3
    sol = g.solve()
    assert sol.line("a") == ["a", "b", 3, (1, 2)]
    assert GameGraph.from_edges([], names=True).n_positions == 0
    # The same graph as with integer ids, renumbered by first appearance.
    plain = GameGraph.from_edges([(5, 2), (2, 0)])
    named = GameGraph.from_edges([(5, 2), (2, 0)], names=True)
    assert named.positions == (5, 2, 0)
    assert [named.solve()[v] for v in (5, 2, 0)] == [plain.solve()[v] for v in (5, 2, 0)]


@pytest.mark.parametrize("edges, kwargs, exc, match", [
    ([("a", "b")], {"n": 3, "names": True}, ValueError, "n = 3 cannot be given with names=True"),
    ([("a", "b", "c")], {"names": True}, ValueError, r"edge 0 is \('a', 'b', 'c'\): an edge is a \(u, v\) pair"),
    ([5], {"names": True}, TypeError, r"edge 0 is 5: an edge is a \(u, v\) pair"),
    (["ab"], {"names": True}, TypeError, "edge 0 is 'ab'"),
    ([("a", ["b"])], {"names": True}, TypeError, r"position names must be hashable, got \['b'\]"),
    ("ab", {"names": True}, TypeError, "edges must be an iterable of"),
])
def test_from_edges_with_names_rejects(edges, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        GameGraph.from_edges(edges, **kwargs)


def test_parse_and_read_edges(tmp_path):
    text = "# a cycle with an exit\n1,2\n2 3\n3,1\n\n3\t4\n"
    g = GameGraph.parse_edges(text)
    assert g.positions == ("1", "2", "3", "4") and g.n_moves == 4
    assert GameGraph.parse_edges(text.encode()).positions == g.positions
    path = tmp_path / "edges.csv"
    path.write_text(text)
    assert GameGraph.read_edges(path).solve()["1"] == g.solve()["1"]
    with pytest.raises(ValueError, match=r"line 3: expected an edge 'u v' or 'u,v', got '2'"):
        GameGraph.parse_edges("a b\n\n2\n")
    with pytest.raises(TypeError, match="expected the edge list as text"):
        GameGraph.parse_edges(12)
    with pytest.raises(FileNotFoundError):
        GameGraph.read_edges(tmp_path / "missing.txt")
