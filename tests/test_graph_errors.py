"""Every documented error of the graph constructors and of solve()."""
import numpy as np
import pytest

from grundy import DRAW, LOSS, WIN, GameGraph
from grundy._core import csr, retrograde


@pytest.mark.parametrize("edges, exc, match", [
    ([(0, -1)], ValueError, r"edge 0 = \(0, -1\).*0\.\.0"),
    ([(0, 1), (-2, 0)], ValueError, r"edge 1 = \(-2, 0\)"),
    ([(0, 1.5)], TypeError, "must hold integers"),
    ([(0, "a")], TypeError, "must hold integers"),
    ([(True, False)], TypeError, "must hold integers"),
    ([(0, 1, 2)], ValueError, r"shape \(m, 2\), got \(1, 3\)"),
    ([0, 1], ValueError, r"shape \(m, 2\), got \(2,\)"),
    ([(0, 1), (2,)], ValueError, "could not be read"),
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
    with pytest.raises(ValueError, match="successor 3 of vertex 1 is not a vertex: valid range is 0..1"):
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
    ({0: DRAW}, ValueError, "label of 0 is .*must be WIN \\(1\\) or LOSS \\(-1\\)"),
    ({0: 2}, ValueError, "label of 0 is 2"),
    ({0: True}, ValueError, "label of 0 is True"),
    ({5: WIN}, ValueError, "vertex 5 is out of range: valid range is 0..1"),
    ({-1: WIN}, ValueError, "vertex must be >= 0, got -1"),
    ({"a": WIN}, TypeError, "vertex must be an integer, got 'a'"),
    (np.array([0, 3]), ValueError, r"labels\[1\] = 3"),
    (np.array([0, 1, 0]), ValueError, "labels has length 3, expected n_nodes = 2"),
    (np.array([0.0, 1.0]), TypeError, "labels must hold integers"),
])
def test_solve_rejects_bad_labels(labels, exc, match):
    g = GameGraph.from_edges([(0, 1)])
    with pytest.raises(exc, match=match):
        g.solve(labels=labels)


def test_line_rejects_bad_vertex():
    sol = GameGraph.from_edges([(0, 1)]).solve()
    with pytest.raises(ValueError, match="vertex 2 is out of range: valid range is 0..1"):
        sol.line(2)
    with pytest.raises(TypeError, match="vertex must be an integer"):
        sol.line("x")


def test_kernels_validate_their_own_input():
    """Called directly with bad arrays, the kernels raise instead of crashing."""
    i64 = lambda *a: np.array(a, dtype=np.int64)
    with pytest.raises(ValueError, match="is not a vertex"):
        retrograde.solve_graph(i64(0, 1), i64(7), np.zeros(1, np.int8), i64(0), i64(0))
    with pytest.raises(ValueError, match="outcome has length 0, expected 1"):
        retrograde.solve_graph(i64(0, 0), i64(), np.zeros(0, np.int8), i64(0), i64(0))
    with pytest.raises(ValueError, match="label of vertex 0 is 5"):
        retrograde.solve_graph(i64(0, 0), i64(), np.full(1, 5, np.int8), i64(0), i64(0))
    with pytest.raises(ValueError, match="non-decreasing"):
        csr.check_csr(i64(0, 5, 1), i64(0))
    with pytest.raises(ValueError, match="differ in length"):
        csr.edges_to_csr(i64(0), i64(), 1)
    frozen = np.zeros(1, np.int8)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        retrograde.solve_graph(i64(0, 0), i64(), frozen, i64(0), i64(0))
    with pytest.raises(ValueError, match="dtype mismatch"):
        retrograde.solve_graph(i64(0, 0), i64(), np.zeros(1, np.int64), i64(0), i64(0))
