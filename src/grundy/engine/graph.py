"""Game graphs: building and validating CSR graphs, and their solutions.

A position is a vertex 0..n-1 (or a name given to it); a move is a directed
edge.  Cycles, self-loops and repeated edges are all allowed.  A solved
graph is a :class:`GraphSolution`, which speaks the protocol of every solved
game (:mod:`grundy.engine.solution`).

Examples
--------
>>> import grundy
>>> g = grundy.GameGraph.from_edges([(0, 1), (1, 2), (2, 0), (2, 3)])
>>> sol = g.solve()
>>> sol[0], sol.line(0)
(Evaluation(WIN, remoteness=3, move=1), [0, 1, 2, 3])
"""
from __future__ import annotations

import os
from collections.abc import Hashable, Iterable, Mapping, Sequence, Set as AbstractSet
from typing import Any, NoReturn

import numpy as np
import numpy.typing as npt

from grundy._common import (DRAW, INT64_MAX, LOSS, TIE, WIN, CycleError, Int64Array,
                            as_int64_array, check_bool, check_count, check_memory, check_number,
                            check_threads, is_hashable, is_integer, readonly, shorten)
from grundy._core import csr as _csr
from grundy._core import grundy as _grundy
from grundy._core import loopy as _loopy
from grundy._core.csr import CSRSource
from grundy._core import textio as _textio
from grundy._progress import Progress, check_progress
from grundy.engine.driver import answers, solve_bytes, solve_states
from grundy.engine.loopy import LoopyValue
from grundy.engine.positions import decode_positions, encode_positions
from grundy.engine.store import need, positions_data, positions_of, save, saved_solution
from grundy.engine.solution import Solution, checked_array

__all__ = ["GameGraph", "GraphSolution"]


