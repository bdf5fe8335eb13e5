"""Police and thief on a board: parsing, solving every state, rendering.

The board has free cells ``.``, blocked cells ``*``, the police start ``P``,
the thief start ``T`` and exits ``E``.  The police steps to one of the 8
neighbouring free cells, the thief to one of the 4 orthogonal ones; either
may pass instead.  The police moves first.  The police wins by standing on
the thief's cell, the thief by standing on an exit (without the police).

>>> board = PoliceThief.parse('''3 4
... P..E
... .**.
... ...T''')
>>> sol = board.solve()
>>> sol.result
'The thief escapes'
>>> sol.outcome((0, 0), (2, 3)), sol.remoteness((0, 0), (2, 3))
(<Outcome.LOSS: -1>, 4)
>>> sol.best_move((0, 0), (2, 3), police_to_move=False)     # the thief heads up
(1, 3)
"""
import re
from collections import namedtuple

import numpy as np

from grundy._common import (DRAW, INT64_MAX, LOSS, WIN, Outcome, check_bool, check_memory,
                            is_integer, queue_limit_error, readonly, shorten)
from grundy._core import police as _police
from grundy._core import retrograde as _retro

__all__ = ["PoliceThief", "PoliceThiefSolution", "BoardError", "State"]

KING = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
ROOK = ((-1, 0), (0, -1), (0, 1), (1, 0))
MOVE_SETS = {"king": KING, "rook": ROOK}

State = namedtuple("State", "police thief police_to_move")
State.__doc__ = "A position: police cell, thief cell (both (row, col)), whose turn."


def _as_cell(cell):
    """``cell`` as a (row, col) tuple of Python ints, or a TypeError."""
    if isinstance(cell, (str, bytes)) or not hasattr(cell, "__len__") or len(cell) != 2:
        raise TypeError(f"a cell is a (row, col) pair of integers, got {shorten(cell)}")
    r, c = cell
    if not (is_integer(r) and is_integer(c)):
        raise TypeError(f"a cell is a (row, col) pair of integers, got {shorten(cell)}")
    return (int(r), int(c))


class BoardError(ValueError):
    """A malformed police-and-thief board.  ``row`` and ``col`` (0-based)
    locate the problem where there is one, else they are None."""

    def __init__(self, message, row=None, col=None):
        super().__init__(message)
        self.row = row
        self.col = col


# A step longer than this never stays on a board (and keeps the arithmetic
# of cells far inside int64).
_MAX_STEP = 2 ** 31


