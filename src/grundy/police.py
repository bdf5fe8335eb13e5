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
from collections import namedtuple

import numpy as np

from grundy._common import DRAW, LOSS, WIN, Outcome, check_count, readonly
from grundy._core import police as _police

__all__ = ["PoliceThief", "PoliceThiefSolution", "BoardError", "State"]

KING = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
ROOK = ((-1, 0), (0, -1), (0, 1), (1, 0))
MOVE_SETS = {"king": KING, "rook": ROOK}

DEFAULT_MAX_MEMORY = 4 * 2 ** 30

State = namedtuple("State", "police thief police_to_move")
State.__doc__ = "A position: police cell, thief cell (both (row, col)), whose turn."


def _as_cell(cell):
    """``cell`` as a (row, col) tuple of ints, or a TypeError."""
    try:
        r, c = cell
        return (int(r), int(c))
    except (TypeError, ValueError):
        raise TypeError(f"a cell is a (row, col) pair, got {cell!r}") from None


class BoardError(ValueError):
    """A malformed police-and-thief board.  ``row`` and ``col`` (0-based)
    locate the problem where there is one, else they are None."""

    def __init__(self, message, row=None, col=None):
        super().__init__(message)
        self.row = row
        self.col = col


def _move_set(moves, who):
    if isinstance(moves, str):
        try:
            return MOVE_SETS[moves]
        except KeyError:
            raise ValueError(f"{who}_moves {moves!r} is not a move set: use 'king', 'rook' "
                             f"or a list of (dr, dc) offsets") from None
    try:
        offsets = [tuple(int(x) for x in d) for d in moves]
    except (TypeError, ValueError):
        raise TypeError(f"{who}_moves must be 'king', 'rook' or a list of (dr, dc) "
                        f"integer pairs, got {moves!r}") from None
    for d in offsets:
        if len(d) != 2:
            raise ValueError(f"{who}_moves: offset {d!r} is not a (dr, dc) pair")
        if d == (0, 0):
            raise ValueError(f"{who}_moves: (0, 0) is not a step; passing is the "
                             f"'passing' option")
    if len(set(offsets)) != len(offsets):
        raise ValueError(f"{who}_moves: repeated offsets in {moves!r}")
    if not offsets or len(offsets) > 250:
        raise ValueError(f"{who}_moves must hold 1..250 offsets, got {len(offsets)}")
    return tuple(offsets)