class GameGraph:
    """A directed graph of game positions, stored as CSR (int64, read-only).

    Position ``v`` (a vertex 0..n-1) has the moves to
    ``indices[indptr[v]:indptr[v + 1]]``.  Vertices may carry names (any
    distinct hashable values): ``positions[v]`` names vertex v, and every
    method then takes and gives names.  Build a graph with a ``from_*``
    constructor, :meth:`parse_edges` or :meth:`read_edges`.

    Parameters
    ----------
    indptr, indices : array_like of int
        The CSR arrays (copied).
    positions : sequence of hashable, optional
        Names of the vertices, in vertex order (default: 0..n-1).

    Raises
    ------
    TypeError
        If the arrays do not hold integers or a name is not hashable.
    ValueError
        If the arrays are not a CSR graph, or the names are not distinct.

    Examples
    --------
    >>> import grundy
    >>> g = grundy.GameGraph.from_edges([(0, 1), (1, 2), (2, 0), (2, 3)])
    >>> g
    GameGraph(n_positions=4, n_moves=4)
    >>> g.solve().line(0)
    [0, 1, 2, 3]
    >>> grundy.GameGraph([0, 1, 1], [1], positions=["in", "out"]).moves("in")
    ['out']
    """

    __slots__ = ("_indptr", "_indices", "_positions", "_index", "__weakref__")

    def __init__(self, indptr: npt.ArrayLike, indices: npt.ArrayLike, *,
                 positions: Iterable[Hashable] | None = None) -> None:
        # The graph keeps copies: a caller changing its own arrays later (or
        # from another thread while a kernel runs) cannot touch them.
        self._setup(as_int64_array(indptr, "indptr", ndim=1),
                    as_int64_array(indices, "indices", ndim=1), positions)

    @classmethod
    def _owned(cls, indptr: Int64Array, indices: Int64Array,
               positions: Iterable[Hashable] | None = None, *,
               explored: bool = False) -> GameGraph:
        """A graph on int64 arrays the library holds (not copied): checked,
        unless ``explored`` (made by an explorer, valid by construction)."""
        self = cls.__new__(cls)
        self._setup(indptr, indices, positions, check=not explored)
        return self

    def _setup(self, indptr: Int64Array, indices: Int64Array,
               positions: Iterable[Hashable] | None, check: bool = True) -> None:
        if check:
            _csr.check_csr(indptr, indices)
        self._indptr = readonly(indptr)
        self._indices = readonly(indices)
        n = len(indptr) - 1
        self._index: dict[Hashable, int] | None
        self._positions: Sequence[Hashable]
        if positions is None:
            self._positions = range(n)
            self._index = None
            return
        if isinstance(positions, (str, bytes)) or not hasattr(positions, "__iter__"):
            raise TypeError(f"positions must be a sequence of names, got {shorten(positions)}")
        names = tuple(positions)
        if len(names) != n:
            raise ValueError(f"{len(names)} position names for {n} positions")
        try:
            index = {name: i for i, name in enumerate(names)}
        except TypeError:
            bad = next(x for x in names if not is_hashable(x))
            raise TypeError(f"position names must be hashable, got {shorten(bad)}") from None
        if len(index) != n:
            seen: set[Hashable] = set()
            dup = next(x for x in names if x in seen or seen.add(x))  # type: ignore[func-returns-value]
            raise ValueError(f"position names must be distinct: {shorten(dup)} appears twice")
        self._positions, self._index = names, index

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt through _owned, so the arrays are read-only again.
        names = None if self._index is None else self._positions
        return (_restore_graph, (type(self), self._indptr, self._indices, names))

    # -- constructors -----------------------------------------------------

    @classmethod
    def from_csr(cls, indptr: npt.ArrayLike, indices: npt.ArrayLike, *,
                 positions: Iterable[Hashable] | None = None,
                 max_memory: int | None = None) -> GameGraph:
        """Graph whose vertex v has the moves to ``indices[indptr[v]:indptr[v+1]]``.

        Parameters
        ----------
        indptr, indices : array_like of int
            The CSR arrays (copied).
        positions : sequence of hashable, optional
            Names of the vertices (default: 0..n-1).
        max_memory : int, optional
            Bytes the graph may take (default: the memory available).

        Returns
        -------
        GameGraph

        Raises
        ------
        TypeError, ValueError
            As for :class:`GameGraph`.
        MemoryLimitError
            If the graph would need more than ``max_memory``.

        Examples
        --------
        >>> GameGraph.from_csr([0, 2, 2], [1, 1]).n_moves
        2
        """
        _check_graph_memory(max(_length(indptr) - 1, 0), _length(indices), max_memory)
        return cls(indptr, indices, positions=positions)

    @classmethod
    def from_edges(cls, edges: Iterable[Any] | npt.NDArray[Any], *, n: int | None = None,
                   names: bool = False, positions: Iterable[Hashable] | None = None,
                   max_memory: int | None = None) -> GameGraph:
        """Graph from an (m, 2) array-like or an iterable of (u, v) moves.

        Successors keep the order in which their edges are given.

        Parameters
        ----------
        edges : array_like or iterable of pairs
            The moves ``(u, v)``.
        n : int, optional
            Number of vertices (default: the largest vertex id + 1).
        names : bool, default False
            The ends of the edges are position *names* (any hashable values:
            strings, integers, tuples...), numbered in the order in which they
            first appear; ``g.positions`` lists them, and labels, ``line()``
            and ``sol[...]`` then take and give names.
        positions : sequence of hashable, optional
            Names for the numbered vertices 0..n-1 (not with ``names=True``).
        max_memory : int, optional
            Bytes the graph may take (default: the memory available).

        Returns
        -------
        GameGraph

        Raises
        ------
        TypeError
            If an edge is not a pair, or a vertex number not an integer.
        ValueError
            If a vertex number is negative or not below ``n``, or the
            names do not fit.
        MemoryLimitError
            If the graph would need more than ``max_memory``: refused
            before it is allocated.

        Examples
        --------
        >>> GameGraph.from_edges([(0, 1)], n=3)
        GameGraph(n_positions=3, n_moves=1)
        >>> g = GameGraph.from_edges([("start", "mid"), ("mid", "end")], names=True)
        >>> g.positions, g.solve().line("start")
        (('start', 'mid', 'end'), ['start', 'mid', 'end'])
        >>> GameGraph.from_edges([(0, 1)], positions=["up", "down"]).moves("up")
        ['down']
        """
        names = check_bool(names, "names")
        if names:
            for option, value in (("n", n), ("positions", positions)):
                if value is not None:
                    raise ValueError(f"{option} = {shorten(value)} cannot be given with "
                                     f"names=True: the positions are the names found in "
                                     f"the edges")
            return cls._from_named_edges(edges, max_memory)
        if n is not None:
            n = check_count(n, "n")
        sized = isinstance(edges, np.ndarray) and edges.dtype.kind in "iu" and edges.ndim == 2
        if sized:                    # size the graph before copying the caller's array
            n = _size_graph(edges, n, max_memory)  # type: ignore[arg-type]
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
        assert n is not None
        return cls._owned(*_csr_of_edges(arr, n), positions)

    @classmethod
    def _from_named_edges(cls, edges: Iterable[Any], max_memory: int | None) -> GameGraph:
        if isinstance(edges, (str, bytes)) or not hasattr(edges, "__iter__"):
            raise TypeError(f"edges must be an iterable of (u, v) pairs, got {shorten(edges)}")
        flat: list[Any] = []
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
            bad = next(x for x in flat if not is_hashable(x))
            raise TypeError(f"position names must be hashable, got {shorten(bad)}") from None
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
        lines starting with ``#`` are skipped.

        Parameters
        ----------
        text : str or bytes
            The edge list (bytes are read as UTF-8).
        max_memory : int, optional
            Bytes the graph may take (default: the memory available).

        Returns
        -------
        GameGraph
            Named by the text of the names.

        Raises
        ------
        TypeError
            If ``text`` is not text.
        ValueError
            Quoting the first malformed line, with its number.
        MemoryLimitError
            If the graph would need more than ``max_memory``.

        Examples
        --------
        >>> g = GameGraph.parse_edges("a,b\\nb c\\n# a comment\\nc,a\\n")
        >>> g.positions, g.n_moves
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
                                 f"{len(spans):,} position names")
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

        Parameters
        ----------
        path : str, path-like or int
            The file (an open file descriptor stays open).
        max_memory : int, optional
            Bytes the graph may take (default: the memory available).

        Returns
        -------
        GameGraph

        Raises
        ------
        OSError
            If the file cannot be read.
        ValueError, MemoryLimitError
            As for :meth:`parse_edges`.

        Examples
        --------
        >>> import os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "moves.csv")
        >>> _ = open(path, "w").write("x,y\\ny,z\\n")
        >>> GameGraph.read_edges(path).solve()["x"]
        Evaluation(LOSS, remoteness=2, move='y')
        """
        # A file descriptor stays open: it is the caller's.
        with open(path, "rb", closefd=not isinstance(path, int)) as f:
            return cls.parse_edges(f.read(), max_memory=max_memory)

    @classmethod
    def from_adjacency(cls, adj: Sequence[Iterable[int]] | Mapping[Any, Iterable[Any]], *,
                       positions: Iterable[Hashable] | None = None,
                       max_memory: int | None = None) -> GameGraph:
        """Graph from ``adj[v]``, an iterable of the positions v moves to.

        Parameters
        ----------
        adj : sequence or mapping
            A sequence of successor lists (vertices 0..len(adj)-1), or a
            mapping whose keys are position names and whose values list the
            names of their successors.
        positions : sequence of hashable, optional
            Names for the vertices of a sequence ``adj`` (a mapping names
            them by its keys).
        max_memory : int, optional
            Bytes the graph may take (default: the memory available).

        Returns
        -------
        GameGraph
            Named by the keys when ``adj`` is a mapping.

        Raises
        ------
        TypeError
            If a successor list is not iterable or a name not hashable.
        ValueError
            If a successor is not a vertex (or not a key of the mapping).
        MemoryLimitError
            If the graph would need more than ``max_memory``.

        Examples
        --------
        >>> GameGraph.from_adjacency([[1, 2], [2], []]).n_moves
        3
        >>> GameGraph.from_adjacency({"a": ["b"], "b": []}).positions
        ('a', 'b')
        """
        names: Iterable[Hashable] | None
        rows: list[list[Any]]
        if isinstance(adj, Mapping):
            if positions is not None:
                raise ValueError("positions cannot be given with a mapping: its keys name "
                                 "the positions")
            names = list(adj)
            index = {name: i for i, name in enumerate(names)}
            rows = []
            for name in names:
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
                                        f"hashable, so it cannot be a position name") from None
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
            names = positions
        n = len(rows)
        degrees = np.fromiter((len(r) for r in rows), dtype=np.int64, count=n)
        _check_graph_memory(n, int(degrees.sum()), max_memory)
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(degrees, out=indptr[1:])
        flat = [v for r in rows for v in r]
        indices = as_int64_array(flat, "successors", ndim=1) if flat else np.zeros(0, np.int64)
        bad = np.flatnonzero((indices < 0) | (indices >= n))
        if bad.size:
            e = int(bad[0])
            u = int(np.searchsorted(indptr, e, side="right") - 1)
            raise ValueError(f"successor {int(indices[e])} of position {u} is not a position: "
                             f"valid range is 0..{n - 1}")
        return cls._owned(indptr, indices, names)

    @classmethod
    def from_scipy(cls, matrix: Any, *, positions: Iterable[Hashable] | None = None,
                   max_memory: int | None = None) -> GameGraph:
        """Graph from a square scipy.sparse matrix or array: entry (i, j) != 0 is a move i -> j.

        Explicit zeros are not moves; duplicate entries are summed first.
        Needs the optional extra ``grundy[scipy]``.

        Parameters
        ----------
        matrix : scipy.sparse matrix or array
            Square.
        positions : sequence of hashable, optional
            Names for the rows (vertices), in order.
        max_memory : int, optional
            Bytes the graph may take (default: the memory available).

        Returns
        -------
        GameGraph

        Raises
        ------
        ImportError
            If scipy is not installed.
        TypeError
            If ``matrix`` is not a scipy.sparse matrix or array.
        ValueError
            If it is not square.
        MemoryLimitError
            If the graph would need more than ``max_memory``.

        Examples
        --------
        >>> import scipy.sparse as sp
        >>> GameGraph.from_scipy(sp.csr_matrix([[0, 1], [0, 0]])).solve().outcome
        array([ 1, -1], dtype=int8)
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
        return cls._owned(m.indptr.astype(np.int64), m.indices.astype(np.int64), positions)

    @classmethod
    def from_networkx(cls, digraph: Any, *, max_memory: int | None = None) -> GameGraph:
        """Graph from a networkx graph, keeping its node names as position names.

        Vertices follow ``digraph.nodes`` order.  A multigraph keeps its
        repeated edges; an undirected graph gives a move each way per edge.
        Needs the optional extra ``grundy[networkx]``.

        Parameters
        ----------
        digraph : networkx.Graph
            Any networkx graph.
        max_memory : int, optional
            Bytes the graph may take (default: the memory available).

        Returns
        -------
        GameGraph

        Raises
        ------
        ImportError
            If networkx is not installed.
        TypeError
            If ``digraph`` is not a networkx graph.
        MemoryLimitError
            If the graph would need more than ``max_memory``.

        Examples
        --------
        >>> import networkx as nx
        >>> g = GameGraph.from_networkx(nx.DiGraph([("a", "b")]))
        >>> g.positions, g.solve()["a"].outcome
        (('a', 'b'), WIN)
        """
        try:
            import networkx as nx
        except ImportError:  # pragma: no cover - networkx is an optional extra
            raise ImportError("from_networkx needs networkx: pip install 'grundy[networkx]'") from None
        if not isinstance(digraph, nx.Graph):
            raise TypeError(f"expected a networkx graph, got {type(digraph).__name__}")
        names = list(digraph.nodes)
        g = digraph if digraph.is_directed() else digraph.to_directed()
        _check_graph_memory(len(names), g.number_of_edges(), max_memory)
        index = {name: i for i, name in enumerate(names)}
        edges = np.array([(index[u], index[v]) for u, v in g.edges()],
                         dtype=np.int64).reshape(-1, 2)
        return cls._owned(*_csr_of_edges(edges, len(names)), names)

    # -- properties -------------------------------------------------------

    @property
    def n_positions(self) -> int:
        """Number of positions (vertices).

        Examples
        --------
        >>> GameGraph.from_edges([(0, 1)]).n_positions
        2
        """
        return len(self._indptr) - 1

    @property
    def n_moves(self) -> int:
        """Number of moves (edges), repeated edges counted each time.

        Examples
        --------
        >>> GameGraph.from_edges([(0, 1), (0, 1)]).n_moves
        2
        """
        return len(self._indices)

    @property
    def indptr(self) -> Int64Array:
        """CSR row pointer, int64, read-only, length n_positions + 1.

        Examples
        --------
        >>> GameGraph.from_edges([(0, 1)]).indptr
        array([0, 1, 1])
        """
        return self._indptr

    @property
    def indices(self) -> Int64Array:
        """CSR successor numbers, int64, read-only, length n_moves.

        Examples
        --------
        >>> GameGraph.from_edges([(0, 1)]).indices
        array([1])
        """
        return self._indices

    @property
    def positions(self) -> Sequence[Hashable]:
        """Position names: ``positions[i]`` names vertex i (``range(n)`` unless named).

        Examples
        --------
        >>> GameGraph.from_edges([(0, 1)]).positions
        range(0, 2)
        """
        return self._positions

    def moves(self, position: Hashable) -> list[Hashable]:
        """The positions ``position`` can move to, in edge order.

        Parameters
        ----------
        position
            A vertex number, or a name for a named graph.

        Returns
        -------
        list

        Raises
        ------
        ValueError
            If ``position`` is not a position of the graph.

        Examples
        --------
        >>> GameGraph.from_edges([(0, 1), (0, 2)]).moves(0)
        [1, 2]
        """
        i = self.index(position)
        succ = self._indices[self._indptr[i]:self._indptr[i + 1]]
        return [self._positions[int(j)] for j in succ]

    def index(self, position: Hashable) -> int:
        """Vertex number of a position (a name, or for an unnamed graph a number).

        Parameters
        ----------
        position
            A name of a named graph, or a vertex number 0..n-1.

        Returns
        -------
        int

        Raises
        ------
        TypeError
            If an unnamed graph is given something other than an integer.
        ValueError
            If ``position`` is not a position of the graph.

        Examples
        --------
        >>> GameGraph.from_edges([("a", "b")], names=True).index("b")
        1
        """
        if self._index is not None:
            try:
                return self._index[position]
            except (KeyError, TypeError):
                raise ValueError(f"{shorten(position)} is not a position of this graph") from None
        return check_number(position, self.n_positions, "position")

    def position(self, i: int) -> Hashable:
        """The position (name) of vertex number ``i``.

        Parameters
        ----------
        i : int
            A vertex number 0..n-1.

        Returns
        -------
        position

        Raises
        ------
        ValueError
            If ``i`` is out of range.

        Examples
        --------
        >>> GameGraph.from_edges([("a", "b")], names=True).position(1)
        'b'
        """
        return self._positions[check_number(i, self.n_positions)]

    def __repr__(self) -> str:
        return f"GameGraph(n_positions={self.n_positions}, n_moves={self.n_moves})"

    # -- solving ----------------------------------------------------------

    def solve(self, *, misere: bool = False,
              labels: Mapping[Any, int] | npt.ArrayLike | None = None,
              max_memory: int | None = None, progress: Progress = None,
              threads: int | None = None) -> GraphSolution:
        """Win/loss/draw, remoteness and an optimal move for every position.

        A position's move is its first move (in the graph's order) that
        keeps its value: to a LOSS at one less remoteness from a WIN, to the
        farthest WIN from a LOSS, to the nearest tie from a TIE, to a DRAW
        from a DRAW.

        Ctrl-C stops a long solve (KeyboardInterrupt); the graph is unchanged.

        Parameters
        ----------
        misere : bool, default False
            A position with no move is a WIN (normally a LOSS).
        labels : mapping or array_like, optional
            Fixed outcomes: ``{position: WIN, LOSS or TIE}`` (names for
            named graphs), or an int8 array of length n (0 = not fixed).  A
            labelled position is terminal: its own moves are ignored.
        max_memory : int, optional
            Bytes the solve may take (default: the memory available).
        progress : bool or callable, optional
            True draws a progress bar on a terminal (the ``grundy[progress]``
            extra); a callable is called as ``progress(done, total)`` about
            every quarter second (done: the positions decided).
        threads : int, optional
            Threads for the solve (default: the cores other work leaves free;
            1: the serial pass; at most 4 a core are started).  Any number gives
            the same answers.

        Returns
        -------
        GraphSolution

        Raises
        ------
        TypeError, ValueError
            For a bad label.
        MemoryLimitError
            If the solve would need more than ``max_memory``.

        Examples
        --------
        >>> g = GameGraph.from_edges([(0, 1), (1, 0), (1, 2)])
        >>> sol = g.solve()
        >>> sol.outcome.tolist(), sol.remoteness.tolist(), sol.move.tolist()
        ([-1, 1, -1], [2, 1, 0], [1, 2, -1])
        >>> g.solve(labels={2: WIN}).outcome.tolist()     # 0 <-> 1 now draw
        [0, 0, 1]

        Ties: a game that ends without a winner.  After the WIN/LOSS
        analysis, a position that is still undecided and has a move to a TIE
        is a TIE, at one move more than its nearest tie ending (a player
        prefers WIN > TIE > DRAW > LOSS).  Here the game ends in a tie at 3
        and at 2 the player to move has won.  From 1 the mover can move to
        2 (the opponent wins) or to 3: a tie, one move away.  From 0 the
        mover can move to 4 (from which the opponent wins, moving to 5) or
        to 1: a tie again, two moves away:

        >>> g = GameGraph.from_edges([(0, 1), (0, 4), (1, 2), (1, 3), (4, 5)])
        >>> sol = g.solve(labels={3: TIE, 2: WIN})
        >>> [sol[v].outcome for v in range(6)], sol.remoteness.tolist()
        ([TIE, TIE, WIN, TIE, WIN, LOSS], [2, 1, 0, 0, 1, 0])
        >>> sol.line(0)
        [0, 1, 3]
        """
        misere = check_bool(misere, "misere")
        check_progress(progress)
        threads = check_threads(threads)
        n, m = self.n_positions, self.n_moves
        what = f"solving a graph with {n:,} positions and {m:,} moves"
        fixed = _held_bytes(n, m) + (n if labels is not None else 0)     # + the int8 labels
        check_memory(solve_bytes(n, 2, fixed), max_memory, what)   # before the reverse CSR
        source = CSRSource(self._indptr, self._indices, self._labels_array(labels),
                           threads=threads, check=False)    # checked when the graph was made
        outcome, rem = solve_states(source, misere=misere, max_memory=max_memory,
                                    fixed_bytes=fixed, what=what, progress=progress,
                                    threads=threads)
        remoteness, move = answers(source, outcome, rem, threads)
        return GraphSolution._owned(self, outcome, remoteness, move)

    def values(self, *, max_memory: int | None = None) -> Int64Array:
        """Grundy value (mex of the successors' values) of every position.

        Value 0 exactly at the LOSS positions of :meth:`solve`.

        Parameters
        ----------
        max_memory : int, optional
            Bytes the computation may take (default: the memory available).

        Returns
        -------
        numpy.ndarray
            int64, read-only, by position number.

        Raises
        ------
        CycleError
            If the graph has a cycle (naming its positions); use
            :meth:`loopy_values` for games with cycles.
        MemoryLimitError
            If the computation would need more than ``max_memory``.

        Examples
        --------
        >>> GameGraph.from_edges([(0, 1), (0, 2), (1, 2)]).values().tolist()
        [2, 1, 0]
        """
        n, m = self.n_positions, self.n_moves
        # The values, and the search's mark, cursor, stack and order (33 bytes
        # a position), and the mex's scratch (at most one entry a move).
        check_memory(33 * n + 8 * m + 8, max_memory,
                     f"Grundy values of a graph with {n:,} positions and {m:,} moves")
        value = np.empty(n, dtype=np.int64)
        cycle = _grundy.dag_grundy(self._indptr, self._indices, value)
        if cycle is not None:
            names = [self._positions[int(v)] for v in cycle]
            shown = " -> ".join(map(shorten, names[:20])) + (" -> ..." if len(names) > 20 else "")
            raise CycleError(
                f"the graph has a cycle ({shown} -> {shorten(names[0])}): Grundy values need an "
                f"acyclic game; use loopy_values() for games with cycles", names)
        return readonly(value)

    def loopy_values(self, *, max_memory: int | None = None) -> LoopyValues:
        """Generalized Sprague-Grundy values of every position (cycles allowed).

        Parameters
        ----------
        max_memory : int, optional
            Bytes the computation may take (default: the memory available).

        Returns
        -------
        LoopyValues

        Raises
        ------
        MemoryLimitError
            If the computation would need more than ``max_memory``.

        Examples
        --------
        Worked example: a -> b -> c -> a, c -> d -> e.

        >>> g = GameGraph.from_adjacency({"a": ["b"], "b": ["c"], "c": ["a", "d"],
        ...                                "d": ["e"], "e": []})
        >>> lv = g.loopy_values()
        >>> lv.finite.tolist(), lv.infinite.tolist()
        ([-1, -1, -1, 1, 0], [True, True, True, False, False])
        >>> lv["c"], lv["a"]
        (LoopyValue.inf({1}), LoopyValue.inf({}))
        >>> (lv["c"] + 1).outcome, (lv["c"] + lv["c"]).outcome, (lv["d"] + 1).outcome
        (WIN, DRAW, LOSS)
        """
        n, m = self.n_positions, self.n_moves
        check_memory(68 * n + 17 * m + 16, max_memory,
                     f"loopy Grundy values of a graph with {n:,} positions and {m:,} moves")
        value = np.empty(n, dtype=np.int64)
        stages = _loopy.loopy_grundy(self._indptr, self._indices, value)
        return LoopyValues._owned(self, value, stages)

    def _labels_array(self, labels: Mapping[Any, int] | npt.ArrayLike | None
                      ) -> npt.NDArray[np.int8] | None:
        n = self.n_positions
        if labels is None:
            return None
        if isinstance(labels, Mapping):
            out = np.zeros(n, dtype=np.int8)
            for key, value in labels.items():
                out[self.index(key)] = _check_label(value, key)
            return readonly(out)
        if isinstance(labels, np.ndarray) and labels.dtype == np.int8 and labels.ndim == 1:
            arr = labels                # as the explorers give them: checked, not widened
        else:
            arr = as_int64_array(labels, "labels", ndim=1)
        if len(arr) != n:
            raise ValueError(f"labels has length {len(arr)}, expected n_positions = {n}")
        bad = np.flatnonzero((arr < -1) | (arr > 2))
        if bad.size:
            v = int(bad[0])
            raise ValueError(f"labels[{v}] = {int(arr[v])}: expected WIN (1), LOSS (-1), "
                             f"TIE (2) or 0 (not fixed)")
        # Our own read-only copy: CSRSource keeps it as it is, no second copy.
        return readonly(arr.astype(np.int8))