def _move_set(moves, who):
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

    ``rows``: the board as a list of row strings (``.`` free, ``*``
    blocked, ``P``, ``T``, ``E``); use :meth:`parse` for text.
    ``police_moves`` / ``thief_moves``: ``"king"`` (8 neighbours),
    ``"rook"`` (4 orthogonal neighbours) or a list of ``(dr, dc)`` steps;
    defaults king for the police, rook for the thief.  ``passing``: either
    side may stay put instead of moving (default True).  Cells are (row, col),
    0-based.  A board may have any number of exits, none included (then the
    thief wins only if the police gets stuck: a player with no move loses,
    which can happen with ``passing=False``).

    ``exits`` is an (E, 2) int64 array of the exit cells; ``cells`` the
    (F, 2) array of the free cells, in cell-index order.
    """

    def __init__(self, rows, *, police_moves="king", thief_moves="rook", passing=True):
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
        found = {}
        for name in "PT":
            where = np.argwhere(grid == ord(name))
            if len(where) == 0:
                raise BoardError(f"the board has no {name}")
            if len(where) > 1:
                (r0, c0), (r, c) = where[0].tolist(), where[1].tolist()
                raise BoardError(f"a second {name} at row {r}, column {c} (the first is at "
                                 f"row {r0}, column {c0})", row=r, col=c)
            found[name] = tuple(where[0].tolist())
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

    def __reduce__(self):
        # Rebuilt from the rows and rules: the arrays come back read-only.
        return (_restore_board, (type(self), self.rows, self.police_moves, self.thief_moves,
                                 self.passing))

    @classmethod
    def parse(cls, text, **rules):
        """A board from text: a line ``n m``, then n rows of m characters.

        Rules (``police_moves``, ``thief_moves``, ``passing``) as in the class.
        Lines end at ``\\n`` (a ``\\r`` before it is dropped).
        """
        if isinstance(text, (bytes, bytearray)):
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError as exc:
                line = bytes(text[:exc.start]).count(b"\n") + 1
                col = exc.start - (bytes(text[:exc.start]).rfind(b"\n") + 1)
                raise BoardError(f"line {line}, column {col}: byte {bytes(text)[exc.start]:#04x} "
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
        return cls(rows, **rules)

    @classmethod
    def from_rows(cls, rows, **rules):
        """A board from a list of row strings."""
        return cls(rows, **rules)

    # -- geometry -----------------------------------------------------------

    @property
    def n_cells(self):
        """Number of free cells (everything but ``*``)."""
        return len(self.cells)

    @property
    def n_states(self):
        """2 * n_cells^2: (police cell, thief cell, whose turn)."""
        return 2 * self.n_cells ** 2

    def cell_index(self, cell):
        """Index (0..n_cells-1) of a free cell given as (row, col)."""
        r, c = _as_cell(cell)
        if not (0 <= r < self.n_rows and 0 <= c < self.n_cols):
            raise BoardError(f"cell {(r, c)} is off the {self.n_rows} x {self.n_cols} board",
                             row=r, col=c)
        i = int(self._grid[r, c])
        if i < 0:
            raise BoardError(f"cell {(r, c)} is blocked", row=r, col=c)
        return i

    def is_exit(self, cell):
        """True if ``cell`` (a free cell) is an exit."""
        return bool(self._exit_mask[self.cell_index(cell)])

    def steps(self, cell, who):
        """Cells one step of ``who`` ("police" or "thief") leads to from cell
        (passes not included), in move-set order."""
        if who == "police":
            offsets = self.police_moves
        elif who == "thief":
            offsets = self.thief_moves
        else:
            raise ValueError(f"who must be 'police' or 'thief', got {shorten(who)}")
        r, c = (int(x) for x in self.cells[self.cell_index(cell)])
        out = []
        for dr, dc in offsets:
            r2, c2 = r + dr, c + dc
            if 0 <= r2 < self.n_rows and 0 <= c2 < self.n_cols and self._grid[r2, c2] >= 0:
                out.append((r2, c2))
        return out

    def _tables(self, offsets):
        """Reverse move table [F, k] (the cells with a step into each cell,
        -1 padded) and forward step counts [F], built with numpy."""
        F, k = self.n_cells, len(offsets)
        r, c = self.cells[:, 0], self.cells[:, 1]
        # target[i, d]: the cell step d leads to from cell i, or -1.
        target = np.full((F, k), -1, dtype=np.int64)
        for d, (dr, dc) in enumerate(offsets):
            r2, c2 = r + dr, c + dc
            inside = (r2 >= 0) & (r2 < self.n_rows) & (c2 >= 0) & (c2 < self.n_cols)
            target[inside, d] = self._grid[r2[inside], c2[inside]]
        deg = (target >= 0).sum(axis=1)
        src, d = np.nonzero(target >= 0)            # steps src -> target[src, d]
        dst = target[src, d]
        del target, d
        order = np.argsort(dst, kind="stable")
        src, dst = src[order], dst[order]
        del order
        start = np.searchsorted(dst, np.arange(F))
        slot = np.arange(len(dst)) - start[dst]
        pred = np.full((F, k), -1, dtype=np.int64)
        pred[dst, slot] = src
        return pred, deg

    def memory_estimate(self, remoteness_bytes=2):
        """Bytes a solve allocates at its peak: per state one byte of state
        and the remoteness (2 bytes, 4 after an overflow rerun); the move
        tables and their building; and the engine's queue holding the
        finished states it starts from and a frontier.  (A queue that
        outgrows what is left under ``max_memory`` stops the solve with a
        :class:`grundy.MemoryLimitError`: peak memory never passes it.)"""
        F = self.n_cells
        k = len(self.police_moves) + len(self.thief_moves)
        return self.n_states * (1 + remoteness_bytes) + 64 * F * (k + 2) + \
            _retro.queue_bytes(self._queue_allowance())

    def _queue_allowance(self):
        """Queue entries the estimate allows for: every state that starts the
        analysis (the police on the thief, or the thief on an exit, either
        side to move), and a frontier of 1/64 of the states (measured peaks:
        under 1% at 100x100 open boards)."""
        F, E = self.n_cells, len(self.exits)
        return 2 * (F + E * (F - 1)) + self.n_states // 64

    def render(self, police=None, thief=None):
        """The board as text with P and T at the given cells (default: the
        start), the exits kept (``E``, or where the thief stands on one, ``T``)."""
        police = self.police if police is None else _as_cell(police)
        thief = self.thief if thief is None else _as_cell(thief)
        self.cell_index(police), self.cell_index(thief)
        grid = [["." if ch in "PT" else ch for ch in row] for row in self.rows]
        grid[thief[0]][thief[1]] = "T"
        grid[police[0]][police[1]] = "P" if police != thief else "X"
        return "\n".join("".join(row) for row in grid)

    def __repr__(self):
        return (f"PoliceThief({self.n_rows}x{self.n_cols}, cells={self.n_cells}, "
                f"police={self.police}, thief={self.thief}, exits={len(self.exits)})")

    # -- solving --------------------------------------------------------------

    def solve(self, *, max_memory=None):
        """Outcome and remoteness of every state (see :class:`PoliceThiefSolution`).

        ``max_memory`` (bytes; default: the memory available): a board
        whose solve would need more is refused with
        :class:`grundy.MemoryLimitError` naming the estimate, before the
        state arrays are allocated; peak memory stays within it.  Ctrl-C
        stops a long solve (KeyboardInterrupt).
        """
        what = f"solving this board ({self.n_states:,} states)"
        limit = check_memory(self.memory_estimate(), max_memory, what)
        allowance = _retro.queue_bytes(self._queue_allowance())
        pol_pred, pol_deg = self._tables(self.police_moves)
        thf_pred, thf_deg = self._tables(self.thief_moves)
        state = np.empty(self.n_states, dtype=np.uint8)
        for dtype, width in ((np.uint16, 2), (np.int32, 4)):
            if width == 4:
                # A remoteness above 65535: rerun with int32 (if it fits the budget).
                check_memory(self.memory_estimate(remoteness_bytes=4), max_memory,
                             f"{what}, whose remoteness exceeds 65535 and needs 32 bits,")
            remoteness = np.empty(self.n_states, dtype=dtype)
            fixed = self.memory_estimate(width) - allowance
            status = _police.solve_police(pol_pred, pol_deg, thf_pred, thf_deg,
                                          self._exit_mask, self.passing, state, remoteness,
                                          max_queue_bytes=min(limit - fixed, INT64_MAX))
            if status == "ok":
                break
            if status == "memory limit":
                raise queue_limit_error(what, fixed + _retro.queue_bytes(self.n_states),
                                        limit, fixed, max_memory)
            del remoteness
        else:                   # pragma: no cover - needs a remoteness past 2^31
            raise ValueError(f"{what}: a remoteness exceeds 2^31 - 1")
        F = self.n_cells
        outcomes = state.view(np.int8).reshape(F, F, 2)
        return PoliceThiefSolution(self, outcomes, remoteness.reshape(F, F, 2))


def _restore_board(cls, rows, police_moves, thief_moves, passing):
    return cls(rows, police_moves=police_moves, thief_moves=thief_moves, passing=passing)


class PoliceThiefSolution:
    """Every state of a police-and-thief board, solved.

    ``outcomes[p, t, police_to_move]`` (int8) is the outcome for the player
    to move, with p and t cell indices (``board.cell_index``).  The methods
    take cells as (row, col).
    """

    def __init__(self, board, outcomes, remoteness):
        self.board = board
        self.outcomes = readonly(outcomes)
        self._remoteness = readonly(remoteness)

    def __reduce__(self):
        # Through __init__, so the arrays are read-only after pickle or deepcopy.
        return (type(self), (self.board, self.outcomes, self._remoteness))

    def _state(self, police, thief, police_to_move):
        b = self.board
        return (b.cell_index(police), b.cell_index(thief),
                int(check_bool(police_to_move, "police_to_move")))

    def outcome(self, police, thief, police_to_move=True):
        """WIN / LOSS / DRAW for the player to move."""
        return Outcome(int(self.outcomes[self._state(police, thief, police_to_move)]))

    def remoteness(self, police, thief, police_to_move=True):
        """Moves to the end with perfect play (-1 for a draw)."""
        s = self._state(police, thief, police_to_move)
        return -1 if self.outcomes[s] == DRAW else int(self._remoteness[s])

    @property
    def remoteness_array(self):
        """Remoteness of every state as int64, -1 for draws (a new array)."""
        check_memory(9 * self.outcomes.size, None, "the int64 remoteness array")
        out = self._remoteness.astype(np.int64)
        out[self.outcomes == DRAW] = -1
        return out

    @property
    def result(self):
        """From the start: "Police catches the thief", "The thief escapes" or "Draw"."""
        o = self.outcome(self.board.police, self.board.thief, True)
        return {WIN: "Police catches the thief", LOSS: "The thief escapes", DRAW: "Draw"}[o]

    def _successors(self, police, thief, police_to_move):
        b = self.board
        if police_to_move:
            cells = b.steps(police, "police") + ([tuple(police)] if b.passing else [])
            return [(c, tuple(thief), False) for c in cells]
        cells = b.steps(thief, "thief") + ([tuple(thief)] if b.passing else [])
        return [(tuple(police), c, True) for c in cells]

    def _terminal(self, police, thief):
        return tuple(police) == tuple(thief) or self.board.is_exit(thief)

    def best_move(self, police, thief, police_to_move=True):
        """The mover's next cell under optimal play (its own cell for a
        pass), or None at a finished state or when the mover has no move."""
        self._state(police, thief, police_to_move)            # validates the cells
        police, thief = _as_cell(police), _as_cell(thief)
        if self._terminal(police, thief):
            return None
        o = self.outcome(police, thief, police_to_move)
        r = self.remoteness(police, thief, police_to_move)
        for p2, t2, ptm2 in self._successors(police, thief, police_to_move):
            o2 = self.outcome(p2, t2, ptm2)
            if (o == DRAW and o2 == DRAW) or \
                    (o != DRAW and o2 == -o and self.remoteness(p2, t2, ptm2) == r - 1):
                return p2 if police_to_move else t2
        return None                      # no move at all (passing disabled)

    def line(self, police=None, thief=None, police_to_move=True):
        """Optimal play from a state (default: the start) as a list of
        :class:`State`, ending at a finished state, or for a draw at the
        first repeated state."""
        b = self.board
        police = b.police if police is None else _as_cell(police)
        thief = b.thief if thief is None else _as_cell(thief)
        self._state(police, thief, police_to_move)
        state = State(police, thief, bool(police_to_move))
        out, seen = [state], {state}
        while True:
            nxt = self.best_move(*state)
            if nxt is None:
                return out
            state = (State(nxt, state.thief, False) if state.police_to_move
                     else State(state.police, nxt, True))
            out.append(state)
            if state in seen:
                return out
            seen.add(state)

    def __repr__(self):
        return f"PoliceThiefSolution({self.result!r}, states={self.outcomes.size})"
