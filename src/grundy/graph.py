"""Game graphs: building and validating CSR graphs, and their solutions.

A position is a vertex 0..n-1; a move is a directed edge.  Cycles,
self-loops and repeated edges are all allowed.
"""
from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Set as AbstractSet
from typing import Any

import numpy as np

from grundy._common import (DRAW, INT64_MAX, LOSS, NO_MOVE, WIN, CycleError, Outcome,
                            as_int64_array, check_bool, check_count, check_memory,
                            is_integer, queue_limit_error, readonly, shorten)
from grundy._core import csr as _csr
from grundy._core import grundy as _grundy
from grundy._core import loopy as _loopy
from grundy.loopy import LoopyGrundy
from grundy._core import retrograde as _retro
from grundy._core import textio as _textio

__all__ = ["GameGraph", "Solution"]


class GameGraph:
    """A directed graph of game positions, stored as CSR (int64, read-only).

    Build one with a ``from_*`` constructor::

        >>> import grundy
        >>> g = grundy.GameGraph.from_edges([(0, 1), (1, 2), (2, 0), (2, 3)])
        >>> g
        GameGraph(n_nodes=4, n_edges=4)
        >>> sol = g.solve()
        >>> [grundy.Outcome(o).name for o in sol.outcome]
        ['WIN', 'LOSS', 'WIN', 'LOSS']
        >>> sol.line(0)
        [0, 1, 2, 3]
    """

    __slots__ = ("_indptr", "_indices", "_nodes", "_index", "__weakref__")

    def __init__(self, indptr, indices, nodes=None):
        # The graph keeps copies: a caller changing its own arrays later (or
        # from another thread while a kernel runs) cannot touch them.
        self._setup(as_int64_array(indptr, "indptr", ndim=1),
                    as_int64_array(indices, "indices", ndim=1), nodes)

    @classmethod
    def _owned(cls, indptr, indices, nodes=None):
        """A graph on int64 arrays made by the library itself (not copied)."""
        self = cls.__new__(cls)
        self._setup(indptr, indices, nodes)
        return self

    def _setup(self, indptr, indices, nodes):
        _csr.check_csr(indptr, indices)
        self._indptr = readonly(indptr)
        self._indices = readonly(indices)
        n = len(indptr) - 1
        if nodes is None:
            self._nodes = range(n)
            self._index = None
        else:
            if isinstance(nodes, (str, bytes)) or not hasattr(nodes, "__iter__"):
                raise TypeError(f"nodes must be a sequence of names, got {shorten(nodes)}")
            self._nodes = tuple(nodes)
            if len(self._nodes) != n:
                raise ValueError(f"{len(self._nodes)} node names for {n} vertices")
            try:
                self._index = {name: i for i, name in enumerate(self._nodes)}
            except TypeError:
                bad = next(x for x in self._nodes if not _hashable(x))
                raise TypeError(f"node names must be hashable, got {shorten(bad)}") from None
            if len(self._index) != n:
                seen = set()
                dup = next(x for x in self._nodes if x in seen or seen.add(x))
                raise ValueError(f"node names must be distinct: {shorten(dup)} appears twice")

    def __reduce__(self):
        # Rebuilt through _owned, so the arrays are read-only again.
        nodes = None if self._index is None else self._nodes
        return (_restore_graph, (type(self), self._indptr, self._indices, nodes))

    # -- constructors -----------------------------------------------------

    @classmethod
    def from_csr(cls, indptr, indices):
        """Graph whose vertex v has the successors ``indices[indptr[v]:indptr[v+1]]``.

        >>> GameGraph.from_csr([0, 2, 2], [1, 1]).n_edges
        2
        """
        return cls(indptr, indices)

    @classmethod
    def from_edges(cls, edges: Iterable[Any] | np.ndarray, n: int | None = None, *,
                   names: bool = False, max_memory: int | None = None) -> GameGraph:
        """Graph from an (m, 2) array-like or an iterable of (u, v) moves.

        ``n`` is the number of vertices (default: largest vertex id + 1).
        Successors keep the order in which their edges are given.

        With ``names=True`` the ends of the edges are vertex *names* (any
        hashable values: strings, integers, tuples...), numbered in the order
        in which they first appear; ``g.nodes`` lists them, and labels,
        ``line()`` and ``sol[...]`` then take and give names.

        ``max_memory`` (bytes; default: the memory available) bounds what
        the graph may take: a larger one is refused before it is allocated,
        with :class:`grundy.MemoryLimitError`.

        >>> GameGraph.from_edges([(0, 1)], n=3)
        GameGraph(n_nodes=3, n_edges=1)
        >>> g = GameGraph.from_edges([("start", "mid"), ("mid", "end")], names=True)
        >>> g.nodes, g.solve().line("start")
        (('start', 'mid', 'end'), ['start', 'mid', 'end'])
        """
        names = check_bool(names, "names")
        if names:
            if n is not None:
                raise ValueError(f"n = {shorten(n)} cannot be given with names=True: the "
                                 "vertices are the names found in the edges")
            return cls._from_named_edges(edges, max_memory)
        if n is not None:
            n = check_count(n, "n")
        sized = isinstance(edges, np.ndarray) and edges.dtype.kind in "iu" and edges.ndim == 2
        if sized:                    # size the graph before copying the caller's array
            n = _size_graph(edges, n, max_memory)
        if not isinstance(edges, np.ndarray):
            if isinstance(edges, (str, bytes)) or not hasattr(edges, "__iter__"):
                raise TypeError(f"edges must be an (m, 2) array or an iterable of (u, v) "
                                f"pairs, got {shorten(edges)}")
            edges = list(edges)
            for k, edge in enumerate(edges):
                if isinstance(edge, (str, bytes)) or not hasattr(edge, "__len__") or \
                        len(edge) != 2:
                    raise ValueError(f"edge {k} is {shorten(edge)}: an edge is a (u, v) pair")
        arr = as_int64_array(edges, "edges")
        if arr.size == 0 and arr.ndim <= 2 and (arr.ndim < 2 or arr.shape[1] in (0, 2)):
            arr = arr.reshape(0, 2)
        if arr.ndim != 2 or arr.shape[1] != 2:
            raise ValueError(f"edges must have shape (m, 2), got {arr.shape}")
        if not sized:
            n = _size_graph(arr, n, max_memory)
        return cls._owned(*_csr_of_edges(arr, n))

    @classmethod
    def _from_named_edges(cls, edges, max_memory):
        if isinstance(edges, (str, bytes)) or not hasattr(edges, "__iter__"):
            raise TypeError(f"edges must be an iterable of (u, v) pairs, got {shorten(edges)}")
        flat = []
        for k, edge in enumerate(edges):
            if isinstance(edge, (str, bytes)) or not hasattr(edge, "__iter__"):
                raise TypeError(f"edge {k} is {shorten(edge)}: an edge is a (u, v) pair")
            if isinstance(edge, (AbstractSet, Mapping)):
                raise TypeError(f"edge {k} is {shorten(edge)}: an edge is an ordered (u, v) "
                                f"pair, not a {type(edge).__name__}")
            pair = tuple(edge)
            if len(pair) != 2:
                raise ValueError(f"edge {k} is {shorten(edge)}: an edge is a (u, v) pair")
            flat.extend(pair)
        try:
            nodes = tuple(dict.fromkeys(flat))
        except TypeError:
            bad = next(x for x in flat if not _hashable(x))
            raise TypeError(f"vertex names must be hashable, got {shorten(bad)}") from None
        _check_graph_memory(len(nodes), len(flat) // 2, max_memory)
        index = {name: i for i, name in enumerate(nodes)}
        ids = np.fromiter((index[x] for x in flat), dtype=np.int64, count=len(flat))
        return cls._owned(*_csr_of_edges(ids.reshape(-1, 2), len(nodes)), nodes)

    @classmethod
    def parse_edges(cls, text: str | bytes | bytearray | memoryview, *,
                    max_memory: int | None = None) -> GameGraph:
        """Graph from an edge list as text: one move ``u v`` or ``u,v`` per line.

        Vertices are names (any text without spaces or commas; numbers are
        names too), numbered in order of first appearance.  Blank lines and
        lines starting with ``#`` are skipped.  Raises ValueError quoting
        the first malformed line, with its number; ``max_memory`` as in
        :meth:`from_edges`.

        >>> g = GameGraph.parse_edges("a,b\\nb c\\n# a comment\\nc,a\\n")
        >>> g.nodes, g.n_edges
        (('a', 'b', 'c'), 3)
        """
        if isinstance(text, str):
            text = text.encode("utf-8")
        if not isinstance(text, (bytes, bytearray, memoryview)):
            raise TypeError(f"expected the edge list as text, got {type(text).__name__}")
        text = bytes(text)
        # At most one edge a line: 16 bytes each while parsing, then the graph.
        lines = text.count(b"\n") + 1
        check_memory(16 * lines + build_bytes(0, lines), max_memory,
                     f"reading an edge list of {lines:,} lines")
        ids, spans = _textio.parse_named_edges(text)
        # The names as Python strings: about 60 bytes each besides their text.
        check_memory(build_bytes(len(spans), len(ids)) + 60 * len(spans) + len(text),
                     max_memory, f"an edge list of {len(ids):,} edges and "
                                 f"{len(spans):,} vertex names")
        nodes = []
        for start, end in spans.tolist():
            try:
                nodes.append(text[start:end].decode("utf-8"))
            except UnicodeDecodeError as exc:
                line = text.count(b"\n", 0, start + exc.start) + 1
                raise ValueError(f"line {line}: the name {shorten(text[start:end])} is not "
                                 f"UTF-8 text") from None
        return cls._owned(*_csr_of_edges(ids, len(nodes)), tuple(nodes))

    @classmethod
    def read_edges(cls, path: str | os.PathLike[str] | int, *,
                   max_memory: int | None = None) -> GameGraph:
        """Graph from an edge-list file (see :meth:`parse_edges`).

        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "moves.csv")
        >>> _ = open(path, "w").write("x,y\\ny,z\\n")
        >>> GameGraph.read_edges(path).solve()["x"]
        (<Outcome.LOSS: -1>, 2, 'y')
        """
        # A file descriptor stays open: it is the caller's.
        with open(path, "rb", closefd=not isinstance(path, int)) as f:
            return cls.parse_edges(f.read(), max_memory=max_memory)

    @classmethod
    def from_adjacency(cls, adj):
        """Graph from ``adj[v]`` = iterable of the successors of v.

        ``adj`` is a sequence (vertices 0..len(adj)-1) or a mapping whose
        keys are node names and whose values list successor names.

        >>> GameGraph.from_adjacency([[1, 2], [2], []]).n_edges
        3
        >>> g = GameGraph.from_adjacency({"a": ["b"], "b": []})
        >>> g.nodes
        ('a', 'b')
        """
        if isinstance(adj, Mapping):
            nodes = list(adj)
            index = {name: i for i, name in enumerate(nodes)}
            rows = []
            for name in nodes:
                targets = adj[name]
                if isinstance(targets, (str, bytes)) or not hasattr(targets, "__iter__"):
                    raise TypeError(f"adj[{shorten(name)}] must be an iterable of successors, "
                                    f"got {shorten(targets)}")
                succ = []
                for target in targets:
                    try:
                        j = index.get(target)
                    except TypeError:
                        raise TypeError(f"successor {shorten(target)} of {shorten(name)} is not "
                                        f"hashable, so it cannot be a node name") from None
                    if j is None:
                        raise ValueError(f"successor {shorten(target)} of {shorten(name)} is not "
                                         f"a key of the mapping")
                    succ.append(j)
                rows.append(succ)
        else:
            if isinstance(adj, (str, bytes)) or not hasattr(adj, "__iter__"):
                raise TypeError(f"adj must be a sequence or mapping of successor lists, "
                                f"got {shorten(adj)}")
            rows = [list(succ) if hasattr(succ, "__iter__") and not isinstance(succ, (str, bytes))
                    else _not_iterable(v, succ) for v, succ in enumerate(adj)]
            nodes = None
        n = len(rows)
        degrees = np.fromiter((len(r) for r in rows), dtype=np.int64, count=n)
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(degrees, out=indptr[1:])
        flat = [v for r in rows for v in r]
        indices = as_int64_array(flat, "successors", ndim=1) if flat else np.zeros(0, np.int64)
        bad = np.flatnonzero((indices < 0) | (indices >= n))
        if bad.size:
            e = int(bad[0])
            u = int(np.searchsorted(indptr, e, side="right") - 1)
            raise ValueError(f"successor {int(indices[e])} of vertex {u} is not a vertex: "
                             f"valid range is 0..{n - 1}")
        return cls._owned(indptr, indices, nodes)

    @classmethod
    def from_scipy(cls, matrix, *, max_memory=None):
        """Graph from a square scipy.sparse matrix or array: entry (i, j) != 0 is a move i -> j.

        Explicit zeros are not moves; duplicate entries are summed first.
        """
        try:
            import scipy.sparse as sp
        except ImportError:  # pragma: no cover - scipy is an optional extra
            raise ImportError("from_scipy needs scipy: pip install 'grundy[scipy]'") from None
        if not sp.issparse(matrix):
            raise TypeError(f"expected a scipy.sparse matrix or array, got {type(matrix).__name__}")
        if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
            raise ValueError(f"the matrix must be square, got shape {matrix.shape}")
        _check_graph_memory(int(matrix.shape[0]), int(matrix.nnz), max_memory)
        m = sp.csr_matrix(matrix, copy=True)
        m.sum_duplicates()
        m.eliminate_zeros()
        m.sort_indices()
        return cls._owned(m.indptr.astype(np.int64), m.indices.astype(np.int64))

    @classmethod
    def from_networkx(cls, digraph):
        """Graph from a networkx graph, keeping node names: ``g.nodes[i]`` is vertex i.

        Vertices follow ``digraph.nodes`` order.  A multigraph keeps its
        repeated edges; an undirected graph gives a move each way per edge.
        """
        try:
            import networkx as nx
        except ImportError:  # pragma: no cover - networkx is an optional extra
            raise ImportError("from_networkx needs networkx: pip install 'grundy[networkx]'") from None
        if not isinstance(digraph, nx.Graph):
            raise TypeError(f"expected a networkx graph, got {type(digraph).__name__}")
        nodes = list(digraph.nodes)
        index = {name: i for i, name in enumerate(nodes)}
        g = digraph if digraph.is_directed() else digraph.to_directed()
        edges = np.array([(index[u], index[v]) for u, v in g.edges()], dtype=np.int64).reshape(-1, 2)
        return cls._owned(*_csr_of_edges(edges, len(nodes)), nodes)

    # -- properties -------------------------------------------------------

    @property
    def n_nodes(self):
        """Number of vertices."""
        return len(self._indptr) - 1

    @property
    def n_edges(self):
        """Number of moves (edges), repeated edges counted each time."""
        return len(self._indices)

    @property
    def indptr(self):
        """CSR row pointer, int64, read-only, length n_nodes + 1."""
        return self._indptr

    @property
    def indices(self):
        """CSR successor ids, int64, read-only, length n_edges."""
        return self._indices

    @property
    def nodes(self):
        """Vertex names: ``nodes[i]`` names vertex i (``range(n)`` unless named)."""
        return self._nodes

    def successors(self, v):
        """Successors of vertex (or node name) ``v``, as names.

        >>> GameGraph.from_edges([(0, 1), (0, 2)]).successors(0)
        [1, 2]
        """
        i = self.vertex(v)
        succ = self._indices[self._indptr[i]:self._indptr[i + 1]]
        return [self._nodes[int(j)] for j in succ]

    def vertex(self, name):
        """Vertex id of a node name (for unnamed graphs, checks the id's range)."""
        if self._index is not None:
            try:
                return self._index[name]
            except (KeyError, TypeError):
                raise ValueError(f"{shorten(name)} is not a node of this graph") from None
        v = check_count(name, "vertex")
        if v >= self.n_nodes:
            raise ValueError(f"vertex {v} is out of range: valid range is 0..{self.n_nodes - 1}"
                             if self.n_nodes else f"vertex {v} is out of range: the graph has no vertices")
        return v

    def __repr__(self):
        return f"GameGraph(n_nodes={self.n_nodes}, n_edges={self.n_edges})"

    # -- solving ----------------------------------------------------------

    def solve(self, misere=False, labels=None, *, max_memory=None):
        """Win/loss/draw, remoteness and an optimal move for every vertex.

        ``misere``: a vertex with no move is a WIN (normally a LOSS).
        ``labels``: fixed outcomes, ``{vertex: WIN or LOSS}`` (node names
        for named graphs) or an int8 array of length n (0 = not fixed).  A
        labelled vertex is treated as terminal: its own moves are ignored.
        ``max_memory`` (bytes; default: the memory available): a solve that
        would need more is refused with :class:`grundy.MemoryLimitError`.
        Ctrl-C stops a long solve (KeyboardInterrupt); the graph is unchanged.

        >>> g = GameGraph.from_edges([(0, 1), (1, 0), (1, 2)])
        >>> sol = g.solve()
        >>> sol.outcome.tolist(), sol.remoteness.tolist(), sol.move.tolist()
        ([-1, 1, -1], [2, 1, 0], [1, 2, -1])
        >>> g.solve(labels={2: WIN}).outcome.tolist()     # 0 <-> 1 now draw
        [0, 0, 1]
        """
        misere = check_bool(misere, "misere")
        n, m = self.n_nodes, self.n_edges
        fixed = solve_bytes(n, m)             # then the queue
        what = f"solving a graph with {n:,} vertices and {m:,} edges"
        # The queue: an allowance of one entry per 8 vertices (a refusal
        # mid-solve, if it outgrows the limit, keeps peak memory under it).
        limit = check_memory(fixed + _retro.queue_bytes(n // 8), max_memory, what)
        outcome = self._labels_array(labels)
        remoteness = np.empty(n, dtype=np.int64)
        move = np.empty(n, dtype=np.int64)
        status = _retro.solve_graph(self._indptr, self._indices, outcome, remoteness, move,
                                    misere, max_queue_bytes=min(limit - fixed, INT64_MAX))
        if status != "ok":
            raise queue_limit_error(what, fixed + _retro.queue_bytes(n), limit, fixed,
                                    max_memory)
        return Solution(self, outcome, remoteness, move)

    def grundy(self, *, max_memory=None):
        """Grundy value (mex of the successors' values) of every vertex.

        The graph must be acyclic; a cycle raises :class:`grundy.CycleError`
        naming its vertices (use ``loopy_grundy()`` for games with cycles).
        Value 0 exactly at the LOSS positions of ``solve()``.

        >>> GameGraph.from_edges([(0, 1), (0, 2), (1, 2)]).grundy().tolist()
        [2, 1, 0]
        """
        n, m = self.n_nodes, self.n_edges
        check_memory(24 * n + 8 * m + 8, max_memory,
                      f"Grundy values of a graph with {n:,} vertices and {m:,} edges")
        value = np.empty(self.n_nodes, dtype=np.int64)
        cycle = _grundy.dag_grundy(self._indptr, self._indices, value)
        if cycle is not None:
            names = [self._nodes[int(v)] for v in cycle]
            shown = " -> ".join(map(shorten, names[:20])) + (" -> ..." if len(names) > 20 else "")
            raise CycleError(
                f"the graph has a cycle ({shown} -> {shorten(names[0])}): Grundy values need an "
                f"acyclic game; use loopy_grundy() for games with cycles", names)
        return readonly(value)

    def loopy_grundy(self, *, max_memory=None):
        """Generalized Sprague-Grundy values (the graph may have cycles).

        Worked example: a -> b -> c -> a, c -> d -> e.

        >>> g = GameGraph.from_adjacency({"a": ["b"], "b": ["c"], "c": ["a", "d"],
        ...                                "d": ["e"], "e": []})
        >>> lv = g.loopy_grundy()
        >>> lv.value.tolist(), lv.infinite.tolist()
        ([-1, -1, -1, 1, 0], [True, True, True, False, False])
        >>> lv["c"], lv["a"]
        (LoopyValue.inf({1}), LoopyValue.inf({}))
        >>> (lv["c"] + 1).outcome, (lv["c"] + lv["c"]).outcome, (lv["d"] + 1).outcome
        (<Outcome.WIN: 1>, <Outcome.DRAW: 0>, <Outcome.LOSS: -1>)
        """
        n, m = self.n_nodes, self.n_edges
        check_memory(68 * n + 17 * m + 16, max_memory,
                     f"loopy Grundy values of a graph with {n:,} vertices and {m:,} edges")
        value = np.empty(self.n_nodes, dtype=np.int64)
        stages = _loopy.loopy_grundy(self._indptr, self._indices, value)
        return LoopyGrundy(self, value, stages)

    def _labels_array(self, labels):
        n = self.n_nodes
        if labels is None:
            return np.zeros(n, dtype=np.int8)
        if isinstance(labels, Mapping):
            out = np.zeros(n, dtype=np.int8)
            for key, value in labels.items():
                out[self.vertex(key)] = _check_label(value, key)
            return out
        arr = as_int64_array(labels, "labels", ndim=1)
        if len(arr) != n:
            raise ValueError(f"labels has length {len(arr)}, expected n_nodes = {n}")
        bad = np.flatnonzero((arr < -1) | (arr > 1))
        if bad.size:
            v = int(bad[0])
            raise ValueError(f"labels[{v}] = {int(arr[v])}: expected WIN (1), LOSS (-1) or 0 (not fixed)")
        return arr.astype(np.int8)


def _csr_of_edges(edges, n):
    """(indptr, indices) of an (m, 2) int64 edge array on n vertices."""
    return _csr.edges_to_csr(np.ascontiguousarray(edges[:, 0]),
                             np.ascontiguousarray(edges[:, 1]), n)


def _hashable(x):
    try:
        hash(x)
    except TypeError:
        return False
    return True


def _not_iterable(v, succ):
    raise TypeError(f"adj[{v}] must be an iterable of successors, got {shorten(succ)}")


def _check_label(value, key):
    if not is_integer(value):
        raise TypeError(f"label of {shorten(key)} is {shorten(value)}: a label must be "
                        f"WIN (1) or LOSS (-1)")
    if value not in (WIN, LOSS):
        raise ValueError(f"label of {shorten(key)} is {shorten(value)}: a label must be "
                         f"WIN (1) or LOSS (-1)")
    return int(value)


def build_bytes(n, m):
    """Bytes to build a graph of n vertices and m edges from an edge array:
    its int64 copy, its two columns, and the CSR arrays."""
    return 8 * (n + 1) + 40 * m


def solve_bytes(n, m):
    """Bytes :meth:`GameGraph.solve` takes besides its queue: the reverse
    CSR, the state (up to 8 bytes a vertex), outcome, remoteness and move."""
    return 8 * (n + 1) + 8 * m + 33 * n


def _size_graph(edges, n, max_memory):
    """n (given, or the largest vertex id + 1) for an (m, 2) integer edge
    array, after refusing a graph that would not fit in memory."""
    if n is None:
        top = int(edges.max()) if edges.size else -1
        n = max(top + 1, 0)
        if n > 2 ** 40:              # name the vertex id that makes the graph so large
            check_memory(build_bytes(n, len(edges)), max_memory,
                         f"the vertex id {top} makes a graph of n = {n:,} vertices, which")
    _check_graph_memory(n, len(edges), max_memory)
    return n


def _check_graph_memory(n, m, max_memory):
    """Refuse a graph whose CSR (and its building) would not fit."""
    check_memory(build_bytes(n, m), max_memory,
                 f"a graph with n = {n:,} vertices and {m:,} edges")


def _restore_graph(cls, indptr, indices, nodes):
    return cls._owned(np.array(indptr, dtype=np.int64), np.array(indices, dtype=np.int64),
                      nodes)


class Solution:
    """The solved game: arrays indexed by vertex, read-only.

    ``outcome`` (int8: WIN 1, LOSS -1, DRAW 0), ``remoteness`` (int64, -1 for
    draws), ``move`` (int64: an optimal successor, -1 at known vertices).
    """

    __slots__ = ("graph", "outcome", "remoteness", "move")

    def __init__(self, graph, outcome, remoteness, move):
        self.graph = graph
        self.outcome = readonly(outcome)
        self.remoteness = readonly(remoteness)
        self.move = readonly(move)

    def __reduce__(self):
        # Through __init__, so the arrays are read-only after pickle or deepcopy.
        return (type(self), (self.graph, self.outcome, self.remoteness, self.move))

    def __len__(self):
        return len(self.outcome)

    def __getitem__(self, v):
        """``(Outcome, remoteness, move)`` of vertex (or node name) ``v``."""
        i = self.graph.vertex(v)
        m = int(self.move[i])
        return (Outcome(int(self.outcome[i])), int(self.remoteness[i]),
                NO_MOVE if m < 0 else self.graph.nodes[m])

    def counts(self):
        """``{WIN: a, LOSS: b, DRAW: c}``: how many vertices have each outcome."""
        values = np.bincount(self.outcome.astype(np.int64) + 1, minlength=3)
        return {WIN: int(values[2]), LOSS: int(values[0]), DRAW: int(values[1])}

    def line(self, v):
        """Optimal play from ``v``: the vertices visited, ``v`` first.

        A WIN or LOSS line ends at a known (terminal or labelled) vertex and
        has ``remoteness[v] + 1`` entries.  A DRAW line ends at the first
        repeated vertex (which appears twice: where the cycle closes).
        """
        i = self.graph.vertex(v)
        move = self.move
        path = [i]
        if self.outcome[i] == DRAW:
            seen = {i}
            while True:
                i = int(move[i])
                path.append(i)
                if i in seen:
                    break
                seen.add(i)
        else:
            while move[i] != NO_MOVE:
                i = int(move[i])
                path.append(i)
        nodes = self.graph.nodes
        return path if isinstance(nodes, range) else [nodes[j] for j in path]

    def __repr__(self):
        c = self.counts()
        return f"Solution(n={len(self)}, WIN={c[WIN]}, LOSS={c[LOSS]}, DRAW={c[DRAW]})"