def _length(data: Any) -> int:
    """len(data) for a sized input, else 0 (the arrays' checks come later)."""
    try:
        return len(data)
    except TypeError:
        return 0


def _csr_of_edges(edges: Int64Array, n: int) -> tuple[Int64Array, Int64Array]:
    """(indptr, indices) of an (m, 2) int64 edge array on n vertices."""
    result: tuple[Int64Array, Int64Array] = _csr.edges_to_csr(
        np.ascontiguousarray(edges[:, 0]), np.ascontiguousarray(edges[:, 1]), n)
    return result


def _not_iterable(v: int, succ: object) -> NoReturn:
    raise TypeError(f"adj[{v}] must be an iterable of successors, got {shorten(succ)}")


def _check_label(value: object, key: object) -> int:
    if not is_integer(value):
        raise TypeError(f"label of {shorten(key)} is {shorten(value)}: a label must be "
                        f"WIN (1), LOSS (-1) or TIE (2)")
    if value not in (WIN, LOSS, TIE):
        raise ValueError(f"label of {shorten(key)} is {shorten(value)}: a label must be "
                         f"WIN (1), LOSS (-1) or TIE (2)")
    return int(value)  # type: ignore[call-overload, no-any-return]


def build_bytes(n: int, m: int) -> int:
    """Bytes to build a graph of n vertices and m edges from an edge array:
    its int64 copy, its two columns, and the CSR arrays."""
    return 8 * (n + 1) + 40 * m