class PoliceThief:
    """A police-and-thief board and its rules.

    ``police_moves`` / ``thief_moves``: ``"king"`` (8 neighbours),
    ``"rook"`` (4 orthogonal neighbours) or a list of ``(dr, dc)`` steps;
    defaults king for the police, rook for the thief.  ``passing``: either
    side may stay put instead of moving (default True).  Cells are (row, col),
    0-based.
    """

    def __init__(self, rows, *, police_moves="king", thief_moves="rook", passing=True):
        rows = list(rows)
        if not rows:
            raise BoardError("the board has no rows")
        for r, row in enumerate(rows):
            if not isinstance(row, str):
                raise TypeError(f"row {r} must be a string, got {row!r}")
        width = len(rows[0])
        if width == 0:
            raise BoardError("row 0 is empty", row=0)
        police, thief, exits = [], [], []
        for r, row in enumerate(rows):
            if len(row) != width:
                raise BoardError(f"row {r} has {len(row)} cells, expected {width}: {row!r}", row=r)
            for c, ch in enumerate(row):
                if ch == "P":
                    police.append((r, c))
                elif ch == "T":
                    thief.append((r, c))
                elif ch == "E":
                    exits.append((r, c))
                elif ch not in ".*":
                    raise BoardError(f"row {r}, column {c}: unknown cell {ch!r} "
                                     f"(expected one of . * P T E)", row=r, col=c)
        for name, found in (("P", police), ("T", thief)):
            if not found:
                raise BoardError(f"the board has no {name}")
            if len(found) > 1:
                (r, c) = found[1]
                raise BoardError(f"a second {name} at row {r}, column {c} (the first is at "
                                 f"row {found[0][0]}, column {found[0][1]})", row=r, col=c)
        if not exits:
            raise BoardError("the board has no exit E")
        self.rows = tuple(rows)
        self.n_rows, self.n_cols = len(rows), width
        self.police, self.thief = police[0], thief[0]
        self.exits = tuple(exits)
        self.police_moves = _move_set(police_moves, "police")
        self.thief_moves = _move_set(thief_moves, "thief")
        self.passing = bool(passing)
        cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "*"]
        self.cells = readonly(np.array(cells, dtype=np.int64).reshape(-1, 2))
        self._index = {cell: i for i, cell in enumerate(cells)}

    @classmethod
    def parse(cls, text, **rules):
        """A board from text: a line ``n m``, then n rows of m characters.

        Rules (``police_moves``, ``thief_moves``, ``passing``) as in the class.
        """
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        if not isinstance(text, str):
            raise TypeError(f"expected the board as text, got {type(text).__name__}")
        lines = text.splitlines()
        while lines and not lines[-1].strip():
            lines.pop()
        if not lines or not lines[0].strip():
            raise BoardError("empty input: expected 'n m' on the first line")
        head = lines[0].split()
        try:
            if len(head) != 2:
                raise ValueError
            n, m = int(head[0]), int(head[1])
        except ValueError:
            raise BoardError(f"first line must be 'n m' (rows, columns), got {lines[0]!r}") from None
        if n <= 0 or m <= 0:
            raise BoardError(f"the board must have n, m >= 1, got {n} x {m}")
        rows = [line.rstrip("\r") for line in lines[1:]]
        if len(rows) != n:
            raise BoardError(f"expected {n} rows after the first line, got {len(rows)}",
                             row=min(len(rows), n))
        for r, row in enumerate(rows):
            if len(row) != m:
                raise BoardError(f"row {r} has {len(row)} cells, expected {m}: {row!r}", row=r)
        return cls(rows, **rules)

    @classmethod
    def from_rows(cls, rows, **rules):
        """A board from a list of row strings."""
        if isinstance(rows, str):
            raise TypeError("from_rows takes a list of row strings; use parse() for text")
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
        key = _as_cell(cell)
        i = self._index.get(key)
        if i is None:
            r, c = key
            if not (0 <= r < self.n_rows and 0 <= c < self.n_cols):
                raise BoardError(f"cell {key} is off the {self.n_rows} x {self.n_cols} board",
                                 row=r, col=c)
            raise BoardError(f"cell {key} is blocked", row=r, col=c)
        return i

    def steps(self, cell, who):
        """Cells one step of ``who`` ("police" or "thief") leads to from cell
        (passes not included), in move-set order."""
        offsets = self.police_moves if who == "police" else self.thief_moves
        r, c = self.cells[self.cell_index(cell)]
        out = []
        for dr, dc in offsets:
            key = (int(r + dr), int(c + dc))
            if key in self._index:
                out.append(key)
        return out

    def _tables(self, offsets):
        """Reverse move table [F, k] (the cells with a step into each cell,
        -1 padded) and forward step counts [F], built with numpy."""
        F, k = self.n_cells, len(offsets)
        grid = np.full((self.n_rows, self.n_cols), -1, dtype=np.int64)
        r, c = self.cells[:, 0], self.cells[:, 1]
        grid[r, c] = np.arange(F)
        # target[i, d]: the cell step d leads to from cell i, or -1.
        target = np.full((F, k), -1, dtype=np.int64)
        for d, (dr, dc) in enumerate(offsets):
            r2, c2 = r + dr, c + dc
            inside = (r2 >= 0) & (r2 < self.n_rows) & (c2 >= 0) & (c2 < self.n_cols)
            target[inside, d] = grid[r2[inside], c2[inside]]
        deg = (target >= 0).sum(axis=1)
        src, d = np.nonzero(target >= 0)            # steps src -> target[src, d]
        dst = target[src, d]
        order = np.argsort(dst, kind="stable")
        src, dst = src[order], dst[order]
        start = np.searchsorted(dst, np.arange(F))
        slot = np.arange(len(dst)) - start[dst]
        pred = np.full((F, k), -1, dtype=np.int64)
        pred[dst, slot] = src
        return pred, deg

    def memory_estimate(self, remoteness_bytes=2):
        """Bytes the solver is expected to allocate: per state one byte of
        state, the remoteness (2 bytes, 4 after an overflow rerun) and an
        allowance for the queue, which holds only the frontier."""
        return self.n_states * (1 + remoteness_bytes + _QUEUE_BYTES_PER_STATE) + \
            16 * self.n_cells * (len(self.police_moves) + len(self.thief_moves) + 2)

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

    def solve(self, *, max_memory=DEFAULT_MAX_MEMORY):
        """Outcome and remoteness of every state (see :class:`PoliceThiefSolution`).

        Refuses, with a BoardError naming the estimate, a board whose state
        arrays would need more than ``max_memory`` bytes (default 4 GiB).
        """
        max_memory = check_count(max_memory, "max_memory")
        estimate = self.memory_estimate()
        if estimate > max_memory:
            raise BoardError(
                f"solving this board needs about {estimate / 2 ** 20:,.0f} MiB "
                f"({self.n_states:,} states), more than max_memory = "
                f"{max_memory / 2 ** 20:,.0f} MiB; pass a larger max_memory to solve() "
                f"(or --max-memory on the command line) if the machine has it")
        pol_pred, pol_deg = self._tables(self.police_moves)
        thf_pred, thf_deg = self._tables(self.thief_moves)
        exits = np.zeros(self.n_cells, dtype=np.uint8)
        for cell in self.exits:
            exits[self._index[cell]] = 1
        state = np.empty(self.n_states, dtype=np.uint8)
        for dtype in (np.uint16, np.int32):
            remoteness = np.empty(self.n_states, dtype=dtype)
            if _police.solve_police(pol_pred, pol_deg, thf_pred, thf_deg, exits,
                                    self.passing, state, remoteness):
                break
            # A remoteness above 65535: rerun with int32 (if it fits the budget).
            del remoteness
            estimate = self.memory_estimate(remoteness_bytes=4)
            if estimate > max_memory:
                raise BoardError(
                    f"this board has remoteness above 65535 and needs about "
                    f"{estimate / 2 ** 20:,.0f} MiB with 32-bit remoteness, more than "
                    f"max_memory = {max_memory / 2 ** 20:,.0f} MiB")
        F = self.n_cells
        outcomes = state.view(np.int8).reshape(F, F, 2)
        return PoliceThiefSolution(self, outcomes, remoteness.reshape(F, F, 2))


# The engine's queue holds the frontier, not every state: measured peaks
# are 12% of the states at 20x20 and 2.6% at 100x100 (8 bytes an entry, a
# ring buffer that doubles), so one byte per state is a safe allowance.  If
# it were not, the queue's allocation fails cleanly with a MemoryError.
_QUEUE_BYTES_PER_STATE = 1


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

    def _state(self, police, thief, police_to_move):
        b = self.board
        return b.cell_index(police), b.cell_index(thief), int(bool(police_to_move))

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
        return tuple(police) == tuple(thief) or tuple(thief) in self.board.exits

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
