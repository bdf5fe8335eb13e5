"""Police and thief on a board: parsing, solving every position, rendering.

The board has free cells ``.``, blocked cells ``*``, the police start ``P``,
the thief start ``T`` and exits ``E``.  The police steps to one of the 8
neighbouring free cells, the thief to one of the 4 orthogonal ones; either
may pass instead.  The police moves first.  The police wins by standing on
the thief's cell, the thief by standing on an exit (without the police).
The solution speaks the protocol of every solved game
(:mod:`grundy.engine.solution`); its positions are :class:`PolicePosition` tuples.

Examples
--------
>>> board = PoliceThief.parse('''3 4
... P..E
... .**.
... ...T''')
>>> sol = board.solve()
>>> sol.result
'The thief escapes'
>>> sol[(0, 0), (2, 3), True]
Evaluation(LOSS, remoteness=4, move=PolicePosition(police=(0, 1), thief=(2, 3), police_to_move=False))
>>> sol.best_move(((0, 0), (2, 3), False)).thief     # the thief heads up
(1, 3)
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, Union

import numpy as np
import numpy.typing as npt

from grundy._common import (DRAW, LOSS, WIN, Int64Array, Outcome, check_bool, check_int,
                            check_memory, check_number, check_threads, is_integer, readonly,
                            shorten)
from grundy._core import police as _police
from grundy._progress import Progress, check_progress
from grundy.engine.driver import solve_bytes, solve_states
from grundy.engine.source import SourceSolution
from grundy.engine.store import need

__all__ = ["PoliceThief", "PoliceThiefSolution", "PolicePosition", "BoardError"]

Cell = tuple[int, int]
"""A cell of the board: (row, col), 0-based."""
Steps = tuple[tuple[int, int], ...]
MoveSet = Union[str, Iterable[Sequence[int]]]

KING: Steps = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
ROOK: Steps = ((-1, 0), (0, -1), (0, 1), (1, 0))
MOVE_SETS = {"king": KING, "rook": ROOK}


class PolicePosition(NamedTuple):
    """A position of police and thief: both cells and whose turn it is.

    Attributes
    ----------
    police, thief : tuple of int
        The cells, as (row, col).
    police_to_move : bool
        True when the police moves next.

    Examples
    --------
    >>> PolicePosition((0, 0), (2, 3), True)
    PolicePosition(police=(0, 0), thief=(2, 3), police_to_move=True)
    """

    police: Cell
    thief: Cell
    police_to_move: bool


def _as_cell(cell: Any) -> Cell:
    """``cell`` as a (row, col) tuple of Python ints, or a TypeError."""
    if isinstance(cell, (str, bytes)) or not hasattr(cell, "__len__") or len(cell) != 2:
        raise TypeError(f"a cell is a (row, col) pair of integers, got {shorten(cell)}")
    r, c = cell
    if not (is_integer(r) and is_integer(c)):
        raise TypeError(f"a cell is a (row, col) pair of integers, got {shorten(cell)}")
    return (int(r), int(c))


class BoardError(ValueError):
    """A malformed police-and-thief board, or a cell that is not on it.

    Parameters
    ----------
    message : str
        What is wrong, quoting the input.
    row, col : int, optional
        Where the problem is (0-based), when there is one place; kept as
        the attributes ``row`` and ``col`` (None otherwise).

    Examples
    --------
    >>> try:
    ...     PoliceThief.parse("1 2\\nPX")
    ... except BoardError as exc:
    ...     print(exc, exc.row, exc.col)
    row 0, column 1: unknown cell 'X' (expected one of . * P T E) 0 1
    """

    def __init__(self, message: str, row: int | None = None, col: int | None = None) -> None:
        super().__init__(message)
        self.row = row
        self.col = col


# A step longer than this never stays on a board (and keeps the arithmetic
# of cells far inside int64).
_MAX_STEP = 2 ** 31


def _move_set(moves: MoveSet, who: str) -> Steps:
    if isinstance(moves, str):
        try:
            return MOVE_SETS[moves]
        except KeyError:
            raise ValueError(f"{who}_moves {shorten(moves)} is not a move set: use 'king', "
                             f"'rook' or a list of (dr, dc) offsets") from None
    if isinstance(moves, bytes) or not hasattr(moves, "__iter__"):
        raise TypeError(f"{who}_moves must be 'king', 'rook' or a list of (dr, dc) "
                        f"integer pairs, got {shorten(moves)}")
    offsets = []
    for d in moves:
        if isinstance(d, (str, bytes)) or not hasattr(d, "__len__") or len(d) != 2 or \
                not all(is_integer(x) for x in d):
            raise TypeError(f"{who}_moves: offset {shorten(d)} is not a (dr, dc) pair of "
                            f"integers")
        dr, dc = int(d[0]), int(d[1])
        if max(abs(dr), abs(dc)) > _MAX_STEP:
            raise ValueError(f"{who}_moves: offset {shorten(d)} is too long: |dr|, |dc| "
                             f"must be at most 2^31")
        if (dr, dc) == (0, 0):
            raise ValueError(f"{who}_moves: (0, 0) is not a step; passing is the "
                             f"'passing' option")
        offsets.append((dr, dc))
    if len(set(offsets)) != len(offsets):
        raise ValueError(f"{who}_moves: repeated offsets in {shorten(moves)}")
    if not offsets or len(offsets) > 250:
        raise ValueError(f"{who}_moves must hold 1..250 offsets, got {len(offsets)}")
    return tuple(offsets)


class PoliceThief:
    """A police-and-thief board and its rules.

    Cells are (row, col), 0-based.  A board may have any number of exits,
    none included (then the thief wins only if the police gets stuck: a
    player with no move loses, which can happen with ``passing=False``).

    Parameters
    ----------
    rows : sequence of str
        The board, one string per row: ``.`` free, ``*`` blocked, ``P``,
        ``T``, ``E``.  Use :meth:`parse` for text with its ``n m`` line.
    police_moves, thief_moves : str or sequence of (int, int)
        ``"king"`` (8 neighbours), ``"rook"`` (4 orthogonal neighbours) or a
        list of ``(dr, dc)`` steps; by default king for the police, rook
        for the thief.
    passing : bool, default True
        Either side may stay put instead of moving.

    Attributes
    ----------
    rows : tuple of str
        The board.
    n_rows, n_cols : int
        Its size.
    police, thief : tuple of int
        The start cells.
    exits : numpy.ndarray
        (E, 2) int64: the exit cells.
    cells : numpy.ndarray
        (F, 2) int64: the free cells, in cell-index order.
    police_moves, thief_moves : tuple of (int, int)
        The steps.
    passing : bool
        Whether a side may pass.

    Raises
    ------
    TypeError
        If ``rows`` is not a list of strings, or a rule has the wrong type.
    BoardError
        If the board is malformed (quoting the row and column).
    ValueError
        If a rule has a bad value.

    Examples
    --------
    >>> board = PoliceThief(["P.", ".T"], thief_moves="king", passing=False)
    >>> board
    PoliceThief(2x2, cells=4, police=(0, 0), thief=(1, 1), exits=0)
    >>> board.solve().result
    'Police catches the thief'
    """

    def __init__(self, rows: Iterable[str], *, police_moves: MoveSet = "king",
                 thief_moves: MoveSet = "rook", passing: bool = True) -> None:
        if isinstance(rows, (str, bytes)):
            raise TypeError(f"rows must be a list of row strings, got the string "
                            f"{shorten(rows)}; use PoliceThief.parse(text) for a whole board")
        if not hasattr(rows, "__iter__"):
            raise TypeError(f"rows must be a list of row strings, got {shorten(rows)}")
        rows = list(rows)
        if not rows:
            raise BoardError("the board has no rows")
        for r, row in enumerate(rows):
            if not isinstance(row, str):
                raise TypeError(f"row {r} must be a string, got {shorten(row)}")
        width = len(rows[0])
        if width == 0:
            raise BoardError("row 0 is empty", row=0)
        for r, row in enumerate(rows):
            if len(row) != width:
                raise BoardError(f"row {r} has {len(row)} cells, expected {width}: "
                                 f"{shorten(row)}", row=r)
        self.police_moves = _move_set(police_moves, "police")
        self.thief_moves = _move_set(thief_moves, "thief")
        self.passing = check_bool(passing, "passing")
        # One byte per cell (any other character is refused below).
        text = "".join(rows)
        raw = text.encode("utf-8", "surrogatepass")
        if len(raw) == len(text):        # ASCII: one byte a cell
            grid = np.frombuffer(raw, dtype=np.uint8).reshape(len(rows), width)
            known = np.zeros(256, dtype=bool)
            known[[ord(ch) for ch in ".*PTE"]] = True
            bad = np.flatnonzero(~known[grid])
            k = int(bad[0]) if bad.size else -1
        else:
            k = next(i for i, ch in enumerate(text) if ord(ch) > 127)
        if k >= 0:
            r, c = divmod(k, width)
            raise BoardError(f"row {r}, column {c}: unknown cell {text[k]!r} "
                             f"(expected one of . * P T E)", row=r, col=c)
        found: dict[str, Cell] = {}
        for name in "PT":
            where = np.argwhere(grid == ord(name))
            if len(where) == 0:
                raise BoardError(f"the board has no {name}")
            if len(where) > 1:
                (r0, c0), (r, c) = where[0].tolist(), where[1].tolist()
                raise BoardError(f"a second {name} at row {r}, column {c} (the first is at "
                                 f"row {r0}, column {c0})", row=r, col=c)
            found[name] = (int(where[0][0]), int(where[0][1]))
        self.rows = tuple(rows)
        self.n_rows, self.n_cols = len(rows), width
        self.police, self.thief = found["P"], found["T"]
        self.exits = readonly(np.argwhere(grid == ord("E")).astype(np.int64))
        free = grid != ord("*")
        self.cells = readonly(np.argwhere(free).astype(np.int64))
        # _grid[r, c]: the index of free cell (r, c), -1 where blocked.
        index_type = np.int32 if len(self.cells) < 2 ** 31 else np.int64
        self._grid = np.full(grid.shape, -1, dtype=index_type)
        self._grid[free] = np.arange(len(self.cells), dtype=index_type)
        readonly(self._grid)
        self._exit_mask = readonly((grid[free] == ord("E")).astype(np.uint8))

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from the rows and rules: the arrays come back read-only.
        return (_restore_board, (type(self), self.rows, self.police_moves, self.thief_moves,
                                 self.passing))

    @classmethod
    def parse(cls, text: str | bytes | bytearray, *, police_moves: MoveSet = "king",
              thief_moves: MoveSet = "rook", passing: bool = True) -> PoliceThief:
        """A board from text: a line ``n m``, then n rows of m characters.

        Lines end at ``\\n`` (a ``\\r`` before it is dropped).

        Parameters
        ----------
        text : str or bytes
            The board (bytes are read as UTF-8).
        police_moves, thief_moves, passing
            The rules, as in the class.

        Returns
        -------
        PoliceThief

        Raises
        ------
        TypeError
            If ``text`` is not text.
        BoardError
            If the board is malformed (quoting the line).

        Examples
        --------
        >>> PoliceThief.parse("2 3\\nP.E\\n..T\\n").exits
        array([[0, 2]])
        """
        if isinstance(text, (bytes, bytearray)):
            raw = bytes(text)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                line = raw.count(b"\n", 0, exc.start) + 1
                col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1)
                raise BoardError(f"line {line}, column {col}: byte {raw[exc.start]:#04x} "
                                 f"is not UTF-8 text") from None
        if not isinstance(text, str):
            raise TypeError(f"expected the board as text, got {type(text).__name__}")
        lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
        while lines and not lines[-1].strip(" \t"):
            lines.pop()
        first = next((i for i, line in enumerate(lines) if line.strip(" \t")), None)
        if first is None:
            raise BoardError("empty input: expected 'n m' on the first line")
        head = re.fullmatch(r"[ \t]*([0-9]{1,18})[ \t]+([0-9]{1,18})[ \t]*", lines[first],
                            re.ASCII)
        if head is None:
            raise BoardError(f"line {first + 1}: expected 'n m' (rows, columns: at most 18 "
                             f"digits 0-9), got {shorten(lines[first])}")
        n, m = int(head.group(1)), int(head.group(2))
        if n <= 0 or m <= 0:
            raise BoardError(f"the board must have n, m >= 1, got {n} x {m}")
        rows = lines[first + 1:]
        if len(rows) != n:
            raise BoardError(f"expected {n} rows after the first line, got {len(rows)}",
                             row=min(len(rows), n))
        for r, row in enumerate(rows):
            if len(row) != m:
                raise BoardError(f"row {r} (line {first + 2 + r}) has {len(row)} cells, "
                                 f"expected {m}: {shorten(row)}", row=r)
        return cls(rows, police_moves=police_moves, thief_moves=thief_moves, passing=passing)

    # -- geometry -----------------------------------------------------------

    @property
    def n_cells(self) -> int:
        """Number of free cells (everything but ``*``).

        Examples
        --------
        >>> PoliceThief(["P*T"]).n_cells
        2
        """
        return len(self.cells)

    @property
    def n_positions(self) -> int:
        """2 * n_cells^2: (police cell, thief cell, whose turn).

        Examples
        --------
        >>> PoliceThief(["P*T"]).n_positions
        8
        """
        return 2 * self.n_cells ** 2

    def cell_index(self, cell: Cell) -> int:
        """Index (0..n_cells-1) of a free cell.

        Parameters
        ----------
        cell : tuple of int
            (row, col).

        Returns
        -------
        int

        Raises
        ------
        TypeError
            If ``cell`` is not a pair of integers.
        BoardError
            If it is off the board or blocked.

        Examples
        --------
        >>> PoliceThief(["P*T"]).cell_index((0, 2))
        1
        """
        r, c = _as_cell(cell)
        if not (0 <= r < self.n_rows and 0 <= c < self.n_cols):
            raise BoardError(f"cell {(r, c)} is off the {self.n_rows} x {self.n_cols} board",
                             row=r, col=c)
        i = int(self._grid[r, c])
        if i < 0:
            raise BoardError(f"cell {(r, c)} is blocked", row=r, col=c)
        return i

    def is_exit(self, cell: Cell) -> bool:
        """True if ``cell`` (a free cell) is an exit.

        Parameters
        ----------
        cell : tuple of int
            (row, col).

        Returns
        -------
        bool

        Raises
        ------
        TypeError, BoardError
            As for :meth:`cell_index`.

        Examples
        --------
        >>> PoliceThief(["PTE"]).is_exit((0, 2))
        True
        """
        return bool(self._exit_mask[self.cell_index(cell)])

    def steps(self, cell: Cell, who: str) -> list[Cell]:
        """Cells one step of ``who`` leads to from ``cell``, in move-set order.

        Passes are not included.

        Parameters
        ----------
        cell : tuple of int
            (row, col), a free cell.
        who : {"police", "thief"}
            Whose steps.

        Returns
        -------
        list of tuple of int

        Raises
        ------
        ValueError
            If ``who`` is neither.
        TypeError, BoardError
            As for :meth:`cell_index`.

        Examples
        --------
        >>> PoliceThief(["P.", "*T"]).steps((0, 0), "thief")
        [(0, 1)]
        """
        if who == "police":
            offsets = self.police_moves
        elif who == "thief":
            offsets = self.thief_moves
        else:
            raise ValueError(f"who must be 'police' or 'thief', got {shorten(who)}")
        r, c = (int(x) for x in self.cells[self.cell_index(cell)])
        out: list[Cell] = []
        for dr, dc in offsets:
            r2, c2 = r + dr, c + dc
            if 0 <= r2 < self.n_rows and 0 <= c2 < self.n_cols and self._grid[r2, c2] >= 0:
                out.append((r2, c2))
        return out

    def _tables(self, offsets: Steps) -> tuple[Int64Array, Int64Array]:
        """Reverse move table [F, k] (the cells with a step into each cell,
        -1 padded) and the forward table [F, k] (the cell step d leads to,
        -1 where none), built with numpy."""
        F, k = self.n_cells, len(offsets)
        r, c = self.cells[:, 0], self.cells[:, 1]
        # target[i, d]: the cell step d leads to from cell i, or -1.
        target = np.full((F, k), -1, dtype=np.int64)
        for d, (dr, dc) in enumerate(offsets):
            r2, c2 = r + dr, c + dc
            inside = (r2 >= 0) & (r2 < self.n_rows) & (c2 >= 0) & (c2 < self.n_cols)
            target[inside, d] = self._grid[r2[inside], c2[inside]]
        src, step = np.nonzero(target >= 0)         # steps src -> target[src, step]
        dst = target[src, step]
        del step
        order = np.argsort(dst, kind="stable")
        src, dst = src[order], dst[order]
        del order
        start = np.searchsorted(dst, np.arange(F))
        slot = np.arange(len(dst)) - start[dst]
        pred = np.full((F, k), -1, dtype=np.int64)
        pred[dst, slot] = src
        return pred, target

    def memory_estimate(self, *, remoteness_bytes: int = 2) -> int:
        """Bytes a solve allocates at its peak.

        Per position one byte of state and the remoteness (2 bytes, 4 after
        an overflow rerun); the move tables and their building; and the
        engine's queue holding the finished positions it starts from and a
        frontier.  (A queue that outgrows what is left under ``max_memory``
        stops the solve with a :class:`grundy.MemoryLimitError`: peak memory
        never passes it.)

        Parameters
        ----------
        remoteness_bytes : {2, 4}
            Bytes of remoteness per position.

        Returns
        -------
        int

        Raises
        ------
        TypeError, ValueError
            If ``remoteness_bytes`` is not 2 or 4.

        Examples
        --------
        >>> PoliceThief(["P" + "." * 98 + "T"]).memory_estimate() > 3 * 2 * 100 ** 2
        True
        """
        if check_int(remoteness_bytes, "remoteness_bytes") not in (2, 4):
            raise ValueError(f"remoteness_bytes must be 2 or 4, got {remoteness_bytes}")
        return solve_bytes(self.n_positions, remoteness_bytes, self._table_bytes(),
                            self._queue_allowance())

    def _table_bytes(self) -> int:
        """The move tables (forward and reverse) and their building."""
        return 64 * self.n_cells * (len(self.police_moves) + len(self.thief_moves) + 2)

    def move_source(self) -> _police.PoliceThiefSource:
        """The compiled rules of this board: the ``MoveSource`` plug-in that
        :meth:`solve` solves (also for :func:`grundy.solve_source`, with
        ``misere=``, and :mod:`grundy.distributed`).

        Returns
        -------
        grundy._core.police.PoliceThiefSource
            A new source, owning copies of the board's move tables.

        Examples
        --------
        >>> import grundy
        >>> board = PoliceThief(["P.T", "..E"])
        >>> src = board.move_source()
        >>> src.n_positions == board.n_positions
        True
        >>> grundy.solve_source(src).outcome.tolist() == board.solve().outcome.tolist()
        True
        """
        pol_pred, pol_next = self._tables(self.police_moves)
        thf_pred, thf_next = self._tables(self.thief_moves)
        return _police.PoliceThiefSource(pol_next, thf_next, pol_pred, thf_pred,
                                         self._exit_mask, self.passing)

    def _queue_allowance(self) -> int:
        """Queue entries the estimate allows for: every state that starts the
        analysis (the police on the thief, or the thief on an exit, either
        side to move), and a frontier of 1/64 of the states (measured peaks:
        under 1% at 100x100 open boards)."""
        F, E = self.n_cells, len(self.exits)
        return 2 * (F + E * (F - 1)) + self.n_positions // 64

    def render(self, *, police: Cell | None = None, thief: Cell | None = None) -> str:
        """The board as text with P and T at the given cells (default: the start).

        The exits are kept (``E``, or ``T`` where the thief stands on one);
        ``X`` marks the police on the thief.

        Parameters
        ----------
        police, thief : tuple of int, optional
            The cells, (row, col).

        Returns
        -------
        str

        Raises
        ------
        TypeError, BoardError
            As for :meth:`cell_index`.

        Examples
        --------
        >>> print(PoliceThief(["P.E", "..T"]).render(thief=(0, 2)))
        P.T
        ...
        """
        police = self.police if police is None else _as_cell(police)
        thief = self.thief if thief is None else _as_cell(thief)
        self.cell_index(police), self.cell_index(thief)
        grid = [["." if ch in "PT" else ch for ch in row] for row in self.rows]
        grid[thief[0]][thief[1]] = "T"
        grid[police[0]][police[1]] = "P" if police != thief else "X"
        return "\n".join("".join(row) for row in grid)

    def __repr__(self) -> str:
        return (f"PoliceThief({self.n_rows}x{self.n_cols}, cells={self.n_cells}, "
                f"police={self.police}, thief={self.thief}, exits={len(self.exits)})")

    # -- solving --------------------------------------------------------------

    def solve(self, *, max_memory: int | None = None, progress: Progress = None,
              threads: int | None = None) -> PoliceThiefSolution:
        """Outcome, remoteness and best move of every position.

        Ctrl-C stops a long solve (KeyboardInterrupt).

        Parameters
        ----------
        max_memory : int, optional
            Bytes the solve may take (default: the memory available); a
            larger solve is refused before its arrays are allocated, and
            peak memory stays within it.
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
        PoliceThiefSolution

        Raises
        ------
        MemoryLimitError
            If the solve would need more than ``max_memory``.

        Examples
        --------
        >>> PoliceThief(["P.ET"]).solve().result
        'The thief escapes'
        """
        check_progress(progress)
        threads = check_threads(threads)
        what = f"solving this board ({self.n_positions:,} positions)"
        check_memory(self.memory_estimate(), max_memory, what)     # before the tables
        source = self.move_source()
        outcome, remoteness = solve_states(source, max_memory=max_memory,
                                           fixed_bytes=self._table_bytes(),
                                           allowance=self._queue_allowance(), what=what,
                                           progress=progress, threads=threads)
        return PoliceThiefSolution._of_board(self, outcome, remoteness, max_memory, source,
                                             threads)


def _restore_solution(cls: type[PoliceThiefSolution], board: PoliceThief,
                      outcome: npt.NDArray[np.int8],
                      remoteness: npt.NDArray[np.uint16] | npt.NDArray[np.int32],
                      max_memory: int | None) -> PoliceThiefSolution:
    return cls._of_board(board, outcome.copy(), remoteness.copy(), max_memory)


def _restore_board(cls: type[PoliceThief], rows: tuple[str, ...], police_moves: Steps,
                   thief_moves: Steps, passing: bool) -> PoliceThief:
    return cls(rows, police_moves=police_moves, thief_moves=thief_moves, passing=passing)


class PoliceThiefSolution(SourceSolution):
    """Every position of a police-and-thief board, solved: the protocol of
    :class:`grundy.Solution`.

    Positions are :class:`PolicePosition` tuples ``(police cell, thief
    cell, police_to_move)``, cells as (row, col); position number
    ``(p * n_cells + t) * 2 + police_to_move`` for the cell indices p, t
    (:meth:`PoliceThief.cell_index`), so ``outcome.reshape(F, F, 2)`` is
    indexed ``[p, t, police_to_move]``.  ``outcome`` is the solve's own
    array; ``remoteness`` and ``move`` (8 bytes a position each) are built
    on first use, while ``sol[p]``, ``best_move`` and ``line`` never need
    them.  Made by :meth:`PoliceThief.solve`.

    Parameters
    ----------
    board : PoliceThief
        The board solved (kept as the attribute ``board``).
    outcome : array_like of int
        The outcome of every position (-1..1), copied as int8.
    remoteness : array_like of int
        The remoteness of every position (>= 0; 0 or -1 at draws), copied
        as int32.
    max_memory : int, optional
        Bytes the arrays built on first use may take (default: the memory
        available then).

    Raises
    ------
    TypeError
        If ``board`` is not a PoliceThief, or an array does not hold integers.
    ValueError
        If an array has the wrong length or a value out of range.

    Examples
    --------
    >>> board = PoliceThief.parse("1 3\\nP.T")
    >>> sol = board.solve()
    >>> sol.result, sol[sol.start]
    ('Police catches the thief', Evaluation(WIN, remoteness=3, move=PolicePosition(police=(0, 1), thief=(0, 2), police_to_move=False)))
    """

    __slots__ = ("board",)

    def __init__(self, board: PoliceThief, outcome: npt.ArrayLike, remoteness: npt.ArrayLike,
                 *, max_memory: int | None = None) -> None:
        if not isinstance(board, PoliceThief):
            raise TypeError(f"board must be a PoliceThief, got {shorten(board)}")
        self.board = board
        super().__init__(board.move_source(), outcome, remoteness, max_memory=max_memory)

    @classmethod
    def _of_board(cls, board: PoliceThief, outcome: npt.NDArray[np.int8],
               remoteness: npt.NDArray[np.uint16] | npt.NDArray[np.int32],
               max_memory: int | None, source: Any = None,
               threads: int | None = None) -> PoliceThiefSolution:
        """A solution on the arrays of a solve (not copied), and its rules."""
        self: PoliceThiefSolution = super()._owned(
            board.move_source() if source is None else source, outcome, remoteness, max_memory,
            threads)
        self.board = board
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt through _owned: the arrays are read-only again.
        return (_restore_solution, (type(self), self.board, self._outcome, self._rem,
                                    self._max_memory))

    def _saved(self) -> tuple[str, Any, dict[str, npt.NDArray[Any]]]:
        b = self.board
        data = {"rows": list(b.rows), "police_moves": [list(d) for d in b.police_moves],
                "thief_moves": [list(d) for d in b.thief_moves], "passing": b.passing}
        # The compact remoteness (uint16 or int32, 0 at draws): move and the
        # int64 remoteness are rebuilt from the board when asked for.
        return "police", data, {"outcome": self._outcome, "remoteness": self._rem}

    @classmethod
    def _from_saved(cls, data: Any, arrays: dict[str, npt.NDArray[Any]]
                    ) -> PoliceThiefSolution:
        rows, outcome = data["rows"], need(arrays, "outcome", np.int8)
        if not (isinstance(rows, list) and all(isinstance(r, str) for r in rows)):
            raise ValueError(f"the board's rows are {shorten(rows)}, not strings")
        # The board must fit the arrays before its tables are built.
        free = sum(len(r) - r.count("*") for r in rows)
        if 2 * free * free != len(outcome):
            raise ValueError(f"a board of {free:,} free cells has {2 * free * free:,} "
                             f"positions, the file holds {len(outcome):,}")
        steps = {k: [tuple(d) if isinstance(d, list) else d for d in data[k]]
                 for k in ("police_moves", "thief_moves")}
        board = PoliceThief(rows, passing=data["passing"], **steps)
        n = board.n_positions
        need(arrays, "outcome", np.int8, n, -1, 1)
        rem = arrays.get("remoteness")
        if rem is None or rem.dtype not in (np.uint16, np.int32):
            raise ValueError("the remoteness array is missing or not uint16/int32")
        need(arrays, "remoteness", rem.dtype, n, 0, 2 ** 31 - 1)
        return cls._of_board(board, outcome, rem, None)

    @property
    def start(self) -> PolicePosition:
        """The starting position: both on their start cells, the police to move.

        Examples
        --------
        >>> PoliceThief.parse("1 3\\nP.T").solve().start
        PolicePosition(police=(0, 0), thief=(0, 2), police_to_move=True)
        """
        b = self.board
        return PolicePosition(b.police, b.thief, True)

    def index(self, position: PolicePosition | tuple[Cell, Cell, bool]) -> int:
        """Number of a position ``(police cell, thief cell, police_to_move)``.

        Parameters
        ----------
        position : PolicePosition or tuple
            Cells as (row, col); ``police_to_move`` a bool.

        Returns
        -------
        int

        Raises
        ------
        TypeError
            If it is not such a triple.
        BoardError
            If a cell is off the board or blocked.

        Examples
        --------
        >>> PoliceThief.parse("1 2\\nPT").solve().index(((0, 0), (0, 1), True))
        3
        """
        if isinstance(position, (str, bytes)) or not hasattr(position, "__len__") or \
                len(position) != 3:
            raise TypeError(f"a police-and-thief position is (police cell, thief cell, "
                            f"police_to_move), got {shorten(position)}")
        police, thief, police_to_move = position
        b = self.board
        p, t = b.cell_index(police), b.cell_index(thief)
        return (p * b.n_cells + t) * 2 + int(check_bool(police_to_move, "police_to_move"))

    def position(self, i: int) -> PolicePosition:
        """The position numbered ``i``.

        Parameters
        ----------
        i : int
            A position number, 0..n_positions-1.

        Returns
        -------
        PolicePosition

        Raises
        ------
        ValueError
            If ``i`` is out of range.

        Examples
        --------
        >>> PoliceThief.parse("1 2\\nPT").solve().position(3)
        PolicePosition(police=(0, 0), thief=(0, 1), police_to_move=True)
        """
        i = check_number(i, self._outcome.size)
        p, t = divmod(i >> 1, self.board.n_cells)
        cells = self.board.cells
        return PolicePosition((int(cells[p, 0]), int(cells[p, 1])),
                              (int(cells[t, 0]), int(cells[t, 1])), bool(i & 1))

    @property
    def result(self) -> str:
        """From the start: "Police catches the thief", "The thief escapes" or "Draw".

        Examples
        --------
        >>> PoliceThief.parse("1 3\\nP.T").solve().result
        'Police catches the thief'
        """
        o = Outcome(int(self._outcome[self.index(self.start)]))
        return {WIN: "Police catches the thief", LOSS: "The thief escapes", DRAW: "Draw"}[o]

    def __repr__(self) -> str:
        return f"PoliceThiefSolution({self.result!r}, n_positions={self.n_positions})"