def _held_bytes(n: int, m: int) -> int:
    """Bytes :meth:`GameGraph.solve` holds besides the engine's own: the
    reverse CSR, the int64 remoteness and moves of the solution, and the
    keys the moves are found with."""
    return 8 * (n + 1) + 8 * m + 24 * n


def graph_solve_bytes(n: int, m: int) -> int:
    """Bytes :meth:`GameGraph.solve` takes at its peak for a graph of n
    positions and m moves (see :func:`grundy.engine.driver.solve_bytes`).

    >>> graph_solve_bytes(10 ** 6, 10 ** 7) > 8 * 10 ** 7
    True
    """
    return solve_bytes(n, 2, _held_bytes(n, m))


def _size_graph(edges: npt.NDArray[np.integer[Any]], n: int | None,
                max_memory: int | None) -> int:
    """n (given, or the largest vertex id + 1) for an (m, 2) integer edge
    array, after refusing a graph that would not fit in memory."""
    if n is None:
        top = int(edges.max()) if edges.size else -1
        n = max(top + 1, 0)
        if n > 2 ** 40:              # name the vertex id that makes the graph so large
            check_memory(build_bytes(n, len(edges)), max_memory,
                         f"the position number {top} makes a graph of n = {n:,} positions, which")
    _check_graph_memory(n, len(edges), max_memory)
    return n


def _check_graph_memory(n: int, m: int, max_memory: int | None) -> None:
    """Refuse a graph whose CSR (and its building) would not fit."""
    check_memory(build_bytes(n, m), max_memory,
                 f"a graph with n = {n:,} positions and {m:,} moves")


def _restore_solution(cls: type[GraphSolution], graph: GameGraph,
                      outcome: npt.NDArray[np.int8], remoteness: Int64Array, move: Int64Array,
                      start: Hashable) -> GraphSolution:
    return cls._owned(graph, np.array(outcome), np.array(remoteness), np.array(move), start)


def _restore_graph(cls: type[GameGraph], indptr: Int64Array, indices: Int64Array,
                   positions: Sequence[Hashable] | None) -> GameGraph:
    return cls._owned(np.array(indptr, dtype=np.int64), np.array(indices, dtype=np.int64),
                      positions)


class GraphSolution(Solution):
    """A solved :class:`GameGraph`: the protocol of :class:`grundy.Solution`.

    Positions are the graph's (names for a named graph); ``move[v]`` is the
    number of the position an optimal move from v leads to.  Made by
    :meth:`GameGraph.solve` (and :meth:`grundy.ImpartialGame.solve`).

    Parameters
    ----------
    graph : GameGraph
        The graph solved (kept as the attribute ``graph``).
    outcome, remoteness, move : array_like of int
        By position number: outcomes (-1..2), remoteness (-1 or more) and
        move (-1..n-1); copied as int8, int64 and int64.
    start : position, optional
        The position the game starts from, if it has one.

    Raises
    ------
    TypeError
        If ``graph`` is not a GameGraph, or an array does not hold integers.
    ValueError
        If an array has the wrong length or a value out of range, or
        ``start`` is not a position of the graph.

    Examples
    --------
    >>> sol = GameGraph.from_edges([(0, 1), (1, 2), (2, 0), (2, 3)]).solve()
    >>> sol
    GraphSolution(n_positions=4, WIN=2, LOSS=2, DRAW=0)
    >>> sol[2], sol.best_move(0), sol.line(0)
    (Evaluation(WIN, remoteness=1, move=3), 1, [0, 1, 2, 3])
    """

    __slots__ = ("graph", "_outcome", "_remoteness", "_move", "_start")

    def __init__(self, graph: GameGraph, outcome: npt.ArrayLike, remoteness: npt.ArrayLike,
                 move: npt.ArrayLike, *, start: Hashable = None) -> None:
        if not isinstance(graph, GameGraph):
            raise TypeError(f"graph must be a GameGraph, got {shorten(graph)}")
        n = graph.n_positions
        if start is not None:
            graph.index(start)
        self._setup(graph, checked_array(outcome, "outcome", np.int8, n, -1, 2),
                    checked_array(remoteness, "remoteness", np.int64, n, -1, INT64_MAX),
                    checked_array(move, "move", np.int64, n, -1, n - 1), start)

    @classmethod
    def _owned(cls, graph: GameGraph, outcome: npt.NDArray[np.int8], remoteness: Int64Array,
               move: Int64Array, start: Hashable = None) -> GraphSolution:
        """A solution on arrays a solve made (not copied, made read-only)."""
        self = cls.__new__(cls)
        self._setup(graph, readonly(outcome), readonly(remoteness), readonly(move), start)
        return self

    def _setup(self, graph: GameGraph, outcome: npt.NDArray[np.int8], remoteness: Int64Array,
               move: Int64Array, start: Hashable) -> None:
        self.graph = graph
        self._outcome = outcome
        self._remoteness = remoteness
        self._move = move
        self._start = start

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt through _owned: the arrays are read-only again.
        return (_restore_solution, (type(self), self.graph, self._outcome, self._remoteness,
                                    self._move, self._start))

    def _saved(self) -> tuple[str, Any, dict[str, npt.NDArray[Any]]]:
        names, arrays = graph_data(self.graph)
        start = None if self._start is None else encode_positions([self._start])
        arrays.update(outcome=self._outcome, remoteness=self._remoteness, move=self._move)
        return "graph", {"positions": names, "start": start}, arrays

    @classmethod
    def _from_saved(cls, data: Any, arrays: dict[str, npt.NDArray[Any]]) -> GraphSolution:
        graph = saved_graph(data["positions"], arrays)
        start = data["start"]
        if start is not None:
            (start,) = decode_positions(start)
            graph.index(start)
        return cls._owned(graph, *saved_solution(arrays, graph.n_positions), start)

    @property
    def outcome(self) -> npt.NDArray[np.int8]:
        """Outcome of every position, int8 (WIN 1, LOSS -1, DRAW 0), read-only.

        Examples
        --------
        >>> GameGraph.from_edges([(0, 1)]).solve().outcome
        array([ 1, -1], dtype=int8)
        """
        return self._outcome

    @property
    def remoteness(self) -> Int64Array:
        """Remoteness of every position, int64 (-1 for draws), read-only.

        Examples
        --------
        >>> GameGraph.from_edges([(0, 1)]).solve().remoteness
        array([1, 0])
        """
        return self._remoteness

    @property
    def move(self) -> Int64Array:
        """Number of the position an optimal move leads to, int64 (-1: none), read-only.

        Examples
        --------
        >>> GameGraph.from_edges([(0, 1)]).solve().move
        array([ 1, -1])
        """
        return self._move

    @property
    def start(self) -> Hashable:
        """The position the game starts from, or None (a graph has no start
        unless the game it came from had one).

        Examples
        --------
        >>> print(GameGraph.from_edges([(0, 1)]).solve().start)
        None
        """
        return self._start

    def index(self, position: Hashable) -> int:
        """Number of a position (see :meth:`GameGraph.index`).

        Parameters
        ----------
        position
            A position of the graph.

        Returns
        -------
        int

        Raises
        ------
        ValueError
            If it is not a position of the graph.

        Examples
        --------
        >>> GameGraph.from_edges([("a", "b")], names=True).solve().index("b")
        1
        """
        return self.graph.index(position)

    def position(self, i: int) -> Hashable:
        """The position numbered ``i`` (see :meth:`GameGraph.position`).

        Parameters
        ----------
        i : int
            A position number.

        Returns
        -------
        position

        Raises
        ------
        ValueError
            If ``i`` is out of range.

        Examples
        --------
        >>> GameGraph.from_edges([("a", "b")], names=True).solve().position(0)
        'a'
        """
        return self.graph.position(i)

    @property
    def positions(self) -> Sequence[Hashable]:
        """The graph's positions, in number order.

        Examples
        --------
        >>> GameGraph.from_edges([("a", "b")], names=True).solve().positions
        ('a', 'b')
        """
        return self.graph.positions


class LoopyValues:
    """Generalized Sprague-Grundy values of every position of a game graph.

    Returned by :meth:`grundy.GameGraph.loopy_values`.  ``lv[p]`` is the
    :class:`LoopyValue` of position ``p``.

    Parameters
    ----------
    graph : GameGraph
        The graph.
    value : array_like of int
        The finite values, -1 where infinite (copied as int64: ``finite``).
    stages : int
        Stages the algorithm used.

    Raises
    ------
    TypeError
        If ``graph`` is not a GameGraph, or ``value`` does not hold integers.
    ValueError
        If ``value`` has the wrong length or a value below -1.

    Attributes
    ----------
    graph : GameGraph
        The graph.
    finite : numpy.ndarray
        int64: the finite value of each position, -1 where infinite.
    infinite : numpy.ndarray
        bool: where the value is infinite.
    outcome : numpy.ndarray
        int8: WIN 1, LOSS -1, DRAW 0, as in every solution.
    stages : int
        Stages the algorithm used.

    Examples
    --------
    >>> import grundy
    >>> g = grundy.GameGraph.from_edges([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)])
    >>> lv = g.loopy_values()
    >>> lv
    LoopyValues(n_positions=5, infinite=3, stages=2)
    >>> lv[2], lv[3], lv.outcome.tolist()
    (LoopyValue.inf({1}), LoopyValue(1), [0, 0, 0, 1, -1])
    """

    __slots__ = ("graph", "finite", "infinite", "outcome", "stages")

    def __init__(self, graph: GameGraph, value: npt.ArrayLike, stages: int) -> None:
        if not isinstance(graph, GameGraph):
            raise TypeError(f"graph must be a GameGraph, got {shorten(graph)}")
        self._setup(graph, checked_array(value, "value", np.int64, graph.n_positions, -1,
                                         2 ** 63 - 1),
                    check_count(stages, "stages"))

    @classmethod
    def _owned(cls, graph: GameGraph, value: Int64Array, stages: int) -> LoopyValues:
        """Values a kernel computed (not copied, made read-only)."""
        self = cls.__new__(cls)
        self._setup(graph, readonly(value), stages)
        return self

    def _setup(self, graph: GameGraph, value: Int64Array, stages: int) -> None:
        self.graph = graph
        self.finite = value
        self.infinite: npt.NDArray[np.bool_] = readonly(value < 0)
        self.stages = stages
        outcome = np.where(value > 0, WIN, np.where(value == 0, LOSS, DRAW)).astype(np.int8)
        # inf(K) with 0 in K: a WIN (move to the 0).
        indptr, indices = graph.indptr, graph.indices
        zero_succ = value[indices] == 0
        has_zero = np.zeros(len(value), dtype=bool)
        src = np.repeat(np.arange(len(value)), np.diff(indptr))
        has_zero[src[zero_succ]] = True
        outcome[(value < 0) & has_zero] = WIN
        self.outcome: npt.NDArray[np.int8] = readonly(outcome)

    def __reduce__(self) -> tuple[Any, ...]:
        # Through __init__, so the arrays are read-only after pickle or deepcopy.
        return (type(self), (self.graph, np.array(self.finite), self.stages))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the values (and their graph) to a file that :func:`grundy.load` reads back.

        The format is that of :mod:`grundy.engine.store`, written atomically.

        Parameters
        ----------
        path : str or os.PathLike
            The file to write (replaced if it exists; ``.npz`` by custom).

        Raises
        ------
        TypeError
            If a position name is of a type the format cannot hold.
        OSError
            If the file cannot be written.

        Examples
        --------
        >>> import grundy, os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "loopy.npz")
        >>> g = grundy.GameGraph.from_edges([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)])
        >>> g.loopy_values().save(path)
        >>> grundy.load(path)[2]
        LoopyValue.inf({1})
        """
        save(self, path)

    def _saved(self) -> tuple[str, Any, dict[str, npt.NDArray[Any]]]:
        names, arrays = graph_data(self.graph)
        arrays["finite"] = self.finite
        return "loopy", {"positions": names, "stages": self.stages}, arrays

    @classmethod
    def _from_saved(cls, data: Any, arrays: dict[str, npt.NDArray[Any]]) -> LoopyValues:
        graph = saved_graph(data["positions"], arrays)
        finite = need(arrays, "finite", np.int64, graph.n_positions, -1, 2 ** 63 - 1)
        return cls._owned(graph, finite, check_count(data["stages"], "stages"))

    @property
    def n_positions(self) -> int:
        """Number of positions.

        Examples
        --------
        >>> import grundy
        >>> grundy.GameGraph.from_edges([(0, 1)]).loopy_values().n_positions
        2
        """
        return len(self.finite)

    @property
    def positions(self) -> Sequence[Hashable]:
        """The graph's positions, in number order.

        Examples
        --------
        >>> import grundy
        >>> grundy.GameGraph.from_edges([("a", "b")], names=True).loopy_values().positions
        ('a', 'b')
        """
        return self.graph.positions

    def index(self, position: Hashable) -> int:
        """Number of a position (see :meth:`grundy.GameGraph.index`).

        Parameters
        ----------
        position
            A position of the graph.

        Returns
        -------
        int

        Raises
        ------
        ValueError
            If it is not a position of the graph.

        Examples
        --------
        >>> import grundy
        >>> grundy.GameGraph.from_edges([("a", "b")], names=True).loopy_values().index("b")
        1
        """
        return self.graph.index(position)

    def k(self, position: Hashable) -> frozenset[int]:
        """K of a position: its successors' finite values if its value is
        infinite, else the empty set.

        Parameters
        ----------
        position
            A position of the graph.

        Returns
        -------
        frozenset of int

        Raises
        ------
        ValueError
            If it is not a position of the graph.

        Examples
        --------
        >>> import grundy
        >>> g = grundy.GameGraph.from_edges([(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)])
        >>> g.loopy_values().k(2)
        frozenset({1})
        """
        i = self.graph.index(position)
        if self.finite[i] >= 0:
            return frozenset()
        succ = self.graph.indices[self.graph.indptr[i]:self.graph.indptr[i + 1]]
        vals = self.finite[succ]
        return frozenset(int(x) for x in vals[vals >= 0])

    def __getitem__(self, position: Hashable) -> LoopyValue:
        """``lv[p]``: the :class:`LoopyValue` of a position.

        Parameters
        ----------
        position
            A position of the graph.

        Returns
        -------
        LoopyValue

        Raises
        ------
        TypeError, ValueError
            If it is not a position of the graph.

        Examples
        --------
        >>> import grundy
        >>> lv = grundy.GameGraph.from_edges([(0, 1), (1, 0), (1, 2)]).loopy_values()
        >>> lv[0], lv[1]
        (LoopyValue(0), LoopyValue(1))
        """
        i = self.graph.index(position)
        g = int(self.finite[i])
        return LoopyValue(g) if g >= 0 else LoopyValue.inf(self.k(position))

    def __len__(self) -> int:
        return len(self.finite)

    def __repr__(self) -> str:
        return (f"LoopyValues(n_positions={len(self)}, infinite={int(self.infinite.sum())}, "
                f"stages={self.stages})")


# -- saved graphs ---------------------------------------------------------------------

def graph_data(graph: GameGraph) -> tuple[Any, dict[str, npt.NDArray[Any]]]:
    """How a kind saves a GameGraph: ``(names data, arrays)``, the arrays
    ``indptr`` and ``indices`` and, if needed, ``positions``."""
    names, arrays = positions_data(None if graph._index is None else graph._positions,
                                   graph.n_positions)
    arrays.update(indptr=graph.indptr, indices=graph.indices)
    return names, arrays


def saved_graph(names: Any, arrays: Mapping[str, npt.NDArray[Any]]) -> GameGraph:
    """The GameGraph saved by :func:`graph_data` (its CSR checked; not copied)."""
    indptr = need(arrays, "indptr", np.int64)
    n = len(indptr) - 1
    kept = positions_of(names, arrays, n)
    return GameGraph._owned(indptr, need(arrays, "indices", np.int64),
                            kept.tolist() if isinstance(kept, np.ndarray) else kept)
